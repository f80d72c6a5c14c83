//! The HTTP server that hosts the presenters: it binds the address, puts every mounted route
//! behind one guard (Origin, Host, token: [`super::guard`]) and one accept loop (header read
//! timeout: [`super::listen`]), and shares one [`Workspace`] with them, so a job started from
//! a browser is the one an agent's `index_status` reports.
//!
//! The server knows no presenter: the MCP endpoint and the dashboard each hand it their
//! routes ([`HttpServer::mount`]); the command line wires them together.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::middleware;

use super::guard::{self, Guard};
use super::{Options, Workspace};

/// A failure to serve.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The HTTP address cannot be bound.
    #[error("cannot listen on {addr}: {reason} — pick another port with --port{}", if *.mcp == McpEndpoint::Served { " or mcp.port" } else { "" })]
    Bind {
        /// `host:port`.
        addr: String,
        /// Why: in the message, and not a source (a source is printed again after it, and
        /// the port in use was told twice).
        reason: std::io::Error,
        /// What the server was to serve (the fix names its settings).
        mcp: McpEndpoint,
    },
    /// The stdio transport failed.
    #[error("MCP over stdio failed: {0}")]
    Stdio(String),
}

/// Where an HTTP server listens and what it serves.
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
    /// `/mcp`, beside the dashboard (`cocosearch mcp --transport http`).
    Served,
    /// The dashboard alone (`cocosearch dashboard`).
    Omitted,
}

/// The HTTP server, bound and ready to run.
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    workspace: Arc<Workspace>,
    guard: Guard,
    mounted: axum::Router,
    /// Cancelled on shutdown: ends MCP sessions and every long-lived answer (event streams).
    shutdown: tokio_util::sync::CancellationToken,
}

impl HttpServer {
    /// Binds `mcp.host:mcp.port`, where `cocosearch mcp --transport http` listens.
    pub async fn bind(options: Options) -> Result<HttpServer, ServeError> {
        let mcp = &options.config.settings.mcp;
        let listen = Listen { host: mcp.host.clone(), port: mcp.port, mcp: McpEndpoint::Served };
        HttpServer::bind_to(options, listen).await
    }

    /// Binds `listen.host:listen.port`. The guard (token, allowed origins) comes from the
    /// `mcp.*` settings whatever is served.
    pub async fn bind_to(options: Options, listen: Listen) -> Result<HttpServer, ServeError> {
        let mcp = options.config.settings.mcp.clone();
        let addr = if listen.host.contains(':') {
            format!("[{}]:{}", listen.host, listen.port)
        } else {
            format!("{}:{}", listen.host, listen.port)
        };
        let listener = tokio::net::TcpListener::bind(&addr).await.map_err(|reason| ServeError::Bind {
            addr,
            reason,
            mcp: listen.mcp,
        })?;
        let port = listener.local_addr().map_or(listen.port, |a| a.port());
        let guard = Guard {
            token: mcp.token.clone(),
            allowed_origins: mcp.allowed_origins.clone(),
            bind_host: listen.host,
            cookie: guard::token_cookie_name(port),
        };
        if guard.token.is_none() && !listener.local_addr().is_ok_and(|a| a.ip().is_loopback()) {
            tracing::warn!("serving beyond loopback without mcp.token: anyone who can reach this port can use it");
        }
        Ok(HttpServer {
            listener,
            workspace: Arc::new(Workspace::new(options)),
            guard,
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

    /// The process state the mounted routes share.
    pub fn workspace(&self) -> Arc<Workspace> {
        Arc::clone(&self.workspace)
    }

    /// Cancelled when the server shuts down; long-lived answers end with it.
    pub fn shutdown_token(&self) -> tokio_util::sync::CancellationToken {
        self.shutdown.clone()
    }

    /// Serves `routes` too, behind the same guard (Origin, Host, token) and accept loop.
    pub fn mount(&mut self, routes: axum::Router) {
        let mounted = std::mem::take(&mut self.mounted);
        self.mounted = mounted.merge(routes);
    }

    /// Serves until interrupted (Ctrl-C or SIGTERM).
    pub async fn run(self) -> Result<(), ServeError> {
        warm_up(&self.workspace);
        let header_timeout = Duration::from_secs(self.workspace.options.config.settings.mcp.header_timeout);
        let app = self.mounted.layer(middleware::from_fn_with_state(Arc::new(self.guard), guard::guard));
        let stop = self.shutdown.clone();
        super::listen::serve(self.listener, app, header_timeout, async move {
            shutdown_signal().await;
            // Ends the sessions and their event streams, so connections can close.
            stop.cancel();
        })
        .await;
        self.workspace.jobs.stop_all().await;
        Ok(())
    }
}

/// Connects to the database and migrates in the background, so the first request does not pay
/// for it (and an MCP `initialize` never waits on it).
pub fn warm_up(workspace: &Arc<Workspace>) {
    let workspace = Arc::clone(workspace);
    tokio::task::spawn_blocking(move || {
        if let Err(e) = workspace.default_store() {
            tracing::warn!("{e}");
            return;
        }
        workspace.watch_served();
    });
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
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
