//! `grep_code` (and its alias `search_codebase`): `cocosearch grep` for agents, with its
//! output bounded by `max_results`, `max_lines` and `max_chars`, and a note when it was cut.
//!
//! Runs on a blocking thread (the walk, the files, the index's definitions).

use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::{Value, json};

use super::ToolError;
use super::graph::paged;
use super::project::project_json;
use super::tools::GrepCodeArgs;
use crate::wire;
use crate::wire::budget::Results;
use crate::workspace::graph::{DEFAULT_RESULTS, MAX_RESULTS};
use crate::workspace::grep::{Definitions, Files, Report};
use crate::workspace::project::Hints;
use crate::workspace::{Caller, Front, Workspace};

/// What `max_chars` means when omitted.
const DEFAULT_CHARS: usize = 20_000;

/// Runs `grep_code`.
pub(crate) fn grep_code(shared: &Arc<Workspace>, hints: &Hints, args: GrepCodeArgs) -> Result<Value, ToolError> {
    let max_results = match args.max_results.map_or(DEFAULT_RESULTS, |n| n as usize) {
        0 => MAX_RESULTS,
        n => n.min(MAX_RESULTS),
    };
    let max_chars = args.max_chars.map_or(DEFAULT_CHARS, |n| n as usize);
    let max_lines = args.max_lines.map(|n| n.max(1) as usize);
    let names = &args.options.indexes.index_names;
    let targets = shared.open_greps(Caller::Client(hints), &args.index, names, Definitions::FromIndex)?;
    let first = targets.first();
    let project = &first.project;
    let paths = args.path.as_deref().map(str::trim).filter(|p| !p.is_empty()).map(|p| project.root.join(p));
    if targets.several() && paths.is_some() {
        return Err(crate::workspace::Error::usage(
            "index_names greps whole projects, and path belongs to one of them: narrow with glob, or give one index_name with path",
        ));
    }
    let mut request = args.options.request(vec![args.pattern.clone()], paths.into_iter().collect(), Front::Mcp)?;
    // The pages before are matched again and skipped by the budget; one more than shown, so
    // a cut is known.
    let offset = args.page.offset.unwrap_or(0);
    request.limit = Some((offset + max_results) as u64 + 1);

    let mut results: Vec<Value> = Vec::new();
    let mut chars = 0;
    let mut cut_by: Option<&str> = None;
    let mut cut_lines = 0usize;
    let several = targets.several();
    let summary = targets.run(&request, |target, file| {
        let hits = if request.report == Report::Files {
            vec![json!({"path": file.path, "language": file.language, "matches": file.count})]
        } else {
            wire::grep_file_json(&file, request.after)
        };
        for mut hit in hits {
            if several {
                hit["index"] = json!(target.index);
            }
            if results.len() >= offset + max_results {
                cut_by = Some("max_results");
                return ControlFlow::Break(());
            }
            cut_lines += cap_lines(&mut hit, max_lines);
            let size = if results.len() < offset { 0 } else { hit.to_string().len() };
            if chars + size > max_chars {
                cut_by = Some("max_chars");
                return ControlFlow::Break(());
            }
            chars += size;
            results.push(hit);
        }
        ControlFlow::Continue(())
    })?;
    if cut_by.is_none() && summary.cut {
        cut_by = Some("max_results");
    }
    let mut notes = targets.warnings.clone();
    match cut_by {
        Some("max_chars") => notes.push(format!(
            "results cut at max_chars ({max_chars} characters) after {} matches: more matches exist — narrow the pattern, path, glob or language, lower max_lines, or raise max_chars",
            results.len()
        )),
        Some(_) => notes.push(format!(
            "results cut at max_results ({max_results}): more matches exist — narrow the pattern, path, glob or language, or raise max_results (up to {MAX_RESULTS})"
        )),
        None => {}
    }
    if cut_lines > 0 {
        notes.push(format!(
            "{cut_lines} lines of content or context left out by max_lines (each match says truncated_lines)"
        ));
    }
    if results.is_empty() && cut_by.is_none() {
        notes.push(
            "no match — check the pattern (it is a regular expression unless fixed_strings), or drop filters".into(),
        );
    }
    if !first.has_definitions() && request.report == Report::Lines {
        notes
            .push("the project has no index, so matches carry no enclosing function (index_codebase adds them)".into());
    }
    if let Some(at) = args.index.reference().filter(|_| first.files() == Files::AtSnapshot) {
        notes.push(format!("the files as indexed at {}, not as they are on disk", at.trim()));
    }
    for outside in &summary.outside {
        notes.push(format!("{} lies outside the project and was not searched", outside.display()));
    }
    let value = json!({
        "pattern": args.pattern,
        "results": results,
        "truncated": cut_by.is_some(),
        "summary": wire::grep_summary_json(&summary),
        "project": project_json(project),
        "notes": notes,
    });
    Ok(paged(value, &[Results::Items("results")], args.page))
}

/// Cuts a match's content and each side of its context to `max_lines`; returns how many lines
/// were left out (and says so in the match).
fn cap_lines(hit: &mut Value, max_lines: Option<usize>) -> usize {
    let Some(max) = max_lines else { return 0 };
    let mut cut = 0;
    if let Some(content) = hit.get("content").and_then(Value::as_str) {
        let lines: Vec<&str> = content.split('\n').collect();
        if lines.len() > max {
            cut += lines.len() - max;
            let kept = lines[..max].join("\n");
            hit["content"] = json!(kept);
        }
    }
    for (side, keep_end) in [("before", true), ("after", false)] {
        if let Some(lines) = hit.get_mut(side).and_then(Value::as_array_mut)
            && lines.len() > max
        {
            cut += lines.len() - max;
            if keep_end {
                lines.drain(..lines.len() - max);
            } else {
                lines.truncate(max);
            }
        }
    }
    if cut > 0 {
        hit["truncated_lines"] = json!(cut);
    }
    cut
}
