//! The compact form of a search answer, the MCP tools' default: each hit is its code and
//! what locates it (`path`, `lines`, `label`, `score`), a few tokens beyond the code; fields
//! that say nothing (nulls, empty lists, the same index on every hit) are left out. The full
//! form is [`super::search_answer_json`].

use serde_json::{Value, json};

use super::budget::{Fit, Results};
use crate::search::{Hit, RankedDefinition, SearchRequest, SearchResponse};
use crate::workspace::search::SearchAnswer;

/// Which form an answer takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HitForm {
    /// Path, lines, label, score and code (the default).
    #[default]
    Compact,
    /// Every field of `cocosearch search --json`: symbol, scores by retriever, parse status.
    Full,
}

/// A search answer in the compact form: [`compact_response_json`] with each hit's cut lines
/// and file neighbours (when asked) and the names it may have meant.
pub fn compact_search_json(answer: &SearchAnswer) -> Value {
    let mut out = compact_response_json(&answer.request, &answer.response);
    if let Some(results) = out["results"].as_array_mut() {
        for (i, value) in results.iter_mut().enumerate() {
            if let Some(&cut) = answer.cut_lines.get(i).filter(|&&cut| cut > 0) {
                value["truncated_lines"] = json!(cut);
            }
            if let Some(Some(n)) = answer.neighbours.as_ref().and_then(|all| all.get(i)) {
                value["deps"] = json!({ "imports": n.imports, "imported_by": n.imported_by });
            }
        }
    }
    if !answer.did_you_mean.is_empty() {
        out["did_you_mean"] = json!(answer.did_you_mean);
    }
    if let Some(resolution) = &answer.resolution {
        out["resolution"] = super::resolution_json(resolution);
    }
    out
}

/// The query, the verdict and the hits in the compact form (the definitions when asked; what
/// went wrong when something did).
pub fn compact_response_json(request: &SearchRequest, response: &SearchResponse) -> Value {
    let several = request.indexes.len() > 1;
    let results: Vec<Value> = response
        .hits
        .iter()
        .enumerate()
        .map(|(i, hit)| match response.hits[..i].iter().find(|before| contains(before, hit)) {
            // Its lines are already shown: said, not repeated.
            Some(before) => {
                let mut value = location(&hit.path, hit.start_line, hit.end_line, label(hit));
                value["score"] = json!((hit.score * 100.0).round() / 100.0);
                value["shown_in"] = json!(format!("{}:{}-{}", before.path, before.start_line, before.end_line));
                value
            }
            None => compact_hit_json(hit, several),
        })
        .collect();
    let mut out = json!({
        "query": request.query,
        "verdict": response.verdict.as_str(),
        "results": results,
    });
    if request.definitions > 0 {
        out["definitions"] = response.definitions.iter().map(|d| compact_definition_json(d, several)).collect();
    }
    if let Some(degraded) = response.degraded {
        out["degraded"] = json!(degraded);
    }
    if !response.warnings.is_empty() {
        out["warnings"] = json!(response.warnings);
    }
    out
}

/// Whether `outer` shows every line of `inner` (same index and file).
fn contains(outer: &Hit, inner: &Hit) -> bool {
    outer.index == inner.index
        && outer.path == inner.path
        && outer.start_line <= inner.start_line
        && inner.end_line <= outer.end_line
}

/// One hit: where it is, what it is, how good, and its code.
pub fn compact_hit_json(hit: &Hit, with_index: bool) -> Value {
    let mut value = location(&hit.path, hit.start_line, hit.end_line, label(hit));
    if with_index {
        value["index"] = json!(hit.index);
    }
    value["score"] = json!((hit.score * 100.0).round() / 100.0);
    if hit.stale {
        value["stale"] = json!(true);
    }
    if !hit.before.is_empty() {
        value["before"] = json!(hit.before.join("\n"));
    }
    value["code"] = json!(hit.content);
    if !hit.after.is_empty() {
        value["after"] = json!(hit.after.join("\n"));
    }
    value
}

