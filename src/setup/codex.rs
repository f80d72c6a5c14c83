//! Registering the server in Codex's `.codex/config.toml`, keeping the user's formatting.
//!
//! `toml_edit` keeps comments, blank lines, key order and quoting of everything it is not asked
//! to change, so the file gains one `[mcp_servers.cocosearch]` table and nothing else moves.

use toml_edit::{Array, DocumentMut, Item, Table, TableLike, value};

use super::agents::{SERVER_ARGS, SERVER_COMMAND, SERVER_NAME};
use super::{Existing, Merged, Problem};

/// `text` (`None`: no file yet) with `[mcp_servers.cocosearch]` registered.
pub(super) fn merge_server(text: Option<&str>, existing: Existing) -> Result<Merged, Problem> {
    let source = text.unwrap_or("");
    let mut doc: DocumentMut = source.parse().map_err(|e: toml_edit::TomlError| {
        let (line, column) = position(source, e.span().map_or(0, |span| span.start));
        Problem::Syntax { format: "TOML", line, column, message: e.message().trim().to_string() }
    })?;
    let servers = doc.entry("mcp_servers").or_insert_with(|| {
        // `[mcp_servers.cocosearch]` alone, without an empty `[mcp_servers]` header above it.
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    let Some(servers) = servers.as_table_like_mut() else {
        return Err(Problem::Shape { key: "mcp_servers".into(), expected: "a table" });
    };
    match servers.get_mut(SERVER_NAME) {
        None => {
            servers.insert(SERVER_NAME, Item::Table(entry()));
        }
        Some(theirs) if theirs.as_table_like().is_some_and(is_ours) => return Ok(Merged::Text(source.to_string())),
        Some(_) if existing == Existing::Keep => return Ok(Merged::KeptOther),
        // Our keys replace theirs; keys of their own (`env`, `startup_timeout_sec`) stay.
        Some(theirs) => match theirs.as_table_like_mut() {
            Some(table) => {
                table.insert("command", value(SERVER_COMMAND));
                table.insert("args", value(args()));
            }
            None => *theirs = Item::Table(entry()),
        },
    }
    Ok(Merged::Text(doc.to_string()))
}

/// `command = "cocosearch"`, `args = ["mcp", "--project-from-cwd"]`.
fn entry() -> Table {
    let mut table = Table::new();
    table.insert("command", value(SERVER_COMMAND));
    table.insert("args", value(args()));
    table
}

fn args() -> Array {
    SERVER_ARGS.into_iter().collect()
}

/// Whether an existing entry runs our command with our arguments.
fn is_ours(table: &dyn TableLike) -> bool {
    let command = table.get("command").and_then(Item::as_str);
    let args: Option<Vec<&str>> =
        table.get("args").and_then(Item::as_array).map(|a| a.iter().filter_map(|v| v.as_str()).collect());
    command == Some(SERVER_COMMAND) && args.as_deref() == Some(&SERVER_ARGS[..])
}

/// The 1-based line and column of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(text: Option<&str>, existing: Existing) -> String {
        match merge_server(text, existing) {
            Ok(Merged::Text(text)) => text,
            other => panic!("expected a text, got {other:?}"),
        }
    }

    #[test]
    fn a_new_file_holds_one_table() {
        assert_eq!(
            merged(None, Existing::Keep),
            "[mcp_servers.cocosearch]\ncommand = \"cocosearch\"\nargs = [\"mcp\", \"--project-from-cwd\"]\n"
        );
    }

    #[test]
    fn comments_formatting_and_other_servers_stay() {
        let before = "# my settings\nmodel = 'o3'   # the model\n\n[mcp_servers.docs]\ncommand = \"docs-server\"\nargs = [ \"--port\",  \"1\" ]\n\n[profiles.fast]\nmodel = \"o4-mini\"\n";
        let after = merged(Some(before), Existing::Keep);
        // The new table joins the other servers; every line of the user's stays as written.
        assert_eq!(
            after,
            before.replace(
                "\n[profiles.fast]",
                "\n[mcp_servers.cocosearch]\ncommand = \"cocosearch\"\nargs = [\"mcp\", \"--project-from-cwd\"]\n\n[profiles.fast]"
            )
        );
        let doc: DocumentMut = after.parse().expect("valid TOML");
        assert_eq!(doc["mcp_servers"]["docs"]["command"].as_str(), Some("docs-server"));
        assert_eq!(merged(Some(&after), Existing::Keep), after, "a second merge changes nothing");
    }

    #[test]
    fn a_different_entry_is_kept_unless_replaced_and_then_keeps_its_own_keys() {
        let before = "[mcp_servers.cocosearch]\ncommand = \"/opt/cocosearch\"\nargs = [\"mcp\"]\nenv = { A = \"b\" }\n";
        assert_eq!(merge_server(Some(before), Existing::Keep), Ok(Merged::KeptOther));
        let after = merged(Some(before), Existing::Replace);
        let doc: DocumentMut = after.parse().expect("valid TOML");
        let entry = &doc["mcp_servers"]["cocosearch"];
        assert_eq!(entry["command"].as_str(), Some("cocosearch"));
        assert_eq!(entry["env"]["A"].as_str(), Some("b"), "{after}");
    }

    #[test]
    fn inline_tables_are_merged_inline() {
        let before = "mcp_servers = { docs = { command = \"docs-server\" } }\n";
        let after = merged(Some(before), Existing::Keep);
        let doc: DocumentMut = after.parse().expect("valid TOML");
        assert_eq!(doc["mcp_servers"]["cocosearch"]["args"].as_array().map(|a| a.len()), Some(2), "{after}");
        assert_eq!(doc["mcp_servers"]["docs"]["command"].as_str(), Some("docs-server"));
    }

    #[test]
    fn malformed_and_misshapen_files_are_problems_that_say_where() {
        let err = merge_server(Some("model = \"o3\"\n[mcp_servers\ncommand = 1\n"), Existing::Keep);
        let Err(Problem::Syntax { format: "TOML", line: 2, .. }) = err else { panic!("{err:?}") };
        assert_eq!(
            merge_server(Some("mcp_servers = \"none\"\n"), Existing::Keep),
            Err(Problem::Shape { key: "mcp_servers".into(), expected: "a table" })
        );
        assert_eq!(
            merge_server(Some("[[mcp_servers]]\nname = \"x\"\n"), Existing::Keep),
            Err(Problem::Shape { key: "mcp_servers".into(), expected: "a table" })
        );
    }

    #[test]
    fn positions_are_one_based() {
        assert_eq!(position("ab\ncd", 0), (1, 1));
        assert_eq!(position("ab\ncd", 4), (2, 2));
        assert_eq!(position("é\nx", 1), (1, 1), "inside a character: its start");
    }
}
