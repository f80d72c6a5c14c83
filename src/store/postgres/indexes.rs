//! The index registry (`cocosearch_indexes`), per-index tables, write locks and runs.

use std::path::PathBuf;

use postgres::Row;

use super::PgStore;
use super::tables::{INDEX_SCHEMA_VERSION, Tables};
use crate::store::{IndexLock, IndexMeta, NewIndex, RunEnd, RunKind, StoreError};

const META_COLUMNS: &str =
    "name, root_path, provider, model, dimension, created_at, updated_at, git_commit, git_branch, context_tokens";

fn meta(row: &Row) -> IndexMeta {
    IndexMeta {
        name: row.get(0),
        root: PathBuf::from(row.get::<_, String>(1)),
        provider: row.get(2),
        model: row.get(3),
        dimension: row.get::<_, Option<i32>>(4).and_then(|d| u32::try_from(d).ok()),
        created_at: row.get(5),
        updated_at: row.get(6),
        git_commit: row.get(7),
        git_branch: row.get(8),
        context_tokens: row.get::<_, Option<i32>>(9).and_then(|d| u32::try_from(d).ok()),
    }
}

/// The advisory-lock key of an index: the first 8 bytes of a hash of its name.
fn lock_key(name: &str) -> i64 {
    let hash = blake3::hash(format!("cocosearch-index:{name}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&hash.as_bytes()[..8]);
    i64::from_le_bytes(bytes)
}

/// A held advisory lock on a connection of its own, outside the pool: the lock must not take
/// a pooled connection from the work it protects (with `database.poolSize: 1` it would take
/// the only one), and closing the connection releases it whatever happens.
struct PgIndexLock {
    conn: postgres::Client,
    key: i64,
    name: String,
}

impl IndexLock for PgIndexLock {
    fn index(&self) -> &str {
        &self.name
    }
}

impl Drop for PgIndexLock {
    fn drop(&mut self) {
        let _ = self.conn.execute("SELECT pg_advisory_unlock($1)", &[&self.key]);
    }
}

impl PgStore {
    pub(super) fn get_index_impl(&self, name: &str) -> Result<Option<IndexMeta>, StoreError> {
        let mut conn = self.conn()?;
        let row = conn
            .query_opt_prepared(&format!("SELECT {META_COLUMNS} FROM cocosearch_indexes WHERE name = $1"), &[&name])
            .map_err(|e| self.query_error("reading the index registry", &e))?;
        Ok(row.as_ref().map(meta))
    }

    pub(super) fn list_indexes_impl(&self) -> Result<Vec<IndexMeta>, StoreError> {
        let mut conn = self.conn()?;
        let rows = conn
            .query(&format!("SELECT {META_COLUMNS} FROM cocosearch_indexes ORDER BY name"), &[])
            .map_err(|e| self.query_error("listing indexes", &e))?;
        Ok(rows.iter().map(meta).collect())
    }

    pub(super) fn create_index_impl(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
        let tables = Tables::new(&new.name)?;
        let context = "creating the index";
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.query_error(context, &e))?;
        tx.batch_execute(&tables.create_sql()).map_err(|e| self.query_error(context, &e))?;
        let dimension = new.dimension.map(|d| i32::try_from(d).unwrap_or(i32::MAX));
        let context_tokens = new.context_tokens.map(|d| i32::try_from(d).unwrap_or(i32::MAX));
        tx.execute(
            "INSERT INTO cocosearch_indexes (name, root_path, provider, model, dimension, context_tokens, schema_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (name) DO NOTHING",
            &[
                &new.name,
                &new.root.to_string_lossy().as_ref(),
                &new.provider,
                &new.model,
                &dimension,
                &context_tokens,
                &INDEX_SCHEMA_VERSION,
            ],
        )
        .map_err(|e| self.query_error(context, &e))?;
        if let Some(dimension) = new.dimension {
            tx.batch_execute(&tables.vector_sql(dimension)).map_err(|e| self.query_error(context, &e))?;
        }
        tx.commit().map_err(|e| self.query_error(context, &e))?;
        self.get_index_impl(&new.name)?.ok_or_else(|| StoreError::IndexNotFound(new.name.clone()))
    }

    pub(super) fn drop_index_impl(&self, name: &str) -> Result<bool, StoreError> {
        let tables = Tables::new(name)?;
        let context = "deleting the index";
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.query_error(context, &e))?;
        let existed = tx
            .execute("DELETE FROM cocosearch_indexes WHERE name = $1", &[&name])
            .map_err(|e| self.query_error(context, &e))?;
        tx.batch_execute(&tables.drop_sql()).map_err(|e| self.query_error(context, &e))?;
        tx.commit().map_err(|e| self.query_error(context, &e))?;
        Ok(existed > 0)
    }

    pub(super) fn set_index_model_impl(&self, name: &str, model: &str, dimension: u32) -> Result<(), StoreError> {
        let tables = Tables::new(name)?;
        let context = "recording the embedding model";
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.query_error(context, &e))?;
        let dim = i32::try_from(dimension).unwrap_or(i32::MAX);
        tx.execute(
            "UPDATE cocosearch_indexes SET model = $2, dimension = $3, updated_at = now() WHERE name = $1",
            &[&name, &model, &dim],
        )
        .map_err(|e| self.query_error(context, &e))?;
        tx.batch_execute(&tables.vector_sql(dimension)).map_err(|e| self.query_error(context, &e))?;
        tx.commit().map_err(|e| self.query_error(context, &e))
    }

    pub(super) fn set_index_context_impl(&self, name: &str, context_tokens: u32) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let tokens = i32::try_from(context_tokens).unwrap_or(i32::MAX);
        conn.execute("UPDATE cocosearch_indexes SET context_tokens = $2 WHERE name = $1", &[&name, &tokens])
            .map_err(|e| self.query_error("recording the model context", &e))?;
        Ok(())
    }

    pub(super) fn lock_index_impl(&self, name: &str) -> Result<Box<dyn IndexLock>, StoreError> {
        Tables::new(name)?;
        let mut conn = self.config.connect(postgres::NoTls).map_err(|e| self.classify(&e))?;
        let key = lock_key(name);
        let got: bool = conn
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
            .map_err(|e| self.query_error("locking the index", &e))?
            .get(0);
        if !got {
            return Err(StoreError::Busy(name.to_string()));
        }
        Ok(Box::new(PgIndexLock { conn, key, name: name.to_string() }))
    }

    pub(super) fn start_run_impl(&self, name: &str, kind: RunKind) -> Result<i64, StoreError> {
        let context = "recording the run";
        let mut conn = self.conn()?;
        // Only the lock holder gets here, so any run still `running` belongs to a dead process.
        conn.execute(
            "UPDATE cocosearch_runs SET status = 'interrupted' WHERE index_name = $1 AND status = 'running'",
            &[&name],
        )
        .map_err(|e| self.query_error(context, &e))?;
        Ok(conn
            .query_one(
                "INSERT INTO cocosearch_runs (index_name, kind, status) VALUES ($1, $2, 'running') RETURNING id",
                &[&name, &kind.as_str()],
            )
            .map_err(|e| self.query_error(context, &e))?
            .get(0))
    }

    pub(super) fn finish_run_impl(&self, run: &RunEnd<'_>) -> Result<(), StoreError> {
        let context = "recording the end of the run";
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.query_error(context, &e))?;
        tx.execute(
            "UPDATE cocosearch_runs SET status = $2, summary = $3, finished_at = now() WHERE id = $1",
            &[&run.run_id, &run.status.as_str(), &serde_json::to_value(run.summary).unwrap_or_default()],
        )
        .map_err(|e| self.query_error(context, &e))?;
        tx.execute(
            "UPDATE cocosearch_indexes SET updated_at = now(),
                    git_commit = COALESCE($2, git_commit), git_branch = CASE WHEN $2 IS NULL THEN git_branch ELSE $3 END
             WHERE name = $1",
            &[&run.index, &run.git_commit, &run.git_branch],
        )
        .map_err(|e| self.query_error(context, &e))?;
        tx.commit().map_err(|e| self.query_error(context, &e))
    }
}
