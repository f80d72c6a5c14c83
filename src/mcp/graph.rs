//! The code graph tools: `find_symbol`, `get_dependents`, `get_dependencies`,
//! `get_change_impact`, `get_call_chain`, `get_file_dependencies`, `get_file_dependents`
//! (and its alias `get_file_impact`), `get_file_structure`, `get_function_source` and
//! `get_class_source`.
//!
//! Each finds the project and index of the call as `search_code` does, asks the
//! [`Graph`] engine, and answers the JSON of `cocosearch symbol|refs|… --json` ([`wire`])
//! plus the project, the index, and notes for the agent (results cut at `max_results`,
//! results from files changed since indexing). Runs on a blocking thread.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::{
    CallChainArgs, ChangeImpactArgs, DEFAULT_RESULTS, FileToolArgs, MAX_RESULTS, SourceArgs, SymbolToolArgs,
};
use crate::chunk::{Language, SymbolKind};
use crate::config::validate_index_name;
use crate::graph::{CHAIN_TIME_LIMIT, Graph, GraphError, Scope, SourceKind, Stop};
use crate::store::glob::PathGlob;
use crate::store::{At, Store, StoreError};
use crate::wire;
use crate::workspace::Workspace;
use crate::workspace::project::{self, Hints, Project, check_index_root, index_project};

/// Levels of users `get_change_impact` follows when `depth` is not given.
const IMPACT_DEPTH: usize = 3;
/// Calls a chain may have when `max_depth` is not given.
const CHAIN_DEPTH: usize = 10;

/// The index a graph call is about.
struct Target {
    project: Project,
    index: String,
    store: Arc<dyn Store>,
    root: PathBuf,
    /// The snapshot read (`at`).
    at: At,
}

impl Target {
    fn graph(&self) -> Result<Graph, ToolError> {
        Graph::open_at(self.store.as_ref(), &self.index, &self.root, self.at).map_err(ToolError::from)
    }

    /// `value` with the project and index used, and notes for the agent.
    fn answer(&self, value: Value, limit: usize) -> Value {
        let cut = value["truncated"] == json!(true);
        self.answer_cut(value, &[("max_results", limit, cut)])
    }

    /// [`Target::answer`] for an answer with several caps: each is (its parameter, its
    /// value, whether it cut the answer), and the note names the ones that did.
    fn answer_cut(&self, mut value: Value, caps: &[(&str, usize, bool)]) -> Value {
        let mut notes: Vec<String> = Vec::new();
        for (param, limit, _) in caps.iter().filter(|c| c.2) {
            notes.push(format!(
                "the answer was cut at {limit} results — raise {param} (0 = up to {MAX_RESULTS}) or narrow the question"
            ));
        }
        let stale = count_stale(&value);
        if stale > 0 {
            notes.push(format!(
                "{stale} result(s) come from files changed since indexing (marked stale; lines may have moved) — call index_codebase to refresh"
            ));
        }
        if let Some(hint) = value["hint"].as_str() {
            notes.push(hint.to_string());
        }
        value["project"] = project_json(&self.project);
        value["index"] = json!(self.index);
        value["notes"] = json!(notes);
        value
    }
}

/// How many objects in `value` say `"stale": true`.
fn count_stale(value: &Value) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.get("stale") == Some(&Value::Bool(true))) + map.values().map(count_stale).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(count_stale).sum(),
        _ => 0,
    }
}

/// The project and index of a call: an explicit `index_name`, else the detected project's.
fn target(
    shared: &Workspace,
    hints: &Hints,
    (index_name, at): (Option<&str>, Option<&str>),
) -> Result<Target, ToolError> {
    let (project, index) = match index_name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => {
            validate_index_name(name).map_err(|m| ToolError::new(format!("index_name {name:?}: {m}")))?;
            (index_project(shared, name)?, name.to_string())
        }
        None => {
            let project = project::detect(shared, hints)?;
            let index = project.config.index_name();
            check_index_root(shared, &index)?;
            (project, index)
        }
    };
    let store = shared.store(&project.config.settings.database)?;
    let meta = store.get_index(&index)?.ok_or_else(|| {
        ToolError::new(format!(
            "no index named {index} for {} — call index_codebase to index it (list_indexes shows the existing indexes)",
            project.root.display()
        ))
    })?;
    let (at, _) = crate::workspace::snapshots::resolve(store.as_ref(), &index, &project.root, at)
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(Target { project, index, store, root: meta.root, at })
}

