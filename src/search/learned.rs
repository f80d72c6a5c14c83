//! The learned file ranking of a long question: the evidence the retrievers found about each
//! candidate file, weighed by a linear model fitted on public repository histories (a commit's
//! message → the files it modified; `scripts/ranker/`), joins the fusion as one more ranked
//! list of files.
//!
//! Rank fusion gives every list one fixed weight whatever it holds; the model weighs what the
//! lists say about a file together — a file first by keywords and named by a traceback frame
//! is more likely the one meant than the sum of its ranks says, and a file whose name the
//! question spells is likely meant even when its text shares few of the question's words.
//!
//! Each feature is in 0..1; the model's score is their weighted sum ([`Model::score`]), so a
//! weight reads as "how much this evidence is worth".

use std::collections::{HashMap, HashSet};

use super::fuse::{Fused, RawScore};
use super::retrieve::{Evidence, Leg};

/// Files of the first fused order whose evidence is weighed.
pub(super) const CANDIDATE_FILES: usize = 30;

/// The evidence weighed for a file; its discriminant is its place in [`Model::weights`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// 1 / (1 + the file's rank by its best fused chunk).
    FusedRank,
    /// Its best chunk's fused score.
    FusedBest,
    /// The mean fused score of its best three chunks (0 for the missing).
    FusedTopThree,
    /// 1 / (1 + the best rank of its chunks in the keyword list).
    KeywordRank,
    /// Its best chunk's keyword score relative to the list's best.
    KeywordBest,
    /// The share of the keyword list's hits that are its chunks.
    KeywordShare,
    /// 1 / (1 + its rank among files by keyword evidence over their chunks together).
    KeywordFileRank,
    /// 1 / (1 + the best rank of its chunks in the vector list).
    VectorRank,
    /// Its best chunk's cosine similarity.
    VectorBest,
    /// 1 / (1 + the best rank of its chunks among the code the question names).
    NamedCode,
    /// 1 / (1 + its rank among the files the question names (frames, names, messages)).
    NamedFile,
    /// 1 / (1 + its rank among the files one step from those in the code graph).
    NamedNeighbour,
    /// 1 / (1 + its rank among the files the query names by path or module).
    MentionedFile,
    /// 1 / (1 + its rank among the files whose names answer the query).
    FileName,
    /// 1 / (1 + the best rank of its chunks among exact definitions of names the query spells).
    ExactDefinition,
    /// 1 when the question spells the file's name (its stem, 3+ characters) as a word.
    StemSpelled,
    /// The share of the words of the file's name that are words of the question.
    StemWords,
    /// The share of the words of its directories that are words of the question.
    DirectoryWords,
    /// 1 for a test, example, fixture or vendored file.
    Auxiliary,
    /// 1 for prose (Markdown, text, a file no language claims).
    Prose,
    /// 1 for configuration (YAML, TOML, JSON, …).
    Config,
}

/// The features, in the model's order (each at its discriminant).
pub const FEATURES: [Feature; 21] = [
    Feature::FusedRank,
    Feature::FusedBest,
    Feature::FusedTopThree,
    Feature::KeywordRank,
    Feature::KeywordBest,
    Feature::KeywordShare,
    Feature::KeywordFileRank,
    Feature::VectorRank,
    Feature::VectorBest,
    Feature::NamedCode,
    Feature::NamedFile,
    Feature::NamedNeighbour,
    Feature::MentionedFile,
    Feature::FileName,
    Feature::ExactDefinition,
    Feature::StemSpelled,
    Feature::StemWords,
    Feature::DirectoryWords,
    Feature::Auxiliary,
    Feature::Prose,
    Feature::Config,
];

/// A linear model over [`FEATURES`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// One weight per feature, in the order of [`FEATURES`].
    pub weights: [f64; FEATURES.len()],
}

impl Model {
    /// The model's score of a file's features.
    pub fn score(&self, features: &[f64; FEATURES.len()]) -> f64 {
        self.weights.iter().zip(features).map(|(w, x)| w * x).sum()
    }
}

/// The model fitted by `scripts/ranker/fit.py` (its output, pasted).
pub const FITTED: Model = Model {
    weights: [
        1.2986,  // FusedRank
        1.4354,  // FusedBest
        1.7755,  // FusedTopThree
        0.6656,  // KeywordRank
        1.0861,  // KeywordBest
        0.3069,  // KeywordShare
        0.9215,  // KeywordFileRank
        0.0000,  // VectorRank
        0.0000,  // VectorBest
        -0.0090, // NamedCode
        0.3601,  // NamedFile
        0.5407,  // NamedNeighbour
        0.0000,  // MentionedFile
        0.0000,  // FileName
        0.0967,  // ExactDefinition
        0.6050,  // StemSpelled
        1.1052,  // StemWords
        0.4559,  // DirectoryWords
        -1.2173, // Auxiliary
        -1.0964, // Prose
        -0.6415, // Config
    ],
};

