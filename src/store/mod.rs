//! Storage: everything that is persisted, behind the [`Store`] trait.
//!
//! The PostgreSQL + pgvector implementation lives in [`postgres`]; an embedded store can be
//! added beside it without touching indexing, search or the CLI, which only see `&dyn Store`.
//!
//! Architecture invariant: only this module knows SQL.

mod error;
pub mod postgres;

pub use error::StoreError;

/// The state of the database server, for `config check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    /// The server's version string, e.g. `16.4`.
    pub server_version: String,
    /// pgvector's state.
    pub vector: VectorExtension,
}

/// pgvector on this server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VectorExtension {
    /// Installed in the database, at this version.
    Installed(String),
    /// Available on the server, not yet created in the database; whether we may create it.
    Available {
        /// The version `CREATE EXTENSION vector` would install.
        version: String,
        /// Whether the current user has the privilege to create it.
        can_create: bool,
    },
    /// Not available on this server at all.
    Missing,
}

/// Storage for indexes.
pub trait Store: Send + Sync {
    /// Where the store is, for messages: the URL with its password redacted.
    fn location(&self) -> String;

    /// Connects and reports the server version and pgvector state. Does not change anything.
    fn health(&self) -> Result<Health, StoreError>;

    /// Brings the schema up to date (idempotent; safe to run concurrently).
    fn migrate(&self) -> Result<(), StoreError>;
}
