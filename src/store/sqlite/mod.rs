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
mod migrate;
mod migrate5;
mod migrate8;
mod packs;
mod read;
mod schema;
mod schema7;
mod members;
mod snapshots;
mod stats;
mod tasks;
mod texts;
mod vectors;
mod write;

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use conn::Pool;
use indexes::FileLock;
use rusqlite::types::{Type, ValueRef};
use schema::Tables;

use super::unreadable::unreadable;
use super::{At, Backend, IndexReader, IndexWriter, Store, StoreError, VectorSupport};
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
    /// The snapshot its reads see.
    at: At,
}

impl SqliteIndex {
    fn open(store: &SqliteStore, name: &str, at: At) -> Result<SqliteIndex, StoreError> {
        Ok(SqliteIndex { store: store.clone(), name: name.to_string(), t: Tables::new(name)?, at })
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
/// Deletes the store file in `dir` (with its WAL and shared memory) and creates an empty one,
/// unless a write lock of an index is held (see [`super::open::recreate_damaged`]).
pub fn recreate(dir: &Path, settings: &DatabaseSettings) -> Result<PathBuf, StoreError> {
    let _locks = indexes::lock_all(dir)?;
    let file = dir.join(FILE_NAME);
    for suffix in ["", "-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{suffix}", file.display()));
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(open_error(dir, &format!("cannot delete {}: {e}", path.display()))),
        }
    }
    let store = SqliteStore::open_here(dir, settings)?;
    store.migrate()?;
    Ok(file)
}

pub(crate) fn open_error(dir: &Path, reason: &str) -> StoreError {
    StoreError::Unreachable {
        backend: Backend::Sqlite,
        location: dir.display().to_string(),
        reason: reason.to_string(),
        fix: "check that the directory is writable, or point database.path (COCOSEARCH_DATABASE_PATH) elsewhere".into(),
    }
}

/// A stored value that does not decode, found while rows are being read: raised as the
/// `rusqlite::Error` a failed column conversion is, so it leaves the row loop like any other
/// read error, and [`query_error`] reports it as [`StoreError::Unreadable`] of the index.
#[derive(Debug, thiserror::Error)]
#[error("{what} cannot be read ({problem})")]
pub(crate) struct Undecodable {
    /// Which row (`the vector of chunk 12`).
    what: String,
    /// What is wrong with it.
    problem: String,
}

impl Undecodable {
    /// The read error of column `column` of the row `what`, holding a `found` value.
    pub(crate) fn error(column: usize, found: Type, what: String, problem: impl Display) -> rusqlite::Error {
        let cause = Undecodable { what, problem: problem.to_string() };
        rusqlite::Error::FromSqlConversionFailure(column, found, Box::new(cause))
    }

    /// The text of `value`, column `column` of the row `what` names; anything else (a BLOB,
    /// bytes that are not UTF-8) is the read error of an undecodable row, not empty text.
    pub(crate) fn text<'a>(
        value: ValueRef<'a>,
        column: usize,
        what: impl FnOnce() -> String,
    ) -> rusqlite::Result<&'a str> {
        let problem = match value {
            ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => return Ok(text),
                Err(e) => format!("it is not UTF-8 ({e})"),
            },
            other => format!("it is {}, not text", other.data_type()),
        };
        Err(Undecodable::error(column, value.data_type(), what(), problem))
    }
}

/// A query error while doing `context`: a missing table of an index means the index is gone.
pub(crate) fn query_error(index: Option<&str>, context: &str, e: &rusqlite::Error) -> StoreError {
    let message = e.to_string();
    if let Some(damaged) = damaged(e, conn::last_file().as_deref()) {
        return damaged;
    }
    if let (Some(index), rusqlite::Error::FromSqlConversionFailure(_, _, cause)) = (index, e)
        && let Some(value) = cause.downcast_ref::<Undecodable>()
    {
        return unreadable(index, value.what.clone(), &value.problem);
    }
    if let Some(index) = index
        && message.contains("no such table")
    {
        return StoreError::IndexNotFound(index.to_string());
    }
    if let rusqlite::Error::SqliteFailure(failure, _) = e
        && failure.code == rusqlite::ErrorCode::DiskFull
    {
        let file = conn::last_file().map_or_else(|| FILE_NAME.to_string(), |f| f.display().to_string());
        return StoreError::Query {
            context: context.to_string(),
            message: format!(
                "the disk holding the embedded store {file} is full — free space there, or point database.path (COCOSEARCH_DATABASE_PATH) at another disk"
            ),
        };
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
/// [`StoreError::Damaged`] when `e` says the file is corrupt or not a database at all.
pub(crate) fn damaged(e: &rusqlite::Error, file: Option<&Path>) -> Option<StoreError> {
    let rusqlite::Error::SqliteFailure(failure, _) = e else { return None };
    if !matches!(failure.code, rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) {
        return None;
    }
    Some(StoreError::Damaged {
        file: file.map_or_else(|| FILE_NAME.to_string(), |f| f.display().to_string()),
        detail: e.to_string(),
    })
}

pub(crate) fn vector_support() -> VectorSupport {
    VectorSupport::Ready("exact, in cocosearch".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None)
    }

    // Issue 25, item 10: "database or disk is full" said neither which file nor what to do.
    #[test]
    fn a_full_disk_names_the_store_file_and_the_fix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pool = conn::Pool::new(dir.path().join(FILE_NAME), std::time::Duration::from_secs(1));
        drop(pool.get().expect("open"));
        let message = query_error(Some("x"), "writing files", &failure(rusqlite::ffi::SQLITE_FULL)).to_string();
        let file = dir.path().join(FILE_NAME).display().to_string();
        assert!(message.contains(&file) && message.contains("database.path"), "{message}");
    }

    #[test]
    fn a_value_that_does_not_decode_is_unreadable_naming_the_index_and_the_row() {
        let e = Undecodable::error(1, Type::Text, "the vector of chunk 12".into(), "it is text, not a BLOB");
        let err = query_error(Some("x"), "searching vectors", &e);
        let text = err.to_string();
        assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
        assert!(text.contains("index x") && text.contains("chunk 12") && text.contains("--fresh"), "{text}");
    }

    #[test]
    fn a_corrupt_page_is_damage_naming_the_file_and_the_way_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pool = conn::Pool::new(dir.path().join(FILE_NAME), std::time::Duration::from_secs(1));
        drop(pool.get().expect("open"));
        let e = query_error(None, "counting", &failure(rusqlite::ffi::SQLITE_CORRUPT));
        assert!(matches!(e, StoreError::Damaged { .. }), "{e:?}");
        let message = e.to_string();
        assert!(message.contains(&dir.path().join(FILE_NAME).display().to_string()), "{message}");
        assert!(message.contains("cocosearch clear --all"), "{message}");
    }
}
