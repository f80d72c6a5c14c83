//! Storage errors, each with the fix a user can apply.

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The server cannot be reached at all.
    #[error(
        "cannot connect to PostgreSQL at {url}: {reason} — start it (`docker compose up -d`), or point COCOSEARCH_DATABASE_URL at a running server"
    )]
    Unreachable {
        /// The URL, password redacted.
        url: String,
        /// Why, in a few words.
        reason: String,
    },
    /// The connection URL itself is wrong: nothing to start, something to fix.
    #[error(
        "database.url {url} is not a valid PostgreSQL connection URL: {reason} — fix COCOSEARCH_DATABASE_URL (database.url), e.g. postgresql://user@localhost:5432/cocosearch?sslmode=disable"
    )]
    BadUrl {
        /// The URL, password redacted.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The server refused the credentials.
    #[error(
        "PostgreSQL at {url} refused the login: {reason} — check the user and password in COCOSEARCH_DATABASE_URL (database.url)"
    )]
    Auth {
        /// The URL, password redacted.
        url: String,
        /// The server's message.
        reason: String,
    },
    /// The database in the URL does not exist.
    #[error(
        "database {database:?} does not exist on {url} — create it (`createdb {database}`), or fix COCOSEARCH_DATABASE_URL"
    )]
    NoDatabase {
        /// The URL, password redacted.
        url: String,
        /// The database name.
        database: String,
    },
    /// pgvector is missing or cannot be enabled.
    #[error("{message}")]
    Vector {
        /// What is wrong and the fix.
        message: String,
    },
    /// The named index does not exist.
    #[error("no index named {0} — run `cocosearch index` in the project (or pass --name/--index)")]
    IndexNotFound(String),
    /// Another run holds the index's write lock (an index run, or a deletion).
    #[error(
        "index {0} is being written by another run (`cocosearch index`, or an MCP server's index job) — wait for it to finish, then try again"
    )]
    Busy(String),
    /// The index was built with another embedding model or dimension.
    #[error(
        "index {index} was built with {existing}, but the configuration asks for {requested} — keep the model, or rebuild with `cocosearch index --fresh`"
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

    /// Whether the configuration is at fault (a usage error, exit code 2), not the server.
    pub fn is_configuration(&self) -> bool {
        matches!(self, StoreError::BadUrl { .. } | StoreError::InvalidName(_))
    }
}
