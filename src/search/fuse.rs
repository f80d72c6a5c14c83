//! Reciprocal Rank Fusion of ranked lists.
//!
//! RRF (Cormack et al., 2009) scores a document by Σ w / (k + rank) over the lists it appears
//! in. It needs no score calibration between retrievers — cosine similarities and text-search
//! ranks are not comparable, their ranks are — and k = 60 is the standard damping.

use std::collections::HashMap;
use std::path::Path;

use crate::chunk::Language;
use crate::store::Scored;

/// The standard RRF damping constant.
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

/// A ranked list of files (best first) that joins the fusion with a weight: every chunk of a
/// listed file gains weight / (k + the file's rank).
#[derive(Debug, Clone, Copy)]
pub struct FileList<'a> {
    /// Paths, best first.
    pub ranked: &'a [String],
    /// Its weight in the fusion; 0 leaves it out.
    pub weight: f64,
}

/// A ranked list of chunks (best first) that joins the fusion with a weight: each chunk gains
/// weight / (k + its rank).
#[derive(Debug, Clone, Copy)]
pub struct ChunkList<'a> {
    /// Hits, best first.
    pub hits: &'a [Scored],
    /// Its weight in the fusion.
    pub weight: f64,
    /// Which raw score of a hit the list reports.
    pub reports: RawScore,
}

/// The raw score a chunk list reports beside the fused one (see [`Fused`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawScore {
    /// The hit's score as a cosine similarity, clamped to 0..1: [`Fused::vector`].
    Similarity,
    /// The hit's score relative to the list's best, 0..1: [`Fused::keyword`].
    RelativeToBest,
    /// Evidence that the question names the hit (a frame, a name, a message): no part of
    /// [`Fused`] reports it.
    Named,
}

/// What is fused: the chunk lists of the retrievers that ran (a list that ran counts even when
/// empty), in the order of the retrievers, and file-level evidence.
#[derive(Debug, Clone, Default)]
pub struct Inputs<'a> {
    /// Ranked chunk lists.
    pub chunk_lists: Vec<ChunkList<'a>>,
    /// Weight of the files ranked by the fused scores of their best few chunks; 0 leaves it
    /// out.
    pub chunk_files: f64,
    /// The share of a chunk list's weight given by score rather than rank: a hit gains
    /// weight × (s − last) / (first − last) / (k + 1) from its score s between the list's first
    /// and last, so hits that score alike gain alike. 0 is pure rank fusion.
    pub by_score: f64,
    /// Further file rankings (whole-file keyword evidence, files the query names). A list
    /// that is empty counts as not run.
    pub file_lists: Vec<FileList<'a>>,
    /// Share of the fused score taken from chunks of prose files ([`is_prose`]); 0 leaves
    /// them as they are.
    pub prose_penalty: f64,
    /// Share of the fused score taken from chunks of auxiliary files (tests, examples, …:
    /// [`paths::auxiliary_kinds`](super::paths::auxiliary_kinds)) of a kind the query does
    /// not ask for; 0 leaves them as they are.
    pub auxiliary_penalty: f64,
    /// The kinds of auxiliary file the query asks for, spared the penalty.
    pub auxiliary_asked: super::paths::AuxiliaryKinds,
    /// Share of the fused score taken from chunks of configuration files
    /// ([`paths::is_config`](super::paths::is_config)); 0 leaves them as they are.
    pub config_penalty: f64,
    /// Share of the fused score taken from chunks of release notes
    /// ([`paths::is_release_notes`](super::paths::is_release_notes)); 0 leaves them as they are.
    pub release_notes_penalty: f64,
    /// A change's scope (`feat(openapi): …`) and the share of the fused score taken from
    /// chunks outside the area it names ([`mentions::within_scope`](super::mentions::within_scope)),
    /// when some chunk lies in a directory called so; none leaves them as they are.
    pub scope: Option<(&'a str, f64)>,
    /// The damping k of Σ w / (k + rank): smaller puts more weight on the first few of
    /// each list. 0 means [`K`].
    pub damping: f64,
}

impl Inputs<'_> {
    /// The damping in force.
    pub fn k(&self) -> f64 {
        if self.damping > 0.0 { self.damping } else { K }
    }

    /// The raw fused score of a chunk first in every list that ran: what [`fuse`] divides by.
    pub fn best_possible(&self) -> f64 {
        let lists = self.file_lists.iter().filter(|l| !l.ranked.is_empty()).map(|l| l.weight.max(0.0)).sum::<f64>();
        (self.chunk_lists.iter().fold(0.0, |sum, l| sum + l.weight) + self.chunk_files.max(0.0) + lists)
            / (self.k() + 1.0)
    }
}

