//! Search across indexes benchmark (not a test): keyword latency of one search over ten
//! indexes against one index holding the same files.
//!
//!   cargo bench --bench indexes                    # both backends
//!   cargo bench --bench indexes -- --only sqlite   # one backend (sqlite or postgres)
//!
//! The search benchmark's large corpus (the standard library with its site-packages and the
//! crate sources of this machine) is indexed twice into one store, keywords only: whole, as
//! `whole`, and split into ten parts by a hash of each file's path, as `part0` … `part9`.
//! Both are reused while complete. Then the same questions in keyword mode, in rounds: p50 and
//! p95 on `whole` and on the ten searched together (target: the ten's p95 ≤ 2× the whole's),
//! and how many of the whole index's top 10 the ten return. One ranking across indexes plans
//! BM25 on the statistics of all of them together, so the two should agree.

mod common;
#[path = "search/queries.rs"]
mod queries;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use cocosearch::search::{ContextOptions, FilterSpec, Fixed, Mode, QueryCache, SearchRequest, Searcher};
use cocosearch::store::{At, Store};
use common::*;
use queries::QUERIES;

/// How many indexes the corpus is split into.
const PARTS: usize = 10;
/// Rounds over the questions.
const ROUNDS: usize = 5;
/// The index of the whole corpus.
const WHOLE: &str = "whole";

fn main() {
    rusage_helper();
    let services = services();
    banner("indexes");
    let corpus = big_corpus();
    let parts = split_corpus(&corpus);
    let mut table = Table::new(
        "backend",
        &["chunks (whole / parts)", "whole p50 / p95", "ten indexes p50 / p95", "p95 ratio", "top 10 shared"],
    );
    for backend in backends() {
        let target = Target::on(backend, &services, "indexes", Start::Reuse);
        let store = target.store(4);
        ensure_index(&services, &target, store.as_ref(), WHOLE, &corpus);
        let names: Vec<String> = (0..PARTS).map(|i| format!("part{i}")).collect();
        for (name, dir) in names.iter().zip(&parts) {
            ensure_index(&services, &target, store.as_ref(), name, dir);
        }
        let part_chunks: Vec<u64> = names.iter().map(|n| indexed_chunks(store.as_ref(), n)).collect();
        let whole_chunks = indexed_chunks(store.as_ref(), WHOLE);
        println!(
            "{}: whole {whole_chunks} chunks; parts {} (sum {}); load averages {}",
            target.label(),
            part_chunks.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            part_chunks.iter().sum::<u64>(),
            load_averages()
        );
        let cache = QueryCache::new(16);
        let searcher =
            Searcher { store: store.as_ref(), embedders: &Fixed(None), cache: &cache, tuning: Default::default() };
        let whole = vec![WHOLE.to_string()];
        let (whole_ms, whole_top) = timed(&searcher, &whole);
        let (parts_ms, parts_top) = timed(&searcher, &names);
        let shared: usize = whole_top.iter().zip(&parts_top).map(|(a, b)| a.intersection(b).count()).sum();
        let listed: usize = whole_top.iter().map(HashSet::len).sum();
        table.row(
            target.label(),
            vec![
                format!("{whole_chunks} / {}", part_chunks.iter().sum::<u64>()),
                format!("{:.1} / {:.1} ms", pct(&whole_ms, 50.0), pct(&whole_ms, 95.0)),
                format!("{:.1} / {:.1} ms", pct(&parts_ms, 50.0), pct(&parts_ms, 95.0)),
                format!("{:.2}×", pct(&parts_ms, 95.0) / pct(&whole_ms, 95.0)),
                format!("{shared} of {listed}"),
            ],
        );
    }
    table.print(&format!(
        "Keyword search, {} questions × {ROUNDS} rounds, one index against {PARTS} (load averages now {})",
        QUERIES.len(),
        load_averages()
    ));
}

/// The corpus split into [`PARTS`] corpora of hard links, each file in the part a hash of its
/// path picks; built once, reused while the corpus has as many files.
fn split_corpus(corpus: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    list_files(corpus, corpus, &mut files);
    files.sort();
    let base = root().join("target/bench-corpora");
    let marker = base.join("indexes-parts.done");
    let recipe = format!("{} files of {}\n", files.len(), corpus.display());
    let parts: Vec<PathBuf> = (0..PARTS).map(|i| base.join(format!("indexes-part{i}"))).collect();
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(recipe.as_str()) {
        return parts;
    }
    for dir in &parts {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir.join(".git")).expect("create a part");
    }
    for relative in &files {
        let target = parts[part_of(relative)].join(relative);
        std::fs::create_dir_all(target.parent().expect("a file's directory")).expect("mkdir");
        if std::fs::hard_link(corpus.join(relative), &target).is_err() {
            std::fs::copy(corpus.join(relative), &target).expect("copy a corpus file");
        }
    }
    std::fs::write(&marker, recipe).expect("mark the parts complete");
    println!("split {} files of {} into {PARTS} parts", files.len(), corpus.display());
    parts
}

/// The part of a file: FNV-1a of its relative path.
fn part_of(relative: &Path) -> usize {
    let hash = relative
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    (hash % PARTS as u64) as usize
}

/// Every regular file under `dir` (but `.git`), relative to `base`.
fn list_files(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the corpus").flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && entry.file_name() != ".git" {
            list_files(base, &entry.path(), out);
        } else if kind.is_file() {
            out.push(entry.path().strip_prefix(base).expect("under the corpus").to_path_buf());
        }
    }
}

/// Indexes `dir` as `name` (keywords only) unless it already does.
fn ensure_index(services: &Services, target: &Target, store: &dyn Store, name: &str, dir: &Path) {
    if indexes(store, name, dir) && indexed_chunks(store, name) > 0 {
        return;
    }
    println!("indexing {} as {name} on {} (keywords only)…", dir.display(), target.label());
    let m = measure(cocosearch(dir, target, &services.ollama_url).args([
        "index",
        "--name",
        name,
        "--no-embed",
        "--fresh",
        "--json",
    ]));
    let s = summary(&m);
    println!("  {} files in {:.0} s", s["files"]["added"], m.wall.as_secs_f64());
}

/// Keyword search of every question over `indexes`, in rounds after one warm-up: each
/// search's milliseconds, and each question's top 10 as (path, first line).
fn timed(searcher: &Searcher<'_>, indexes: &[String]) -> (Vec<f64>, Vec<HashSet<(String, u32)>>) {
    let request = |query: &str| SearchRequest {
        query: query.to_string(),
        indexes: indexes.to_vec(),
        limit: 10,
        min_score: 0.0,
        mode: Mode::Keyword,
        filter: FilterSpec::default(),
        context: ContextOptions { smart: true, before: 0, after: 0, max_lines: 50 },
        use_cache: true,
        definitions: 0,
        at: At::Current,
    };
    let tops = QUERIES
        .iter()
        .map(|q| {
            let response = searcher.search(&request(q)).expect("search");
            response.hits.iter().map(|h| (h.path.clone(), h.start_line)).collect()
        })
        .collect();
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        for q in QUERIES {
            let started = Instant::now();
            searcher.search(&request(q)).expect("search");
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    (times, tops)
}
