//! Several indexes searched as one: each leg's lists from every index merged into one list, so
//! a single fusion ranks the candidates of all of them on one scale.
//!
//! Fusing each index on its own would give every index's best hit the same score, however poor
//! it is; merging first makes the second index's excellent hit outrank the first index's
//! mediocre one. The lists merge by their raw scores, which mean the same in every index:
//! cosine similarities of one model, and BM25 planned on the term statistics of all the
//! indexes together (see `retrieve`). File lists merge by their BM25 when they carry it, and
//! interleave by rank when they are rankings only (files a question names, file names).
//!
//! Invariant: a candidate's id and path are qualified by its index's position ([`qualify`]);
//! position 0 leaves them as they are, so one index fuses exactly as before.

use std::cmp::Ordering;

use super::fuse::RawScore;
use super::retrieve::{Evidence, Leg};
use crate::store::Scored;

/// Bits of a qualified id that hold the chunk's own id.
const ID_BITS: u32 = 44;

/// The id of chunk `id` of the index at `position`.
pub(super) fn qualify(position: usize, id: i64) -> i64 {
    ((position as i64) << ID_BITS) | id
}

/// The index position and chunk id of a qualified id.
pub(super) fn split(qualified: i64) -> (usize, i64) {
    ((qualified >> ID_BITS) as usize, qualified & ((1 << ID_BITS) - 1))
}

/// The path of a file of the index at `position`: its own for the first index, else under a
/// component no real path has, so equal paths of two indexes stay two files.
fn qualify_path(position: usize, path: &str) -> String {
    if position == 0 { path.to_string() } else { format!("\u{1}{position}/{path}") }
}

/// A path as merged evidence carries it, as people read it: the first index's as it is, another
/// index's as `index:path` (`names` are the indexes searched, in order).
pub(super) fn shown_path(path: &str, names: &[&str]) -> String {
    let Some(rest) = path.strip_prefix('\u{1}') else { return path.to_string() };
    match rest.split_once('/') {
        Some((position, path)) => match position.parse::<usize>().ok().and_then(|p| names.get(p)) {
            Some(index) => format!("{index}:{path}"),
            None => path.to_string(),
        },
        None => rest.to_string(),
    }
}

/// Which list of an index's evidence a list is: lists of the same kind merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListKind {
    Chunks(RawScore),
    Files(Leg),
    Exact,
}

fn kind(evidence: &Evidence) -> ListKind {
    match evidence {
        Evidence::Chunks { reports, .. } => ListKind::Chunks(*reports),
        Evidence::Files { leg, .. } => ListKind::Files(*leg),
        Evidence::Exact { .. } => ListKind::Exact,
    }
}

/// The evidence of every index (in the order searched) as the evidence of one index.
pub(super) fn merge(per_index: &[Vec<Evidence>]) -> Vec<Evidence> {
    let mut kinds: Vec<ListKind> = Vec::new();
    for evidence in per_index.iter().flatten() {
        if !kinds.contains(&kind(evidence)) {
            kinds.push(kind(evidence));
        }
    }
    kinds.into_iter().filter_map(|wanted| merge_kind(per_index, wanted)).collect()
}

/// The lists of kind `wanted` from every index, as one.
fn merge_kind(per_index: &[Vec<Evidence>], wanted: ListKind) -> Option<Evidence> {
    let lists: Vec<(usize, &Evidence)> = per_index
        .iter()
        .enumerate()
        .flat_map(|(position, found)| found.iter().filter(|e| kind(e) == wanted).map(move |e| (position, e)))
        .collect();
    let (_, first) = *lists.first()?;
    Some(match first {
        Evidence::Chunks { weight, reports, .. } => {
            let depth = lists.iter().map(|(_, e)| hits_of(e).len()).max().unwrap_or(0);
            let mut hits = by_score(&lists);
            hits.truncate(depth);
            Evidence::Chunks { hits, weight: *weight, reports: *reports }
        }
        Evidence::Exact { placement, .. } => Evidence::Exact { hits: by_score(&lists), placement: *placement },
        Evidence::Files { weight, leg, .. } => {
            let (ranked, scores) = merged_files(&lists);
            Evidence::Files { ranked, scores, weight: *weight, leg: *leg }
        }
    })
}

fn hits_of(evidence: &Evidence) -> &[Scored] {
    match evidence {
        Evidence::Chunks { hits, .. } | Evidence::Exact { hits, .. } => hits,
        Evidence::Files { .. } => &[],
    }
}

/// Every hit of `lists`, qualified, best score first (ties keep the order of the indexes).
fn by_score(lists: &[(usize, &Evidence)]) -> Vec<Scored> {
    let mut hits: Vec<Scored> = lists
        .iter()
        .flat_map(|&(position, e)| {
            hits_of(e).iter().map(move |hit| Scored {
                id: qualify(position, hit.id),
                path: qualify_path(position, &hit.path),
                score: hit.score,
            })
        })
        .collect();
    hits.sort_by(|a, b| b.score.partial_cmp(&a.score).unwrap_or(Ordering::Equal));
    hits
}

