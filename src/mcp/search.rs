//! `search_code`: the project's indexes searched with [`Searcher`], shaped like
//! `cocosearch search --json`, plus which project and index were used and whether the index
//! is behind the files.
//!
//! Runs on a blocking thread (store and embedder calls).

use std::sync::Arc;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::{MAX_CONTEXT, MAX_LIMIT, SearchCodeArgs};
use crate::config::validate_index_name;
use crate::search::{FilterSpec, Hit, Mode, SearchError, Searcher, Verdict};
use crate::stats::SearchFreshness;
use crate::store::{Store, StoreError};
use crate::wire;
use crate::workspace::Workspace;
use crate::workspace::project::{self, Hints, Project, check_index_root, index_project};
use crate::workspace::search::{self as request, Bounds, CacheUse, Embedders, Rewrite, SearchInput};

/// A search as `search_code` and `analyze_query` run it: the project, its indexes, the store
/// and the request the arguments describe.
struct Prepared {
    project: Project,
    indexes: Vec<String>,
    store: Arc<dyn Store>,
    request: crate::search::SearchRequest,
    /// What the controller's rewrite did, when it ran.
    rewrite_note: Option<String>,
}

fn prepare(shared: &Arc<Workspace>, hints: &Hints, args: &SearchCodeArgs) -> Result<Prepared, ToolError> {
    let (project, indexes) = target(shared, hints, args)?;
    let settings = &project.config.settings;
    let store = shared.store(&settings.database)?;
    // From its first search on, a project's index follows its files (indexing.watch).
    shared.keep_fresh(&project, &indexes[0]);
    let input = SearchInput {
        query: args.query.clone(),
        indexes: indexes.clone(),
        limit: args.limit.map(|l| l as usize),
        min_score: None,
        mode: match args.use_hybrid_search {
            Some(true) => Mode::Hybrid,
            Some(false) => Mode::Vector,
            None => Mode::Auto,
        },
        filter: FilterSpec {
            languages: args.language.clone().unwrap_or_default(),
            path_glob: args.path.clone().filter(|p| !p.trim().is_empty()),
            symbol_types: args.symbol_type.clone().unwrap_or_default(),
            symbol_name_glob: args.symbol_name.clone().filter(|p| !p.trim().is_empty()),
        },
        before: args.context_before.map(|n| n as usize),
        after: args.context_after.map(|n| n as usize),
        around: None,
        smart: args.smart_context,
        max_lines: args.max_lines.map(|n| n.max(1) as usize),
        cache: CacheUse::Read,
        definitions: args.definitions.map(|n| n as usize),
        at: crate::workspace::snapshots::resolve(store.as_ref(), &indexes[0], &project.root, args.at.as_deref())
            .map_err(|e| ToolError::new(e.to_string()))?
            .0,
    };
    let bounds = Bounds { limit: MAX_LIMIT as usize, context: MAX_CONTEXT as usize };
    let mut request = request::request(&project.config, input, bounds);
    let rewrite = if args.rewrite_query == Some(false) { Rewrite::Never } else { Rewrite::AsConfigured };
    let rewrite_note = request::rewrite_query(&project.config, &mut request, rewrite);
    Ok(Prepared { project, indexes, store, request, rewrite_note })
}

/// Runs `analyze_query`: the search `search_code` would run, with what each stage did
/// (`cocosearch analyze --json`).
pub(crate) fn analyze_query(shared: &Arc<Workspace>, hints: &Hints, args: SearchCodeArgs) -> Result<Value, ToolError> {
    let Prepared { project, store, request, rewrite_note, .. } = prepare(shared, hints, &args)?;
    let embedders = Embedders { workspace: shared, settings: &project.config.settings.embedding };
    let searcher =
        Searcher { store: store.as_ref(), embedders: &embedders, cache: &shared.cache, tuning: Default::default() };
    let mut analysis = searcher.analyze(&request).map_err(|e| search_error(e, &project))?;
    analysis.response.warnings.extend(rewrite_note);
    let mut value = wire::analysis_json(&request, &analysis);
    value["project"] = project_json(&project);
    Ok(value)
}

/// Runs `search_code`.
pub(crate) fn search_code(shared: &Arc<Workspace>, hints: &Hints, args: SearchCodeArgs) -> Result<Value, ToolError> {
    let Prepared { project, indexes, store, request, rewrite_note } = prepare(shared, hints, &args)?;
    let settings = &project.config.settings;
    let embedders = Embedders { workspace: shared, settings: &settings.embedding };
    let searcher =
        Searcher { store: store.as_ref(), embedders: &embedders, cache: &shared.cache, tuning: Default::default() };
    let max_lines = args.max_lines.map(|n| n.max(1) as usize);
    let mut response = searcher.search(&request).map_err(|e| search_error(e, &project))?;
    let truncated: Vec<usize> = response.hits.iter_mut().map(|h| truncate(h, max_lines)).collect();

    let mut value = wire::search_json(&request, &response);
    if let Some(results) = value.get_mut("results").and_then(Value::as_array_mut) {
        for (result, cut) in results.iter_mut().zip(&truncated) {
            if *cut > 0 {
                result["truncated_lines"] = json!(cut);
            }
        }
        if args.include_deps == Some(true) {
            super::graph::add_neighbours(store.as_ref(), &response.hits, results)?;
        }
    }
    let freshness = shared.search_freshness(Arc::clone(&store) as Arc<dyn Store>, &indexes[0], &settings.indexing);
    let mut notes = notes(shared, &indexes, freshness.as_ref(), &response.hits);
    if response.verdict == Verdict::NoGoodMatch && !response.hits.is_empty() {
        notes.push(NO_GOOD_MATCH.to_string());
    }
    notes.extend(rewrite_note);
    notes.extend(crate::workspace::grep::hint(&request.query, &response.hits, crate::workspace::grep::HintFor::Tool));
    value["project"] = project_json(&project);
    value["freshness"] = freshness.as_ref().map_or(Value::Null, wire::search_freshness_json);
    value["notes"] = json!(notes);
    Ok(value)
}

