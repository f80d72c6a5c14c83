//! Search latency benchmark (not a test), on the embedded store and on PostgreSQL side by side.
//!
//!   cargo bench --bench search                   # both backends
//!   cargo bench --bench search -- --only sqlite  # one backend (sqlite or postgres)
//!
//! 1. An index of at least 100,000 chunks of real code on each backend (see `big_index`).
//!    Each backend is measured in a process of its own (this binary again, with `--measure
//!    <backend>`), so `wait4` gives each its own peak memory: hybrid search p50/p95 without
//!    query embedding (vector cached in process), keyword-only and vector-only for where the
//!    time goes, pasted issues (long questions, `issues`) keyword-only and hybrid, end to end
//!    with every query embedded by a private MiniLM server, and the slowest queries. Then vector recall@10 of the backend's usual search (HNSW, inverted
//!    lists) against exact search over the same queries.
//! 2. A new `cocosearch search` process per query on a small index (a few thousand chunks of
//!    the standard library, shared with the MCP benchmark), on each backend: wall time with the
//!    query vector cached, and with one embedding.
//! 3. A new `cocosearch search --mode keyword` process per query on the large index: what a
//!    search costs on a large project, its freshness line included.

#[path = "search/big_index.rs"]
mod big_index;
#[path = "search/issues.rs"]
mod issues;
#[path = "search/queries.rs"]
mod queries;
mod common;

use std::time::Instant;

use big_index::{BIG_INDEX, Built, build_big_index};
use cocosearch::embed::Embedder;
use cocosearch::search::FilterSpec;
use cocosearch::search::{ContextOptions, Fixed, Mode, QueryCache, SearchRequest, Searcher};
use cocosearch::store::{Backend, SearchFilter, VectorAccuracy};
use common::*;
use issues::ISSUES;
use queries::QUERIES;
use serde_json::json;

/// Rounds over the queries with the vector cached.
const ROUNDS: usize = 5;

pub fn embedder(url: &str) -> std::sync::Arc<dyn Embedder> {
    minilm_server_embedder(url, 300)
}

