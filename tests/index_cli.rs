//! `cocosearch index`, `list`, `clear`, `languages` on the embedded store with real
//! embeddings; the first test also runs on PostgreSQL (the end-to-end set). What the runs leave
//! in the store is read through the `Store` API, never SQL; how the store keeps it is the store
//! contract's business (`store_contract`).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use cocosearch::chunk::ParseStatus;
use cocosearch::chunk::keywords::document_text;
use cocosearch::store::{RunStatus, StoredChunk, keyword_length};

use crate::cstest;
use crate::support::fake_ollama::FakeOllama;
use crate::support::{TestCtx, all_chunks, run, start_held_run};

/// A small Python project: three files, a handful of functions each.
pub(crate) fn python_project(t: &TestCtx) {
    t.write(
        "pkg/uploads.py",
        "import time\n\n\ndef upload(path, retries=3):\n    \"\"\"Upload a file, retrying failed uploads with backoff.\"\"\"\n    for attempt in range(retries):\n        try:\n            return send(path)\n        except IOError:\n            time.sleep(2 ** attempt)\n    raise RuntimeError('upload failed')\n\n\ndef send(path):\n    with open(path, 'rb') as f:\n        return f.read()\n",
    );
    t.write(
        "pkg/users.py",
        "class UserStore:\n    def __init__(self):\n        self.users = {}\n\n    def get_user_by_id(self, user_id):\n        return self.users.get(user_id)\n\n    def add(self, user):\n        self.users[user.id] = user\n",
    );
    t.write("README.md", "# Demo\n\nA demo project.\n\n## Uploads\n\nUploads are retried.\n");
}

pub(crate) fn index_json(t: &TestCtx, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["index", "--json"];
    all.extend_from_slice(args);
    let out = run(t.cmd_db(), &all);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()
}

/// Every chunk of the project's index, by path and ordinal.
fn chunks(t: &TestCtx) -> Vec<StoredChunk> {
    all_chunks(t.db_store().as_ref(), &t.index_name())
}

fn chunks_of(t: &TestCtx, path: &str) -> Vec<StoredChunk> {
    chunks(t).into_iter().filter(|c| c.path == path).collect()
}

fn pending(t: &TestCtx) -> u64 {
    t.db_store().reader(&t.index_name()).expect("reader").count_pending().expect("count pending")
}

cstest!(indexes_with_real_embeddings_and_is_incremental, both_backends, |t| {
    python_project(&t);
    let first = index_json(&t, &[]);
    assert_eq!(first["status"], "completed");
    assert_eq!(first["files"]["added"], 3);
    let written = first["chunks"]["written"].as_u64().expect("written");
    assert!(written >= 3, "{first}");
    assert_eq!(first["embeddings"]["pending"], 0, "{first}");
    assert_eq!(first["embeddings"]["dimension"], 384);
    let stored = chunks(&t);
    assert_eq!(stored.len() as u64, written);
    assert_eq!(pending(&t), 0);
    // Stored content is exactly the file's text at the recorded byte range.
    for c in &stored {
        let text = std::fs::read_to_string(t.path().join(&c.path)).expect("read");
        assert_eq!(&text[c.body.byte_start as usize..c.body.byte_end as usize], c.body.content, "{}", c.path);
    }

    // Nothing changed: no embedding request at all.
    let second = index_json(&t, &[]);
    assert_eq!(second["files"]["unchanged"], 3, "{second}");
    assert_eq!(second["embeddings"]["requests"], 0, "{second}");
    assert_eq!(second["chunks"]["written"], 0, "{second}");

    // Touch without changing content: the hash confirms it, still nothing embedded.
    let users = t.path().join("pkg/users.py");
    let text = std::fs::read_to_string(&users).expect("read");
    std::fs::write(&users, &text).expect("rewrite");
    let third = index_json(&t, &[]);
    assert_eq!(third["embeddings"]["requests"], 0, "{third}");

    // One function edited: only that file is redone, and only its changed chunks embedded.
    let before = chunks_of(&t, "pkg/uploads.py").len() as i64;
    let uploads = t.path().join("pkg/uploads.py");
    let edited = std::fs::read_to_string(&uploads)
        .expect("read")
        .replace("return f.read()", "data = f.read()\n        return data");
    std::fs::write(&uploads, edited).expect("edit");
    let fourth = index_json(&t, &[]);
    assert_eq!(fourth["files"]["modified"], 1, "{fourth}");
    let computed = fourth["embeddings"]["computed"].as_i64().expect("computed");
    assert!(computed >= 1 && computed < before.max(2), "re-embedded {computed} of {before} chunks: {fourth}");
    assert_eq!(pending(&t), 0);

    // A deleted file leaves the index.
    std::fs::remove_file(t.path().join("README.md")).expect("rm");
    let fifth = index_json(&t, &[]);
    assert_eq!(fifth["files"]["removed"], 1, "{fifth}");
    assert!(chunks_of(&t, "README.md").is_empty());
});