/// How a search answer (compact or full) is paged: its hits, previewed in `more` and the first
/// cut as hits are, the `skipped` hits of the pages before counted in its offsets.
pub fn search_fit<'a>(skipped: usize, render: Option<&'a dyn Fn(&Value) -> String>) -> Fit<'a> {
    Fit { results: &[Results::Items("results")], preview: Some(&hit_preview), cut: Some(&cut_hit), render, skipped }
}

/// A hit (compact or full) cut to its first `keep` lines: its range ends at the last line kept
/// and `truncated_lines` says how many more there were.
pub fn cut_hit(hit: &Value, keep: usize) -> Value {
    let mut hit = hit.clone();
    let field = if hit.get("code").is_some() { "code" } else { "content" };
    let text = hit[field].as_str().unwrap_or_default().to_string();
    let lines: Vec<&str> = text.split('\n').collect();
    if keep >= lines.len() {
        return hit;
    }
    hit[field] = json!(lines[..keep].join("\n"));
    let cut = lines.len() - keep + hit["truncated_lines"].as_u64().unwrap_or(0) as usize;
    hit["truncated_lines"] = json!(cut);
    if let Some(object) = hit.as_object_mut() {
        object.remove("after");
    }
    let last = |start: u64| start + keep.saturating_sub(1) as u64;
    if let Some((start, _)) = hit["lines"].as_str().and_then(|l| l.split_once('-')) {
        let start: u64 = start.parse().unwrap_or(0);
        hit["lines"] = json!(format!("{start}-{}", last(start)));
    } else if let Some(start) = hit["start_line"].as_u64() {
        hit["end_line"] = json!(last(start));
    }
    hit
}

/// A hit left out of a page, as it is listed in `more`: where it is and its first line (its
/// signature when it starts a definition). Reads a compact or a full hit.
pub fn hit_preview(hit: &Value) -> Value {
    let lines = hit["lines"].as_str().map(str::to_string).unwrap_or_else(|| {
        format!("{}-{}", hit["start_line"].as_u64().unwrap_or(0), hit["end_line"].as_u64().unwrap_or(0))
    });
    let code = hit["code"].as_str().or(hit["content"].as_str()).unwrap_or("");
    let signature = hit["symbol"]["signature"]
        .as_str()
        .or_else(|| code.lines().map(str::trim).find(|line| !line.is_empty()))
        .unwrap_or("");
    let mut value = json!({ "path": hit["path"], "lines": lines });
    let label = hit.get("label").cloned().unwrap_or_else(|| full_label(hit));
    if !label.is_null() {
        value["label"] = label;
    }
    value["first_line"] = json!(signature);
    value
}

/// A hit's label: the definition it is (qualified), or `in X` for a piece of definition X.
fn label(hit: &Hit) -> Option<String> {
    let own = hit.qualified_name.as_ref().or(hit.symbol_name.as_ref()).or(hit.symbols.first());
    own.cloned().or_else(|| hit.enclosing.as_ref().map(|e| format!("in {e}")))
}

/// [`label`] of a hit in the full form.
fn full_label(hit: &Value) -> Value {
    let symbol = &hit["symbol"];
    let own = symbol["qualified_name"].as_str().or(symbol["name"].as_str()).or(hit["symbols"][0].as_str());
    match (own, hit["enclosing"].as_str()) {
        (Some(own), _) => json!(own),
        (None, Some(enclosing)) => json!(format!("in {enclosing}")),
        (None, None) => Value::Null,
    }
}

fn location(path: &str, start: u32, end: u32, label: Option<String>) -> Value {
    let mut value = json!({ "path": path, "lines": format!("{start}-{end}") });
    if let Some(label) = label {
        value["label"] = json!(label);
    }
    value
}

/// One ranked definition, compact.
fn compact_definition_json(d: &RankedDefinition, with_index: bool) -> Value {
    let mut value = location(&d.path, d.start_line, d.end_line, Some(d.name.clone()));
    if with_index {
        value["index"] = json!(d.index);
    }
    value["kind"] = json!(d.kind);
    value["score"] = json!((d.score * 100.0).round() / 100.0);
    value
}

