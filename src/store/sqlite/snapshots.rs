//! Snapshots in the embedded store (see `store::snapshots`): the scope of an index's reads,
//! the current snapshot its writes go to, and the snapshots themselves.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::schema::{Tables, now_ns, time};
use super::write::{KeywordChanges, delete_stored, json_list};
use super::{SqliteIndex, SqliteWriter, query_error};
use crate::store::{
    Collected, SnapshotCounts, SnapshotOrigin, SnapshotReader, SnapshotRecord, SnapshotSpec, SnapshotWriter,
    StoreError, StoredVersion,
};

use super::members::current;

const RECORD_COLUMNS: &str =
    "s.id, s.name, s.origin, s.git_commit, s.git_branch, s.worktree, s.created_at, s.updated_at, s.current";

/// The files of snapshot `s`, and those the current one holds too.
const COUNT_COLUMNS: &str = "(SELECT count(*) FROM {members} m WHERE m.snapshot = s.id),
     (SELECT count(*) FROM {members} m JOIN {members} c ON c.path = m.path AND c.file_id = m.file_id
        WHERE m.snapshot = s.id AND c.snapshot = (SELECT id FROM {snapshots} WHERE current = 1))";

fn record_sql(t: &Tables, condition: &str, counts: SnapshotCounts) -> String {
    let counted = match counts {
        SnapshotCounts::Counted => COUNT_COLUMNS,
        SnapshotCounts::Uncounted => "0, 0",
    };
    let columns = format!("{RECORD_COLUMNS}, {counted}");
    let columns = columns.replace("{members}", &t.members).replace("{snapshots}", &t.snapshots);
    format!("SELECT {columns} FROM {} s {condition} ORDER BY s.id", t.snapshots)
}

fn record(index: &str, row: &Row<'_>) -> rusqlite::Result<Result<SnapshotRecord, StoreError>> {
    let origin: String = row.get(2)?;
    let Ok(origin) = origin.parse() else {
        return Ok(Err(StoreError::Unreadable {
            index: index.to_string(),
            what: format!("snapshot {}", row.get::<_, String>(1)?),
            problem: format!("its origin {origin:?} is unknown to this version of cocosearch"),
            fix: "upgrade cocosearch, or rebuild the index with `cocosearch index --fresh`".into(),
        }));
    };
    let count = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(Ok(SnapshotRecord {
        id: row.get(0)?,
        name: row.get(1)?,
        origin,
        git_commit: row.get(3)?,
        git_branch: row.get(4)?,
        worktree: row.get(5)?,
        created_at: time(row.get(6)?),
        updated_at: time(row.get(7)?),
        current: row.get::<_, i64>(8)? == 1,
        files: count(row.get(9)?),
        shared_with_current: count(row.get(10)?),
    }))
}

fn records(
    conn: &Connection,
    index: &str,
    (t, condition): (&Tables, &str),
    counts: SnapshotCounts,
) -> Result<Vec<SnapshotRecord>, StoreError> {
    let err = |e| query_error(Some(index), "reading snapshots", &e);
    let mut stmt = conn.prepare_cached(&record_sql(t, condition, counts)).map_err(err)?;
    let rows = stmt.query_map([], |r| record(index, r)).map_err(err)?;
    let mut out = Vec::new();
    for row in rows {
        out.push(row.map_err(err)??);
    }
    Ok(out)
}

impl SnapshotReader for SqliteIndex {
    fn snapshots(&self, counts: SnapshotCounts) -> Result<Vec<SnapshotRecord>, StoreError> {
        let conn = self.store.pool.get()?;
        records(&conn, &self.name, (&self.t, ""), counts)
    }

    fn stored_versions(&self, paths: Option<&[String]>) -> Result<HashMap<String, Vec<StoredVersion>>, StoreError> {
        let name = self.name.as_str();
        let conn = self.store.pool.get()?;
        let err = |e| query_error(Some(name), "reading stored files", &e);
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT path, content_hash, chunking FROM {} WHERE ?1 IS NULL OR path IN (SELECT value FROM json_each(?1))",
                self.t.files
            ))
            .map_err(err)?;
        let mut rows = stmt.query([paths.map(json_list)]).map_err(err)?;
        let mut out: HashMap<String, Vec<StoredVersion>> = HashMap::new();
        while let Some(row) = rows.next().map_err(err)? {
            let hash: Vec<u8> = row.get(1).map_err(err)?;
            let Ok(hash) = <[u8; 32]>::try_from(hash.as_slice()) else { continue };
            out.entry(row.get(0).map_err(err)?)
                .or_default()
                .push(StoredVersion { hash, chunking: row.get(2).map_err(err)? });
        }
        Ok(out)
    }
}

