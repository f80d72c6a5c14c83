//! Storage: everything that is persisted, behind the [`Store`] trait.
//!
//! Two backends implement it: [`sqlite`], the embedded store (zero setup, one file in the
//! user's data directory), and [`postgres`], PostgreSQL + pgvector (teams, large codebases,
//! managed servers). [`open`] is the one place that chooses and builds a backend; everything
//! above this module sees `Arc<dyn Store>` and never names a backend type.
//!
//! [`Store`] holds the store-wide operations; one index is read through an [`IndexReader`] and
//! written through an [`IndexWriter`], the index's write lock, each opened once per request or
//! run ([`Store::reader`], [`Store::writer`]). Each backend implements every handle trait
//! directly, in the file holding its SQL.
//!
//! The trait carries data, not policy: what a filter glob means ([`glob`]) and how keyword
//! candidates rank (`search::keywords`) are decided once, in Rust, and each backend only
//! translates them, so both rank identically.
//!
//! Architecture invariant: only this module knows SQL.

mod error;
pub mod glob;
mod graph;
mod handles;
pub mod snapshots;
pub mod open;
pub mod overlay;
pub mod postgres;
pub mod sqlite;
mod stored_run;
pub mod texts;
pub mod tasks;
mod types;
mod unreadable;
mod wait;

pub use error::StoreError;
pub use graph::{
    DefQuery, ImportQuery, ImportRecord, ImportTarget, RefQuery, Resolution, StoredDef, StoredImport, StoredRef,
    qualified_key,
};
pub use handles::{
    ChunkReader, FileWriter, GraphReader, GraphWriter, IndexReader, IndexWriter, RecordWriter, RunEnd, StateReader,
    StatsReader,
};
pub use open::{BackendChoice, ChoiceReason, Opened, open};
pub use snapshots::{
    At, Collected, KeptFile, SnapshotCounts, SnapshotOrigin, SnapshotReader, SnapshotRecord, SnapshotSpec,
    SnapshotWriter, StoredVersion,
};
pub use stored_run::RUN_SUMMARY_VERSION;
pub use tasks::{
    LinkKind, NewTask, StatusChange, StoredLink, TaskChange, TaskLink, TaskQuery, TaskRecord, TaskStatus, TaskStore,
    search_text, search_words,
};
pub use types::{
    ChunkBody, ChunkCounts, ChunkRecord, EmbeddingCounts, ErrorPosition, FailingFile, FileCounts, FileRecord,
    FileState, IndexCounts, IndexMeta, KEPT_LIVE_RUNS, KeywordCandidate, KeywordQuery, KeywordTerm, LanguageCounts,
    MAX_TERM_FREQUENCY, NewIndex, PendingChunk, RunKind, RunRecord, RunStatus, RunSummary, Scored, SearchFilter,
    StoredChunk, SymbolRecord, TermCounts, TermStats, keyword_length, term_frequencies, word_frequencies,
};
pub use wait::{Patience, writer_when_free};

/// Which backend a store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded store: SQLite in the user's data directory.
    Sqlite,
    /// PostgreSQL with pgvector.
    Postgres,
}

impl Backend {
    /// The name used in the configuration (`database.backend`) and in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// The product name, for messages.
    pub fn product(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a store answers and can do vector search, for `config check` and `/health`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    /// The engine and its version, e.g. `PostgreSQL 16.4` or `SQLite 3.50.2`.
    pub engine: String,
    /// Vector search.
    pub vectors: VectorSupport,
}

/// Whether vector search is possible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VectorSupport {
    /// It works; how (`pgvector 0.8.5`, `exact search in Rust`).
    Ready(String),
    /// It will work once the first index is created, which sets it up (`pgvector 0.8.5
    /// available`).
    OnFirstIndex(String),
    /// It cannot work here.
    Unavailable {
        /// What is missing.
        problem: String,
        /// How to fix it.
        fix: String,
    },
}

/// How exact a vector search must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorAccuracy {
    /// The backend's usual search (an approximate index where it has one).
    Usual,
    /// Every vector compared (to measure the recall of an approximate index).
    Exact,
}

/// Storage for indexes: the store-wide operations, and the handles of one index
/// ([`Store::reader`], [`Store::writer`]).
pub trait Store: Send + Sync {
    /// Which backend this is.
    fn backend(&self) -> Backend;

    /// Where the store is, for messages: a file path, or a URL with its secrets redacted.
    fn location(&self) -> String;

    /// Whether the store answers and can do vectors. Changes nothing.
    fn health(&self) -> Result<Health, StoreError>;

    /// Brings the schema up to date (idempotent; safe to run concurrently).
    fn migrate(&self) -> Result<(), StoreError>;

    /// The index called `name`, if it exists.
    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError>;

    /// Every index, by name.
    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError>;

    /// Registers an index and creates its storage.
    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError>;

    /// Opens index `name` for reading, after validating the name (no I/O): a search, a graph
    /// query or `stats` opens one per request. An index that does not exist answers
    /// [`StoreError::IndexNotFound`] at the first read.
    fn reader(&self, name: &str) -> Result<Box<dyn IndexReader>, StoreError> {
        self.reader_at(name, At::Current)
    }

    /// [`Store::reader`] of one snapshot of the index.
    fn reader_at(&self, name: &str, at: At) -> Result<Box<dyn IndexReader>, StoreError>;

    /// Takes the exclusive write lock of index `name` and returns it as the index's writer,
    /// or fails at once with [`StoreError::Busy`]. Every operation that writes or deletes an
    /// index holds it: an index run for its whole length, a deletion while it deletes. The
    /// index need not exist yet. The lock is released when the writer is dropped or the
    /// process dies.
    fn writer(&self, name: &str) -> Result<Box<dyn IndexWriter>, StoreError>;

    /// The tasks of project `project` (its index name, validated here; the index need not
    /// exist). Tasks are kept apart from the index's tables: dropping the index leaves them.
    fn tasks(&self, project: &str) -> Result<Box<dyn TaskStore>, StoreError>;

    /// A cached query embedding.
    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError>;

    /// Caches a query embedding, replacing any cached before.
    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError>;
}
