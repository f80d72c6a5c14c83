//! Reciprocal Rank Fusion of ranked lists.
//!
//! RRF (Cormack et al., 2009) scores a document by Σ w / (k + rank) over the lists it appears
//! in. It needs no score calibration between retrievers — cosine similarities and text-search
//! ranks are not comparable, their ranks are — and k = 60 is the standard damping.

use std::collections::HashMap;

use crate::store::Scored;

/// The RRF damping constant.
pub const K: f64 = 60.0;

/// One fused candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    /// Chunk id.
    pub id: i64,
    /// Fused score normalised to 0..1: 1 means first in every list that ran.
    pub score: f64,
    /// The vector list's raw score (cosine similarity), if the chunk was in it.
    pub vector: Option<f64>,
    /// The keyword list's raw score relative to the best keyword hit (0..1), if in it.
    pub keyword: Option<f64>,
}

/// Fuses a vector list and a keyword list with these weights. A weight of 0 (or an empty
/// list that did not run) leaves that list out of the normalisation.
pub fn fuse(
    vector: &[Scored],
    keyword: &[Scored],
    weights: (f64, f64),
    vector_ran: bool,
    keyword_ran: bool,
) -> Vec<Fused> {
    let (wv, wk) = weights;
    let mut by_id: HashMap<i64, Fused> = HashMap::new();
    let top_keyword = keyword.first().map_or(1.0, |s| s.score.max(f64::MIN_POSITIVE));
    for (rank, hit) in vector.iter().enumerate() {
        let entry = by_id.entry(hit.id).or_insert(Fused { id: hit.id, score: 0.0, vector: None, keyword: None });
        entry.score += wv / (K + rank as f64 + 1.0);
        entry.vector = Some(hit.score.clamp(0.0, 1.0));
    }
    for (rank, hit) in keyword.iter().enumerate() {
        let entry = by_id.entry(hit.id).or_insert(Fused { id: hit.id, score: 0.0, vector: None, keyword: None });
        entry.score += wk / (K + rank as f64 + 1.0);
        entry.keyword = Some((hit.score / top_keyword).clamp(0.0, 1.0));
    }
    let best = (if vector_ran { wv } else { 0.0 } + if keyword_ran { wk } else { 0.0 }) / (K + 1.0);
    let mut fused: Vec<Fused> = by_id
        .into_values()
        .map(|mut f| {
            f.score = if best > 0.0 { (f.score / best).clamp(0.0, 1.0) } else { 0.0 };
            f
        })
        .collect();
    fused.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(ids: &[i64]) -> Vec<Scored> {
        ids.iter().enumerate().map(|(i, &id)| Scored { id, score: 1.0 - i as f64 * 0.1 }).collect()
    }

    #[test]
    fn agreement_wins_and_scores_are_normalised() {
        let fused = fuse(&list(&[1, 2, 3]), &list(&[2, 4]), (1.0, 1.0), true, true);
        assert_eq!(fused[0].id, 2, "in both lists");
        assert!(fused.iter().all(|f| (0.0..=1.0).contains(&f.score)));
        let solo = fuse(&list(&[7]), &[], (1.0, 1.0), true, false);
        assert_eq!(solo[0].score, 1.0, "first in the only list that ran");
        assert_eq!(solo[0].keyword, None);
    }
}
