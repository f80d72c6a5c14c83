//! Search latency benchmark (not a test).
//!
//!   cargo bench --bench search
//!
//! 1. An index of at least 100,000 chunks of real code (the Python standard library and the
//!    crate sources in ~/.cargo/registry/src). Real MiniLM vectors for a sample of chunks; the
//!    other chunks get a sampled real vector plus small noise, so the HNSW graph sees a
//!    realistic distribution without hours of CPU embedding. Prints p50/p95 of hybrid search
//!    without query embedding (vector cached in process) and end to end (query embedded).
//! 2. A new `cocosearch search` process per query on a small index (a few thousand chunks of
//!    the standard library, shared with the MCP benchmark): wall time with the query vector
//!    cached, and with one embedding.

mod common;

use std::time::Instant;

use cocosearch::config::{EmbeddingSettings, Provider};
use cocosearch::embed::{self, Embedder};
use cocosearch::search::FilterSpec;
use cocosearch::search::{ContextOptions, Fixed, Mode, QueryCache, SearchRequest, Searcher};
use cocosearch::store::Store;
use common::*;

const QUERIES: &[&str] = &[
    "where do we retry failed connections",
    "parse an HTTP header into a dictionary",
    "how are log records formatted with a timestamp",
    "decode a JSON string with escape sequences",
    "run a test case and collect its failures",
    "open a socket with a timeout",
    "compress data with zlib",
    "iterate over the lines of a file lazily",
    "thread pool that runs callables concurrently",
    "serialize a struct to JSON",
    "error when the UTF-8 input is invalid",
    "read environment variables for configuration",
    "hash map with a custom hasher",
    "async function that waits for a future with a deadline",
    "convert a path to an absolute canonical path",
    "format a number with thousands separators",
    "lock a mutex and handle poisoning",
    "send an email message with attachments",
    "tokenize source code into tokens",
    "cache results of an expensive function",
    "getUserById",
    "HTTPConnection.request",
    "json.loads",
    "TimeoutError",
    "unittest.TestCase.assertEqual",
    "read_to_string",
    "EINTR",
    "\"connection reset by peer\"",
    "src/lib.rs",
    "Vec::with_capacity",
    "retry with exponential backoff",
    "validate an email address",
    "parse command line arguments",
    "walk a directory tree recursively",
    "spawn a child process and capture its output",
    "compare two strings ignoring case",
    "base64 encode bytes",
    "schedule a callback after a delay",
    "parse a date string",
    "signal handler for SIGINT",
];

/// Chunks embedded for real; the rest reuse these vectors with noise.
const REAL_SAMPLE: usize = 1500;
const BIG_INDEX: &str = "big";

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn gaussian(&mut self) -> f32 {
        // Sum of uniforms: close enough to normal for jitter.
        let s: f64 = (0..6).map(|_| (self.next() % 1_000_000) as f64 / 1_000_000.0).sum::<f64>() - 3.0;
        (s / 1.0) as f32
    }
}

fn embedder(url: &str) -> Box<dyn Embedder> {
    embed::from_settings(
        &EmbeddingSettings {
            provider: Provider::Ollama,
            model: "all-minilm".into(),
            output_dimension: None,
            base_url: Some(url.to_string()),
            api_key: None,
            batch_size: 32,
            concurrency: 2,
            timeout: 300,
            query_timeout: 30,
            model_path: None,
            hub_url: cocosearch::config::registry::DEFAULT_HUB_URL.into(),
            model_origin: cocosearch::config::Origin::Configured,
        },
        embed::Progress::Hidden,
    )
    .expect("ollama embedder")
}

