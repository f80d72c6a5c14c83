//! `cocosearch stats`: every number checked against the disk and what the store holds (read
//! chunk by chunk through the `Store` API; that the store's own counts are right is the store
//! contract's business); freshness; no index. On the embedded store; the first test also runs
//! on PostgreSQL (the end-to-end set).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use cocosearch::chunk::ParseStatus;
use cocosearch::store::StoredChunk;

use crate::cstest;
use crate::support::{TestCtx, all_chunks, run};

/// A corpus with syntax errors in three languages, unsupported files, and one skipped path of
/// every reason.
fn corpus(t: &TestCtx) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (from, to) in [
        ("languages/sample.py", "src/sample.py"),
        ("languages/sample.rs", "src/sample.rs"),
        ("languages/sample.js", "web/sample.js"),
        ("languages/README.md", "README.md"),
        ("broken/broken.py", "src/broken.py"),
        ("broken/broken.rs", "src/broken.rs"),
        ("broken/broken.js", "web/broken.js"),
    ] {
        t.write(to, std::fs::read(fixtures.join(from)).expect("fixture"));
    }
    t.write("notes.txt", "plain notes\n\nwith two paragraphs\n");
    t.write("Makefile", "all:\n\techo hi\n");
    // One of each skip reason.
    t.write(".gitignore", "*.log\n");
    t.write("debug.log", "ignored\n");
    t.write("node_modules/x/index.js", "excluded\n");
    t.write(".env", "SECRET=1\n");
    t.write("big.py", "x = 1\n".repeat(600));
    t.write("blob.txt", b"a\0b".as_slice());
    t.write("latin1.py", b"s = 'caf\xe9'\n".as_slice());
    std::os::unix::fs::symlink(t.path().join("gone.py"), t.path().join("dangling.py")).expect("dangling");
    std::os::unix::fs::symlink(t.path(), t.path().join("src/loop")).expect("loop");
}

fn lines_on_disk(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).expect("read");
    (text.matches('\n').count() + usize::from(!text.is_empty() && !text.ends_with('\n'))) as u64
}

