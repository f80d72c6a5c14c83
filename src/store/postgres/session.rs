//! Pooled connections that remember what they prepared and set.
//!
//! A search makes about ten small queries. Sent plainly, each one costs two round trips (parse
//! and describe, then bind and execute) plus the server's parse, and r2d2 adds one more round
//! trip per check-out to test the connection. On a few thousand chunks those round trips are
//! most of a search. So a [`Session`] keeps its prepared statements (one round trip per query
//! after the first), keeps the HNSW settings of its last vector search, and is tested on
//! check-out only after it sat idle for a while.
//!
//! Invariant: every connection runs with `plan_cache_mode = force_custom_plan`, so a prepared
//! statement is still planned for its actual parameters. A generic plan for `ORDER BY
//! embedding <=> $1 LIMIT $2` or a keyword match could pick a scan that is right for one
//! query and ruinous for the next.

use std::num::NonZeroUsize;
use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use lru::LruCache;
use postgres::types::ToSql;
use postgres::{Client, Config as PgConfig, Error, NoTls, Row, Statement};

/// Prepared statements kept per connection. Keyword queries differ by their number of terms
/// and filters, so a busy server sees a few dozen shapes per index.
const STATEMENTS: usize = 128;

/// A connection returned to the pool more recently than this is handed out again untested:
/// it was working a moment ago. One idle for longer is tested with an empty query first.
const TRUSTED_FOR: Duration = Duration::from_secs(5);

/// Opens [`Session`]s for r2d2.
pub(crate) struct Manager {
    config: PgConfig,
}

impl Manager {
    pub(crate) fn new(config: PgConfig) -> Manager {
        Manager { config }
    }
}

impl r2d2::ManageConnection for Manager {
    type Connection = Session;
    type Error = Error;

    fn connect(&self) -> Result<Session, Error> {
        let mut client = self.config.connect(NoTls)?;
        client.batch_execute("SET plan_cache_mode = force_custom_plan")?;
        Ok(Session {
            client,
            statements: LruCache::new(NonZeroUsize::new(STATEMENTS).unwrap_or(NonZeroUsize::MIN)),
            hnsw: None,
            returned: None,
        })
    }

    fn is_valid(&self, session: &mut Session) -> Result<(), Error> {
        match session.returned {
            Some(at) if at.elapsed() < TRUSTED_FOR => Ok(()),
            _ => session.client.simple_query("").map(|_| ()),
        }
    }

    fn has_broken(&self, session: &mut Session) -> bool {
        // Called as the connection goes back to the pool.
        session.returned = Some(Instant::now());
        session.client.is_closed()
    }
}

/// HNSW search settings of a connection (`hnsw.ef_search`, iterative scans).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct HnswSettings {
    pub ef_search: u32,
    pub iterative: bool,
}

/// A PostgreSQL connection with its prepared statements; derefs to the [`Client`].
pub(crate) struct Session {
    client: Client,
    statements: LruCache<String, Statement>,
    hnsw: Option<HnswSettings>,
    returned: Option<Instant>,
}

impl Session {
    /// Runs `sql` as a statement prepared once per connection.
    pub(crate) fn query_prepared(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        let statement = match self.statements.get(sql) {
            Some(statement) => statement.clone(),
            None => {
                let statement = self.client.prepare(sql)?;
                self.statements.put(sql.to_string(), statement.clone());
                statement
            }
        };
        self.client.query(&statement, params).inspect_err(|_| {
            // A table dropped and made again, or a migration, can invalidate the statement:
            // prepare it afresh next time.
            self.statements.pop(sql);
        })
    }

    /// [`Session::query_prepared`] for at most one row.
    pub(crate) fn query_opt_prepared(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, Error> {
        Ok(self.query_prepared(sql, params)?.into_iter().next())
    }

    /// Applies `wanted` for this connection's later HNSW scans, unless it already holds.
    pub(crate) fn use_hnsw(&mut self, wanted: HnswSettings) -> Result<(), Error> {
        if self.hnsw == Some(wanted) {
            return Ok(());
        }
        self.hnsw = None;
        let mut sql = format!("SET hnsw.ef_search = {};", wanted.ef_search);
        if wanted.iterative {
            // With filters, HNSW's first candidates may all be filtered out; the iterative
            // scan keeps walking the graph until enough rows pass (pgvector 0.8+).
            sql.push_str(" SET hnsw.iterative_scan = relaxed_order; SET hnsw.max_scan_tuples = 50000;");
        }
        self.client.batch_execute(&sql)?;
        self.hnsw = Some(wanted);
        Ok(())
    }
}

impl Deref for Session {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.client
    }
}
