//! What an agent is shown before its first question: the tool list of `tools/list` and the
//! server's instructions. Every session pays for both in tokens, so the list is lean: the
//! everyday tools only (search, grep, the code graph, indexing; `mcp.tools` adds the task,
//! admin, debug and alias groups), and schemas without what an agent does not need to read —
//! the parameters every tool shares are described once in the instructions, advanced ones are
//! accepted but not listed ([`UNLISTED`]), optional parameters keep the first sentence of their
//! description. Calls are still checked against the whole schema ([`super::tools::parse`]).

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

use super::tools::{self, Group};
use crate::config::ToolGroup;

/// Parameters accepted but not listed; the instructions name them once.
const UNLISTED: &[&str] = &[
    // Every tool: another index, a snapshot.
    "index_name",
    "at",
    // search_code: several indexes, CocoSearch's spelling of mode, the rewrite switch,
    // context on one side (around covers both).
    "index_names",
    "use_hybrid_search",
    "rewrite_query",
    "context_before",
    "context_after",
    // grep_code: ripgrep's less common switches.
    "smart_case",
    "multiline",
    "invert",
    "max_count",
    "count",
    "files_only",
];

/// Parameters whose meaning is the same in every tool, listed without a description.
const SHARED: &[&str] = &["language", "path", "max_results", "max_tokens", "offset"];

/// The tools `tools/list` shows with `groups` (`mcp.tools`) asked for.
pub(crate) fn listed(groups: &[ToolGroup]) -> Vec<Tool> {
    tools::tools()
        .into_iter()
        .filter(|(_, group)| shows(groups, *group))
        .map(|(mut tool, _)| {
            tool.input_schema = std::sync::Arc::new(lean(&tool.input_schema));
            tool
        })
        .collect()
}

/// The server's instructions, naming only the tools listed with `groups`.
pub(crate) fn instructions(groups: &[ToolGroup]) -> String {
    let mut text = String::from(INSTRUCTIONS);
    if shows(groups, Group::OptIn(ToolGroup::Tasks)) {
        text.push_str(TASKS);
    }
    text.push_str(SHARED_PARAMETERS);
    text
}

fn shows(groups: &[ToolGroup], group: Group) -> bool {
    match group {
        Group::Everyday => true,
        Group::OptIn(group) => groups.iter().any(|g| *g == group || *g == ToolGroup::All),
    }
}

/// `schema` as listed: no `$schema`, no integer formats or zero minimums, the unlisted
/// parameters left out, shared ones bare, optional ones with their first sentence.
fn lean(schema: &JsonObject) -> JsonObject {
    let mut schema = schema.clone();
    schema.remove("$schema");
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.retain(|name, _| !UNLISTED.contains(&name.as_str()));
        for (name, property) in properties.iter_mut() {
            let Value::Object(property) = property else { continue };
            property.remove("format");
            if property.get("minimum").and_then(Value::as_f64) == Some(0.0) {
                property.remove("minimum");
            }
            if SHARED.contains(&name.as_str()) {
                property.remove("description");
            } else if !required.contains(name)
                && let Some(Value::String(text)) = property.get_mut("description")
            {
                *text = first_sentence(text).to_string();
            }
        }
    }
    schema
}

