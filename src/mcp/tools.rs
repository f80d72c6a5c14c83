//! The tools as agents see them: names, descriptions, parameters (with their JSON schemas in
//! plain types) and how arguments are read.
//!
//! Names and parameters follow CocoSearch's MCP server, so prompts written for it keep
//! working. Descriptions say when to use a tool, not just what it does: an agent picks
//! `search_code` over grep only if the description tells it why.
//! API boundary: tool names, parameter names and result fields.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use rmcp::schemars::{self, JsonSchema};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::ToolError;
use super::schema::input_schema;

/// Largest `limit` of `search_code`.
pub(crate) const MAX_LIMIT: u32 = 100;
/// Largest `context_before` / `context_after`.
pub(crate) const MAX_CONTEXT: u32 = 200;
/// Longest `index_status` wait.
pub(crate) const MAX_WAIT_SECONDS: u32 = 60;
/// Parameters that take a comma-separated string or an array of strings.
const LIST_PARAMETERS: &[&str] = &["index_names", "language", "symbol_type"];

/// `search_code` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchCodeArgs {
    /// What to find. Plain language ("where do we retry failed uploads", "how is the session
    /// token validated") or exact text: an identifier (getUserById, Session.send), an error
    /// code, a path, or a "quoted phrase".
    pub query: String,
    /// Search this index instead of the current project's (see list_indexes).
    #[serde(default)]
    pub index_name: Option<String>,
    /// Search several indexes at once; results are merged by score.
    #[serde(default, deserialize_with = "string_list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub index_names: Option<Vec<String>>,
    /// Number of results, 1 to 100.
    #[serde(default)]
    #[schemars(extend("default" = 10), range(min = 1, max = 100))]
    pub limit: Option<u32>,
    /// Only these languages, comma-separated (python, ts, go, rust, ...; aliases work).
    #[serde(default, deserialize_with = "string_list")]
    #[schemars(with = "Option<String>")]
    pub language: Option<Vec<String>>,
    /// true: always fuse semantic and keyword ranking; false: semantic (vector) ranking only.
    /// Omit to let the query decide: identifiers lean on keywords, questions on meaning.
    #[serde(default)]
    pub use_hybrid_search: Option<bool>,
    /// Only chunks defining these kinds of symbol, comma-separated: function, method, class,
    /// struct, enum, interface, trait, impl, module, type, constant, variable, ...
    #[serde(default, deserialize_with = "string_list")]
    #[schemars(with = "Option<String>")]
    pub symbol_type: Option<Vec<String>>,
    /// Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler).
    #[serde(default)]
    pub symbol_name: Option<String>,
    /// Lines to add before each result, read from the file.
    #[serde(default)]
    #[schemars(range(max = 200))]
    pub context_before: Option<u32>,
    /// Lines to add after each result, read from the file.
    #[serde(default)]
    #[schemars(range(max = 200))]
    pub context_after: Option<u32>,
    /// Expand each result to its whole enclosing function or class.
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub smart_context: Option<bool>,
    /// Only files matching this glob, relative to the project root: `*.py` (anywhere),
    /// `src/api` (a directory), `src/**/*.rs`.
    #[serde(default)]
    pub path: Option<String>,
    /// Cap on the lines of each result's content; longer results are cut and say so.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_lines: Option<u32>,
}

/// `index_codebase` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IndexCodebaseArgs {
    /// The directory to index; absolute, or relative to the project root. Default: the
    /// current project. Must be inside a workspace root or an already indexed directory.
    #[serde(default)]
    pub path: Option<String>,
    /// Name of the index. Default: the project's (indexName in cocosearch.yaml, else the
    /// directory's name).
    #[serde(default)]
    pub index_name: Option<String>,
    /// Delete the index and rebuild it from nothing (default false: only changed files are
    /// redone).
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub fresh: Option<bool>,
}

