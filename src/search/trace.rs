//! What a search did, stage by stage, for `cocosearch analyze` and the MCP tool
//! `analyze_query`: how the query was read, each retrieval leg's first hits with their scores,
//! the fused order, and the time each stage took. The tool people and we reach for when an
//! answer surprises; the search itself is the same code path ([`Searcher::analyze`](super::Searcher::analyze)).

use super::SearchResponse;
use super::fuse::{Fused, RawScore};
use super::query::QueryKind;
use super::retrieve::Evidence;
use crate::store::IndexMeta;

/// Entries listed per leg and of the fused order.
pub const TOP: usize = 10;

pub use super::retrieve::Leg;

/// How the query was read.
#[derive(Debug, Clone)]
pub struct Reading {
    /// What it looks like.
    pub kind: QueryKind,
    /// Its words outside quoted phrases.
    pub words: usize,
    /// `short` (a question, an identifier) or `long` (a pasted description).
    pub length: &'static str,
    /// The query's keywords (stop words out).
    pub terms: Vec<String>,
    /// How many of them the keyword leg keeps, the rarest in the index first.
    pub max_terms: usize,
    /// The names whose exact definitions are looked up.
    pub symbol_names: Vec<String>,
    /// Where those definitions go: `first`, or `evidence (weight w)`.
    pub definitions: String,
    /// Fusion weights of the vector and keyword legs as asked (before any degradation).
    pub weights: (f64, f64),
    /// The fusion's rank damping k.
    pub damping: f64,
    /// The share of the chunk lists' weight given by score rather than rank.
    pub by_score: f64,
}

/// One entry of a leg: a chunk (with its score) or a file.
#[derive(Debug, Clone)]
pub struct LegEntry {
    /// The file.
    pub path: String,
    /// The chunk's raw score in its leg (cosine, BM25, …); `None` for a file list.
    pub score: Option<f64>,
}

/// One leg's first entries on one index.
#[derive(Debug, Clone)]
pub struct LegTrace {
    /// The index.
    pub index: String,
    /// Which leg.
    pub leg: Leg,
    /// Its weight in the fusion (for exact definitions: 0 when they are put first).
    pub weight: f64,
    /// How many entries it found.
    pub found: usize,
    /// The first [`TOP`].
    pub top: Vec<LegEntry>,
}

/// One candidate of the fused order.
#[derive(Debug, Clone)]
pub struct FusedEntry {
    /// The index.
    pub index: String,
    /// The chunk's file.
    pub path: String,
    /// The chunk id.
    pub chunk: i64,
    /// Fused score, 0..1 (above 1 before capping for definitions put first).
    pub score: f64,
    /// The vector leg's raw score, when the chunk was in it.
    pub vector: Option<f64>,
    /// The keyword leg's score relative to its best, when the chunk was in it.
    pub keyword: Option<f64>,
}

/// Milliseconds each stage took.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    /// Reading the query.
    pub analyse_ms: f64,
    /// Every leg on every index (embedding the query included).
    pub retrieve_ms: f64,
    /// The fusion.
    pub fuse_ms: f64,
    /// Building the hits (reading chunks and context from disk), definitions included.
    pub assemble_ms: f64,
}

/// Everything `analyze` reports.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// How the query was read.
    pub reading: Reading,
    /// Each leg that ran, per index, in the fusion's order.
    pub legs: Vec<LegTrace>,
    /// The first [`TOP`] of the fused order, before hits are assembled.
    pub fused: Vec<FusedEntry>,
    /// A long question's candidate files on the first index, with the evidence the learned
    /// ranking weighed ([`learned`](super::learned)); empty for a short query.
    pub files: Vec<super::learned::FileRow>,
    /// The stages' times.
    pub timings: Timings,
    /// The search's own answer.
    pub response: SearchResponse,
}

/// The legs of `evidence` (per index of `metas`), each cut to its first [`TOP`].
pub(super) fn legs(metas: &[IndexMeta], evidence: &[Vec<Evidence>]) -> Vec<LegTrace> {
    let mut out = Vec::new();
    for (meta, found) in metas.iter().zip(evidence) {
        for e in found {
            let (leg, weight, entries): (Leg, f64, Vec<LegEntry>) = match e {
                Evidence::Chunks { hits, weight, reports } => (
                    match reports {
                        RawScore::Similarity => Leg::Vector,
                        RawScore::RelativeToBest => Leg::Keyword,
                        RawScore::Named => Leg::NamedCode,
                    },
                    *weight,
                    hits.iter().map(|h| LegEntry { path: h.path.clone(), score: Some(h.score) }).collect(),
                ),
                Evidence::Files { ranked, weight, leg, .. } => {
                    (*leg, *weight, ranked.iter().map(|p| LegEntry { path: p.clone(), score: None }).collect())
                }
                Evidence::Exact { hits, placement } => (
                    Leg::ExactDefinitions,
                    match placement {
                        super::analyse::SymbolPlacement::First => 0.0,
                        super::analyse::SymbolPlacement::Evidence(w) => *w,
                    },
                    hits.iter().map(|h| LegEntry { path: h.path.clone(), score: Some(h.score) }).collect(),
                ),
            };
            let found = entries.len();
            out.push(LegTrace {
                index: meta.name.clone(),
                leg,
                weight,
                found,
                top: entries.into_iter().take(TOP).collect(),
            });
        }
    }
    out
}

/// The first [`TOP`] fused candidates, each with its file as the legs reported it.
pub(super) fn fused(
    candidates: &[(&IndexMeta, Fused)],
    metas: &[IndexMeta],
    evidence: &[Vec<Evidence>],
) -> Vec<FusedEntry> {
    let mut paths: std::collections::HashMap<(&str, i64), &str> = std::collections::HashMap::new();
    for (meta, found) in metas.iter().zip(evidence) {
        for e in found {
            if let Evidence::Chunks { hits, .. } | Evidence::Exact { hits, .. } = e {
                for h in hits {
                    paths.insert((meta.name.as_str(), h.id), h.path.as_str());
                }
            }
        }
    }
    candidates
        .iter()
        .take(TOP)
        .map(|(meta, f)| FusedEntry {
            index: meta.name.clone(),
            path: paths.get(&(meta.name.as_str(), f.id)).map(|p| p.to_string()).unwrap_or_default(),
            chunk: f.id,
            score: f.score,
            vector: f.vector,
            keyword: f.keyword,
        })
        .collect()
}