/// Fuses the chunk lists with their weights. A weight of 0 (or a list that did not run)
/// leaves that list out of the normalisation.
///
/// With `chunk_files` > 0 a file-level list joins the fusion: files ranked by the fused
/// scores of their best few chunks. A file that several chunks point to is more likely the
/// one meant than a file with a single lucky chunk, and every chunk of it gains from that.
/// The `file_lists` join the same way, each chunk gaining by its file's rank.
pub fn fuse(inputs: &Inputs<'_>) -> Vec<Fused> {
    let k = inputs.k();
    let mut by_id: HashMap<i64, (Fused, &str)> = HashMap::new();
    let blank = |hit: &Scored| (Fused { id: hit.id, score: 0.0, vector: None, keyword: None }, "");
    for list in &inputs.chunk_lists {
        let top = list.hits.first().map_or(1.0, |s| s.score.max(f64::MIN_POSITIVE));
        let last = list.hits.last().map_or(0.0, |s| s.score);
        let by_score = inputs.by_score.clamp(0.0, 1.0);
        for (rank, hit) in list.hits.iter().enumerate() {
            let entry = by_id.entry(hit.id).or_insert_with(|| blank(hit));
            let spread = if top > last { (hit.score - last) / (top - last) } else { 1.0 };
            entry.0.score += list.weight
                * ((1.0 - by_score) / (k + rank as f64 + 1.0) + by_score * spread.clamp(0.0, 1.0) / (k + 1.0));
            match list.reports {
                RawScore::Similarity => entry.0.vector = Some(hit.score.clamp(0.0, 1.0)),
                RawScore::RelativeToBest => entry.0.keyword = Some((hit.score / top).clamp(0.0, 1.0)),
                RawScore::Named => {}
            }
            entry.1 = &hit.path;
        }
    }
    let chunk_files = if by_id.is_empty() { 0.0 } else { inputs.chunk_files.max(0.0) };
    if chunk_files > 0.0 {
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
            fused.score += chunk_files / (k + rank as f64 + 1.0);
        }
    }
    for list in inputs.file_lists.iter().filter(|l| l.weight > 0.0) {
        let file_rank: HashMap<&str, usize> =
            list.ranked.iter().enumerate().map(|(rank, path)| (path.as_str(), rank)).collect();
        for (fused, path) in by_id.values_mut() {
            if let Some(rank) = file_rank.get(path) {
                fused.score += list.weight / (k + *rank as f64 + 1.0);
            }
        }
    }
    let best = Inputs { chunk_files, ..inputs.clone() }.best_possible();
    let scope = inputs.scope.filter(|(scope, penalty)| {
        *penalty > 0.0 && by_id.values().any(|(_, path)| super::mentions::in_scope_directory(path, scope))
    });
    let mut fused: Vec<(Fused, &str)> = by_id
        .into_values()
        .map(|(mut f, path)| {
            f.score = if best > 0.0 { (f.score / best).clamp(0.0, 1.0) } else { 0.0 };
            if inputs.prose_penalty > 0.0 && is_prose(path) {
                f.score *= 1.0 - inputs.prose_penalty.min(1.0);
            }
            if inputs.auxiliary_penalty > 0.0 && unasked_auxiliary(path, inputs.auxiliary_asked) {
                f.score *= 1.0 - inputs.auxiliary_penalty.min(1.0);
            }
            if inputs.config_penalty > 0.0 && super::paths::is_config(path) {
                f.score *= 1.0 - inputs.config_penalty.min(1.0);
            }
            if inputs.release_notes_penalty > 0.0 && super::paths::is_release_notes(path) {
                f.score *= 1.0 - inputs.release_notes_penalty.min(1.0);
            }
            if let Some((_, penalty)) = scope.filter(|(scope, _)| !super::mentions::within_scope(path, scope)) {
                f.score *= 1.0 - penalty.min(1.0);
            }
            (f, path)
        })
        .collect();
    // Ties by path, then by position in the file (ids ascend within a file): chunk ids alone
    // follow the order files were written in, which differs between runs.
    fused.sort_by(|(a, a_path), (b, b_path)| {
        b.score.total_cmp(&a.score).then_with(|| a_path.cmp(b_path)).then(a.id.cmp(&b.id))
    });
    fused.into_iter().map(|(f, _)| f).collect()
}

