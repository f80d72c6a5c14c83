//! Search: hybrid retrieval (vector + keyword, fused by rank), filters inside the queries,
//! symbol-exact boosting, result assembly with context, and the query-embedding cache.
//!
//! Scores are in 0..1. The fused score is the RRF score divided by the best possible one, so
//! a chunk ranked first by every retriever that ran scores 1. A chunk defining a symbol named
//! exactly as the query scores 1 and ranks first. The vector part is the cosine similarity
//! (clamped to 0..1); the keyword part is relative to the best keyword hit of the query.
//!
//! Architecture invariant: search returns plain structs; the JSON shapes of `--json` and the
//! MCP tools are defined by their presenters (`cli`, `mcp`).

mod cache;
mod definitions;
pub mod embedders;
mod fuse;
mod keywords;
mod lines;
mod mentions;
pub mod query;
mod readers;
mod results;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub use cache::{CacheUse, QueryCache};
pub use definitions::RankedDefinition;
pub use embedders::{Configured, Fixed, QueryEmbedders};
pub use keywords::Bm25;
pub use query::{Query, QueryKind};

use crate::chunk::{Language, SymbolKind};
use crate::embed::{EmbedError, Embedder};
use crate::store::glob::{NameGlob, PathGlob};
use crate::store::{IndexMeta, IndexReader, Scored, SearchFilter, Store, StoreError, VectorAccuracy};
use readers::Readers;

/// Which retrievers run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Both, weighted by what the query looks like.
    Auto,
    /// Both, equally weighted.
    Hybrid,
    /// Vector search only.
    Vector,
    /// Keyword search only.
    Keyword,
}

/// Context around hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextOptions {
    /// Expand a hit that is part of a larger definition to the whole definition, when that
    /// fits `max_lines`.
    pub smart: bool,
    /// Lines to add before each hit, read from the file on disk.
    pub before: usize,
    /// Lines to add after each hit.
    pub after: usize,
    /// Cap on the lines of a smart-expanded hit.
    pub max_lines: usize,
}

/// A search.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// The query text.
    pub query: String,
    /// Indexes to search (results are merged by score).
    pub indexes: Vec<String>,
    /// Results to return.
    pub limit: usize,
    /// Results scoring below this are dropped.
    pub min_score: f64,
    /// Retrievers.
    pub mode: Mode,
    /// Languages (any spelling or alias), path glob, symbol kinds and symbol-name glob.
    pub filter: FilterSpec,
    /// Context around hits.
    pub context: ContextOptions,
    /// Answer from the query-embedding cache when it holds the query; `false` computes the
    /// vector again and replaces the cached one.
    pub use_cache: bool,
    /// How many ranked definitions to return with the hits (see [`definitions`]); 0: none.
    pub definitions: usize,
}

/// One result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The index it came from.
    pub index: String,
    /// The index's root.
    pub root: PathBuf,
    /// Path relative to the root.
    pub path: String,
    /// First line shown, 1-based.
    pub start_line: u32,
    /// Last line shown.
    pub end_line: u32,
    /// Language id.
    pub language: String,
    /// Primary symbol kind.
    pub symbol_type: Option<SymbolKind>,
    /// Primary symbol name.
    pub symbol_name: Option<String>,
    /// Primary symbol qualified name.
    pub qualified_name: Option<String>,
    /// Primary symbol signature.
    pub signature: Option<String>,
    /// Qualified names of every definition in the hit.
    pub symbols: Vec<String>,
    /// The definition the hit lies inside, when it does not start one itself (a piece of a
    /// long method).
    pub enclosing: Option<String>,
    /// Fused score, 0..1.
    pub score: f64,
    /// Vector part (cosine similarity), when the vector retriever found it.
    pub vector_score: Option<f64>,
    /// Keyword part (relative to the best keyword hit), when the keyword retriever found it.
    pub keyword_score: Option<f64>,
    /// Parse status of the chunk(s): the first that is not ok.
    pub parse_status: crate::chunk::ParseStatus,
    /// The text of lines `start_line..=end_line`.
    pub content: String,
    /// Lines before `start_line` (`-B`/`-C`), from disk.
    pub before: Vec<String>,
    /// Lines after `end_line` (`-A`/`-C`), from disk.
    pub after: Vec<String>,
    /// The file changed on disk since it was indexed.
    pub stale: bool,
}