/// `index_status` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IndexStatusArgs {
    /// The index. Default: the current project's.
    #[serde(default)]
    pub index_name: Option<String>,
    /// A job id returned by index_codebase (instead of index_name).
    #[serde(default)]
    pub job_id: Option<String>,
    /// Wait up to this many seconds (0 to 60) for a running job to finish before answering;
    /// progress notifications are sent meanwhile.
    #[serde(default)]
    #[schemars(extend("default" = 0), range(max = 60))]
    pub wait_seconds: Option<u32>,
}

/// `index_stats` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IndexStatsArgs {
    /// The index. Default: the current project's.
    #[serde(default)]
    pub index_name: Option<String>,
    /// List the files whose chunks failed to parse, with error positions.
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub include_failures: Option<bool>,
}

/// `list_indexes` arguments (none).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListIndexesArgs {}

/// `clear_index` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClearIndexArgs {
    /// The index to delete (see list_indexes).
    pub index_name: String,
}

/// One tool: its name, description, argument type and hints.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: fn() -> Arc<JsonObject>,
    read_only: bool,
    destructive: bool,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "search_code",
        title: "Search code",
        description: "Search the codebase by meaning or by name; use it before grep or reading files to find where \
something is implemented, handled, configured or tested. Ask in plain language (\"where do we retry failed uploads\") \
or exactly (an identifier like getUserById or Session.send, an error code, a \"quoted phrase\"): semantic and keyword \
rankings are fused, and a symbol defined with exactly the queried name comes first. Each result is a whole function, \
class or section with path, line range, symbol, language and a score in 0..1, read fresh from disk; \
context_before/context_after add surrounding lines, so you rarely need to open the file. Narrow with language, path \
(glob), symbol_type and symbol_name. The project comes from your workspace roots; the result says which project and \
index were searched and warns when the index is behind the files (call index_codebase to refresh). If there is no \
index yet, call index_codebase first.",
        schema: input_schema::<SearchCodeArgs>,
        read_only: true,
        destructive: false,
    },
    Spec {
        name: "index_codebase",
        title: "Index a codebase",
        description: "Index (or refresh) a project so search_code can search it. Incremental: only files changed since \
the last run are redone, so calling it again after edits is cheap. Returns at once with a job_id while indexing runs \
in the background (progress notifications are sent if you pass a progress token); poll index_status (its wait_seconds \
waits for the end) to see progress and the final counts. Default: the current project (from your workspace roots). \
Paths outside the workspace roots and already indexed directories are refused.",
        schema: input_schema::<IndexCodebaseArgs>,
        read_only: false,
        destructive: false,
    },
    Spec {
        name: "index_status",
        title: "Indexing status",
        description: "Progress of an index_codebase job (phase, files and chunks done, percent) or, once it ended, its \
outcome and counts: files added, modified, removed; chunks written; vectors computed; warnings. Without a job in this \
server, reports the last recorded run of the index.",
        schema: input_schema::<IndexStatusArgs>,
        read_only: true,
        destructive: false,
    },
    Spec {
        name: "index_stats",
        title: "Index statistics",
        description: "What an index holds and how healthy it is: files, chunks, lines and symbols per language, \
embedding model, parse health, the last run, and freshness (files added, modified or removed since indexing, git \
commit drift). Use it to judge whether search results can be trusted or the index needs index_codebase.",
        schema: input_schema::<IndexStatsArgs>,
        read_only: true,
        destructive: false,
    },
    Spec {
        name: "list_indexes",
        title: "List indexes",
        description: "Every index in the database: name, project root, embedding model and the git commit indexed. Use \
the names as index_name in the other tools, e.g. to search another project.",
        schema: input_schema::<ListIndexesArgs>,
        read_only: true,
        destructive: false,
    },
    Spec {
        name: "clear_index",
        title: "Delete an index",
        description: "Delete an index and everything stored for it. The files themselves are not touched; \
index_codebase rebuilds it. Only when the user asks for it.",
        schema: input_schema::<ClearIndexArgs>,
        read_only: false,
        destructive: true,
    },
];

