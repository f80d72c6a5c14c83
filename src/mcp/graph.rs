//! The code graph tools: `find_symbol`, `get_dependents`, `get_dependencies`,
//! `get_change_impact`, `get_call_chain`, `get_file_dependencies`, `get_file_dependents`
//! (and its alias `get_file_impact`), `get_file_structure`, `get_function_source` and
//! `get_class_source`.
//!
//! Each finds the project and index of the call as `search_code` does, asks the
//! [`Graph`] engine, and answers the JSON of `cocosearch symbol|refs|… --json` ([`wire`])
//! plus the project, the index, and notes for the agent (results cut at `max_results`,
//! results from files changed since indexing). Runs on a blocking thread.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::{CallChainArgs, ChangeImpactArgs, FileToolArgs, SourceArgs, SymbolToolArgs};
use crate::wire;
use crate::wire::budget::{self, AGENT_MAX_TOKENS, Fit, Page, Results, Results::Items, Results::Lines};
use crate::workspace::graph::{CHAIN_TIME_LIMIT, Graph, MAX_RESULTS, SourceKind, Stop, name_given, results};
use crate::workspace::graphs::Graphs;
use crate::workspace::inputs::PageOptions;
use crate::workspace::project::Hints;
use crate::workspace::{Caller, Front, IndexRef, Need, Target, Workspace};

/// Levels of users `get_change_impact` follows when `depth` is not given.
const IMPACT_DEPTH: usize = 3;
/// Calls a chain may have when `max_depth` is not given.
const CHAIN_DEPTH: usize = 10;

/// The index a graph call reads and its graph.
struct Opened {
    target: Target,
    graph: Graph,
}

impl Opened {
    /// `value` with the project and index used, and notes for the agent.
    fn answer(&self, value: Value, limit: usize) -> Value {
        let cut = value["truncated"] == json!(true);
        self.answer_cut(value, &[("max_results", limit, cut)])
    }

    /// [`Opened::answer`] for an answer with several caps: each is (its parameter, its
    /// value, whether it cut the answer), and the note names the ones that did.
    fn answer_cut(&self, value: Value, caps: &[(&str, usize, bool)]) -> Value {
        answered(&self.target, value, caps)
    }
}

/// `value` with the project and index of `target`, and notes for the agent: the caps that cut
/// it (parameter, value, whether it did), stale results, the answer's hint.
fn answered(target: &Target, mut value: Value, caps: &[(&str, usize, bool)]) -> Value {
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
    value["project"] = project_json(&target.project);
    value["index"] = json!(target.index);
    value["notes"] = json!(notes);
    value
}

/// The answer of a name question asked of `graphs`: as [`answered`] for the first, and when
/// several were read, the indexes, each result's own (`tagged`: a key of `value` and the index
/// of each of its items) and the indexes left out.
fn answered_across(graphs: &Graphs, value: Value, limit: usize, tagged: &[(&str, &[String])]) -> Value {
    let cut = value["truncated"] == json!(true);
    let mut value = answered(&graphs.first().0, value, &[("max_results", limit, cut)]);
    if graphs.several() {
        value["indexes"] = json!(graphs.names());
        for (key, indexes) in tagged {
            if let Some(items) = value[*key].as_array_mut() {
                for (item, index) in items.iter_mut().zip(indexes.iter()) {
                    item["index"] = json!(index);
                }
            }
        }
    }
    if let Some(notes) = value["notes"].as_array_mut() {
        notes.extend(graphs.warnings.iter().map(|w| json!(w)));
    }
    value
}

