//! The store itself (`impl Store`): the index registry (`cocosearch_indexes`), per-index
//! tables, the query cache, opening an index's handles with its advisory write lock, and what
//! the writer records of the index and its runs.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use pgvector::Vector;
use postgres::Row;

use super::members::now_ns;
use super::tables::{INDEX_SCHEMA_VERSION, Tables};
use super::{PgIndex, PgStore, PgWriter, migrate};
use crate::store::stored_run::encode_summary;
use crate::store::{
    At, Backend, Health, IndexMeta, IndexReader, IndexWriter, NewIndex, RecordWriter, RunEnd, RunKind, Store,
    StoreError, TaskStore, VectorSupport,
};

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
pub(crate) struct PgIndexLock {
    conn: Mutex<postgres::Client>,
    key: i64,
}

impl Drop for PgIndexLock {
    fn drop(&mut self) {
        let conn = self.conn.get_mut().unwrap_or_else(PoisonError::into_inner);
        let _ = conn.execute("SELECT pg_advisory_unlock($1)", &[&self.key]);
    }
}

impl Store for PgStore {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    fn location(&self) -> String {
        self.url.clone()
    }

    fn health(&self) -> Result<Health, StoreError> {
        let mut conn = self.conn()?;
        let context = "checking the server";
        let version: String = conn
            .query_one("SELECT current_setting('server_version')", &[])
            .map_err(|e| self.query_error(context, &e))?
            .get(0);
        let row = conn
            .query_opt(
                "SELECT default_version, installed_version,
                        (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
                        OR (COALESCE((SELECT trusted FROM pg_available_extension_versions v
                                      WHERE v.name = 'vector' AND v.version = e.default_version), false)
                            AND has_database_privilege(current_database(), 'CREATE'))
                 FROM pg_available_extensions e WHERE name = 'vector'",
                &[],
            )
            .map_err(|e| self.query_error(context, &e))?;
        let vectors = match row {
            None => VectorSupport::Unavailable {
                problem: "pgvector is not installed on this server".into(),
                fix: "use the pgvector/pgvector image (`docker compose up -d`) or install pgvector".into(),
            },
            Some(row) => match row.get::<_, Option<String>>(1) {
                Some(installed) => VectorSupport::Ready(format!("pgvector {installed}")),
                None if row.get::<_, Option<bool>>(2).unwrap_or(false) => {
                    VectorSupport::OnFirstIndex(format!("pgvector {} available", row.get::<_, String>(0)))
                }
                None => VectorSupport::Unavailable {
                    problem: format!(
                        "pgvector {} is available but this user may not create it",
                        row.get::<_, String>(0)
                    ),
                    fix: "ask an administrator to run `CREATE EXTENSION vector;` in the database".into(),
                },
            },
        };
        let version = version.split_whitespace().next().unwrap_or_default();
        Ok(Health { engine: format!("PostgreSQL {version}"), vectors })
    }

    fn migrate(&self) -> Result<(), StoreError> {
        migrate::run(self)
    }

    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError> {
        let mut conn = self.conn()?;
        let row = conn
            .query_opt_prepared(&format!("SELECT {META_COLUMNS} FROM cocosearch_indexes WHERE name = $1"), &[&name])
            .map_err(|e| self.query_error("reading the index registry", &e))?;
        Ok(row.as_ref().map(meta))
    }

    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError> {
        let mut conn = self.conn()?;
        let rows = conn
            .query(&format!("SELECT {META_COLUMNS} FROM cocosearch_indexes ORDER BY name"), &[])
            .map_err(|e| self.query_error("listing indexes", &e))?;
        Ok(rows.iter().map(meta).collect())
    }

    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
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
        self.get_index(&new.name)?.ok_or_else(|| StoreError::IndexNotFound(new.name.clone()))
    }

    fn reader_at(&self, name: &str, at: At) -> Result<Box<dyn IndexReader>, StoreError> {
        Ok(Box::new(PgIndex::open(self, name, at)?))
    }

    fn writer(&self, name: &str) -> Result<Box<dyn IndexWriter>, StoreError> {
        let index = PgIndex::open(self, name, At::Current)?;
        let mut conn = self.config.connect(postgres::NoTls).map_err(|e| self.classify(&e))?;
        let key = lock_key(name);
        let got: bool = conn
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
            .map_err(|e| self.query_error("locking the index", &e))?
            .get(0);
        if !got {
            return Err(StoreError::Busy(name.to_string()));
        }
        Ok(Box::new(PgWriter { index, _lock: PgIndexLock { conn: Mutex::new(conn), key } }))
    }

