//! The MCP server: cocosearch's search engine served to AI agents over the Model Context
//! Protocol, on stdio ([`serve_stdio`]) or streamable HTTP ([`HttpServer`]), with `rmcp`.
//!
//! Tools (names and parameters compatible with CocoSearch and mcp-codebase-index):
//! `search_code`, `index_codebase`, `index_status`, `index_stats`, `list_indexes`,
//! `clear_index`, and the code graph's `find_symbol`, `get_dependents`, `get_dependencies`,
//! `get_change_impact`, `get_call_chain`, `get_file_dependencies`, `get_file_dependents`
//! (`get_file_impact`), `get_file_structure`, `get_function_source`, `get_class_source`. Each call works out which
//! project it is about ([`project`]), runs on a blocking thread, and answers JSON in the shapes
//! of the CLI's `--json` ([`crate::wire`]) plus the project used and how it was chosen.
//!
//! The HTTP server is also the host of other presenters: the dashboard ([`crate::web`]) mounts
//! its routes on it ([`HttpServer::mount`]) and shares its process state — stores, embedders,
//! caches and index jobs — so a job started from a browser is the one `index_status` reports.
//! Nothing here knows the dashboard.
//!
//! Architecture invariant: in stdio mode stdout carries only protocol messages; logs go to
//! stderr and nothing here prints.
//! Architecture invariant: the store and the embedders are called only on blocking threads.

mod graph;
pub(crate) mod http;
pub(crate) mod jobs;
mod listen;
pub(crate) mod manage;
pub(crate) mod project;
mod schema;
pub(crate) mod search;
mod server;
mod sessions;
pub(crate) mod state;
mod tools;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;

use crate::config::{Config, Env, Override};
use crate::store::StoreError;
use server::CocoServer;
use state::Shared;

/// How the server was started.
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
    /// `--project-from-cwd`: the working directory's project is the default.
    pub project_from_cwd: bool,
}

/// A failure to serve.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The HTTP address cannot be bound.
    #[error("cannot listen on {addr}: {source} — pick another port with --port{}", if *.mcp == McpEndpoint::Served { " or mcp.port" } else { "" })]
    Bind {
        /// `host:port`.
        addr: String,
        /// Why.
        source: std::io::Error,
        /// What the server was to serve (the fix names its settings).
        mcp: McpEndpoint,
    },
    /// The stdio transport failed.
    #[error("MCP over stdio failed: {0}")]
    Stdio(String),
}

/// A tool failure: a message for the agent, returned as a tool result with `isError: true`.
#[derive(Debug, Clone)]
pub(crate) struct ToolError {
    /// What went wrong and what to do.
    pub message: String,
    /// What kind of failure, for presenters that answer with a status (the dashboard's API).
    pub kind: ErrorKind,
}

/// What kind of failure a [`ToolError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// Another writer holds the index's write lock.
    Busy,
    /// The index does not exist.
    NotFound,
    /// The store cannot be reached or refused the login.
    Unavailable,
    /// Anything else: a bad argument, a refused directory, a failure.
    Other,
}

impl ToolError {
    /// A tool error with this message, any URL in it redacted (messages quote the errors of
    /// drivers and HTTP clients, and those quote the URLs they called).
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError { message: crate::config::redact_text(&message.into()), kind: ErrorKind::Other }
    }
}

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        let kind = match &e {
            StoreError::Busy(_) => ErrorKind::Busy,
            StoreError::IndexNotFound(_) => ErrorKind::NotFound,
            StoreError::Unreachable { .. } | StoreError::Auth { .. } => ErrorKind::Unavailable,
            _ => ErrorKind::Other,
        };
        ToolError { kind, ..ToolError::new(e.to_string()) }
    }
}

/// Serves one client on stdin/stdout until it disconnects or the process is interrupted.
pub async fn serve_stdio(options: Options) -> Result<(), ServeError> {
    let shared = Arc::new(Shared::new(options));
    warm_up(&shared);
    let service = CocoServer::new(Arc::clone(&shared))
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    tokio::select! {
        quit = service.waiting() => {
            if let Err(e) = quit {
                tracing::warn!(error = %e, "the stdio session ended abnormally");
            }
        }
        _ = shutdown_signal() => {}
    }
    shared.jobs.stop_all().await;
    Ok(())
}

/// Where an HTTP server listens and what it serves of its own.
#[derive(Debug, Clone)]
pub struct Listen {
    /// The address to bind (`127.0.0.1`, `::1`, `0.0.0.0`, a host name).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// Whether `/mcp` is served.
    pub mcp: McpEndpoint,
}

