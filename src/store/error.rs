//! Storage errors, each with the fix a user can apply.
//!
//! The variants say what went wrong in any backend's terms; the backend that raises one fills
//! in its own location and fix (`start it (docker compose up -d)` for PostgreSQL, a file
//! permission for the embedded store).

use super::Backend;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store cannot be reached or opened at all.
    #[error("cannot open the {} store at {location}: {reason} — {fix}", backend.product())]
    Unreachable {
        /// Which backend.
        backend: Backend,
        /// Where: a URL with its secrets redacted, or a path.
        location: String,
        /// Why, in a few words.
        reason: String,
        /// What to do about it.
        fix: String,
    },
    /// The store refused the credentials.
    #[error("the {} store at {location} refused the login: {reason} — {fix}", backend.product())]
    Auth {
        /// Which backend.
        backend: Backend,
        /// Where, secrets redacted.
        location: String,
        /// The server's message.
        reason: String,
        /// What to do about it.
        fix: String,
    },
    /// The store's configuration is wrong (a malformed URL, an unknown option): nothing was
    /// tried.
    #[error("the {} store setting {key} is invalid: {reason} — {fix}", backend.product())]
    Config {
        /// Which backend.
        backend: Backend,
        /// The setting (`database.url`).
        key: &'static str,
        /// What is wrong, secrets redacted.
        reason: String,
        /// What to do about it.
        fix: String,
    },
    /// Vector search cannot be set up.
    #[error("{message}")]
    Vector {
        /// What is wrong and the fix.
        message: String,
    },
    /// The named index does not exist.
    #[error("no index named {0} — run `cocosearch index` in the project (`cocosearch list` shows the indexes)")]
    IndexNotFound(String),
    /// Another run holds the index's write lock (an index run, or a deletion).
    #[error(
        "index {0} is being written by another run (`cocosearch index`, or an MCP server's index job) — wait for it to finish, then try again"
    )]
    Busy(String),
    /// The index was built with another embedding model or dimension.
    #[error(
        "index {index} was built with {existing}, but the configuration asks for {requested} — keep the model (a local copy of it under another name: set embedding.model to the name it was built with), or rebuild with `cocosearch index --fresh`"
    )]
    ModelMismatch {
        /// The index.
        index: String,
        /// `model (dimension N)` recorded in the index.
        existing: String,
        /// What the configuration wants.
        requested: String,
    },
    /// An identifier built from user input failed validation.
    #[error("{0}")]
    InvalidName(String),
    /// The database schema is newer than this program.
    #[error(
        "the database schema is at version {found}, newer than this cocosearch understands ({supported}) — upgrade cocosearch"
    )]
    SchemaTooNew {
        /// Version found.
        found: i32,
        /// Newest version known here.
        supported: i32,
    },
    /// A store read without upgrading it (a team's shared index) has an older schema.
    #[error(
        "the shared store at {location} is at schema version {found}, older than this cocosearch reads ({wanted}) — run the job that publishes the shared index with this cocosearch version"
    )]
    SchemaTooOld {
        /// Where the store is (secrets redacted).
        location: String,
        /// Version found (the oldest of the store's and its indexes').
        found: i32,
        /// Version this program reads.
        wanted: i32,
    },
    /// A stored row this build cannot read: corrupt, or written by a newer cocosearch.
    #[error("index {index}: {what} cannot be read ({problem}) — {fix}")]
    Unreadable {
        /// The index.
        index: String,
        /// Which row (`run record 12`, `the symbols of a chunk of src/a.py`).
        what: String,
        /// What is wrong with it.
        problem: String,
        /// What to do about it.
        fix: String,
    },
    /// The embedded store's file is damaged: SQLite found pages it cannot read.
    #[error(
        "the embedded store {file} is damaged ({detail}) — move it away (`mv {file} {file}.damaged`) and index again, or delete every index with `cocosearch clear --all`, which recreates the store"
    )]
    Damaged {
        /// The store file.
        file: String,
        /// SQLite's words.
        detail: String,
    },
    /// Any other database error, with what we were doing.
    #[error("database error while {context}: {message}")]
    Query {
        /// What we were doing.
        context: String,
        /// The server's or driver's message.
        message: String,
    },
}

impl StoreError {
    /// Whether retrying the same operation later may succeed (connection lost, server restarting).
    pub fn is_transient(&self) -> bool {
        matches!(self, StoreError::Unreachable { .. })
    }

    /// Whether the error is a configuration mistake rather than a failure (exit code 2).
    pub fn is_configuration(&self) -> bool {
        matches!(self, StoreError::Config { .. } | StoreError::InvalidName(_))
    }
}
