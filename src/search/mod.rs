//! Search: hybrid retrieval (vector + keyword, fused by rank), filters inside the queries,
//! symbol-exact boosting, result assembly with context, and the query-embedding cache.
//!
//! Scores are in 0..1. The fused score is the RRF score (for a short query half of it by the
//! hits' scores, see `fuse::Inputs::by_score`) divided by the best possible one, so a chunk
//! ranked first by every retriever that ran scores 1. A chunk defining a symbol named
//! exactly as the query scores 1 and ranks first. The vector part is the cosine similarity
//! (clamped to 0..1); the keyword part is relative to the best keyword hit of the query.
//!
//! Architecture invariant: search returns plain structs; the JSON shapes of `--json` and the
//! MCP tools are defined by their presenters (`cli`, `mcp`).

mod analyse;
mod cache;
mod changes;
mod definitions;
pub mod embedders;
mod filter;
mod fuse;
mod keywords;
pub mod learned;
mod lines;
mod mentions;
mod path_names;
mod paths;
pub mod query;
mod readers;
mod results;
mod retrieve;
pub mod structure;
pub mod trace;
mod tuning;
mod union;

use std::path::PathBuf;
use std::time::Instant;

pub use cache::{CacheUse, QueryCache};
pub use definitions::RankedDefinition;
pub use embedders::{Configured, Fixed, QueryEmbedders};
pub use filter::{FilterSpec, normalize_filter};
pub use keywords::Bm25;
pub use query::{Query, QueryKind};
use results::Consistent;
pub use tuning::{FileWeights, Tuning};

use crate::chunk::SymbolKind;
use crate::store::{At, IndexMeta, Store, StoreError};
use analyse::{Analysed, SymbolPlacement};
use readers::Readers;

/// Which retrievers run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl Mode {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Hybrid => "hybrid",
            Mode::Vector => "vector",
            Mode::Keyword => "keyword",
        }
    }
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
    /// The snapshot of the first index to read (the others read their current one).
    pub at: At,
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
    /// Whether the hits answer the query or are only the nearest there is.
    pub verdict: Verdict,
    /// Things the user should know.
    pub warnings: Vec<String>,
    /// Whether the query vector came from a cache.
    pub cached_embedding: bool,
    /// Wall time, milliseconds.
    pub took_ms: f64,
}

/// Whether a search found what it was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The hits answer the query as well as the index can tell.
    Found,
    /// Nothing matches: no hit at all, or a query of identifiers, paths or phrases that no
    /// indexed chunk contains and no definition is named after; the hits are only the nearest
    /// there is, and an agent can stop looking.
    NoGoodMatch,
}

impl Verdict {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Found => "found",
            Verdict::NoGoodMatch => "no_good_match",
        }
    }
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
    /// The query is longer than [`MAX_QUERY_BYTES`].
    #[error("the query is {0} bytes; the limit is {MAX_QUERY_BYTES} — pass the part that describes what you look for")]
    QueryTooLong(usize),
}

/// The longest query searched, in bytes: more than twice the longest issue text of the
/// evaluation (24.8 KB). A query is echoed in every answer, and a megabyte of it broke MCP
/// clients' message limits while adding nothing the embedder (which reads a few hundred
/// tokens) or the keyword stage could use.
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

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

