//! Vectors as BLOBs (little-endian `f32`), and exact cosine top-k over them.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rusqlite::types::ValueRef;

use super::Undecodable;
use crate::store::StoreError;

/// The BLOB of a vector.
pub(crate) fn encode(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The vector of a BLOB that [`stored`] accepted.
pub(crate) fn decode(blob: &[u8]) -> Vec<f32> {
    blob.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

/// The BLOB of the stored vector of chunk `chunk` (column `column` of its row); see
/// [`stored_blob`].
pub(crate) fn stored_vector(value: ValueRef<'_>, column: usize, chunk: i64) -> rusqlite::Result<&[u8]> {
    stored_blob(value, column, || format!("the vector of chunk {chunk}"))
}

/// The BLOB of the stored centroid of list `list` (column `column` of its row); see
/// [`stored_blob`].
pub(crate) fn stored_centroid(value: ValueRef<'_>, column: usize, list: i64) -> rusqlite::Result<&[u8]> {
    stored_blob(value, column, || format!("the centroid of list {list}"))
}

/// The BLOB of a stored vector, column `column` of the row `what` names: one or more whole
/// `f32` values. Anything else (text, a number, a partial value, nothing) does not decode, and
/// is the read error of an [`Undecodable`] row rather than a vector skipped or cut short.
fn stored_blob<'a>(value: ValueRef<'a>, column: usize, what: impl FnOnce() -> String) -> rusqlite::Result<&'a [u8]> {
    let problem = match value {
        ValueRef::Blob(blob) if !blob.is_empty() && blob.len() % 4 == 0 => return Ok(blob),
        ValueRef::Blob(blob) => format!("its {} bytes are not one or more 32-bit values", blob.len()),
        other => format!("it is {}, not a BLOB of 32-bit values", other.data_type()),
    };
    Err(Undecodable::error(column, value.data_type(), what(), problem))
}

/// The scale of a quantised value: a unit vector's values lie in [-1, 1].
const QUANTUM: f32 = 127.0;

/// A stored vector (BLOB of unit-length `f32`) as one signed byte per value, for a first,
/// approximate pass: a quarter of the bytes to read (the exact vector rescores the best).
pub(crate) fn quantise(blob: &[u8]) -> impl Iterator<Item = u8> + '_ {
    blob.chunks_exact(4).map(|b| {
        let x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        (x * QUANTUM).round().clamp(-QUANTUM, QUANTUM) as i8 as u8
    })
}

/// Fails unless every vector has the index's dimension, as PostgreSQL's `vector(N)` column
/// would.
pub(crate) fn check_dimension<'a>(
    index: &str,
    dimension: Option<u32>,
    vectors: impl IntoIterator<Item = &'a [f32]>,
) -> Result<(), StoreError> {
    let Some(expected) = dimension else { return Ok(()) };
    for v in vectors {
        if v.len() != expected as usize {
            return Err(StoreError::Query {
                context: format!("storing vectors of index {index}"),
                message: format!("expected {expected} dimensions, not {}", v.len()),
            });
        }
    }
    Ok(())
}

/// The dot product, in eight independent sums so the compiler can use vector instructions
/// (a single running sum is a dependency chain it may not reorder).
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (a8, a_rest) = a.split_at(a.len() - a.len() % 8);
    let (b8, b_rest) = b.split_at(a8.len().min(b.len()));
    for (x, y) in a8.chunks_exact(8).zip(b8.chunks_exact(8)) {
        for i in 0..8 {
            sums[i] += x[i] * y[i];
        }
    }
    let tail: f32 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    sums.iter().sum::<f32>() + tail
}

/// `v` scaled to unit length (a zero vector stays zero).
pub(crate) fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = dot(&v, &v).sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// A query prepared for cosine similarity against stored vectors, which are unit length
/// (normalised when written): the similarity is then a dot product.
pub(crate) struct Query {
    unit: Vec<f32>,
    scratch: std::cell::RefCell<Vec<f32>>,
}

impl Query {
    /// Prepares `vector`.
    pub fn new(vector: &[f32]) -> Query {
        Query { unit: normalised(vector.to_vec()), scratch: std::cell::RefCell::new(Vec::new()) }
    }

