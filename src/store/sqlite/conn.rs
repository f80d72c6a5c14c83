//! Connections to the store file: a small pool, each connection set up once (16 KB pages for
//! a new file, WAL, busy timeout, foreign keys, no memory-mapped reads) with the filter
//! functions search needs.
//!
//! A `rusqlite::Connection` is not `Sync`, and search runs its stages on two threads, so
//! every call takes a connection of its own; idle ones are kept for the next call (opening
//! one costs a file open and a few pragmas).

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, OpenFlags};

use super::{damaged, open_error};
use crate::store::StoreError;
use crate::store::glob::{NameGlob, PathGlob};

/// Idle connections kept.
const MAX_IDLE: usize = 4;

/// Prepared statements kept per connection: every query shape of a search, and more.
const STATEMENT_CACHE: usize = 64;

/// The page size of a new store file, in bytes.
const PAGE_SIZE: u32 = 16 * 1024;

/// The WAL grows to about this many bytes between automatic checkpoints.
const CHECKPOINT_BYTES: i64 = 64 * 1024 * 1024;

thread_local! {
    /// The file of the connection this thread took last: a connection is used on the thread
    /// that took it, so an error of SQLite (which does not say which file) can name it.
    static LAST_FILE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// The store file this thread's last connection belongs to.
pub(crate) fn last_file() -> Option<PathBuf> {
    LAST_FILE.with(|f| f.borrow().clone())
}

fn remember(file: &Path) {
    LAST_FILE.with(|f| {
        let mut f = f.borrow_mut();
        if f.as_deref() != Some(file) {
            *f = Some(file.to_path_buf());
        }
    });
}

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
        remember(&self.file);
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => self.open()?,
        };
        Ok(Conn { pool: self, conn: Some(conn) })
    }

    /// A new connection, set up. Processes opening a new store file at once race to switch it
    /// to WAL: each reads it under a shared lock, then asks for the exclusive one, and SQLite
    /// answers a connection that holds a shared lock while another waits for the exclusive
    /// "database is locked" at once, without the busy timeout (it would deadlock). Seen once in
    /// CI (four threads opening one new store on a loaded machine); such a connection is
    /// dropped and opened again until `busy` has passed.
    fn open(&self) -> Result<Connection, StoreError> {
        let dir = self.file.parent().unwrap_or(&self.file);
        let started = std::time::Instant::now();
        loop {
            match self.set_up() {
                Err(e) if is_busy(&e) && started.elapsed() < self.busy => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                result => {
                    return result
                        .map_err(|e| damaged(&e, Some(&self.file)).unwrap_or_else(|| open_error(dir, &e.to_string())));
                }
            }
        }
    }

    fn set_up(&self) -> rusqlite::Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.file, flags)?;
        conn.busy_timeout(self.busy)?;
        // The page size of a new file (an existing one keeps its own): 16 KB instead of 4 KB.
        // A chunk row (its text, keyword text and symbol details, 1.8 KB on average and
        // often more) then fits in one page instead of spilling into overflow pages, and each
        // B-tree is shallower: indexing the Python standard library wrote 0.3-0.4 s faster on
        // the one writer thread (32 and 64 KB were slower again). It must precede the first
        // write, which setting WAL mode is.
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        // WAL: readers never block the writer and the writer never blocks readers. NORMAL
        // sync in WAL mode loses nothing committed when a process dies, only on power loss.
        // No memory-mapped I/O: each connection maps the file on its own and every mapped
        // page counts in the process's resident memory once per connection (a search uses
        // three at a time), so 256 MB maps made the search benchmark's process peak at 548 MB
        // of file pages for no measured speed-up over reads into the page cache (73 MB).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA temp_store = MEMORY;
             PRAGMA cache_size = -16000;
             PRAGMA mmap_size = 0;",
        )?;
        // Checkpoints every 64 MB of WAL instead of 4 MB: an index run commits the same hot
        // pages (term statistics, indexes) again and again, and each checkpoint copied them
        // into the file and synced it, on the one writer thread. Not more: the last
        // connection to close checkpoints what is left (and deletes the WAL) while nothing
        // else runs, 0.2-0.3 s at the end of a run for 256 MB.
        let page_size: i64 = conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
        conn.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_BYTES / page_size.max(512))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        register_functions(&conn)?;
        Ok(conn)
    }
}

/// Whether SQLite refused for a lock another connection holds.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pragma(conn: &Connection, name: &str) -> i64 {
        conn.pragma_query_value(None, name, |r| r.get(0)).expect(name)
    }

    #[test]
    fn a_new_file_gets_large_pages_and_an_existing_one_keeps_its_own() {
        let dir = tempfile::tempdir().expect("tempdir");
        let new = Pool::new(dir.path().join("new.db"), Duration::from_secs(1));
        let conn = new.get().expect("open");
        assert_eq!(pragma(&conn, "page_size"), i64::from(PAGE_SIZE));
        assert_eq!(pragma(&conn, "wal_autocheckpoint"), CHECKPOINT_BYTES / i64::from(PAGE_SIZE));

        // A file created with SQLite's 4 KB default (a store of an earlier version).
        let old_file = dir.path().join("old.db");
        let old = Connection::open(&old_file).expect("create");
        old.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x);").expect("write");
        drop(old);
        let old = Pool::new(old_file, Duration::from_secs(1));
        let conn = old.get().expect("open");
        assert_eq!(pragma(&conn, "page_size"), 4096);
        assert_eq!(pragma(&conn, "wal_autocheckpoint"), CHECKPOINT_BYTES / 4096);
    }
}