cstest!(every_number_matches_the_store_and_disk, both_backends, |t| {
    corpus(&t);
    // In the project's configuration, so `stats` walks the tree exactly like `index`.
    t.write("cocosearch.yaml", "indexing:\n  maxFileSize: 3000\n");
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    // Two more files indexed without embeddings: their chunks await vectors.
    t.write("src/later.py", "def later():\n    return 1\n");
    t.write("web/later.js", "function later() { return 1; }\n");
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");

    let out = run(t.cmd_db(), &["stats", "--json", "-v"]);
    assert_eq!(out.code, 0, "{out:?}");
    let s = out.json();
    let (store, name) = (t.db_store(), t.index_name());
    let stored = all_chunks(store.as_ref(), &name);
    let states = store.reader(&name).expect("reader").file_states(None).expect("file states");

    // Totals against the disk and the stored chunks.
    let indexed = [
        "src/sample.py",
        "src/sample.rs",
        "web/sample.js",
        "README.md",
        "src/broken.py",
        "src/broken.rs",
        "web/broken.js",
        "notes.txt",
        "Makefile",
        ".gitignore",
        "src/later.py",
        "web/later.js",
        "cocosearch.yaml",
    ];
    assert_eq!(s["files"], indexed.len() as u64, "{s}");
    assert_eq!(
        states.iter().filter(|(_, st)| st.skip_reason.is_none()).map(|(p, _)| p.as_str()).collect::<BTreeSet<_>>(),
        indexed.iter().copied().collect::<BTreeSet<_>>()
    );
    // Files that cannot be indexed are recorded with their reason, without chunks.
    let mut recorded_skips: Vec<&str> =
        states.iter().filter(|(_, st)| st.skip_reason.is_some()).map(|(p, _)| p.as_str()).collect();
    recorded_skips.sort_unstable();
    assert_eq!(recorded_skips, vec!["blob.txt", "latin1.py"]);
    assert_eq!(s["chunks"], stored.len() as u64);
    let pending: BTreeSet<String> = store
        .reader(&name)
        .expect("reader")
        .pending_chunks(0, usize::MAX)
        .expect("pending chunks")
        .into_iter()
        .map(|p| p.path)
        .collect();
    let pending_count = store.reader(&name).expect("reader").count_pending().expect("count pending");
    assert!(pending_count > 0);
    assert_eq!(s["pending_embeddings"], pending_count);
    assert_eq!(
        pending,
        BTreeSet::from(["src/later.py".to_string(), "web/later.js".to_string()]),
        "exactly the chunks indexed with --no-embed await vectors"
    );
    assert_eq!(
        pending_count,
        stored.iter().filter(|c| c.path == "src/later.py" || c.path == "web/later.js").count() as u64
    );
    let disk_lines: u64 = indexed.iter().map(|p| lines_on_disk(&t.path().join(p))).sum();
    assert_eq!(s["lines"], disk_lines, "{s}");
    assert_eq!(s["storage_bytes"], store.reader(&name).expect("reader").index_counts().expect("counts").storage_bytes);

    // Per language.
    let by_language =
        |language: &str| -> Vec<&StoredChunk> { stored.iter().filter(|c| c.language == language).collect() };
    for lang in s["languages"].as_array().expect("languages") {
        let l = lang["language"].as_str().expect("language");
        let chunks = by_language(l);
        let paths: BTreeSet<&str> = chunks.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(lang["files"], paths.len() as u64, "{l}");
        assert_eq!(lang["chunks"], chunks.len() as u64, "{l}");
        let lines: u64 = paths.iter().map(|p| lines_on_disk(&t.path().join(p))).sum();
        assert_eq!(lang["lines"], lines, "{l}");
    }

    // Parse health per language and overall.
    let mut parsed_total = 0;
    let mut ok_total = 0;
    for h in s["parse_health"]["languages"].as_array().expect("health") {
        let l = h["language"].as_str().expect("language");
        let chunks = by_language(l);
        let status = |st: ParseStatus| chunks.iter().filter(|c| c.body.parse_status == st).count() as u64;
        let (ok, partial, error, unsupported) = (
            status(ParseStatus::Ok),
            status(ParseStatus::Partial),
            status(ParseStatus::Error),
            status(ParseStatus::Unsupported),
        );
        assert_eq!(
            (h["ok"].as_u64(), h["partial"].as_u64(), h["error"].as_u64(), h["unsupported"].as_u64()),
            (Some(ok), Some(partial), Some(error), Some(unsupported)),
            "{l}"
        );
        parsed_total += ok + partial + error;
        ok_total += ok;
    }
    let expected = (ok_total as f64 * 1000.0 / parsed_total as f64).round() / 10.0;
    assert_eq!(s["parse_health"]["ok_percent"].as_f64(), Some(expected));
    for l in ["python", "rust", "javascript"] {
        let health = s["parse_health"]["languages"]
            .as_array()
            .expect("h")
            .iter()
            .find(|h| h["language"] == l)
            .cloned()
            .expect(l);
        assert!(health["partial"].as_u64() > Some(0), "{l} has planted syntax errors: {health}");
    }
    let unsupported = stored.iter().filter(|c| c.body.parse_status == ParseStatus::Unsupported).count();
    assert!(unsupported >= 2, "notes.txt and the Makefile are unsupported");

    // Symbols by type.
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    for symbol in stored.iter().flat_map(|c| &c.body.symbols) {
        *kinds.entry(symbol.kind.as_str().to_string()).or_default() += 1;
    }
    assert_eq!(s["symbols_by_type"].as_object().expect("symbols").len(), kinds.len());
    for (k, n) in kinds {
        assert_eq!(s["symbols_by_type"][&k], n, "{k}");
    }

    // Skipped paths, one per reason (the big file is over the 3000-byte cap), and the two
    // directories left out whole: .git and node_modules.
    for reason in ["ignored", "sensitive", "too_large", "binary", "not_utf8", "symlink_broken", "symlink_loop"] {
        assert_eq!(s["skipped"][reason], 1, "{reason}: {}", s["skipped"]);
    }
    assert_eq!(s["skipped"]["excluded"], 2, "{}", s["skipped"]);

    // Failing files (verbose): those with a chunk that did not parse, with error positions.
    let failing = s["failing_files"].as_array().expect("failing");
    let expected_failing: BTreeSet<&str> = stored
        .iter()
        .filter(|c| matches!(c.body.parse_status, ParseStatus::Partial | ParseStatus::Error))
        .map(|c| c.path.as_str())
        .collect();
    let listed: BTreeSet<&str> = failing.iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(listed, expected_failing);
    assert!(failing.iter().all(|f| f["errors"].as_array().is_some_and(|e| !e.is_empty())), "{failing:?}");

    // Last run and freshness right after indexing.
    assert_eq!(s["last_run"]["status"], "completed");
    assert_eq!(s["last_run"]["files_added"], 2);
    assert_eq!(s["freshness"]["stale"], false, "{}", s["freshness"]);
});