impl Searcher<'_> {
    /// Runs one search: analyse → retrieve (each retriever, on each index) → fuse → assemble.
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResponse, SearchError> {
        Ok(self.run(req, Keep::Response)?.0)
    }

    /// Runs one search exactly as [`Self::search`] does and reports what each stage did
    /// ([`trace::Analysis`]): `cocosearch analyze`, the MCP tool `analyze_query`.
    pub fn analyze(&self, req: &SearchRequest) -> Result<trace::Analysis, SearchError> {
        let (response, traced) = self.run(req, Keep::Trace)?;
        let (reading, legs, fused, files, timings) = traced.ok_or(SearchError::EmptyQuery)?;
        Ok(trace::Analysis { reading, legs, fused, files, timings, response })
    }

    /// One search. A search of several indexes that fails is read again without the indexes
    /// that cannot be read ([`Self::readable`]), so one deleted, damaged or unreachable index
    /// never fails the others; the probe runs only then, so a search that succeeds pays
    /// nothing for it.
    fn run(&self, req: &SearchRequest, keep: Keep) -> Result<(SearchResponse, Option<Traced>), SearchError> {
        let failed = match self.run_consistent(req, keep) {
            Err(e) if req.indexes.len() > 1 => e,
            answer => return answer,
        };
        let (readable, skipped) = self.readable(req);
        if skipped.is_empty() {
            return Err(failed);
        }
        let narrowed = SearchRequest { indexes: readable, ..req.clone() };
        let (mut response, traced) = self.run_consistent(&narrowed, keep)?;
        response.warnings.extend(skipped);
        Ok((response, traced))
    }

    /// The request's indexes that can be read, and a warning for each other one: an index
    /// deleted, damaged or unreachable under a search of several is left out, never failing
    /// the search of the others. The first (the one the request is about) is always kept:
    /// when it cannot be read, the search fails saying why.
    fn readable(&self, req: &SearchRequest) -> (Vec<String>, Vec<String>) {
        let mut kept = Vec::new();
        let mut skipped = Vec::new();
        for (position, name) in req.indexes.iter().enumerate() {
            let probe = || -> Result<(), StoreError> {
                self.store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.clone()))?;
                self.store.reader_at(name, At::Current)?.term_stats(&[])?;
                Ok(())
            };
            match if position == 0 { Ok(()) } else { probe() } {
                Err(e) => {
                    tracing::warn!(index = %name, error = %e, "index left out of the search");
                    skipped.push(format!(
                        "index {name} could not be read and was not searched ({e}) — `cocosearch list` shows the indexes there are"
                    ));
                }
                _ => kept.push(name.clone()),
            }
        }
        (kept, skipped)
    }

    /// One search of the request's indexes, read again when an index run rewrote chunks
    /// between retrieval and assembly (a watcher's run beside a server's search): the ids
    /// retrieved are gone then, and the answer would lose its hits.
    fn run_consistent(&self, req: &SearchRequest, keep: Keep) -> Result<(SearchResponse, Option<Traced>), SearchError> {
        let mut attempt = 1;
        loop {
            match self.run_once(req, keep)? {
                (answer, Consistent::Yes) => return Ok(answer),
                (answer, Consistent::Rewritten) if attempt == READ_ATTEMPTS => return Ok(answer),
                (_, Consistent::Rewritten) => {
                    tracing::debug!(attempt, "chunks were rewritten during the search: reading again");
                    attempt += 1;
                }
            }
        }
    }

    fn run_once(&self, req: &SearchRequest, keep: Keep) -> Result<(Answer, Consistent), SearchError> {
        let started = Instant::now();
        let mut search = analyse::analyse(req, &self.tuning)?;
        search.weighs_files |= keep == Keep::Trace && search.length == analyse::Length::Long;
        let reading = (keep == Keep::Trace).then(|| reading(&search));
        let analysed = started.elapsed();
        let metas = self.indexes(&req.indexes)?;
        let readers = Readers::open(self.store, &metas, req.at)?;
        let retrieved = retrieve::retrieve(self, &readers, &mut search, &metas)?;
        let retrieval = started.elapsed();
        let mode = mode_used(&search, &retrieved);
        let words_found = words_found(&search, &retrieved);
        let (candidates, file_rows) = fuse_indexes(&search, &metas, &retrieved.evidence, req.min_score);
        let fusion = started.elapsed();
        let traced_lists = (keep == Keep::Trace).then(|| {
            let fused = trace::fused(&candidates, &metas, &retrieved.evidence);
            (trace::legs(&metas, &retrieved.evidence), fused, file_rows)
        });
        let mut warnings = retrieved.warnings;
        let focus =
            results::Focus { names: &search.query.symbol_names, name_glob: search.filter.symbol_name_glob.as_ref() };
        let (hits, consistent) =
            results::assemble(&readers, &candidates, req.limit, &req.context, &focus, &mut warnings)?;
        tracing::debug!(
            retrieval_ms = retrieval.as_secs_f64() * 1000.0,
            hits_ms = (started.elapsed() - retrieval).as_secs_f64() * 1000.0,
            "search stages"
        );
        let definitions = self.definitions(&readers, &search, &hits, req.definitions)?;
        let verdict = match words_found {
            _ if hits.is_empty() => Verdict::NoGoodMatch,
            WordsFound::No if search.query.kind == QueryKind::Exact => Verdict::NoGoodMatch,
            _ if names_nothing(&search.query, &readers, &metas)? => Verdict::NoGoodMatch,
            _ => Verdict::Found,
        };
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        let timings = trace::Timings {
            analyse_ms: ms(analysed),
            retrieve_ms: ms(retrieval - analysed),
            fuse_ms: ms(fusion - retrieval),
            assemble_ms: ms(started.elapsed() - fusion),
        };
        let response = SearchResponse {
            hits,
            definitions,
            kind: search.query.kind,
            mode,
            degraded: retrieved.degraded,
            verdict,
            warnings,
            cached_embedding: retrieved.cached_embedding,
            took_ms: started.elapsed().as_secs_f64() * 1000.0,
        };
        let traced = match (reading, traced_lists) {
            (Some(reading), Some((legs, fused, files))) => Some((reading, legs, fused, files, timings)),
            _ => None,
        };
        Ok(((response, traced), consistent))
    }

    /// The `limit` functions and methods of the hits' first files most likely meant (none for 0).
    fn definitions(
        &self,
        readers: &Readers,
        search: &Analysed<'_>,
        hits: &[Hit],
        limit: usize,
    ) -> Result<Vec<RankedDefinition>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let named = search.structure.named_lowercase();
        definitions::rank_definitions(readers, &search.query, &named, hits, limit, &self.tuning, search.max_terms)
    }

    /// The records of the indexes named, or the error for the first one that does not exist.
    fn indexes(&self, names: &[String]) -> Result<Vec<IndexMeta>, StoreError> {
        names
            .iter()
            .map(|name| self.store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.clone())))
            .collect()
    }
}