/// The files of `lists`, qualified: best score first when every list is scored, else first of
/// each index, then second of each, and so on; with their scores when they have them.
fn merged_files(lists: &[(usize, &Evidence)]) -> (Vec<String>, Vec<f64>) {
    let files: Vec<(usize, &[String], &[f64])> = lists
        .iter()
        .filter_map(|&(position, e)| match e {
            Evidence::Files { ranked, scores, .. } => Some((position, ranked.as_slice(), scores.as_slice())),
            _ => None,
        })
        .collect();
    if files.iter().all(|(_, ranked, scores)| scores.len() == ranked.len()) {
        let mut scored: Vec<(String, f64)> = files
            .iter()
            .flat_map(|(position, ranked, scores)| {
                ranked.iter().zip(scores.iter()).map(move |(path, score)| (qualify_path(*position, path), *score))
            })
            .collect();
        scored.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(Ordering::Equal));
        return scored.into_iter().unzip();
    }
    let longest = files.iter().map(|(_, r, _)| r.len()).max().unwrap_or(0);
    let ranked = (0..longest)
        .flat_map(|rank| {
            files.iter().filter_map(move |(position, r, _)| r.get(rank).map(|p| qualify_path(*position, p)))
        })
        .collect();
    (ranked, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(id: i64, path: &str, score: f64) -> Scored {
        Scored { id, path: path.to_string(), score }
    }

    fn keyword(hits: Vec<Scored>) -> Evidence {
        Evidence::Chunks { hits, weight: 1.0, reports: RawScore::RelativeToBest }
    }

    #[test]
    fn ids_qualified_by_position_split_back() {
        for (position, id) in [(0, 1), (0, 987_654_321), (3, 1), (9, (1 << ID_BITS) - 1)] {
            assert_eq!(split(qualify(position, id)), (position, id));
        }
        assert_eq!(qualify(0, 42), 42, "the first index keeps its ids");
    }

    #[test]
    fn chunk_lists_merge_by_raw_score_at_the_depth_of_the_longest() {
        let a = vec![keyword(vec![hit(1, "a.py", 3.0), hit(2, "b.py", 1.0)])];
        let b = vec![keyword(vec![hit(1, "a.py", 9.0), hit(5, "c.py", 2.0)])];
        let merged = merge(&[a, b]);
        let [Evidence::Chunks { hits, .. }] = merged.as_slice() else { panic!("one chunk list: {merged:?}") };
        let order: Vec<(usize, i64)> = hits.iter().map(|h| split(h.id)).collect();
        assert_eq!(order, [(1, 1), (0, 1)], "best first, cut at the depth of the longest list");
        assert_eq!(hits[0].path, "\u{1}1/a.py", "the same path in two indexes is two files");
        assert_eq!(hits[1].path, "a.py");
    }

    #[test]
    fn lists_only_some_indexes_have_still_merge_and_file_lists_interleave() {
        let files = |ranked: &[&str]| Evidence::Files {
            ranked: ranked.iter().map(|p| p.to_string()).collect(),
            scores: Vec::new(),
            weight: 0.5,
            leg: Leg::FileNames,
        };
        let vector = Evidence::Chunks { hits: vec![hit(7, "v.py", 0.8)], weight: 1.0, reports: RawScore::Similarity };
        let a = vec![vector, files(&["x.py", "y.py"])];
        let b = vec![files(&["z.py"])];
        let merged = merge(&[a, b]);
        assert_eq!(merged.len(), 2);
        let Evidence::Files { ranked, .. } = &merged[1] else { panic!("files second: {merged:?}") };
        assert_eq!(ranked, &["x.py", "\u{1}1/z.py", "y.py"]);
    }

    #[test]
    fn merged_paths_read_as_index_and_path() {
        assert_eq!(shown_path(&qualify_path(0, "a.py"), &["one", "two"]), "a.py");
        assert_eq!(shown_path(&qualify_path(1, "src/a.py"), &["one", "two"]), "two:src/a.py");
    }

    #[test]
    fn scored_file_lists_merge_by_score() {
        let files = |ranked: &[(&str, f64)]| Evidence::Files {
            ranked: ranked.iter().map(|(p, _)| p.to_string()).collect(),
            scores: ranked.iter().map(|(_, s)| *s).collect(),
            weight: 0.5,
            leg: Leg::KeywordFiles,
        };
        let merged = merge(&[vec![files(&[("a.py", 2.0), ("b.py", 1.0)])], vec![files(&[("c.py", 5.0)])]]);
        let [Evidence::Files { ranked, scores, .. }] = merged.as_slice() else { panic!("{merged:?}") };
        assert_eq!(ranked, &["\u{1}1/c.py", "a.py", "b.py"]);
        assert_eq!(scores, &[5.0, 2.0, 1.0]);
    }
}
