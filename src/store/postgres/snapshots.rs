//! Snapshots on PostgreSQL (see `store::snapshots`): the scope of an index's reads, the current
//! snapshot its writes go to, and the snapshots themselves.

use std::collections::HashMap;

use postgres::Row;

use super::tables::Tables;
use super::write::delete_stored;
use super::{PgIndex, PgWriter};
use crate::store::{
    Collected, SnapshotCounts, SnapshotOrigin, SnapshotReader, SnapshotRecord, SnapshotSpec, SnapshotWriter,
    StoreError, StoredVersion,
};

use super::members::{current, now_ns, time};

/// The snapshots (all, or those `condition` keeps, on alias `s`), by id, with their counts.
fn record_sql(t: &Tables, condition: &str, counts: SnapshotCounts) -> String {
    let counted = match counts {
        SnapshotCounts::Counted => format!(
            "(SELECT count(*) FROM {members} m WHERE m.snapshot = s.id),
             (SELECT count(*) FROM {members} m JOIN {members} c ON c.path = m.path AND c.file_id = m.file_id
              WHERE m.snapshot = s.id AND c.snapshot = (SELECT id FROM {snapshots} WHERE current))",
            members = t.members,
            snapshots = t.snapshots
        ),
        SnapshotCounts::Uncounted => "0::int8, 0::int8".to_string(),
    };
    format!(
        "SELECT s.id, s.name, s.origin, s.git_commit, s.git_branch, s.worktree, s.created_at, s.updated_at, s.current,
                {counted}
         FROM {snapshots} s {condition} ORDER BY s.id",
        snapshots = t.snapshots
    )
}

fn record(index: &str, row: &Row) -> Result<SnapshotRecord, StoreError> {
    let origin: &str = row.get(2);
    let Ok(origin) = origin.parse() else {
        return Err(StoreError::Unreadable {
            index: index.to_string(),
            what: format!("snapshot {}", row.get::<_, &str>(1)),
            problem: format!("its origin {origin:?} is unknown to this version of cocosearch"),
            fix: "upgrade cocosearch, or rebuild the index with `cocosearch index --fresh`".into(),
        });
    };
    let count = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(SnapshotRecord {
        id: row.get(0),
        name: row.get(1),
        origin,
        git_commit: row.get(3),
        git_branch: row.get(4),
        worktree: row.get(5),
        created_at: time(row.get(6)),
        updated_at: time(row.get(7)),
        current: row.get(8),
        files: count(row.get(9)),
        shared_with_current: count(row.get(10)),
    })
}

impl SnapshotReader for PgIndex {
    fn snapshots(&self, counts: SnapshotCounts) -> Result<Vec<SnapshotRecord>, StoreError> {
        let name = self.name.as_str();
        let mut conn = self.store.conn()?;
        let rows = conn
            .query_prepared(&record_sql(&self.t, "", counts), &[])
            .map_err(|e| self.store.index_error(name, "reading snapshots", &e))?;
        rows.iter().map(|r| record(name, r)).collect()
    }

    fn stored_versions(&self, paths: Option<&[String]>) -> Result<HashMap<String, Vec<StoredVersion>>, StoreError> {
        let name = self.name.as_str();
        let mut conn = self.store.conn()?;
        let paths: Option<Vec<&str>> = paths.map(|p| p.iter().map(String::as_str).collect());
        let rows = conn
            .query_prepared(
                &format!(
                    "SELECT path, content_hash, chunking FROM {} WHERE $1::text[] IS NULL OR path = ANY($1) ORDER BY id",
                    self.t.files
                ),
                &[&paths],
            )
            .map_err(|e| self.store.index_error(name, "reading stored files", &e))?;
        let mut out: HashMap<String, Vec<StoredVersion>> = HashMap::new();
        for row in rows {
            let Ok(hash) = <[u8; 32]>::try_from(row.get::<_, &[u8]>(1)) else { continue };
            out.entry(row.get(0)).or_default().push(StoredVersion { hash, chunking: row.get(2) });
        }
        Ok(out)
    }
}