/// A compact search answer as an agent reads it: a line saying what was found and what was
/// left out, then each hit's location line and its code as it is in the file (no escaping),
/// the hits left out (`more`), the definitions, warnings and notes, and the project. What
/// `search_code` sends as its text; the JSON goes along as the structured result.
pub fn compact_search_text(answer: &Value) -> String {
    let mut out = summary_line(answer);
    out.push_str(&resolution_text(&answer["resolution"]));
    for hit in list(answer, "results") {
        out.push('\n');
        out.push_str(&hit_text(hit));
    }
    let more = list(answer, "more");
    if !more.is_empty() {
        let next = &answer["page"]["next_offset"];
        out.push_str(&format!("\nmore, not shown (offset={next} shows them):\n"));
        for hit in more {
            out.push_str(&format!("{} {}\n", location_text(hit), hit["first_line"].as_str().unwrap_or_default()));
        }
    }
    let definitions = list(answer, "definitions");
    if !definitions.is_empty() {
        out.push_str("\ndefinitions most likely meant:\n");
        for d in definitions {
            out.push_str(&format!("{} {} {}\n", location_text(d), d["kind"].as_str().unwrap_or_default(), d["score"]));
        }
    }
    let remarks = list(answer, "warnings")
        .iter()
        .map(|w| ("warning", w))
        .chain(list(answer, "notes").iter().map(|n| ("note", n)));
    let mut first = true;
    for (kind, text) in remarks {
        if std::mem::take(&mut first) {
            out.push('\n');
        }
        out.push_str(&format!("{kind}: {}\n", text.as_str().unwrap_or_default()));
    }
    if let Some(root) = answer["project"]["root"].as_str() {
        out.push_str(&format!("project {root}, index {}\n", answer["project"]["index"].as_str().unwrap_or_default()));
    }
    out
}

/// `search "q": 3 of 20 hits (…)`: the query, the verdict, and the page.
fn summary_line(answer: &Value) -> String {
    let page = &answer["page"];
    let shown = list(answer, "results").len();
    let total = page["total"].as_u64().unwrap_or(shown as u64);
    let offset = page["offset"].as_u64().unwrap_or(0);
    let mut line = format!("search {}: ", answer["query"]);
    match page["next_offset"].as_u64() {
        Some(next) => line.push_str(&format!(
            "hits {}-{} of {total} within max_tokens ({} tokens in all; offset={next} for the rest)",
            offset + 1,
            offset + shown as u64,
            page["total_tokens"]
        )),
        None if offset > 0 => line.push_str(&format!("hits {}-{total} of {total}", offset + 1)),
        None => line.push_str(&format!("{total} hits")),
    }
    if let Some(degraded) = answer["degraded"].as_str() {
        line.push_str(&format!(" [{degraded}]"));
    }
    line.push('\n');
    line
}

/// For a search of one name: `resolved: X path:lines`, `ambiguous: …` with each candidate and
/// why, or `not found` with the closest names; empty for another query.
pub fn resolution_text(resolution: &Value) -> String {
    let candidates = list(resolution, "candidates");
    let candidate = |c: &Value| {
        format!(
            "{}:{} {} ({})",
            c["path"].as_str().unwrap_or_default(),
            c["lines"].as_str().unwrap_or_default(),
            c["name"].as_str().unwrap_or_default(),
            c["why"].as_str().unwrap_or_default()
        )
    };
    match resolution["state"].as_str() {
        Some("resolved") => format!("resolved: {}\n", candidates.first().map(candidate).unwrap_or_default()),
        Some("ambiguous") => {
            let all: Vec<String> = candidates.iter().map(candidate).collect();
            format!("ambiguous, {} definitions: {}\n", all.len(), all.join("; "))
        }
        Some(_) => {
            let near: Vec<String> =
                list(resolution, "did_you_mean").iter().filter_map(Value::as_str).map(|n| format!("`{n}`")).collect();
            let partial: Vec<String> = candidates.iter().map(candidate).collect();
            let mut line = String::from("not found: no definition has this name");
            if !partial.is_empty() {
                line.push_str(&format!("; partly: {}", partial.join("; ")));
            }
            if !near.is_empty() {
                line.push_str(&format!("; did you mean {}?", near.join(", ")));
            }
            line + "\n"
        }
        None => String::new(),
    }
}

