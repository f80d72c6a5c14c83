//! The retrieval stage: every retriever of [`RETRIEVERS`] that the analysed query asks for,
//! run on every index searched, each returning ranked lists ([`Evidence`]) for the fusion.
//!
//! A retriever is one module implementing [`Retriever`] plus its line in [`RETRIEVERS`]; the
//! fusion takes what it returns in that order. Retrievers that need the query's vector run on
//! their own thread after the query is embedded ([`query_vectors`]: one embedding per model
//! among the indexes, tens of milliseconds when not cached), while the others run on the
//! calling thread. A search whose vector retrieval cannot run anywhere degrades to keywords.

mod keyword;
mod mentions;
mod named;
mod path_names;
mod query_vectors;
mod symbols;
mod vector;

use super::analyse::{Analysed, Length, SymbolPlacement};
use super::fuse::RawScore;
use super::readers::Readers;
use super::{SearchError, Searcher};
use crate::embed::VectorTrust;
use crate::store::{IndexMeta, IndexReader, Scored, StoreError, TermStats};

/// A retrieval leg: ranked lists from one index for the query as analysed.
pub(super) trait Retriever: Sync {
    /// Its name in logs (`-vv` prints each one's time).
    fn name(&self) -> &'static str;
    /// What it needs before it can run.
    fn needs(&self) -> Needs;
    /// Whether it runs in this search (a weight of 0, or a query that gives it nothing to
    /// look for, leaves it out).
    fn runs(&self, search: &Analysed<'_>) -> bool;
    /// Its ranked lists from `index`.
    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError>;
}

/// What a retriever needs besides the analysed query and the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Needs {
    /// Nothing more: runs at once.
    Text,
    /// The query's vector, embedded with the index's model ([`Index::query_vector`]).
    QueryVector,
}

/// The retrievers, in the order the fusion takes their lists.
pub(super) static RETRIEVERS: &[&dyn Retriever] = &[
    &vector::Vector,
    &keyword::Keyword,
    &symbols::ExactSymbols,
    &mentions::MentionedFiles,
    &path_names::PathNames,
    &named::NamedCode,
];

/// One index as a retriever reads it.
pub(super) struct Index<'a> {
    /// Its record.
    pub meta: &'a IndexMeta,
    /// Its reader, opened once for the request.
    pub reader: &'a dyn IndexReader,
    /// The query embedded with its model, for retrievers that need it.
    pub query_vector: Option<&'a [f32]>,
    /// How far that model's neighbours can be trusted.
    pub trust: VectorTrust,
    /// The keyword statistics of every index searched together, so BM25 scores mean the same
    /// in each; `None` when one index is searched (its own are read).
    pub pooled: Option<&'a TermStats>,
}

/// A retrieval leg, as the fusion takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leg {
    /// The nearest chunks by vector.
    Vector,
    /// Chunks by BM25.
    Keyword,
    /// Files by BM25 over their chunks together.
    KeywordFiles,
    /// Definitions of the names the query spells.
    ExactDefinitions,
    /// Files the query names by path or module.
    MentionedFiles,
    /// Files whose names answer the query.
    FileNames,
    /// Definitions and raise sites a long question names as code (frames, names, messages).
    NamedCode,
    /// The files of those, and of the question's traceback frames.
    NamedFiles,
    /// Files one step from those in the code graph: callers of the names, imports.
    NamedNeighbours,
}

impl Leg {
    /// The leg's name in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Leg::Vector => "vector",
            Leg::Keyword => "keyword",
            Leg::KeywordFiles => "files by keyword",
            Leg::ExactDefinitions => "exact definitions",
            Leg::MentionedFiles => "files named in the query",
            Leg::FileNames => "file names",
            Leg::NamedCode => "named in the question",
            Leg::NamedFiles => "files named in the question",
            Leg::NamedNeighbours => "callers and imports of what the question names",
        }
    }
}

