//! Snapshots benchmark (not a test): what keeping several states of a real repository costs,
//! with the release binary on the embedded store and the test MiniLM server.
//!
//!   cargo bench --bench snapshots                # pytest, fetched as a git mirror
//!   COCOSEARCH_BENCH_REPO=/path/to/repo.git cargo bench --bench snapshots
//!
//! The repository is a clone of a public one nobody here wrote (pytest by default: the
//! `fetch` mirror under /work/.mirror, or COCOSEARCH_BENCH_REPO), cloned into
//! `target/bench-stores/snapshots/`.
//!
//! 1. Ten consecutive release tags, each checked out and indexed as `--snapshot TAG` into one
//!    store, against ten separate indexes (a fresh store each): total time, and the store's
//!    size against one tag's index (target ≤ 1.5×).
//! 2. Two branches differing in 50 files: after both are indexed, the switch back and its
//!    index run (target ≤ 1 s), with what that run parsed and embedded.
//! 3. Searching an older snapshot (`--at`) against the current one: 12 queries × 3, p50/p95
//!    of the whole command (target: p95 within 1.2×).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::*;

/// Ten consecutive releases of pytest.
const TAGS: [&str; 10] = ["8.2.0", "8.2.1", "8.2.2", "8.3.0", "8.3.1", "8.3.2", "8.3.3", "8.3.4", "8.3.5", "8.4.0"];

const QUERIES: [&str; 12] = [
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
];

fn main() {
    rusage_helper();
    banner("snapshots");
    let services = services();
    let base = root().join("target/bench-stores/snapshots");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("bench dir");
    let mirror = std::env::var("COCOSEARCH_BENCH_REPO")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("/work/.mirror/pytest-dev+pytest/repo"));
    assert!(
        mirror.exists(),
        "no repository at {} — fetch pytest-dev/pytest or set COCOSEARCH_BENCH_REPO",
        mirror.display()
    );
    let repo = base.join("pytest");
    git(&base, &["clone", "-q", &mirror.display().to_string(), &repo.display().to_string()]);

    let shared = Target::sqlite("snapshots/shared", Start::Fresh);
    let run = |cwd: &Path, target: &Target, args: &[&str]| {
        let mut cmd = cocosearch(cwd, target, &services.ollama_url);
        cmd.env("COCOSEARCH_INDEXING_KEEP_SNAPSHOTS", "20").args(args);
        let started = Instant::now();
        let m = measure(&mut cmd);
        (started.elapsed().as_secs_f64(), m)
    };

    // 1. Ten tags as snapshots, and as ten separate indexes.
    let (mut shared_secs, mut separate_secs, mut separate_bytes, mut last_single) = (0.0, 0.0, 0u64, 0u64);
    println!(
        "{:<8} {:>10} {:>9} {:>9} {:>12} {:>12}",
        "tag", "snapshot s", "parsed", "reused", "separate s", "separate MB"
    );
    for tag in TAGS {
        git(&repo, &["checkout", "-q", "--detach", tag]);
        let (secs, m) = run(&repo, &shared, &["index", "--json", "--snapshot", tag]);
        let s = summary(&m);
        shared_secs += secs;
        let files = &s["files"];
        let parsed = files["added"].as_u64().unwrap_or(0) + files["modified"].as_u64().unwrap_or(0);
        let single = Target::sqlite(&format!("snapshots/separate-{tag}"), Start::Fresh);
        let (secs, m) = run(&repo, &single, &["index", "--json"]);
        summary(&m);
        separate_secs += secs;
        let bytes = dir_bytes(&target_dir(&single));
        separate_bytes += bytes;
        last_single = bytes;
        println!(
            "{tag:<8} {:>10.2} {parsed:>9} {:>9} {secs:>12.2} {:>12.1}",
            shared_secs,
            files["reused"].as_u64().unwrap_or(0),
            bytes as f64 / 1e6
        );
    }
    let shared_bytes = dir_bytes(&target_dir(&shared));
    println!(
        "ten tags: snapshots {shared_secs:.1} s, {:.1} MB ({:.2}× one tag's index of {:.1} MB) · separate indexes {separate_secs:.1} s, {:.1} MB",
        shared_bytes as f64 / 1e6,
        shared_bytes as f64 / last_single.max(1) as f64,
        last_single as f64 / 1e6,
        separate_bytes as f64 / 1e6
    );

    // 2. Two branches differing in 50 files.
    git(&repo, &["checkout", "-q", "-B", "bench-a", TAGS[TAGS.len() - 1]]);
    let (_, m) = run(&repo, &shared, &["index", "--json"]);
    summary(&m);
    git(&repo, &["checkout", "-q", "-B", "bench-b"]);
    let changed = change_files(&repo, 50);
    git(&repo, &["-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-qam", "fifty files"]);
    let (secs_b, m) = run(&repo, &shared, &["index", "--json"]);
    let to_b = summary(&m);
    git(&repo, &["checkout", "-q", "bench-a"]);
    let (secs_a, m) = run(&repo, &shared, &["index", "--json"]);
    let back = summary(&m);
    println!(
        "branch switch ({changed} files differ): to bench-b {secs_b:.2} s ({} modified, {} chunks written) · back to bench-a {secs_a:.2} s ({} reused, {} chunks written, {} vectors computed)",
        to_b["files"]["modified"],
        to_b["chunks"]["written"],
        back["files"]["reused"],
        back["chunks"]["written"],
        back["embeddings"]["computed"]
    );
    git(&repo, &["checkout", "-q", "bench-b"]);
    let (secs_b2, m) = run(&repo, &shared, &["index", "--json"]);
    let again = summary(&m);
    println!(
        "and to bench-b again: {secs_b2:.2} s ({} reused, {} chunks written)",
        again["files"]["reused"], again["chunks"]["written"]
    );

    // 3. Searching an older snapshot against the current one.
    let (mut current, mut older) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        for q in QUERIES {
            let (secs, m) = run(&repo, &shared, &["search", "--json", q]);
            summary(&m);
            current.push(secs * 1000.0);
            let (secs, m) = run(&repo, &shared, &["search", "--json", "--at", TAGS[0], q]);
            summary(&m);
            older.push(secs * 1000.0);
        }
    }
    let (c50, c95, o50, o95) = (pct(&current, 50.0), pct(&current, 95.0), pct(&older, 50.0), pct(&older, 95.0));
    println!(
        "search: current p50 {c50:.0} ms p95 {c95:.0} ms · at {} p50 {o50:.0} ms p95 {o95:.0} ms ({:.2}× at p95)",
        TAGS[0],
        o95 / c95.max(1e-9)
    );
    emit_result(&serde_json::json!({
        "tags_snapshot_seconds": shared_secs, "tags_separate_seconds": separate_secs,
        "snapshot_store_bytes": shared_bytes, "one_tag_bytes": last_single, "separate_bytes": separate_bytes,
        "switch_back_seconds": secs_a, "search_p95_ratio": o95 / c95.max(1e-9),
    }));
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

fn target_dir(target: &Target) -> PathBuf {
    match target {
        Target::Sqlite { dir } => dir.clone(),
        Target::Postgres { .. } => unreachable!("this bench runs on the embedded store"),
    }
}

/// Bytes of the files under `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    walk(dir).iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum()
}
