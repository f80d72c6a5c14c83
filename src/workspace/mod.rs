//! The service layer under the three presenters (`cli`, `mcp`, `web`): what they share, in one
//! place, so each of them only turns requests and answers into its own medium.
//!
//! It owns the process state of a server ([`Workspace`]: stores and embedders opened once per
//! setting and handed down as values, the query-vector cache, the freshness cache, resolved
//! project configurations), which project a request is about and what it may read
//! ([`project`]: the `config::ProjectDirRule` confinement), opening the store
//! ([`open_store`]), the one search request type with its defaults and bounds ([`search`]),
//! background index jobs with progress ([`jobs`]), starting them, deleting an index and every
//! index's statistics ([`indexes`]), the error the presenters share ([`Error`]), and the HTTP
//! server that hosts the MCP endpoint and the dashboard behind one guard ([`HttpServer`]).
//!
//! Architecture invariant: nothing here knows a presenter; `cli`, `mcp` and `web` use this
//! module and never one another.
//! Architecture invariant: the store and the embedders are called only on blocking threads
//! (`spawn_blocking`, or an index job's own thread), never in an async task.

mod error;
pub mod grep;
mod guard;
pub mod indexes;
pub mod jobs;
mod listen;
mod live;
mod open;
pub mod project;
pub mod search;
pub mod snapshots;
mod serve;
mod state;
pub mod watch;
mod watchers;

use std::path::PathBuf;

use crate::config::{Config, Env, Override};

pub use error::{Error, ErrorKind};
pub use open::{indexed_project_containing, open_store};
pub use serve::{HttpServer, Listen, McpEndpoint, ServeError, shutdown_signal, warm_up};
pub use state::{Source, Workspace};

/// How a server was started.
#[derive(Debug, Clone)]
pub struct Options {
    /// The configuration resolved at startup, in the server's working directory.
    pub config: Config,
    /// The environment, for resolving each project's configuration.
    pub env: Env,
    /// `--config FILE`, applied to every project.
    pub config_file: Option<PathBuf>,
    /// Command-line values (`--set`, flags), applied to every project.
    pub overrides: Vec<Override>,
    /// Whether the working directory's project is the default (`--project-from-cwd`).
    pub project_from_cwd: bool,
    /// Which server this is.
    pub server: ServerKind,
}

/// Which server a process runs: what it watches, and how other processes see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    /// `cocosearch mcp`: watches the projects its clients use, the default project first.
    Mcp,
    /// `cocosearch dashboard`: watches every index it shows whose project is on this machine.
    Dashboard,
}

impl ServerKind {
    /// The command, as other processes see it.
    pub fn command(self) -> &'static str {
        match self {
            ServerKind::Mcp => "cocosearch mcp",
            ServerKind::Dashboard => "cocosearch dashboard",
        }
    }
}

/// A server running until its client leaves or the process is interrupted.
pub type Serving = std::pin::Pin<Box<dyn Future<Output = Result<(), ServeError>> + Send>>;

/// The presenters a server can serve, handed to the command line by the binary, which is the
/// one place that knows all three: `cli` starts servers without importing `mcp` or `web`.
#[derive(Clone, Copy)]
pub struct Presenters {
    /// Serves MCP on stdin/stdout until the client disconnects.
    pub mcp_stdio: fn(Options) -> Serving,
    /// The MCP routes of a server: `/health`, `/api/stats`, and `/mcp` when served.
    pub mcp_routes: fn(&HttpServer, McpEndpoint) -> axum::Router,
    /// The dashboard's page and API.
    pub web_routes: fn(&HttpServer) -> axum::Router,
}