/// One hit: `path:start-end label score`, then its lines.
fn hit_text(hit: &Value) -> String {
    let mut out = location_text(hit);
    out.push_str(&format!(" {}", hit["score"]));
    if hit["stale"] == true {
        out.push_str(" (file changed since indexed)");
    }
    if let Some(index) = hit["index"].as_str() {
        out.push_str(&format!(" [{index}]"));
    }
    if let Some(shown_in) = hit["shown_in"].as_str() {
        out.push_str(&format!(" (its lines are in {shown_in}, above)\n"));
        return out;
    }
    let before = hit["before"].as_str().map_or(0, |b| b.lines().count());
    let after = hit["after"].as_str().map_or(0, |a| a.lines().count());
    if before + after > 0 {
        out.push_str(&format!(" (with {before} lines before, {after} after)"));
    }
    out.push('\n');
    for part in ["before", "code", "after"] {
        if let Some(text) = hit[part].as_str().filter(|t| !t.is_empty()) {
            out.push_str(text);
            out.push('\n');
        }
    }
    if let Some(cut) = hit["truncated_lines"].as_u64() {
        out.push_str(&format!("… {cut} more lines (max_lines)\n"));
    }
    if let Some(deps) = hit.get("deps") {
        out.push_str(&format!("imports {} · imported by {}\n", deps["imports"], deps["imported_by"]));
    }
    out
}

/// `path:start-end label`.
fn location_text(item: &Value) -> String {
    let mut out =
        format!("{}:{}", item["path"].as_str().unwrap_or_default(), item["lines"].as_str().unwrap_or_default());
    if let Some(label) = item["label"].as_str() {
        out.push(' ');
        out.push_str(label);
    }
    out
}

fn list<'a>(value: &'a Value, field: &str) -> &'a [Value] {
    value[field].as_array().map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Mode, QueryKind, Verdict};

    fn hit(path: &str, start: u32, end: u32, name: &str) -> Hit {
        let content = (start..=end).map(|n| format!("line {n}")).collect::<Vec<_>>().join("\n");
        Hit {
            index: "i".into(),
            root: "/r".into(),
            path: path.into(),
            start_line: start,
            end_line: end,
            language: "python".into(),
            symbol_type: None,
            symbol_name: Some(name.into()),
            qualified_name: Some(name.into()),
            signature: None,
            symbols: vec![name.into()],
            enclosing: None,
            score: 0.5,
            vector_score: None,
            keyword_score: Some(0.5),
            parse_status: crate::chunk::ParseStatus::Ok,
            content,
            before: Vec::new(),
            after: Vec::new(),
            stale: false,
        }
    }

    #[test]
    fn a_hit_inside_one_shown_before_is_named_not_repeated() {
        let request = SearchRequest {
            query: "q".into(),
            indexes: vec!["i".into()],
            limit: 10,
            min_score: 0.0,
            mode: Mode::Keyword,
            filter: crate::search::FilterSpec::default(),
            context: crate::search::ContextOptions { smart: true, before: 0, after: 0, max_lines: 50 },
            use_cache: true,
            definitions: 0,
            at: crate::store::At::Current,
        };
        let response = SearchResponse {
            hits: vec![hit("a.py", 10, 40, "A"), hit("a.py", 20, 30, "A.f"), hit("b.py", 20, 30, "g")],
            definitions: Vec::new(),
            kind: QueryKind::Exact,
            mode: Mode::Keyword.as_str(),
            degraded: None,
            verdict: Verdict::Found,
            warnings: Vec::new(),
            cached_embedding: false,
            took_ms: 1.0,
        };
        let value = compact_response_json(&request, &response);
        let results = value["results"].as_array().expect("results");
        assert_eq!(results[1]["shown_in"], json!("a.py:10-40"));
        assert!(results[1].get("code").is_none());
        assert!(results[2]["code"].as_str().is_some_and(|c| c.starts_with("line 20")));
        let text = compact_search_text(&value);
        assert!(text.contains("a.py:20-30 A.f 0.5 (its lines are in a.py:10-40, above)"), "{text}");
        assert_eq!(text.matches("line 25").count(), 2, "once in a.py, once in b.py: {text}");
    }
}
