//! Answers within a token budget (issue 45): every tool that returns code or structure takes
//! `max_tokens`, stays within it (cl100k_base tokens of the text the official client
//! receives), says `truncated` and its totals, and pages join up without gaps or repeats.
//! Search hits are compact by default: a few tokens beyond their code.
//!
//! The corpus is real code nobody here wrote: the standard library's logging and argparse.

use serde_json::{Value, json};

use crate::mcp_server::{root, scenario};
use crate::support::{TestCtx, copy_tree, run, stdlib};

fn tokens(text: &str) -> usize {
    tiktoken_rs::cl100k_base_singleton().count_ordinary(text)
}

fn indexed_stdlib() -> TestCtx {
    let t = TestCtx::new("mcp_budget");
    copy_tree(&stdlib().join("logging"), &t.path().join("logging"));
    std::fs::copy(stdlib().join("argparse.py"), t.path().join("argparse.py")).expect("copy argparse");
    let out = run(keyword_only(&t), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    t
}

/// cocosearch without an embedder: these answers are about size, not ranking.
fn keyword_only(t: &TestCtx) -> std::process::Command {
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    cmd
}

/// The results of `calls`, made in one session of the official client.
fn calls(t: &TestCtx, calls: &Value) -> Vec<Value> {
    let project = root(t);
    let report =
        scenario(&keyword_only(t), "calls", &["--project", &project, "--cwd", &project, "--calls", &calls.to_string()]);
    report["results"].as_array().expect("results").clone()
}

/// A hit's identity across pages: where it is.
fn located(hit: &Value) -> String {
    format!("{}:{}", hit["path"].as_str().unwrap_or_default(), hit["lines"].as_str().unwrap_or_default())
}

#[test]
fn every_code_tool_stays_within_max_tokens_says_what_it_left_out_and_pages_join_up() {
    let t = indexed_stdlib();
    let query = "rotate the log file when it grows too large";
    let search = |max_tokens: usize, offset: usize| json!({"tool": "search_code", "args": {"query": query, "mode": "keyword", "limit": 20, "max_tokens": max_tokens, "offset": offset}});
    let budgeted = |tool: &str, args: Value| {
        let mut args = args;
        args["max_tokens"] = json!(300);
        json!({"tool": tool, "args": args})
    };
    let answers = calls(
        &t,
        &json!([
            search(100_000, 0),
            search(1000, 0),
            search(2000, 0),
            budgeted("grep_code", json!({"pattern": "def \\w+"})),
            budgeted("find_symbol", json!({"name": "emit"})),
            budgeted("get_dependents", json!({"name": "emit"})),
            budgeted("get_file_structure", json!({"file_path": "logging/handlers.py"})),
            budgeted("get_function_source", json!({"name": "ArgumentParser.parse_known_args"})),
            budgeted("get_class_source", json!({"name": "TimedRotatingFileHandler"})),
            budgeted("get_file_dependents", json!({"file_path": "logging/__init__.py"})),
            budgeted("get_change_impact", json!({"name": "Handler.format"})),
            json!({"tool": "search_code", "args": {"query": "emit", "limit": 1}}),
        ]),
    );
    let whole = &answers[0]["json"];
    assert_eq!(whole["truncated"], json!(false), "{whole}");
    let all: Vec<String> = whole["results"].as_array().expect("results").iter().map(located).collect();
    assert_eq!(all.len(), 20, "{whole}");

    // Compact hits: a location line (path, lines, label, score) and the code as it is in the
    // file, ≤ 30 tokens beyond the code; the JSON goes along as the structured result.
    let text = answers[0]["text"].as_str().expect("text");
    assert!(serde_json::from_str::<Value>(text).is_err(), "the compact text is written for reading: {text}");
    for hit in whole["results"].as_array().into_iter().flatten().filter(|h| h.get("shown_in").is_none()) {
        let code = hit["code"].as_str().expect("code");
        let header = text
            .lines()
            .find(|line| line.starts_with(&located(hit)))
            .unwrap_or_else(|| panic!("no location line for {hit} in {text}"));
        assert!(text.contains(&format!("{header}\n{code}\n")), "{header} is not followed by its code");
        let overhead = tokens(&format!("\n{header}\n{code}\n")) - tokens(code);
        assert!(overhead <= 30, "{overhead} tokens of overhead: {header}");
        assert!(hit.get("symbol").is_none() && hit.get("vector_score").is_none(), "{hit}");
    }
    let overall = tokens(text)
        - whole["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| tokens(h["code"].as_str().unwrap_or_default()))
            .sum::<usize>();
    eprintln!("20 compact hits: {overall} tokens beyond their code in all");

    for (answer, max_tokens) in [(&answers[1], 1000), (&answers[2], 2000)] {
        let text = answer["text"].as_str().expect("text");
        assert!(tokens(text) <= max_tokens, "{} tokens over {max_tokens}", tokens(text));
        let json = &answer["json"];
        assert_eq!(json["truncated"], json!(true), "{json}");
        assert_eq!(json["page"]["total"], json!(20), "{json}");
        assert!(json["page"]["total_tokens"].as_u64().is_some_and(|n| n as usize > max_tokens), "{json}");
        let more = json["more"].as_array().expect("previews of the hits left out");
        let next = json["page"]["next_offset"].as_u64().expect("next page") as usize;
        assert_eq!(located(&more[0]), all[next], "the first preview is the next page's first hit");
    }

    // Pages of 1,000 tokens, followed by next_offset, are the whole answer in order.
    let mut joined: Vec<String> = Vec::new();
    let mut offset = 0;
    while joined.len() < all.len() {
        let page = &calls(&t, &json!([search(1000, offset)]))[0]["json"];
        let hits: Vec<String> = page["results"].as_array().expect("results").iter().map(located).collect();
        assert!(!hits.is_empty(), "a page without a hit: {page}");
        joined.extend(hits);
        match page["page"]["next_offset"].as_u64() {
            Some(next) => offset = next as usize,
            None => break,
        }
    }
    assert_eq!(joined[..all.len()], all[..], "pages join up");

    // Every other tool: within 300 tokens, and says so when it left results out.
    for (i, answer) in answers.iter().enumerate().take(11).skip(3) {
        assert_eq!(answer["is_error"], json!(false), "{answer}");
        let text = answer["text"].as_str().expect("text");
        assert!(tokens(text) <= 300, "call {i}: {} tokens: {text}", tokens(text));
        let page = &answer["json"]["page"];
        assert!(page["total_tokens"].as_u64().is_some(), "call {i}: {page}");
        if page["next_offset"].is_u64() {
            assert_eq!(answer["json"]["truncated"], json!(true), "call {i}: {text}");
        }
    }
    // The long ones were cut: grep's matches, the outline, argparse's longest method.
    for i in [3, 6, 7] {
        assert!(
            answers[i]["json"]["page"]["next_offset"].is_u64(),
            "call {i} fits in 300 tokens? {}",
            answers[i]["text"]
        );
    }

    // A search of one name says whether it names one definition: emit names many, each
    // candidate with why.
    let emit = &answers[11];
    assert_eq!(emit["json"]["resolution"]["state"], "ambiguous", "{emit}");
    assert_eq!(emit["json"]["resolution"]["candidates"][0]["why"], "named emit", "{emit}");
    assert!(
        emit["text"].as_str().is_some_and(|t| t.contains("ambiguous, 10 definitions: logging/__init__.py:")),
        "{emit}"
    );

    // A source read on from where the page stopped: the next lines, none twice.
    let first = &answers[7]["json"];
    let next = first["page"]["next_offset"].as_u64().expect("cut");
    let second = &calls(
        &t,
        &json!([{"tool": "get_function_source", "args": {"name": "ArgumentParser.parse_known_args", "max_tokens": 300, "offset": next}}]),
    )[0]["json"];
    let whole_source = calls(
        &t,
        &json!([{"tool": "get_function_source", "args": {"name": "ArgumentParser.parse_known_args", "max_tokens": 100_000}}]),
    )[0]["json"]["content"]
        .as_str()
        .expect("content")
        .to_string();
    let joined = format!(
        "{}\n{}",
        first["content"].as_str().unwrap_or_default(),
        second["content"].as_str().unwrap_or_default()
    );
    assert!(whole_source.starts_with(&joined), "pages of the source join up:\n{joined}");
}

#[test]
fn the_command_line_keeps_to_max_tokens_and_says_how_to_page_on() {
    let t = indexed_stdlib();
    let query = "rotate the log file when it grows too large";
    for layout in [&[][..], &["--compact"][..]] {
        let out = run(
            keyword_only(&t),
            &[&["search", "--keyword", query, "--limit", "30", "--max-tokens", "600"], layout].concat(),
        );
        assert_eq!(out.code, 0, "{out:?}");
        assert!(tokens(&out.stdout) <= 600, "{} tokens: {}", tokens(&out.stdout), out.stdout);
        assert!(
            out.stderr.contains("shown within --max-tokens 600") && out.stderr.contains("--offset"),
            "{}",
            out.stderr
        );
    }
    let out = run(keyword_only(&t), &["search", "--keyword", query, "--max-tokens", "800", "--json"]);
    assert!(tokens(&out.stdout) <= 800, "{} tokens as printed", tokens(&out.stdout));
    let json = out.json();
    assert_eq!(json["truncated"], json!(true), "{json}");
    let next = json["page"]["next_offset"].as_u64().expect("next page");
    assert_eq!(json["results"].as_array().map(Vec::len), Some(next as usize), "{json}");
    assert_eq!(json["more"][0]["path"].as_str().map(str::is_empty), Some(false), "{json}");
}
