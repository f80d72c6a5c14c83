//! The JSON of a grep: each match shaped like a search hit (`path`, `start_line`, `end_line`,
//! `language`, `symbol`, `enclosing`, `content`, `before`, `after`, `stale`) plus where the
//! match is (`column`, `submatches`), for `cocosearch grep --json`, `grep_code` and the
//! dashboard's grep mode.

use serde_json::{Value, json};

use crate::grep::{Enclosing, FileMatches, GrepSummary, Line, LineKind};

/// One match of a file: its lines (one, or several for a multi-line match) and the context
/// lines that belong to it, as indexes into [`FileMatches::lines`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepHit {
    /// First matching line.
    pub start: usize,
    /// Last matching line (inclusive).
    pub end: usize,
    /// Context lines before it.
    pub before: Vec<usize>,
    /// Context lines after it.
    pub after: Vec<usize>,
    /// Which matching line of the file it starts at (for [`FileMatches::enclosing`]).
    pub ordinal: usize,
}

/// The matches of `file`. Context lines between two matches go to the first one's `after` up
/// to `after` lines, the rest to the next one's `before`; the lines of a multi-line match (one
/// column, no gap) are one match.
pub fn grep_hits(file: &FileMatches, after: usize) -> Vec<GrepHit> {
    let mut hits: Vec<GrepHit> = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    let mut open = false;
    let mut taken = 0;
    let mut ordinal = 0;
    for (i, line) in file.lines.iter().enumerate() {
        if line.gap_before {
            open = false;
            pending.clear();
        }
        match &line.kind {
            LineKind::Context => {
                if let (true, Some(hit)) = (open && taken < after, hits.last_mut()) {
                    hit.after.push(i);
                    taken += 1;
                } else {
                    pending.push(i);
                }
            }
            LineKind::Match { joined, .. } => {
                let continues = *joined && open && pending.is_empty() && hits.last().is_some_and(|h| h.end + 1 == i);
                match hits.last_mut() {
                    Some(hit) if continues => hit.end = i,
                    _ => hits.push(GrepHit {
                        start: i,
                        end: i,
                        before: std::mem::take(&mut pending),
                        after: Vec::new(),
                        ordinal,
                    }),
                }
                open = true;
                taken = 0;
                ordinal += 1;
            }
        }
    }
    hits
}

/// A line's text for JSON: invalid UTF-8 shown as U+FFFD.
fn text(line: &Line) -> String {
    String::from_utf8_lossy(&line.text).into_owned()
}

/// The JSON of each match of `file`.
pub fn grep_file_json(file: &FileMatches, after: usize) -> Vec<Value> {
    grep_hits(file, after).iter().map(|hit| grep_hit_json(file, hit)).collect()
}

/// One match, shaped like a search hit.
pub fn grep_hit_json(file: &FileMatches, hit: &GrepHit) -> Value {
    let lines = &file.lines[hit.start..=hit.end];
    let mut submatches = Vec::new();
    let mut offset = 0;
    for line in lines {
        if let LineKind::Match { ranges, .. } = &line.kind {
            submatches.extend(ranges.iter().map(|r| json!({"start": offset + r.start, "end": offset + r.end})));
        }
        offset += line.text.len() + 1;
    }
    let column = match &file.lines[hit.start].kind {
        LineKind::Match { column, .. } => *column,
        LineKind::Context => None,
    };
    let enclosing = file.enclosing.get(hit.ordinal).and_then(Option::as_ref);
    json!({
        "path": file.path,
        "start_line": file.lines[hit.start].number,
        "end_line": file.lines[hit.end].number,
        "column": column,
        "language": file.language,
        "symbol": enclosing.map(symbol_json),
        "enclosing": enclosing.map(|e| e.qualified_name.clone()),
        "stale": file.stale,
        "content": lines.iter().map(text).collect::<Vec<_>>().join("\n"),
        "submatches": submatches,
        "before": hit.before.iter().map(|&i| text(&file.lines[i])).collect::<Vec<_>>(),
        "after": hit.after.iter().map(|&i| text(&file.lines[i])).collect::<Vec<_>>(),
    })
}

/// The definition a match lies in, as a search hit's `symbol` (with its lines).
fn symbol_json(e: &Enclosing) -> Value {
    json!({
        "type": e.kind.as_str(),
        "name": e.name,
        "qualified_name": e.qualified_name,
        "signature": e.signature,
        "start_line": e.start_line,
        "end_line": e.end_line,
    })
}

/// The counts of a grep.
pub fn grep_summary_json(summary: &GrepSummary) -> Value {
    let skipped: serde_json::Map<String, Value> =
        summary.skipped.0.iter().map(|(reason, n)| (reason.as_str().to_string(), json!(n))).collect();
    json!({
        "files_searched": summary.files_searched,
        "files_matched": summary.files_matched,
        "matched_lines": summary.matched_lines,
        "skipped": skipped,
        "outside": summary.outside.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "errors": summary.errors.iter().map(|e| json!({
            "path": e.path.display().to_string(),
            "message": e.message,
        })).collect::<Vec<_>>(),
        "cut": summary.cut,
        "took_ms": (summary.took_ms * 10.0).round() / 10.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(number: u64, kind: LineKind, gap_before: bool) -> Line {
        Line { number, text: format!("line {number}").into_bytes(), kind, gap_before }
    }

    fn hit_at(column: u64, joined: bool) -> LineKind {
        LineKind::Match { column: Some(column), ranges: std::iter::once(0..4).collect(), joined }
    }

    #[test]
    fn context_is_shared_out_and_multiline_matches_stay_whole() {
        let file = FileMatches {
            path: "a.py".into(),
            language: Some("python"),
            count: 4,
            lines: vec![
                line(1, LineKind::Context, false),
                line(2, hit_at(1, false), false),
                line(3, LineKind::Context, false),
                line(4, LineKind::Context, false),
                line(5, hit_at(3, false), false),
                line(6, hit_at(3, true), false),
                line(7, LineKind::Context, false),
                line(20, LineKind::Context, true),
                line(21, hit_at(2, false), false),
            ],
            enclosing: Vec::new(),
            stale: false,
            size: 0,
            mtime_ns: 0,
        };
        let hits = grep_hits(&file, 1);
        let spans: Vec<_> =
            hits.iter().map(|h| (h.start, h.end, h.before.clone(), h.after.clone(), h.ordinal)).collect();
        assert_eq!(spans, vec![(1, 1, vec![0], vec![2], 0), (4, 5, vec![3], vec![6], 1), (8, 8, vec![7], vec![], 3)]);
        let json = grep_hit_json(&file, &hits[1]);
        assert_eq!((json["start_line"].as_u64(), json["end_line"].as_u64()), (Some(5), Some(6)));
        assert_eq!(json["content"], "line 5\nline 6");
        assert_eq!(json["submatches"][1]["start"], 7);
    }
}
