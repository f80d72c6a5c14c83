//! Every option declared in `inputs` reaches every front end: the command line (its clap
//! argument), the dashboard (its query string, parsed from the same definition) and the MCP
//! tools (a property of the argument schema, deserialized), unless its `ONLY_*` table says
//! why not.

use clap::{Args, CommandFactory, Parser};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::*;
use crate::workspace::IndexRef;

/// A command of the options `T` alone, as the dashboard parses them.
#[derive(Debug, Parser)]
#[command(name = "probe")]
struct Probe<T: Args> {
    /// The positional argument of a search or grep.
    q: Vec<String>,
    #[command(flatten)]
    options: T,
}

/// The clap ids (field names) of `T`'s arguments, with their long names.
fn command_line_options<T: Args>() -> Vec<(String, Option<String>)> {
    let command = <Probe<T>>::command();
    command
        .get_arguments()
        .filter(|a| a.get_id() != "q" && a.get_id() != "help")
        .map(|a| (a.get_id().to_string(), a.get_long().map(str::to_string)))
        .collect()
}

/// The properties of `T`'s MCP argument schema, with their schemas, and the whole schema.
fn mcp_options<T: schemars::JsonSchema>() -> (serde_json::Map<String, Value>, Value) {
    let schema = serde_json::to_value(schemars::schema_for!(T)).expect("schema");
    (schema["properties"].as_object().cloned().unwrap_or_default(), schema)
}

/// A value the dashboard may pass for the flag `long` of `T`.
fn query_value<T: Args>(long: &str) -> String {
    let command = <Probe<T>>::command();
    let arg = command.get_arguments().find(|a| a.get_long() == Some(long)).expect("argument");
    if takes_no_value(arg) {
        return String::new();
    }
    match arg.get_possible_values().into_iter().next() {
        // An enum's first value may be its default: the last one changes something.
        Some(_) => arg.get_possible_values().last().map(|v| v.get_name().to_string()).unwrap_or_default(),
        None => "1".to_string(),
    }
}

/// A value an agent may pass for the property `schema` (of the schema `root`).
fn mcp_value(schema: &Value, root: &Value) -> Value {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return mcp_value(&root["$defs"][name], root);
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.last().cloned().unwrap_or(Value::Null);
    }
    for key in ["anyOf", "oneOf"] {
        let branches = schema[key].as_array().into_iter().flatten();
        let usable: Vec<&Value> =
            branches.filter(|b| b["type"] != "null" && !b["const"].is_null() || b.get("$ref").is_some()).collect();
        if let Some(last) = usable.last() {
            return last.get("const").cloned().unwrap_or_else(|| mcp_value(last, root));
        }
    }
    // schemars writes an optional value's type as `[T, "null"]`.
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null"),
        kind => kind.as_str(),
    };
    match kind {
        Some("integer") => json!(1),
        Some("number") => json!(0.5),
        // The value that is not the default is the one that changes something.
        Some("boolean") => json!(schema["default"] != json!(true)),
        Some("array") => json!(["x"]),
        _ => json!("x"),
    }
}

/// Checks that every option of `T` reaches every front end but those `only` lists, and that
/// `only` lists no option that does reach it.
fn check_front_ends<T>(only: &[(&str, Missing, &str)])
where
    T: Args + schemars::JsonSchema + DeserializeOwned + PartialEq + Default + std::fmt::Debug,
{
    let missing_from = |name: &str, front: Missing| only.iter().any(|(n, f, _)| *n == name && *f == front);
    let command_line = command_line_options::<T>();
    let (mcp, root) = mcp_options::<T>();
    for (id, long) in &command_line {
        let long = long.as_deref().unwrap_or_else(|| panic!("{id} has no long flag for the dashboard"));
        let parsed = from_query::<Probe<T>>(&[(long.to_string(), query_value::<T>(long))], "q")
            .unwrap_or_else(|e| panic!("the dashboard refuses {long}: {}", e.message));
        assert_ne!(parsed.options, T::default(), "the dashboard's {long} changes nothing");
        assert!(mcp.contains_key(id) || missing_from(id, Missing::Mcp), "{id} is not an MCP argument: say why");
    }
    for (name, schema) in &mcp {
        let arguments = json!({ name.as_str(): mcp_value(schema, &root) });
        let parsed: T = serde_json::from_value(arguments.clone()).unwrap_or_else(|e| panic!("{arguments}: {e}"));
        assert_ne!(parsed, T::default(), "the MCP argument {name} changes nothing");
        let on_command_line = command_line.iter().any(|(id, _)| id == name);
        assert!(on_command_line || missing_from(name, Missing::Command), "{name} has no flag: say why");
    }
    for (name, front, _) in only {
        let present = match front {
            Missing::Mcp => mcp.contains_key(*name),
            Missing::Command => command_line.iter().any(|(id, _)| id == name),
        };
        assert!(!present, "{name} is listed as missing from {front:?}, but it is there");
    }
}

#[test]
fn every_search_option_reaches_every_front_end() {
    check_front_ends::<SearchOptions>(SEARCH_ONLY);
}

#[test]
fn the_index_named_reaches_every_front_end() {
    check_front_ends::<IndexRef>(&[]);
}

#[test]
fn every_grep_option_reaches_every_front_end() {
    check_front_ends::<crate::workspace::grep::GrepOptions>(&[]);
}

#[test]
fn every_graph_option_reaches_every_front_end() {
    check_front_ends::<crate::workspace::graph::GraphOptions>(&[]);
    check_front_ends::<crate::workspace::graph::KindFilter>(&[]);
}

#[test]
fn a_query_string_is_read_as_the_command_line_reads_flags() {
    let pairs = |items: &[(&str, &str)]| -> Vec<(String, String)> {
        items.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    };
    let parsed = from_query::<Probe<SearchOptions>>(
        &pairs(&[("q", "retry"), ("lang", "py,rs"), ("mode", "keyword"), ("before-context", "2"), ("no-smart", "")]),
        "q",
    )
    .expect("parses");
    assert_eq!(parsed.q, ["retry"]);
    assert_eq!(parsed.options.files.language, ["py", "rs"]);
    assert_eq!(parsed.options.mode, Some(SearchMode::Keyword));
    assert_eq!(parsed.options.context_before, Some(2));
    assert_eq!(parsed.options.smart_context, Some(false));
    let refused =
        |items: &[(&str, &str)]| from_query::<Probe<SearchOptions>>(&pairs(items), "q").expect_err("refused").message;
    assert!(refused(&[("mode", "fast")]).contains("'fast' for 'mode'"), "{}", refused(&[("mode", "fast")]));
    assert!(refused(&[("mode", "hybrid"), ("keyword", "")]).contains("cannot be used with"));
    assert!(refused(&[("limt", "3")]).contains("did you mean \"limit\""));
}

#[test]
fn a_list_is_a_comma_string_or_an_array() {
    let options: SearchOptions =
        serde_json::from_value(json!({"language": "py, ts", "index_names": ["a", " ", "b"]})).expect("parses");
    assert_eq!(options.files.language, ["py", "ts"]);
    assert_eq!(options.indexes.index_names, ["a", "b"]);
}