/// Whether a run keeps what its stages did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The response only (a search).
    Response,
    /// The response and the trace (`analyze`).
    Trace,
}

/// Hits whose candidates are always retrieved, fused and grouped, whatever the limit: a hit's
/// lines and label are the same for every limit up to this many.
pub(super) const STABLE_HITS: usize = 50;

/// How many times a search is read when chunks are rewritten under it.
const READ_ATTEMPTS: u32 = 3;

/// A search's response, and its trace when asked for.
type Answer = (SearchResponse, Option<Traced>);

/// A run's trace, before it is put with its response.
type Traced = (trace::Reading, Vec<trace::LegTrace>, Vec<trace::FusedEntry>, Vec<learned::FileRow>, trace::Timings);

/// How `search` read its query, for [`trace::Reading`].
fn reading(search: &Analysed<'_>) -> trace::Reading {
    trace::Reading {
        kind: search.query.kind,
        words: search.query.words,
        length: match search.length {
            analyse::Length::Short => "short",
            analyse::Length::Long => "long",
        },
        terms: keywords::words(&search.query),
        max_terms: search.max_terms,
        symbol_names: search.symbol_names.clone(),
        definitions: match search.symbols {
            SymbolPlacement::First => "first".to_string(),
            SymbolPlacement::Evidence(w) => format!("evidence (weight {w})"),
        },
        weights: (search.weights.vector, search.weights.keyword),
        damping: search.damping(),
        by_score: search.by_score(),
    }
}

/// Whether any chunk holds the query's words or any definition is named by it.
enum WordsFound {
    Yes,
    No,
    /// Keywords were not searched (vector mode): nothing can be said.
    Unknown,
}

fn words_found(search: &Analysed<'_>, retrieved: &retrieve::Retrieved) -> WordsFound {
    use retrieve::Evidence;
    let found = retrieved.evidence.iter().flatten().any(|e| match e {
        Evidence::Chunks { hits, reports: fuse::RawScore::RelativeToBest, .. } | Evidence::Exact { hits, .. } => {
            !hits.is_empty()
        }
        _ => false,
    });
    match (found, search.weights.keyword > 0.0) {
        (true, _) => WordsFound::Yes,
        (false, true) => WordsFound::No,
        (false, false) => WordsFound::Unknown,
    }
}

