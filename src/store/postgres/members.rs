//! What each snapshot of a PostgreSQL index holds (see `store::snapshots`): the scope of reads,
//! the current snapshot writes go to, and which stored files a snapshot holds at each path.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use postgres::{GenericClient, Row, Transaction};

use super::tables::Tables;
use super::{Conn, PgIndex};
use crate::store::At;

/// Which stored files a read sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    /// Every one: the index has one snapshot at most, which holds them all.
    All,
    /// Those one snapshot holds.
    Snapshot(i64),
}

impl Scope {
    /// The SQL condition keeping the rows whose stored file is `column` (`file_id`, `c.file_id`,
    /// `f.id`) in scope, if any. The id is an integer, written in place.
    pub(super) fn condition(self, t: &Tables, column: &str) -> Option<String> {
        match self {
            Scope::All => None,
            Scope::Snapshot(id) => {
                Some(format!("{column} IN (SELECT file_id FROM {} WHERE snapshot = {id})", t.members))
            }
        }
    }

    /// [`Self::condition`] after ` AND `, or nothing.
    pub(super) fn and(self, t: &Tables, column: &str) -> String {
        self.condition(t, column).map_or_else(String::new, |c| format!(" AND {c}"))
    }
}

/// How many snapshots the index has, and its current one.
fn scope_sql(t: &Tables) -> String {
    format!("SELECT count(*), max(id) FILTER (WHERE current) FROM {}", t.snapshots)
}

fn scope_of(row: &Row) -> Scope {
    let (count, current): (i64, Option<i64>) = (row.get(0), row.get(1));
    // More than one snapshot and none current cannot happen (writes keep one current); read
    // nothing rather than everything then.
    if count <= 1 { Scope::All } else { Scope::Snapshot(current.unwrap_or(-1)) }
}

impl PgIndex {
    /// The scope of this reader's reads.
    pub(super) fn scope(&self, conn: &mut Conn) -> Result<Scope, postgres::Error> {
        match self.at {
            At::Snapshot(id) => Ok(Scope::Snapshot(id)),
            At::Current => {
                let rows = conn.query_prepared(&scope_sql(&self.t), &[])?;
                Ok(rows.first().map_or(Scope::All, scope_of))
            }
        }
    }

    /// [`Self::scope`] inside a transaction, so it matches what the transaction reads.
    pub(super) fn scope_in(&self, client: &mut impl GenericClient) -> Result<Scope, postgres::Error> {
        match self.at {
            At::Snapshot(id) => Ok(Scope::Snapshot(id)),
            At::Current => Ok(scope_of(&client.query_one(&scope_sql(&self.t), &[])?)),
        }
    }

    /// The snapshot this reader reads, if the index has it.
    pub(super) fn snapshot_id(&self, conn: &mut Conn) -> Result<Option<i64>, postgres::Error> {
        match self.at {
            At::Snapshot(id) => Ok(Some(id)),
            At::Current => current(&mut ***conn, &self.t),
        }
    }
}

/// Nanoseconds since the epoch, as snapshot times are kept.
pub(super) fn now_ns() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

pub(super) fn time(ns: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(u64::try_from(ns).unwrap_or(0))
}

/// The current snapshot's id, if any.
pub(super) fn current(client: &mut impl GenericClient, t: &Tables) -> Result<Option<i64>, postgres::Error> {
    Ok(client.query_opt(&format!("SELECT id FROM {} WHERE current", t.snapshots), &[])?.map(|r| r.get(0)))
}

/// The current snapshot, which writes go to; an index without one gets `working-tree`, taken
/// from the index's root.
pub(super) fn current_for_write(tx: &mut Transaction<'_>, t: &Tables) -> Result<i64, postgres::Error> {
    if let Some(id) = current(tx, t)? {
        return Ok(id);
    }
    let row = tx.query_one(
        &format!(
            "INSERT INTO {} (name, origin, worktree, created_at, updated_at, current)
             VALUES ('working-tree', 'working-tree', (SELECT root_path FROM cocosearch_indexes WHERE name = $1), $2, $2, true)
             RETURNING id",
            t.snapshots
        ),
        &[&t.index(), &now_ns()],
    )?;
    Ok(row.get(0))
}

/// Makes `snapshot` hold each `paths[i]` as stored file `ids[i]` with mtime `mtimes[i]`;
/// returns the stored files it held at those paths before, where they were others.
pub(super) fn hold(
    tx: &mut Transaction<'_>,
    t: &Tables,
    snapshot: i64,
    (paths, ids, mtimes): (&[&str], &[i64], &[i64]),
) -> Result<Vec<i64>, postgres::Error> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    // Every part of one statement sees the members as they were before it.
    let rows = tx.query(
        &format!(
            "WITH u AS (
                 SELECT * FROM unnest($2::text[], $3::int8[], $4::int8[]) AS u(path, file_id, mtime_ns)
             ), held AS (
                 INSERT INTO {members} (snapshot, path, file_id, mtime_ns) SELECT $1, path, file_id, mtime_ns FROM u
                 ON CONFLICT (snapshot, path) DO UPDATE SET file_id = EXCLUDED.file_id, mtime_ns = EXCLUDED.mtime_ns
             )
             SELECT DISTINCT m.file_id FROM {members} m JOIN u ON u.path = m.path
             WHERE m.snapshot = $1 AND m.file_id <> u.file_id",
            members = t.members
        ),
        &[&snapshot, &paths, &ids, &mtimes],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Of `ids`, the stored files no snapshot holds.
pub(super) fn unheld(tx: &mut Transaction<'_>, t: &Tables, ids: &[i64]) -> Result<Vec<i64>, postgres::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = tx.query(
        &format!(
            "SELECT DISTINCT u.id FROM unnest($1::int8[]) AS u(id)
             WHERE NOT EXISTS (SELECT 1 FROM {} m WHERE m.file_id = u.id)",
            t.members
        ),
        &[&ids],
    )?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}
