//! Shared by the benchmarks: the real services, the two store backends as targets, corpora of
//! real files, the small index, running the binary with its wall time, CPU time and peak
//! memory, and the side-by-side table each bench ends with.

#![allow(dead_code, reason = "each bench uses part of the shared helpers")]

mod corpus;
mod measure;
mod table;
mod target;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// Each bench uses part of these.
#[allow(unused_imports, reason = "each bench uses part of these")]
pub use corpus::{Parts, big_corpus, copy_tree, crate_sources, linked_corpus, stdlib};
#[allow(unused_imports, reason = "each bench uses part of these")]
pub use measure::{Measured, measure, rusage_helper};
#[allow(unused_imports, reason = "each bench uses part of these")]
pub use table::Table;
#[allow(unused_imports, reason = "each bench uses part of these")]
pub use target::{Start, Target, arg_value, backends, parse_backend};

/// URLs of the services from `scripts/testenv.py up`.
pub struct Services {
    pub admin_url: String,
    pub ollama_url: String,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Brings the test services up (or uses COCOSEARCH_TEST_* when set).
pub fn services() -> Services {
    if let (Ok(admin_url), Ok(ollama_url)) =
        (std::env::var("COCOSEARCH_TEST_DATABASE_URL"), std::env::var("COCOSEARCH_TEST_OLLAMA_URL"))
    {
        return Services { admin_url, ollama_url };
    }
    let out = Command::new("python3")
        .arg(root().join("scripts/testenv.py"))
        .args(["up", "--json"])
        .output()
        .expect("run scripts/testenv.py");
    assert!(out.status.success(), "testenv.py up failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("testenv JSON");
    Services {
        admin_url: v["COCOSEARCH_TEST_DATABASE_URL"].as_str().expect("db url").to_string(),
        ollama_url: v["COCOSEARCH_TEST_OLLAMA_URL"].as_str().expect("ollama url").to_string(),
    }
}

/// The services' environment, for a child bench process.
pub fn services_env(services: &Services) -> [(&'static str, String); 2] {
    [
        ("COCOSEARCH_TEST_DATABASE_URL", services.admin_url.clone()),
        ("COCOSEARCH_TEST_OLLAMA_URL", services.ollama_url.clone()),
    ]
}

/// `admin_url` with database `db`, created first (dropped before on a fresh start).
pub fn database(admin_url: &str, db: &str, start: Start) -> String {
    let fresh = start == Start::Fresh;
    let mut admin = postgres::Client::connect(admin_url, postgres::NoTls).expect("connect admin");
    let exists: bool =
        admin.query_one("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", &[&db]).expect("query").get(0);
    if fresh && exists {
        admin.batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)")).expect("drop");
    }
    if fresh || !exists {
        admin.batch_execute(&format!("CREATE DATABASE {db}")).expect("create");
    }
    let mut url = url::Url::parse(admin_url).expect("url");
    url.set_path(&format!("/{db}"));
    url.to_string()
}

/// The release binary in `cwd`, with a clean environment pointed at `target` and `ollama_url`.
pub fn cocosearch(cwd: &Path, target: &Target, ollama_url: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cocosearch"));
    cmd.current_dir(cwd);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    target.configure(&mut cmd);
    cmd.env("COCOSEARCH_OLLAMA_URL", ollama_url).env("COCOSEARCH_EMBEDDING_MODEL", "all-minilm");
    cmd
}

/// The JSON summary a `cocosearch … --json` run printed, or a panic with its stderr.
pub fn summary(m: &Measured) -> serde_json::Value {
    assert_eq!(m.code, 0, "cocosearch failed:\n{}", m.stderr);
    serde_json::from_str(&m.stdout).unwrap_or_else(|e| panic!("summary JSON ({e}): {}", m.stdout))
}

/// A private MiniLM server; killed and reaped when dropped.
pub struct MiniLm {
    pub url: String,
    child: std::process::Child,
}

impl Drop for MiniLm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a private MiniLM server *without* the persistent cache, so embedding throughput is
/// measured, not cache lookups.
pub fn private_minilm() -> MiniLm {
    let python = root().join("target/testenv/venv/bin/python");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let child = Command::new(python)
        .arg(root().join("scripts/ollama_minilm.py"))
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--strict-model"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the MiniLM server");
    let server = MiniLm { url: format!("http://127.0.0.1:{port}"), child };
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("the private MiniLM server did not start");
}

/// The p-th percentile (0..100) of `samples`.
pub fn percentile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    if samples.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (samples.len() - 1) as f64).round() as usize;
    samples[rank.min(samples.len() - 1)]
}

/// The p-th percentile of a copy of `samples`.
pub fn pct(samples: &[f64], p: f64) -> f64 {
    percentile(&mut samples.to_vec(), p)
}

