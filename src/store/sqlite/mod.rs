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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use conn::Pool;
use indexes::FileLock;
use schema::Tables;

use super::{Backend, IndexReader, IndexWriter, Store, StoreError, VectorSupport};
use crate::config::DatabaseSettings;

/// The store file inside the embedded store's directory.
pub const FILE_NAME: &str = "cocosearch.db";

/// Whether an embedded store exists in `dir`.
pub fn exists(dir: &Path) -> bool {
    dir.join(FILE_NAME).is_file()
}

/// The SQLite-backed [`Store`]. Cloning it is cheap: the handles of an index hold a clone.
#[derive(Clone)]
pub struct SqliteStore {
    pool: Arc<Pool>,
    dir: Arc<PathBuf>,
}

/// One index of the embedded store, opened for reading (the [`IndexReader`]): the store and
/// the index's validated table names.
pub(crate) struct SqliteIndex {
    store: SqliteStore,
    name: String,
    t: Tables,
}

impl SqliteIndex {
    fn open(store: &SqliteStore, name: &str) -> Result<SqliteIndex, StoreError> {
        Ok(SqliteIndex { store: store.clone(), name: name.to_string(), t: Tables::new(name)? })
    }
}

/// The writer of one index of the embedded store (the [`IndexWriter`]): the index and its
/// held file lock, released when the writer is dropped.
pub(crate) struct SqliteWriter {
    index: SqliteIndex,
    _lock: FileLock,
}

impl IndexWriter for SqliteWriter {
    fn index(&self) -> &str {
        &self.index.name
    }

    fn reader(&self) -> &dyn IndexReader {
        &self.index
    }
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
        Ok(SqliteStore { pool: Arc::new(pool), dir: Arc::new(dir.to_path_buf()) })
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
