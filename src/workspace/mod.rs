//! The one API the three presenters (`cli`, `mcp`, `web`) call, as rust-analyzer's
//! `ide::Analysis` is for its LSP: each of them only turns its medium into the inputs declared
//! here ([`inputs`], [`IndexRef`]) and the answers into text, JSON or HTML.
//!
//! [`Workspace::open`] opens what a request reads ([`Target`]: the name checked, the project
//! chosen, its root checked, the index found with one not-found error, the snapshot resolved);
//! the target's search ([`search`]), grep ([`grep`]), code graph ([`graph`]), stats,
//! snapshots ([`snapshots`]), tasks ([`tasks`]) and files ([`files`]) are the answers. Beside
//! them: the process state ([`Workspace`]: stores and embedders opened once per setting, the
//! caches, resolved project configurations, the front end it runs), which project a call is
//! about and what it may read ([`project`]), background index jobs ([`jobs`], [`indexes`]),
//! the command line's own runs ([`here`]), health ([`health`]), the error the presenters share
//! ([`Error`]), and the HTTP server that hosts the MCP endpoint and the dashboard behind one
//! guard ([`HttpServer`]).
//!
//! Architecture invariant: nothing here knows a presenter; `cli`, `mcp` and `web` use this
//! module and never one another, and reach the engine only through it (and `wire`).
//! Architecture invariant: the store and the embedders are called only on blocking threads
//! (`spawn_blocking`, or an index job's own thread), never in an async task.

mod error;
pub mod files;
pub mod graph;
pub mod graphs;
pub mod grep;
mod guard;
pub mod health;
pub mod here;
pub mod indexes;
pub mod inputs;
pub mod jobs;
pub mod languages;
mod listen;
mod live;
mod open;
pub mod project;
pub mod search;
pub mod snapshots;
mod serve;
mod shared;
pub mod stats;
mod state;
mod target;
pub mod tasks;
pub mod watch;
mod watchers;

use std::path::PathBuf;

use crate::config::{Config, Env, Override};

/// Whether a model download may draw a progress bar (a server's never does).
pub use crate::embed::Progress as DownloadProgress;
pub use error::{Error, ErrorKind};
pub use open::{indexed_project_containing, open_store};
pub use serve::{HttpServer, Listen, McpEndpoint, ServeError, shutdown_signal, warm_up};
pub use state::{Confinement, Source, Workspace};
pub use target::{Caller, IndexName, IndexRef, Need, Scan, Target};

/// How the process was started.
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
    /// Which front end this process runs.
    pub front: Front,
    /// Whether a model download may draw its progress bar on stderr.
    pub progress: crate::embed::Progress,
    /// Where the one-time notice of a newly chosen embedded store goes.
    pub notices: Notices,
}

/// Which front end a process runs: whom its errors address, what it watches, and how other
/// processes see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Front {
    /// One command of `cocosearch`, in the project it runs in; it serves whatever index its
    /// user names and watches nothing.
    Command,
    /// `cocosearch mcp`: watches the projects its clients use, the default project first.
    Mcp,
    /// `cocosearch dashboard`: watches every index it shows whose project is on this machine.
    Dashboard,
}

impl Front {
    /// The command, as other processes see it.
    pub fn command(self) -> &'static str {
        match self {
            Front::Command => "cocosearch",
            Front::Mcp => "cocosearch mcp",
            Front::Dashboard => "cocosearch dashboard",
        }
    }
}

/// Where notices for the user go.
#[derive(Clone)]
pub enum Notices {
    /// Into the log (a server: its stderr is not a person's terminal).
    Log,
    /// To the presenter, which prints them (the command line).
    To(std::sync::Arc<dyn Fn(&str) + Send + Sync>),
}

impl Notices {
    /// Hands `text` on.
    pub fn tell(&self, text: &str) {
        match self {
            Notices::Log => tracing::warn!("{text}"),
            Notices::To(print) => print(text),
        }
    }
}

impl std::fmt::Debug for Notices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Notices::Log => "Log",
            Notices::To(_) => "To(..)",
        })
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
    /// The MCP endpoint of a server: `/mcp`.
    pub mcp_routes: fn(&HttpServer) -> axum::Router,
    /// The dashboard's page and API, with `/health` and `/api/stats`.
    pub web_routes: fn(&HttpServer) -> axum::Router,
}
