//! Registering the server in a client's JSON configuration, keeping everything else.
//!
//! The file is parsed whole (a file that does not parse is an error, never overwritten), the
//! `cocosearch` entry is added or checked, and the file is written again only when its value
//! changed. Keys keep their order (serde_json's `preserve_order`, which the crate turns on), and
//! the text is laid out the way people and formatters write these files: the file's own
//! indentation, one key per line, short arrays of plain values on one line.

use serde_json::{Map, Value};

use super::agents::{JsonShape, SERVER_ARGS, SERVER_COMMAND, SERVER_NAME};
use super::{Existing, Merged, Problem};

/// Arrays of plain values up to this width stay on one line (Prettier's default width).
const LINE_WIDTH: usize = 80;

/// `text` (`None`: no file yet) with the `cocosearch` server registered in `shape`.
pub(super) fn merge_server(text: Option<&str>, shape: JsonShape, existing: Existing) -> Result<Merged, Problem> {
    let source = text.unwrap_or("");
    // A byte-order mark is not JSON, but some editors write one: keep it, parse what follows.
    let (bom, body) = match source.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", source),
    };
    let mut root = match body.trim() {
        "" => Map::new(),
        _ => match serde_json::from_str::<Value>(body) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(Problem::Shape { key: "(the top level)".into(), expected: "an object" }),
            Err(e) => {
                return Err(Problem::Syntax {
                    format: "JSON",
                    line: e.line(),
                    column: e.column(),
                    message: message_of(&e),
                });
            }
        },
    };
    let before = root.clone();
    if text.is_none() && shape == JsonShape::OpenCode {
        root.insert("$schema".into(), Value::from("https://opencode.ai/config.json"));
    }
    let servers = servers_of(&mut root, shape)?;
    let ours = entry(shape);
    match servers.get_mut(SERVER_NAME) {
        None => {
            servers.insert(SERVER_NAME.into(), Value::Object(ours));
        }
        Some(Value::Object(theirs)) if ours.iter().all(|(k, v)| theirs.get(k) == Some(v)) => {}
        Some(_) if existing == Existing::Keep => return Ok(Merged::KeptOther),
        // Our keys replace theirs; keys of their own (`env`, `cwd`, `timeout`) stay.
        Some(Value::Object(theirs)) => theirs.extend(ours),
        Some(other) => *other = Value::Object(ours),
    }
    if text.is_some() && root == before {
        return Ok(Merged::Text(source.to_string()));
    }
    let mut out = String::from(bom);
    layout(&Value::Object(root), indent_of(body), 0, &mut out);
    out.push('\n');
    Ok(Merged::Text(out))
}

/// The object holding the servers (created when missing): `mcpServers`, or opencode's `mcp` —
/// or `mcp.servers` when the file already uses opencode 2's native shape.
fn servers_of(root: &mut Map<String, Value>, shape: JsonShape) -> Result<&mut Map<String, Value>, Problem> {
    let key = match shape {
        JsonShape::McpServers => "mcpServers",
        JsonShape::OpenCode => "mcp",
    };
    let Value::Object(container) = root.entry(key).or_insert_with(|| Value::Object(Map::new())) else {
        return Err(Problem::Shape { key: key.into(), expected: "an object" });
    };
    // In opencode 1's shape every value under `mcp` is a server, which has a `type`; a
    // `servers` object without one is opencode 2's list of servers.
    let nested = shape == JsonShape::OpenCode
        && matches!(container.get("servers"), Some(Value::Object(s)) if !s.contains_key("type"));
    if !nested {
        return Ok(container);
    }
    match container.get_mut("servers") {
        Some(Value::Object(servers)) => Ok(servers),
        _ => Err(Problem::Shape { key: "mcp.servers".into(), expected: "an object" }),
    }
}

/// The `cocosearch` entry in `shape`.
fn entry(shape: JsonShape) -> Map<String, Value> {
    let mut entry = Map::new();
    match shape {
        JsonShape::McpServers => {
            entry.insert("command".into(), Value::from(SERVER_COMMAND));
            entry.insert("args".into(), Value::from(SERVER_ARGS.to_vec()));
        }
        JsonShape::OpenCode => {
            let mut command = vec![SERVER_COMMAND];
            command.extend(SERVER_ARGS);
            entry.insert("type".into(), Value::from("local"));
            entry.insert("command".into(), Value::from(command));
            entry.insert("enabled".into(), Value::from(true));
        }
    }
    entry
}