/// A candidate file and its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct FileRow {
    /// The file.
    pub path: String,
    /// Its features, in the order of [`FEATURES`].
    pub features: [f64; FEATURES.len()],
}

/// The first [`CANDIDATE_FILES`] files of `fused` (best first) with their evidence in `found`;
/// `query_terms` are the question's keyword terms.
pub(super) fn rows(fused: &[Fused], found: &[Evidence], query_terms: &HashSet<String>) -> Vec<FileRow> {
    let paths = chunk_paths(found);
    let mut files: Vec<(&str, Vec<f64>)> = Vec::new();
    for f in fused {
        let Some(&path) = paths.get(&f.id) else { continue };
        match files.iter().position(|(p, _)| *p == path) {
            Some(i) => files[i].1.push(f.score),
            None if files.len() < CANDIDATE_FILES => files.push((path, vec![f.score])),
            None => {}
        }
    }
    files
        .iter()
        .enumerate()
        .map(|(rank, (path, scores))| {
            let mut x = [0.0; FEATURES.len()];
            let mut set = |feature: Feature, value: f64| x[feature as usize] = value.clamp(0.0, 1.0);
            set(Feature::FusedRank, reciprocal(Some(rank)));
            set(Feature::FusedBest, scores[0].min(1.0));
            set(Feature::FusedTopThree, scores.iter().take(3).map(|s| s.min(1.0)).sum::<f64>() / 3.0);
            for evidence in found {
                chunk_list_features(evidence, path, &mut set);
            }
            let (stem_spelled, stem_words, directory_words) = name_words(path, query_terms);
            set(Feature::StemSpelled, stem_spelled);
            set(Feature::StemWords, stem_words);
            set(Feature::DirectoryWords, directory_words);
            set(Feature::Auxiliary, flag(super::paths::is_auxiliary(path)));
            set(Feature::Prose, flag(super::fuse::is_prose(path)));
            set(Feature::Config, flag(super::paths::is_config(path)));
            FileRow { path: path.to_string(), features: x }
        })
        .collect()
}

/// Gives `share` of each fused chunk's score to its file's probability under `model` (the
/// softmax over the candidate files it was fitted with), relative to the likeliest file's:
/// at 1 the files rank as the model ranks them, at 0 as fused. Chunks of files outside the
/// candidates keep their share of the fused score only. Re-sorts `fused`.
pub(super) fn blend(fused: &mut [Fused], found: &[Evidence], rows: &[FileRow], model: &Model, share: f64) {
    let share = share.clamp(0.0, 1.0);
    if rows.is_empty() || share == 0.0 {
        return;
    }
    let scores: Vec<f64> = rows.iter().map(|r| model.score(&r.features)).collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let relative: HashMap<&str, f64> =
        rows.iter().zip(&scores).map(|(r, s)| (r.path.as_str(), (s - best).exp())).collect();
    let paths = chunk_paths(found);
    for f in fused.iter_mut() {
        let likely = paths.get(&f.id).and_then(|p| relative.get(p)).copied().unwrap_or(0.0);
        f.score = (1.0 - share) * f.score + share * likely;
    }
    let path_of = |f: &Fused| paths.get(&f.id).copied().unwrap_or("");
    fused.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| path_of(a).cmp(path_of(b))).then(a.id.cmp(&b.id)));
}

/// What one retriever's list says about `path`.
fn chunk_list_features(evidence: &Evidence, path: &str, set: &mut impl FnMut(Feature, f64)) {
    match evidence {
        Evidence::Chunks { hits, reports, .. } => {
            let best = hits.iter().position(|h| h.path == path);
            match reports {
                RawScore::RelativeToBest => {
                    let top = hits.first().map_or(1.0, |h| h.score.max(f64::MIN_POSITIVE));
                    let mine = hits.iter().filter(|h| h.path == path).count();
                    set(Feature::KeywordRank, reciprocal(best));
                    set(Feature::KeywordBest, best.map_or(0.0, |i| hits[i].score / top));
                    set(Feature::KeywordShare, mine as f64 / hits.len().max(1) as f64);
                }
                RawScore::Similarity => {
                    set(Feature::VectorRank, reciprocal(best));
                    set(Feature::VectorBest, best.map_or(0.0, |i| hits[i].score));
                }
                RawScore::Named => set(Feature::NamedCode, reciprocal(best)),
            }
        }
        Evidence::Files { ranked, leg, .. } => {
            let value = reciprocal(ranked.iter().position(|p| p == path));
            match leg {
                Leg::KeywordFiles => set(Feature::KeywordFileRank, value),
                Leg::NamedFiles => set(Feature::NamedFile, value),
                Leg::NamedNeighbours => set(Feature::NamedNeighbour, value),
                Leg::MentionedFiles => set(Feature::MentionedFile, value),
                Leg::FileNames => set(Feature::FileName, value),
                _ => {}
            }
        }
        Evidence::Exact { hits, .. } => {
            set(Feature::ExactDefinition, reciprocal(hits.iter().position(|h| h.path == path)));
        }
    }
}

