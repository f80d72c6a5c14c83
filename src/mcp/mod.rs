//! The MCP server: cocosearch's search engine served to AI agents over the Model Context
//! Protocol, on stdio ([`serve_stdio`]) or streamable HTTP ([`HttpServer`]), with `rmcp`.
//!
//! Tools (names and parameters compatible with CocoSearch): `search_code`, `index_codebase`,
//! `index_status`, `index_stats`, `list_indexes`, `clear_index`. Each call works out which
//! project it is about ([`project`]), runs on a blocking thread, and answers JSON in the shapes
//! of the CLI's `--json` ([`crate::wire`]) plus the project used and how it was chosen.
//!
//! Architecture invariant: in stdio mode stdout carries only protocol messages; logs go to
//! stderr and nothing here prints.
//! Architecture invariant: the store and the embedders are called only on blocking threads.

mod http;
mod jobs;
mod listen;
mod manage;
mod project;
mod schema;
mod search;
mod server;
mod sessions;
mod state;
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
    #[error("cannot listen on {addr}: {source} — pick another port with --port or mcp.port")]
    Bind {
        /// `host:port`.
        addr: String,
        /// Why.
        source: std::io::Error,
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
}

impl ToolError {
    /// A tool error with this message, any URL in it redacted (messages quote the errors of
    /// drivers and HTTP clients, and those quote the URLs they called).
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError { message: crate::config::redact_text(&message.into()) }
    }
}

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        ToolError::new(e.to_string())
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

/// The HTTP server, bound and ready to run.
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    guard: http::Guard,
}

impl HttpServer {
    /// Binds `mcp.host:mcp.port`.
    pub async fn bind(options: Options) -> Result<HttpServer, ServeError> {
        let mcp = options.config.settings.mcp.clone();
        let addr = if mcp.host.contains(':') {
            format!("[{}]:{}", mcp.host, mcp.port)
        } else {
            format!("{}:{}", mcp.host, mcp.port)
        };
        let listener =
            tokio::net::TcpListener::bind(&addr).await.map_err(|source| ServeError::Bind { addr, source })?;
        let guard =
            http::Guard { token: mcp.token.clone(), allowed_origins: mcp.allowed_origins.clone(), bind_host: mcp.host };
        if guard.token.is_none() && !listener.local_addr().is_ok_and(|a| a.ip().is_loopback()) {
            tracing::warn!("serving beyond loopback without mcp.token: anyone who can reach this port can use it");
        }
        Ok(HttpServer { listener, shared: Arc::new(Shared::new(options)), guard })
    }

    /// The address bound.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves until interrupted (Ctrl-C or SIGTERM).
    pub async fn run(self) -> Result<(), ServeError> {
        warm_up(&self.shared);
        let mcp = &self.shared.options.config.settings.mcp;
        let sessions =
            Arc::new(sessions::Sessions::new(mcp.max_sessions, Duration::from_secs(mcp.session_idle_timeout)));
        let header_timeout = Duration::from_secs(mcp.header_timeout);
        let ct = tokio_util::sync::CancellationToken::new();
        let app = http::router(Arc::clone(&self.shared), sessions, self.guard, ct.clone());
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