/// serde_json's message without its own " at line L column C" (the error says where).
fn message_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&tail).unwrap_or(&text).to_string()
}

/// The indentation the file uses: the leading blanks of its first indented line (two spaces
/// for a new or one-line file).
fn indent_of(text: &str) -> &str {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
        .find(|blanks| !blanks.is_empty())
        .unwrap_or("  ")
}

/// Appends `value` laid out at nesting `depth`.
fn layout(value: &Value, indent: &str, depth: usize, out: &mut String) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&indent.repeat(depth + 1));
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push_str(": ");
                layout(item, indent, depth + 1, out);
            }
            out.push('\n');
            out.push_str(&indent.repeat(depth));
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            let plain = items.iter().all(|v| !v.is_array() && !v.is_object());
            let inline = format!("[{}]", items.iter().map(Value::to_string).collect::<Vec<_>>().join(", "));
            let column = out.len() - out.rfind('\n').map_or(0, |at| at + 1);
            if plain && column + inline.len() <= LINE_WIDTH {
                out.push_str(&inline);
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&indent.repeat(depth + 1));
                layout(item, indent, depth + 1, out);
            }
            out.push('\n');
            out.push_str(&indent.repeat(depth));
            out.push(']');
        }
        // Scalars, `{}` and `[]`: serde_json's compact form is the written form.
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(text: Option<&str>, shape: JsonShape, existing: Existing) -> String {
        match merge_server(text, shape, existing) {
            Ok(Merged::Text(text)) => text,
            other => panic!("expected a text, got {other:?}"),
        }
    }

    #[test]
    fn a_new_file_holds_only_the_server() {
        assert_eq!(
            merged(None, JsonShape::McpServers, Existing::Keep),
            "{\n  \"mcpServers\": {\n    \"cocosearch\": {\n      \"command\": \"cocosearch\",\n      \"args\": [\"mcp\", \"--project-from-cwd\"]\n    }\n  }\n}\n"
        );
        let opencode: Value =
            serde_json::from_str(&merged(None, JsonShape::OpenCode, Existing::Keep)).expect("valid JSON");
        assert_eq!(opencode["$schema"], "https://opencode.ai/config.json");
        assert_eq!(
            opencode["mcp"]["cocosearch"],
            serde_json::json!({"type": "local", "command": ["cocosearch", "mcp", "--project-from-cwd"], "enabled": true})
        );
    }

    #[test]
    fn other_servers_and_keys_stay_in_their_order_and_the_indentation_is_the_files() {
        let before = "{\n    \"zeta\": 1,\n    \"mcpServers\": {\n        \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"], \"env\": {\"TOKEN\": \"x\"}}\n    },\n    \"alpha\": [1, 2]\n}";
        let after = merged(Some(before), JsonShape::McpServers, Existing::Keep);
        assert_eq!(
            after,
            "{\n    \"zeta\": 1,\n    \"mcpServers\": {\n        \"github\": {\n            \"command\": \"npx\",\n            \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"],\n            \"env\": {\n                \"TOKEN\": \"x\"\n            }\n        },\n        \"cocosearch\": {\n            \"command\": \"cocosearch\",\n            \"args\": [\"mcp\", \"--project-from-cwd\"]\n        }\n    },\n    \"alpha\": [1, 2]\n}\n"
        );
        // Merging again gives the same bytes.
        assert_eq!(merged(Some(&after), JsonShape::McpServers, Existing::Keep), after);
    }

    #[test]
    fn a_file_already_registering_the_server_is_returned_as_it_is() {
        let text = "{\"mcpServers\":{\"cocosearch\":{\"args\":[\"mcp\",\"--project-from-cwd\"],\"command\":\"cocosearch\",\"env\":{\"A\":\"b\"}}}}";
        assert_eq!(merged(Some(text), JsonShape::McpServers, Existing::Keep), text);
    }

    #[test]
    fn a_different_cocosearch_entry_is_kept_unless_replaced_and_then_keeps_its_own_keys() {
        let text =
            r#"{"mcpServers": {"cocosearch": {"command": "/opt/bin/cocosearch", "args": ["mcp"], "env": {"A": "b"}}}}"#;
        assert_eq!(merge_server(Some(text), JsonShape::McpServers, Existing::Keep), Ok(Merged::KeptOther));
        let replaced: Value =
            serde_json::from_str(&merged(Some(text), JsonShape::McpServers, Existing::Replace)).expect("json");
        assert_eq!(
            replaced["mcpServers"]["cocosearch"],
            serde_json::json!({"command": "cocosearch", "args": ["mcp", "--project-from-cwd"], "env": {"A": "b"}})
        );
    }

    #[test]
    fn opencode_2_files_get_the_server_under_mcp_servers() {
        let text = r#"{"mcp": {"servers": {"other": {"type": "remote", "url": "https://example.com"}}}}"#;
        let after: Value =
            serde_json::from_str(&merged(Some(text), JsonShape::OpenCode, Existing::Keep)).expect("json");
        assert_eq!(after["mcp"]["servers"]["cocosearch"]["type"], "local", "{after}");
        assert_eq!(after["mcp"]["servers"]["other"]["url"], "https://example.com", "{after}");
        assert!(after.get("$schema").is_none(), "an existing file gets no new keys: {after}");
        // opencode 1's shape: a server named `servers` is a server.
        let text = r#"{"mcp": {"servers": {"type": "local", "command": ["x"]}}}"#;
        let after: Value =
            serde_json::from_str(&merged(Some(text), JsonShape::OpenCode, Existing::Keep)).expect("json");
        assert_eq!(after["mcp"]["cocosearch"]["enabled"], true, "{after}");
    }

    #[test]
    fn malformed_and_misshapen_files_are_problems_that_say_where() {
        let err = merge_server(Some("{\n  \"mcpServers\": {,\n}"), JsonShape::McpServers, Existing::Keep);
        let Err(Problem::Syntax { format: "JSON", line: 2, column, message }) = err else { panic!("{err:?}") };
        assert!(column > 0 && !message.contains("at line"), "{column} {message}");
        assert_eq!(
            merge_server(Some("[1]"), JsonShape::McpServers, Existing::Keep),
            Err(Problem::Shape { key: "(the top level)".into(), expected: "an object" })
        );
        assert_eq!(
            merge_server(Some(r#"{"mcpServers": "x"}"#), JsonShape::McpServers, Existing::Keep),
            Err(Problem::Shape { key: "mcpServers".into(), expected: "an object" })
        );
        // Comments are not JSON (Claude Code and Cursor read plain JSON).
        assert!(matches!(
            merge_server(Some("{ // servers\n}"), JsonShape::McpServers, Existing::Keep),
            Err(Problem::Syntax { .. })
        ));
    }

    #[test]
    fn empty_files_and_byte_order_marks_are_handled() {
        assert_eq!(
            merged(Some(" \n"), JsonShape::McpServers, Existing::Keep),
            merged(None, JsonShape::McpServers, Existing::Keep)
        );
        let with_bom = merged(Some("\u{feff}{\"a\": 1}\n"), JsonShape::McpServers, Existing::Keep);
        assert!(with_bom.starts_with("\u{feff}{\n  \"a\": 1,"), "{with_bom:?}");
    }

    #[test]
    fn long_or_nested_arrays_go_one_item_per_line() {
        let mut out = String::new();
        let long: Vec<String> = (0..12).map(|i| format!("argument-{i}")).collect();
        layout(&serde_json::json!({"a": long, "b": [[1], {"c": 2}], "d": [], "e": {}}), "  ", 0, &mut out);
        assert!(out.contains("\"a\": [\n    \"argument-0\",\n"), "{out}");
        assert!(out.contains("\"b\": [\n    [1],\n    {\n      \"c\": 2\n    }\n  ]"), "{out}");
        assert!(out.contains("\"d\": [],\n  \"e\": {}\n}"), "{out}");
    }
}