/// The answer to a search.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResponse {
    /// The hits, best first.
    pub hits: Vec<Hit>,
    /// The functions and methods of the first files most likely meant, best first (as many
    /// as [`SearchRequest::definitions`] asked for).
    pub definitions: Vec<RankedDefinition>,
    /// The query as analysed.
    pub kind: QueryKind,
    /// The retrievers that ran: `hybrid`, `vector` or `keyword`.
    pub mode: &'static str,
    /// Why results are worse than usual (`keyword-only` when the embedder failed).
    pub degraded: Option<&'static str>,
    /// Things the user should know.
    pub warnings: Vec<String>,
    /// Whether the query vector came from a cache.
    pub cached_embedding: bool,
    /// Wall time, milliseconds.
    pub took_ms: f64,
}

/// A search failure.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The store failed (including "no index named X").
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A filter value is not allowed.
    #[error("{0}")]
    InvalidFilter(String),
    /// The query is empty.
    #[error("the query is empty — pass some words, an identifier or a \"phrase\"")]
    EmptyQuery,
}

/// How many candidates each retriever returns per requested result.
const DEPTH_FACTOR: usize = 5;
/// The fewest candidates each retriever returns.
const MIN_DEPTH: usize = 50;
/// Query terms kept for keyword search, rarest first.
const MAX_TERMS: usize = 32;
/// Chunks that single keywords may select for scoring (see [`keywords`]): it bounds the
/// keyword stage's work whatever the size of the index.
const KEYWORD_BUDGET: u64 = 3000;

/// Filters as the user spells them (`--lang ts`, `--path src/api`, `--symbol-type fn`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterSpec {
    /// Language names or aliases; empty means all.
    pub languages: Vec<String>,
    /// A path glob (see [`PathGlob`] for what it matches).
    pub path_glob: Option<String>,
    /// Symbol kinds; empty means all.
    pub symbol_types: Vec<String>,
    /// A case-insensitive glob on symbol names.
    pub symbol_name_glob: Option<String>,
}

/// Turns user spellings into canonical filter values, or says what is allowed.
pub fn normalize_filter(filter: &FilterSpec) -> Result<SearchFilter, SearchError> {
    let languages = filter
        .languages
        .iter()
        .map(|l| {
            Language::from_name(l.trim()).map(|l| l.name().to_string()).ok_or_else(|| {
                let known: Vec<&str> = Language::all().iter().map(|l| l.name()).collect();
                SearchError::InvalidFilter(format!("unknown language {l:?} — use one of: {}", known.join(", ")))
            })
        })
        .collect::<Result<_, _>>()?;
    let symbol_types = filter
        .symbol_types
        .iter()
        .map(|t| {
            t.trim().parse::<SymbolKind>().map_err(|_| {
                let known: Vec<&str> = SymbolKind::all().iter().map(|k| k.as_str()).collect();
                SearchError::InvalidFilter(format!("unknown symbol type {t:?} — use one of: {}", known.join(", ")))
            })
        })
        .collect::<Result<_, _>>()?;
    let invalid = |e: crate::store::glob::GlobError| SearchError::InvalidFilter(e.to_string());
    Ok(SearchFilter {
        languages,
        symbol_types,
        path_glob: filter.path_glob.as_deref().map(PathGlob::new).transpose().map_err(invalid)?,
        symbol_name_glob: filter.symbol_name_glob.as_deref().map(NameGlob::new).transpose().map_err(invalid)?,
    })
}

/// Runs searches against a store, with an optional embedder and cache.
pub struct Searcher<'a> {
    /// The store.
    pub store: &'a dyn Store,
    /// The embedder for query vectors against each index (its own model); `None` for an
    /// index means keyword search only there.
    pub embedders: &'a dyn QueryEmbedders,
    /// The in-process query-vector cache.
    pub cache: &'a QueryCache,
    /// Retrieval knobs; the defaults are what the evaluation chose.
    pub tuning: Tuning,
}

