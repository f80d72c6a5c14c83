//! Packs: the vectors of each inverted list (see `ivf`) in one row, ids and vectors as two
//! BLOBs, so a search reads a probed list with one row read instead of one per vector.
//!
//! Reading vectors one SQLite row at a time cost about 4 µs each on the search benchmark's
//! index (a B-tree descent per row through the list index, and page reads past the mapped
//! part of the file), twenty times the dot product itself. A pack is read in one step, and
//! holds each vector quantised to one byte per value (`vectors::quantise`), a quarter of the
//! bytes: the pack ranks approximately, and the best few hundred are rescored exactly from
//! their rows (which also confirms them, below).
//!
//! The vectors table stays the truth, and a pack may only be behind it in one way:
//! - every vector labelled with list `L` is in pack `L`, or pack `L` does not exist (a search
//!   then reads that list's rows). Labelling deletes the packs of the lists it adds to, in the
//!   same transaction, and a retraining deletes every pack with the old centroids;
//! - a pack may still hold vectors deleted or re-embedded since it was written (a vector's
//!   list becomes NULL when its embedding changes). A search keeps a pack's vector only when
//!   the vectors table still has it in that list ([`rescored`]), so it never returns a
//!   vector that is gone and never scores one twice;
//! - [`refresh`] (the end of an index run, `FileWriter::optimize`) rewrites every missing pack and
//!   every pack whose count differs from its list's rows (or whose layout is not one byte per
//!   value), one transaction per list.

use std::collections::HashMap;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row, TransactionBehavior, params};

use super::Undecodable;
use super::schema::Tables;
use super::vectors::{Query, quantise, stored_vector};

/// A scored vector of a pack, not yet confirmed: approximate similarity, id and the pack's
/// list.
pub(crate) type Candidate = (f64, i64, i64);

/// Scores every vector of the packs of `lists`; returns the candidates and the lists that
/// have no pack (their rows must be read instead).
pub(crate) fn score(
    conn: &Connection,
    t: &Tables,
    scorer: &Query,
    lists: &[i64],
) -> rusqlite::Result<(Vec<Candidate>, Vec<i64>)> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT list, count, ids, vectors FROM {} WHERE list IN (SELECT value FROM json_each(?1))",
        t.packs
    ))?;
    let mut rows = stmt.query([json(lists)])?;
    let mut candidates = Vec::new();
    let mut packed = Vec::with_capacity(lists.len());
    while let Some(row) = rows.next()? {
        let list: i64 = row.get(0)?;
        let (ids, vectors) = pack_blobs(row, list)?;
        let count = ids.len() / 8;
        // A pack of another layout (not one byte per value of the query's dimension) is read
        // as rows until `refresh` rewrites it.
        if count > 0 && vectors.len() != count * scorer.unit().len() {
            continue;
        }
        packed.push(list);
        if count == 0 {
            continue;
        }
        let width = vectors.len() / count;
        candidates.reserve(count);
        for (id, vector) in ids.chunks_exact(8).zip(vectors.chunks_exact(width)) {
            let id = i64::from_le_bytes(id.try_into().unwrap_or_default());
            if let Some(similarity) = scorer.approximate(vector) {
                candidates.push((similarity, id, list));
            }
        }
    }
    let unpacked = lists.iter().copied().filter(|l| !packed.contains(l)).collect();
    Ok((candidates, unpacked))
}