/// What an agent is told when nothing matches: it can stop looking here.
const NO_GOOD_MATCH: &str = "no good match: no indexed code holds these words or defines this name; the results are only the nearest chunks — try other words, or stop looking here";

/// The project and the indexes a search is about.
fn target(shared: &Workspace, hints: &Hints, args: &SearchCodeArgs) -> Result<(Project, Vec<String>), ToolError> {
    let explicit = match (&args.index_names, &args.index_name) {
        (Some(names), _) => Some(names.clone()),
        (None, Some(name)) => Some(vec![name.trim().to_string()]),
        (None, None) => None,
    };
    let Some(names) = explicit else {
        let project = project::detect(shared, hints)?;
        let indexes = request::default_indexes(&project.config);
        for linked in &indexes[1..] {
            check_index_root(shared, linked)?;
        }
        // The project's own index may have been built for another directory.
        check_index_root(shared, &indexes[0])?;
        return Ok((project, indexes));
    };
    for name in &names {
        validate_index_name(name).map_err(|m| ToolError::new(format!("index_name {name:?}: {m}")))?;
    }
    let project = index_project(shared, &names[0])?;
    for name in &names[1..] {
        check_index_root(shared, name)?;
    }
    Ok((project, names))
}

fn search_error(e: SearchError, project: &Project) -> ToolError {
    match e {
        SearchError::Store(StoreError::IndexNotFound(name)) => ToolError::new(format!(
            "no index named {name} for {} — call index_codebase to index it (list_indexes shows the existing indexes)",
            project.root.display()
        )),
        other => ToolError::new(other.to_string()),
    }
}

/// Cuts a hit's content to `max_lines`; returns how many lines were cut.
fn truncate(hit: &mut Hit, max_lines: Option<usize>) -> usize {
    let Some(max) = max_lines else { return 0 };
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

/// Short sentences for the agent: staleness, running jobs, empty results.
fn notes(shared: &Workspace, indexes: &[String], freshness: Option<&SearchFreshness>, hits: &[Hit]) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(fresh) = freshness
        && fresh.pending_embeddings > 0
    {
        let by = if fresh.watcher.is_some() { "in the background" } else { "by the next index_codebase" };
        notes.push(format!(
            "{} chunks of {} await vectors (computed {by}): they are found by keyword only until then",
            fresh.pending_embeddings, fresh.index
        ));
    }
    if let Some(fresh) = freshness
        && let Some(w) = fresh.watcher.as_ref().filter(|w| w.following == crate::index::lease::Following::Live)
    {
        notes.push(format!("{} is kept fresh by {}: edits show up within a second", fresh.index, w.process));
    }
    if let Some(fresh) = freshness
        && wire::search_freshness_state(fresh) != "live"
        && fresh.freshness.stale
    {
        let f = &fresh.freshness;
        let mut behind = Vec::new();
        for (count, what) in [(f.added.count, "added"), (f.modified.count, "modified"), (f.removed.count, "removed")] {
            if count > 0 {
                behind.push(format!("{count} files {what}"));
            }
        }
        if f.commit_drift {
            behind.push("HEAD moved to another commit".into());
        }
        if f.branch_drift {
            behind.push("another branch is checked out".into());
        }
        if f.stale_by_age {
            behind.push(format!("last indexed {} days ago", f.age_days.unwrap_or_default()));
        }
        notes.push(format!(
            "index {} is behind the files ({}) — results may miss or misplace recent code; call index_codebase to refresh it",
            indexes[0],
            behind.join(", ")
        ));
    }
    let stale_hits = hits.iter().filter(|h| h.stale).count();
    if stale_hits > 0 {
        notes.push(format!(
            "{stale_hits} result(s) come from files changed since indexing (marked stale; their lines may have moved)"
        ));
    }
    for index in indexes {
        if let Some(job) = shared.jobs.latest(index).filter(|j| j.is_running()) {
            notes.push(format!("{} is being indexed right now ({}, {:.0}%)", index, job.id, job.percent()));
        }
    }
    if hits.is_empty() {
        notes.push(
            "no results — try describing the code in plain words, drop filters, or check index_stats for what is indexed"
                .into(),
        );
    }
    notes
}