/// Retrieval knobs, compared by `cocosearch-eval`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// A query of more words than this is a description (a pasted issue, a paragraph):
    /// weighted as plain language whatever identifiers it mentions. 0 turns the rule off.
    pub long_query_words: usize,
    /// Whether exact symbol definitions named in a long query are put first.
    pub long_query_symbols: bool,
    /// Fusion weights (vector, keyword) of a long query in [`Mode::Auto`].
    pub long_query_weights: (f64, f64),
    /// When symbols of a long query are not put first: the weight of their exact definitions
    /// as one more ranked list in the fusion (0: not searched).
    pub long_query_symbol_weight: f64,
    /// Keywords kept for a long query (rarest first); short queries keep [`MAX_TERMS`].
    pub long_query_terms: usize,
    /// Weight of the files ranked by their best fused chunks (see [`fuse::fuse`]); 0 leaves
    /// them out.
    pub file_evidence: f64,
    /// Weight of the files ranked by keyword evidence over their chunks together
    /// ([`keywords::rank_files`]); 0 leaves them out.
    pub file_keyword: f64,
    /// Weight of the files the query names by path or module ([`mentions`]); 0 ignores them.
    pub mentioned_files: f64,
    /// For a long query (a pasted issue): the share of the score taken from chunks of prose
    /// files (release notes, user guides; [`fuse::is_prose`]); 0 ranks them like code.
    pub long_query_prose_penalty: f64,
    /// Chunks that single keywords may select for scoring (see [`keywords::Limits`]).
    pub keyword_budget: u64,
    /// A keyword in at most this share of the chunks is rare enough to select candidates.
    pub rare_share: f64,
    /// BM25's parameters for keyword ranking.
    pub bm25: keywords::Bm25,
    /// BM25's parameters for ranking files by their chunks together
    /// ([`keywords::rank_files`]): `b` is how much a big module's length counts against it.
    pub file_bm25: keywords::Bm25,
    /// Files, best first, whose functions and methods are ranked as definitions.
    pub definition_files: usize,
    /// A definition's prior for its file's rank r (0-based): this / (r + 1), beside its BM25
    /// evidence normalised to at most 1.
    pub definition_file_prior: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            long_query_words: 20,
            long_query_symbols: false,
            long_query_weights: (1.0, 1.0),
            // 1.0 rather than 1.5: hybrid file Acc@1 43.5 -> 46.8 (better on requests and
            // pylint, equal on pytest), Acc@5 the same on each repository (2026-11-24).
            long_query_symbol_weight: 1.0,
            long_query_terms: MAX_TERMS,
            // Measured with `cocosearch-eval --variants` on the 62 public tasks (keyword-only
            // file Acc@5 59.7 -> 69.4, held-out rotation 67.7; see README, Quality).
            file_evidence: 0.5,
            file_keyword: 0.5,
            mentioned_files: 0.0,
            long_query_prose_penalty: 0.5,
            keyword_budget: KEYWORD_BUDGET,
            rare_share: keywords::RARE_SHARE,
            bm25: keywords::Bm25::default(),
            file_bm25: keywords::Bm25::default(),
            // Measured on the 60 public tasks with gold functions (function Acc@5: 5 files and
            // 0.25 beside 4–10 files and 0.2–0.3, a plateau; see README, Quality).
            definition_files: 5,
            definition_file_prior: 0.25,
        }
    }
}