fn failed(e: GraphError) -> ToolError {
    match e {
        GraphError::Store(StoreError::IndexNotFound(name)) => {
            ToolError::new(format!("no index named {name} — call index_codebase to index it"))
        }
        other => ToolError::new(other.to_string()),
    }
}

/// `max_results` as a count: omitted → the default, `0` → the most allowed.
fn results(max: Option<u32>) -> usize {
    match max {
        None => DEFAULT_RESULTS as usize,
        Some(0) => MAX_RESULTS as usize,
        Some(n) => n.min(MAX_RESULTS) as usize,
    }
}

fn scope(args: &SymbolToolArgs) -> Result<Scope, ToolError> {
    let languages = args
        .language
        .iter()
        .flatten()
        .map(|l| {
            Language::from_name(l).map(|l| l.name().to_string()).ok_or_else(|| {
                let known: Vec<&str> = Language::all().iter().map(|l| l.name()).collect();
                ToolError::new(format!("language: unknown language {l:?} — use one of: {}", known.join(", ")))
            })
        })
        .collect::<Result<_, _>>()?;
    let path_glob = args
        .path
        .as_deref()
        .filter(|p| !p.trim().is_empty())
        .map(PathGlob::new)
        .transpose()
        .map_err(|e| ToolError::new(format!("path: {e}")))?;
    Ok(Scope { languages, path_glob })
}

fn kinds(args: &SymbolToolArgs) -> Result<Vec<SymbolKind>, ToolError> {
    args.kind
        .iter()
        .flatten()
        .map(|k| {
            k.parse::<SymbolKind>().map_err(|_| {
                let known: Vec<&str> = SymbolKind::all().iter().map(|k| k.as_str()).collect();
                ToolError::new(format!("kind: unknown kind {k:?} — use one of: {}", known.join(", ")))
            })
        })
        .collect()
}

fn nonempty(name: &str, what: &str) -> Result<(), ToolError> {
    if name.trim().is_empty() {
        return Err(ToolError::new(format!("{what} is empty — pass a name such as send or Request.send")));
    }
    Ok(())
}

/// `find_symbol`.
pub(crate) fn find_symbol(shared: &Arc<Workspace>, hints: &Hints, args: SymbolToolArgs) -> Result<Value, ToolError> {
    nonempty(&args.name, "name")?;
    let (kinds, scope, limit) = (kinds(&args)?, scope(&args)?, results(args.max_results));
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.find_symbol(&args.name, &kinds, &scope, limit).map_err(failed)?;
    Ok(t.answer(wire::symbol_json(&answer), limit))
}

/// `get_dependents`.
pub(crate) fn get_dependents(shared: &Arc<Workspace>, hints: &Hints, args: SymbolToolArgs) -> Result<Value, ToolError> {
    nonempty(&args.name, "name")?;
    let (scope, limit) = (scope(&args)?, results(args.max_results));
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.references(&args.name, &scope, limit).map_err(failed)?;
    Ok(t.answer(wire::refs_json(&answer), limit))
}

/// `get_dependencies`.
pub(crate) fn get_dependencies(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: SymbolToolArgs,
) -> Result<Value, ToolError> {
    nonempty(&args.name, "name")?;
    let limit = results(args.max_results);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.dependencies(&args.name, limit).map_err(failed)?;
    Ok(t.answer(wire::dependencies_json(&answer), limit))
}

