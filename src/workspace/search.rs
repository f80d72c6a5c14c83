//! The one way every presenter searches: [`Workspace::search`] (and [`Workspace::analyze`])
//! open the target, turn the [`SearchOptions`] into the engine's [`SearchRequest`] with the
//! project's defaults (`search.*`, `linkedIndexes`) and this front end's bounds, rewrite the
//! query when the controller is on, run [`Searcher`], cut hits to `max_lines`, and measure the
//! index's freshness. `cocosearch search`, `search_code` and `/api/search` all go through it,
//! so they cannot drift apart.
//!
//! [`Embedders`] gives each searched index the embedder of its own model from the workspace's
//! shared embedders (`search::embedders`).

pub use crate::search::trace::Analysis;
pub use crate::search::{Hit, QueryKind, SearchError, SearchRequest, SearchResponse, Verdict};

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::inputs::{SearchMode, SearchOptions, spelled};
use super::project::Project;
use super::target::{Caller, IndexRef, Need, Target};
use super::{Error, Front, Workspace};
use crate::config::{Config, EmbeddingSettings};
use crate::graph::{Graph, Neighbours, Scope, SymbolAnswer};
use crate::search::{ContextOptions, FilterSpec, Mode, Searcher};
use crate::stats::SearchFreshness;
use crate::store::At;

/// A search's answer, with what every presenter shows beside the hits.
pub struct SearchAnswer {
    /// The project whose index was searched, and how it was chosen.
    pub project: Project,
    /// The request that ran (its query is the rewritten one when the controller rewrote it).
    pub request: SearchRequest,
    /// The engine's answer; its warnings include the rewrite's note and the indexes left out.
    pub response: SearchResponse,
    /// What the controller's rewrite did, when it ran (also among the warnings).
    pub rewrite_note: Option<String>,
    /// How many lines `max_lines` cut from each hit, in hit order.
    pub cut_lines: Vec<usize>,
    /// How fresh the first index is.
    pub freshness: Option<SearchFreshness>,
    /// For an identifier the hits hold literally: how to list every occurrence, phrased for
    /// this front end.
    pub grep_hint: Option<String>,
    /// For a lone name that found nothing: the indexed names closest to it (did you mean).
    pub did_you_mean: Vec<String>,
    /// Each hit's file neighbours in the import graph, when the request asked for them
    /// (`include_deps`), in hit order.
    pub neighbours: Option<Vec<Option<Neighbours>>>,
    /// For a query that is one name: the definitions it names, as `find_symbol` answers
    /// (resolved, ambiguous or not found).
    pub resolution: Option<SymbolAnswer>,
}

/// A presenter's bounds on what one request may ask for.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    /// The most results (and ranked definitions).
    limit: usize,
    /// The most context lines on each side.
    context: usize,
}

impl Bounds {
    /// What one request of `front` may ask for: the command line only what the configuration
    /// allows; a server what keeps one answer small.
    fn of(front: Front) -> Bounds {
        match front {
            Front::Command => Bounds { limit: usize::MAX, context: usize::MAX },
            Front::Mcp => Bounds { limit: 100, context: 200 },
            Front::Dashboard => Bounds { limit: 200, context: 100 },
        }
    }
}