/// Whether the file at `path` is auxiliary and of no kind the query asks for.
fn unasked_auxiliary(path: &str, asked: super::paths::AuxiliaryKinds) -> bool {
    let kinds = super::paths::auxiliary_kinds(path);
    !kinds.is_empty() && !kinds.meets(asked)
}

/// Whether a file is prose: Markdown, reStructuredText, plain text, or a file no language
/// claims (`ChangeLog`, `NEWS`). A pasted issue shares many words with release notes and
/// user guides, rarely the module it is about.
pub fn is_prose(path: &str) -> bool {
    match Language::detect(Path::new(path), "") {
        None => true,
        Some(language) => language.is_prose(),
    }
}

/// Puts a ranked list (exact symbol definitions) above everything fused, in its order: the
/// first scores 1 + its length, the last 2 (scores are capped at 1 once indexes are merged).
pub fn put_first(fused: &mut Vec<Fused>, list: &[Scored]) {
    for (rank, hit) in list.iter().enumerate() {
        entry(fused, hit.id).score = 1.0 + (list.len() - rank) as f64;
    }
}

/// Adds a ranked list that joins after fusion (exact symbol definitions) on the fused scale,
/// `inputs` being that fusion's.
pub fn add_ranked(fused: &mut Vec<Fused>, list: &[Scored], weight: f64, inputs: &Inputs<'_>) {
    let (k, best) = (inputs.k(), inputs.best_possible());
    for (rank, hit) in list.iter().enumerate() {
        entry(fused, hit.id).score += weight / (k + rank as f64 + 1.0) / best.max(f64::MIN_POSITIVE);
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

    /// The chunk lists of a vector and a keyword retriever with their weights.
    fn chunk_lists<'a>(
        vector: Option<&'a [Scored]>,
        keyword: Option<&'a [Scored]>,
        (wv, wk): (f64, f64),
    ) -> Vec<ChunkList<'a>> {
        let vector = vector.map(|hits| ChunkList { hits, weight: wv, reports: RawScore::Similarity });
        let keyword = keyword.map(|hits| ChunkList { hits, weight: wk, reports: RawScore::RelativeToBest });
        vector.into_iter().chain(keyword).collect()
    }

    fn list(ids: &[i64]) -> Vec<Scored> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| Scored { id, path: format!("f{}", id % 10), score: 1.0 - i as f64 * 0.1 })
            .collect()
    }

    #[test]
    fn agreement_wins_and_scores_are_normalised() {
        let (v, k) = (list(&[1, 2, 3]), list(&[2, 4]));
        let fused = fuse(&Inputs { chunk_lists: chunk_lists(Some(&v), Some(&k), (1.0, 1.0)), ..Inputs::default() });
        assert_eq!(fused[0].id, 2, "in both lists");
        assert!(fused.iter().all(|f| (0.0..=1.0).contains(&f.score)));
        let only = list(&[7]);
        let solo = fuse(&Inputs { chunk_lists: chunk_lists(Some(&only), None, (1.0, 1.0)), ..Inputs::default() });
        assert_eq!(solo[0].score, 1.0, "first in the only list that ran");
        assert_eq!(solo[0].keyword, None);
    }

    #[test]
    fn ties_go_by_path_not_by_the_order_files_were_written() {
        // Chunk 9 (file f9) was written before chunk 12 (file f2); equal scores rank f2 first.
        let (v, k) = (list(&[9]), list(&[12]));
        let fused = fuse(&Inputs { chunk_lists: chunk_lists(Some(&v), Some(&k), (1.0, 1.0)), ..Inputs::default() });
        assert_eq!(fused.iter().map(|f| f.id).collect::<Vec<_>>(), vec![12, 9]);
    }

    #[test]
    fn by_score_hits_that_score_alike_gain_alike() {
        // Each list's first two are a near tie, and chunk 2 is second in both: by score it gains
        // almost what a first place gains in each.
        let vector = [
            Scored { id: 1, path: "a".into(), score: 0.80 },
            Scored { id: 2, path: "b".into(), score: 0.79 },
            Scored { id: 3, path: "c".into(), score: 0.50 },
        ];
        let keyword = [
            Scored { id: 3, path: "c".into(), score: 9.0 },
            Scored { id: 2, path: "b".into(), score: 8.5 },
            Scored { id: 1, path: "a".into(), score: 1.0 },
        ];
        let inputs = Inputs {
            chunk_lists: chunk_lists(Some(&vector), Some(&keyword), (1.0, 1.0)),
            damping: 5.0,
            ..Inputs::default()
        };
        let ids = |f: Vec<Fused>| f.iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(ids(fuse(&inputs))[0], 1, "by rank, the vector list's first wins the tie");
        let blended = fuse(&Inputs { by_score: 0.5, ..inputs.clone() });
        assert_eq!(ids(blended.clone())[0], 2, "{blended:?}");
        assert!(blended.iter().all(|f| (0.0..=1.0).contains(&f.score)));
    }

    #[test]
    fn prose_is_demoted_when_asked() {
        let keyword = vec![
            Scored { id: 1, path: "doc/whatsnew/2.0.rst".into(), score: 2.0 },
            Scored { id: 2, path: "ChangeLog".into(), score: 1.9 },
            Scored { id: 3, path: "pylint/lint/run.py".into(), score: 1.0 },
        ];
        let inputs = Inputs { chunk_lists: chunk_lists(None, Some(&keyword), (0.0, 1.0)), ..Inputs::default() };
        assert_eq!(fuse(&inputs)[0].id, 1);
        let demoted = fuse(&Inputs { prose_penalty: 0.5, ..inputs.clone() });
        assert_eq!(demoted.iter().map(|f| f.id).collect::<Vec<_>>(), vec![3, 1, 2]);
        assert!(is_prose("README.md") && is_prose("NEWS") && !is_prose("setup.cfg") && !is_prose("a/b.py"));
    }

    #[test]
    fn a_scope_demotes_what_lies_outside_the_directories_called_so() {
        let keyword = vec![
            Scored { id: 1, path: "www/src/pages/pricing.tsx".into(), score: 2.0 },
            Scored { id: 2, path: "packages/openapi/src/generate.ts".into(), score: 1.9 },
            Scored { id: 3, path: "src/openapi.ts".into(), score: 1.8 },
            Scored { id: 4, path: "packages/client/src/link.ts".into(), score: 1.7 },
        ];
        let inputs = Inputs { chunk_lists: chunk_lists(None, Some(&keyword), (0.0, 1.0)), ..Inputs::default() };
        let ids = |f: Vec<Fused>| f.iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(ids(fuse(&inputs)), vec![1, 2, 3, 4]);
        let scoped = fuse(&Inputs { scope: Some(("openapi", 0.5)), ..inputs.clone() });
        assert_eq!(ids(scoped), vec![2, 3, 1, 4], "a file named so is within the scope too");
        let elsewhere = fuse(&Inputs { scope: Some(("server", 0.5)), ..inputs.clone() });
        assert_eq!(ids(elsewhere), vec![1, 2, 3, 4], "no directory is called so: nothing moves");
    }

    #[test]
    fn file_evidence_lifts_chunks_of_files_many_chunks_point_to() {
        // Chunks 12, 22 and 32 share file f2; chunk 1 (file f1) ties with 32 for first place
        // and wins on path without the file list.
        let vector = list(&[1, 12, 22]);
        let keyword = list(&[32, 3]);
        let inputs =
            Inputs { chunk_lists: chunk_lists(Some(&vector), Some(&keyword), (1.0, 1.0)), ..Inputs::default() };
        let plain = fuse(&inputs);
        assert_eq!(plain[0].id, 1);
        let with_files = fuse(&Inputs { chunk_files: 1.0, ..inputs.clone() });
        assert_eq!(with_files[0].id, 32, "{with_files:?}");
        assert!(with_files.iter().all(|f| (0.0..=1.0).contains(&f.score)));
    }

    #[test]
    fn a_file_list_lifts_every_chunk_of_its_files_and_counts_only_when_it_has_files() {
        let vector = list(&[2, 11, 21]);
        let keyword = list(&[31, 3]);
        let named = vec!["f1".to_string()];
        let inputs =
            Inputs { chunk_lists: chunk_lists(Some(&vector), Some(&keyword), (1.0, 1.0)), ..Inputs::default() };
        let lifted = fuse(&Inputs { file_lists: vec![FileList { ranked: &named, weight: 1.0 }], ..inputs.clone() });
        assert_eq!(lifted[0].id, 31, "{lifted:?}");
        let empty: Vec<String> = Vec::new();
        let unchanged = fuse(&Inputs { file_lists: vec![FileList { ranked: &empty, weight: 1.0 }], ..inputs.clone() });
        assert_eq!(unchanged, fuse(&inputs), "an empty list neither lifts nor dilutes");
    }
}
