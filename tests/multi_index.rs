//! Search across indexes: three real indexes (packages of the Python standard library, each
//! indexed from its own project) ranked as one, `@all`, and an index deleted or damaged under
//! the search left out with a warning while the others still answer.

use crate::cstest;

use cocosearch::store::Backend;

use crate::support::{TestCtx, copy_tree, run, stdlib};

/// Whether the indexes get vectors (keyword-only indexes build in a fraction of the time).
#[derive(Clone, Copy, PartialEq)]
enum Vectors {
    Embedded,
    None,
}

/// Three projects indexed into `t`'s store as `first` (json), `second` (http) and `third`
/// (urllib); the projects are returned so their directories live as long as the test.
fn three_indexes(t: &TestCtx, vectors: Vectors) -> Vec<TestCtx> {
    [("first", "json"), ("second", "http"), ("third", "urllib")]
        .into_iter()
        .map(|(index, package)| {
            let project = TestCtx::new(index);
            copy_tree(&stdlib().join(package), &project.path().join(package));
            let mut cmd = t.cmd_db();
            cmd.current_dir(project.path());
            if vectors == Vectors::None {
                cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
            }
            let out = run(cmd, &["index", "-q", "--index", index]);
            assert_eq!(out.code, 0, "{index}: {out:?}");
            project
        })
        .collect()
}

fn search(t: &TestCtx, args: &[&str]) -> (serde_json::Value, String) {
    let mut all = vec!["search", "--json"];
    all.extend_from_slice(args);
    let out = run(t.cmd_db(), &all);
    assert_eq!(out.code, 0, "{out:?}");
    (out.json(), out.stderr)
}

/// Each hit's index and path, best first.
fn hits(json: &serde_json::Value) -> Vec<(String, String)> {
    let field = |r: &serde_json::Value, key: &str| r[key].as_str().unwrap_or_default().to_string();
    json["results"].as_array().expect("results").iter().map(|r| (field(r, "index"), field(r, "path"))).collect()
}

/// What the official MCP client got for each of `calls`, run from `project` against `t`'s store.
fn mcp_calls(t: &TestCtx, project: &TestCtx, calls: &serde_json::Value) -> Vec<serde_json::Value> {
    let root = crate::mcp_server::root(project);
    let calls = calls.to_string();
    let report =
        crate::mcp_server::scenario(&t.cmd_db(), "calls", &["--project", &root, "--cwd", &root, "--calls", &calls]);
    report["results"].as_array().expect("results").clone()
}

/// A question every index has words for (`parse`, `string`, `value`), whose answer lives in
/// the second: ranked on one scale, the first index's best (a JSON parser) cannot tie with it.
const COOKIE_QUESTION: &str = "parse the expires attribute of a cookie string into its value";

