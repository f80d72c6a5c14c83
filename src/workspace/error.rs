//! The failure the presenters share: a message that names the thing and the fix, and a kind
//! that each presenter maps onto its own answer (an exit code, an HTTP status).
//!
//! MCP returns the message as a tool result with `isError: true`; the dashboard answers it as
//! `{"error": ...}` with the status of its kind; the command line prints it with its cause
//! chain and exits with the code of its kind.

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
    /// The request makes no sense (a bad argument, an empty query, a malformed name) or the
    /// configuration it runs with is wrong.
    Usage,
    /// Another writer holds the index's write lock.
    Busy,
    /// The index (or what the request names in it) does not exist.
    NotFound,
    /// The request names something this process does not serve (a refused directory).
    Refused,
    /// The store cannot be reached or refused the login.
    Unavailable,
    /// The store's file is damaged (the embedded store): `cocosearch clear --all` replaces it.
    Damaged,
    /// Anything else: a failure at run time.
    Other,
}

impl Error {
    /// An error with this message, any URL in it redacted (messages quote the errors of
    /// drivers and HTTP clients, and those quote the URLs they called).
    pub fn new(message: impl Into<String>) -> Error {
        Error::of_kind(ErrorKind::Other, message)
    }

    /// An error of `kind` with this message (redacted as [`Error::new`]'s).
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { message: crate::config::redact_text(&message.into()), kind }
    }

    /// A request that makes no sense.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::of_kind(ErrorKind::Usage, message)
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
            _ if e.is_configuration() => ErrorKind::Usage,
            StoreError::Unreachable { .. } | StoreError::Auth { .. } => ErrorKind::Unavailable,
            StoreError::Damaged { .. } => ErrorKind::Damaged,
            _ => ErrorKind::Other,
        };
        Error::of_kind(kind, e.to_string())
    }
}

impl From<crate::graph::GraphError> for Error {
    fn from(e: crate::graph::GraphError) -> Self {
        match e {
            crate::graph::GraphError::Store(e) => e.into(),
            crate::graph::GraphError::Usage(message) => Error::usage(message),
        }
    }
}

impl From<crate::tasks::TaskError> for Error {
    fn from(e: crate::tasks::TaskError) -> Self {
        match e {
            crate::tasks::TaskError::Store(e) => e.into(),
            not_found @ crate::tasks::TaskError::NotFound { .. } => {
                Error::of_kind(ErrorKind::NotFound, not_found.to_string())
            }
            other => Error::usage(other.to_string()),
        }
    }
}
