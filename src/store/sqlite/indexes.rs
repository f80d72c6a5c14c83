//! The store itself (`impl Store`): the index registry, per-index tables, the query cache,
//! opening an index's handles with the OS-file write lock, and what the writer records of the
//! index and its runs.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::schema::{INDEX_SCHEMA_VERSION, Tables, now_ns, time};
use super::{SqliteIndex, SqliteStore, SqliteWriter, open_error, query_error, vector_support, vectors};
use crate::store::stored_run::encode_summary;
use crate::store::{
    At, Backend, Health, IndexMeta, IndexReader, IndexWriter, NewIndex, RecordWriter, RunEnd, RunKind, Store,
    StoreError, TaskStore,
};

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

fn get(conn: &Connection, name: &str) -> Result<Option<IndexMeta>, StoreError> {
    conn.prepare_cached(&format!("SELECT {META_COLUMNS} FROM indexes WHERE name = ?1"))
        .and_then(|mut s| s.query_row([name], meta).optional())
        .map_err(|e| query_error(None, "reading the index registry", &e))
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
        super::migrate::migrate(&mut *self.pool.get()?)
    }

    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError> {
        get(&*self.pool.get()?, name)
    }

    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError> {
        let conn = self.pool.get()?;
        let err = |e| query_error(None, "listing indexes", &e);
        let mut stmt =
            conn.prepare_cached(&format!("SELECT {META_COLUMNS} FROM indexes ORDER BY name")).map_err(err)?;
        let rows = stmt.query_map([], meta).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
        let tables = Tables::new(&new.name)?;
        let mut conn = self.pool.get()?;
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
        get(&conn, &new.name)?.ok_or_else(|| StoreError::IndexNotFound(new.name.clone()))
    }

    fn reader_at(&self, name: &str, at: At) -> Result<Box<dyn IndexReader>, StoreError> {
        Ok(Box::new(SqliteIndex::open(self, name, at)?))
    }

    fn writer(&self, name: &str) -> Result<Box<dyn IndexWriter>, StoreError> {
        let index = SqliteIndex::open(self, name, At::Current)?;
        let lock = try_lock(&self.dir, &self.dir.join("locks").join(format!("{name}.lock")), name)?;
        Ok(Box::new(SqliteWriter { index, _lock: lock }))
    }

    fn tasks(&self, project: &str) -> Result<Box<dyn TaskStore>, StoreError> {
        crate::config::validate_index_name(project).map_err(StoreError::InvalidName)?;
        Ok(Box::new(super::tasks::SqliteTasks::new(self, project)))
    }

    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError> {
        let hash = blake3::hash(query.as_bytes());
        self.pool
            .get()?
            .prepare_cached("SELECT embedding FROM query_cache WHERE model = ?1 AND query_hash = ?2")
            .and_then(|mut s| s.query_row((model, hash.as_bytes().as_slice()), |r| r.get::<_, Vec<u8>>(0)).optional())
            .map(|blob| blob.map(|b| vectors::decode(&b)))
            .map_err(|e| query_error(None, "reading the query cache", &e))
    }

    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError> {
        let hash = blake3::hash(query.as_bytes());
        self.pool
            .get()?
            .prepare_cached(
                "INSERT INTO query_cache (model, query_hash, embedding, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (model, query_hash) DO UPDATE SET embedding = excluded.embedding, created_at = excluded.created_at",
            )
            .and_then(|mut s| s.execute(params![model, hash.as_bytes().as_slice(), vectors::encode(vector), now_ns()]))
            .map_err(|e| query_error(None, "writing the query cache", &e))?;
        Ok(())
    }
}

/// Reads every page of the index's tables and the registry's (SQLite's `quick_check`), so a run
/// never reports success on a store that cannot be read: a run that changed nothing touches
/// only the pages it compares. About 0.1 s per 100 MB of index on one core; the tables are
/// shared out among up to two connections (the chunks table, about half of an index, goes to
/// one), because the check runs alone at the end of a run, with the other core idle.
fn check_pages(pool: &super::conn::Pool, t: &Tables) -> Result<(), StoreError> {
    let tables: Vec<String> = t.all_names().into_iter().chain(["indexes".to_string(), "runs".to_string()]).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let checkers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(2);
    let check = || -> Result<(), StoreError> {
        let conn = pool.get()?;
        while let Some(table) = tables.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
            check_table(&conn, table)?;
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..checkers).map(|_| scope.spawn(check)).collect();
        handles.into_iter().try_for_each(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// [`check_pages`] for one table, if the store has it.
fn check_table(conn: &Connection, table: &str) -> Result<(), StoreError> {
    let err = |e: rusqlite::Error| query_error(None, "checking the index's pages", &e);
    let exists = conn
        .query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [table], |_| Ok(()))
        .optional()
        .map_err(err)?
        .is_some();
    if !exists {
        return Ok(());
    }
    let problem: String =
        conn.query_row("SELECT quick_check FROM pragma_quick_check(?1) LIMIT 1", [table], |r| r.get(0)).map_err(err)?;
    if problem != "ok" {
        return Err(StoreError::Damaged {
            file: conn.path().unwrap_or(super::FILE_NAME).to_string(),
            detail: format!("{table}: {problem}"),
        });
    }
    Ok(())
}

/// A held write lock: an exclusive OS lock on `locks/<index>.lock`, which the operating
/// system releases when the file is closed or the process dies.
pub(crate) struct FileLock {
    _file: File,
}

/// Takes the lock file at `path` of index `name`, or says who holds it.
fn try_lock(dir: &Path, path: &Path, name: &str) -> Result<FileLock, StoreError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| open_error(dir, &format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(FileLock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Busy(name.to_string())),
        Err(std::fs::TryLockError::Error(e)) => Err(open_error(dir, &format!("cannot lock {}: {e}", path.display()))),
    }
}