/// The tool list of `tools/list`.
pub(crate) fn tools() -> Vec<Tool> {
    SPECS
        .iter()
        .map(|spec| {
            let annotations = ToolAnnotations::with_title(spec.title)
                .read_only(spec.read_only)
                .destructive(spec.destructive)
                .idempotent(!spec.destructive)
                .open_world(false);
            Tool::new(spec.name, spec.description, schema_of(spec.name))
                .with_title(spec.title)
                .with_annotations(annotations)
        })
        .collect()
}

/// The input schema of `tool` (empty for an unknown one), generated once per process:
/// generating it costs more than parsing a call's arguments.
fn schema_of(tool: &str) -> Arc<JsonObject> {
    static SCHEMAS: OnceLock<Vec<(&'static str, Arc<JsonObject>)>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| SPECS.iter().map(|s| (s.name, (s.schema)())).collect());
    schemas.iter().find(|(name, _)| *name == tool).map(|(_, schema)| Arc::clone(schema)).unwrap_or_default()
}

/// Reads the arguments of `tool`, or says what is wrong and what is allowed.
///
/// `null` counts as omitted. Each argument is checked against the schema first (name, type,
/// range), so the message names the parameter; serde's own messages do not.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(tool: &str, arguments: Option<JsonObject>) -> Result<T, ToolError> {
    let schema = schema_of(tool);
    let fail = |what: String| ToolError::new(format!("{tool}: {what}. Parameters: {}", describe_parameters(&schema)));
    let mut arguments = arguments.unwrap_or_default();
    arguments.retain(|_, v| !v.is_null());
    let no_properties = JsonObject::new();
    let properties = schema.get("properties").and_then(|p| p.as_object()).unwrap_or(&no_properties);
    for (name, value) in &arguments {
        let Some(property) = properties.get(name) else {
            let closest = properties
                .keys()
                .map(|k| (strsim::jaro_winkler(name, k), k))
                .filter(|(score, _)| *score > 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, k)| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(fail(format!("unknown parameter `{name}`{closest}")));
        };
        check(name, value, property).map_err(fail)?;
    }
    for name in schema.get("required").and_then(|r| r.as_array()).into_iter().flatten().filter_map(|v| v.as_str()) {
        if !arguments.contains_key(name) {
            return Err(fail(format!("missing required parameter `{name}`")));
        }
    }
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| fail(e.to_string()))
}

/// Checks one argument against its property schema: type and numeric range.
fn check(name: &str, value: &serde_json::Value, property: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let expected = property.get("type").and_then(Value::as_str).unwrap_or("any");
    let ok = match expected {
        // Comma lists also accept an array of strings.
        "string" => value.is_string() || (LIST_PARAMETERS.contains(&name) && value.is_array()),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        // Lists also accept one comma-separated string.
        "array" => value.is_array() || (LIST_PARAMETERS.contains(&name) && value.is_string()),
        _ => true,
    };
    if !ok {
        let got = match value {
            Value::String(s) => format!("the string {s:?}"),
            Value::Number(n) => format!("the number {n}"),
            Value::Bool(b) => format!("{b}"),
            Value::Array(_) => "an array".to_string(),
            Value::Object(_) => "an object".to_string(),
            Value::Null => "null".to_string(),
        };
        return Err(format!(
            "`{name}` must be {} {expected}, got {got}",
            if expected == "integer" { "an" } else { "a" }
        ));
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = property.get("minimum").and_then(Value::as_f64).filter(|min| n < *min) {
            return Err(format!("`{name}` must be at least {min}, got {n}"));
        }
        if let Some(max) = property.get("maximum").and_then(Value::as_f64).filter(|max| n > *max) {
            return Err(format!("`{name}` must be at most {max}, got {n}"));
        }
    }
    Ok(())
}