/// The first sentence of `text`: up to the first `.`, `!` or `?` that ends a word.
fn first_sentence(text: &str) -> &str {
    text.char_indices()
        .find(|&(i, c)| matches!(c, '.' | '!' | '?') && text[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map_or(text, |(i, _)| &text[..=i])
}

/// What agents read when they connect.
const INSTRUCTIONS: &str = "cocosearch indexes this codebase for hybrid (semantic + keyword) code search. \
Prefer search_code over grep, find or reading whole files whenever you look for where something is implemented, \
handled, configured or tested, or how something works: ask in plain language, by identifier, or paste the issue \
(hits past the budget are listed by location, so a limit of 30 or more pays; for a pasted issue, max_tokens 12000 \
and limit 60 show the code to change most often for the fewest tokens in all). \
If search_code reports that there is no index, call index_codebase (it runs in the background; index_status reports \
progress). Results name the project and index used, and warn when the index is behind the files. \
For structure use the graph tools instead of grep: find_symbol (where X is defined), get_dependents (who calls X), \
get_dependencies (what X uses), get_change_impact (what breaks if X changes), get_call_chain (how A reaches B), \
get_file_dependencies / get_file_dependents (imports of / importers of a file), get_file_structure (outline), \
get_function_source / get_class_source (the code of X). For every line matching a pattern (all occurrences to \
replace, each call site) call grep_code instead of running grep yourself. ";

/// The task tools' part of the instructions, when they are listed.
const TASKS: &str = "Track your work with the task tools: list_tasks at the start (what was planned, under way, \
done), create_task before starting, update_task as it goes (status, notes, branch, commit), search_tasks for earlier \
work on a topic. ";

/// What the parameters every tool shares mean, said once.
const SHARED_PARAMETERS: &str = "Parameters shared by the tools: language (comma list; ts, py, tf work), path (a \
glob relative to the project root: *.py, src/**), max_results (a cut answer says truncated), max_tokens (the \
answer's budget in cl100k tokens, default 4000: what does not fit waits for the next page — the answer says \
truncated, its page gives total, total_tokens and next_offset) and offset (where a page starts: the next_offset \
of the answer before); every tool also takes \
index_name (another index) and at (an indexed branch, tag, commit or snapshot). search_code also takes index_names \
(several indexes), context_before and context_after; grep_code takes ripgrep's smart_case, multiline, invert, \
max_count, count and files_only.";

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters and cl100k_base tokens of `tools/list`'s result as the server sends it.
    fn listed_size(groups: &[ToolGroup]) -> (usize, usize) {
        let text = serde_json::to_string(&serde_json::json!({ "tools": listed(groups) })).unwrap_or_default();
        (text.chars().count(), tiktoken_rs::cl100k_base_singleton().count_ordinary(&text))
    }

    #[test]
    fn the_default_tool_list_stays_small() {
        // 44,458 characters before the lean list (2026-11-29); 16,000 is the ceiling.
        let (characters, tokens) = listed_size(&[]);
        let (all_characters, all_tokens) = listed_size(&[ToolGroup::All]);
        eprintln!("tools/list: {characters} characters, {tokens} tokens; every group {all_characters}, {all_tokens}");
        assert!(characters <= 16_000, "tools/list is {characters} characters");
        let names: Vec<String> = listed(&[]).into_iter().map(|t| t.name.to_string()).collect();
        for hidden in ["search_codebase", "get_file_impact", "analyze_query", "clear_index", "create_task"] {
            assert!(!names.iter().any(|n| n == hidden), "{hidden} is listed by default");
        }
        assert_eq!(listed(&[ToolGroup::All]).len(), tools::tools().len());
        assert!(listed(&[ToolGroup::Tasks]).iter().any(|t| t.name == "create_task"));
    }

    #[test]
    fn a_lean_schema_keeps_every_listed_parameter_typed_and_drops_the_unlisted() {
        let (search, _) = tools::tools().into_iter().find(|(t, _)| t.name == "search_code").expect("search_code");
        let schema = lean(&search.input_schema);
        let properties = schema["properties"].as_object().expect("properties");
        assert!(properties.contains_key("query") && properties.contains_key("limit"));
        assert!(!properties.contains_key("index_name") && !properties.contains_key("use_hybrid_search"));
        assert!(properties.values().all(|p| p.get("type").is_some()));
        assert_eq!(schema["required"], serde_json::json!(["query"]));
        assert!(properties["query"]["description"].as_str().is_some_and(|d| d.contains("Plain language")));
        assert_eq!(first_sentence("Lines to show. Before each hit (e.g. 3)."), "Lines to show.");
        assert_eq!(first_sentence("No stop"), "No stop");
    }

    #[test]
    fn the_instructions_name_the_task_tools_only_when_they_are_listed() {
        assert!(!instructions(&[]).contains("create_task"));
        assert!(instructions(&[ToolGroup::Tasks]).contains("create_task"));
        assert!(instructions(&[]).contains("index_name"));
    }
}