impl SnapshotWriter for PgWriter {
    fn begin_snapshot(&self, spec: &SnapshotSpec) -> Result<SnapshotRecord, StoreError> {
        let name = self.index.name.as_str();
        let t = &self.index.t;
        let err = |e: postgres::Error| self.index.store.index_error(name, "choosing the snapshot", &e);
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(err)?;
        let now = now_ns();
        let existing: Option<i64> = tx
            .query_opt(&format!("SELECT id FROM {} WHERE name = $1", t.snapshots), &[&spec.name])
            .map_err(err)?
            .map(|r| r.get(0));
        let base = current(&mut tx, t).map_err(err)?;
        let (base_files, base_origin): (i64, String) = match base {
            Some(id) => {
                let row = tx
                    .query_one(
                        &format!(
                            "SELECT (SELECT count(*) FROM {} WHERE snapshot = $1), (SELECT origin FROM {} WHERE id = $1)",
                            t.members, t.snapshots
                        ),
                        &[&id],
                    )
                    .map_err(err)?;
                (row.get(0), row.get(1))
            }
            None => (0, String::new()),
        };
        let id = match (existing, base) {
            (Some(id), _) => id,
            // An empty current snapshot (a new index's) becomes this one, and so does an unnamed
            // one (a store's files from before snapshots, or a tree outside git that is now in
            // one): the first named run takes it over instead of keeping it beside.
            (None, Some(base)) if base_files == 0 || base_origin == SnapshotOrigin::WorkingTree.as_str() => base,
            (None, base) => {
                let id: i64 = tx
                    .query_one(
                        &format!(
                            "INSERT INTO {} (name, origin, worktree, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
                             RETURNING id",
                            t.snapshots
                        ),
                        &[&spec.name, &spec.origin.as_str(), &spec.worktree, &now],
                    )
                    .map_err(err)?
                    .get(0);
                if let Some(base) = base {
                    tx.execute(
                        &format!(
                            "INSERT INTO {m} (snapshot, path, file_id, mtime_ns)
                             SELECT $1, path, file_id, mtime_ns FROM {m} WHERE snapshot = $2",
                            m = t.members
                        ),
                        &[&id, &base],
                    )
                    .map_err(err)?;
                }
                id
            }
        };
        // Cleared first: the unique index on the flag is checked row by row.
        tx.execute(&format!("UPDATE {} SET current = false WHERE current AND id <> $1", t.snapshots), &[&id])
            .map_err(err)?;
        tx.execute(
            &format!(
                "UPDATE {} SET current = true, name = $2, origin = $3, git_commit = $4, git_branch = $5, worktree = $6,
                        updated_at = $7
                 WHERE id = $1",
                t.snapshots
            ),
            &[&id, &spec.name, &spec.origin.as_str(), &spec.git_commit, &spec.git_branch, &spec.worktree, &now],
        )
        .map_err(err)?;
        let row = tx.query_opt(&record_sql(t, "WHERE s.id = $1", SnapshotCounts::Counted), &[&id]).map_err(err)?;
        tx.commit().map_err(err)?;
        let row = row.ok_or_else(|| StoreError::Query {
            context: "choosing the snapshot".into(),
            message: format!("snapshot {} vanished while it was written", spec.name),
        })?;
        record(name, &row)
    }

    fn delete_snapshots(&self, ids: &[i64]) -> Result<Collected, StoreError> {
        let name = self.index.name.as_str();
        let t = &self.index.t;
        let err = |e: postgres::Error| self.index.store.index_error(name, "deleting snapshots", &e);
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(err)?;
        // Their members go with them (a foreign-key cascade); the current one stays.
        let snapshots = tx
            .execute(&format!("DELETE FROM {} WHERE id = ANY($1) AND NOT current", t.snapshots), &[&ids])
            .map_err(err)?;
        let unheld: Vec<i64> = tx
            .query(
                &format!(
                    "SELECT f.id FROM {} f WHERE NOT EXISTS (SELECT 1 FROM {} m WHERE m.file_id = f.id)",
                    t.files, t.members
                ),
                &[],
            )
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let deleted = delete_stored(&mut tx, t, &unheld).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(Collected { snapshots, files: deleted.files, chunks: deleted.chunks, texts: deleted.texts })
    }
}
