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
mod members;
mod snapshots;
mod stats;
mod tables;
mod tasks;
mod texts;
mod upgrade_texts;
mod upgrades;
mod write;

use std::time::Duration;

use postgres::config::SslMode;
use postgres::{Config as PgConfig, NoTls};
use r2d2::{Pool, PooledConnection};

use std::sync::{Arc, OnceLock};

use super::{At, Backend, IndexReader, IndexWriter, StoreError};
use crate::config::{DatabaseSettings, redact_text, redact_url};
use indexes::PgIndexLock;
use tables::Tables;

/// What to do when the server cannot be reached.
const UNREACHABLE_FIX: &str = "start it (`docker compose up -d`), point database.url (COCOSEARCH_DATABASE_URL) at a running server, or use the embedded store (database.backend: sqlite)";

use session::Manager;
pub(crate) type Conn = PooledConnection<Manager>;

/// A PostgreSQL-backed [`Store`](super::Store). Cloning it is cheap (the pool is shared): the
/// handles of an index hold a clone.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool<Manager>,
    config: PgConfig,
    url: String,
    database: String,
    /// Whether pgvector supports iterative index scans (0.8+), learned on first vector search.
    iterative_scans: Arc<OnceLock<bool>>,
}

impl PgStore {
    /// Builds the pool and opens one connection, so a dead server or bad credentials are
    /// reported now, with the fix, rather than at first use. Does not migrate.
    pub fn connect(settings: &DatabaseSettings) -> Result<PgStore, StoreError> {
        let store = PgStore::connect_lazy(settings)?;
        drop(store.conn()?);
        Ok(store)
    }

    /// Fails unless the schema is this program's, changing nothing: a store opened to be read
    /// only (a team's shared index) is never upgraded by a reader.
    pub fn check_schema_current(&self) -> Result<(), StoreError> {
        migrate::check_current(self)
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
        Ok(PgStore { pool, config, url, database, iterative_scans: Arc::new(OnceLock::new()) })
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

/// One index of the PostgreSQL store, opened for reading (the [`IndexReader`]): the store, the
/// index's validated table names, and the snapshot its reads see.
pub(crate) struct PgIndex {
    store: PgStore,
    name: String,
    t: Tables,
    at: At,
}

impl PgIndex {
    fn open(store: &PgStore, name: &str, at: At) -> Result<PgIndex, StoreError> {
        Ok(PgIndex { store: store.clone(), name: name.to_string(), t: Tables::new(name)?, at })
    }
}

/// The writer of one index of the PostgreSQL store (the [`IndexWriter`]): the index and its
/// advisory lock, held on a connection of its own and released when the writer is dropped.
pub(crate) struct PgWriter {
    index: PgIndex,
    _lock: PgIndexLock,
}

impl IndexWriter for PgWriter {
    fn index(&self) -> &str {
        &self.index.name
    }

    fn reader(&self) -> &dyn IndexReader {
        &self.index
    }
}
