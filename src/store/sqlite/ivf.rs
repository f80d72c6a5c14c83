//! Inverted lists over the vectors of a large index, so vector search reads a few percent of
//! them instead of all.
//!
//! Exact scoring reads every vector: about 1 ms per 1,000 vectors here, fine up to tens of
//! thousands but 250 ms at 222,000 (the search benchmark's index). Past [`MIN_VECTORS`] the
//! vectors are clustered (spherical k-means on a sample, √N lists) and each is labelled with
//! its nearest centroid; a search scores the centroids, then reads only the lists of the
//! nearest ones ([`probes`]) plus every vector not yet labelled (written since the last
//! [`maintain`]), so new vectors are always found. The benchmark reports recall@10 against
//! exact search.
//!
//! [`maintain`] runs at the end of an index run (`FileWriter::optimize`): it labels new vectors,
//! retrains when the index has doubled since the last training or many vectors are unlabelled,
//! and then rewrites the packs (`packs`: each list's vectors in one row) that are missing or
//! stale, so a search reads each probed list in one row. An index of several snapshots keeps
//! no packs: its searches are scoped to one snapshot and read the lists' rows.

use rayon::prelude::*;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::schema::Tables;
use super::vectors::{decode, dot, encode, normalised, stored_centroid, stored_vector};
use super::{packs, query_error};
use crate::store::StoreError;

/// Below this many vectors every search is exact.
pub(crate) const MIN_VECTORS: u64 = 20_000;

/// Vectors sampled per list to train the centroids.
const SAMPLE_PER_LIST: usize = 32;

/// Lloyd iterations of the training.
const ITERATIONS: usize = 8;

/// The number of lists for `n` vectors: about √n.
fn lists_for(n: u64) -> usize {
    ((n as f64).sqrt().round() as usize).clamp(16, 2048)
}

/// How many of `lists` lists a search reads: about a twelfth, at least eight.
pub(crate) fn probes(lists: usize) -> usize {
    (lists / 12).max(8).min(lists)
}

/// The centroids of an index (empty when it has none), by list number.
pub(crate) fn centroids(conn: &Connection, t: &Tables) -> rusqlite::Result<Vec<(i64, Vec<f32>)>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT list, centroid FROM {} ORDER BY list", t.lists))?;
    let rows = stmt.query_map([], |r| {
        let list: i64 = r.get(0)?;
        Ok((list, decode(stored_centroid(r.get_ref(1)?, 1, list)?)))
    })?;
    rows.collect()
}

