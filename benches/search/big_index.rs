//! The search benchmark's large index (at least 100,000 chunks of real code: the Python standard
//! library with its site-packages and the crate sources of this machine), built the same way on
//! each backend and reused while complete.
//!
//! A keyword pass through the CLI (`--no-embed`), then real MiniLM vectors for a sample of the
//! chunks and, for the others, a sampled real vector plus small noise, so the vector index sees
//! a realistic distribution without hours of CPU embedding. The sample and the noise follow the
//! chunks' paths and texts (not their ids, which differ between backends), so both backends
//! hold the same vectors. Then each backend organises its vectors: PostgreSQL builds its HNSW
//! graph once (far faster than while inserting), the embedded store trains its inverted lists
//! (`FileWriter::optimize`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use cocosearch::store::{Backend, PendingChunk, Store};

use crate::common::*;

pub const BIG_INDEX: &str = "big";
/// Chunks embedded for real; the rest reuse these vectors with noise.
const REAL_SAMPLE: usize = 1500;
/// The smallest index the benchmark accepts.
const MIN_CHUNKS: u64 = 100_000;

/// How a backend's large index was built (recorded beside the stores, so a reused index
/// still reports it).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Built {
    pub chunks: u64,
    /// Files indexed and the wall time of the keyword pass (the CLI, embedder off).
    pub files: u64,
    pub keyword_pass_s: f64,
    /// Embedding the sample for real (fast when the shared server has them cached).
    pub embed_s: f64,
    /// Storing every vector.
    pub vectors_s: f64,
    /// Building the HNSW graph (PostgreSQL) or training the inverted lists (embedded).
    pub organise_s: f64,
}

/// Where the build record of `backend` is kept.
fn record_path(backend: Backend) -> PathBuf {
    root().join(format!("target/bench-stores/search-{backend}.json"))
}