cstest!(edits_and_deletions_show_as_stale_until_reindexed, |t| {
    for i in 0..5 {
        t.write(&format!("m{i}.py"), format!("def f{i}():\n    return {i}\n"));
    }
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let fresh = run(t.cmd_db(), &["stats", "--json"]).json();
    assert_eq!(fresh["freshness"]["stale"], false, "{fresh}");

    // Make sure the mtime moves even on coarse file systems.
    std::thread::sleep(std::time::Duration::from_millis(20));
    t.write("m1.py", "def f1():\n    return 'changed'\n");
    t.write("m2.py", "def f2():\n    return 'changed too'\n");
    std::fs::remove_file(t.path().join("m3.py")).expect("rm");
    let stale = run(t.cmd_db(), &["stats", "--json"]).json();
    let f = &stale["freshness"];
    assert_eq!(f["stale"], true);
    assert_eq!(f["modified"]["paths"], serde_json::json!(["m1.py", "m2.py"]), "{f}");
    assert_eq!(f["removed"]["paths"], serde_json::json!(["m3.py"]), "{f}");
    assert_eq!(f["added"]["count"], 0, "{f}");
    let human = run(t.cmd_db(), &["stats", "-v"]);
    assert!(human.stdout.contains("2 modified · 1 removed"), "{human:?}");

    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let after = run(t.cmd_db(), &["stats", "--json"]).json();
    assert_eq!(after["freshness"]["stale"], false, "{}", after["freshness"]);
    assert_eq!(after["freshness"]["modified"]["count"], 0);
    assert_eq!(after["freshness"]["removed"]["count"], 0);
});

cstest!(no_index_says_how_to_create_one, |t| {
    let out = run(t.cmd_db(), &["stats"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("no index named") && out.stderr.contains("cocosearch index"), "{out:?}");
});

cstest!(show_failures_lists_positions_and_all_lists_every_index, |t| {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken");
    t.write("broken.py", std::fs::read(fixtures.join("broken.py")).expect("fixture"));
    t.write("ok.py", "def ok():\n    return 1\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);
    let out = run(t.cmd_db(), &["stats", "--show-failures"]);
    assert_eq!(out.code, 0, "{out:?}");
    let line = out.stdout.lines().find(|l| l.contains("broken.py")).unwrap_or_default().to_string();
    assert!(line.contains("partial") && line.contains(" at ") && line.contains(':'), "{out:?}");
    let all = run(t.cmd_db(), &["stats", "--all", "--json"]).json();
    assert_eq!(all.as_array().map(Vec::len), Some(1), "{all}");
});

// Issue 25, item 10: `stats` did not take `-n NAME` like the other commands.
cstest!(stats_takes_the_index_with_n_like_the_other_commands, |t| {
    t.write("ok.py", "def ok():\n    return 1\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed", "-n", "named_elsewhere"]).code, 0);
    let by_flag = run(t.cmd_db(), &["stats", "-n", "named_elsewhere", "--json"]);
    assert_eq!(by_flag.code, 0, "{by_flag:?}");
    assert_eq!(by_flag.json()["name"], "named_elsewhere", "{by_flag:?}");
    let by_position = run(t.cmd_db(), &["stats", "named_elsewhere", "--json"]);
    assert_eq!(by_flag.json()["files"], by_position.json()["files"]);
    let both = run(t.cmd_db(), &["stats", "-n", "named_elsewhere", "--all"]);
    assert_eq!(both.code, 2, "-n and --all name different things: {both:?}");
});