    /// The query, unit length.
    pub fn unit(&self) -> &[f32] {
        &self.unit
    }

    /// Approximate cosine similarity with a vector quantised by [`quantise`] (one byte per
    /// value); `None` for a vector of another dimension.
    pub fn approximate(&self, bytes: &[u8]) -> Option<f64> {
        if bytes.len() != self.unit.len() {
            return None;
        }
        let mut v = self.scratch.borrow_mut();
        v.clear();
        v.extend(bytes.iter().map(|&b| f32::from(b as i8)));
        Some(f64::from(dot(&self.unit, &v) / QUANTUM))
    }

    /// Cosine similarity with a stored vector (BLOB); `None` for a vector of another
    /// dimension.
    pub fn similarity(&self, blob: &[u8]) -> Option<f64> {
        if blob.len() != self.unit.len() * 4 {
            return None;
        }
        let mut v = self.scratch.borrow_mut();
        v.clear();
        v.extend(blob.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        Some(f64::from(dot(&self.unit, &v)))
    }
}

/// The best `limit` of scored items, kept in a bounded min-heap.
pub(crate) struct TopK<T> {
    limit: usize,
    heap: BinaryHeap<Entry<T>>,
}

struct Entry<T> {
    score: f64,
    id: i64,
    item: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T> Eq for Entry<T> {}

impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Entry<T> {
    /// Reversed, so the heap's top is the worst kept entry (lowest score, then highest id).
    fn cmp(&self, other: &Self) -> Ordering {
        other.score.total_cmp(&self.score).then(self.id.cmp(&other.id))
    }
}

impl<T> TopK<T> {
    /// Keeps the best `limit`.
    pub fn new(limit: usize) -> TopK<T> {
        TopK { limit, heap: BinaryHeap::with_capacity(limit.min(4096) + 1) }
    }

    /// Offers one item.
    pub fn push(&mut self, score: f64, id: i64, item: T) {
        if self.limit == 0 {
            return;
        }
        if self.heap.len() < self.limit {
            self.heap.push(Entry { score, id, item });
        } else if let Some(worst) = self.heap.peek()
            && (score > worst.score || (score == worst.score && id < worst.id))
        {
            self.heap.pop();
            self.heap.push(Entry { score, id, item });
        }
    }

    /// The kept items, best first (ties by id).
    pub fn into_sorted(self) -> Vec<(f64, i64, T)> {
        let mut items: Vec<Entry<T>> = self.heap.into_vec();
        items.sort();
        items.into_iter().map(|e| (e.score, e.id, e.item)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_cosine() {
        let v = [0.6f32, 0.8, 0.0];
        assert_eq!(decode(&encode(&v)), v.to_vec());
        let q = Query::new(&[2.0, 0.0, 0.0]);
        assert!((q.similarity(&encode(&v)).unwrap_or_default() - 0.6).abs() < 1e-6);
        assert!(q.similarity(&encode(&[1.0, 0.0])).is_none(), "another dimension");
        let quantised: Vec<u8> = quantise(&encode(&v)).collect();
        assert_eq!(quantised.len(), 3);
        assert!((q.approximate(&quantised).unwrap_or_default() - 0.6).abs() < 0.01);
        assert_eq!(stored_vector(ValueRef::Blob(&encode(&v)), 1, 7).ok(), Some(&encode(&v)[..]));
        for undecodable in [ValueRef::Blob(&[0, 0, 128]), ValueRef::Blob(&[]), ValueRef::Text(b"v"), ValueRef::Null] {
            assert!(stored_vector(undecodable, 1, 7).is_err(), "{undecodable:?}");
        }
        let long: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let naive: f32 = long.iter().map(|x| x * x).sum();
        assert!((dot(&long, &long) - naive).abs() < 1e-3);
    }

    #[test]
    fn top_k_keeps_the_best_in_order() {
        let mut top = TopK::new(3);
        for (score, id) in [(0.1, 1), (0.9, 2), (0.5, 3), (0.9, 4), (0.7, 5), (0.2, 6)] {
            top.push(score, id, ());
        }
        let ids: Vec<i64> = top.into_sorted().into_iter().map(|(_, id, _)| id).collect();
        assert_eq!(ids, vec![2, 4, 5]);
    }
}