/// Whether the question spells the file's stem as a word, the share of the stem's words and
/// the share of its directories' words that are the question's.
fn name_words(path: &str, query_terms: &HashSet<String>) -> (f64, f64, f64) {
    let (directories, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.split('.').next().unwrap_or(file).to_lowercase();
    let spelled = stem.chars().count() >= 3 && query_terms.contains(&stem);
    let share = |text: &str| {
        let words: HashSet<String> = crate::chunk::keywords::terms(text).into_iter().collect();
        let asked = words.iter().filter(|w| query_terms.contains(*w)).count();
        asked as f64 / words.len().max(1) as f64
    };
    (flag(spelled), share(file.split('.').next().unwrap_or(file)), share(directories))
}

/// The file of every chunk the retrievers found.
fn chunk_paths(found: &[Evidence]) -> HashMap<i64, &str> {
    let mut paths = HashMap::new();
    for evidence in found {
        if let Evidence::Chunks { hits, .. } | Evidence::Exact { hits, .. } = evidence {
            for hit in hits {
                paths.insert(hit.id, hit.path.as_str());
            }
        }
    }
    paths
}

fn reciprocal(rank: Option<usize>) -> f64 {
    rank.map_or(0.0, |r| 1.0 / (1.0 + r as f64))
}

fn flag(on: bool) -> f64 {
    if on { 1.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Scored;

    #[test]
    fn each_feature_sits_at_its_discriminant() {
        for (i, feature) in FEATURES.iter().enumerate() {
            assert_eq!(*feature as usize, i, "{feature:?}");
        }
    }

    #[test]
    fn a_file_the_question_names_and_keywords_find_carries_both() {
        let hit = |id, path: &str, score| Scored { id, path: path.into(), score };
        let found = vec![
            Evidence::Chunks {
                hits: vec![hit(1, "src/app.py", 4.0), hit(2, "src/blueprints.py", 2.0), hit(3, "src/app.py", 1.0)],
                weight: 1.0,
                reports: RawScore::RelativeToBest,
            },
            Evidence::Files {
                ranked: vec!["src/blueprints.py".into()],
                scores: Vec::new(),
                weight: 1.0,
                leg: Leg::NamedFiles,
            },
        ];
        let fused = |id, score| Fused { id, score, vector: None, keyword: None };
        let terms: HashSet<String> = ["blueprints", "register", "src"].map(String::from).into();
        let rows = rows(&[fused(1, 0.9), fused(2, 0.8), fused(3, 0.5)], &found, &terms);
        assert_eq!(rows.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(), ["src/app.py", "src/blueprints.py"]);
        let [app, blueprints] = [&rows[0].features, &rows[1].features];
        assert_eq!((app[Feature::KeywordRank as usize], blueprints[Feature::KeywordRank as usize]), (1.0, 0.5));
        assert_eq!((app[Feature::KeywordShare as usize] * 3.0).round(), 2.0);
        assert_eq!((app[Feature::NamedFile as usize], blueprints[Feature::NamedFile as usize]), (0.0, 1.0));
        assert_eq!(blueprints[Feature::StemSpelled as usize], 1.0);
        assert_eq!(blueprints[Feature::DirectoryWords as usize], 1.0);
        let mut weights = [0.0; FEATURES.len()];
        weights[Feature::StemSpelled as usize] = 4.0;
        let mut blended = vec![fused(1, 0.9), fused(2, 0.8), fused(3, 0.5)];
        blend(&mut blended, &found, &rows, &Model { weights }, 0.5);
        assert_eq!(blended.iter().map(|f| f.id).collect::<Vec<_>>(), [2, 1, 3], "{blended:?}");
        assert!(blended.iter().all(|f| (0.0..=1.0).contains(&f.score)));
    }
}