impl Workspace {
    /// Searches `query` in what `caller` names with `index`, as `options` ask.
    pub fn search(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchAnswer, Error> {
        let (target, request) = self.prepare(caller, index, query, options)?;
        let mut response = target.searcher(|searcher| searcher.search(&request))?;
        // The hits of the pages before this one were asked for too, so that this page is the
        // same as that part of a longer answer.
        response.hits.drain(..skipped(options).min(response.hits.len()));
        response.warnings.splice(0..0, target_notes(&target));
        let cut_lines = response.hits.iter_mut().map(|hit| cut(hit, options.max_lines)).collect();
        let t = &target.target;
        // How far the working tree's index is behind the files says nothing of another snapshot.
        let freshness = match t.at {
            At::Current => self.search_freshness(Arc::clone(&t.store), &t.index, &t.project.config.settings.indexing),
            At::Snapshot(_) => None,
        };
        let grep_hint = super::grep::hint(&request.query, &response.hits, self.options.front);
        let did_you_mean = did_you_mean(t, &request.query, response.verdict);
        let resolution = resolution(t, &request.query);
        let neighbours = match options.include_deps {
            Some(true) => Some(neighbours(t.store.as_ref(), &response.hits)?),
            _ => None,
        };
        Ok(SearchAnswer {
            rewrite_note: target.rewrite_note.clone(),
            project: target.target.project,
            request,
            response,
            cut_lines,
            freshness,
            grep_hint,
            did_you_mean,
            neighbours,
            resolution,
        })
    }

    /// The search [`Workspace::search`] would run, with what each stage did (`cocosearch
    /// analyze`, `analyze_query`).
    pub fn analyze(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        query: &str,
        options: &SearchOptions,
    ) -> Result<(Project, SearchRequest, Analysis), Error> {
        let (target, request) = self.prepare(caller, index, query, options)?;
        let mut analysis = target.searcher(|searcher| searcher.analyze(&request))?;
        analysis.response.warnings.splice(0..0, target_notes(&target));
        Ok((target.target.project, request, analysis))
    }

    /// The target and the request of a search: the first of `options.indexes.index_names` is the
    /// index named when they are given.
    fn prepare(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        query: &str,
        options: &SearchOptions,
    ) -> Result<(SearchTarget, SearchRequest), Error> {
        check(query, options, self.options.front)?;
        let named = self.expand_indexes(&options.indexes.index_names)?;
        let mut index = index.clone();
        if index.name().is_none()
            && let Some(first) = self.first_existing(&named)
        {
            index.name.index_name = Some(first);
        }
        let target = self.open(caller, &index, Need::Index)?;
        let (indexes, left_out) = self.searched_indexes(&target, &named)?;
        let mut request = request(&target.project.config, query, options, Bounds::of(self.options.front));
        request.indexes = indexes;
        request.at = target.at;
        if target.at != At::Current {
            // Another snapshot's files are not on disk as it stored them: its hits show the
            // stored text alone, without lines read around them.
            request.context = ContextOptions { smart: false, before: 0, after: 0, ..request.context };
        }
        let rewrite = if options.rewrite_query == Some(false) { Rewrite::Never } else { Rewrite::AsConfigured };
        let rewrite_note = rewrite_query(&target.project.config, &mut request, rewrite);
        Ok((SearchTarget { target, left_out, rewrite_note }, request))
    }

    /// The indexes `--indexes` names, with [`ALL_INDEXES`] replaced by every index of the
    /// store and `@NAME` by the group `indexGroups` defines, each once, in the order given.
    pub(super) fn expand_indexes(&self, given: &[String]) -> Result<Vec<String>, Error> {
        let mut names: Vec<String> = Vec::new();
        for name in given {
            let expanded = if name == ALL_INDEXES {
                super::indexes::list(self)?.into_iter().map(|meta| meta.name).collect()
            } else if let Some(group) = name.strip_prefix('@') {
                self.options.config.settings.index_groups.get(group).cloned().ok_or_else(|| {
                    Error::usage(format!(
                        "no index group named {group} — define it under indexGroups in cocosearch.yaml ({ALL_INDEXES} searches every index)"
                    ))
                })?
            } else {
                crate::config::validate_index_name(name).map_err(|m| {
                    let flag = spelled::<SearchOptions>(self.options.front, "index_names");
                    Error::usage(format!("{flag}: {m} ({ALL_INDEXES} searches every index)"))
                })?;
                vec![name.clone()]
            };
            for name in expanded {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        Ok(names)
    }

    /// Opens each index `--indexes` names (after the index named, when one is) with `open`,
    /// given its position: one that does not exist is left out with a warning, none existing
    /// is the error of the first. Returns what was opened and the warnings.
    pub(super) fn open_each<T>(
        &self,
        named: Option<&str>,
        names: &[String],
        mut open: impl FnMut(usize, &str) -> Result<T, Error>,
    ) -> Result<(Vec<T>, Vec<String>), Error> {
        let given: Vec<String> = named.map(str::to_string).into_iter().chain(names.iter().cloned()).collect();
        let (mut opened, mut warnings, mut missing) = (Vec::new(), Vec::new(), None);
        for (position, name) in self.expand_indexes(&given)?.iter().enumerate() {
            match open(position, name) {
                Ok(one) => opened.push(one),
                Err(e) if e.kind == super::ErrorKind::NotFound => {
                    warnings.push(format!("not searched: {e}"));
                    missing.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        match missing {
            _ if !opened.is_empty() => Ok((opened, warnings)),
            Some(e) => Err(e),
            None => Err(Error::of_kind(
                super::ErrorKind::NotFound,
                "no indexes to read — `cocosearch list` shows the indexes",
            )),
        }
    }

    /// The first of `named` the store holds (the index a search of several is about), else
    /// the first named, whose absence the search reports.
    fn first_existing(&self, named: &[String]) -> Option<String> {
        if named.len() < 2 {
            return named.first().cloned();
        }
        let existing = super::indexes::list(self).unwrap_or_default();
        named.iter().find(|n| existing.iter().any(|meta| meta.name == **n)).or(named.first()).cloned()
    }

    /// The indexes a search reads: those named, else the target's index and its project's
    /// `linkedIndexes`. Every one must be servable; one that does not exist is left out and
    /// named in the answer's warnings (the target's own index must exist).
    fn searched_indexes(&self, target: &Target, named: &[String]) -> Result<(Vec<String>, Vec<LeftOut>), Error> {
        let (indexes, linked) = if named.is_empty() {
            (with_linked(target.index.clone(), &target.project.config), true)
        } else {
            (named.to_vec(), false)
        };
        let (mut kept, mut left_out) = (vec![target.index.clone()], Vec::new());
        for name in indexes.into_iter().filter(|n| *n != target.index) {
            match target.store.get_index(&name)? {
                Some(meta) => {
                    self.servable(&name, &meta.root)?;
                    kept.push(name);
                }
                None if linked => left_out.push(LeftOut::NotIndexedYet(name)),
                None => left_out.push(LeftOut::Missing(self.no_index(&name, None).to_string())),
            }
        }
        Ok((kept, left_out))
    }
}

/// `--indexes @all`: every index of the store.
pub const ALL_INDEXES: &str = "@all";

/// An index a search was asked to read and did not.
enum LeftOut {
    /// A linked index whose project was not indexed yet.
    NotIndexedYet(String),
    /// An index named that does not exist: why, and what to do.
    Missing(String),
}

/// A search's target, with what the request's preparation has to say.
struct SearchTarget {
    target: Target,
    /// Indexes asked for that do not exist.
    left_out: Vec<LeftOut>,
    /// What the controller's rewrite did, when it ran.
    rewrite_note: Option<String>,
}

impl SearchTarget {
    /// Runs `work` with the searcher of this target: its store, each index's own embedder,
    /// the workspace's query cache.
    fn searcher<T>(&self, work: impl FnOnce(&Searcher<'_>) -> Result<T, SearchError>) -> Result<T, Error> {
        let workspace = &self.target.workspace;
        let embedders = Embedders { workspace, settings: &self.target.project.config.settings.embedding };
        let searcher = Searcher {
            store: self.target.store.as_ref(),
            embedders: &embedders,
            cache: &workspace.cache,
            tuning: Default::default(),
        };
        work(&searcher).map_err(|e| search_error(e, workspace))
    }
}

/// The indexed names closest to `query` when it is one name that found nothing (a misspelled
/// `jsnify` → `jsonify`). A suggestion that cannot be read leaves the answer as it is.
fn did_you_mean(target: &Target, query: &str, verdict: Verdict) -> Vec<String> {
    let one_name = !query.trim().is_empty() && !query.trim().contains(char::is_whitespace);
    if verdict != Verdict::NoGoodMatch || !one_name {
        return Vec::new();
    }
    target.graph().and_then(|graph| Ok(graph.closest(query.trim())?)).unwrap_or_else(|e| {
        tracing::debug!(error = %e, "no names to suggest");
        Vec::new()
    })
}

/// Candidates a name's resolution lists at most.
const RESOLUTION_CANDIDATES: usize = 10;

/// For a query that is one name (`send`, `Session.send`, `Lexer::new`): whether it names one
/// definition, several or none, as the symbol tools say it; `None` for any other query.
fn resolution(target: &Target, query: &str) -> Option<SymbolAnswer> {
    let name = query.trim();
    let part = |p: &str| {
        p.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if !name.replace("::", ".").split('.').all(part) {
        return None;
    }
    let answer =
        target.graph().and_then(|graph| Ok(graph.find_symbol(name, &[], &Scope::default(), RESOLUTION_CANDIDATES)?));
    answer.map_err(|e| tracing::debug!(error = %e, "no resolution for the name")).ok()
}

/// What a search's preparation tells the user: the rewrite, the linked indexes left out.
fn target_notes(target: &SearchTarget) -> Vec<String> {
    let mut notes: Vec<String> = target.rewrite_note.iter().cloned().collect();
    for left_out in &target.left_out {
        notes.push(match left_out {
            LeftOut::NotIndexedYet(name) => format!(
                "linked index {name} does not exist yet and was not searched — index its project (`cocosearch index`) or drop it from linkedIndexes"
            ),
            LeftOut::Missing(why) => format!("not searched: {why}"),
        });
    }
    notes
}

/// A search's failure as every presenter reports it.
fn search_error(e: SearchError, workspace: &Workspace) -> Error {
    match e {
        SearchError::InvalidFilter(message) => Error::usage(message),
        SearchError::EmptyQuery | SearchError::QueryTooLong(_) => Error::usage(e.to_string()),
        SearchError::Store(crate::store::StoreError::IndexNotFound(name)) => workspace.no_index(&name, None),
        SearchError::Store(other) => other.into(),
    }
}

/// Refuses what no search can answer, before anything is opened; options are named as
/// `front` spells them.
fn check(query: &str, options: &SearchOptions, front: Front) -> Result<(), Error> {
    if query.trim().is_empty() {
        return Err(Error::usage(SearchError::EmptyQuery.to_string()));
    }
    let name = |id: &str| spelled::<SearchOptions>(front, id);
    if options.limit == Some(0) {
        return Err(Error::usage(format!("{} must be at least 1", name("limit"))));
    }
    if let Some(score) = options.min_score
        && !(0.0..=1.0).contains(&score)
    {
        return Err(Error::usage(format!("{} must be between 0 and 1, got {score}", name("min_score"))));
    }
    Ok(())
}

/// The retrievers `options` ask for.
fn mode(options: &SearchOptions) -> Mode {
    let chosen = options.mode.or(if options.hybrid {
        Some(SearchMode::Hybrid)
    } else if options.no_hybrid {
        Some(SearchMode::Vector)
    } else if options.keyword {
        Some(SearchMode::Keyword)
    } else {
        match options.use_hybrid_search {
            Some(true) => Some(SearchMode::Hybrid),
            Some(false) => Some(SearchMode::Vector),
            None => None,
        }
    });
    match chosen {
        None | Some(SearchMode::Auto) => Mode::Auto,
        Some(SearchMode::Hybrid) => Mode::Hybrid,
        Some(SearchMode::Vector) => Mode::Vector,
        Some(SearchMode::Keyword) => Mode::Keyword,
    }
}

/// The request a search of `front` builds for `query` and `options` in the project configured
/// by `config`, without its indexes and snapshot (which its target gives): what the evaluation
/// runs to measure exactly what an agent or a person gets.
pub fn request_of(front: Front, config: &Config, query: &str, options: &SearchOptions) -> SearchRequest {
    request(config, query, options, Bounds::of(front))
}

/// The request `options` describe in the project configured by `config`, within `bounds`
/// (without its indexes and snapshot, which the target gives).
fn request(config: &Config, query: &str, options: &SearchOptions, bounds: Bounds) -> SearchRequest {
    let search = &config.settings.search;
    let around = options.around.unwrap_or(0);
    let max_lines = options.max_lines.map(|m| m.max(1) as usize);
    SearchRequest {
        query: query.to_string(),
        indexes: Vec::new(),
        limit: options.limit.unwrap_or(search.result_limit).clamp(1, bounds.limit) + skipped(options),
        min_score: options.min_score.unwrap_or(search.min_score),
        mode: mode(options),
        filter: FilterSpec {
            languages: options.files.language.clone(),
            path_glob: options.files.path.clone().filter(|p| !p.trim().is_empty()),
            symbol_types: options.symbol_type.clone(),
            symbol_name_glob: options.symbol_name.clone().filter(|p| !p.trim().is_empty()),
        },
        context: ContextOptions {
            smart: options.smart_context.unwrap_or(search.smart_context),
            before: options.context_before.unwrap_or(around).min(bounds.context),
            after: options.context_after.unwrap_or(around).min(bounds.context),
            max_lines: max_lines.map_or(search.max_context_lines, |m| m.min(search.max_context_lines)),
        },
        use_cache: !options.no_cache,
        definitions: options.definitions.map_or(0, |n| usize::from(n).clamp(1, bounds.limit)),
        at: At::Current,
    }
}

/// What each hit's file imports and is imported by (`include_deps`), in hit order.
fn neighbours(store: &dyn crate::store::Store, hits: &[Hit]) -> Result<Vec<Option<Neighbours>>, Error> {
    const PER_LIST: usize = 20;
    let mut by_index: BTreeMap<(&str, &std::path::Path), Vec<String>> = BTreeMap::new();
    for h in hits {
        by_index.entry((h.index.as_str(), h.root.as_path())).or_default().push(h.path.clone());
    }
    let mut found = HashMap::new();
    for ((index, root), paths) in by_index {
        let graph = Graph::open(store, index, root)?;
        for (path, n) in graph.neighbours(&paths, PER_LIST)? {
            found.insert((index.to_string(), path), n);
        }
    }
    Ok(hits.iter().map(|h| found.get(&(h.index.clone(), h.path.clone())).cloned()).collect())
}

/// The most hits a search skips (`offset`): pages go this deep.
const MAX_OFFSET: usize = 1000;

/// How many of the best hits a search skips.
pub fn skipped(options: &SearchOptions) -> usize {
    options.page.offset.unwrap_or(0).min(MAX_OFFSET)
}

/// Cuts a hit's content to `max_lines`; returns how many lines were cut.
fn cut(hit: &mut Hit, max_lines: Option<u32>) -> usize {
    let Some(max) = max_lines.map(|m| m.max(1) as usize) else { return 0 };
    let lines: Vec<&str> = hit.content.lines().collect();
    if lines.len() <= max {
        return 0;
    }
    let cut = lines.len() - max;
    hit.content = lines[..max].join("\n");
    hit.end_line = hit.start_line + max as u32 - 1;
    // The lines after the original end no longer follow what is shown.
    hit.after.clear();
    cut
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

impl crate::search::QueryEmbedders for Embedders<'_> {
    fn for_index(&self, index: &crate::store::IndexMeta) -> Option<Arc<dyn crate::embed::Embedder>> {
        self.workspace.embedder(&crate::search::embedders::settings_for(self.settings, index))
    }
}

/// Whether a search's query goes through the controller's rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rewrite {
    /// As `controller.enabled` says.
    AsConfigured,
    /// Never (`search --no-rewrite`, `search_code`'s `rewrite_query: false`).
    Never,
}

/// Rewrites `request`'s query with the controller when it is on (CocoSearch's query rewrite,
/// `embed::rewrite`), and returns what the user should be told: the query searched, or why the
/// query as typed was searched instead. `None` when the controller is off.
fn rewrite_query(config: &Config, request: &mut SearchRequest, rewrite: Rewrite) -> Option<String> {
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
