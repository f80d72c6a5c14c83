//! The PostgreSQL + pgvector store: a connection pool and the SQL behind [`Store`].
//!
//! Connections come from an r2d2 pool over the synchronous `postgres` client. That client runs
//! its own small runtime, so async callers (the MCP server) must call the store from blocking
//! threads (`tokio::task::spawn_blocking`), never from a task.

mod graph;
mod indexes;
mod migrate;
mod read;
mod session;
mod stats;
mod tables;
mod write;

use std::time::Duration;

use postgres::config::SslMode;
use postgres::{Config as PgConfig, NoTls};
use r2d2::{Pool, PooledConnection};

use std::collections::{HashMap, HashSet};

use super::{
    Backend, DefQuery, FailingFile, FileRecord, FileState, Health, ImportQuery, ImportTarget, IndexCounts, IndexLock,
    IndexMeta, KeywordCandidate, KeywordQuery, NewIndex, PendingChunk, RefQuery, RunEnd, RunKind, RunRecord, Scored,
    SearchFilter, Store, StoreError, StoredChunk, StoredDef, StoredImport, StoredRef, TermStats, VectorAccuracy,
    VectorSupport,
};
use crate::chunk::SymbolKind;
use crate::config::{DatabaseSettings, redact_text, redact_url};

/// What to do when the server cannot be reached.
const UNREACHABLE_FIX: &str = "start it (`docker compose up -d`), point database.url (COCOSEARCH_DATABASE_URL) at a running server, or use the embedded store (database.backend: sqlite)";

use session::Manager;
pub(crate) type Conn = PooledConnection<Manager>;

/// A PostgreSQL-backed [`Store`].
pub struct PgStore {
    pool: Pool<Manager>,
    config: PgConfig,
    url: String,
    database: String,
    /// Whether pgvector supports iterative index scans (0.8+), learned on first vector search.
    iterative_scans: std::sync::OnceLock<bool>,
}

impl PgStore {
    /// Builds the pool and opens one connection, so a dead server or bad credentials are
    /// reported now, with the fix, rather than at first use. Does not migrate.
    pub fn connect(settings: &DatabaseSettings) -> Result<PgStore, StoreError> {
        let store = PgStore::connect_lazy(settings)?;
        drop(store.conn()?);
        Ok(store)
    }

