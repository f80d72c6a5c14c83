//! `cocosearch search` on the embedded store with real embeddings: retrieval, filters,
//! cross-index search, degradation, errors and the JSON schema. The first test also runs on
//! PostgreSQL (the end-to-end set); the tests naming a PostgreSQL URL are about that URL.

use crate::cstest;
use std::sync::atomic::Ordering;

use crate::support::fake_ollama::FakeOllama;
use crate::support::{TEST_MODEL, TestCtx, run, write_sample_project};

fn project(t: &TestCtx) {
    write_sample_project(t);
    t.write("docs/guide.md", "# Guide\n\n## Uploads\n\nUploads are retried three times before giving up.\n");
    t.write("config/deploy.yaml", "service:\n  name: uploader\n  replicas: 3\n");
}

fn indexed(t: &TestCtx) {
    project(t);
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
}

fn search(t: &TestCtx, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["search", "--json"];
    all.extend_from_slice(args);
    let out = run(t.cmd_db(), &all);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()
}

fn paths(json: &serde_json::Value) -> Vec<String> {
    json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_string())
        .collect()
}

cstest!(natural_language_and_identifier_queries_find_their_code, both_backends, |t| {
    indexed(&t);
    let json = search(&t, &["where do we retry failed uploads"]);
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(paths(&json)[0], "src/uploads.py", "{json}");
    assert!(json["results"][0]["vector_score"].as_f64().is_some(), "{json}");

    let json = search(&t, &["get_user_by_id"]);
    let first = &json["results"][0];
    assert_eq!(first["path"], "src/users.py", "{json}");
    assert_eq!(first["symbol"]["qualified_name"], "UserStore.get_user_by_id", "{json}");
    assert_eq!(first["score"], 1.0, "an exact symbol match ranks first with score 1: {json}");
    assert_eq!(
        (first["start_line"].as_u64(), first["end_line"].as_u64()),
        (Some(7), Some(9)),
        "the hit is the method itself: {json}"
    );

    // Every score is in 0..1.
    for r in json["results"].as_array().expect("results") {
        let s = r["score"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&s), "{r}");
    }
});

cstest!(json_schema_is_stable, |t| {
    indexed(&t);
    let json = search(&t, &["upload", "-C", "1"]);
    for key in [
        "query",
        "indexes",
        "mode",
        "query_kind",
        "degraded",
        "verdict",
        "warnings",
        "took_ms",
        "cached_embedding",
        "results",
    ] {
        assert!(json.get(key).is_some(), "top-level {key} missing: {json}");
    }
    let hit = &json["results"][0];
    for key in [
        "index",
        "path",
        "start_line",
        "end_line",
        "language",
        "symbol",
        "symbols",
        "enclosing",
        "score",
        "vector_score",
        "keyword_score",
        "parse_status",
        "stale",
        "content",
        "before",
        "after",
    ] {
        assert!(hit.get(key).is_some(), "result field {key} missing: {hit}");
    }
    assert!(hit["start_line"].as_u64() >= Some(1));
    assert_eq!(hit["parse_status"], "ok");
    assert_eq!(hit["stale"], false);
    // Piped output stays text without --json, as rg's does (issue 27).
    let out = run(t.cmd_db(), &["search", "upload"]);
    assert!(serde_json::from_str::<serde_json::Value>(&out.stdout).is_err(), "{out:?}");
    // No results: an empty list and success.
    let json = search(&t, &["zzqqxxnonexistenttoken", "--keyword"]);
    assert_eq!(json["results"], serde_json::json!([]));
});