cstest!(bad_inputs_are_skipped_counted_and_survivable, |t| {
    t.write("ok.py", "def fine():\n    return 1\n");
    t.write("blob.dat.txt", b"abc\0def".as_slice());
    t.write("latin1.py", b"name = 'caf\xe9'\n".as_slice());
    t.write("huge.py", "x = 1\n".repeat(5 * 1024 * 1024 / 6 + 1));
    let minified: String = (0..5000).map(|i| format!("var a{i}=1;")).collect();
    assert!(minified.len() >= 50_000);
    t.write("bundle.js", &minified);
    std::os::unix::fs::symlink(t.path(), t.path().join("loop")).expect("symlink loop");
    // a → b → a: a loop too, not an unreadable file.
    std::os::unix::fs::symlink("loop_b", t.path().join("loop_a")).expect("symlink loop");
    std::os::unix::fs::symlink("loop_a", t.path().join("loop_b")).expect("symlink loop");
    std::os::unix::fs::symlink(t.path().join("missing.py"), t.path().join("dangling.py")).expect("dangling");
    let out = run(t.cmd_db(), &["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let skipped = &json["skipped"];
    assert_eq!(skipped["binary"], 1, "{json}");
    assert_eq!(skipped["not_utf8"], 1, "{json}");
    assert_eq!(skipped["too_large"], 1, "{json}");
    assert_eq!(skipped["symlink_loop"], 3, "{json}");
    assert_eq!(skipped["symlink_broken"], 1, "{json}");
    assert!(skipped.get("unreadable").is_none(), "{json}");
    assert_eq!(json["files"]["added"], 2, "ok.py and bundle.js: {json}");
    let bundle = chunks_of(&t, "bundle.js");
    let pieces = bundle.len();
    assert!(pieces >= 50, "a 50,000-character line is split into budget-sized chunks, got {pieces}");
    let longest = bundle.iter().map(|c| c.body.content.chars().count()).max().unwrap_or(0);
    assert!(longest <= 1000, "{longest}");
});

cstest!(missing_path_is_a_clear_error, |t| {
    let out = run(t.cmd_db(), &["index", "does/not/exist"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("does not exist"), "{out:?}");
});

cstest!(embedder_down_indexes_keywords_then_fills_vectors, |t| {
    python_project(&t);
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", format!("http://127.0.0.1:{port}"));
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let written = json["chunks"]["written"].as_u64().expect("written");
    assert_eq!(json["embeddings"]["pending"].as_u64(), Some(written), "{json}");
    let warnings = json["warnings"].to_string();
    // One warning, naming the fix (issue 27); the summary counts the chunks waiting.
    assert!(warnings.contains("not reachable") && warnings.contains("fills in the vectors"), "{json}");
    assert_eq!(json["warnings"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(pending(&t), written);
    // The human summary says it loudly too.
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", format!("http://127.0.0.1:{port}"));
    let out = run(cmd, &["index"]);
    assert!(out.stderr.contains("awaiting"), "{out:?}");

    let json = index_json(&t, &[]);
    assert_eq!(json["embeddings"]["pending"], 0, "{json}");
    assert_eq!(json["embeddings"]["computed"].as_u64(), Some(written), "{json}");
    assert_eq!(pending(&t), 0);
});

cstest!(unknown_model_stops_with_the_pull_hint, |t| {
    python_project(&t);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", "nomic-embed-text");
    let out = run(cmd, &["index"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("model nomic-embed-text not found — run `ollama pull nomic-embed-text`"), "{out:?}");
    let list = run(t.cmd_db(), &["list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]), "nothing was created: {list:?}");
});

cstest!(changing_the_dimension_is_refused, |t| {
    python_project(&t);
    index_json(&t, &[]);
    let out = run(t.cmd_db(), &["index", "--set", "embedding.outputDimension=128"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("dimension 384") && out.stderr.contains("--fresh"), "{out:?}");
    let json = index_json(&t, &["--fresh", "--set", "embedding.outputDimension=128"]);
    assert_eq!(json["embeddings"]["dimension"], 128, "{json}");
    assert_eq!(json["kind"], "full");
});

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read fixtures") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy fixture");
    }
}

cstest!(every_language_yields_symbols_and_parse_status, |t| {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    copy_dir(&fixtures.join("languages"), t.path());
    std::fs::create_dir(t.path().join("broken")).expect("mkdir");
    copy_dir(&fixtures.join("broken"), &t.path().join("broken"));
    t.write("data.unknownext", "some text\n\nmore text\n");
    let out = run(t.cmd_db(), &["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let stored = chunks(&t);
    let symbols = |path: &str| -> Vec<String> {
        stored
            .iter()
            .filter(|c| c.path == path)
            .flat_map(|c| c.body.symbols.iter().map(|s| s.qualified_name.clone()))
            .collect()
    };
    let py = symbols("sample.py");
    for expected in ["build_url", "Session.Config.describe", "Session.__init__"] {
        assert!(py.iter().any(|q| q == expected), "{expected} missing in {py:?}");
    }
    for (path, expected) in [
        ("sample.rs", "lexer::new"),
        ("sample.go", ""),
        ("main.tf", "aws"),
        ("deploy.sh", ""),
        ("Dockerfile", ""),
        ("README.md", ""),
        ("sample.ts", ""),
        ("Sample.java", ""),
    ] {
        let found = symbols(path);
        assert!(!found.is_empty(), "{path} has no symbols");
        assert!(found.iter().any(|q| q.to_lowercase().contains(expected)), "{path}: {found:?}");
    }
    let status = |path: &str| -> BTreeSet<ParseStatus> {
        stored.iter().filter(|c| c.path == path).map(|c| c.body.parse_status).collect()
    };
    for path in ["sample.py", "sample.rs", "sample.go", "main.tf", "deploy.sh", "Dockerfile", "schema.sql", "sample.kt"]
    {
        assert_eq!(status(path), BTreeSet::from([ParseStatus::Ok]), "{path}");
    }
    assert!(status("broken/broken.py").contains(&ParseStatus::Partial), "{:?}", status("broken/broken.py"));
    assert_eq!(status("data.unknownext"), BTreeSet::from([ParseStatus::Unsupported]));
    let failing = t.db_store().reader(&t.index_name()).expect("reader").failing_files(100).expect("failing files");
    let broken = failing.iter().find(|f| f.path == "broken/broken.py").expect("broken.py fails");
    assert!(broken.errors.first().is_some_and(|e| e.line > 0), "{broken:?}");
});

cstest!(a_second_concurrent_run_waits_for_the_first_and_says_so, |t| {
    for i in 0..30 {
        t.write(&format!("m{i}.py"), format!("def g{i}():\n    return '{}'\n", "slow ".repeat(40)));
    }
    let mut first = t
        .cmd_db()
        .args(["index", "-q", "--set", "embedding.batchSize=1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let (store, name) = (t.db_store(), t.index_name());
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        let running = store.reader(&name).expect("reader").runs(1).ok().and_then(|runs| runs.first().map(|r| r.status));
        if running == Some(RunStatus::Running) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // The second run waits for the lock instead of failing, and says why it waits.
    let second = run(t.cmd_db(), &["index", "--json"]);
    let first = first.wait().expect("the first run");
    assert!(first.success(), "the first run was not disturbed");
    assert_eq!(second.code, 0, "{second:?}");
    assert!(
        second.stderr.contains(&format!("index {name} is being written by another process"))
            && second.stderr.contains("waiting for it to let go"),
        "{second:?}"
    );
    // It came after the first: nothing was left to do.
    assert_eq!(second.json()["files"]["unchanged"], 30, "{second:?}");
});

cstest!(list_clear_and_languages, |t| {
    python_project(&t);
    index_json(&t, &["--no-embed"]);
    let list = run(t.cmd_db(), &["list", "--json"]);
    let name = t.index_name();
    assert_eq!(list.json()[0]["name"], name.as_str(), "{list:?}");
    let refused = run(t.cmd_db(), &["clear", &name]);
    assert_eq!(refused.code, 1, "no TTY and no --force: {refused:?}");
    assert!(refused.stderr.contains("--force"), "{refused:?}");
    let missing = run(t.cmd_db(), &["clear", "nope", "--force"]);
    assert_eq!(missing.code, 1, "{missing:?}");
    let cleared = run(t.cmd_db(), &["clear", &name, "--force", "--json"]);
    assert_eq!(cleared.json()["deleted"][0], name.as_str(), "{cleared:?}");
    assert_eq!(run(t.cmd_db(), &["list", "--json"]).json(), serde_json::json!([]));

    let langs = run(t.cmd(), &["languages", "--json"]).json();
    let names: Vec<&str> = langs.as_array().expect("array").iter().filter_map(|l| l["name"].as_str()).collect();
    for lang in [
        "python",
        "javascript",
        "typescript",
        "tsx",
        "go",
        "rust",
        "java",
        "c",
        "cpp",
        "csharp",
        "ruby",
        "php",
        "kotlin",
        "scala",
        "swift",
        "lua",
        "elixir",
        "haskell",
        "zig",
        "bash",
        "hcl",
        "dockerfile",
        "sql",
        "yaml",
        "json",
        "toml",
        "markdown",
        "html",
        "css",
    ] {
        assert!(names.contains(&lang), "{lang} missing from {names:?}");
    }
    let hcl = langs.as_array().expect("array").iter().find(|l| l["name"] == "hcl").expect("hcl");
    assert_eq!(hcl["tree_sitter"], true);
    assert!(hcl["aliases"].as_array().expect("aliases").iter().any(|a| a == "terraform"));
});

cstest!(a_byte_order_mark_is_not_a_chunk_and_offsets_stay_exact, |t| {
    t.write("bom.py", "\u{feff}def greet(name):\n    return 'hello ' + name\n");
    t.write("run", "\u{feff}#!/usr/bin/env python3\nprint('hi')\n");
    index_json(&t, &["--no-embed"]);
    let mut chunks = all_chunks(t.db_store().as_ref(), &t.index_name());
    chunks.sort_by(|a, b| a.path.cmp(&b.path));
    let found: Vec<(String, u32, String)> =
        chunks.iter().map(|c| (c.path.clone(), c.body.byte_start, c.language.clone())).collect();
    assert_eq!(
        found,
        vec![("bom.py".to_string(), 3, "python".to_string()), ("run".to_string(), 3, "python".to_string())],
        "one chunk per file, after the mark"
    );
    for c in chunks {
        let bytes = std::fs::read(t.path().join(&c.path)).expect("read");
        let (start, end) = (c.body.byte_start as usize, c.body.byte_end as usize);
        assert_eq!(&bytes[start..end], c.body.content.as_bytes(), "{}", c.path);
    }
});

/// The index's term statistics (through the `Store` API) set against those counted from the
/// keyword text of the chunks it holds, for every term it ever held (`ever` grows with each
/// call, so a term no chunk holds any more is asked for and must be absent): each term that
/// differs as (term, stored, counted), the chunk count as `""` and the total keyword length as
/// `"#length"`.
fn term_drift(t: &TestCtx, name: &str, ever: &mut BTreeSet<String>) -> Vec<(String, Option<u64>, Option<u64>)> {
    let mut counted: HashMap<String, u64> = HashMap::new();
    let (mut chunks, mut length) = (0u64, 0u64);
    for c in all_chunks(t.db_store().as_ref(), name) {
        let keywords = document_text(&c.path, &c.body.content);
        chunks += 1;
        length += u64::from(keyword_length(&keywords));
        let terms: BTreeSet<&str> = keywords.split_ascii_whitespace().collect();
        for term in terms {
            *counted.entry(term.to_string()).or_default() += 1;
        }
    }
    ever.extend(counted.keys().cloned());
    let asked: Vec<String> = ever.iter().cloned().collect();
    let stats = t.db_store().reader(name).expect("reader").term_stats(&asked).expect("term stats");
    let mut drift: Vec<(String, Option<u64>, Option<u64>)> = ever
        .iter()
        .filter(|term| stats.df.get(*term) != counted.get(*term))
        .map(|term| (term.clone(), stats.df.get(term).copied(), counted.get(term).copied()))
        .collect();
    let unasked: Vec<&String> = stats.df.keys().filter(|term| !ever.contains(*term)).collect();
    assert!(unasked.is_empty(), "statistics for terms not asked for: {unasked:?}");
    if stats.chunks != chunks {
        drift.push((String::new(), Some(stats.chunks), Some(chunks)));
    }
    if stats.total_length != length {
        drift.push(("#length".to_string(), Some(stats.total_length), Some(length)));
    }
    drift
}

/// The project of the term statistics tests: `python_project` and six small handlers.
pub(crate) fn terms_project(t: &TestCtx) {
    python_project(t);
    for i in 0..6 {
        t.write(&format!("pkg/gen{i}.py"), format!("def handler_{i}(event):\n    return 'payload_{i}'\n"));
    }
}

/// Edits of [`terms_project`] that drop words (renames), add some, delete files and empty one.
pub(crate) fn term_edits() -> [fn(&TestCtx); 4] {
    [
        |t| {
            t.write("pkg/gen0.py", "def renamed_zero(event):\n    return 'other_words'\n");
        },
        |t| {
            std::fs::remove_file(t.path().join("pkg/gen1.py")).expect("rm");
            t.write("pkg/gen2.py", "def handler_2(event):\n    return 'payload_2'\n\n\ndef extra_two():\n    pass\n");
        },
        |t| {
            t.write("pkg/gen3.py", "");
            t.write("pkg/gen4.py", b"binary\0now".as_slice());
        },
        |t| {
            std::fs::remove_dir_all(t.path().join("pkg")).expect("rm -r");
            t.write("pkg/fresh.py", "def fresh_start():\n    return 1\n");
        },
    ]
}

cstest!(term_frequencies_stay_exact_through_edits_and_deletions, |t| {
    terms_project(&t);
    let name = t.index_name();
    index_json(&t, &["--no-embed"]);
    let mut ever = BTreeSet::new();
    let drift = term_drift(&t, &name, &mut ever);
    assert!(drift.is_empty(), "after the first run: df differs from the chunks' keywords: {drift:?}");
    assert!(ever.contains("handler") && ever.contains("upload"), "{ever:?}");
    // Each run checked, every term ever held asked for again.
    for (i, step) in term_edits().iter().enumerate() {
        step(&t);
        index_json(&t, &["--no-embed"]);
        let drift = term_drift(&t, &name, &mut ever);
        assert!(drift.is_empty(), "after step {i}: df differs from the chunks' keywords: {drift:?}");
    }
});

cstest!(clear_refuses_and_a_second_run_waits_while_a_run_writes_the_index, |t| {
    python_project(&t);
    let name = t.index_name();
    let fake = FakeOllama::start(8);
    let first = start_held_run(&t, &fake);

    // The run holds the lock (its embedding is held back): deleting refuses, and a second run
    // (here a rebuild) waits for the lock, saying so, instead of failing.
    let mut fresh = t.cmd_db();
    fresh.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let fresh = fresh
        .args(["index", "--fresh", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the second run");
    let clear = run(t.cmd_db(), &["clear", &name, "--force"]);
    let clear_all = run(t.cmd_db(), &["clear", "--all", "--force", "--json"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    fake.behaviour.open();
    let first = first.wait_with_output().expect("wait for the first run");
    let fresh = fresh.wait_with_output().expect("wait for the second run");
    let fresh_err = String::from_utf8_lossy(&fresh.stderr);
    assert!(fresh.status.success(), "{fresh_err}");
    assert!(
        fresh_err.contains(&format!("index {name} is being written by another process"))
            && fresh_err.contains("waiting for it to let go"),
        "{fresh_err}"
    );
    let rebuilt: serde_json::Value = serde_json::from_slice(&fresh.stdout).expect("summary JSON");
    assert_eq!((&rebuilt["kind"], &rebuilt["files"]["added"]), (&serde_json::json!("full"), &serde_json::json!(3)));

    for (what, out) in [("clear NAME", &clear), ("clear (all)", &clear_all)] {
        assert_eq!(out.code, 1, "{what}: {out:?}");
        assert!(
            out.stderr.contains(&format!("index {name} is being written by another run"))
                && out.stderr.contains("wait for it to finish"),
            "{what}: {out:?}"
        );
    }
    assert_eq!(clear_all.json()["deleted"], serde_json::json!([]), "{clear_all:?}");
    // The first run was never disturbed: it completed, and its index is whole.
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&first.stdout).expect("summary JSON");
    assert_eq!(summary["status"], "completed", "{summary}");
    assert_eq!(summary["files"]["added"], 3, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    let written = summary["chunks"]["written"].as_i64().expect("written");
    assert_eq!(rebuilt["chunks"]["written"].as_i64(), Some(written), "{rebuilt}");
    let counts = t.db_store().reader(&name).expect("reader").index_counts().expect("counts");
    assert_eq!(counts.chunks - counts.pending_embeddings, written as u64, "every chunk has its vector");
    assert_eq!(counts.files, 3);

    // Once it is over, the same commands work.
    let cleared = run(t.cmd_db(), &["clear", &name, "--force", "--json"]);
    assert_eq!(cleared.json()["deleted"], serde_json::json!([name]), "{cleared:?}");
});

cstest!(unusable_vectors_are_never_stored_and_the_next_run_fills_them_in, |t| {
    python_project(&t);
    let name = t.index_name();
    // A server whose vectors hold a value past f32::MAX: infinity once parsed.
    let fake = FakeOllama::start(384);
    fake.behaviour.overflowing.store(true, Ordering::SeqCst);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "the run degrades to keywords: {out:?}");
    let json = out.json();
    let written = json["chunks"]["written"].as_i64().expect("written");
    assert_eq!(json["embeddings"]["pending"].as_i64(), Some(written), "{json}");
    assert!(json["embeddings"]["dimension"].is_null(), "nothing was embedded: {json}");
    assert!(
        json["warnings"].to_string().contains("unusable vectors for all-minilm (values that are not finite numbers)"),
        "{json}"
    );
    let counts = t.db_store().reader(&name).expect("reader").index_counts().expect("counts");
    assert_eq!(counts.pending_embeddings, counts.chunks, "no vector was stored");

    // The real embedder fills them in.
    let json = index_json(&t, &[]);
    assert_eq!(json["embeddings"]["pending"], 0, "{json}");
    assert_eq!(json["embeddings"]["dimension"], 384, "{json}");
    assert_eq!(t.db_store().reader(&name).expect("reader").count_pending().expect("pending"), 0);
});

cstest!(a_new_index_is_never_said_to_be_built_with_a_dimension, |t| {
    python_project(&t);
    // The server reports 384 dimensions for the model but returns 3-dimensional vectors.
    let fake = FakeOllama::start(3);
    fake.behaviour.show_dimension.store(384, Ordering::SeqCst);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(cmd, &["index"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(!out.stderr.contains("built with"), "the index holds no vectors yet: {out:?}");
    assert!(
        out.stderr.contains(
            "the embedding server returned 3-dimensional vectors for all-minilm, but 384 are expected: the embedding server reports that length for the model — check the model it serves"
        ),
        "{out:?}"
    );

    // A new index whose embedder fails after its model check: the summary shows no dimension.
    let fake = FakeOllama::start(384);
    fake.behaviour.failing.store(true, Ordering::SeqCst);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(cmd, &["index", "--json", "--index", "other"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert!(json["embeddings"]["dimension"].is_null(), "nothing was embedded: {json}");
    assert_eq!(json["embeddings"]["computed"], 0, "{json}");
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(cmd, &["index", "--index", "other"]);
    assert!(out.stderr.contains("vectors  0 computed") && !out.stderr.contains("dims"), "{out:?}");
});

cstest!(ctrl_c_summary_tells_the_truth_about_the_embedder, |t| {
    python_project(&t);
    for i in 0..20 {
        t.write(&format!("m{i}.py"), format!("def g{i}():\n    return {i}\n"));
    }
    // The embedder answers, but only once the test lets it: the run is certainly mid-way
    // when it gets SIGINT, and the embedder was never down.
    let fake = FakeOllama::start(384);
    fake.behaviour.close();
    let mut child = t
        .cmd_db()
        .env("COCOSEARCH_OLLAMA_URL", &fake.url)
        .args(["index", "--set", "embedding.batchSize=1", "--set", "embedding.concurrency=1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(60);
    while fake.behaviour.embed_requests.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "the run never asked for an embedding");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stderr_pipe = child.stderr.take().expect("stderr");
    let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let stderr = std::sync::Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut stderr_pipe, &mut buf) {
                if n == 0 {
                    break;
                }
                stderr.lock().expect("stderr").push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    // The handler says it got the signal; only then may the held answer go.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !stderr.lock().expect("stderr").contains("stopping after the current batch") {
        assert!(Instant::now() < deadline, "no sign of the interrupt: {}", stderr.lock().expect("stderr"));
        std::thread::sleep(Duration::from_millis(20));
    }
    fake.behaviour.open();
    let out = child.wait_with_output().expect("wait");
    reader.join().expect("reader");
    let stderr = stderr.lock().expect("stderr").clone();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Interrupted ") && !stderr.contains("Indexed "), "{stderr}");
    assert!(stderr.contains("awaiting"), "some chunks were left without vectors: {stderr}");
    assert!(!stderr.contains("embedder up") && !stderr.contains("not reachable"), "the embedder was up: {stderr}");
    assert!(stderr.contains("the run was stopped before computing them; the next `cocosearch index` does"), "{stderr}");

    // And the next run does.
    let json = index_json(&t, &[]);
    assert_eq!(json["embeddings"]["pending"], 0, "{json}");
});

/// Python files whose definitions group differently under a 1,000-byte budget than under the
/// default 648 bytes (what MiniLM's 256-token context embeds whole).
pub(crate) fn chunky_project(t: &TestCtx) {
    for f in 0..3 {
        let body: String = (0..10)
            .map(|i| {
                format!(
                    "def step_{f}_{i}(records, limit={i}):\n    \"\"\"Step {i} of stage {f}: keep the records under the limit and count them.\"\"\"\n    kept = [r for r in records if r.size < limit]\n    return len(kept) + {i}\n\n\n"
                )
            })
            .collect();
        t.write(&format!("stages/stage{f}.py"), body);
    }
}

/// Every chunk of an index: path, ordinal, byte range and content, in order.
pub(crate) fn chunk_snapshot(t: &TestCtx, index: &str) -> Vec<(String, u32, u32, u32, String)> {
    let mut chunks: Vec<_> = all_chunks(t.db_store().as_ref(), index)
        .into_iter()
        .map(|c| (c.path, c.ordinal, c.body.byte_start, c.body.byte_end, c.body.content))
        .collect();
    chunks.sort();
    chunks
}

cstest!(chunk_boundaries_never_depend_on_whether_the_embedder_answered, |t| {
    chunky_project(&t);
    let name = t.index_name();
    let dead = {
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
        format!("http://127.0.0.1:{port}")
    };
    let index_down = |args: &[&str]| {
        let mut cmd = t.cmd_db();
        cmd.env("COCOSEARCH_OLLAMA_URL", &dead);
        let mut all = vec!["index", "--json"];
        all.extend_from_slice(args);
        let out = run(cmd, &all);
        assert_eq!(out.code, 0, "{out:?}");
        out.json()
    };

    // The first run cannot ask the model for its context.
    let first = index_down(&[]);
    assert_eq!(first["files"]["added"], 3, "{first}");
    let unknown_context = chunk_snapshot(&t, &name);

    // With the embedder up the context is known: every file is recorded again (into the same
    // chunks: the budget is the setting alone), though none changed.
    let second = index_json(&t, &[]);
    assert_eq!(second["files"]["rechunked"], 3, "{second}");
    assert_eq!(second["embeddings"]["pending"], 0, "{second}");
    let clean = index_json(&t, &["--index", "clean_up"]);
    assert_eq!(clean["files"]["added"], 3, "{clean}");
    let after = chunk_snapshot(&t, &name);
    assert_eq!(after, unknown_context, "the model's context never changes the chunks");
    assert_eq!(after, chunk_snapshot(&t, "clean_up"), "identical to an index made with the embedder up");
    assert_eq!(t.db_store().reader(&name).expect("reader").count_pending().expect("pending"), 0);

    // Nothing to do now, and with the embedder down a changed file is cut as with it up.
    let quiet = index_json(&t, &[]);
    assert_eq!((quiet["files"]["unchanged"].as_u64(), quiet["files"]["rechunked"].as_u64()), (Some(3), Some(0)));
    let stage1 = t.path().join("stages/stage1.py");
    let edited = std::fs::read_to_string(&stage1).expect("read").replace("count them", "count the kept ones");
    std::fs::write(&stage1, edited).expect("edit");
    let down = index_down(&[]);
    assert_eq!((down["files"]["modified"].as_u64(), down["files"]["rechunked"].as_u64()), (Some(1), Some(0)));
    index_json(&t, &["--index", "clean_up"]);
    assert_eq!(chunk_snapshot(&t, &name), chunk_snapshot(&t, "clean_up"));

    // A new indexing.chunkSize cuts every file again, as a clean index with it would.
    let smaller = index_json(&t, &["--set", "indexing.chunkSize=400"]);
    assert_eq!(smaller["files"]["rechunked"], 3, "{smaller}");
    index_json(&t, &["--index", "clean_400", "--set", "indexing.chunkSize=400"]);
    assert_eq!(chunk_snapshot(&t, &name), chunk_snapshot(&t, "clean_400"));
});

cstest!(keyword_results_are_the_same_with_an_embedder_or_none, |t| {
    chunky_project(&t);
    // A budget above what MiniLM embeds whole: the model's context must not lower it.
    let budget = ["--set", "indexing.chunkSize=1000"];
    let index = |name: &str, provider: Option<&str>| {
        let mut cmd = t.cmd_db();
        if let Some(p) = provider {
            cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", p);
        }
        let mut args = vec!["index", "--json", "--index", name];
        args.extend_from_slice(&budget);
        let out = run(cmd, &args);
        assert_eq!(out.code, 0, "{out:?}");
        out.json()
    };
    let with_model = index("with_model", None);
    assert_eq!(
        (with_model["files"]["added"].as_u64(), with_model["embeddings"]["pending"].as_u64()),
        (Some(3), Some(0))
    );
    let without = index("without_model", Some("none"));
    assert_eq!(without["files"]["added"], 3, "{without}");
    assert_eq!(chunk_snapshot(&t, "with_model"), chunk_snapshot(&t, "without_model"));
    // The test means something only if MiniLM's context would have cut these files otherwise.
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    let out = run(cmd, &["index", "-q", "--index", "at_648", "--set", "indexing.chunkSize=648"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_ne!(chunk_snapshot(&t, "with_model"), chunk_snapshot(&t, "at_648"));

    // The whole answer but the index's name: paths, lines, scores, symbols and text.
    let keyword_hits = |name: &str| {
        let out =
            run(t.cmd_db(), &["search", "--json", "--keyword", "--no-smart", "--index", name, "records limit stage"]);
        assert_eq!(out.code, 0, "{out:?}");
        let mut results = out.json()["results"].clone();
        for r in results.as_array_mut().expect("results") {
            r.as_object_mut().expect("result").remove("index");
        }
        results
    };
    let hits = keyword_hits("with_model");
    assert_eq!(hits.as_array().map(Vec::len), Some(3), "{hits}");
    assert_eq!(hits, keyword_hits("without_model"));
});
