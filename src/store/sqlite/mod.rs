//! The embedded store: SQLite (bundled, so nothing is needed on the machine) in one file of
//! the user's data directory, holding every index of the user.
//!
//! - One writer, many readers, across processes: WAL mode, `BEGIN IMMEDIATE` for writes and a
//!   busy timeout, so `cocosearch mcp` keeps answering while `cocosearch index` writes.
//! - Each batch of files is one transaction: a `kill -9` at any moment leaves every file fully
//!   old or fully new, as on PostgreSQL.
//! - The per-index write lock is an OS file lock (`locks/<index>.lock`), released when the
//!   process dies.
//! - Keyword candidates come from an FTS5 index of the keyword text; their term frequencies
//!   are counted here, in Rust, from the same text, so ranking (in `search`) sees exactly what
//!   PostgreSQL reports.
//! - Vectors are unit-length BLOBs in a narrow table, scored in Rust with filters in the SQL
//!   `WHERE`, so a filter never empties a result list: exactly below 20,000 vectors, through
//!   inverted lists above (`ivf`), each list's vectors read in one row (`packs`), with every
//!   vector not yet in a list scanned too.

mod conn;
mod graph;
mod indexes;
mod ivf;
mod packs;
mod read;
mod schema;
mod stats;
mod vectors;
mod write;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use conn::Pool;

use super::{
    Backend, DefQuery, FailingFile, FileRecord, FileState, Health, ImportQuery, ImportTarget, IndexCounts, IndexLock,
    IndexMeta, KeywordCandidate, KeywordQuery, NewIndex, PendingChunk, RefQuery, RunEnd, RunKind, RunRecord, Scored,
    SearchFilter, Store, StoreError, StoredChunk, StoredDef, StoredImport, StoredRef, TermStats, VectorAccuracy,
    VectorSupport,
};
use crate::chunk::SymbolKind;
use crate::config::DatabaseSettings;

/// The store file inside the embedded store's directory.
pub const FILE_NAME: &str = "cocosearch.db";

/// Whether an embedded store exists in `dir`.
pub fn exists(dir: &Path) -> bool {
    dir.join(FILE_NAME).is_file()
}

/// The SQLite-backed [`Store`].
pub struct SqliteStore {
    pool: Pool,
    dir: PathBuf,
}

impl SqliteStore {
    /// Opens the store in `dir`, creating the directory and the file if needed.
    pub fn open(dir: &Path, settings: &DatabaseSettings) -> Result<Arc<dyn Store>, StoreError> {
        Ok(Arc::new(SqliteStore::open_here(dir, settings)?))
    }

    /// [`Self::open`], as the concrete type.
    pub fn open_here(dir: &Path, settings: &DatabaseSettings) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(dir.join("locks")).map_err(|e| open_error(dir, &e.to_string()))?;
        let busy = std::time::Duration::from_secs(settings.connect_timeout.max(5));
        let pool = Pool::new(dir.join(FILE_NAME), busy);
        // Open one connection now, so an unusable file is reported with its fix at once.
        drop(pool.get()?);
        Ok(SqliteStore { pool, dir: dir.to_path_buf() })
    }

    fn file(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }
}

/// An error opening the store at `dir`.
pub(crate) fn open_error(dir: &Path, reason: &str) -> StoreError {
    StoreError::Unreachable {
        backend: Backend::Sqlite,
        location: dir.display().to_string(),
        reason: reason.to_string(),
        fix: "check that the directory is writable, or point database.path (COCOSEARCH_DATABASE_PATH) elsewhere".into(),
    }
}