/// The lists a search for `query` (normalised) reads.
pub(crate) fn nearest_lists(centroids: &[(i64, Vec<f32>)], query: &[f32]) -> Vec<i64> {
    let mut scored: Vec<(f32, i64)> = centroids.iter().map(|(list, c)| (dot(query, c), *list)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(probes(centroids.len())).map(|(_, list)| list).collect()
}

/// Labels new vectors, and (re)trains the lists when the index is large enough and has grown
/// or drifted since the last training.
pub(crate) fn maintain(conn: &mut Connection, t: &Tables, index: &str) -> Result<(), StoreError> {
    let err = |e: rusqlite::Error| query_error(Some(index), "organising vectors for search", &e);
    let total: u64 =
        conn.query_row(&format!("SELECT count(*) FROM {}", t.vectors), [], |r| r.get::<_, i64>(0)).map_err(err)? as u64;
    let unlabelled: u64 = conn
        .query_row(&format!("SELECT count(*) FROM {} WHERE list IS NULL", t.vectors), [], |r| r.get::<_, i64>(0))
        .map_err(err)? as u64;
    let trained: Option<u64> = conn
        .query_row("SELECT ivf_trained FROM indexes WHERE name = ?1", [index], |r| r.get::<_, Option<i64>>(0))
        .optional()
        .map_err(err)?
        .flatten()
        .map(|n| n as u64);
    let retrain = match trained {
        None => total >= MIN_VECTORS,
        Some(at) => total >= MIN_VECTORS && (total > 2 * at || unlabelled * 5 > total),
    };
    if retrain {
        train(conn, t, index, total)?;
    } else if trained.is_some() && unlabelled > 0 {
        let centroids = centroids(conn, t).map_err(err)?;
        label(conn, t, &centroids, "WHERE list IS NULL").map_err(err)?;
    }
    // Only an unscoped search reads packs (`read::vector_search`), and an index of more than
    // one snapshot scopes every search: its packs would be a quarter of its vectors again,
    // never read. They come back once a single snapshot is left.
    let snapshots: i64 =
        conn.query_row(&format!("SELECT count(*) FROM {}", t.snapshots), [], |r| r.get(0)).map_err(err)?;
    if snapshots > 1 {
        packs::forget_all(conn, t).map_err(err)?;
    } else {
        packs::refresh(conn, t).map_err(err)?;
    }
    Ok(())
}

/// Trains √N centroids on a sample of the vectors, then labels every vector.
fn train(conn: &mut Connection, t: &Tables, index: &str, total: u64) -> Result<(), StoreError> {
    let err = |e: rusqlite::Error| query_error(Some(index), "organising vectors for search", &e);
    let k = lists_for(total);
    // An evenly spread sample, by id (deterministic: the same index trains the same lists).
    let step = (total as usize / (k * SAMPLE_PER_LIST)).max(1);
    let sample: Vec<Vec<f32>> = {
        let mut stmt = conn.prepare(&format!("SELECT id, embedding FROM {} ORDER BY id", t.vectors)).map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        let mut sample = Vec::new();
        let mut i = 0;
        while let Some(row) = rows.next().map_err(err)? {
            // Every vector is checked, sampled or not: one that does not decode stops the
            // training here, before the lists are replaced.
            let blob = stored_vector(row.get_ref(1).map_err(err)?, 1, row.get(0).map_err(err)?).map_err(err)?;
            if i % step == 0 {
                sample.push(decode(blob));
            }
            i += 1;
        }
        sample
    };
    if sample.len() < k {
        return Ok(());
    }
    let centroids = kmeans(&sample, k);
    let numbered: Vec<(i64, Vec<f32>)> = centroids.into_iter().enumerate().map(|(i, c)| (i as i64, c)).collect();
    {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        tx.execute(&format!("DELETE FROM {}", t.lists), []).map_err(err)?;
        packs::forget_all(&tx, t).map_err(err)?;
        {
            let mut insert =
                tx.prepare(&format!("INSERT INTO {} (list, centroid) VALUES (?1, ?2)", t.lists)).map_err(err)?;
            for (list, c) in &numbered {
                insert.execute(params![list, encode(c)]).map_err(err)?;
            }
        }
        tx.execute("UPDATE indexes SET ivf_trained = ?2 WHERE name = ?1", params![index, total as i64]).map_err(err)?;
        tx.commit().map_err(err)?;
    }
    label(conn, t, &numbered, "").map_err(err)
}

/// Labels the vectors selected by `condition` with their nearest centroid, a batch of rows per
/// transaction so readers and other writers are never held up for long.
fn label(conn: &mut Connection, t: &Tables, centroids: &[(i64, Vec<f32>)], condition: &str) -> rusqlite::Result<()> {
    const BATCH: usize = 4096;
    let mut after = i64::MIN;
    loop {
        let batch: Vec<(i64, Vec<f32>)> = {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT id, embedding FROM {vectors} {where_} {and} id > ?1 ORDER BY id LIMIT ?2",
                vectors = t.vectors,
                where_ = if condition.is_empty() { "WHERE" } else { condition },
                and = if condition.is_empty() { "" } else { "AND" },
            ))?;
            let rows = stmt.query_map(params![after, BATCH as i64], |r| {
                let id: i64 = r.get(0)?;
                Ok((id, decode(stored_vector(r.get_ref(1)?, 1, id)?)))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        let Some(last) = batch.last().map(|(id, _)| *id) else { return Ok(()) };
        let labels: Vec<(i64, i64)> = batch.par_iter().map(|(id, v)| (*id, nearest(centroids, v))).collect();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The packs of the lists gaining vectors go, in the same transaction: until they are
        // rewritten, a search reads those lists' rows.
        let mut gaining: Vec<i64> = labels.iter().map(|(_, list)| *list).collect();
        gaining.sort_unstable();
        gaining.dedup();
        packs::forget(&tx, t, &gaining)?;
        {
            let mut update = tx.prepare_cached(&format!("UPDATE {} SET list = ?2 WHERE id = ?1", t.vectors))?;
            for (id, list) in labels {
                update.execute(params![id, list])?;
            }
        }
        tx.commit()?;
        after = last;
    }
}

/// The list of the centroid nearest to `v` (vectors are stored normalised).
fn nearest(centroids: &[(i64, Vec<f32>)], v: &[f32]) -> i64 {
    centroids.iter().map(|(list, c)| (dot(v, c), *list)).max_by(|a, b| a.0.total_cmp(&b.0)).map_or(0, |(_, list)| list)
}

/// Spherical k-means: `k` unit centroids of unit vectors, started from evenly spaced samples.
fn kmeans(sample: &[Vec<f32>], k: usize) -> Vec<Vec<f32>> {
    let dim = sample[0].len();
    let step = sample.len() / k;
    let mut centroids: Vec<Vec<f32>> = (0..k).map(|i| sample[i * step].clone()).collect();
    for _ in 0..ITERATIONS {
        let assignment: Vec<usize> = sample
            .par_iter()
            .map(|v| {
                centroids
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (dot(v, c), i))
                    .max_by(|a, b| a.0.total_cmp(&b.0))
                    .map_or(0, |(_, i)| i)
            })
            .collect();
        let mut sums = vec![vec![0f32; dim]; k];
        let mut counts = vec![0usize; k];
        for (v, &c) in sample.iter().zip(&assignment) {
            counts[c] += 1;
            sums[c].iter_mut().zip(v).for_each(|(s, x)| *s += x);
        }
        for (i, (sum, count)) in sums.into_iter().zip(counts).enumerate() {
            // An empty list keeps its centroid rather than collapsing to zero.
            if count > 0 {
                centroids[i] = normalised(sum);
            }
        }
    }
    centroids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kmeans_separates_clear_clusters() {
        let mut sample = Vec::new();
        for i in 0..60 {
            let jitter = (i % 7) as f32 * 0.01;
            sample.push(normalised(vec![1.0, jitter, 0.0]));
            sample.push(normalised(vec![0.0, 1.0, jitter]));
            sample.push(normalised(vec![jitter, 0.0, 1.0]));
        }
        let centroids: Vec<(i64, Vec<f32>)> =
            kmeans(&sample, 3).into_iter().enumerate().map(|(i, c)| (i as i64, c)).collect();
        let lists: Vec<i64> =
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]].iter().map(|v| nearest(&centroids, v)).collect();
        let mut distinct = lists.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "each axis gets its own list: {lists:?}");
        assert_eq!(probes(3), 3);
        assert_eq!(lists_for(222_000), 471);
    }
}
