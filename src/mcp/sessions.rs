//! The HTTP transport's sessions: rmcp's in-memory session manager, with idle sessions expiring
//! and the number of live sessions bounded, so a client that keeps initializing and never says
//! goodbye cannot grow the server without end.
//!
//! Expiry is rmcp's own: a session whose worker sees no message, either way, for
//! `mcp.sessionIdleTimeout` ends, and rmcp then closes it here; a later request with its id
//! gets 404, which tells MCP clients to initialize again. The bound is ours: the HTTP layer asks
//! for an [`Admission`] before it lets an `initialize` through, and [`Sessions`] counts the
//! admitted and the live ones together, so concurrent handshakes cannot overshoot it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId, SessionManager};
use tokio_util::sync::CancellationToken;

/// The live sessions of one HTTP server.
pub(crate) struct Sessions {
    inner: LocalSessionManager,
    /// `mcp.maxSessions`.
    pub max: usize,
    /// `mcp.sessionIdleTimeout`.
    pub idle_timeout: Duration,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    /// Sessions created and not yet closed, each with the token cancelled when it closes: rmcp
    /// lets the calls in flight of a closed session run on, and long ones stop early on it.
    live: HashMap<SessionId, CancellationToken>,
    /// Handshakes admitted by the HTTP layer and still in flight.
    admitted: usize,
}

/// A place held for one `initialize` while it is handled; given back when dropped. A session it
/// created is counted as live from then on, so for the length of one handshake the session
/// counts twice: the bound errs on the side of refusing.
pub(crate) struct Admission {
    sessions: Arc<Sessions>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.sessions.counts().admitted -= 1;
    }
}

/// A session could not be created or used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionError {
    /// The bound is reached.
    #[error("{}", full_message(*max))]
    Full {
        /// `mcp.maxSessions`.
        max: usize,
    },
    /// rmcp's session manager failed.
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

/// What a client is told when no session is left.
pub(crate) fn full_message(max: usize) -> String {
    format!(
        "too many MCP sessions: all {max} are in use — close idle clients (they end with DELETE /mcp), wait for idle sessions to expire (mcp.sessionIdleTimeout), or raise mcp.maxSessions (COCOSEARCH_MCP_MAX_SESSIONS)"
    )
}

impl crate::workspace::health::LiveSessions for Sessions {
    fn counts(&self) -> crate::workspace::health::SessionCounts {
        crate::workspace::health::SessionCounts { live: self.live(), max: self.max, idle_timeout: self.idle_timeout }
    }
}

impl Sessions {
    /// Sessions that expire after `idle_timeout` without a message, at most `max` at once.
    pub fn new(max: usize, idle_timeout: Duration) -> Sessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle_timeout);
        Sessions { inner, max, idle_timeout, counts: Mutex::new(Counts::default()) }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many sessions are alive.
    pub fn live(&self) -> usize {
        self.counts().live.len()
    }

    /// The token cancelled when session `id` closes, if it is alive.
    pub fn departure(&self, id: &str) -> Option<CancellationToken> {
        self.counts().live.get(id).cloned()
    }

    /// A place for one more session, or `None` when every place is taken.
    pub fn admit(self: &Arc<Self>) -> Option<Admission> {
        let mut counts = self.counts();
        if counts.live.len() + counts.admitted >= self.max {
            return None;
        }
        counts.admitted += 1;
        Some(Admission { sessions: Arc::clone(self) })
    }
}

impl SessionManager for Sessions {
    type Error = SessionError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // The HTTP layer admitted this handshake; checking again keeps the bound even for a
        // path that would skip it.
        if self.counts().live.len() >= self.max {
            return Err(SessionError::Full { max: self.max });
        }
        let (id, transport) = self.inner.create_session().await?;
        self.counts().live.insert(id.clone(), CancellationToken::new());
        tracing::debug!(session = %id, live = self.live(), "MCP session created");
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        // rmcp calls this for DELETE /mcp and again when the session's worker ends (idle
        // expiry, cancellation): the count drops once.
        let result = self.inner.close_session(id).await;
        let closed = self.counts().live.remove(id);
        if let Some(departure) = closed {
            departure.cancel();
            tracing::debug!(session = %id, live = self.live(), "MCP session closed");
        }
        Ok(result?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue 25, item 4: a session closed with DELETE /mcp left its call-chain search running to
    // its time limit. Closing a session now cancels its departure token, which those searches
    // watch; another session's stays as it was.
    #[tokio::test]
    async fn closing_a_session_tells_its_calls_in_flight_that_the_client_has_left() {
        let sessions = Sessions::new(4, Duration::from_secs(60));
        let (closing, _transport) = sessions.create_session().await.expect("session");
        let (staying, _other) = sessions.create_session().await.expect("session");
        let (left, stays) = (sessions.departure(&closing).expect("live"), sessions.departure(&staying).expect("live"));
        assert!(!left.is_cancelled());
        sessions.close_session(&closing).await.expect("closed");
        assert!(left.is_cancelled(), "closing the session did not cancel its token");
        assert!(!stays.is_cancelled(), "closing one session cancelled another's");
        assert!(sessions.departure(&closing).is_none());
        assert_eq!(sessions.live(), 1);
    }
}