/// A query error while doing `context`: a missing table of an index means the index is gone.
pub(crate) fn query_error(index: Option<&str>, context: &str, e: &rusqlite::Error) -> StoreError {
    let message = e.to_string();
    if let Some(index) = index
        && message.contains("no such table")
    {
        return StoreError::IndexNotFound(index.to_string());
    }
    if let rusqlite::Error::SqliteFailure(failure, _) = e
        && matches!(failure.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    {
        return StoreError::Query {
            context: context.to_string(),
            message: "the embedded store stayed busy (another cocosearch process held a write too long); try again"
                .into(),
        };
    }
    StoreError::Query { context: context.to_string(), message }
}

/// The embedded store's vector search: always there, scored in Rust.
pub(crate) fn vector_support() -> VectorSupport {
    VectorSupport::Ready("exact, in cocosearch".into())
}

impl Store for SqliteStore {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    fn location(&self) -> String {
        self.file().display().to_string()
    }

    fn health(&self) -> Result<Health, StoreError> {
        drop(self.pool.get()?);
        Ok(Health { engine: format!("SQLite {}", rusqlite::version()), vectors: vector_support() })
    }

    fn migrate(&self) -> Result<(), StoreError> {
        schema::migrate(&mut *self.pool.get()?)
    }

    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError> {
        indexes::get(&*self.pool.get()?, name)
    }

    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError> {
        indexes::list(&*self.pool.get()?)
    }

    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
        indexes::create(&mut *self.pool.get()?, new)
    }

    fn drop_index(&self, lock: &dyn IndexLock) -> Result<bool, StoreError> {
        indexes::drop(&mut *self.pool.get()?, lock.index())
    }

    fn set_index_model(&self, name: &str, model: &str, dimension: u32) -> Result<(), StoreError> {
        indexes::set_model(&*self.pool.get()?, name, model, dimension)
    }

    fn set_index_context(&self, name: &str, context_tokens: u32) -> Result<(), StoreError> {
        indexes::set_context(&*self.pool.get()?, name, context_tokens)
    }

    fn lock_index(&self, name: &str) -> Result<Box<dyn IndexLock>, StoreError> {
        indexes::lock(&self.dir, name)
    }

    fn file_states(&self, name: &str, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError> {
        read::file_states(&*self.pool.get()?, name, paths)
    }

    fn embedded_hashes(&self, name: &str) -> Result<HashSet<[u8; 16]>, StoreError> {
        read::embedded_hashes(&*self.pool.get()?, name)
    }

    fn replace_files(&self, name: &str, files: &[FileRecord]) -> Result<(), StoreError> {
        write::replace_files(&mut *self.pool.get()?, name, files)
    }

    fn touch_files(&self, name: &str, files: &[(String, u64, i64)]) -> Result<(), StoreError> {
        write::touch_files(&mut *self.pool.get()?, name, files)
    }

    fn remove_files(&self, name: &str, paths: &[String]) -> Result<u64, StoreError> {
        write::remove_files(&mut *self.pool.get()?, name, paths)
    }

    fn pending_chunks(&self, name: &str, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError> {
        read::pending_chunks(&*self.pool.get()?, name, after_id, limit)
    }

    fn count_pending(&self, name: &str) -> Result<u64, StoreError> {
        stats::count_pending(&*self.pool.get()?, name)
    }

    fn set_embeddings(&self, name: &str, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError> {
        write::set_embeddings(&mut *self.pool.get()?, name, vectors)
    }

    fn start_run(&self, name: &str, kind: RunKind) -> Result<i64, StoreError> {
        indexes::start_run(&mut *self.pool.get()?, name, kind)
    }

    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError> {
        indexes::finish_run(&mut *self.pool.get()?, run)
    }

    fn optimize(&self, name: &str) -> Result<(), StoreError> {
        ivf::maintain(&mut *self.pool.get()?, name)
    }

    fn vector_search(
        &self,
        name: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError> {
        read::vector_search(&*self.pool.get()?, name, query, filter, limit, accuracy)
    }

    fn keyword_candidates(
        &self,
        name: &str,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError> {
        read::keyword_candidates(&*self.pool.get()?, name, query, filter)
    }

    fn symbol_search(
        &self,
        name: &str,
        names: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<Scored>, StoreError> {
        read::symbol_search(&*self.pool.get()?, name, names, filter, limit)
    }

    fn term_stats(&self, name: &str, terms: &[String]) -> Result<TermStats, StoreError> {
        read::term_stats(&*self.pool.get()?, name, terms)
    }

    fn chunks(&self, name: &str, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError> {
        read::chunks(&*self.pool.get()?, name, ids)
    }

    fn file_chunks(&self, name: &str, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError> {
        read::file_chunks(&*self.pool.get()?, name, paths)
    }

    fn symbol_spans(
        &self,
        name: &str,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError> {
        read::symbol_spans(&*self.pool.get()?, name, wanted, kinds)
    }

    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError> {
        read::cached_query_vector(&*self.pool.get()?, model, query)
    }

    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError> {
        write::cache_query_vector(&*self.pool.get()?, model, query, vector)
    }

    fn index_counts(&self, name: &str) -> Result<IndexCounts, StoreError> {
        stats::index_counts(&*self.pool.get()?, name)
    }

    fn failing_files(&self, name: &str, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
        stats::failing_files(&*self.pool.get()?, name, limit)
    }

    fn runs(&self, name: &str, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
        stats::runs(&*self.pool.get()?, name, limit)
    }

    fn definitions(&self, name: &str, query: &DefQuery) -> Result<Vec<StoredDef>, StoreError> {
        graph::definitions(&*self.pool.get()?, name, query)
    }

    fn definition_names(&self, name: &str) -> Result<Vec<String>, StoreError> {
        graph::definition_names(&*self.pool.get()?, name)
    }

    fn references(&self, name: &str, query: &RefQuery) -> Result<Vec<StoredRef>, StoreError> {
        graph::references(&*self.pool.get()?, name, query)
    }

    fn imports(&self, name: &str, query: &ImportQuery) -> Result<Vec<StoredImport>, StoreError> {
        graph::imports(&*self.pool.get()?, name, query)
    }

    fn set_import_targets(&self, name: &str, targets: &[ImportTarget]) -> Result<(), StoreError> {
        graph::set_import_targets(&mut *self.pool.get()?, name, targets)
    }
}
