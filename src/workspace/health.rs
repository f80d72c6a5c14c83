//! How a server is doing (`GET /health`): whether its store and its embedder answer, and the
//! MCP sessions it holds when it serves MCP. The checks are here; the JSON is `wire`'s and the
//! route the dashboard's, so every server answers `/health` the same way.

use std::sync::Arc;
use std::time::Duration;

use super::Workspace;
use crate::store::VectorSupport;

/// What `/health` reports.
#[derive(Debug, Clone)]
pub struct Health {
    /// The store.
    pub database: DatabaseHealth,
    /// The embedder of the server's configuration.
    pub embedder: EmbedderHealth,
    /// The MCP sessions, when the server serves MCP.
    pub sessions: Option<SessionCounts>,
}

/// Whether the store answers.
#[derive(Debug, Clone)]
pub enum DatabaseHealth {
    /// It answered.
    Reachable {
        /// `sqlite` or `postgres`.
        backend: &'static str,
        /// Why this backend was chosen.
        choice: String,
        /// Where it is (a URL's password redacted).
        location: String,
        /// The engine and its version.
        engine: String,
        /// Whether vector search works, in words.
        vectors: String,
    },
    /// It did not; why.
    Unreachable(String),
}

/// Whether the embedder answers.
#[derive(Debug, Clone)]
pub enum EmbedderHealth {
    /// Embeddings are off: keyword search only.
    Off,
    /// It embedded the probe text.
    Reachable {
        /// The provider.
        provider: &'static str,
        /// The model it answered with.
        model: String,
        /// Its URL (redacted), or where its files are.
        url: String,
        /// The vectors' length.
        dimension: usize,
    },
    /// It did not answer; why.
    Unreachable {
        /// The provider.
        provider: &'static str,
        /// The model configured.
        model: String,
        /// Its URL (redacted).
        url: String,
        /// What went wrong.
        error: String,
    },
}

/// The MCP sessions of a server.
#[derive(Debug, Clone, Copy)]
pub struct SessionCounts {
    /// Open now.
    pub live: usize,
    /// `mcp.maxSessions`.
    pub max: usize,
    /// `mcp.sessionIdleTimeout`.
    pub idle_timeout: Duration,
}

/// The sessions a presenter holds, as it counts them (the MCP endpoint registers its own).
pub trait LiveSessions: Send + Sync {
    /// The counts now.
    fn counts(&self) -> SessionCounts;
}

impl Workspace {
    /// Checks the store and the embedder of the server's configuration. Blocking: it opens
    /// the store and embeds a probe text.
    pub fn health(&self) -> Health {
        let settings = &self.options.config.settings;
        let database = match self.store_and_choice(&settings.database).and_then(|(s, c)| Ok((s.health()?, s, c))) {
            Ok((health, store, choice)) => DatabaseHealth::Reachable {
                backend: store.backend().as_str(),
                choice: choice.to_string(),
                location: store.location(),
                engine: health.engine,
                vectors: match health.vectors {
                    VectorSupport::Ready(how) => how,
                    VectorSupport::OnFirstIndex(how) => format!("{how} (set up by the first index)"),
                    VectorSupport::Unavailable { problem, .. } => problem,
                },
            },
            Err(e) => DatabaseHealth::Unreachable(e.to_string()),
        };
        let embedder = match self.embedder(&settings.embedding) {
            None => EmbedderHealth::Off,
            Some(embedder) => {
                let info = embedder.info();
                match embedder.probe() {
                    Ok(m) => EmbedderHealth::Reachable {
                        provider: info.provider,
                        model: m.model,
                        url: info.url,
                        dimension: m.dimension,
                    },
                    Err(e) => EmbedderHealth::Unreachable {
                        provider: info.provider,
                        model: info.model,
                        url: info.url,
                        error: e.to_string(),
                    },
                }
            }
        };
        let sessions = self.sessions.get().map(|s| s.counts());
        Health { database, embedder, sessions }
    }

    /// Registers the MCP sessions `/health` reports (the first registration stays).
    pub fn count_sessions(&self, sessions: Arc<dyn LiveSessions>) {
        let _ = self.sessions.set(sessions);
    }
}
