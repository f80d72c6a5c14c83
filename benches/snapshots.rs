//! Snapshots benchmark (not a test): what keeping several states of a real repository costs,
//! with the release binary and the test MiniLM server, on each backend.
//!
//!   cargo bench --bench snapshots                      # pytest, both backends
//!   cargo bench --bench snapshots -- --repo requests   # psf/requests
//!   cargo bench --bench snapshots -- --only sqlite     # one backend
//!
//! The repository is a clone of a public one nobody here wrote (the `fetch` mirror under
//! /work/.mirror, or COCOSEARCH_BENCH_REPO), cloned into `target/bench-stores/snapshots/`.
//!
//! 1. Ten consecutive release tags, each checked out and indexed as `--snapshot TAG` into one
//!    index: the index's size against an index of the last tag alone (target ≤ 2.0×), and the
//!    vectors computed against the distinct chunk texts stored.
//! 2. Two branches differing in 50 files: after both are indexed, the switch back and its
//!    index run (target ≤ 1 s), with what that run parsed and embedded.
//! 3. Searching an older snapshot (`--at`) against the current one: 12 queries × 3, p50/p95
//!    of the whole command (target: p95 within 1.2×).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cocosearch::store::Backend;
use common::*;

/// A repository's ten consecutive releases and questions about it.
struct History {
    name: &'static str,
    mirror: &'static str,
    tags: [&'static str; 10],
    queries: [&'static str; 12],
}

const PYTEST: History = History {
    name: "pytest",
    mirror: "/work/.mirror/pytest-dev+pytest/repo",
    tags: ["8.2.0", "8.2.1", "8.2.2", "8.3.0", "8.3.1", "8.3.2", "8.3.3", "8.3.4", "8.3.5", "8.4.0"],
    queries: [
        "how are fixtures finalized",
        "parametrize ids",
        "capture stdout during tests",
        "assertion rewriting import hook",
        "skip marker evaluation",
        "tmp_path factory",
        "collect python modules",
        "junit xml report",
        "warnings recorder",
        "monkeypatch setattr",
        "doctest module collection",
        "cache provider lastfailed",
    ],
};

const REQUESTS: History = History {
    name: "requests",
    mirror: "/work/.mirror/psf+requests/repo",
    tags: [
        "v2.29.0", "v2.30.0", "v2.31.0", "v2.32.0", "v2.32.1", "v2.32.2", "v2.32.3", "v2.32.4", "v2.32.5", "v2.33.0",
    ],
    queries: [
        "retry failed connections",
        "merge session settings with request settings",
        "proxy authentication header",
        "redirect strips authorization",
        "encode multipart form data",
        "guess json encoding",
        "chunked transfer encoding",
        "certificate verification bundle",
        "cookie jar from dict",
        "timeout tuple connect read",
        "prepare url with params",
        "response iter content decode",
    ],
};

fn main() {
    rusage_helper();
    banner("snapshots");
    let services = services();
    let history = match arg_value("--repo").as_deref() {
        None | Some("pytest") => PYTEST,
        Some("requests") => REQUESTS,
        Some(other) => panic!("--repo takes pytest or requests, not {other:?}"),
    };
    let base = root().join("target/bench-stores/snapshots");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("bench dir");
    let mirror =
        std::env::var("COCOSEARCH_BENCH_REPO").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(history.mirror));
    assert!(mirror.exists(), "no repository at {} — fetch it or set COCOSEARCH_BENCH_REPO", mirror.display());
    let repo = base.join(history.name);
    git(&base, &["clone", "-q", &mirror.display().to_string(), &repo.display().to_string()]);
    let mut results = serde_json::Map::new();
    for backend in backends() {
        println!("\n== {} on {backend:?} ==", history.name);
        let figures = measure_history(&history, backend, &services, &repo);
        results.insert(format!("{backend:?}").to_lowercase(), figures);
    }
    emit_result(&serde_json::Value::Object(results));
}

/// Runs the three measures on one backend; returns their figures.
fn measure_history(history: &History, backend: Backend, services: &Services, repo: &Path) -> serde_json::Value {
    let target = |name: &str| Target::on(backend, services, &format!("snap-{}-{name}", history.name), Start::Fresh);
    let shared = target("shared");
    let run = |target: &Target, args: &[&str]| {
        let mut cmd = cocosearch(repo, target, &services.ollama_url);
        cmd.env("COCOSEARCH_INDEXING_KEEP_SNAPSHOTS", "20").args(args);
        let started = Instant::now();
        let m = measure(&mut cmd);
        (started.elapsed().as_secs_f64(), m)
    };
    let stats = |target: &Target| summary(&run(target, &["stats", "--json"]).1);

    // 1. Ten tags as snapshots of one index, against the last tag alone.
    let (mut shared_secs, mut computed) = (0.0, 0);
    println!("{:<8} {:>10} {:>9} {:>9} {:>9}", "tag", "seconds", "parsed", "reused", "computed");
    for tag in history.tags {
        git(repo, &["checkout", "-q", "--detach", tag]);
        let (secs, m) = run(&shared, &["index", "--json", "--snapshot", tag]);
        let s = summary(&m);
        shared_secs += secs;
        let files = &s["files"];
        let parsed = files["added"].as_u64().unwrap_or(0) + files["modified"].as_u64().unwrap_or(0);
        let vectors = s["embeddings"]["computed"].as_u64().unwrap_or(0);
        computed += vectors;
        println!("{tag:<8} {secs:>10.2} {parsed:>9} {:>9} {vectors:>9}", files["reused"].as_u64().unwrap_or(0));
    }
    let single = target("single");
    let (single_secs, m) = run(&single, &["index", "--json"]);
    summary(&m);
    let (ten, one) = (stats(&shared), stats(&single));
    let bytes = |s: &serde_json::Value| s["storage_bytes"].as_u64().unwrap_or(0) as f64;
    let ratio = bytes(&ten) / bytes(&one).max(1.0);
    println!(
        "ten tags as snapshots: {shared_secs:.1} s, {:.1} MB of index against {:.1} MB for the last tag alone ({single_secs:.1} s): {ratio:.2}× (target ≤ 2.0×)",
        bytes(&ten) / 1e6,
        bytes(&one) / 1e6,
    );
    if let (Target::Sqlite { dir: ten_dir }, Target::Sqlite { dir: one_dir }) = (&shared, &single) {
        let (ten_file, one_file) = (dir_bytes(ten_dir) as f64, dir_bytes(one_dir) as f64);
        println!(
            "  store files: {:.1} MB against {:.1} MB: {:.2}×",
            ten_file / 1e6,
            one_file / 1e6,
            ten_file / one_file.max(1.0)
        );
    }
    println!(
        "  chunk texts stored: {} (the last tag alone: {}) · vectors computed over the ten runs: {computed}",
        ten["stored_texts"], one["stored_texts"]
    );

    // 2. Two branches differing in 50 files.
    let last = history.tags[history.tags.len() - 1];
    git(repo, &["checkout", "-q", "-B", "bench-a", last]);
    summary(&run(&shared, &["index", "--json"]).1);
    git(repo, &["checkout", "-q", "-B", "bench-b"]);
    let changed = change_files(repo, 50);
    git(repo, &["-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-qam", "fifty files"]);
    let (secs_b, m) = run(&shared, &["index", "--json"]);
    let to_b = summary(&m);
    git(repo, &["checkout", "-q", "bench-a"]);
    let (secs_a, m) = run(&shared, &["index", "--json"]);
    let back = summary(&m);
    println!(
        "branch switch ({changed} files differ): to bench-b {secs_b:.2} s ({} modified, {} chunks written) · back to bench-a {secs_a:.2} s ({} reused, {} chunks written, {} vectors computed)",
        to_b["files"]["modified"],
        to_b["chunks"]["written"],
        back["files"]["reused"],
        back["chunks"]["written"],
        back["embeddings"]["computed"]
    );

    // 3. Searching an older snapshot against the current one.
    let (mut current, mut older) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        for q in history.queries {
            let (secs, m) = run(&shared, &["search", "--json", q]);
            summary(&m);
            current.push(secs * 1000.0);
            let (secs, m) = run(&shared, &["search", "--json", "--at", history.tags[0], q]);
            summary(&m);
            older.push(secs * 1000.0);
        }
    }
    let (c50, c95, o50, o95) = (pct(&current, 50.0), pct(&current, 95.0), pct(&older, 50.0), pct(&older, 95.0));
    println!(
        "search: current p50 {c50:.0} ms p95 {c95:.0} ms · at {} p50 {o50:.0} ms p95 {o95:.0} ms ({:.2}× at p95)",
        history.tags[0],
        o95 / c95.max(1e-9)
    );
    serde_json::json!({
        "tags_snapshot_seconds": shared_secs, "index_bytes": bytes(&ten), "one_tag_bytes": bytes(&one),
        "ratio": ratio, "stored_texts": ten["stored_texts"], "vectors_computed": computed,
        "switch_back_seconds": secs_a, "search_p95_ratio": o95 / c95.max(1e-9),
    })
}

fn git(cwd: &Path, args: &[&str]) {
    let out = Command::new("git").current_dir(cwd).args(args).output().expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Appends a function to the first `n` Python files of `src/` (sorted); returns how many.
fn change_files(repo: &Path, n: usize) -> usize {
    let mut files: Vec<PathBuf> =
        walk(&repo.join("src")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "py")).collect();
    files.sort();
    for (i, path) in files.iter().take(n).enumerate() {
        let mut text = std::fs::read_to_string(path).expect("read");
        text.push_str(&format!("\n\ndef bench_branch_change_{i}(value):\n    return value * {i}\n"));
        std::fs::write(path, text).expect("write");
    }
    files.len().min(n)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Bytes of the files under `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    walk(dir).iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum()
}