fn main() {
    rusage_helper();
    if let Some(backend) = arg_value("--measure") {
        let minilm = arg_value("--minilm").expect("--measure needs --minilm URL");
        measure_search(parse_backend(&backend), &minilm);
        return;
    }
    let services = services();
    let backends = backends();
    banner("search");

    let corpus = big_corpus();
    let mut builds: Vec<(Target, Built)> = Vec::new();
    for backend in &backends {
        let target = Target::on(*backend, &services, "search", Start::Reuse);
        let built = build_big_index(&services, &target, &corpus);
        builds.push((target, built));
    }

    // 1. Each backend measured in a process of its own, one private MiniLM server for both.
    println!("\nload averages before measuring: {}", load_averages());
    let minilm = private_minilm();
    let mut results = Vec::new();
    for (target, _) in &builds {
        let mut cmd = std::process::Command::new(std::env::current_exe().expect("this bench binary"));
        cmd.args(["--measure", target.label(), "--minilm", &minilm.url]).envs(services_env(&services));
        let m = measure(&mut cmd);
        assert_eq!(m.code, 0, "the {} measurement failed:\n{}{}", target.label(), m.stdout, m.stderr);
        for line in m.stdout.lines().filter(|l| !l.starts_with("RESULT ")) {
            println!("{line}");
        }
        let result = child_result(&m.stdout);
        println!("    peak RSS of the whole measurement process (wait4): {:.0} MB", m.peak_rss_mb);
        results.push((result, m.peak_rss_mb));
    }
    drop(minilm);

    // Recall of the usual vector search against exact search, same queries.
    let e = embedder(&services.ollama_url);
    let vectors: Vec<Vec<f32>> = QUERIES.iter().map(|q| e.embed_query(q).expect("embed")).collect();
    let mut recalls = Vec::new();
    println!("\nvector recall@10, usual search against exact search ({} queries)", QUERIES.len());
    for (target, _) in &builds {
        let store = target.store(2);
        let reader = store.reader(BIG_INDEX).expect("reader");
        let (mut hits, mut exact_ms, mut usual_ms, mut score_ratio) = (0usize, Vec::new(), Vec::new(), 0.0);
        for v in &vectors {
            let search = |accuracy, times: &mut Vec<f64>| {
                let started = Instant::now();
                let found = reader.vector_search(v, &SearchFilter::default(), 10, accuracy).expect("vector search");
                times.push(started.elapsed().as_secs_f64() * 1000.0);
                found
            };
            let exact = search(VectorAccuracy::Exact, &mut exact_ms);
            let usual = search(VectorAccuracy::Usual, &mut usual_ms);
            let exact_ids: std::collections::HashSet<i64> = exact.iter().map(|s| s.id).collect();
            hits += usual.iter().filter(|s| exact_ids.contains(&s.id)).count();
            let sum = |found: &[cocosearch::store::Scored]| found.iter().map(|s| s.score).sum::<f64>();
            score_ratio += sum(&usual) / sum(&exact).max(1e-9);
        }
        let recall = hits as f64 / (10 * vectors.len()) as f64;
        println!(
            "    {}: recall@10 {recall:.3} (similarity of the 10 found / of the exact 10: {:.4}); vector search alone \
             (limit 10): usual p50 {:.1} ms, p95 {:.1} ms; exact p50 {:.1} ms",
            target.label(),
            score_ratio / vectors.len() as f64,
            pct(&usual_ms, 50.0),
            pct(&usual_ms, 95.0),
            pct(&exact_ms, 50.0)
        );
        recalls.push(recall);
    }

    // 2. CLI processes on the small index shared with the MCP benchmark, and on the large one.
    let mut cli = Vec::new();
    for backend in &backends {
        cli.push(cli_per_query(&services, *backend, e.as_ref()));
    }
    let large_cli: Vec<(f64, f64)> =
        builds.iter().map(|(target, _)| cli_on_the_large_index(&services, target, &corpus)).collect();

    let mut table = Table::new(
        "backend",
        &[
            "chunks",
            "keyword pass",
            "vectors organised",
            "hybrid p50 / p95",
            "keyword-only p50",
            "pasted issue, keyword p50 / p95",
            "vector-only p50",
            "end to end p50 / p95",
            "recall@10",
            "peak RSS (file-backed at the end)",
            "CLI cached p50 / p95",
            "CLI embedded p50 / p95",
            "CLI keyword, large index p50 / p95",
        ],
    );
    for (((((target, built), (r, rss)), recall), c), large) in
        builds.iter().zip(&results).zip(&recalls).zip(&cli).zip(&large_cli)
    {
        let f = |key: &str| r[key].as_f64().unwrap_or(f64::NAN);
        table.row(
            target.label(),
            vec![
                format!("{}", r["chunks"]),
                if built.keyword_pass_s > 0.0 {
                    format!("{:.0} s ({:.0} files/s)", built.keyword_pass_s, built.files as f64 / built.keyword_pass_s)
                } else {
                    "not recorded".to_string()
                },
                match (target.backend(), built.organise_s > 0.0) {
                    (_, false) => "not recorded".to_string(),
                    (Backend::Postgres, true) => format!("HNSW graph {:.0} s", built.organise_s),
                    (Backend::Sqlite, true) => format!("inverted lists {:.0} s", built.organise_s),
                },
                format!("{:.1} / {:.1} ms", f("p50"), f("p95")),
                format!("{:.1} ms", f("keyword_p50")),
                format!("{:.1} / {:.1} ms", f("issues_keyword_p50"), f("issues_keyword_p95")),
                format!("{:.1} ms", f("vector_p50")),
                format!("{:.1} / {:.1} ms", f("e2e_p50"), f("e2e_p95")),
                format!("{recall:.3}"),
                format!("{rss:.0} MB ({:.0} MB file-backed)", f("rss_file_mb")),
                format!("{:.0} / {:.0} ms", c.cached_p50, c.cached_p95),
                format!("{:.0} / {:.0} ms", c.embedded_p50, c.embedded_p95),
                format!("{:.0} / {:.0} ms", large.0, large.1),
            ],
        );
    }
    table.print(&format!(
        "Side by side (load averages now {}; one MiniLM query embedding alone: p50 {:.1} ms)",
        load_averages(),
        results.first().map_or(f64::NAN, |(r, _)| r["embed_p50"].as_f64().unwrap_or(f64::NAN))
    ));
}

/// The request for `query` on the large index.
fn request(query: &str, mode: Mode, use_cache: bool) -> SearchRequest {
    SearchRequest {
        query: query.to_string(),
        indexes: vec![BIG_INDEX.to_string()],
        limit: 10,
        min_score: 0.0,
        mode,
        filter: FilterSpec::default(),
        context: ContextOptions { smart: true, before: 0, after: 0, max_lines: 50 },
        use_cache,
        definitions: 0,
        at: cocosearch::store::At::Current,
    }
}