/// `query (string, required), limit (integer), ...` from a schema.
fn describe_parameters(schema: &JsonObject) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let properties = schema.get("properties").and_then(|p| p.as_object()).filter(|p| !p.is_empty());
    let Some(properties) = properties else { return "none".into() };
    properties
        .iter()
        .map(|(name, p)| {
            let kind = match (p.get("type").and_then(|t| t.as_str()), p.get("items").and_then(|i| i.get("type"))) {
                (_, Some(item)) => format!("array of {}", item.as_str().unwrap_or("any")),
                (Some(kind), None) => kind.to_string(),
                (None, None) => "any".to_string(),
            };
            let required = if required.contains(&name.as_str()) { ", required" } else { "" };
            format!("{name} ({kind}{required})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A list given as a JSON array of strings or as one comma-separated string.
fn string_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let value: Option<OneOrMany> = Option::deserialize(deserializer)
        .map_err(|_: D::Error| de::Error::custom("expected a string (comma-separated) or an array of strings"))?;
    let items: Vec<String> = match value {
        None => return Ok(None),
        Some(OneOrMany::One(s)) => s.split(',').map(str::to_string).collect(),
        Some(OneOrMany::Many(v)) => v,
    };
    let items: Vec<String> = items.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    Ok((!items.is_empty()).then_some(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::schema::unions;

    #[test]
    fn every_schema_uses_plain_types() {
        for tool in tools() {
            let schema = serde_json::Value::Object((*tool.input_schema).clone());
            assert_eq!(unions(&schema), Vec::<String>::new(), "{}: {schema:#}", tool.name);
            assert_eq!(schema["type"], "object", "{}", tool.name);
            assert!(tool.description.as_ref().is_some_and(|d| d.len() > 80), "{} needs a real description", tool.name);
            for (name, p) in schema["properties"].as_object().into_iter().flatten() {
                assert!(p.get("description").is_some(), "{}.{name} has no description", tool.name);
            }
        }
        let search = tools().into_iter().find(|t| t.name == "search_code").expect("search_code");
        let props = &search.input_schema["properties"];
        assert_eq!(props["language"]["type"], "string");
        assert_eq!(props["index_names"]["type"], "array");
        assert_eq!(props["limit"]["default"], 10);
        assert_eq!(search.input_schema["required"], serde_json::json!(["query"]));
    }

    #[test]
    fn lists_accept_strings_and_arrays() {
        let a: SearchCodeArgs = parse(
            "search_code",
            serde_json::from_str(r#"{"query":"q","language":"py, ts","index_names":["a","b"]}"#).ok(),
        )
        .expect("parse");
        assert_eq!(a.language, Some(vec!["py".to_string(), "ts".to_string()]));
        assert_eq!(a.index_names, Some(vec!["a".to_string(), "b".to_string()]));
        let b: SearchCodeArgs = parse(
            "search_code",
            serde_json::from_str(r#"{"query":"q","symbol_type":["function"],"index_names":"x,y"}"#).ok(),
        )
        .expect("parse");
        assert_eq!(b.symbol_type, Some(vec!["function".to_string()]));
        assert_eq!(b.index_names, Some(vec!["x".to_string(), "y".to_string()]));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong_and_what_is_allowed() {
        let parse_search = |json: &str| parse::<SearchCodeArgs>("search_code", serde_json::from_str(json).ok());
        let e = parse_search(r#"{"qurey":"x"}"#).expect_err("typo");
        assert!(e.message.contains("unknown parameter `qurey` (did you mean `query`?)"), "{}", e.message);
        assert!(e.message.contains("query (string, required)"), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":"ten"}"#).expect_err("type");
        assert!(e.message.contains("`limit` must be an integer, got the string \"ten\""), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":0}"#).expect_err("range");
        assert!(e.message.contains("`limit` must be at least 1"), "{}", e.message);
        let e = parse_search(r#"{"query":["x"]}"#).expect_err("type");
        assert!(e.message.contains("`query` must be a string, got an array"), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":1000}"#).expect_err("range");
        assert!(e.message.contains("`limit` must be at most 100"), "{}", e.message);
        let e = parse::<ClearIndexArgs>("clear_index", None).expect_err("missing");
        assert!(e.message.contains("missing required parameter `index_name`"), "{}", e.message);
        // null means omitted.
        let a = parse_search(r#"{"query":"x","limit":null,"language":null}"#).expect("nulls");
        assert_eq!((a.limit, a.language), (None, None));
    }
}