/// Opens the index a call names (or its project's) through the workspace, and its graph.
fn open(shared: &Arc<Workspace>, hints: &Hints, index: &IndexRef) -> Result<Opened, ToolError> {
    let target = shared.open(Caller::Client(hints), index, Need::Index)?;
    let graph = target.graph()?;
    Ok(Opened { target, graph })
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

/// `find_symbol`.
pub(crate) fn find_symbol(shared: &Arc<Workspace>, hints: &Hints, args: SymbolToolArgs) -> Result<Value, ToolError> {
    name_given(&args.name, "name", Front::Mcp)?;
    let kinds = args.kinds.kinds(Front::Mcp)?;
    let (scope, limit) = (args.options.scope(Front::Mcp)?, args.options.limit());
    let graphs = shared.open_graphs(Caller::Client(hints), &args.index, &args.indexes.index_names)?;
    let merged = graphs.symbols(limit, |graph| graph.find_symbol(&args.name, &kinds, &scope, limit))?;
    let value = answered_across(&graphs, wire::symbol_json(&merged.answer), limit, &[("results", &merged.indexes)]);
    Ok(paged(value, &[Items("results")], args.page))
}

/// `get_dependents`.
pub(crate) fn get_dependents(shared: &Arc<Workspace>, hints: &Hints, args: SymbolToolArgs) -> Result<Value, ToolError> {
    name_given(&args.name, "name", Front::Mcp)?;
    let (scope, limit) = (args.options.scope(Front::Mcp)?, args.options.limit());
    let graphs = shared.open_graphs(Caller::Client(hints), &args.index, &args.indexes.index_names)?;
    let merged = graphs.references(limit, |graph| graph.references(&args.name, &scope, limit))?;
    let tagged: [(&str, &[String]); 2] = [("results", &merged.indexes), ("definitions", &merged.definition_indexes)];
    let value = answered_across(&graphs, wire::refs_json(&merged.answer), limit, &tagged);
    Ok(paged(value, &[Items("results"), Items("definitions")], args.page))
}

/// `get_dependencies`.
pub(crate) fn get_dependencies(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: SymbolToolArgs,
) -> Result<Value, ToolError> {
    name_given(&args.name, "name", Front::Mcp)?;
    if !args.indexes.index_names.is_empty() {
        return Err(crate::workspace::Error::usage(
            "get_dependencies reads one index (what a definition uses lies in its own project): drop index_names",
        ));
    }
    let limit = args.options.limit();
    let t = open(shared, hints, &args.index)?;
    let answer = t.graph.dependencies(&args.name, limit)?;
    let value = t.answer(wire::dependencies_json(&answer), limit);
    Ok(paged(value, &[Items("results"), Items("definitions")], args.page))
}

/// `get_change_impact`.
pub(crate) fn get_change_impact(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: ChangeImpactArgs,
) -> Result<Value, ToolError> {
    name_given(&args.name, "name", Front::Mcp)?;
    let (direct, transitive) = (results(args.max_direct), results(args.max_transitive));
    let depth = args.depth.map_or(IMPACT_DEPTH, |d| d.clamp(1, 10) as usize);
    let t = open(shared, hints, &args.index)?;
    let answer = t.graph.symbol_impact(&args.name, depth, direct, transitive)?;
    let caps =
        [("max_direct", direct, answer.truncated_direct), ("max_transitive", transitive, answer.truncated_transitive)];
    let value = t.answer_cut(wire::symbol_impact_json(&answer), &caps);
    Ok(paged(value, &[Items("direct"), Items("transitive"), Items("definitions")], args.page))
}

/// `get_call_chain`.
pub(crate) fn get_call_chain(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: CallChainArgs,
    gone: &AtomicBool,
) -> Result<Value, ToolError> {
    name_given(&args.from_name, "from_name", Front::Mcp)?;
    name_given(&args.to_name, "to_name", Front::Mcp)?;
    let limit = results(args.max_results);
    let depth = args.max_depth.map_or(CHAIN_DEPTH, |d| d.clamp(1, 20) as usize);
    let t = open(shared, hints, &args.index)?;
    let stop = Stop { at: Instant::now() + CHAIN_TIME_LIMIT, cancel: Some(gone) };
    let mut answer = t.graph.call_chain_until(&args.from_name, &args.to_name, depth, stop)?;
    let truncated = answer.hops.len() > limit;
    answer.hops.truncate(limit);
    let mut value = wire::call_chain_json(&answer);
    value["truncated"] = json!(truncated);
    Ok(paged(t.answer(value, limit), &[Items("hops")], args.page))
}

/// `get_file_dependencies`.
pub(crate) fn get_file_dependencies(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    name_given(&args.file_path, "file_path", Front::Mcp)?;
    let (scope, limit) = (args.options.scope(Front::Mcp)?, args.options.limit());
    let depth = args.depth.map_or(1, |d| d.max(1) as usize);
    let t = open(shared, hints, &args.index)?;
    let answer = t.graph.file_dependencies(&args.file_path, depth, &scope, limit)?;
    Ok(paged(t.answer(wire::deps_json(&answer, depth), limit), &[Items("edges")], args.page))
}

/// `get_file_dependents` and `get_file_impact`.
pub(crate) fn get_file_dependents(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    name_given(&args.file_path, "file_path", Front::Mcp)?;
    let (scope, limit) = (args.options.scope(Front::Mcp)?, args.options.limit());
    let depth = args.depth.map(|d| d.max(1) as usize);
    let t = open(shared, hints, &args.index)?;
    let answer = t.graph.file_dependents(&args.file_path, depth, &scope, limit)?;
    Ok(paged(t.answer(wire::file_impact_json(&answer), limit), &[Items("results")], args.page))
}

/// `get_file_structure`.
pub(crate) fn get_file_structure(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: FileToolArgs,
) -> Result<Value, ToolError> {
    name_given(&args.file_path, "file_path", Front::Mcp)?;
    let limit = args.options.limit();
    let t = open(shared, hints, &args.index)?;
    let mut answer = t.graph.outline(&args.file_path)?;
    let truncated = answer.definitions.len() > limit || answer.imports.len() > limit;
    answer.definitions.truncate(limit);
    answer.imports.truncate(limit);
    let mut value = wire::outline_json(&answer);
    value["truncated"] = json!(truncated);
    Ok(paged(t.answer(value, limit), &[Items("definitions"), Items("imports")], args.page))
}

/// `get_function_source` and `get_class_source`.
pub(crate) fn get_source(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: SourceArgs,
    kind: SourceKind,
) -> Result<Value, ToolError> {
    name_given(&args.name, "name", Front::Mcp)?;
    // The source is read from the files on disk: the working tree's snapshot.
    let t = open(shared, hints, &IndexRef::from(args.index))?;
    let max_lines = args.max_lines.map(|m| m.max(1) as usize);
    let answer = t.graph.source(&args.name, kind, args.file_path.as_deref(), max_lines)?;
    let mut value = t.answer(wire::source_json(&answer), 0);
    if let (Some(warning), Some(notes)) = (&answer.warning, value["notes"].as_array_mut()) {
        notes.push(json!(warning));
    }
    if answer.truncated_lines > 0
        && let Some(notes) = value["notes"].as_array_mut()
    {
        notes.push(json!(format!("{} more lines left out by max_lines", answer.truncated_lines)));
    }
    Ok(paged(value, &[Lines("content")], args.page))
}

/// `value` within the call's token budget (`max_tokens`, else [`AGENT_MAX_TOKENS`]), from its
/// `offset` on.
pub(crate) fn paged(mut value: Value, results: &[Results], page: PageOptions) -> Value {
    let max_tokens = page.max_tokens.unwrap_or(AGENT_MAX_TOKENS);
    budget::fit(&mut value, &Fit::of(results), Page { max_tokens, offset: page.offset.unwrap_or(0) });
    value
}
