//! The one way a presenter builds a search: [`SearchInput`] holds what the person, agent or
//! browser asked for (`None`: the project's setting), [`request`] applies the project's
//! defaults (`search.*`, `linkedIndexes`) and the presenter's bounds and returns the
//! [`SearchRequest`] the engine runs. `cocosearch search`, `search_code` and `/api/search`
//! all go through it, so they cannot drift apart.
//!
//! [`Embedders`] gives each searched index the embedder of its own model from the workspace's
//! shared embedders (`search::embedders`).

use std::sync::Arc;

use super::Workspace;
use crate::config::{Config, EmbeddingSettings};
use crate::search::{ContextOptions, FilterSpec, Mode, QueryEmbedders, SearchRequest};
use crate::store::At;

/// What a search asks for. `None` takes the project's setting.
#[derive(Debug, Clone)]
pub struct SearchInput {
    /// The query text.
    pub query: String,
    /// The indexes named; empty: the project's own index and its `linkedIndexes`.
    pub indexes: Vec<String>,
    /// Results wanted (`search.resultLimit`).
    pub limit: Option<usize>,
    /// The lowest score kept (`search.minScore`).
    pub min_score: Option<f64>,
    /// The retrievers.
    pub mode: Mode,
    /// Languages, path glob, symbol kinds and symbol-name glob.
    pub filter: FilterSpec,
    /// Lines before each hit (else `around`, else none).
    pub before: Option<usize>,
    /// Lines after each hit (else `around`, else none).
    pub after: Option<usize>,
    /// Lines on both sides of each hit.
    pub around: Option<usize>,
    /// Smart context (`search.smartContext`).
    pub smart: Option<bool>,
    /// Cap on a hit's lines, within `search.maxContextLines`.
    pub max_lines: Option<usize>,
    /// Whether the query-embedding cache may answer.
    pub cache: CacheUse,
    /// Ranked definitions wanted with the hits; `None`: none.
    pub definitions: Option<usize>,
    /// The snapshot of the project's index to search ([`super::snapshots::resolve`]).
    pub at: At,
}

/// Whether a search may answer its query vector from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheUse {
    /// Use a cached vector when there is one.
    Read,
    /// Compute the vector again and replace the cached one (`--no-cache`).
    Refresh,
}

/// A presenter's bounds on what one request may ask for.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The most results (and ranked definitions).
    pub limit: usize,
    /// The most context lines on each side.
    pub context: usize,
}

impl Bounds {
    /// No bounds beyond the configuration's own (the command line).
    pub const NONE: Bounds = Bounds { limit: usize::MAX, context: usize::MAX };
}

impl SearchInput {
    /// A search for `query` with every setting the project's.
    pub fn new(query: impl Into<String>) -> SearchInput {
        SearchInput {
            query: query.into(),
            indexes: Vec::new(),
            limit: None,
            min_score: None,
            mode: Mode::Auto,
            filter: FilterSpec::default(),
            before: None,
            after: None,
            around: None,
            smart: None,
            max_lines: None,
            cache: CacheUse::Read,
            definitions: None,
            at: At::Current,
        }
    }
}

/// The request `input` describes in the project configured by `config`, within `bounds`.
pub fn request(config: &Config, input: SearchInput, bounds: Bounds) -> SearchRequest {
    let search = &config.settings.search;
    let indexes = if input.indexes.is_empty() { default_indexes(config) } else { input.indexes };
    let around = input.around.unwrap_or(0);
    // Another snapshot's files are not on disk as it stored them: its hits show the stored
    // text alone, without lines read around them.
    let on_disk = input.at == At::Current;
    let around = if on_disk { around } else { 0 };
    SearchRequest {
        query: input.query,
        indexes,
        limit: input.limit.unwrap_or(search.result_limit).clamp(1, bounds.limit),
        min_score: input.min_score.unwrap_or(search.min_score),
        mode: input.mode,
        filter: input.filter,
        context: ContextOptions {
            smart: on_disk && input.smart.unwrap_or(search.smart_context),
            before: if on_disk { input.before.unwrap_or(around).min(bounds.context) } else { 0 },
            after: if on_disk { input.after.unwrap_or(around).min(bounds.context) } else { 0 },
            max_lines: input.max_lines.map_or(search.max_context_lines, |m| m.max(1).min(search.max_context_lines)),
        },
        use_cache: input.cache == CacheUse::Read,
        definitions: input.definitions.map_or(0, |n| n.clamp(1, bounds.limit)),
        at: input.at,
    }
}

/// The project's own index followed by its `linkedIndexes`, each once.
pub fn default_indexes(config: &Config) -> Vec<String> {
    with_linked(config.index_name(), config)
}

/// `first` followed by the `linkedIndexes` of the project configured by `config`, each once.
pub fn with_linked(first: String, config: &Config) -> Vec<String> {
    let mut indexes = vec![first];
    for linked in &config.settings.linked_indexes {
        if !indexes.contains(linked) {
            indexes.push(linked.clone());
        }
    }
    indexes
}

/// Each index's own model (`search::embedders`), from the workspace's shared embedders.
pub struct Embedders<'a> {
    /// The workspace, which keeps the embedders.
    pub workspace: &'a Workspace,
    /// The project's embedding settings.
    pub settings: &'a EmbeddingSettings,
}

impl QueryEmbedders for Embedders<'_> {
    fn for_index(&self, index: &crate::store::IndexMeta) -> Option<Arc<dyn crate::embed::Embedder>> {
        self.workspace.embedder(&crate::search::embedders::settings_for(self.settings, index))
    }
}

/// Whether a search's query goes through the controller's rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrite {
    /// As `controller.enabled` says.
    AsConfigured,
    /// Never (`search --no-rewrite`, `search_code`'s `rewrite_query: false`).
    Never,
}

/// Rewrites `request`'s query with the controller when it is on (CocoSearch's query rewrite,
/// `embed::rewrite`), and returns what the user should be told: the query searched, or why the
/// query as typed was searched instead. `None` when the controller is off.
pub fn rewrite_query(config: &Config, request: &mut SearchRequest, rewrite: Rewrite) -> Option<String> {
    let controller = &config.settings.controller;
    if rewrite == Rewrite::Never || !controller.enabled {
        return None;
    }
    match crate::embed::rewrite::rewrite(controller, &request.query) {
        Ok(rewritten) if rewritten != request.query => {
            let note =
                format!("the query was rewritten by the controller: {:?} searched as {rewritten:?}", request.query);
            request.query = rewritten;
            Some(note)
        }
        Ok(_) => None,
        Err(e) => Some(format!("{e} — searching the query as typed")),
    }
}