/// Builds the large index on `target`, or reuses it while complete; returns how it was built.
pub fn build_big_index(services: &Services, target: &Target, corpus: &Path) -> Built {
    let store = target.store(4);
    let chunks = indexed_chunks(store.as_ref(), BIG_INDEX);
    let pending = store.reader(BIG_INDEX).expect("reader").count_pending().unwrap_or(u64::MAX);
    let recorded: Option<Built> =
        std::fs::read(record_path(target.backend())).ok().and_then(|b| serde_json::from_slice(&b).ok());
    if chunks >= MIN_CHUNKS && pending == 0 && indexes(store.as_ref(), BIG_INDEX, corpus) {
        println!("reusing index {BIG_INDEX} on {}: {chunks} chunks, all with vectors", target.label());
        // A build interrupted after its vectors may have left them unorganised.
        let started = Instant::now();
        organise(target, store.as_ref());
        println!("  organising the vectors (nothing to do when complete): {:.1} s", started.elapsed().as_secs_f64());
        return recorded.filter(|r| r.chunks == chunks).unwrap_or(Built { chunks, ..Built::default() });
    }

    println!("building index {BIG_INDEX} on {} from {} (keyword pass)…", target.label(), corpus.display());
    let m = measure(cocosearch(corpus, target, &services.ollama_url).args([
        "index",
        "--name",
        BIG_INDEX,
        "--no-embed",
        "--fresh",
        "--json",
    ]));
    let s = summary(&m);
    let mut built = Built {
        chunks: store.reader(BIG_INDEX).expect("reader").index_counts().expect("counts").chunks,
        files: s["files"]["added"].as_u64().unwrap_or(0),
        keyword_pass_s: m.wall.as_secs_f64(),
        ..Built::default()
    };
    println!(
        "  {} files, {} chunks in {:.0} s ({:.0} files/s), peak RSS {:.0} MB",
        built.files,
        built.chunks,
        built.keyword_pass_s,
        built.files as f64 / built.keyword_pass_s,
        m.peak_rss_mb
    );
    assert!(built.chunks >= MIN_CHUNKS, "the corpus gave only {} chunks", built.chunks);

    let mut pending = store.reader(BIG_INDEX).expect("reader").pending_chunks(0, usize::MAX).expect("pending");
    // The same order on every backend, whatever ids the chunks got.
    pending.sort_by(|a, b| (&a.path, &a.content, &a.context).cmp(&(&b.path, &b.content, &b.context)));
    let started = Instant::now();
    let real = real_vectors(&services.ollama_url, &pending);
    built.embed_s = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let dimension = real[0].1.len() as u32;
    let writer = store.writer(BIG_INDEX).expect("writer");
    writer.set_model("all-minilm", dimension).expect("record model");
    if let Target::Postgres { url } = target {
        // Fill without the HNSW index, then build it once.
        let mut sql = postgres::Client::connect(url, postgres::NoTls).expect("sql");
        sql.batch_execute("DROP INDEX IF EXISTS cs_big_c_hnsw").expect("drop hnsw");
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut batch = Vec::new();
    let mut sampled = real.iter().peekable();
    for (i, p) in pending.iter().enumerate() {
        let v = match sampled.next_if(|(j, _)| *j == i) {
            Some((_, v)) => v.clone(),
            None => {
                let base = &real[(rng.next() % real.len() as u64) as usize].1;
                noisy(&mut rng, base)
            }
        };
        batch.push((p.id, v));
        if batch.len() == 2000 {
            writer.set_embeddings(&batch).expect("store vectors");
            batch.clear();
        }
    }
    writer.set_embeddings(&batch).expect("store vectors");
    drop(writer);
    built.vectors_s = started.elapsed().as_secs_f64();
    println!(
        "  {REAL_SAMPLE} chunks embedded in {:.0} s; {} vectors stored in {:.0} s",
        built.embed_s,
        pending.len(),
        built.vectors_s
    );

    let started = Instant::now();
    organise(target, store.as_ref());
    built.organise_s = started.elapsed().as_secs_f64();
    println!(
        "  {} in {:.1} s",
        match target.backend() {
            Backend::Postgres => "HNSW graph built",
            Backend::Sqlite => "inverted lists trained (FileWriter::optimize)",
        },
        built.organise_s
    );
    std::fs::write(record_path(target.backend()), serde_json::to_vec(&built).expect("record")).expect("write record");
    built
}

/// Real vectors for an evenly spread sample of `pending`, by position in it.
fn real_vectors(ollama_url: &str, pending: &[PendingChunk]) -> Vec<(usize, Vec<f32>)> {
    let step = (pending.len() / REAL_SAMPLE).max(1);
    let sample: Vec<usize> = (0..pending.len()).step_by(step).take(REAL_SAMPLE).collect();
    let e = crate::embedder(ollama_url);
    println!("  embedding {} sampled chunks for real (the shared server caches them)…", sample.len());
    let mut real = Vec::new();
    for batch in sample.chunks(32) {
        let texts: Vec<String> = batch
            .iter()
            .map(|&i| {
                let p = &pending[i];
                cocosearch::index::embed_text(&p.path, &p.context, &p.content, 768)
            })
            .collect();
        let vectors = e.embed(&texts).expect("embed sample");
        real.extend(batch.iter().copied().zip(vectors));
    }
    real
}

/// `base` plus small Gaussian noise, normalised.
fn noisy(rng: &mut Rng, base: &[f32]) -> Vec<f32> {
    let mut v: Vec<f32> = base.iter().map(|x| x + 0.03 * rng.gaussian()).collect();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

/// Organises the vectors of the large index for search: the HNSW graph on PostgreSQL when it
/// is missing, the inverted lists of the embedded store.
fn organise(target: &Target, store: &dyn Store) {
    match target {
        Target::Postgres { url } => ensure_hnsw(url),
        Target::Sqlite { .. } => store.writer(BIG_INDEX).expect("writer").optimize().expect("optimize"),
    }
}

/// Builds the HNSW index of the large index when it is missing (an interrupted earlier run).
fn ensure_hnsw(url: &str) {
    let mut sql = postgres::Client::connect(url, postgres::NoTls).expect("sql");
    let exists: bool = sql
        .query_one("SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'cs_big_c_hnsw')", &[])
        .expect("query")
        .get(0);
    if exists {
        return;
    }
    println!("  building the HNSW index…");
    // Separate statements: VACUUM cannot run inside the implicit transaction of a batch.
    sql.batch_execute("SET maintenance_work_mem = '512MB'").expect("memory");
    sql.batch_execute("CREATE INDEX cs_big_c_hnsw ON cs_big_chunks USING hnsw (embedding vector_cosine_ops)")
        .expect("build hnsw");
    sql.batch_execute("VACUUM ANALYZE cs_big_chunks").expect("vacuum");
}

/// A small deterministic generator (xorshift), so every build makes the same vectors.
pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Close enough to a standard normal for jitter: a sum of six uniforms, centred.
    fn gaussian(&mut self) -> f32 {
        ((0..6).map(|_| (self.next() % 1_000_000) as f64 / 1_000_000.0).sum::<f64>() - 3.0) as f32
    }
}
