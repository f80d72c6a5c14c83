//! Storage: everything that is persisted, behind the [`Store`] trait.
//!
//! The PostgreSQL + pgvector implementation lives in [`postgres`]; an embedded store can be
//! added beside it without touching indexing, search or the CLI, which only see `&dyn Store`.
//!
//! Architecture invariant: only this module knows SQL.

mod error;
pub mod postgres;
mod types;

use std::collections::{HashMap, HashSet};

pub use error::StoreError;
pub use types::{
    ChunkBody, ChunkRecord, ErrorPosition, FailingFile, FileRecord, FileState, IndexCounts, IndexMeta, KeywordQuery,
    LanguageCounts, NewIndex, PendingChunk, RunRecord, Scored, SearchFilter, StoredChunk, SymbolRecord, TermStats,
    WeightedTerm,
};

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

    /// The index called `name`, if it exists.
    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError>;

    /// Every index, by name.
    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError>;

    /// Registers an index and creates its storage.
    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError>;

    /// Deletes the index `lock` holds and everything in it; `false` if there was none. Taking
    /// the lock first ([`Store::lock_index`]) is what keeps a deletion from pulling the tables
    /// out from under a run that is writing them.
    fn drop_index(&self, lock: &dyn IndexLock) -> Result<bool, StoreError>;

    /// Records the embedding model and dimension of an index that had none, and prepares
    /// vector search for that dimension.
    fn set_index_model(&self, name: &str, model: &str, dimension: u32) -> Result<(), StoreError>;

    /// Records the model's context length, which fixes the chunk budget of the index.
    fn set_index_context(&self, name: &str, context_tokens: u32) -> Result<(), StoreError>;

    /// Takes the exclusive write lock of an index, or fails at once with [`StoreError::Busy`].
    /// Every operation that writes or deletes an index holds it: an index run for its whole
    /// length, a deletion while it deletes. The index need not exist yet. The lock is released
    /// when the guard is dropped or the process dies.
    fn lock_index(&self, name: &str) -> Result<Box<dyn IndexLock>, StoreError>;

    /// What is recorded of every indexed file.
    fn file_states(&self, name: &str) -> Result<HashMap<String, FileState>, StoreError>;

    /// The embed hashes that already have a vector in this index.
    fn embedded_hashes(&self, name: &str) -> Result<HashSet<[u8; 16]>, StoreError>;

    /// Replaces these files and all their chunks, atomically: after a crash either the old or
    /// the new version of every file is there, never a mix.
    fn replace_files(&self, name: &str, files: &[FileRecord]) -> Result<(), StoreError>;

    /// Updates the size and mtime of files whose content did not change.
    fn touch_files(&self, name: &str, files: &[(String, u64, i64)]) -> Result<(), StoreError>;

    /// Removes files and their chunks; returns how many files were removed.
    fn remove_files(&self, name: &str, paths: &[String]) -> Result<u64, StoreError>;

    /// Up to `limit` chunks without a vector whose id is above `after_id`, by id.
    fn pending_chunks(&self, name: &str, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError>;

    /// How many chunks of the index have no vector.
    fn count_pending(&self, name: &str) -> Result<u64, StoreError>;

    /// Stores vectors for chunks by id.
    fn set_embeddings(&self, name: &str, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError>;

    /// Records the start of an index run; returns its id. Runs left `running` by a process
    /// that died are marked `interrupted`.
    fn start_run(&self, name: &str, kind: &str) -> Result<i64, StoreError>;

    /// Records how a run ended, its summary, and the git state it indexed.
    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError>;

    /// The `limit` chunks nearest to `query` by cosine similarity, among those matching
    /// `filter`. `ef_search` trades speed for recall of the approximate (HNSW) index; 0 asks
    /// for an exact search.
    fn vector_search(
        &self,
        name: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        ef_search: u32,
    ) -> Result<Vec<Scored>, StoreError>;

    /// The `limit` best-scoring candidates of a keyword query, among those matching `filter`.
    fn keyword_search(
        &self,
        name: &str,
        query: &KeywordQuery,
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<Scored>, StoreError>;

    /// Chunks defining a symbol whose name or qualified name is one of `names`
    /// (lowercase), among those matching `filter`.
    fn symbol_search(
        &self,
        name: &str,
        names: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<Scored>, StoreError>;

    /// Document frequencies of `terms`, and the number of chunks.
    fn term_stats(&self, name: &str, terms: &[String]) -> Result<TermStats, StoreError>;

    /// The chunks with these ids (any order; missing ids are skipped).
    fn chunks(&self, name: &str, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError>;

    /// What is recorded of these files (for staleness checks).
    fn file_states_of(&self, name: &str, paths: &[String]) -> Result<HashMap<String, FileState>, StoreError>;

    /// The 1-based line spans recorded at indexing time of the symbols named in `wanted`
    /// (file path, lowercase qualified name) whose kind is one of `kinds`, by file. Search
    /// expands hits to their enclosing definition with them instead of parsing files again.
    fn symbol_spans(
        &self,
        name: &str,
        wanted: &[(String, String)],
        kinds: &[String],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError>;

    /// A cached query embedding.
    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError>;

    /// Caches a query embedding, replacing what was cached for the query.
    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError>;

    /// Counts of what the index holds.
    fn index_counts(&self, name: &str) -> Result<IndexCounts, StoreError>;

    /// Files whose chunks did not all parse cleanly, most failing chunks first.
    fn failing_files(&self, name: &str, limit: usize) -> Result<Vec<FailingFile>, StoreError>;

    /// The most recent runs, newest first.
    fn runs(&self, name: &str, limit: usize) -> Result<Vec<RunRecord>, StoreError>;
}

/// How an index run ended.
#[derive(Debug, Clone)]
pub struct RunEnd<'a> {
    /// The index.
    pub index: &'a str,
    /// The run id from [`Store::start_run`].
    pub run_id: i64,
    /// `completed`, `interrupted` or `failed`.
    pub status: &'a str,
    /// The run's summary, as JSON.
    pub summary: &'a serde_json::Value,
    /// The git commit indexed.
    pub git_commit: Option<&'a str>,
    /// The git branch indexed.
    pub git_branch: Option<&'a str>,
}

/// A held index write lock; dropping it releases the lock.
pub trait IndexLock: Send {
    /// The index it locks.
    fn index(&self) -> &str;
}