cstest!(each_filter_restricts_inside_the_query, |t| {
    indexed(&t);
    let json = search(&t, &["upload", "--lang", "md"]);
    assert_eq!(paths(&json), vec!["docs/guide.md"], "{json}");
    let json = search(&t, &["user", "--lang", "javascript,python"]);
    let found = paths(&json);
    assert!(!found.is_empty() && found.iter().all(|p| p.ends_with(".py") || p.ends_with(".js")), "{json}");
    let json = search(&t, &["upload", "--path", "src/**"]);
    assert!(!paths(&json).is_empty() && paths(&json).iter().all(|p| p.starts_with("src/")), "{json}");
    let json = search(&t, &["user", "--path", "*.js"]);
    assert_eq!(paths(&json), vec!["web/app.js"], "{json}");
    let json = search(&t, &["user", "--symbol-type", "class"]);
    let hits = json["results"].as_array().expect("results");
    assert!(!hits.is_empty() && hits.iter().all(|r| r["symbol"]["type"] == "class"), "{json}");
    assert!(!paths(&json).is_empty(), "{json}");
    let json = search(&t, &["user", "--symbol-name", "GET_*"]);
    let names: Vec<&str> =
        json["results"].as_array().expect("r").iter().filter_map(|r| r["symbol"]["name"].as_str()).collect();
    assert_eq!(names, vec!["get_user_by_id"], "{json}");
    // A bad filter value is a usage error naming what is allowed.
    let out = run(t.cmd_db(), &["search", "x", "--lang", "klingon"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("unknown language \"klingon\"") && out.stderr.contains("python"), "{out:?}");
});

cstest!(a_filter_before_the_cut_finds_what_a_filter_after_it_would_lose, |t| {
    for i in 0..30 {
        t.write(&format!("mod{i:02}.py"), format!("def frobnicate_widget_{i}(widget):\n    \"\"\"Frobnicate the widget, widget by widget.\"\"\"\n    return widget.frobnicate(widget)\n"));
    }
    // One weak mention in a long Markdown section: it ranks below every Python file.
    let filler = "The service reads its options at start-up and keeps them for its whole life. ".repeat(10);
    t.write("notes.md", format!("# Notes\n\n{filler}One widget may frobnicate.\n"));
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let unfiltered = search(&t, &["frobnicate widget", "--keyword", "--limit", "5"]);
    assert_eq!(paths(&unfiltered).len(), 5, "{unfiltered}");
    assert!(
        !paths(&unfiltered).contains(&"notes.md".to_string()),
        "the Markdown file is outside the top 5: {unfiltered}"
    );
    let filtered = search(&t, &["frobnicate widget", "--keyword", "--limit", "5", "--lang", "markdown"]);
    assert_eq!(paths(&filtered), vec!["notes.md"], "{filtered}");
});

cstest!(several_indexes_are_searched_together, |t| {
    indexed(&t);
    let other = TestCtx::new("other_project");
    other.write("lib/billing.py", "def charge_invoice(invoice):\n    \"\"\"Charge an invoice and retry failed payments.\"\"\"\n    return invoice\n");
    let mut cmd = t.cmd_db();
    cmd.current_dir(other.path());
    let out = run(cmd, &["index", "-q", "--index", "billing"]);
    assert_eq!(out.code, 0, "{out:?}");
    let own = cocosearch::config::sanitize_index_name(&t.path().file_name().expect("name").to_string_lossy());
    let json = search(&t, &["retry failed", "--indexes", &format!("{own},billing")]);
    let indexes: Vec<&str> =
        json["results"].as_array().expect("r").iter().filter_map(|r| r["index"].as_str()).collect();
    assert!(indexes.contains(&"billing") && indexes.contains(&own.as_str()), "{json}");
    let scores: Vec<f64> = json["results"].as_array().expect("r").iter().filter_map(|r| r["score"].as_f64()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "merged by score: {scores:?}");
});

cstest!(embedder_down_degrades_to_keywords, |t| {
    indexed(&t);
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", format!("http://127.0.0.1:{port}"));
    let out = run(cmd, &["search", "--json", "--no-cache", "retry failed uploads"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["degraded"], "keyword-only", "{json}");
    assert_eq!(json["mode"], "keyword", "{json}");
    assert_eq!(paths(&json)[0], "src/uploads.py", "{json}");
    assert!(out.stderr.contains("warning:") && out.stderr.contains("keyword results only"), "{out:?}");
});

cstest!(missing_index_and_dead_database_say_what_to_do, |t| {
    let out = run(t.cmd_db(), &["search", "anything", "--index", "nope"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("no index named nope — run `cocosearch index`"), "{out:?}");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_DATABASE_URL", format!("postgresql://u:secretpw@127.0.0.1:{port}/db"));
    let out = run(cmd, &["search", "anything"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "one line: {out:?}");
    assert!(
        out.stderr.contains("postgresql://u:***@127.0.0.1") && out.stderr.contains("docker compose up -d"),
        "{out:?}"
    );
    assert!(!out.stderr.contains("secretpw"));
});

cstest!(usage_errors_exit_2_before_touching_the_database, |t| {
    // A dead database: usage errors are found before any connection.
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let dead = format!("postgresql://u@127.0.0.1:{port}/db");
    for (args, fragment) in [
        (&["search", ""][..], "the query is empty"),
        (&["search", "   "], "the query is empty"),
        (&["search", "x", "--indexes", "good,Bad-Name"], "--indexes: invalid index name \"Bad-Name\""),
        (&["search", "x", "--indexes", "a;drop"], "(e.g. `a_drop`)"),
    ] {
        for url in [dead.clone(), t.db_url()] {
            let mut cmd = t.cmd();
            cmd.env("COCOSEARCH_DATABASE_URL", &url);
            let out = run(cmd, args);
            assert_eq!(out.code, 2, "{args:?}: {out:?}");
            assert!(out.stderr.contains(fragment), "{args:?}: {out:?}");
        }
    }
});

cstest!(context_staleness_cache_and_merging, |t| {
    indexed(&t);
    let json = search(&t, &["retrying failed uploads with exponential backoff", "-B", "2", "-A", "1", "--no-smart"]);
    // The query was embedded (and so cached), not answered by keywords alone.
    assert!(json["degraded"].is_null(), "{json}");
    let hit = &json["results"][0];
    assert_eq!(hit["path"], "src/uploads.py");
    let start = hit["start_line"].as_u64().expect("start");
    assert_eq!(hit["before"].as_array().expect("before").len() as u64, 2.min(start - 1), "{hit}");
    let text = std::fs::read_to_string(t.path().join("src/uploads.py")).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(hit["content"].as_str().expect("content").lines().next(), Some(lines[start as usize - 1]), "{hit}");

    // The second identical query reuses the stored query vector; --no-cache does not.
    let again = search(&t, &["retrying failed uploads with exponential backoff"]);
    assert_eq!(again["cached_embedding"], true, "{again}");
    let uncached = search(&t, &["retrying failed uploads with exponential backoff", "--no-cache"]);
    assert_eq!(uncached["cached_embedding"], false, "{uncached}");

    // Editing the file after indexing marks its hits.
    std::fs::write(t.path().join("src/uploads.py"), text.replace("3", "5")).expect("edit");
    let json = search(&t, &["retrying failed uploads with exponential backoff"]);
    assert_eq!(json["results"][0]["stale"], true, "{json}");
});

cstest!(touching_hits_of_a_file_are_merged, |t| {
    let body: String = (0..12)
        .map(|i| format!("def parse_config_section_{i}(config):\n    \"\"\"Parse config section {i} of the config file.\"\"\"\n    value = config.get('section_{i}')\n    return normalise_config_value(value, {i})\n\n\n"))
        .collect();
    t.write("config_parser.py", &body);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = search(&t, &["parse config section config file", "--keyword", "--no-smart", "--limit", "10"]);
    let hits = json["results"].as_array().expect("results");
    assert_eq!(hits.len(), 1, "adjacent chunks of one file merge into one hit: {json}");
    assert_eq!(hits[0]["start_line"], 1);
    assert!(hits[0]["end_line"].as_u64() >= Some(70), "{json}");
});

cstest!(smart_context_expands_a_piece_to_its_definition, |t| {
    // A method long enough to be cut into several chunks; the rare word sits in a late piece.
    let steps: String = (1..=36)
        .map(|i| {
            let name = if i == 30 { "zebracorn_checkpoint".to_string() } else { format!("stage_{i}") };
            format!("        value_{i} = self.{name}(value_{}, retries={i}, label='step {i}')\n", i - 1)
        })
        .collect();
    let source = format!(
        "class Pipeline:\n    \"\"\"Runs the stages in order.\"\"\"\n\n    def run(self, value_0):\n{steps}        return value_36\n\n\ndef helper():\n    return 1\n"
    );
    t.write("pipeline.py", &source);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let lines = |json: &serde_json::Value| {
        let hit = &json["results"][0];
        (hit["start_line"].as_u64().unwrap_or(0), hit["end_line"].as_u64().unwrap_or(0))
    };
    let narrow = search(&t, &["zebracorn_checkpoint", "--keyword", "--no-smart"]);
    let (start, end) = lines(&narrow);
    assert!(start > 4 && end <= 41, "the chunk is a piece of the method: {narrow}");
    // With smart context (the default), the whole method, lines 4..=41.
    let smart = search(&t, &["zebracorn_checkpoint", "--keyword"]);
    assert_eq!(lines(&smart), (4, 41), "{smart}");
    let content = smart["results"][0]["content"].as_str().unwrap_or_default();
    assert!(content.starts_with("    def run(self, value_0):") && content.ends_with("return value_36"), "{smart}");
});

cstest!(a_slow_query_embedding_waits_embedding_query_timeout_and_says_so, |t| {
    indexed(&t);
    // An embedder that answers, with vectors of the right length, but only after 5 s.
    let fake = FakeOllama::start(384);
    fake.behaviour.delay_ms.store(5000, Ordering::SeqCst);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out =
        run(cmd, &["search", "--json", "--no-cache", "--set", "embedding.queryTimeout=1", "retry failed uploads"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(fake.behaviour.embed_requests.load(Ordering::SeqCst), 1, "the query was sent once");
    assert_eq!(json["degraded"], "keyword-only", "the search gave up after 1 s, not 5: {json}");
    assert_eq!(paths(&json)[0], "src/uploads.py", "{json}");
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("the query embedding took longer than 1s — raise embedding.queryTimeout"),
        "the advice names the setting that applies: {json}"
    );
    assert!(!warnings.contains("embedding.timeout"), "{json}");

    // Given the time, the same slow embedder is waited for.
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url).env("COCOSEARCH_EMBEDDING_QUERY_TIMEOUT", "20");
    fake.behaviour.delay_ms.store(1500, Ordering::SeqCst);
    let out = run(cmd, &["search", "--json", "--no-cache", "retry failed uploads"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.json()["degraded"].is_null(), "{out:?}");
});

/// The length of the vector the query cache holds for `query` under the test model, if any.
fn cached_dimension(t: &TestCtx, query: &str) -> Option<usize> {
    t.db_store().cached_query_vector(TEST_MODEL, query).expect("read the query cache").map(|v| v.len())
}

/// Puts a vector that fits no index into the query cache for `query`, as older versions
/// cached.
fn poison_cache(t: &TestCtx, query: &str) {
    t.db_store().cache_query_vector(TEST_MODEL, query, &[1.0, 2.0, 3.0]).expect("poison the cache");
    assert_eq!(cached_dimension(t, query), Some(3));
}

cstest!(a_wrong_query_vector_is_never_cached_and_a_bad_entry_is_repaired, |t| {
    indexed(&t);
    let name = cocosearch::config::sanitize_index_name(&t.path().file_name().expect("name").to_string_lossy());
    let query = "where do we retry failed uploads";

    // A server that answers to the same model name with 3-dimensional vectors.
    let fake = FakeOllama::start(3);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(cmd, &["search", "--json", query]);
    assert_eq!(out.code, 0, "the search falls back to keywords: {out:?}");
    let json = out.json();
    assert_eq!(json["degraded"], "keyword-only", "{json}");
    assert_eq!(paths(&json)[0], "src/uploads.py", "{json}");
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("3-dimensional query vector")
            && warnings.contains(&format!("index {name} holds 384-dimensional vectors"))
            && warnings.contains("showing keyword results only"),
        "the warning names the cause: {json}"
    );
    // (The same key holds the real vector below: this looks where the misfit would be.)
    assert_eq!(cached_dimension(&t, query), None, "the misfit was not cached");

    // The real embedder then answers the same query with vectors.
    let json = search(&t, &[query]);
    assert!(json["degraded"].is_null(), "{json}");
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["cached_embedding"], false, "{json}");
    assert_eq!(cached_dimension(&t, query), Some(384));

    // An entry that does not fit (as older versions cached) is computed again and replaced.
    poison_cache(&t, query);
    let json = search(&t, &[query]);
    assert!(json["degraded"].is_null(), "{json}");
    assert_eq!(json["cached_embedding"], false, "{json}");
    assert_eq!(cached_dimension(&t, query), Some(384));

    // --no-cache replaces the entry too, whatever it holds.
    poison_cache(&t, query);
    let json = search(&t, &[query, "--no-cache"]);
    assert!(json["degraded"].is_null(), "{json}");
    assert_eq!(cached_dimension(&t, query), Some(384));
    let json = search(&t, &[query]);
    assert_eq!(json["cached_embedding"], true, "{json}");
    assert_eq!(json["mode"], "hybrid", "{json}");
});

/// The control characters in `text` other than newline and tab, after removing the colour
/// sequences (`ESC [ … m`) that cocosearch itself writes when colours are on.
fn raw_controls(text: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            let sequence: String = chars.clone().skip(1).take_while(|c| c.is_ascii_digit() || *c == ';').collect();
            if chars.clone().nth(sequence.len() + 1) == Some('m') {
                chars.nth(sequence.len() + 1);
                continue;
            }
        }
        if c.is_control() && c != '\n' && c != '\t' {
            out.push(c);
        }
    }
    out
}

cstest!(control_characters_from_indexed_files_never_reach_the_terminal, |t| {
    // A window-title change and a screen clear, in a file name and in file content.
    let title = "\u{1b}]0;pwned\u{7}";
    let clear = "\u{1b}[2J";
    let evil_name = format!("src/evil{title}{clear}.py");
    let evil_content = format!("def pwned_title():\n    return '{title}{clear}'\n");
    t.write(&evil_name, &evil_content);
    t.write(&format!("src/broken{clear}.py"), "def broken(:\n    pwned_title(\n");
    let out = run(t.cmd_db(), &["index", "--no-embed", "--color", "never"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(raw_controls(&out.stderr), Vec::<char>::new(), "index summary: {out:?}");
    t.write(&format!("src/added{title}.py"), "x = 1\n");

    // Pretty output (forced on a pipe by --color always): escaped, visible, nothing raw but
    // cocosearch's own colours.
    let out = run(t.cmd_db(), &["search", "pwned_title", "--keyword", "--color", "always"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(raw_controls(&out.stdout), Vec::<char>::new(), "search: {out:?}");
    assert!(out.stdout.contains("evil\\x1b]0;pwned\\x07\\x1b[2J.py"), "{out:?}");
    assert!(out.stdout.contains("return '\\x1b]0;pwned\\x07\\x1b[2J'"), "{out:?}");
    for args in [&["stats", "-v", "--show-failures"][..], &["list"]] {
        let mut all = args.to_vec();
        all.extend(["--color", "never"]);
        let out = run(t.cmd_db(), &all);
        assert_eq!(out.code, 0, "{out:?}");
        assert_eq!(raw_controls(&out.stdout), Vec::<char>::new(), "{args:?}: {out:?}");
        assert_eq!(raw_controls(&out.stderr), Vec::<char>::new(), "{args:?}: {out:?}");
        if args[0] == "stats" {
            assert!(out.stdout.contains("src/broken\\x1b[2J.py"), "failing files: {out:?}");
            assert!(out.stdout.contains("+ src/added\\x1b]0;pwned\\x07.py"), "added files: {out:?}");
        }
    }

    // JSON keeps the exact text.
    let out = run(t.cmd_db(), &["search", "pwned_title", "--keyword", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let hit = &out.json()["results"][0];
    assert_eq!(hit["path"], evil_name, "{out:?}");
    assert!(hit["content"].as_str().is_some_and(|c| c.contains(&format!("'{title}{clear}'"))), "{out:?}");
    let out = run(t.cmd_db(), &["stats", "--json", "--show-failures"]);
    assert!(out.stdout.contains("src/broken\\u001b[2J.py"), "{out:?}");
});

cstest!(definitions_rank_the_methods_of_the_top_files_by_what_their_bodies_say, |t| {
    // Small methods share one chunk: hits alone would list them in source order.
    t.write(
        "src/transfer.py",
        "class Transfer:\n    def open(self, url):\n        self.connection = connect(url)\n\n    def resume(self, offset):\n        \"\"\"Continue a partial download from the acknowledged byte offset.\"\"\"\n        self.connection.seek(offset)\n        return self.connection.read_remaining()\n\n    def close(self):\n        def flush_partial_download():\n            pass\n        self.connection.close()\n",
    );
    t.write("src/other.py", "def unrelated():\n    return 'nothing about transfers'\n");
    let out = run(t.cmd_db(), &["index", "--no-embed", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");

    let query = "continue a partial download from the acknowledged offset";
    let json = search(&t, &[query, "--keyword", "--definitions", "3"]);
    let definitions = json["definitions"].as_array().expect("definitions asked for are listed");
    let names: Vec<&str> = definitions.iter().map(|d| d["name"].as_str().unwrap_or_default()).collect();
    assert_eq!(names[0], "Transfer.resume", "{json}");
    assert_eq!(definitions.len(), 3, "{json}");
    // A nested function is a definition of its own (a fix may lie in it), with its own lines.
    let nested = definitions.iter().find(|d| d["name"] == "Transfer.close.flush_partial_download");
    let nested = nested.unwrap_or_else(|| panic!("a nested function is ranked too: {json}"));
    assert_eq!((nested["start_line"].as_u64(), nested["end_line"].as_u64()), (Some(11), Some(12)), "{json}");
    let first = &definitions[0];
    assert_eq!((first["path"].as_str(), first["kind"].as_str()), (Some("src/transfer.py"), Some("method")), "{json}");
    assert_eq!((first["start_line"].as_u64(), first["end_line"].as_u64()), (Some(5), Some(8)), "{json}");

    // Not asked for, not listed; asked for, also in the pretty output.
    assert!(search(&t, &[query, "--keyword"]).get("definitions").is_none());
    let out = run(t.cmd_db(), &["search", query, "--keyword", "--definitions", "2", "--color", "always"]);
    assert_eq!(out.code, 0, "{out:?}");
    let pretty = console::strip_ansi_codes(&out.stdout);
    assert!(pretty.contains("Definitions most likely meant"), "{pretty}");
    assert!(pretty.contains("src/transfer.py:5-8  method Transfer.resume"), "{pretty}");
    let out = run(t.cmd_db(), &["search", query, "--definitions", "0"]);
    assert_eq!(out.code, 2, "--definitions 0 is a usage error: {out:?}");
});

// Pages join up: the second page is the hits after the first page's, exactly as one longer
// search lists them, with no gap and no repeat.
cstest!(an_offset_gives_the_next_page, |t| {
    indexed(&t);
    let at = |hit: &serde_json::Value| format!("{}:{}", hit["path"].as_str().unwrap_or(""), hit["start_line"]);
    let hits = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["user upload retry", "--keyword"];
        all.extend_from_slice(args);
        search(&t, &all)["results"].as_array().expect("results").iter().map(at).collect()
    };
    let three = hits(&["-m", "3"]);
    assert_eq!(three.len(), 3, "{three:?}");
    let first = hits(&["-m", "1"]);
    let second = hits(&["-m", "2", "--offset", "1"]);
    assert_eq!([first, second].concat(), three);
    assert!(hits(&["-m", "2", "--offset", "1000"]).is_empty());
});