cstest!(the_best_answer_ranks_first_whichever_index_holds_it, both_backends, |t| {
    let _projects = three_indexes(&t, Vectors::Embedded);
    for mode in ["--keyword", "--hybrid"] {
        let (json, _) = search(&t, &[COOKIE_QUESTION, mode, "--indexes", "first,second,third", "-m", "10"]);
        let hits = hits(&json);
        assert_eq!(hits[0], ("second".to_string(), "http/cookies.py".to_string()), "{mode}: {json}");
        let scores: Vec<f64> =
            json["results"].as_array().expect("r").iter().filter_map(|r| r["score"].as_f64()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{mode}: one ranking: {scores:?}");
        let first_index_best = scores.iter().zip(&hits).find(|(_, (index, _))| index == "first").map(|(s, _)| *s);
        assert!(
            first_index_best.is_none_or(|s| s < scores[0]),
            "{mode}: the first index's best hit does not tie with the answer: {json}"
        );
    }
    // `@all` reads every index of the store.
    let (json, _) = search(&t, &["quote a URL path component", "--keyword", "--indexes", "@all", "-m", "5"]);
    assert_eq!(hits(&json)[0], ("third".to_string(), "urllib/parse.py".to_string()), "{json}");
});

cstest!(a_group_of_the_configuration_names_indexes_searched_together, |t| {
    let _projects = three_indexes(&t, Vectors::None);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_INDEX_GROUPS", "web=second,third; data=first");
    // The JSON package would answer this best; the group leaves it out.
    let out = run(cmd, &["search", "--json", "--keyword", "decode a JSON document", "--indexes", "@web"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["indexes"], serde_json::json!(["second", "third"]), "{json}");
    let hits = hits(&json);
    assert!(!hits.is_empty() && hits.iter().all(|(index, _)| index != "first"), "{json}");
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_INDEX_GROUPS", "web=second,third");
    let out = run(cmd, &["search", "x", "--indexes", "@mobile"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("no index group named mobile — define it under indexGroups"), "{out:?}");
});

cstest!(an_index_deleted_or_damaged_under_a_search_is_left_out_with_a_warning, |t| {
    let _projects = three_indexes(&t, Vectors::None);
    let out = run(t.cmd_db(), &["clear", "third", "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    let (json, stderr) = search(&t, &[COOKIE_QUESTION, "--keyword", "--indexes", "first,second,third"]);
    assert_eq!(hits(&json)[0].0, "second", "{json}");
    assert!(stderr.contains("warning:") && stderr.contains("no index named third"), "{stderr}");
    assert!(json["warnings"].to_string().contains("third"), "{json}");
    // The first named is gone too: the search is about the first that exists.
    let out = run(t.cmd_db(), &["clear", "first", "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    let (json, stderr) = search(&t, &[COOKIE_QUESTION, "--keyword", "--indexes", "first,second,third"]);
    assert!(hits(&json).iter().all(|(index, _)| index == "second"), "{json}");
    assert!(stderr.contains("no index named first") && stderr.contains("no index named third"), "{stderr}");
    let out = run(t.cmd_db(), &["search", "cookie", "--indexes", "first,third"]);
    assert_eq!(out.code, 1, "none of them exists: {out:?}");
    assert!(out.stderr.contains("no index named first"), "{out:?}");
});

cstest!(an_unreadable_index_is_skipped_not_fatal, |t| {
    assert_eq!(t.backend(), Backend::Sqlite);
    let _projects = three_indexes(&t, Vectors::None);
    // Damage the third index's tables under the store, as a failed disk or a hand edit would.
    let store = t.embedded_dir().join("cocosearch.db");
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DROP TABLE cs_third_terms'); c.commit()",
        ])
        .arg(&store)
        .output()
        .expect("python3");
    assert!(out.status.success(), "{out:?}");
    let (json, stderr) = search(&t, &[COOKIE_QUESTION, "--keyword", "--indexes", "first,second,third"]);
    assert_eq!(hits(&json)[0].0, "second", "{json}");
    assert!(stderr.contains("index third could not be read and was not searched"), "{stderr}");
});

cstest!(grep_reads_the_projects_of_several_indexes, |t| {
    let projects = three_indexes(&t, Vectors::None);
    let out = run(t.cmd_db(), &["grep", "--no-heading", "^class Morsel", "--indexes", "first,second,gone,third"]);
    assert_eq!(out.code, 0, "{out:?}");
    // Each file under its own project's root (they lie outside the working directory).
    let cookies = projects[1].path().join("http/cookies.py");
    assert!(out.stdout.starts_with(&format!("{}:", cookies.display())), "{out:?}");
    assert_eq!(out.stdout.lines().count(), 1, "{out:?}");
    assert!(out.stderr.contains("warning: not searched: no index named gone"), "{out:?}");

    let out = run(t.cmd_db(), &["grep", "--json", "def (loads|urlparse|parse_headers)\\(", "--indexes", "@all"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let found: std::collections::BTreeSet<(String, String)> = json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["index"].as_str().unwrap_or_default().to_string(),
                r["symbol"]["name"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    for wanted in [("first", "loads"), ("second", "parse_headers"), ("third", "urlparse")] {
        assert!(found.contains(&(wanted.0.to_string(), wanted.1.to_string())), "{wanted:?}: {json}");
    }
    let files = run(t.cmd_db(), &["grep", "--files", "--indexes", "first,second"]);
    assert_eq!(files.code, 0, "{files:?}");
    assert!(
        files.stdout.lines().any(|l| l == projects[0].path().join("json/decoder.py").display().to_string()),
        "{files:?}"
    );

    let out = run(t.cmd_db(), &["grep", "Morsel", "http", "--indexes", "first,second"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("--indexes greps whole projects"), "{out:?}");
});

cstest!(agents_name_several_indexes_through_a_real_mcp_client, |t| {
    let projects = three_indexes(&t, Vectors::None);
    let calls = serde_json::json!([
        {"tool": "search_code", "args": {"query": COOKIE_QUESTION, "mode": "keyword", "index_names": ["first", "second", "third"]}},
        {"tool": "grep_code", "args": {"pattern": "^class Morsel", "index_names": "first,second"}},
        {"tool": "grep_code", "args": {"pattern": "Morsel", "index_names": ["first", "second"], "path": "http"}},
    ]);
    let results = mcp_calls(&t, &projects[0], &calls);
    let search = &results[0]["json"];
    assert_eq!(search["results"][0]["index"], "second", "{search}");
    let grep = &results[1]["json"];
    assert_eq!(grep["results"][0]["index"], "second", "{grep}");
    assert_eq!(grep["results"][0]["path"], "http/cookies.py", "{grep}");
    assert_eq!(results[2]["is_error"], true, "{}", results[2]);
});

cstest!(a_name_is_looked_up_in_several_indexes, |t| {
    let projects = three_indexes(&t, Vectors::None);
    // `urlparse` is defined in urllib and used by http: its definition and its uses across both.
    let out = run(t.cmd_db(), &["symbol", "urlparse", "--json", "--indexes", "first,second,third,gone"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["indexes"], serde_json::json!(["first", "second", "third"]), "{json}");
    assert_eq!(
        (&json["results"][0]["index"], &json["results"][0]["name"]),
        (&serde_json::json!("third"), &serde_json::json!("urlparse")),
        "{json}"
    );
    assert_eq!(json["resolution"], "resolved", "one definition across the three: {json}");
    assert!(out.stderr.contains("warning: not searched: no index named gone"), "{out:?}");

    let out = run(t.cmd_db(), &["refs", "urlparse", "--json", "--indexes", "@all", "-m", "0"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let users: std::collections::BTreeSet<&str> =
        json["results"].as_array().expect("uses").iter().filter_map(|r| r["index"].as_str()).collect();
    assert!(users.contains("second") && users.contains("third"), "uses in http and in urllib: {json}");
    assert_eq!(json["definitions"][0]["index"], "third", "{json}");

    // Text output names each result's index; one index alone prints as before.
    let out = run(t.cmd_db(), &["symbol", "urlparse", "--indexes", "second,third"]);
    assert!(out.stdout.lines().next().is_some_and(|l| l.starts_with("[third]  urllib/parse.py:")), "{out:?}");
    let mut cmd = t.cmd_db();
    cmd.current_dir(projects[2].path());
    let out = run(cmd, &["symbol", "urlparse", "--index", "third"]);
    assert!(out.stdout.starts_with("urllib/parse.py:"), "{out:?}");

    // Through the official MCP client: find_symbol and get_dependents take index_names.
    let calls = serde_json::json!([
        {"tool": "find_symbol", "args": {"name": "urlparse", "index_names": ["first", "third"]}},
        {"tool": "get_dependents", "args": {"name": "urlparse", "index_names": "second,third", "max_results": 0}},
        {"tool": "get_dependencies", "args": {"name": "urlparse", "index_names": ["third"]}},
    ]);
    let results = mcp_calls(&t, &projects[0], &calls);
    assert_eq!(results[0]["json"]["results"][0]["index"], "third", "{}", results[0]);
    let users = results[1]["json"]["results"].to_string();
    assert!(users.contains("\"second\"") && users.contains("\"third\""), "{}", results[1]);
    assert_eq!(results[2]["is_error"], true, "{}", results[2]);
});
