//! Indexing benchmark (not a test): prints throughput and memory on real code nobody here wrote,
//! on the embedded store and on PostgreSQL side by side.
//!
//!   cargo bench --bench index                   # everything, both backends
//!   cargo bench --bench index -- --quick        # skip the embedding-throughput run (minutes)
//!   cargo bench --bench index -- --only sqlite  # one backend (sqlite or postgres)
//!
//! 1. The whole Python standard library (without site-packages), embedder off, on each backend
//!    from an empty store, twice (alternating, the faster counts: the machine is shared):
//!    files/s and chunks/s for parse + chunk + store, CPU time, peak memory, and a re-index
//!    with nothing changed.
//! 2. Six stdlib packages (asyncio, email, http, json, logging, unittest) with real MiniLM
//!    embeddings from a private server without cache, on the embedded store: chunks/s.
//! 3. The same six packages on each backend: re-index with nothing changed, and after a
//!    one-file edit (each edit indexed by both backends in turn).

mod common;

use std::path::Path;

use cocosearch::store::Backend;
use common::*;

/// Fresh whole-stdlib runs per backend.
const ROUNDS: usize = 2;
/// Re-index runs with nothing changed.
const NO_CHANGE_RUNS: usize = 7;
/// One-file edits.
const EDITS: usize = 5;
/// The packages of the incremental corpus.
const SIX: &[&str] = &["asyncio", "email", "http", "json", "logging", "unittest"];

/// What one backend did on the whole standard library.
#[derive(Default)]
struct Whole {
    files: f64,
    chunks: f64,
    walls: Vec<f64>,
    cpu: f64,
    peak_rss_mb: f64,
    no_change: Vec<f64>,
}

