//! `cocosearch languages`.

use std::fmt::Write as _;

use serde_json::json;

use super::args::LanguagesArgs;
use super::output::{pad, print, print_json};
use super::{Context, Exit};
use crate::workspace::languages::Language;

/// Lists every language: extensions, file names, whether tree-sitter parses it and whether
/// symbols are extracted.
pub fn languages(ctx: &Context, args: &LanguagesArgs) -> anyhow::Result<Exit> {
    let all = Language::all();
    if args.json {
        let items: Vec<_> = all
            .iter()
            .map(|l| {
                json!({
                    "name": l.name(),
                    "aliases": l.aliases(),
                    "extensions": l.extensions(),
                    "file_names": l.file_names(),
                    "tree_sitter": l.grammar().is_some(),
                    "symbols": l.has_symbols(),
                })
            })
            .collect();
        print_json(&json!(items))?;
        return Ok(Exit::Success);
    }
    let yes_no = |b: bool| if b { ctx.ui.ok().to_string() } else { ctx.ui.dim().apply_to("–").to_string() };
    let mut out = format!("{}{}{}{}\n", pad("LANGUAGE", 13), pad("PARSED", 8), pad("SYMBOLS", 9), "FILES");
    for l in all {
        let mut files: Vec<String> = l.extensions().iter().map(|e| format!(".{e}")).collect();
        files.extend(l.file_names().iter().map(|f| f.to_string()));
        let aliases =
            if l.aliases().is_empty() { String::new() } else { format!("  (also: {})", l.aliases().join(", ")) };
        let _ = writeln!(
            out,
            "{}{}{}{}{}",
            pad(l.name(), 13),
            pad(&yes_no(l.grammar().is_some()), 8),
            pad(&yes_no(l.has_symbols()), 9),
            files.join(" "),
            ctx.ui.dim().apply_to(aliases)
        );
    }
    print(&out)?;
    Ok(Exit::Success)
}
