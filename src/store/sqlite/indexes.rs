//! The index registry, per-index tables, the OS-file write lock, and runs.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior};

use super::schema::{INDEX_SCHEMA_VERSION, Tables, now_ns, time};
use super::{open_error, query_error};
use crate::config::validate_index_name;
use crate::store::{IndexLock, IndexMeta, NewIndex, RunEnd, RunKind, StoreError};

const META_COLUMNS: &str =
    "name, root_path, provider, model, dimension, created_at, updated_at, git_commit, git_branch, context_tokens";

fn meta(row: &Row<'_>) -> rusqlite::Result<IndexMeta> {
    let count = |v: Option<i64>| v.and_then(|d| u32::try_from(d).ok());
    Ok(IndexMeta {
        name: row.get(0)?,
        root: PathBuf::from(row.get::<_, String>(1)?),
        provider: row.get(2)?,
        model: row.get(3)?,
        dimension: count(row.get(4)?),
        created_at: time(row.get(5)?),
        updated_at: time(row.get(6)?),
        git_commit: row.get(7)?,
        git_branch: row.get(8)?,
        context_tokens: count(row.get(9)?),
    })
}

pub(crate) fn get(conn: &Connection, name: &str) -> Result<Option<IndexMeta>, StoreError> {
    conn.prepare_cached(&format!("SELECT {META_COLUMNS} FROM indexes WHERE name = ?1"))
        .and_then(|mut s| s.query_row([name], meta).optional())
        .map_err(|e| query_error(None, "reading the index registry", &e))
}

pub(crate) fn list(conn: &Connection) -> Result<Vec<IndexMeta>, StoreError> {
    let err = |e| query_error(None, "listing indexes", &e);
    let mut stmt = conn.prepare_cached(&format!("SELECT {META_COLUMNS} FROM indexes ORDER BY name")).map_err(err)?;
    let rows = stmt.query_map([], meta).map_err(err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}

pub(crate) fn create(conn: &mut Connection, new: &NewIndex) -> Result<IndexMeta, StoreError> {
    let tables = Tables::new(&new.name)?;
    let err = |e| query_error(None, "creating the index", &e);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
    tx.execute_batch(&tables.create_sql()).map_err(err)?;
    let now = now_ns();
    tx.execute(
        "INSERT INTO indexes (name, root_path, provider, model, dimension, context_tokens, schema_version, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
         ON CONFLICT (name) DO NOTHING",
        (
            &new.name,
            new.root.to_string_lossy().as_ref(),
            &new.provider,
            &new.model,
            new.dimension,
            new.context_tokens,
            INDEX_SCHEMA_VERSION,
            now,
        ),
    )
    .map_err(err)?;
    tx.commit().map_err(err)?;
    get(conn, &new.name)?.ok_or_else(|| StoreError::IndexNotFound(new.name.clone()))
}

pub(crate) fn drop(conn: &mut Connection, name: &str) -> Result<bool, StoreError> {
    let tables = Tables::new(name)?;
    let err = |e| query_error(None, "deleting the index", &e);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
    let existed = tx.execute("DELETE FROM indexes WHERE name = ?1", [name]).map_err(err)?;
    tx.execute_batch(&tables.drop_sql()).map_err(err)?;
    tx.commit().map_err(err)?;
    Ok(existed > 0)
}

pub(crate) fn set_model(conn: &Connection, name: &str, model: &str, dimension: u32) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE indexes SET model = ?2, dimension = ?3, updated_at = ?4 WHERE name = ?1",
        (name, model, dimension, now_ns()),
    )
    .map_err(|e| query_error(None, "recording the embedding model", &e))?;
    Ok(())
}

pub(crate) fn set_context(conn: &Connection, name: &str, context_tokens: u32) -> Result<(), StoreError> {
    conn.execute("UPDATE indexes SET context_tokens = ?2 WHERE name = ?1", (name, context_tokens))
        .map_err(|e| query_error(None, "recording the model context", &e))?;
    Ok(())
}

/// A held write lock: an exclusive OS lock on `locks/<index>.lock`, which the operating
/// system releases when the file is closed or the process dies.
struct FileLock {
    _file: File,
    index: String,
}

impl IndexLock for FileLock {
    fn index(&self) -> &str {
        &self.index
    }
}

pub(crate) fn lock(dir: &Path, name: &str) -> Result<Box<dyn IndexLock>, StoreError> {
    validate_index_name(name).map_err(StoreError::InvalidName)?;
    let path = dir.join("locks").join(format!("{name}.lock"));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| open_error(dir, &format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(Box::new(FileLock { _file: file, index: name.to_string() })),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Busy(name.to_string())),
        Err(std::fs::TryLockError::Error(e)) => Err(open_error(dir, &format!("cannot lock {}: {e}", path.display()))),
    }
}

pub(crate) fn start_run(conn: &mut Connection, name: &str, kind: RunKind) -> Result<i64, StoreError> {
    let err = |e| query_error(None, "recording the run", &e);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
    // Only the lock holder gets here, so any run still running belongs to a dead process.
    tx.execute("UPDATE runs SET status = 'interrupted' WHERE index_name = ?1 AND status = 'running'", [name])
        .map_err(err)?;
    tx.execute(
        "INSERT INTO runs (index_name, kind, status, started_at) VALUES (?1, ?2, 'running', ?3)",
        (name, kind.as_str(), now_ns()),
    )
    .map_err(err)?;
    let id = tx.last_insert_rowid();
    tx.commit().map_err(err)?;
    Ok(id)
}

pub(crate) fn finish_run(conn: &mut Connection, run: &RunEnd<'_>) -> Result<(), StoreError> {
    let err = |e| query_error(None, "recording the end of the run", &e);
    let summary = serde_json::to_string(run.summary).unwrap_or_else(|_| "{}".into());
    let now = now_ns();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
    tx.execute(
        "UPDATE runs SET status = ?2, summary = ?3, finished_at = ?4 WHERE id = ?1",
        (run.run_id, run.status.as_str(), summary, now),
    )
    .map_err(err)?;
    tx.execute(
        "UPDATE indexes SET updated_at = ?4,
                git_commit = COALESCE(?2, git_commit),
                git_branch = CASE WHEN ?2 IS NULL THEN git_branch ELSE ?3 END
         WHERE name = ?1",
        (run.index, run.git_commit, run.git_branch, now),
    )
    .map_err(err)?;
    tx.commit().map_err(err)
}