impl SnapshotWriter for SqliteWriter {
    fn begin_snapshot(&self, spec: &SnapshotSpec) -> Result<SnapshotRecord, StoreError> {
        let name = self.index.name.as_str();
        let t = &self.index.t;
        let err = |e| query_error(Some(name), "choosing the snapshot", &e);
        let mut conn = self.index.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let now = now_ns();
        let existing: Option<i64> = tx
            .query_row(&format!("SELECT id FROM {} WHERE name = ?1", t.snapshots), [&spec.name], |r| r.get(0))
            .optional()
            .map_err(err)?;
        let base = current(&tx, t).map_err(err)?;
        let (base_files, base_origin): (i64, String) = match base {
            Some(id) => tx
                .query_row(
                    &format!(
                        "SELECT (SELECT count(*) FROM {} WHERE snapshot = ?1), (SELECT origin FROM {} WHERE id = ?1)",
                        t.members, t.snapshots
                    ),
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(err)?,
            None => (0, String::new()),
        };
        let id = match (existing, base) {
            (Some(id), _) => id,
            // An empty current snapshot (a new index's) becomes this one, and so does an unnamed
            // one (a store's files from before snapshots, or a tree outside git that is now in
            // one): the first named run takes it over instead of keeping it beside.
            (None, Some(base)) if base_files == 0 || base_origin == SnapshotOrigin::WorkingTree.as_str() => base,
            (None, base) => {
                tx.execute(
                    &format!(
                        "INSERT INTO {} (name, origin, worktree, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
                        t.snapshots
                    ),
                    params![spec.name, spec.origin.as_str(), spec.worktree, now],
                )
                .map_err(err)?;
                let id = tx.last_insert_rowid();
                if let Some(base) = base {
                    tx.execute(
                        &format!(
                            "INSERT INTO {m} (snapshot, path, file_id, mtime_ns)
                             SELECT ?1, path, file_id, mtime_ns FROM {m} WHERE snapshot = ?2",
                            m = t.members
                        ),
                        params![id, base],
                    )
                    .map_err(err)?;
                }
                id
            }
        };
        tx.execute(&format!("UPDATE {} SET current = (id = ?1)", t.snapshots), [id]).map_err(err)?;
        tx.execute(
            &format!(
                "UPDATE {} SET name = ?2, origin = ?3, git_commit = ?4, git_branch = ?5, worktree = ?6, updated_at = ?7
                 WHERE id = ?1",
                t.snapshots
            ),
            params![id, spec.name, spec.origin.as_str(), spec.git_commit, spec.git_branch, spec.worktree, now],
        )
        .map_err(err)?;
        let mut found = records(&tx, name, (t, &format!("WHERE s.id = {id}")), SnapshotCounts::Counted)?;
        tx.commit().map_err(err)?;
        found.pop().ok_or_else(|| StoreError::Query {
            context: "choosing the snapshot".into(),
            message: format!("snapshot {} vanished while it was written", spec.name),
        })
    }

    fn delete_snapshots(&self, ids: &[i64]) -> Result<Collected, StoreError> {
        let name = self.index.name.as_str();
        let t = &self.index.t;
        let err = |e| query_error(Some(name), "deleting snapshots", &e);
        let mut conn = self.index.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let list = json_list(ids);
        tx.execute(
            &format!("DELETE FROM {} WHERE snapshot IN (SELECT value FROM json_each(?1)) AND snapshot NOT IN (SELECT id FROM {} WHERE current = 1)", t.members, t.snapshots),
            [&list],
        )
        .map_err(err)?;
        let snapshots = tx
            .execute(
                &format!("DELETE FROM {} WHERE id IN (SELECT value FROM json_each(?1)) AND current = 0", t.snapshots),
                [&list],
            )
            .map_err(err)? as u64;
        let unheld: Vec<i64> = {
            let mut stmt = tx
                .prepare(&format!("SELECT id FROM {} WHERE id NOT IN (SELECT file_id FROM {})", t.files, t.members))
                .map_err(err)?;
            let rows = stmt.query_map([], |r| r.get(0)).map_err(err)?;
            rows.collect::<Result<_, _>>().map_err(err)?
        };
        let mut keywords = KeywordChanges::default();
        let deleted = delete_stored(&tx, t, &unheld, &mut keywords).map_err(err)?;
        keywords.apply(&tx, t).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(Collected { snapshots, files: deleted.files, chunks: deleted.chunks, texts: deleted.texts })
    }
}