/// Whether an HTTP server serves the MCP endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpEndpoint {
    /// `/mcp`, with `/health` and `/api/stats` (`cocosearch mcp --transport http`).
    Served,
    /// Only `/health`, `/api/stats` and the mounted routes (`cocosearch dashboard`).
    Omitted,
}

/// The HTTP server, bound and ready to run.
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    guard: http::Guard,
    mcp: McpEndpoint,
    mounted: axum::Router,
    /// Cancelled on shutdown: ends MCP sessions and every long-lived answer (event streams).
    shutdown: tokio_util::sync::CancellationToken,
}

impl HttpServer {
    /// Binds `mcp.host:mcp.port` and serves MCP there.
    pub async fn bind(options: Options) -> Result<HttpServer, ServeError> {
        let mcp = &options.config.settings.mcp;
        let listen = Listen { host: mcp.host.clone(), port: mcp.port, mcp: McpEndpoint::Served };
        HttpServer::bind_to(options, listen).await
    }

    /// Binds `listen.host:listen.port`. The guard (token, allowed origins, header timeout,
    /// session bound) comes from the `mcp.*` settings whatever is served.
    pub async fn bind_to(options: Options, listen: Listen) -> Result<HttpServer, ServeError> {
        let mcp = options.config.settings.mcp.clone();
        let addr = if listen.host.contains(':') {
            format!("[{}]:{}", listen.host, listen.port)
        } else {
            format!("{}:{}", listen.host, listen.port)
        };
        let listener = tokio::net::TcpListener::bind(&addr).await.map_err(|source| ServeError::Bind {
            addr,
            source,
            mcp: listen.mcp,
        })?;
        let port = listener.local_addr().map_or(listen.port, |a| a.port());
        let guard = http::Guard {
            token: mcp.token.clone(),
            allowed_origins: mcp.allowed_origins.clone(),
            bind_host: listen.host,
            cookie: http::token_cookie_name(port),
        };
        if guard.token.is_none() && !listener.local_addr().is_ok_and(|a| a.ip().is_loopback()) {
            tracing::warn!("serving beyond loopback without mcp.token: anyone who can reach this port can use it");
        }
        Ok(HttpServer {
            listener,
            shared: Arc::new(Shared::new(options)),
            guard,
            mcp: listen.mcp,
            mounted: axum::Router::new(),
            shutdown: tokio_util::sync::CancellationToken::new(),
        })
    }

    /// The address bound.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Whether requests need `mcp.token`.
    pub fn token(&self) -> Option<&str> {
        self.guard.token.as_deref()
    }

    /// The process state the mounted routes share with the MCP tools.
    pub(crate) fn shared(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    /// Cancelled when the server shuts down; long-lived answers end with it.
    pub(crate) fn shutdown_token(&self) -> tokio_util::sync::CancellationToken {
        self.shutdown.clone()
    }

    /// Serves `routes` too, behind the same guard (Origin, Host, token) and accept loop.
    pub fn mount(&mut self, routes: axum::Router) {
        let mounted = std::mem::take(&mut self.mounted);
        self.mounted = mounted.merge(routes);
    }

    /// Serves until interrupted (Ctrl-C or SIGTERM).
    pub async fn run(self) -> Result<(), ServeError> {
        warm_up(&self.shared);
        let mcp = &self.shared.options.config.settings.mcp;
        let sessions =
            Arc::new(sessions::Sessions::new(mcp.max_sessions, Duration::from_secs(mcp.session_idle_timeout)));
        let header_timeout = Duration::from_secs(mcp.header_timeout);
        let ct = self.shutdown.clone();
        let app = http::router(
            http::Routes { shared: Arc::clone(&self.shared), sessions, mcp: self.mcp, mounted: self.mounted },
            self.guard,
            ct.clone(),
        );
        let stop = ct.clone();
        listen::serve(self.listener, app, header_timeout, async move {
            shutdown_signal().await;
            // Ends the sessions and their event streams, so connections can close.
            stop.cancel();
        })
        .await;
        self.shared.jobs.stop_all().await;
        Ok(())
    }
}

/// Connects to the database and migrates in the background, so the first tool call does not
/// pay for it (and `initialize` never waits on it).
fn warm_up(shared: &Arc<Shared>) {
    let shared = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        if let Err(e) = shared.default_store() {
            tracing::warn!("{e}");
        }
    });
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