/// Every index's write lock in the store directory `dir`, for replacing the whole file.
pub(crate) fn lock_all(dir: &Path) -> Result<Vec<FileLock>, StoreError> {
    let locks = dir.join("locks");
    let entries =
        std::fs::read_dir(&locks).map_err(|e| open_error(dir, &format!("cannot list {}: {e}", locks.display())))?;
    let mut held = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".lock")) {
            held.push(try_lock(dir, &path, name)?);
        }
    }
    Ok(held)
}

impl RecordWriter for SqliteWriter {
    fn set_model(&self, model: &str, dimension: u32) -> Result<(), StoreError> {
        self.index
            .store
            .pool
            .get()?
            .execute(
                "UPDATE indexes SET model = ?2, dimension = ?3, updated_at = ?4 WHERE name = ?1",
                (&self.index.name, model, dimension, now_ns()),
            )
            .map_err(|e| query_error(None, "recording the embedding model", &e))?;
        Ok(())
    }

    fn set_context(&self, context_tokens: u32) -> Result<(), StoreError> {
        self.index
            .store
            .pool
            .get()?
            .execute("UPDATE indexes SET context_tokens = ?2 WHERE name = ?1", (&self.index.name, context_tokens))
            .map_err(|e| query_error(None, "recording the model context", &e))?;
        Ok(())
    }

    fn start_run(&self, kind: RunKind) -> Result<i64, StoreError> {
        let name = self.index.name.as_str();
        let mut conn = self.index.store.pool.get()?;
        let err = |e| query_error(None, "recording the run", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        // Only the writer gets here, so any run still running belongs to a dead process.
        tx.execute("UPDATE runs SET status = 'interrupted' WHERE index_name = ?1 AND status = 'running'", [name])
            .map_err(err)?;
        tx.execute(
            "DELETE FROM runs WHERE index_name = ?1 AND kind = 'live' AND id NOT IN
                 (SELECT id FROM runs WHERE index_name = ?1 AND kind = 'live' ORDER BY id DESC LIMIT ?2)",
            (name, crate::store::KEPT_LIVE_RUNS),
        )
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

    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError> {
        let err = |e| query_error(None, "recording the end of the run", &e);
        let summary = encode_summary(run.summary)?.to_string();
        let now = now_ns();
        let mut conn = self.index.store.pool.get()?;
        // A live run (a watcher's batch) wrote a few files: checking every page of the index
        // each time would cost more than the batch; the next full or incremental run checks.
        let kind: Option<String> = conn
            .query_row("SELECT kind FROM runs WHERE id = ?1", [run.run_id], |r| r.get(0))
            .optional()
            .map_err(err)?;
        if run.status == crate::store::RunStatus::Completed && kind.as_deref() != Some(RunKind::Live.as_str()) {
            check_pages(&self.index.store.pool, &self.index.t)?;
        }
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
            (&self.index.name, run.git_commit, run.git_branch, now),
        )
        .map_err(err)?;
        tx.execute(
            &format!(
                "UPDATE {} SET updated_at = ?3,
                        git_commit = COALESCE(?1, git_commit),
                        git_branch = CASE WHEN ?1 IS NULL THEN git_branch ELSE ?2 END
                 WHERE current = 1",
                self.index.t.snapshots
            ),
            (run.git_commit, run.git_branch, now),
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }

    fn drop_index(&self) -> Result<bool, StoreError> {
        let err = |e| query_error(None, "deleting the index", &e);
        let mut conn = self.index.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let existed = tx.execute("DELETE FROM indexes WHERE name = ?1", [&self.index.name]).map_err(err)?;
        tx.execute_batch(&self.index.t.drop_sql()).map_err(err)?;
        tx.commit().map_err(err)?;
        reclaim_free_pages(&conn);
        Ok(existed > 0)
    }
}

/// Gives the pages of a dropped index back to the disk. SQLite keeps freed pages in the file
/// (a cleared 4 GB index left a 4 GB file), and only `VACUUM` returns them; it rewrites what
/// is left, so it runs only when free pages are at least a quarter of the file. It is best
/// effort: the index is already gone, and a store busy with another process's write keeps its
/// size until the next drop.
fn reclaim_free_pages(conn: &rusqlite::Connection) {
    let pages = conn.query_row(
        "SELECT freelist_count, page_count FROM pragma_freelist_count(), pragma_page_count()",
        [],
        |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
    );
    let Ok((free, total)) = pages else { return };
    if free == 0 || free * 4 < total {
        return;
    }
    if let Err(e) = conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);") {
        tracing::warn!(error = %e, free_pages = free, "the embedded store keeps the dropped index's space until the next drop");
    }
}
