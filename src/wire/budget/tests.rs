//! Paging within a token budget: answers stay within it, say what they left out, and pages
//! join up; on made-up answers of known size (the MCP tests page real ones).

use serde_json::{Value, json};

use super::*;

/// An answer of `n` results of about 60 tokens each, numbered.
fn answer(n: usize) -> Value {
    let results: Vec<Value> = (0..n)
        .map(|i| json!({"path": format!("src/module_{i}.py"), "code": format!("def handler_{i}(request):\n    {}", "return request.value + 1\n    ".repeat(6))}))
        .collect();
    json!({"query": "handlers", "results": results, "notes": []})
}

const RESULTS: &[Results] = &[Results::Items("results")];

fn paths(value: &Value) -> Vec<String> {
    value["results"].as_array().into_iter().flatten().filter_map(|r| r["path"].as_str().map(str::to_string)).collect()
}

#[test]
fn an_answer_stays_within_its_budget_and_says_what_it_left_out() {
    let fit_all = Fit::of(RESULTS);
    for max_tokens in [200, 300, 500, 1000, 2000] {
        let mut value = answer(30);
        let paged = fit(&mut value, &fit_all, Page { max_tokens, offset: 0 });
        assert!(value_tokens(&value) <= max_tokens, "{max_tokens}: {}", value_tokens(&value));
        assert!(paged.shown > 0 && paged.shown < 30, "{max_tokens}: {paged:?}");
        assert_eq!(value["truncated"], json!(true));
        assert_eq!(value["page"]["total"], json!(30));
        assert_eq!(value["page"]["next_offset"], json!(paged.shown));
        assert!(value["page"]["total_tokens"].as_u64().is_some_and(|t| t as usize > max_tokens));
    }
    let mut small = answer(2);
    let paged = fit(&mut small, &fit_all, Page { max_tokens: 4000, offset: 0 });
    assert_eq!((paged.shown, paged.next_offset), (2, None));
    assert_eq!(small["truncated"], json!(false));
}

#[test]
fn pages_join_up_without_gaps_or_repeats() {
    let whole = paths(&answer(25));
    let fit_all = Fit::of(RESULTS);
    let mut joined = Vec::new();
    let mut offset = 0;
    let mut pages = 0;
    loop {
        let mut value = answer(25);
        let paged = fit(&mut value, &fit_all, Page { max_tokens: 400, offset });
        assert!(value_tokens(&value) <= 400);
        joined.extend(paths(&value));
        pages += 1;
        match paged.next_offset {
            Some(next) => offset = next,
            None => break,
        }
    }
    assert!(pages > 3, "{pages} pages");
    assert_eq!(joined, whole);
}

#[test]
fn left_out_results_are_previewed_while_the_budget_lasts() {
    let preview = |v: &Value| json!({"path": v["path"]});
    let with_preview = Fit { preview: Some(&preview), skipped: 10, ..Fit::of(RESULTS) };
    let mut value = answer(20);
    let paged = fit(&mut value, &with_preview, Page { max_tokens: 600, offset: 0 });
    assert!(value_tokens(&value) <= 600);
    let more = value["more"].as_array().expect("more");
    assert!(!more.is_empty());
    assert_eq!(more[0]["path"], json!(format!("src/module_{}.py", paged.shown)));
    // A search pages by itself: the offsets it reports count the hits it skipped.
    assert_eq!(value["page"]["offset"], json!(10));
    assert_eq!(paged.next_offset, Some(10 + paged.shown));
    assert_eq!(value["page"]["total"], json!(30));
}

#[test]
fn a_text_result_pages_by_lines() {
    let text: Vec<String> = (1..=200).map(|i| format!("    line_{i} = compute(line_{i})")).collect();
    let fit_lines = Fit::of(&[Results::Lines("content")]);
    let mut first = json!({"query": "f", "content": text.join("\n")});
    let paged = fit(&mut first, &fit_lines, Page { max_tokens: 300, offset: 0 });
    assert!(value_tokens(&first) <= 300);
    let next = paged.next_offset.expect("cut");
    assert_eq!(first["page"]["lines"], json!(next));
    let mut second = json!({"query": "f", "content": text.join("\n")});
    fit(&mut second, &fit_lines, Page { max_tokens: 300, offset: next });
    let shown = second["content"].as_str().expect("content");
    assert!(shown.starts_with(&format!("    line_{} =", next + 1)), "{shown}");
}