    fn tasks(&self, project: &str) -> Result<Box<dyn TaskStore>, StoreError> {
        crate::config::validate_index_name(project).map_err(StoreError::InvalidName)?;
        Ok(Box::new(super::tasks::PgTasks::new(self, project)))
    }

    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError> {
        let hash = blake3::hash(query.as_bytes());
        let mut conn = self.conn()?;
        let row = conn
            .query_opt_prepared(
                "SELECT embedding FROM cocosearch_query_cache WHERE model = $1 AND query_hash = $2",
                &[&model, &hash.as_bytes().as_slice()],
            )
            .map_err(|e| self.query_error("reading the query cache", &e))?;
        Ok(row.map(|r| r.get::<_, Vector>(0).to_vec()))
    }

    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError> {
        let hash = blake3::hash(query.as_bytes());
        let mut conn = self.conn()?;
        conn.execute(
            "INSERT INTO cocosearch_query_cache (model, query_hash, embedding) VALUES ($1, $2, $3)
             ON CONFLICT (model, query_hash) DO UPDATE SET embedding = EXCLUDED.embedding, created_at = now()",
            &[&model, &hash.as_bytes().as_slice(), &Vector::from(vector.to_vec())],
        )
        .map_err(|e| self.query_error("writing the query cache", &e))?;
        Ok(())
    }
}

impl RecordWriter for PgWriter {
    fn set_model(&self, model: &str, dimension: u32) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let tables = &self.index.t;
        let context = "recording the embedding model";
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.index.store.query_error(context, &e))?;
        let dim = i32::try_from(dimension).unwrap_or(i32::MAX);
        tx.execute(
            "UPDATE cocosearch_indexes SET model = $2, dimension = $3, updated_at = now() WHERE name = $1",
            &[&name, &model, &dim],
        )
        .map_err(|e| self.index.store.query_error(context, &e))?;
        tx.batch_execute(&tables.vector_sql(dimension)).map_err(|e| self.index.store.query_error(context, &e))?;
        tx.commit().map_err(|e| self.index.store.query_error(context, &e))
    }

    fn set_context(&self, context_tokens: u32) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let mut conn = self.index.store.conn()?;
        let tokens = i32::try_from(context_tokens).unwrap_or(i32::MAX);
        conn.execute("UPDATE cocosearch_indexes SET context_tokens = $2 WHERE name = $1", &[&name, &tokens])
            .map_err(|e| self.index.store.query_error("recording the model context", &e))?;
        Ok(())
    }

    fn start_run(&self, kind: RunKind) -> Result<i64, StoreError> {
        let name = self.index.name.as_str();
        let context = "recording the run";
        let mut conn = self.index.store.conn()?;
        // Only the lock holder gets here, so any run still `running` belongs to a dead process.
        conn.execute(
            "UPDATE cocosearch_runs SET status = 'interrupted' WHERE index_name = $1 AND status = 'running'",
            &[&name],
        )
        .map_err(|e| self.index.store.query_error(context, &e))?;
        conn.execute(
            "DELETE FROM cocosearch_runs WHERE index_name = $1 AND kind = 'live' AND id NOT IN
                 (SELECT id FROM cocosearch_runs WHERE index_name = $1 AND kind = 'live' ORDER BY id DESC LIMIT $2)",
            &[&name, &crate::store::KEPT_LIVE_RUNS],
        )
        .map_err(|e| self.index.store.query_error(context, &e))?;
        Ok(conn
            .query_one(
                "INSERT INTO cocosearch_runs (index_name, kind, status) VALUES ($1, $2, 'running') RETURNING id",
                &[&name, &kind.as_str()],
            )
            .map_err(|e| self.index.store.query_error(context, &e))?
            .get(0))
    }

    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let context = "recording the end of the run";
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.index.store.query_error(context, &e))?;
        tx.execute(
            "UPDATE cocosearch_runs SET status = $2, summary = $3, finished_at = now() WHERE id = $1",
            &[&run.run_id, &run.status.as_str(), &encode_summary(run.summary)?],
        )
        .map_err(|e| self.index.store.query_error(context, &e))?;
        tx.execute(
            "UPDATE cocosearch_indexes SET updated_at = now(),
                git_commit = COALESCE($2, git_commit), git_branch = CASE WHEN $2 IS NULL THEN git_branch ELSE $3 END
         WHERE name = $1",
            &[&name, &run.git_commit, &run.git_branch],
        )
        .map_err(|e| self.index.store.query_error(context, &e))?;
        tx.execute(
            &format!(
                "UPDATE {} SET updated_at = $3, git_commit = COALESCE($1, git_commit),
                        git_branch = CASE WHEN $1::text IS NULL THEN git_branch ELSE $2 END
                 WHERE current",
                self.index.t.snapshots
            ),
            &[&run.git_commit, &run.git_branch, &now_ns()],
        )
        .map_err(|e| self.index.store.index_error(name, context, &e))?;
        tx.commit().map_err(|e| self.index.store.query_error(context, &e))
    }

    fn drop_index(&self) -> Result<bool, StoreError> {
        let name = self.index.name.as_str();
        let tables = &self.index.t;
        let context = "deleting the index";
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.index.store.query_error(context, &e))?;
        let existed = tx
            .execute("DELETE FROM cocosearch_indexes WHERE name = $1", &[&name])
            .map_err(|e| self.index.store.query_error(context, &e))?;
        tx.batch_execute(&tables.drop_sql()).map_err(|e| self.index.store.query_error(context, &e))?;
        tx.commit().map_err(|e| self.index.store.query_error(context, &e))?;
        Ok(existed > 0)
    }
}