/// Whether `query` is one identifier or word (`zzqxv_nonexistent_identifier`, `jsnify`) that
/// no index holds whole: its parts matching common words, or the nearest vectors, find nothing
/// it names.
fn names_nothing(query: &query::Query, readers: &Readers, metas: &[IndexMeta]) -> Result<bool, StoreError> {
    let text = query.text.trim();
    let one_token = text.chars().all(|c| c.is_alphanumeric() || c == '_') && text.chars().any(char::is_alphabetic);
    let terms = crate::chunk::keywords::terms(text);
    let Some(whole) = terms.first().filter(|_| one_token) else { return Ok(false) };
    for meta in metas {
        let stats = readers.get(&meta.name)?.term_stats(std::slice::from_ref(whole))?;
        if stats.df.get(whole).is_some_and(|&df| df > 0) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The retrievers that ran, as the response names them: `hybrid`, `vector` or `keyword`.
fn mode_used(search: &Analysed<'_>, retrieved: &retrieve::Retrieved) -> &'static str {
    match (search.weights.vector > 0.0 && retrieved.searched_vectors, search.weights.keyword > 0.0) {
        (true, true) => "hybrid",
        (true, false) => "vector",
        _ => "keyword",
    }
}

/// The fusion stage: the evidence of every index merged into one set of lists
/// ([`union::merge`]) and fused by rank once, so scores mean the same across indexes; exact
/// definitions placed; scores capped at 1 and those under `min_score` dropped. Also returns
/// the candidate files the learned ranking weighed.
fn fuse_indexes<'m>(
    search: &Analysed<'_>,
    metas: &'m [IndexMeta],
    evidence: &[Vec<retrieve::Evidence>],
    min_score: f64,
) -> (Vec<(&'m IndexMeta, fuse::Fused)>, Vec<learned::FileRow>) {
    let merged;
    let found = match evidence {
        [one] => one,
        _ => {
            merged = union::merge(evidence);
            &merged
        }
    };
    let (fused, mut rows) = fuse_index(search, found);
    let names: Vec<&str> = metas.iter().map(|m| m.name.as_str()).collect();
    for row in &mut rows {
        row.path = union::shown_path(&row.path, &names);
    }
    let mut candidates: Vec<_> = fused
        .into_iter()
        .filter_map(|f| {
            let (position, id) = union::split(f.id);
            Some((metas.get(position)?, fuse::Fused { id, ..f }))
        })
        .collect();
    candidates.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
    for (_, f) in &mut candidates {
        f.score = f.score.min(1.0);
    }
    candidates.retain(|(_, f)| f.score >= min_score);
    (candidates, rows)
}

/// One index's evidence fused: the chunk and file lists by rank (with the files of the best
/// fused chunks, `FileWeights::evidence`), then the exact definitions first or as evidence,
/// and for a long question the scores blended with the learned ranking of its files. Also returns
/// the files the learned ranking weighed.
fn fuse_index(search: &Analysed<'_>, found: &[retrieve::Evidence]) -> (Vec<fuse::Fused>, Vec<learned::FileRow>) {
    use retrieve::Evidence;
    let mut inputs = fuse::Inputs {
        chunk_files: search.files().evidence,
        by_score: search.by_score(),
        prose_penalty: search.prose_penalty(),
        auxiliary_penalty: search.auxiliary_penalty(),
        auxiliary_asked: search.asked_auxiliary(),
        config_penalty: search.config_penalty(),
        release_notes_penalty: search.release_notes_penalty(),
        scope: search.scope(),
        damping: search.damping(),
        ..fuse::Inputs::default()
    };
    for evidence in found {
        match evidence {
            Evidence::Chunks { hits, weight, reports } => {
                inputs.chunk_lists.push(fuse::ChunkList { hits, weight: *weight, reports: *reports });
            }
            Evidence::Files { ranked, weight, .. } => {
                inputs.file_lists.push(fuse::FileList { ranked, weight: *weight })
            }
            Evidence::Exact { .. } => {}
        }
    }
    let mut fused = fuse::fuse(&inputs);
    let rows = if search.weighs_files {
        learned::rows(&fused, found, &search.query.terms.iter().map(|(t, _)| t.clone()).collect())
    } else {
        Vec::new()
    };
    for evidence in found {
        if let Evidence::Exact { hits, placement } = evidence {
            match placement {
                SymbolPlacement::First => fuse::put_first(&mut fused, hits),
                SymbolPlacement::Evidence(weight) => {
                    fuse::add_ranked(&mut fused, hits, *weight, &inputs);
                }
            }
        }
    }
    learned::blend(&mut fused, found, &rows, &search.tuning.file_model, search.tuning.learned_files);
    (fused, rows)
}
