//! Storage: everything that is persisted, behind the [`Store`] trait.
//!
//! Two backends implement it: [`sqlite`], the embedded store (zero setup, one file in the
//! user's data directory), and [`postgres`], PostgreSQL + pgvector (teams, large codebases,
//! managed servers). [`open`] is the one place that chooses and builds a backend; everything
//! above this module sees `Arc<dyn Store>` and never names a backend type.
//!
//! The trait carries data, not policy: what a filter glob means ([`glob`]) and how keyword
//! candidates rank (`search::keywords`) are decided once, in Rust, and each backend only
//! translates them, so both rank identically.
//!
//! Architecture invariant: only this module knows SQL.

mod error;
pub mod glob;
mod graph;
pub mod open;
pub mod postgres;
pub mod sqlite;
mod types;

use std::collections::{HashMap, HashSet};

use crate::chunk::SymbolKind;

pub use error::StoreError;
pub use graph::{
    DefQuery, ImportQuery, ImportRecord, ImportTarget, RefQuery, Resolution, StoredDef, StoredImport, StoredRef,
    qualified_key,
};
pub use open::{BackendChoice, ChoiceReason, Opened, open};
pub use types::{
    ChunkBody, ChunkCounts, ChunkRecord, EmbeddingCounts, ErrorPosition, FailingFile, FileCounts, FileRecord,
    FileState, IndexCounts, IndexMeta, KeywordCandidate, KeywordQuery, KeywordTerm, LanguageCounts, MAX_TERM_FREQUENCY,
    NewIndex, PendingChunk, RunKind, RunRecord, RunStatus, RunSummary, Scored, SearchFilter, StoredChunk, SymbolRecord,
    TermCounts, TermStats, keyword_length, term_frequencies, word_frequencies,
};

/// Which backend a store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// Storage for indexes.
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

    /// What is recorded of the indexed files: all of them, or those of `paths`.
    fn file_states(&self, name: &str, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError>;

    /// The embed hashes that already have a vector in this index.
    fn embedded_hashes(&self, name: &str) -> Result<HashSet<[u8; 16]>, StoreError>;

    /// Replaces these files and all their chunks, imports and references, atomically: after a
    /// crash either the old or the new version of every file is there, never a mix. The
    /// definitions the graph reads are the symbols of the chunks. New chunks get ids never used
    /// before in the index (an id a search holds never names another chunk); a chunk written
    /// without a vector gets the stored vector of any chunk with the same `embed_hash`,
    /// including the old chunks being replaced; a vector of another dimension than the
    /// index's is an error.
    fn replace_files(&self, name: &str, files: &[FileRecord]) -> Result<(), StoreError>;

    /// Updates the size and mtime of files whose content did not change.
    fn touch_files(&self, name: &str, files: &[(String, u64, i64)]) -> Result<(), StoreError>;

    /// Removes files, their chunks, imports and references; imports of other files that
    /// resolved to a removed file become [`Resolution::Missing`], in the same transaction.
    /// Returns how many files were removed.
    fn remove_files(&self, name: &str, paths: &[String]) -> Result<u64, StoreError>;

    /// Up to `limit` chunks without a vector whose id is above `after_id`, by id.
    fn pending_chunks(&self, name: &str, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError>;

    /// How many chunks of the index have no vector.
    fn count_pending(&self, name: &str) -> Result<u64, StoreError>;

    /// Stores vectors for chunks by id.
    fn set_embeddings(&self, name: &str, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError>;

    /// Records the start of an index run; returns its id. Runs left running by a process
    /// that died are marked interrupted.
    fn start_run(&self, name: &str, kind: RunKind) -> Result<i64, StoreError>;

    /// Records how a run ended, its summary, and the git state it indexed.
    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError>;

    /// Reorganises what search reads after an index run's writes (the embedded store's
    /// inverted lists); may take seconds on a large index, and is never needed for
    /// correctness: searches see every write without it.
    fn optimize(&self, name: &str) -> Result<(), StoreError>;

    /// The `limit` chunks nearest to `query` by cosine similarity (the score), among those
    /// matching `filter`, best first.
    fn vector_search(
        &self,
        name: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError>;

    /// The candidates of a keyword query among the chunks matching `filter` (at most
    /// `query.max_candidates`, any order), with the frequency of each query term in them.
    /// Ranking them is the caller's business.
    fn keyword_candidates(
        &self,
        name: &str,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError>;

    /// Chunks defining a symbol whose name or qualified name is one of `names`
    /// (lowercase), among those matching `filter`.
    fn symbol_search(
        &self,
        name: &str,
        names: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<Scored>, StoreError>;

    /// Document frequencies of `terms`, the number of chunks and their total length.
    fn term_stats(&self, name: &str, terms: &[String]) -> Result<TermStats, StoreError>;

    /// The chunks with these ids (any order; missing ids are skipped).
    fn chunks(&self, name: &str, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError>;

    /// Every chunk of these files (any order; unknown paths are skipped).
    fn file_chunks(&self, name: &str, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError>;

    /// The 1-based line spans recorded at indexing time of the symbols named in `wanted`
    /// (file path, lowercase qualified name) whose kind is one of `kinds`, by file. Search
    /// expands hits to their enclosing definition with them instead of parsing files again.
    fn symbol_spans(
        &self,
        name: &str,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError>;

    /// A cached query embedding.
    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError>;

    /// Caches a query embedding, replacing any cached before.
    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError>;

    /// Counts of what the index holds.
    fn index_counts(&self, name: &str) -> Result<IndexCounts, StoreError>;

    /// Files whose chunks did not all parse cleanly, most failing chunks first.
    fn failing_files(&self, name: &str, limit: usize) -> Result<Vec<FailingFile>, StoreError>;

    /// The most recent runs, newest first.
    fn runs(&self, name: &str, limit: usize) -> Result<Vec<RunRecord>, StoreError>;

    /// Definitions matching `query`, by path and line.
    fn definitions(&self, name: &str, query: &DefQuery) -> Result<Vec<StoredDef>, StoreError>;

    /// Every distinct qualified name of the index's definitions (for "did you mean" hints).
    fn definition_names(&self, name: &str) -> Result<Vec<String>, StoreError>;

    /// References matching `query`, by path and line.
    fn references(&self, name: &str, query: &RefQuery) -> Result<Vec<StoredRef>, StoreError>;

    /// Imports matching `query`, by path and line.
    fn imports(&self, name: &str, query: &ImportQuery) -> Result<Vec<StoredImport>, StoreError>;

    /// Records new resolutions of stored imports (ids of imports gone meanwhile are skipped).
    fn set_import_targets(&self, name: &str, targets: &[ImportTarget]) -> Result<(), StoreError>;
}

/// How an index run ended.
#[derive(Debug, Clone)]
pub struct RunEnd<'a> {
    /// The index.
    pub index: &'a str,
    /// The run id from [`Store::start_run`].
    pub run_id: i64,
    /// Completed, interrupted or failed.
    pub status: RunStatus,
    /// What the run did.
    pub summary: &'a RunSummary,
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
