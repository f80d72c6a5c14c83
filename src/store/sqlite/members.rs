//! What each snapshot of an embedded index holds (see `store::snapshots`): the scope of reads,
//! the current snapshot writes go to, and which stored files a snapshot holds at each path.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::SqliteIndex;
use super::schema::{Tables, now_ns};
use crate::store::At;

/// Which stored files a read sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every one: the index has one snapshot at most, which holds them all.
    All,
    /// Those one snapshot holds.
    Snapshot(i64),
}

impl Scope {
    /// The SQL condition keeping the rows of alias `alias` (with a `file_id`) in scope, if any.
    /// The id is an integer, written in place.
    pub(crate) fn condition(self, t: &Tables, alias: &str) -> Option<String> {
        match self {
            Scope::All => None,
            Scope::Snapshot(id) => {
                Some(format!("{alias}.file_id IN (SELECT file_id FROM {} WHERE snapshot = {id})", t.members))
            }
        }
    }

    /// The condition keeping the files rows of alias `alias` in scope, after ` AND `, or
    /// nothing.
    pub(crate) fn and_file(self, t: &Tables, alias: &str) -> String {
        match self {
            Scope::All => String::new(),
            Scope::Snapshot(id) => {
                format!(" AND {alias}.id IN (SELECT file_id FROM {} WHERE snapshot = {id})", t.members)
            }
        }
    }

    /// [`Self::condition`] after ` AND `, or nothing.
    pub(crate) fn and(self, t: &Tables, alias: &str) -> String {
        self.condition(t, alias).map_or_else(String::new, |c| format!(" AND {c}"))
    }
}

impl SqliteIndex {
    /// The scope of this reader's reads.
    pub(crate) fn scope(&self, conn: &Connection) -> rusqlite::Result<Scope> {
        match self.at {
            At::Snapshot(id) => Ok(Scope::Snapshot(id)),
            At::Current => {
                let (count, current): (i64, Option<i64>) = conn.query_row(
                    &format!("SELECT count(*), max(CASE WHEN current = 1 THEN id END) FROM {}", self.t.snapshots),
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                Ok(if count <= 1 { Scope::All } else { Scope::Snapshot(current.unwrap_or(-1)) })
            }
        }
    }

    /// The snapshot this reader reads, if the index has it.
    pub(crate) fn snapshot_id(&self, conn: &Connection) -> rusqlite::Result<Option<i64>> {
        match self.at {
            At::Snapshot(id) => Ok(Some(id)),
            At::Current => current(conn, &self.t),
        }
    }
}

/// The current snapshot's id, if any.
pub(crate) fn current(conn: &Connection, t: &Tables) -> rusqlite::Result<Option<i64>> {
    conn.query_row(&format!("SELECT id FROM {} WHERE current = 1", t.snapshots), [], |r| r.get(0)).optional()
}

/// The current snapshot, which writes go to; an index without one gets `working-tree`.
pub(crate) fn current_for_write(tx: &Transaction<'_>, t: &Tables, index: &str) -> rusqlite::Result<i64> {
    if let Some(id) = current(tx, t)? {
        return Ok(id);
    }
    let now = now_ns();
    tx.execute(
        &format!(
            "INSERT INTO {} (name, origin, worktree, created_at, updated_at, current)
             SELECT 'working-tree', 'working-tree', root_path, ?2, ?2, 1 FROM indexes WHERE name = ?1",
            t.snapshots
        ),
        params![index, now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Makes `snapshot` hold `path` as stored file `file_id`; returns the stored file it held there
/// before, when another.
pub(crate) fn hold(
    tx: &Transaction<'_>,
    t: &Tables,
    snapshot: i64,
    (path, file_id, mtime_ns): (&str, i64, i64),
) -> rusqlite::Result<Option<i64>> {
    let before: Option<i64> = tx
        .prepare_cached(&format!("SELECT file_id FROM {} WHERE snapshot = ?1 AND path = ?2", t.members))?
        .query_row(params![snapshot, path], |r| r.get(0))
        .optional()?;
    tx.prepare_cached(&format!(
        "INSERT INTO {} (snapshot, path, file_id, mtime_ns) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (snapshot, path) DO UPDATE SET file_id = excluded.file_id, mtime_ns = excluded.mtime_ns",
        t.members
    ))?
    .execute(params![snapshot, path, file_id, mtime_ns])?;
    Ok(before.filter(|b| *b != file_id))
}

/// Of `ids`, the stored files no snapshot holds.
pub(crate) fn unheld(tx: &Transaction<'_>, t: &Tables, ids: &[i64]) -> rusqlite::Result<Vec<i64>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT value FROM json_each(?1) WHERE value NOT IN (SELECT file_id FROM {})",
        t.members
    ))?;
    let ids = serde_json::to_string(ids).unwrap_or_else(|_| "[]".into());
    let rows = stmt.query_map([ids], |r| r.get(0))?;
    rows.collect()
}
