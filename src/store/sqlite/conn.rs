//! Connections to the store file: a small pool, each connection set up once (WAL, busy
//! timeout, foreign keys, no memory-mapped reads) with the filter functions search needs.
//!
//! A `rusqlite::Connection` is not `Sync`, and search runs its stages on two threads, so
//! every call takes a connection of its own; idle ones are kept for the next call (opening
//! one costs a file open and a few pragmas).

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, OpenFlags};

use super::open_error;
use crate::store::StoreError;
use crate::store::glob::{NameGlob, PathGlob};

/// Idle connections kept.
const MAX_IDLE: usize = 4;

/// Prepared statements kept per connection: every query shape of a search, and more.
const STATEMENT_CACHE: usize = 64;

/// A pool of connections to one file.
pub(crate) struct Pool {
    file: PathBuf,
    busy: Duration,
    idle: Mutex<Vec<Connection>>,
}

/// A connection borrowed from the pool; it goes back when dropped.
pub(crate) struct Conn<'a> {
    pool: &'a Pool,
    conn: Option<Connection>,
}

impl Deref for Conn<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn.as_ref().unwrap_or_else(|| unreachable!("a pooled connection is present until dropped"))
    }
}

impl DerefMut for Conn<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn.as_mut().unwrap_or_else(|| unreachable!("a pooled connection is present until dropped"))
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            // A connection left inside a transaction (a panic mid-write) is not reused.
            if conn.is_autocommit() {
                let mut idle = self.pool.idle.lock().unwrap_or_else(PoisonError::into_inner);
                if idle.len() < MAX_IDLE {
                    idle.push(conn);
                }
            }
        }
    }
}

impl Pool {
    /// A pool for `file`, whose writers wait up to `busy` for each other.
    pub fn new(file: PathBuf, busy: Duration) -> Pool {
        Pool { file, busy, idle: Mutex::new(Vec::new()) }
    }

    /// A connection, idle or new.
    pub fn get(&self) -> Result<Conn<'_>, StoreError> {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => self.open()?,
        };
        Ok(Conn { pool: self, conn: Some(conn) })
    }

    fn open(&self) -> Result<Connection, StoreError> {
        let dir = self.file.parent().unwrap_or(&self.file);
        let fail = |e: rusqlite::Error| open_error(dir, &e.to_string());
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.file, flags).map_err(fail)?;
        conn.busy_timeout(self.busy).map_err(fail)?;
        // WAL: readers never block the writer and the writer never blocks readers. NORMAL
        // sync in WAL mode loses nothing committed when a process dies, only on power loss.
        // No memory-mapped I/O: each connection maps the file on its own and every mapped
        // page counts in the process's resident memory once per connection (a search uses
        // three at a time), so 256 MB maps made the search benchmark's process peak at 548 MB
        // of file pages for no measured speed-up over reads into the page cache (73 MB).
        // Checkpoints every 64 MB of WAL (16,384 pages) instead of 4 MB: an index run commits
        // the same hot pages (term statistics, indexes) again and again, and each checkpoint
        // copied them into the file and synced it, on the one writer thread; the last
        // connection to close checkpoints what is left and deletes the WAL.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(fail)?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA temp_store = MEMORY;
             PRAGMA cache_size = -16000;
             PRAGMA mmap_size = 0;
             PRAGMA wal_autocheckpoint = 16384;",
        )
        .map_err(fail)?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        register_functions(&conn).map_err(fail)?;
        Ok(conn)
    }
}

/// The filter functions: `cs_path_glob(glob, path)` and `cs_name_glob(glob, names)`, the glob
/// policy of `store::glob` evaluated in place, compiled once per statement.
fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("cs_path_glob", 2, flags, |ctx| {
        let glob =
            ctx.get_or_create_aux(0, |v| PathGlob::new(v.as_str().unwrap_or_default()).map_err(|e| e.to_string()))?;
        let path: String = ctx.get(1)?;
        Ok(glob.is_match(&path))
    })?;
    // `names` holds the own names of a chunk's definitions, one per line.
    conn.create_scalar_function("cs_name_glob", 2, flags, |ctx| {
        let glob =
            ctx.get_or_create_aux(0, |v| NameGlob::new(v.as_str().unwrap_or_default()).map_err(|e| e.to_string()))?;
        let names: String = ctx.get(1)?;
        Ok(names.lines().any(|name| glob.is_match(name)))
    })?;
    Ok(())
}