/// `get_change_impact`.
pub(crate) fn get_change_impact(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: ChangeImpactArgs,
) -> Result<Value, ToolError> {
    nonempty(&args.name, "name")?;
    let (direct, transitive) = (results(args.max_direct), results(args.max_transitive));
    let depth = args.depth.map_or(IMPACT_DEPTH, |d| d.clamp(1, 10) as usize);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.symbol_impact(&args.name, depth, direct, transitive).map_err(failed)?;
    let caps =
        [("max_direct", direct, answer.truncated_direct), ("max_transitive", transitive, answer.truncated_transitive)];
    Ok(t.answer_cut(wire::symbol_impact_json(&answer), &caps))
}

/// `get_call_chain`.
pub(crate) fn get_call_chain(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: CallChainArgs,
    gone: &AtomicBool,
) -> Result<Value, ToolError> {
    nonempty(&args.from_name, "from_name")?;
    nonempty(&args.to_name, "to_name")?;
    let limit = results(args.max_results);
    let depth = args.max_depth.map_or(CHAIN_DEPTH, |d| d.clamp(1, 20) as usize);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let stop = Stop { at: Instant::now() + CHAIN_TIME_LIMIT, cancel: Some(gone) };
    let mut answer = t.graph()?.call_chain_until(&args.from_name, &args.to_name, depth, stop).map_err(failed)?;
    let truncated = answer.hops.len() > limit;
    answer.hops.truncate(limit);
    let mut value = wire::call_chain_json(&answer);
    value["truncated"] = json!(truncated);
    Ok(t.answer(value, limit))
}

/// `get_file_dependencies`.
pub(crate) fn get_file_dependencies(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    nonempty(&args.file_path, "file_path")?;
    let limit = results(args.max_results);
    let depth = args.depth.map_or(1, |d| d.max(1) as usize);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.file_dependencies(&args.file_path, depth, &Scope::default(), limit).map_err(failed)?;
    Ok(t.answer(wire::deps_json(&answer, depth), limit))
}

/// `get_file_dependents` and `get_file_impact`.
pub(crate) fn get_file_dependents(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    nonempty(&args.file_path, "file_path")?;
    let limit = results(args.max_results);
    let depth = args.depth.map(|d| d.max(1) as usize);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let answer = t.graph()?.file_dependents(&args.file_path, depth, &Scope::default(), limit).map_err(failed)?;
    Ok(t.answer(wire::file_impact_json(&answer), limit))
}

/// `get_file_structure`.
pub(crate) fn get_file_structure(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    nonempty(&args.file_path, "file_path")?;
    let limit = results(args.max_results);
    let t = target(shared, hints, (args.index_name.as_deref(), args.at.as_deref()))?;
    let mut answer = t.graph()?.outline(&args.file_path).map_err(failed)?;
    let truncated = answer.definitions.len() > limit || answer.imports.len() > limit;
    answer.definitions.truncate(limit);
    answer.imports.truncate(limit);
    let mut value = wire::outline_json(&answer);
    value["truncated"] = json!(truncated);
    Ok(t.answer(value, limit))
}

/// `get_function_source` and `get_class_source`.
pub(crate) fn get_source(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: SourceArgs,
    kind: SourceKind,
) -> Result<Value, ToolError> {
    nonempty(&args.name, "name")?;
    // The source is read from the files on disk: the working tree's snapshot.
    let t = target(shared, hints, (args.index_name.as_deref(), None))?;
    let max_lines = args.max_lines.map(|m| m.max(1) as usize);
    let answer = t.graph()?.source(&args.name, kind, args.file_path.as_deref(), max_lines).map_err(failed)?;
    let mut value = t.answer(wire::source_json(&answer), 0);
    if let (Some(warning), Some(notes)) = (&answer.warning, value["notes"].as_array_mut()) {
        notes.push(json!(warning));
    }
    if answer.truncated_lines > 0
        && let Some(notes) = value["notes"].as_array_mut()
    {
        notes.push(json!(format!("{} more lines left out by max_lines", answer.truncated_lines)));
    }
    Ok(value)
}