/// The machine's load averages (1, 5, 15 minutes), for the record: other engineers share it.
pub fn load_averages() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The header line of a bench: what runs, on how many cores, under what load.
pub fn banner(what: &str) {
    println!(
        "cocosearch {what} benchmark — release build, {} cores, load averages {} (1/5/15 min; above the core count, figures are inflated)",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load_averages()
    );
}

/// Resident memory of this process from /proc/self/status, in MB: (peak, anonymous, file-backed).
pub fn own_memory() -> (f64, f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("RssAnon:"), field("RssFile:"))
}

/// The index of a few thousand chunks shared by the search and MCP benchmarks.
pub const SMALL_INDEX: &str = "small";
/// Standard-library packages in it.
const SMALL_PACKAGES: &[&str] = &["json", "email", "http", "logging", "asyncio", "unittest", "urllib", "concurrent"];

/// Where the small index lives.
pub struct SmallIndex {
    pub target: Target,
    pub corpus: PathBuf,
    pub chunks: u64,
}

/// Builds the small index on `backend` with MiniLM embeddings (the shared server, whose cache
/// makes a rebuild cheap), or reuses it while it is complete.
pub fn small_index(services: &Services, backend: cocosearch::store::Backend) -> SmallIndex {
    let parts: Parts = SMALL_PACKAGES.iter().map(|p| (stdlib().join(p), p.to_string())).collect();
    let corpus = linked_corpus("small", &parts);
    let target = Target::on(backend, services, "small", Start::Reuse);
    let store = target.store(2);
    let chunks = indexed_chunks(store.as_ref(), SMALL_INDEX);
    if chunks >= 2000
        && store.reader(SMALL_INDEX).expect("reader").count_pending().unwrap_or(1) == 0
        && indexes(store.as_ref(), SMALL_INDEX, &corpus)
    {
        println!("reusing index {SMALL_INDEX} on {}: {chunks} chunks", target.label());
        return SmallIndex { target, corpus, chunks };
    }
    println!("indexing {} on {} with MiniLM embeddings…", corpus.display(), target.label());
    let started = Instant::now();
    let m = measure(cocosearch(&corpus, &target, &services.ollama_url).args([
        "index",
        "--name",
        SMALL_INDEX,
        "--fresh",
        "--json",
    ]));
    summary(&m);
    let chunks = store.reader(SMALL_INDEX).expect("reader").index_counts().expect("counts").chunks;
    println!("  {chunks} chunks in {:.0} s", started.elapsed().as_secs_f64());
    SmallIndex { target, corpus, chunks }
}

/// Chunks in index `name`, 0 when it does not exist.
pub fn indexed_chunks(store: &dyn cocosearch::store::Store, name: &str) -> u64 {
    store
        .get_index(name)
        .ok()
        .flatten()
        .and_then(|_| store.reader(name).expect("reader").index_counts().ok())
        .map_or(0, |c| c.chunks)
}

/// Whether index `name` exists and indexes `corpus` (and not an older corpus elsewhere).
pub fn indexes(store: &dyn cocosearch::store::Store, name: &str, corpus: &Path) -> bool {
    let wanted = corpus.canonicalize().unwrap_or_else(|_| corpus.to_path_buf());
    store
        .get_index(name)
        .ok()
        .flatten()
        .is_some_and(|meta| meta.root.canonicalize().unwrap_or(meta.root.clone()) == wanted)
}

/// Prints a line `RESULT <json>` for the parent process of a measurement run.
pub fn emit_result(value: &serde_json::Value) {
    println!("RESULT {value}");
}

/// The `RESULT` line a child measurement printed.
pub fn child_result(stdout: &str) -> serde_json::Value {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_else(|| panic!("the measurement printed no RESULT line:\n{stdout}"))
}

/// A client of a MiniLM server speaking Ollama's API (`all-minilm`), with `timeout` seconds per
/// batch: the query embedder every search-side bench compares against.
pub fn minilm_server_embedder(url: &str, timeout: u64) -> std::sync::Arc<dyn cocosearch::embed::Embedder> {
    use cocosearch::config::{EmbeddingSettings, Origin, Provider, registry};
    std::sync::Arc::from(
        cocosearch::embed::from_settings(
            &EmbeddingSettings {
                provider: Provider::Ollama,
                model: "all-minilm".into(),
                output_dimension: None,
                base_url: Some(url.to_string()),
                api_key: None,
                batch_size: 32,
                concurrency: 2,
                timeout,
                query_timeout: 30,
                model_path: None,
                model_dirs: Vec::new(),
                hub_url: registry::DEFAULT_HUB_URL.into(),
                model_origin: Origin::Configured,
            },
            cocosearch::embed::Progress::Hidden,
        )
        .expect("a MiniLM server embedder"),
    )
}