/// The ids and vectors of the pack of `list` (a row of `list, count, ids, vectors`): two
/// BLOBs, the ids eight bytes for each of its count. A pack that does not decode is the read
/// error of an [`Undecodable`] row, never an empty pack (which would hide its list's vectors).
fn pack_blobs<'a>(row: &'a Row<'_>, list: i64) -> rusqlite::Result<(&'a [u8], &'a [u8])> {
    let what = || format!("the vector pack of list {list}");
    let count: i64 = row.get(1)?;
    let (ids, vectors) = (row.get_ref(2)?, row.get_ref(3)?);
    let (ValueRef::Blob(id_bytes), ValueRef::Blob(vector_bytes)) = (ids, vectors) else {
        let (column, value) = if matches!(ids, ValueRef::Blob(_)) { (3, vectors) } else { (2, ids) };
        let problem = format!("it holds {} where a BLOB belongs", value.data_type());
        return Err(Undecodable::error(column, value.data_type(), what(), problem));
    };
    if usize::try_from(count).ok().and_then(|n| n.checked_mul(8)) != Some(id_bytes.len()) {
        let problem = format!("its ids take {} bytes for {count} vectors", id_bytes.len());
        return Err(Undecodable::error(2, ids.data_type(), what(), problem));
    }
    Ok((id_bytes, vector_bytes))
}

/// The current list and exact similarity of each of `ids` that still has a vector in a list.
pub(crate) fn rescored(
    conn: &Connection,
    t: &Tables,
    scorer: &Query,
    ids: &[i64],
) -> rusqlite::Result<HashMap<i64, (i64, f64)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, list, embedding FROM {} WHERE id IN (SELECT value FROM json_each(?1)) AND list IS NOT NULL",
        t.vectors
    ))?;
    let mut rows = stmt.query([json(ids)])?;
    let mut found = HashMap::with_capacity(ids.len());
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        if let Some(similarity) = scorer.similarity(stored_vector(row.get_ref(2)?, 2, id)?) {
            found.insert(id, (row.get(1)?, similarity));
        }
    }
    Ok(found)
}

/// Deletes the packs of `lists` (inside the transaction that adds vectors to them).
pub(crate) fn forget(conn: &Connection, t: &Tables, lists: &[i64]) -> rusqlite::Result<()> {
    conn.prepare_cached(&format!("DELETE FROM {} WHERE list IN (SELECT value FROM json_each(?1))", t.packs))?
        .execute([json(lists)])?;
    Ok(())
}

/// Deletes every pack (inside the transaction that replaces the centroids).
pub(crate) fn forget_all(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    conn.execute(&format!("DELETE FROM {}", t.packs), [])?;
    Ok(())
}

/// Writes every missing pack and every pack whose count differs from its list's rows (some
/// of its vectors were deleted or re-embedded), one transaction per list; returns how many.
pub(crate) fn refresh(conn: &mut Connection, t: &Tables) -> rusqlite::Result<usize> {
    let stale: Vec<i64> = {
        let mut stmt = conn.prepare(&format!(
            "SELECT l.list FROM {lists} l
             LEFT JOIN {packs} p ON p.list = l.list
             LEFT JOIN (SELECT list, count(*) AS n FROM {vectors} WHERE list IS NOT NULL GROUP BY list) v
                    ON v.list = l.list
             WHERE p.list IS NULL OR p.count != coalesce(v.n, 0)
                OR length(p.vectors) != p.count * (length(l.centroid) / 4)",
            lists = t.lists,
            packs = t.packs,
            vectors = t.vectors
        ))?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for &list in &stale {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (mut ids, mut vectors, mut count) = (Vec::new(), Vec::new(), 0i64);
        {
            let mut stmt =
                tx.prepare_cached(&format!("SELECT id, embedding FROM {} WHERE list = ?1 ORDER BY id", t.vectors))?;
            let mut rows = stmt.query([list])?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                ids.extend_from_slice(&id.to_le_bytes());
                vectors.extend(quantise(stored_vector(row.get_ref(1)?, 1, id)?));
                count += 1;
            }
        }
        tx.prepare_cached(&format!(
            "INSERT OR REPLACE INTO {} (list, count, ids, vectors) VALUES (?1, ?2, ?3, ?4)",
            t.packs
        ))?
        .execute(params![list, count, ids, vectors])?;
        tx.commit()?;
    }
    Ok(stale.len())
}

fn json(values: &[i64]) -> String {
    serde_json::to_string(values).unwrap_or_else(|_| "[]".into())
}