impl Searcher<'_> {
    /// Runs one search.
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResponse, SearchError> {
        let started = Instant::now();
        if req.query.trim().is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let filter = normalize_filter(&req.filter)?;
        let mut query = query::analyze(&req.query);
        let long = self.tuning.long_query_words > 0 && query.words > self.tuning.long_query_words;
        let symbols_first = !long || self.tuning.long_query_symbols;
        let symbol_names = query.symbol_names.clone();
        if !symbols_first {
            query.symbol_names.clear();
        }
        let max_terms = if long { self.tuning.long_query_terms } else { MAX_TERMS };
        let metas: Vec<IndexMeta> = req
            .indexes
            .iter()
            .map(|name| self.store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.clone())))
            .collect::<Result<_, _>>()?;
        let readers = Readers::open(self.store, &metas)?;

        let (mut wv, mut wk) = match req.mode {
            Mode::Auto if long => self.tuning.long_query_weights,
            Mode::Auto => query::weights(query.kind),
            Mode::Hybrid => (1.0, 1.0),
            Mode::Vector => (1.0, 0.0),
            Mode::Keyword => (0.0, 1.0),
        };
        let depth = (req.limit * DEPTH_FACTOR).max(MIN_DEPTH);
        let models: Vec<&str> =
            if wv > 0.0 { metas.iter().filter_map(|m| m.model.as_deref()).collect() } else { Vec::new() };
        let keyword_hits = |meta: &IndexMeta| -> Result<(Vec<Scored>, Vec<String>), SearchError> {
            let reader = readers.get(&meta.name)?;
            let plan = self.plan_keywords(reader, &query, max_terms, depth)?;
            let candidates = reader.keyword_candidates(&plan.query, &filter)?;
            let files = if self.tuning.file_keyword > 0.0 {
                keywords::rank_files(&plan, &candidates, self.tuning.file_bm25)
            } else {
                Vec::new()
            };
            let mut ranked = keywords::rank(&plan, &candidates, self.tuning.bm25);
            ranked.truncate(depth);
            Ok((ranked, files))
        };
        let lexical = |meta: &IndexMeta| -> Result<Lexical, SearchError> {
            let (keyword, keyword_files) = if wk > 0.0 { keyword_hits(meta)? } else { Default::default() };
            let symbol = if symbols_first || self.tuning.long_query_symbol_weight > 0.0 {
                readers.get(&meta.name)?.symbol_search(&symbol_names, &filter, 10)?
            } else {
                Vec::new()
            };
            let mentioned = if self.tuning.mentioned_files > 0.0 && mentions::may_name_files(&req.query) {
                let files = readers.get(&meta.name)?.file_states(None)?;
                mentions::mentioned_files(&req.query, files.keys().map(String::as_str))
            } else {
                Vec::new()
            };
            Ok(Lexical { keyword, keyword_files, symbol, mentioned })
        };
        let cache_use = if req.use_cache { CacheUse::ReadWrite } else { CacheUse::Refresh };
        // Two independent stages on two threads: the query embeddings (tens of milliseconds
        // when not cached; one per model among the indexes) and then vector search, while
        // keyword and symbol search run here.
        let (semantic, lexicals) = std::thread::scope(|scope| {
            let semantic = (!models.is_empty())
                .then(|| scope.spawn(|| self.semantic(&metas, &readers, &req.query, cache_use, &filter, depth)));
            let lexicals: Result<Vec<Lexical>, SearchError> = metas.iter().map(lexical).collect();
            let semantic =
                semantic.map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            (semantic, lexicals)
        });

        let mut warnings = Vec::new();
        let mut degraded = None;
        let mut cached_embedding = false;
        // Per index: vector hits, or None where no vector search ran.
        let mut vector_lists: Vec<Option<Vec<Scored>>> = vec![None; metas.len()];
        match semantic {
            None => {}
            Some(Semantic { embedders: 0, .. }) => {
                degraded = Some("keyword-only");
                warnings.push("embeddings are off (embedding.provider: none): keyword results only".to_string());
            }
            Some(Semantic { hits, cached, misfits, failures, .. }) => {
                cached_embedding = cached;
                vector_lists = hits?;
                let none_searched = vector_lists.iter().all(Option::is_none);
                if none_searched {
                    degraded = Some("keyword-only");
                }
                let consequence = |indexes: &[String]| {
                    if none_searched {
                        "showing keyword results only".to_string()
                    } else {
                        format!("{} answered from keywords only", indexes.join(", "))
                    }
                };
                for (indexes, e) in failures {
                    warnings.push(format!("{} — {}", query_embed_error(&e), consequence(&indexes)));
                }
                for Misfit { index, dimension, got, model } in misfits {
                    warnings.push(format!(
                        "the embedder returned a {got}-dimensional query vector for {model}, but index {index} holds {dimension}-dimensional vectors — check embedding.model and the model the server serves (or rebuild the index with `cocosearch index --fresh`); {}",
                        consequence(std::slice::from_ref(&index))
                    ));
                }
            }
        }
        let mut lexicals = lexicals?;
        if degraded.is_some() {
            wv = 0.0;
            if wk == 0.0 {
                // Vector search was asked for and cannot run: keywords after all.
                wk = 1.0;
                for (meta, found) in metas.iter().zip(&mut lexicals) {
                    (found.keyword, found.keyword_files) = keyword_hits(meta)?;
                }
            }
        }
        let retrieved = started.elapsed();
        let searched_vectors = vector_lists.iter().any(Option::is_some);

        let mut candidates = Vec::new();
        for ((meta, vector_hits), found) in metas.iter().zip(vector_lists).zip(lexicals) {
            let Lexical { keyword: keyword_hits, keyword_files, symbol: symbol_hits, mentioned } = found;
            let inputs = fuse::Inputs {
                vector: vector_hits.as_deref(),
                keyword: (wk > 0.0).then_some(keyword_hits.as_slice()),
                weights: (wv, wk),
                chunk_files: self.tuning.file_evidence,
                file_lists: vec![
                    fuse::FileList { ranked: &keyword_files, weight: self.tuning.file_keyword },
                    fuse::FileList { ranked: &mentioned, weight: self.tuning.mentioned_files },
                ],
                prose_penalty: if long { self.tuning.long_query_prose_penalty } else { 0.0 },
            };
            let mut fused = fuse::fuse(&inputs);
            if symbols_first {
                // Exact symbol definitions first.
                for (rank, s) in symbol_hits.iter().enumerate() {
                    fuse::entry(&mut fused, s.id).score = 1.0 + (symbol_hits.len() - rank) as f64;
                }
            } else {
                // Exact definitions as evidence, on the fused scale.
                let best = inputs.best_possible();
                fuse::add_ranked(&mut fused, &symbol_hits, self.tuning.long_query_symbol_weight, best);
            }
            candidates.extend(fused.into_iter().map(|f| (meta, f)));
        }
        candidates.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
        for (_, f) in &mut candidates {
            f.score = f.score.min(1.0);
        }
        candidates.retain(|(_, f)| f.score >= req.min_score);

        let focus = results::Focus { names: &query.symbol_names, name_glob: filter.symbol_name_glob.as_ref() };
        let hits = results::assemble(&readers, &candidates, req.limit, &req.context, &focus, &mut warnings)?;
        tracing::debug!(
            retrieval_ms = retrieved.as_secs_f64() * 1000.0,
            hits_ms = (started.elapsed() - retrieved).as_secs_f64() * 1000.0,
            "search stages"
        );
        let definitions = if req.definitions > 0 {
            definitions::rank_definitions(&readers, &query, &hits, req.definitions, &self.tuning, max_terms)?
        } else {
            Vec::new()
        };
        let mode = match (wv > 0.0 && searched_vectors, wk > 0.0) {
            (true, true) => "hybrid",
            (true, false) => "vector",
            _ => "keyword",
        };
        Ok(SearchResponse {
            hits,
            definitions,
            kind: query.kind,
            mode,
            degraded,
            warnings,
            cached_embedding,
            took_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// The query embedded once per model among `metas` (each index's own model), and the
    /// vector search of every index that has vectors.
    fn semantic(
        &self,
        metas: &[IndexMeta],
        readers: &Readers,
        query: &str,
        cache_use: CacheUse,
        filter: &SearchFilter,
        depth: usize,
    ) -> Semantic {
        // Indexes grouped by the embedder of their queries (one per model).
        let mut groups: Vec<(Arc<dyn Embedder>, Vec<usize>)> = Vec::new();
        for (i, meta) in metas.iter().enumerate() {
            if meta.model.is_none() {
                continue;
            }
            let Some(embedder) = self.embedders.for_index(meta) else { continue };
            match groups.iter_mut().find(|(e, _)| Arc::ptr_eq(e, &embedder)) {
                Some((_, members)) => members.push(i),
                None => groups.push((embedder, vec![i])),
            }
        }
        let mut semantic = Semantic {
            hits: Ok(vec![None; metas.len()]),
            cached: false,
            misfits: Vec::new(),
            failures: Vec::new(),
            embedders: groups.len(),
        };
        let mut hits: Vec<Option<Vec<Scored>>> = vec![None; metas.len()];
        for (embedder, members) in groups {
            // The length the query vector must have: that of the indexes' vectors, when they agree.
            let mut dimensions: Vec<usize> =
                members.iter().filter_map(|&i| metas[i].dimension).map(|d| d as usize).collect();
            dimensions.sort_unstable();
            dimensions.dedup();
            let expected = match dimensions.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            let (vector, cached) = match self.cache.vector(self.store, embedder.as_ref(), query, cache_use, expected) {
                Ok(found) => found,
                Err(e) => {
                    semantic.failures.push((members.iter().map(|&i| metas[i].name.clone()).collect(), e));
                    continue;
                }
            };
            semantic.cached |= cached;
            for i in members {
                let meta = &metas[i];
                // An index whose vectors have another length cannot be searched with this
                // one: it answers from keywords, and the search says why.
                match meta.dimension {
                    Some(d) if d as usize != vector.len() => semantic.misfits.push(Misfit {
                        index: meta.name.clone(),
                        dimension: d as usize,
                        got: vector.len(),
                        model: embedder.info().model,
                    }),
                    _ => match readers
                        .get(&meta.name)
                        .and_then(|r| r.vector_search(&vector, filter, depth, VectorAccuracy::Usual))
                    {
                        Ok(found) => hits[i] = Some(found),
                        Err(e) => {
                            semantic.hits = Err(e);
                            return semantic;
                        }
                    },
                }
            }
        }
        semantic.hits = Ok(hits);
        semantic
    }

    /// The keyword query for one index, planned on its term statistics.
    fn plan_keywords(
        &self,
        reader: &dyn IndexReader,
        query: &Query,
        max_terms: usize,
        depth: usize,
    ) -> Result<keywords::Plan, StoreError> {
        let stats = reader.term_stats(&keywords::words(query))?;
        let limits = keywords::Limits {
            max_terms,
            budget: self.tuning.keyword_budget,
            wanted: depth as u64,
            rare_share: self.tuning.rare_share,
        };
        Ok(keywords::plan(query, &stats, limits))
    }
}

/// What the query-embedding stage found: vector hits per index (`None` where no vector search
/// ran), whether a vector came from a cache, the indexes a vector did not fit, the embedders
/// that failed (with the indexes that needed them), and how many embedders there were.
struct Semantic {
    hits: Result<Vec<Option<Vec<Scored>>>, StoreError>,
    cached: bool,
    misfits: Vec<Misfit>,
    failures: Vec<(Vec<String>, EmbedError)>,
    embedders: usize,
}

/// An index whose vectors have another length than its query vector.
struct Misfit {
    index: String,
    dimension: usize,
    got: usize,
    model: String,
}

/// What the keyword, symbol and file-mention stages found in one index.
struct Lexical {
    keyword: Vec<Scored>,
    /// Files ranked by keyword evidence over their chunks together.
    keyword_files: Vec<String>,
    symbol: Vec<Scored>,
    /// Files the query names.
    mentioned: Vec<String>,
}

fn query_embed_error(e: &EmbedError) -> String {
    match e {
        // A built-in model that is neither cached nor downloadable: the fix is ours to name
        // (a server's is the operator's business, and its hint would only repeat itself).
        EmbedError::Unreachable { provider, url, reason, hint } if *provider == crate::embed::builtin::HUB => {
            format!("the built-in model is not here and {provider} is not reachable at {url} ({reason}) — {hint}")
        }
        EmbedError::Unreachable { provider, url, reason, .. } => {
            format!("{provider} not reachable at {url} ({reason})")
        }
        other => other.to_string(),
    }
}