/// A ranked list a retriever found.
#[derive(Debug, Clone)]
pub(super) enum Evidence {
    /// Chunks, best first, fused by rank with `weight`.
    Chunks {
        /// The hits.
        hits: Vec<Scored>,
        /// Their weight in the fusion.
        weight: f64,
        /// Which raw score the hits report.
        reports: RawScore,
    },
    /// Files, best first: every chunk of a listed file gains by the file's rank.
    Files {
        /// The paths.
        ranked: Vec<String>,
        /// Each path's score, when the leg scores them (BM25 over a file's chunks): lists of
        /// several indexes merge by it. Empty when the list is a ranking only.
        scores: Vec<f64>,
        /// Their weight in the fusion.
        weight: f64,
        /// Which leg listed them (for `analyze`).
        leg: Leg,
    },
    /// Exact symbol definitions, best first, placed after the fusion.
    Exact {
        /// The hits.
        hits: Vec<Scored>,
        /// First, or as evidence on the fused scale.
        placement: SymbolPlacement,
    },
}

/// What the retrieval stage found, and what the search should say about it.
pub(super) struct Retrieved {
    /// Per index, in the order searched: the evidence of every retriever that ran there, in
    /// the order of [`RETRIEVERS`].
    pub evidence: Vec<Vec<Evidence>>,
    /// Whether any index was searched by vector.
    pub searched_vectors: bool,
    /// Why results are worse than usual.
    pub degraded: Option<&'static str>,
    /// Things the user should know.
    pub warnings: Vec<String>,
    /// Whether a query vector came from a cache.
    pub cached_embedding: bool,
}

/// The evidence of some retrievers on one index, each with its place in [`RETRIEVERS`].
type Found = Vec<(usize, Vec<Evidence>)>;

/// Runs the retrievers on every index of `metas`. When no index can be searched by vector,
/// `search`'s weights change to keywords only (and the keyword retriever runs if it did not).
pub(super) fn retrieve(
    searcher: &Searcher<'_>,
    readers: &Readers,
    search: &mut Analysed<'_>,
    metas: &[IndexMeta],
) -> Result<Retrieved, SearchError> {
    let pooled = pooled_statistics(readers, search, metas)?;
    let (vector_found, text_found) = run_concurrently(searcher, readers, search, metas, pooled.as_ref());
    let mut retrieved = Retrieved {
        evidence: Vec::new(),
        searched_vectors: false,
        degraded: None,
        warnings: Vec::new(),
        cached_embedding: false,
    };
    // Per index: the vector retrievers' evidence, or None where none ran.
    let vector_found = match vector_found {
        None => vec![None; metas.len()],
        Some(stage) => query_vectors::account(stage, &mut retrieved, metas.len())?,
    };
    let mut text_found = text_found?;
    if retrieved.degraded.is_some() {
        search.weights.vector = 0.0;
        if search.weights.keyword == 0.0 {
            // Vector search was asked for and cannot run: keywords after all.
            search.weights.keyword = 1.0;
            let pooled = pooled_statistics(readers, search, metas)?;
            for (meta, found) in metas.iter().zip(&mut text_found) {
                let reader = readers.get(&meta.name)?;
                let index =
                    Index { meta, reader, query_vector: None, trust: VectorTrust::Full, pooled: pooled.as_ref() };
                found.extend(run_legs(&newly_running(search, found), search, &index)?);
            }
        }
    }
    retrieved.searched_vectors = vector_found.iter().any(Option::is_some);
    retrieved.evidence = vector_found
        .into_iter()
        .zip(text_found)
        .map(|(vector, text)| {
            let mut found: Found = vector.unwrap_or_default();
            found.extend(text);
            found.sort_by_key(|(position, _)| *position);
            found.into_iter().flat_map(|(_, evidence)| evidence).collect()
        })
        .collect();
    Ok(retrieved)
}

