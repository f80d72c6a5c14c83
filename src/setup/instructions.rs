//! The note in an agent's instructions file on when to use cocosearch's tools.
//!
//! The note sits between two marker lines, so it is ours to rewrite: a second run replaces what
//! is between them (a note from an older cocosearch is brought up to date) and everything
//! outside them is the user's and stays byte for byte. A file without the markers gets the
//! block appended after a blank line; a file with only one of them is an error, since guessing
//! where the block ends could delete the user's text.

use super::Problem;

/// The line that opens the cocosearch block.
pub const BEGIN_MARKER: &str = "<!-- cocosearch:begin -->";

/// The line that closes it.
pub const END_MARKER: &str = "<!-- cocosearch:end -->";

/// When to reach for which tool (the names are the MCP server's, `mcp::tools`; a test starts
/// the server and checks them). Kept short: it is read on every request.
const NOTE: &str = "\
## Code search (cocosearch)
This project is indexed by cocosearch (MCP server `cocosearch`). Prefer its tools to grep and to reading whole files:
- Where or how the code does something, asked in plain words or by identifier: `search_code`.
- Where a symbol is defined: `find_symbol`; read one definition: `get_function_source`, `get_class_source`; a file's outline: `get_file_structure`.
- Who calls or uses a symbol: `get_dependents`; what a change would reach: `get_change_impact`; how A reaches B: `get_call_chain`.
- What a file imports and what imports it: `get_file_dependencies`, `get_file_dependents`.
- Every line matching a pattern (all occurrences of a string to replace, each call site), with the function each lies in: `grep_code` (a regex; bounded output, no index needed).
- No index yet, or results behind the files: `index_codebase`, then `index_status`.
";

/// `text` (`None`: no file yet; a new one starts with `preamble`) with the cocosearch block
/// in place.
pub(super) fn merge(text: Option<&str>, preamble: &str) -> Result<String, Problem> {
    let block = format!("{BEGIN_MARKER}\n{NOTE}{END_MARKER}\n");
    let Some(text) = text else {
        return Ok(format!("{preamble}{block}"));
    };
    // The file's own line ending.
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let block = block.replace('\n', newline);
    let begin = marker_line(text, BEGIN_MARKER, 0);
    let end = begin.and_then(|(_, after)| marker_line(text, END_MARKER, after));
    match (begin, end) {
        (Some((start, _)), Some((_, after))) => Ok(format!("{}{block}{}", &text[..start], &text[after..])),
        (None, None) if marker_line(text, END_MARKER, 0).is_none() => {
            let mut out = text.to_string();
            if !out.is_empty() && !out.ends_with(newline) {
                out.push_str(newline);
            }
            if !out.is_empty() && !out.ends_with(&format!("{newline}{newline}")) {
                out.push_str(newline);
            }
            out.push_str(&block);
            Ok(out)
        }
        _ => Err(Problem::Markers),
    }
}

/// The first line at or after byte `from` whose text, blanks aside, is `marker`: where it
/// starts and where the next line starts.
fn marker_line(text: &str, marker: &str, from: usize) -> Option<(usize, usize)> {
    let mut start = from;
    for line in text[from..].split_inclusive('\n') {
        let end = start + line.len();
        if line.trim() == marker {
            return Some((start, end));
        }
        start = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block() -> String {
        format!("{BEGIN_MARKER}\n{NOTE}{END_MARKER}\n")
    }

    #[test]
    fn the_note_is_short_and_names_the_tools_in_backquotes() {
        assert!(block().lines().count() <= 12, "{}", block());
        for tool in ["search_code", "find_symbol", "get_dependents", "get_change_impact", "get_file_dependents"] {
            assert!(NOTE.contains(&format!("`{tool}`")), "{tool}");
        }
    }

    #[test]
    fn a_new_file_is_the_preamble_and_the_block() {
        assert_eq!(merge(None, "---\na: b\n---\n\n"), Ok(format!("---\na: b\n---\n\n{}", block())));
    }

    #[test]
    fn the_block_is_appended_after_a_blank_line_and_replaced_on_the_next_run() {
        let user = "# Project\n\nUse tabs.";
        let once = merge(Some(user), "").expect("merge");
        assert_eq!(once, format!("# Project\n\nUse tabs.\n\n{}", block()));
        assert_eq!(merge(Some(&once), "").expect("again"), once, "a second run changes nothing");
        assert_eq!(merge(Some("x\n\n"), "").expect("merge"), format!("x\n\n{}", block()));
    }

    #[test]
    fn an_old_block_is_replaced_and_the_text_around_it_stays() {
        let text = format!("intro\n{BEGIN_MARKER}\nold advice\n  {END_MARKER}  \nafter\n");
        assert_eq!(merge(Some(&text), "").expect("merge"), format!("intro\n{}after\n", block()));
        // A last line without a line break.
        let text = format!("intro\n{BEGIN_MARKER}\nold\n{END_MARKER}");
        assert_eq!(merge(Some(&text), "").expect("merge"), format!("intro\n{}", block()));
    }

    #[test]
    fn windows_line_endings_are_kept() {
        let out = merge(Some("a\r\nb\r\n"), "").expect("merge");
        assert!(out.starts_with("a\r\nb\r\n\r\n<!--"), "{out:?}");
        assert_eq!(out.matches('\n').count(), out.matches("\r\n").count(), "{out:?}");
        assert_eq!(merge(Some(&out), "").expect("again"), out);
    }

    #[test]
    fn a_marker_mentioned_in_a_sentence_is_not_a_marker_and_a_lone_marker_is_an_error() {
        let text = format!("We keep {BEGIN_MARKER} blocks.\n");
        assert!(merge(Some(&text), "").expect("merge").starts_with(&text));
        assert_eq!(merge(Some(&format!("a\n{BEGIN_MARKER}\nb\n")), ""), Err(Problem::Markers));
        assert_eq!(merge(Some(&format!("a\n{END_MARKER}\nb\n")), ""), Err(Problem::Markers));
        assert_eq!(merge(Some(&format!("{END_MARKER}\n{BEGIN_MARKER}\n")), ""), Err(Problem::Markers));
    }
}
