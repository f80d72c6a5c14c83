//! Code graph benchmark (not a test): prints what the graph costs at indexing time and how
//! fast its questions are answered, on the Python standard library (code nobody here wrote).
//!
//!   cargo bench --bench graph
//!
//! 1. Extraction overhead: every stdlib file chunked in-process with the graph's facts
//!    extracted and without ([`GraphFacts`]), best of three rounds each, next to the wall time
//!    of a whole keyword-only `cocosearch index` of the stdlib (release binary, PostgreSQL).
//! 2. Query latency on that index, in-process through the [`Graph`] engine (no process start):
//!    `refs`, `deps`, one-level `impact` of a file and of a symbol, and the transitive `impact`
//!    of `os.py`; median and p95 of 20 runs after one warm-up.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cocosearch::chunk::{ChunkOptions, Chunker, GraphFacts, Language};
use cocosearch::graph::{Graph, Scope};
use common::*;

/// The stdlib's files (no site-packages, no caches) with their text and language.
fn sources(stdlib: &Path) -> Vec<(Language, String)> {
    let mut out = Vec::new();
    let mut stack = vec![stdlib.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let path: PathBuf = entry.path();
            let name = entry.file_name();
            if name == "__pycache__" || name == "site-packages" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path)
                && let Some(language) = Language::detect(&path, &text)
            {
                out.push((language, text));
            }
        }
    }
    out
}

/// The best of three rounds chunking every source with `graph`.
fn chunk_all(files: &[(Language, String)], graph: GraphFacts) -> Duration {
    let options = ChunkOptions { graph, ..ChunkOptions::default() };
    let mut chunker = Chunker::new();
    (0..3)
        .map(|_| {
            let started = Instant::now();
            for (language, text) in files {
                std::hint::black_box(chunker.chunk(Some(*language), text, &options));
            }
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Median and p95 in milliseconds of 20 runs of `f`, after one warm-up run.
fn latency(label: &str, mut f: impl FnMut() -> usize) {
    let found = f();
    let mut samples: Vec<f64> = (0..20)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(f());
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    let median = percentile(&mut samples, 50.0);
    let p95 = percentile(&mut samples, 95.0);
    println!("    {label:<44} {found:>5} results   median {median:7.1} ms   p95 {p95:7.1} ms");
}

fn main() {
    rusage_helper();
    let services = services();
    let stdlib = stdlib();
    println!(
        "cocosearch graph benchmark — release build, {} cores (shared: other work may be running)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // 1. Extraction overhead.
    let files = sources(&stdlib);
    let without = chunk_all(&files, GraphFacts::Skip);
    let with = chunk_all(&files, GraphFacts::Extract);
    let extra = with.saturating_sub(without).as_secs_f64();
    let db = database(&services.admin_url, "bench_graph", Start::Fresh);
    let mut index = cocosearch(&stdlib, &Target::Postgres { url: db.clone() }, &services.ollama_url);
    index.arg("index").arg(&stdlib).args(["--json", "--no-embed", "-e", "site-packages", "--name", "stdlib"]);
    let m = measure(&mut index);
    assert_eq!(m.code, 0, "cocosearch index failed:\n{}", m.stderr);
    let wall = m.wall.as_secs_f64();
    println!("\n[1] Graph extraction, Python stdlib ({}), {} files", stdlib.display(), files.len());
    println!(
        "    chunking in-process: {:.2} s without the graph, {:.2} s with it (+{:.2} s, +{:.0} %)",
        without.as_secs_f64(),
        with.as_secs_f64(),
        extra,
        100.0 * extra / without.as_secs_f64().max(1e-9)
    );
    println!(
        "    keyword-only `cocosearch index` of the stdlib (graph included): {wall:.2} s; extraction is {:.0} % of it, \
         so indexing without it would take {:.2} s: the graph's extraction adds {:.0} %",
        100.0 * extra / wall,
        wall - extra,
        100.0 * extra / (wall - extra).max(1e-9)
    );

    // 2. Query latency.
    let store = Target::Postgres { url: db.clone() }.store(4);
    let graph = Graph::open(store.as_ref(), "stdlib", &stdlib).expect("open the index");
    let all = Scope::default();
    println!("\n[2] Graph questions on the stdlib index, in-process");
    latency("refs urlsplit", || graph.references("urlsplit", &all, 50).expect("refs").references.len());
    latency("refs Logger.info", || graph.references("Logger.info", &all, 50).expect("refs").references.len());
    latency("deps asyncio/base_events.py", || {
        graph.file_dependencies("asyncio/base_events.py", 1, &all, 50).expect("deps").edges.len()
    });
    latency("impact os.py --depth 1", || {
        graph.file_dependents("os.py", Some(1), &all, 50).expect("impact").files.len()
    });
    latency("impact urlsplit (symbol, one level)", || {
        graph.symbol_impact("urlsplit", 1, 50, 50).expect("impact").direct.len()
    });
    latency("impact os.py (transitive, every level)", || {
        graph.file_dependents("os.py", None, &all, 10_000).expect("impact").files.len()
    });
}