impl Whole {
    fn best(&self) -> f64 {
        self.walls.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// What one backend did on the six packages, incrementally.
#[derive(Default)]
struct Incremental {
    no_change_ms: Vec<f64>,
    /// Per edit: wall ms, embedding ms, chunks embedded.
    edits: Vec<(f64, f64, u64)>,
}

fn main() {
    rusage_helper();
    let quick = std::env::args().any(|a| a == "--quick");
    let services = services();
    let stdlib = stdlib();
    let backends = backends();
    banner("indexing");

    // 1. Whole standard library, keyword-only.
    let mut whole: Vec<Whole> = backends.iter().map(|_| Whole::default()).collect();
    let index_stdlib = |target: &Target| {
        let mut cmd = cocosearch(&stdlib, target, &services.ollama_url);
        // The path is explicit: without it the project root is the enclosing git repository
        // (pyenv's own checkout, which ignores its `versions/`).
        cmd.arg("index").arg(&stdlib).args(["--json", "--no-embed", "-e", "site-packages", "--name", "stdlib"]);
        cmd
    };
    for round in 0..ROUNDS {
        for (backend, w) in backends.iter().zip(&mut whole) {
            let target = Target::on(*backend, &services, "index", Start::Fresh);
            let m = measure(&mut index_stdlib(&target));
            let s = summary(&m);
            w.files = s["files"]["added"].as_f64().unwrap_or(0.0);
            w.chunks = s["chunks"]["written"].as_f64().unwrap_or(0.0);
            w.walls.push(m.wall.as_secs_f64());
            w.peak_rss_mb = w.peak_rss_mb.max(m.peak_rss_mb);
            if m.wall.as_secs_f64() <= w.best() {
                w.cpu = m.cpu.as_secs_f64();
            }
            println!(
                "  round {} on {}: {:.2} s wall, {:.2} s CPU (cocosearch only), load {}",
                round + 1,
                target.label(),
                m.wall.as_secs_f64(),
                m.cpu.as_secs_f64(),
                load_averages()
            );
            if round + 1 == ROUNDS {
                for _ in 0..3 {
                    let m = measure(&mut index_stdlib(&target));
                    assert_eq!(summary(&m)["files"]["added"], 0, "nothing changed");
                    w.no_change.push(m.wall.as_secs_f64());
                }
            }
        }
    }
    println!("\n[1] Python stdlib without site-packages ({}), embedder off", stdlib.display());
    for (backend, w) in backends.iter().zip(&whole) {
        let secs = w.best();
        println!(
            "    {backend}: {:.0} files, {:.0} chunks in {secs:.2} s (best of {ROUNDS}: {}): {:.0} files/s, {:.0} chunks/s; \
             CPU {:.1} s ({:.1} ms per file); peak RSS {:.0} MB; re-index, nothing changed: {:.3} s (median of 3)",
            w.files,
            w.chunks,
            w.walls.iter().map(|s| format!("{s:.2} s")).collect::<Vec<_>>().join(", "),
            w.files / secs,
            w.chunks / secs,
            w.cpu,
            w.cpu * 1000.0 / w.files.max(1.0),
            w.peak_rss_mb,
            pct(&w.no_change, 50.0),
        );
    }

    // The six-package corpus, copied (not linked) because step 3 edits it.
    let work = tempfile::tempdir().expect("tempdir");
    let corpus = work.path().join("six");
    for package in SIX {
        copy_tree(&stdlib.join(package), &corpus.join(package));
    }
    std::fs::create_dir(corpus.join(".git")).expect("mark the corpus as a project");

    // 2. Embedding throughput, private server without cache, on the embedded store (or the
    // one backend asked for).
    let embed_backend = if backends.contains(&Backend::Sqlite) { Backend::Sqlite } else { backends[0] };
    let six_targets: Vec<Target> =
        backends.iter().map(|b| Target::on(*b, &services, "index-six", Start::Fresh)).collect();
    let embed_target = &six_targets[backends.iter().position(|b| *b == embed_backend).unwrap_or(0)];
    let private = (!quick).then(private_minilm);
    let private_url = private.as_ref().map_or(services.ollama_url.clone(), |p| p.url.clone());
    let m = measure(cocosearch(&corpus, embed_target, &private_url).args(["index", "--json"]));
    drop(private);
    let s = summary(&m);
    let six_files = s["files"]["added"].as_u64().unwrap_or(0);
    let six_chunks = s["chunks"]["written"].as_f64().unwrap_or(0.0);
    let embedded = s["embeddings"]["computed"].as_f64().unwrap_or(0.0);
    let embed_secs = s["embeddings"]["elapsed_ms"].as_f64().unwrap_or(0.0) / 1000.0;
    let embed_rate = embedded / embed_secs.max(1e-9);
    let embed_rss = m.peak_rss_mb;
    println!(
        "\n[2] Six packages ({six_files} files), real MiniLM embeddings{}, on {embed_backend}",
        if quick { " (shared cached server: --quick)" } else { ", private server, no cache" }
    );
    println!(
        "    {six_chunks:.0} chunks, {embedded:.0} vectors in {:.1} s; embedder busy {embed_secs:.1} s",
        m.wall.as_secs_f64()
    );
    println!("    embedding {embed_rate:.1} chunks/s, peak RSS {embed_rss:.0} MB");

    // The other backends get the same index from the shared server (its cache makes this a
    // copy of vectors, not a measurement).
    for target in six_targets.iter().filter(|t| t.backend() != embed_backend) {
        let m = measure(cocosearch(&corpus, target, &services.ollama_url).args(["index", "--json"]));
        summary(&m);
        println!("    (the same index on {} from the shared server: {:.1} s)", target.label(), m.wall.as_secs_f64());
    }

    // 3. Incremental runs on the six packages (shared server; nothing or little to embed).
    let mut incremental: Vec<Incremental> = backends.iter().map(|_| Incremental::default()).collect();
    let run = |target: &Target| measure(cocosearch(&corpus, target, &services.ollama_url).args(["index", "--json"]));
    for _ in 0..NO_CHANGE_RUNS {
        for (target, inc) in six_targets.iter().zip(&mut incremental) {
            let m = run(target);
            let s = summary(&m);
            assert_eq!(s["embeddings"]["requests"], 0, "a no-change run must not embed");
            inc.no_change_ms.push(m.wall.as_secs_f64() * 1000.0);
        }
    }
    let target_file = corpus.join("json/decoder.py");
    for i in 0..EDITS {
        edit(&target_file, i);
        for (target, inc) in six_targets.iter().zip(&mut incremental) {
            let m = run(target);
            let s = summary(&m);
            let embed_ms = s["embeddings"]["elapsed_ms"].as_f64().unwrap_or(0.0);
            inc.edits.push((
                m.wall.as_secs_f64() * 1000.0,
                embed_ms,
                s["embeddings"]["computed"].as_u64().unwrap_or(0),
            ));
        }
    }
    println!("\n[3] Six packages, incremental");
    for (backend, inc) in backends.iter().zip(&incremental) {
        let walls: Vec<f64> = inc.edits.iter().map(|e| e.0).collect();
        let without: Vec<f64> = inc.edits.iter().map(|(w, e, _)| w - e).collect();
        println!(
            "    {backend}: re-index, nothing changed: median {:.0} ms, max {:.0} ms over {NO_CHANGE_RUNS} runs (0 embedding requests); \
             one-file edit: median {:.0} ms wall, {:.0} ms without embedding (chunks embedded per run: {:?})",
            pct(&inc.no_change_ms, 50.0),
            pct(&inc.no_change_ms, 100.0),
            pct(&walls, 50.0),
            pct(&without, 50.0),
            inc.edits.iter().map(|e| e.2).collect::<Vec<_>>()
        );
    }

    let mut table = Table::new(
        "backend",
        &[
            "stdlib files",
            "chunks",
            "wall",
            "files/s",
            "chunks/s",
            "CPU",
            "peak RSS",
            "re-index, no change",
            "6 pkgs, no change",
            "one-file edit (w/o embedding)",
        ],
    );
    for ((backend, w), inc) in backends.iter().zip(&whole).zip(&incremental) {
        let secs = w.best();
        let walls: Vec<f64> = inc.edits.iter().map(|e| e.0).collect();
        let without: Vec<f64> = inc.edits.iter().map(|(w, e, _)| w - e).collect();
        table.row(
            backend.as_str(),
            vec![
                format!("{:.0}", w.files),
                format!("{:.0}", w.chunks),
                format!("{secs:.1} s"),
                format!("{:.0}", w.files / secs),
                format!("{:.0}", w.chunks / secs),
                format!("{:.1} s", w.cpu),
                format!("{:.0} MB", w.peak_rss_mb),
                format!("{:.2} s", pct(&w.no_change, 50.0)),
                format!("{:.0} ms", pct(&inc.no_change_ms, 50.0)),
                format!("{:.0} ms ({:.0} ms)", pct(&walls, 50.0), pct(&without, 50.0)),
            ],
        );
    }
    table.print(&format!(
        "Side by side (load averages now {}); embedding on {embed_backend}: {embed_rate:.1} chunks/s, {embed_rss:.0} MB",
        load_averages()
    ));
}

/// The `i`-th edit of `file`: a new helper function before `py_scanstring`.
fn edit(file: &Path, i: usize) {
    let text = std::fs::read_to_string(file).expect("read");
    let edited = text.replacen(
        "def py_scanstring(",
        &format!("def _bench_helper_{i}():\n    return {i}\n\n\ndef py_scanstring("),
        1,
    );
    std::fs::write(file, edited).expect("edit");
}