/// The two independent stages on two threads: the query embeddings and then the retrievers
/// that need them, while the text retrievers run here.
fn run_concurrently(
    searcher: &Searcher<'_>,
    readers: &Readers,
    search: &Analysed<'_>,
    metas: &[IndexMeta],
    pooled: Option<&TermStats>,
) -> (Option<query_vectors::Stage>, Result<Vec<Found>, StoreError>) {
    let vector_legs = legs(search, Needs::QueryVector);
    let text_legs = legs(search, Needs::Text);
    let embeds = !vector_legs.is_empty() && metas.iter().any(|m| m.model.is_some());
    std::thread::scope(|scope| {
        let vectors =
            embeds.then(|| scope.spawn(|| query_vectors::run(searcher, readers, search, metas, &vector_legs)));
        let text = |meta: &IndexMeta| {
            let reader = readers.get(&meta.name)?;
            run_legs(&text_legs, search, &Index { meta, reader, query_vector: None, trust: VectorTrust::Full, pooled })
        };
        // Several indexes are read side by side: each one's queries wait on its store, not on
        // the others'.
        let texts = match metas {
            [one] => vec![text(one)],
            _ => {
                let running: Vec<_> = metas.iter().map(|meta| scope.spawn(move || text(meta))).collect();
                running.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
            }
        };
        let texts = texts.into_iter().collect();
        let vectors = vectors.map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        (vectors, texts)
    })
}

/// The keyword statistics of the query's words over every index of `metas` together, when
/// there are several and keywords are searched.
fn pooled_statistics(
    readers: &Readers,
    search: &Analysed<'_>,
    metas: &[IndexMeta],
) -> Result<Option<TermStats>, StoreError> {
    if metas.len() < 2 || search.weights.keyword <= 0.0 {
        return Ok(None);
    }
    let words = super::keywords::words(&search.query);
    let each: Vec<Result<TermStats, StoreError>> = std::thread::scope(|scope| {
        let words = &words;
        let running: Vec<_> =
            metas.iter().map(|meta| scope.spawn(move || readers.get(&meta.name)?.term_stats(words))).collect();
        running.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut pooled = TermStats::default();
    for stats in each {
        let stats = stats?;
        pooled.chunks += stats.chunks;
        pooled.total_length += stats.total_length;
        for (term, df) in stats.df {
            *pooled.df.entry(term).or_default() += df;
        }
    }
    Ok(Some(pooled))
}

/// The retrievers of `needs` that run in `search`, with their places.
fn legs(search: &Analysed<'_>, needs: Needs) -> Vec<(usize, &'static dyn Retriever)> {
    RETRIEVERS.iter().copied().enumerate().filter(|(_, leg)| leg.needs() == needs && leg.runs(search)).collect()
}

/// The text retrievers that run in `search` now but found nothing in `found` yet.
fn newly_running(search: &Analysed<'_>, found: &Found) -> Vec<(usize, &'static dyn Retriever)> {
    legs(search, Needs::Text).into_iter().filter(|(position, _)| found.iter().all(|(p, _)| p != position)).collect()
}

/// Runs `legs` on one index. A long question's legs are heavy (the keyword leg reads thousands
/// of candidates, the named-code leg makes dozens of lookups), so the first runs on a thread of
/// its own beside the others; a short query's run one after another.
fn run_legs(
    legs: &[(usize, &'static dyn Retriever)],
    search: &Analysed<'_>,
    index: &Index<'_>,
) -> Result<Found, StoreError> {
    let run = |&(position, leg): &(usize, &'static dyn Retriever)| {
        let started = std::time::Instant::now();
        let found = leg.retrieve(search, index)?;
        tracing::debug!(index = %index.meta.name, retriever = leg.name(), ms = started.elapsed().as_secs_f64() * 1000.0, "retriever ran");
        Ok((position, found))
    };
    match legs.split_first() {
        Some((first, rest)) if search.length == Length::Long && !rest.is_empty() => std::thread::scope(|scope| {
            let first = scope.spawn(|| run(first));
            let rest: Result<Found, StoreError> = rest.iter().map(run).collect();
            let first = first.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let mut found = vec![first?];
            found.extend(rest?);
            Ok(found)
        }),
        _ => legs.iter().map(run).collect(),
    }
}
