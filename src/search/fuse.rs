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

/// Chunks of a file that count towards its file-level evidence.
const FILE_EVIDENCE_CHUNKS: usize = 3;

/// Fuses a vector list and a keyword list with these weights. A weight of 0 (or an empty
/// list that did not run) leaves that list out of the normalisation.
///
/// With `file_weight` > 0 a third, file-level list joins the fusion: files ranked by the
/// fused scores of their best few chunks. A file that several chunks point to is more likely
/// the one meant than a file with a single lucky chunk (what whole-file BM25 captures), and
/// every chunk of it gains from that.
pub fn fuse(
    vector: &[Scored],
    keyword: &[Scored],
    weights: (f64, f64),
    file_weight: f64,
    vector_ran: bool,
    keyword_ran: bool,
) -> Vec<Fused> {
    let (wv, wk) = weights;
    let mut by_id: HashMap<i64, (Fused, &str)> = HashMap::new();
    let top_keyword = keyword.first().map_or(1.0, |s| s.score.max(f64::MIN_POSITIVE));
    let blank = |hit: &Scored| (Fused { id: hit.id, score: 0.0, vector: None, keyword: None }, "");
    for (rank, hit) in vector.iter().enumerate() {
        let entry = by_id.entry(hit.id).or_insert_with(|| blank(hit));
        entry.0.score += wv / (K + rank as f64 + 1.0);
        entry.0.vector = Some(hit.score.clamp(0.0, 1.0));
        entry.1 = &hit.path;
    }
    for (rank, hit) in keyword.iter().enumerate() {
        let entry = by_id.entry(hit.id).or_insert_with(|| blank(hit));
        entry.0.score += wk / (K + rank as f64 + 1.0);
        entry.0.keyword = Some((hit.score / top_keyword).clamp(0.0, 1.0));
        entry.1 = &hit.path;
    }
    let file_weight = if by_id.is_empty() { 0.0 } else { file_weight.max(0.0) };
    if file_weight > 0.0 {
        let mut per_file: HashMap<&str, Vec<f64>> = HashMap::new();
        for (fused, path) in by_id.values() {
            per_file.entry(path).or_default().push(fused.score);
        }
        let mut files: Vec<(&str, f64)> = per_file
            .into_iter()
            .map(|(path, mut scores)| {
                scores.sort_by(|a, b| b.total_cmp(a));
                (path, scores.iter().take(FILE_EVIDENCE_CHUNKS).sum())
            })
            .collect();
        files.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        let file_rank: HashMap<&str, usize> = files.iter().enumerate().map(|(rank, (path, _))| (*path, rank)).collect();
        for (fused, path) in by_id.values_mut() {
            let rank = file_rank.get(path).copied().unwrap_or(files.len());
            fused.score += file_weight / (K + rank as f64 + 1.0);
        }
    }
    let best = best_possible(weights, file_weight, vector_ran, keyword_ran);
    let mut fused: Vec<Fused> = by_id
        .into_values()
        .map(|(mut f, _)| {
            f.score = if best > 0.0 { (f.score / best).clamp(0.0, 1.0) } else { 0.0 };
            f
        })
        .collect();
    fused.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    fused
}

/// The raw fused score of a chunk first in every list that ran: what [`fuse`] divides by.
pub fn best_possible(weights: (f64, f64), file_weight: f64, vector_ran: bool, keyword_ran: bool) -> f64 {
    let (wv, wk) = weights;
    (if vector_ran { wv } else { 0.0 } + if keyword_ran { wk } else { 0.0 } + file_weight) / (K + 1.0)
}

/// Adds a ranked list that joins after fusion (exact symbol definitions) on the fused scale,
/// `best` being [`best_possible`] of that fusion.
pub fn add_ranked(fused: &mut Vec<Fused>, list: &[Scored], weight: f64, best: f64) {
    for (rank, hit) in list.iter().enumerate() {
        entry(fused, hit.id).score += weight / (K + rank as f64 + 1.0) / best.max(f64::MIN_POSITIVE);
    }
}

/// The candidate `id` of `fused`, added with score 0 when missing.
pub fn entry(fused: &mut Vec<Fused>, id: i64) -> &mut Fused {
    match fused.iter().position(|f| f.id == id) {
        Some(i) => &mut fused[i],
        None => {
            fused.push(Fused { id, score: 0.0, vector: None, keyword: None });
            let last = fused.len() - 1;
            &mut fused[last]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(ids: &[i64]) -> Vec<Scored> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| Scored { id, path: format!("f{}", id % 10), score: 1.0 - i as f64 * 0.1 })
            .collect()
    }

    #[test]
    fn agreement_wins_and_scores_are_normalised() {
        let fused = fuse(&list(&[1, 2, 3]), &list(&[2, 4]), (1.0, 1.0), 0.0, true, true);
        assert_eq!(fused[0].id, 2, "in both lists");
        assert!(fused.iter().all(|f| (0.0..=1.0).contains(&f.score)));
        let solo = fuse(&list(&[7]), &[], (1.0, 1.0), 0.0, true, false);
        assert_eq!(solo[0].score, 1.0, "first in the only list that ran");
        assert_eq!(solo[0].keyword, None);
    }

    #[test]
    fn file_evidence_lifts_chunks_of_files_many_chunks_point_to() {
        // Chunks 11, 21 and 31 share file f1; chunk 2 (file f2) ties with 31 for first place
        // and wins on id without the file list.
        let vector = list(&[2, 11, 21]);
        let keyword = list(&[31, 3]);
        let plain = fuse(&vector, &keyword, (1.0, 1.0), 0.0, true, true);
        assert_eq!(plain[0].id, 2);
        let with_files = fuse(&vector, &keyword, (1.0, 1.0), 1.0, true, true);
        assert_eq!(with_files[0].id, 31, "{with_files:?}");
        assert!(with_files.iter().all(|f| (0.0..=1.0).contains(&f.score)));
    }
}
