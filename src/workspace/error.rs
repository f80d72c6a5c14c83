//! The failure the presenters share: a message that names the thing and the fix, and a kind
//! that a presenter answering with a status (the dashboard's API) maps onto one.
//!
//! MCP returns the message as a tool result with `isError: true`; the dashboard answers it as
//! `{"error": ...}` with the status of its kind.

use crate::store::StoreError;

/// A failure of a workspace operation.
#[derive(Debug, Clone)]
pub struct Error {
    /// What went wrong and what to do.
    pub message: String,
    /// What kind of failure, for presenters that answer with a status.
    pub kind: ErrorKind,
}

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Another writer holds the index's write lock.
    Busy,
    /// The index does not exist.
    NotFound,
    /// The store cannot be reached or refused the login.
    Unavailable,
    /// Anything else: a bad argument, a refused directory, a failure.
    Other,
}

impl Error {
    /// An error with this message, any URL in it redacted (messages quote the errors of
    /// drivers and HTTP clients, and those quote the URLs they called).
    pub fn new(message: impl Into<String>) -> Error {
        Error { message: crate::config::redact_text(&message.into()), kind: ErrorKind::Other }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        let kind = match &e {
            StoreError::Busy(_) => ErrorKind::Busy,
            StoreError::IndexNotFound(_) => ErrorKind::NotFound,
            StoreError::Unreachable { .. } | StoreError::Auth { .. } => ErrorKind::Unavailable,
            _ => ErrorKind::Other,
        };
        Error { kind, ..Error::new(e.to_string()) }
    }
}