fn build_big_index(services: &Services, db: &str, store: &dyn Store) {
    let chunks = indexed_chunks(store, BIG_INDEX);
    let pending = store.count_pending(BIG_INDEX).unwrap_or(u64::MAX);
    if chunks >= 100_000 && pending == 0 {
        println!("reusing index {BIG_INDEX}: {chunks} chunks, all with vectors");
        ensure_hnsw(db);
        return;
    }
    let corpus = root().join("target/bench-corpus");
    let _ = std::fs::remove_dir_all(&corpus);
    std::fs::create_dir_all(&corpus).expect("corpus dir");
    std::os::unix::fs::symlink(stdlib(), corpus.join("python-stdlib")).expect("symlink stdlib");
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let registry = std::path::Path::new(&home).join(".cargo/registry/src");
    for (i, entry) in std::fs::read_dir(&registry).expect("~/.cargo/registry/src").flatten().enumerate() {
        std::os::unix::fs::symlink(entry.path(), corpus.join(format!("crates-{i}"))).expect("symlink crates");
    }
    std::fs::create_dir_all(corpus.join(".git")).expect("mark project");
    println!("building index {BIG_INDEX} from {} (keyword pass)…", corpus.display());
    let started = Instant::now();
    let m = measure(cocosearch(&corpus, db, &services.ollama_url).args([
        "index",
        "--name",
        BIG_INDEX,
        "--no-embed",
        "--fresh",
        "--json",
    ]));
    assert_eq!(m.code, 0, "{}", m.stderr);
    let chunks = store.index_counts(BIG_INDEX).expect("counts").chunks;
    println!("  {chunks} chunks in {:.0} s", started.elapsed().as_secs_f64());
    assert!(chunks >= 100_000, "the corpus gave only {chunks} chunks");

    // Real vectors for a spread-out sample.
    let pending = store.pending_chunks(BIG_INDEX, 0, usize::MAX).expect("pending");
    let step = (pending.len() / REAL_SAMPLE).max(1);
    let sample: Vec<_> = pending.iter().step_by(step).take(REAL_SAMPLE).collect();
    let e = embedder(&services.ollama_url);
    println!("  embedding {} sampled chunks for real…", sample.len());
    let mut real: Vec<(i64, Vec<f32>)> = Vec::new();
    for batch in sample.chunks(32) {
        let texts: Vec<String> =
            batch.iter().map(|p| cocosearch::index::embed_text(&p.path, &p.context, &p.content, 768)).collect();
        let vectors = e.embed(&texts).expect("embed sample");
        real.extend(batch.iter().map(|p| p.id).zip(vectors));
    }
    let dim = real[0].1.len() as u32;
    store.set_index_model(BIG_INDEX, "all-minilm", dim).expect("record model");
    // Fill without the HNSW index, then build it once: far faster than incremental inserts.
    let mut sql = postgres::Client::connect(db, postgres::NoTls).expect("sql");
    sql.batch_execute("DROP INDEX IF EXISTS cs_big_c_hnsw").expect("drop hnsw");
    store.set_embeddings(BIG_INDEX, &real).expect("store real vectors");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let sampled: std::collections::HashSet<i64> = real.iter().map(|r| r.0).collect();
    let mut batch = Vec::new();
    for p in pending.iter().filter(|p| !sampled.contains(&p.id)) {
        let base = &real[(rng.next() % real.len() as u64) as usize].1;
        let mut v: Vec<f32> = base.iter().map(|x| x + 0.03 * rng.gaussian()).collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        v.iter_mut().for_each(|x| *x /= norm);
        batch.push((p.id, v));
        if batch.len() == 2000 {
            store.set_embeddings(BIG_INDEX, &batch).expect("store vectors");
            batch.clear();
        }
    }
    store.set_embeddings(BIG_INDEX, &batch).expect("store vectors");
    ensure_hnsw(db);
}

/// Builds the HNSW index of the big index when it is missing (an interrupted earlier run).
fn ensure_hnsw(db: &str) {
    let mut sql = postgres::Client::connect(db, postgres::NoTls).expect("sql");
    let exists: bool = sql
        .query_one("SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'cs_big_c_hnsw')", &[])
        .expect("query")
        .get(0);
    if exists {
        return;
    }
    println!("  building the HNSW index…");
    let started = Instant::now();
    // Separate statements: VACUUM cannot run inside the implicit transaction of a batch.
    sql.batch_execute("SET maintenance_work_mem = '512MB'").expect("memory");
    sql.batch_execute("CREATE INDEX cs_big_c_hnsw ON cs_big_chunks USING hnsw (embedding vector_cosine_ops)")
        .expect("build hnsw");
    sql.batch_execute("VACUUM ANALYZE cs_big_chunks").expect("vacuum");
    println!("  HNSW built in {:.0} s", started.elapsed().as_secs_f64());
}