    /// Builds the pool without connecting.
    pub fn connect_lazy(settings: &DatabaseSettings) -> Result<PgStore, StoreError> {
        let url = redact_url(&settings.url);
        // A URL the driver cannot use is a configuration error with a fix, not an outage.
        let mut config: PgConfig = settings.url.parse().map_err(|e: postgres::Error| {
            let mut reason = format!("{url} is not a valid PostgreSQL connection URL: {}", error_chain(&e));
            if reason.contains("sslmode") {
                reason.push_str(" (cocosearch accepts sslmode=disable or sslmode=prefer)");
            }
            StoreError::Config {
                backend: Backend::Postgres,
                key: "database.url",
                reason,
                fix: "fix COCOSEARCH_DATABASE_URL (database.url), e.g. postgresql://user@localhost:5432/cocosearch?sslmode=disable".into(),
            }
        })?;
        if config.get_ssl_mode() == SslMode::Require {
            // Connections are plain TCP (`NoTls`): a required TLS session can never be had.
            return Err(StoreError::Config {
                backend: Backend::Postgres,
                key: "database.url",
                reason: format!("{url} asks for TLS (sslmode=require), which cocosearch does not speak"),
                fix: "use sslmode=prefer or sslmode=disable, or reach the server through a TLS tunnel".into(),
            });
        }
        let timeout = Duration::from_secs(settings.connect_timeout);
        config
            .connect_timeout(timeout)
            .application_name("cocosearch")
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(30));
        let database = config.get_dbname().or(config.get_user()).unwrap_or("postgres").to_string();
        let pool = Pool::builder()
            .max_size(settings.pool_size)
            .min_idle(Some(0))
            .connection_timeout(timeout + Duration::from_secs(1))
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(Manager::new(config.clone()));
        Ok(PgStore { pool, config, url, database, iterative_scans: std::sync::OnceLock::new() })
    }

    /// A pooled connection; connection failures are classified into actionable errors.
    pub(crate) fn conn(&self) -> Result<Conn, StoreError> {
        if let Some(conn) = self.pool.try_get() {
            return Ok(conn);
        }
        if self.pool.state().connections == 0 {
            // Nothing pooled yet (or the server went away and took every connection with
            // it): open one directly, because r2d2 retries a refused connection until its
            // timeout and then reports the timeout, not the cause.
            self.config.connect(NoTls).map_err(|e| self.classify(&e))?;
        }
        self.pool.get().map_err(|e| self.classify_message(&e.to_string()))
    }

    /// Turns a driver error into an error that says what to do.
    pub(crate) fn classify(&self, e: &postgres::Error) -> StoreError {
        use postgres::error::SqlState;
        if let Some(db) = e.as_db_error() {
            let code = db.code();
            if *code == SqlState::INVALID_PASSWORD || *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
                return StoreError::Auth {
                    backend: Backend::Postgres,
                    location: self.url.clone(),
                    reason: db.message().to_string(),
                    fix: "check the user and password in database.url (COCOSEARCH_DATABASE_URL)".into(),
                };
            }
            if *code == SqlState::INVALID_CATALOG_NAME {
                let database = &self.database;
                return StoreError::Unreachable {
                    backend: Backend::Postgres,
                    location: self.url.clone(),
                    reason: format!("database {database:?} does not exist"),
                    fix: format!("create it (`createdb {database}`), or fix database.url (COCOSEARCH_DATABASE_URL)"),
                };
            }
        }
        self.classify_message(&error_chain(e))
    }

    fn classify_message(&self, message: &str) -> StoreError {
        let lower = message.to_lowercase();
        let reason = if lower.contains("refused") {
            "connection refused".to_string()
        } else if lower.contains("timed out") || lower.contains("timeout") {
            "timed out".to_string()
        } else if lower.contains("failed to lookup")
            || lower.contains("name or service not known")
            || lower.contains("no such host")
        {
            "unknown host".to_string()
        } else {
            redact_text(message)
        };
        StoreError::Unreachable {
            backend: Backend::Postgres,
            location: self.url.clone(),
            reason,
            fix: UNREACHABLE_FIX.into(),
        }
    }

    /// A [`StoreError::Query`] for a failure while doing `context`.
    pub(crate) fn query_error(&self, context: &str, e: &postgres::Error) -> StoreError {
        if e.is_closed() || e.as_db_error().is_none() && e.code().is_none() && e.to_string().contains("connection") {
            return self.classify(e);
        }
        StoreError::Query { context: context.to_string(), message: error_chain(e) }
    }
}

/// The error with its causes, e.g. `error connecting to server: Connection refused (os error 111)`,
/// with any URL in it redacted.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    redact_text(&text)
}

/// Whether PostgreSQL accepts the login of `settings.url` within `wait`: the server's address
/// if so, why not otherwise. `store::open` asks this of the default URL under `auto`.
pub(crate) fn accepts_login(settings: &DatabaseSettings, wait: Duration) -> Result<String, String> {
    use std::net::{TcpStream, ToSocketAddrs};
    let config: PgConfig = settings.url.parse().map_err(|e| format!("the database URL is invalid ({e})"))?;
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(host)) => host.clone(),
        _ => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let address = format!("{host}:{port}");
    // A machine without a server refuses at once; a TCP check first keeps that case cheap.
    let tcp_wait = wait.min(Duration::from_millis(300));
    let reachable = (host.as_str(), port)
        .to_socket_addrs()
        .is_ok_and(|mut addrs| addrs.any(|a| TcpStream::connect_timeout(&a, tcp_wait).is_ok()));
    if !reachable {
        return Err(format!("no server at {address}"));
    }
    let mut config = config;
    config.connect_timeout(wait);
    match config.connect(NoTls) {
        Ok(_) => Ok(address),
        Err(e) => {
            Err(format!("the server at {address} did not accept {} ({})", redact_url(&settings.url), error_chain(&e)))
        }
    }
}