/// The measurement of one backend, in a process of its own: prints its figures and a RESULT
/// line for the parent.
fn measure_search(backend: Backend, minilm_url: &str) {
    let services = services();
    let target = Target::on(backend, &services, "search", Start::Reuse);
    let store = target.store(4);
    let chunks = store.reader(BIG_INDEX).expect("reader").index_counts().expect("counts").chunks;
    let e = embedder(&services.ollama_url);
    let cache = QueryCache::new(1024);
    let fixed = Fixed(Some(e.clone()));
    let searcher = Searcher { store: store.as_ref(), embedders: &fixed, cache: &cache, tuning: Default::default() };
    // Warm the in-process cache (and the store's), then measure without query embedding.
    for q in QUERIES.iter().chain(ISSUES) {
        searcher.search(&request(q, Mode::Auto, true)).expect("search");
    }
    let mut without = Vec::new();
    let mut per_query = vec![Vec::new(); QUERIES.len()];
    for _ in 0..ROUNDS {
        for (q, times) in QUERIES.iter().zip(&mut per_query) {
            let started = Instant::now();
            let r = searcher.search(&request(q, Mode::Auto, true)).expect("search");
            assert!(r.cached_embedding || r.mode == "keyword");
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            without.push(ms);
            times.push(ms);
        }
    }
    // Each of `queries` searched in `mode` for `rounds` rounds, vector cached: the times (ms).
    let timed = |queries: &[&str], mode: Mode, rounds: usize| {
        let mut times = Vec::new();
        for _ in 0..rounds {
            for q in queries {
                let started = Instant::now();
                searcher.search(&request(q, mode, true)).expect("search");
                times.push(started.elapsed().as_secs_f64() * 1000.0);
            }
        }
        times
    };
    // Where the time goes: each retriever alone (with result assembly).
    let keyword = timed(QUERIES, Mode::Keyword, 1);
    let vector = timed(QUERIES, Mode::Vector, 1);
    // The same searches asked for the five definitions most likely meant (`--definitions 5`).
    let mut with_definitions = Vec::new();
    for q in QUERIES {
        let request = SearchRequest { definitions: 5, ..request(q, Mode::Auto, true) };
        let started = Instant::now();
        searcher.search(&request).expect("search");
        with_definitions.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    // Pasted issues (long questions), keyword only and hybrid.
    let issues_keyword = timed(ISSUES, Mode::Keyword, ROUNDS);
    let issues_hybrid = timed(ISSUES, Mode::Auto, ROUNDS);
    let issue_chars = ISSUES.iter().map(|i| i.chars().count()).sum::<usize>() / ISSUES.len();
    // End to end: every query embedded by a MiniLM server without a cache, next to that
    // server's embedding alone.
    let fresh_embedder = embedder(minilm_url);
    let fresh_fixed = Fixed(Some(fresh_embedder.clone()));
    let fresh_searcher = Searcher { embedders: &fresh_fixed, ..searcher };
    let mut end_to_end = Vec::new();
    let mut embedding_alone = Vec::new();
    for q in QUERIES {
        let started = Instant::now();
        let r = fresh_searcher.search(&request(q, Mode::Auto, false)).expect("search");
        assert!(!r.cached_embedding && r.degraded.is_none(), "{:?}", r.warnings);
        end_to_end.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        fresh_embedder.embed_query(q).expect("embed");
        embedding_alone.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let mut slowest: Vec<(f64, &str)> =
        per_query.iter_mut().zip(QUERIES).map(|(times, q)| (percentile(times, 50.0), *q)).collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let slowest: Vec<String> = slowest.iter().take(4).map(|(ms, q)| format!("{q:?} {ms:.0} ms")).collect();
    let (hwm, anon, file) = own_memory();

    println!(
        "\n[1] {backend}: hybrid search on {chunks} chunks, {} queries, limit 10, smart context (load {})",
        QUERIES.len(),
        load_averages()
    );
    println!(
        "    without query embedding: p50 {:.1} ms, p95 {:.1} ms ({} searches)",
        pct(&without, 50.0),
        pct(&without, 95.0),
        without.len()
    );
    println!(
        "    each retriever alone, vector cached: keyword p50 {:.1} ms, p95 {:.1} ms; vector p50 {:.1} ms, p95 {:.1} ms",
        pct(&keyword, 50.0),
        pct(&keyword, 95.0),
        pct(&vector, 50.0),
        pct(&vector, 95.0)
    );
    println!(
        "    with the 5 definitions most likely meant (--definitions 5), vector cached: p50 {:.1} ms, p95 {:.1} ms",
        pct(&with_definitions, 50.0),
        pct(&with_definitions, 95.0)
    );
    println!(
        "    {} pasted issues ({issue_chars} characters on average), {ROUNDS} rounds: keyword p50 {:.1} ms, p95 {:.1} ms; \
         hybrid, vector cached: p50 {:.1} ms, p95 {:.1} ms",
        ISSUES.len(),
        pct(&issues_keyword, 50.0),
        pct(&issues_keyword, 95.0),
        pct(&issues_hybrid, 50.0),
        pct(&issues_hybrid, 95.0)
    );
    println!(
        "    end to end (query embedded by MiniLM, no cache): p50 {:.1} ms, p95 {:.1} ms; one embedding alone: p50 {:.1} ms, p95 {:.1} ms",
        pct(&end_to_end, 50.0),
        pct(&end_to_end, 95.0),
        pct(&embedding_alone, 50.0),
        pct(&embedding_alone, 95.0)
    );
    println!("    slowest queries (median, vector cached): {}", slowest.join(", "));
    println!(
        "    memory at the end: VmHWM {hwm:.0} MB; resident now {anon:.0} MB anonymous + {file:.0} MB file-backed"
    );
    emit_result(&json!({
        "chunks": chunks,
        "p50": pct(&without, 50.0),
        "p95": pct(&without, 95.0),
        "keyword_p50": pct(&keyword, 50.0),
        "vector_p50": pct(&vector, 50.0),
        "definitions_p50": pct(&with_definitions, 50.0),
        "issues_keyword_p50": pct(&issues_keyword, 50.0),
        "issues_keyword_p95": pct(&issues_keyword, 95.0),
        "e2e_p50": pct(&end_to_end, 50.0),
        "e2e_p95": pct(&end_to_end, 95.0),
        "embed_p50": pct(&embedding_alone, 50.0),
        "rss_anon_mb": anon,
        "rss_file_mb": file,
    }));
}

/// The figures of `cocosearch search` as a new process per query.
struct Cli {
    cached_p50: f64,
    cached_p95: f64,
    embedded_p50: f64,
    embedded_p95: f64,
}

/// `cocosearch search` as a new process per query on the small index of `backend`.
fn cli_per_query(services: &Services, backend: Backend, e: &dyn Embedder) -> Cli {
    let small = small_index(services, backend);
    let mut cached = Vec::new();
    let mut fresh = Vec::new();
    let mut embed_only = Vec::new();
    for (i, q) in QUERIES.iter().take(20).enumerate() {
        let run = |query: &str| {
            measure(cocosearch(&small.corpus, &small.target, &services.ollama_url).args([
                "search",
                "--index",
                SMALL_INDEX,
                "--json",
                query,
            ]))
        };
        let unique = format!("{q} ({backend} variant {i} {})", std::process::id());
        let started = Instant::now();
        e.embed_query(&unique).expect("embed");
        embed_only.push(started.elapsed().as_secs_f64() * 1000.0);
        let m = run(&format!("{unique} again"));
        assert_eq!(m.code, 0, "{}", m.stderr);
        fresh.push(m.wall.as_secs_f64() * 1000.0);
        let _ = run(q);
        let m = run(q);
        cached.push(m.wall.as_secs_f64() * 1000.0);
    }
    let figures = Cli {
        cached_p50: pct(&cached, 50.0),
        cached_p95: pct(&cached, 95.0),
        embedded_p50: pct(&fresh, 50.0),
        embedded_p95: pct(&fresh, 95.0),
    };
    println!(
        "\n[2] {backend}: `cocosearch search` as a new process, index of {} chunks ({}), load {}",
        small.chunks,
        small.corpus.display(),
        load_averages()
    );
    println!(
        "    query vector cached: p50 {:.0} ms, p95 {:.0} ms (whole process, 20 queries)",
        figures.cached_p50, figures.cached_p95
    );
    println!(
        "    query embedded: p50 {:.0} ms, p95 {:.0} ms; one MiniLM query embedding alone: p50 {:.0} ms",
        figures.embedded_p50,
        figures.embedded_p95,
        pct(&embed_only, 50.0)
    );
    figures
}

/// `cocosearch search --mode keyword` as a new process per query on the large index (the
/// second of two runs each): what a user pays on a large project, freshness line included.
/// Returns p50 and p95 in ms.
fn cli_on_the_large_index(services: &Services, target: &Target, corpus: &std::path::Path) -> (f64, f64) {
    let mut times = Vec::new();
    for q in QUERIES.iter().take(10) {
        let run = || {
            measure(
                cocosearch(corpus, target, &services.ollama_url)
                    .args(["search", "--index", BIG_INDEX, "--mode", "keyword", "--json", q]),
            )
        };
        let _ = run();
        let m = run();
        assert_eq!(m.code, 0, "{}", m.stderr);
        times.push(m.wall.as_secs_f64() * 1000.0);
    }
    let figures = (pct(&times, 50.0), pct(&times, 95.0));
    println!(
        "\n[3] {}: `cocosearch search --mode keyword` as a new process on the large index: p50 {:.0} ms, p95 {:.0} ms (10 queries, load {})",
        target.label(),
        figures.0,
        figures.1,
        load_averages()
    );
    figures
}