fn main() {
    let services = services();
    let db = database(&services.admin_url, "bench_search", false);
    let store = pg_store(&db, 4);
    build_big_index(&services, &db, store.as_ref());
    let chunks = store.index_counts(BIG_INDEX).expect("counts").chunks;

    let e: std::sync::Arc<dyn Embedder> = std::sync::Arc::from(embedder(&services.ollama_url));
    let fixed = Fixed(Some(std::sync::Arc::clone(&e)));
    let cache = QueryCache::new(1024);
    let searcher = Searcher { store: store.as_ref(), embedders: &fixed, cache: &cache, tuning: Default::default() };
    let request = |q: &str, cached: bool| SearchRequest {
        query: q.to_string(),
        indexes: vec![BIG_INDEX.to_string()],
        limit: 10,
        min_score: 0.0,
        mode: Mode::Auto,
        filter: FilterSpec::default(),
        context: ContextOptions { smart: true, before: 0, after: 0, max_lines: 50 },
        use_cache: cached,
    };
    // Warm the in-process cache (and PostgreSQL's), then measure without query embedding.
    for q in QUERIES {
        searcher.search(&request(q, true)).expect("search");
    }
    let mut without = Vec::new();
    let mut per_query = vec![Vec::new(); QUERIES.len()];
    for _ in 0..5 {
        for (q, times) in QUERIES.iter().zip(&mut per_query) {
            let started = Instant::now();
            let r = searcher.search(&request(q, true)).expect("search");
            assert!(r.cached_embedding || r.mode == "keyword");
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            without.push(ms);
            times.push(ms);
        }
    }
    // End to end: every query embedded by a MiniLM server without a cache, next to that
    // server's embedding alone.
    let (fresh_url, mut fresh_server) = private_minilm();
    let fresh_embedder: std::sync::Arc<dyn Embedder> = std::sync::Arc::from(embedder(&fresh_url));
    let fresh = Fixed(Some(std::sync::Arc::clone(&fresh_embedder)));
    let fresh_searcher = Searcher { embedders: &fresh, ..searcher };
    let mut end_to_end = Vec::new();
    let mut embedding_alone = Vec::new();
    for q in QUERIES {
        let started = Instant::now();
        let r = fresh_searcher.search(&request(q, false)).expect("search");
        assert!(!r.cached_embedding && r.degraded.is_none(), "{:?}", r.warnings);
        end_to_end.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        fresh_embedder.embed_query(q).expect("embed");
        embedding_alone.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let _ = fresh_server.kill();
    let _ = fresh_server.wait();
    let mut slowest: Vec<(f64, &str)> =
        per_query.iter_mut().zip(QUERIES).map(|(times, q)| (percentile(times, 50.0), *q)).collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("\n[1] hybrid search on {chunks} chunks, {} queries, limit 10, smart context", QUERIES.len());
    println!(
        "    without query embedding: p50 {:.1} ms, p95 {:.1} ms ({} searches)",
        percentile(&mut without.clone(), 50.0),
        percentile(&mut without, 95.0),
        QUERIES.len() * 5
    );
    println!(
        "    end to end (query embedded by MiniLM, no cache): p50 {:.1} ms, p95 {:.1} ms; one embedding alone: p50 {:.1} ms, p95 {:.1} ms",
        percentile(&mut end_to_end.clone(), 50.0),
        percentile(&mut end_to_end, 95.0),
        percentile(&mut embedding_alone.clone(), 50.0),
        percentile(&mut embedding_alone, 95.0)
    );
    let slowest: Vec<String> = slowest.iter().take(4).map(|(ms, q)| format!("{q:?} {ms:.0} ms")).collect();
    println!("    slowest queries (median, vector cached): {}", slowest.join(", "));

    // 2. CLI processes on the small index shared with the MCP benchmark.
    let small = small_index(&services);
    let mut cached = Vec::new();
    let mut fresh = Vec::new();
    let mut embed_only = Vec::new();
    for (i, q) in QUERIES.iter().take(20).enumerate() {
        let run = |query: &str| {
            measure(cocosearch(&small.corpus, &small.db, &services.ollama_url).args([
                "search",
                "--index",
                SMALL_INDEX,
                "--json",
                query,
            ]))
        };
        let unique = format!("{q} (variant {i} {})", std::process::id());
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
    println!(
        "\n[2] `cocosearch search` as a new process, index of {} chunks ({})",
        small.chunks,
        small.corpus.display()
    );
    println!(
        "    query vector cached: p50 {:.0} ms, p95 {:.0} ms (whole process, 20 queries)",
        percentile(&mut cached.clone(), 50.0),
        percentile(&mut cached, 95.0)
    );
    let embed_p50 = percentile(&mut embed_only.clone(), 50.0);
    println!(
        "    query embedded: p50 {:.0} ms, p95 {:.0} ms; one MiniLM query embedding alone: p50 {embed_p50:.0} ms",
        percentile(&mut fresh.clone(), 50.0),
        percentile(&mut fresh, 95.0)
    );
}