/// The HNSW search breadth: a backend setting, not a search parameter. The search bench
/// measures its recall against exact search.
const EF_SEARCH: u32 = 100;

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
        self.get_index_impl(name)
    }

    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError> {
        self.list_indexes_impl()
    }

    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
        self.create_index_impl(new)
    }

    fn drop_index(&self, lock: &dyn IndexLock) -> Result<bool, StoreError> {
        self.drop_index_impl(lock.index())
    }

    fn set_index_model(&self, name: &str, model: &str, dimension: u32) -> Result<(), StoreError> {
        self.set_index_model_impl(name, model, dimension)
    }

    fn set_index_context(&self, name: &str, context_tokens: u32) -> Result<(), StoreError> {
        self.set_index_context_impl(name, context_tokens)
    }

    fn lock_index(&self, name: &str) -> Result<Box<dyn IndexLock>, StoreError> {
        self.lock_index_impl(name)
    }

    fn file_states(&self, name: &str, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError> {
        self.file_states_impl(name, paths)
    }

    fn embedded_hashes(&self, name: &str) -> Result<HashSet<[u8; 16]>, StoreError> {
        self.embedded_hashes_impl(name)
    }

    fn replace_files(&self, name: &str, files: &[FileRecord]) -> Result<(), StoreError> {
        self.replace_files_impl(name, files)
    }

    fn touch_files(&self, name: &str, files: &[(String, u64, i64)]) -> Result<(), StoreError> {
        self.touch_files_impl(name, files)
    }

    fn remove_files(&self, name: &str, paths: &[String]) -> Result<u64, StoreError> {
        self.remove_files_impl(name, paths)
    }

    fn pending_chunks(&self, name: &str, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError> {
        self.pending_chunks_impl(name, after_id, limit)
    }

    fn count_pending(&self, name: &str) -> Result<u64, StoreError> {
        self.count_pending_impl(name)
    }

    fn set_embeddings(&self, name: &str, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError> {
        self.set_embeddings_impl(name, vectors)
    }

    fn start_run(&self, name: &str, kind: RunKind) -> Result<i64, StoreError> {
        self.start_run_impl(name, kind)
    }

    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError> {
        self.finish_run_impl(run)
    }

    fn optimize(&self, _name: &str) -> Result<(), StoreError> {
        // PostgreSQL maintains its HNSW index and statistics itself.
        Ok(())
    }

    fn vector_search(
        &self,
        name: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError> {
        let ef_search = match accuracy {
            VectorAccuracy::Usual => Some(EF_SEARCH),
            VectorAccuracy::Exact => None,
        };
        self.vector_search_impl(name, query, filter, limit, ef_search)
    }

    fn keyword_candidates(
        &self,
        name: &str,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError> {
        self.keyword_candidates_impl(name, query, filter)
    }

    fn symbol_search(
        &self,
        name: &str,
        names: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<Scored>, StoreError> {
        self.symbol_search_impl(name, names, filter, limit)
    }

    fn term_stats(&self, name: &str, terms: &[String]) -> Result<TermStats, StoreError> {
        self.term_stats_impl(name, terms)
    }

    fn chunks(&self, name: &str, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError> {
        self.chunks_impl(name, ids)
    }

    fn file_chunks(&self, name: &str, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError> {
        self.file_chunks_impl(name, paths)
    }

    fn symbol_spans(
        &self,
        name: &str,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError> {
        self.symbol_spans_impl(name, wanted, kinds)
    }

    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError> {
        self.cached_query_vector_impl(model, query)
    }

    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError> {
        self.cache_query_vector_impl(model, query, vector)
    }

    fn index_counts(&self, name: &str) -> Result<IndexCounts, StoreError> {
        self.index_counts_impl(name)
    }

    fn failing_files(&self, name: &str, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
        self.failing_files_impl(name, limit)
    }

    fn runs(&self, name: &str, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
        self.runs_impl(name, limit)
    }

    fn definitions(&self, name: &str, query: &DefQuery) -> Result<Vec<StoredDef>, StoreError> {
        self.definitions_impl(name, query)
    }

    fn definition_names(&self, name: &str) -> Result<Vec<String>, StoreError> {
        self.definition_names_impl(name)
    }

    fn references(&self, name: &str, query: &RefQuery) -> Result<Vec<StoredRef>, StoreError> {
        self.references_impl(name, query)
    }

    fn imports(&self, name: &str, query: &ImportQuery) -> Result<Vec<StoredImport>, StoreError> {
        self.imports_impl(name, query)
    }

    fn set_import_targets(&self, name: &str, targets: &[ImportTarget]) -> Result<(), StoreError> {
        self.set_import_targets_impl(name, targets)
    }
}
