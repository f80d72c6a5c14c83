//! Shared by the benchmarks: the real services, fresh databases, and running the binary with
//! its wall time and peak memory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// `admin_url` with database `db`, created first (dropped before when `fresh`).
pub fn database(admin_url: &str, db: &str, fresh: bool) -> String {
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

/// The Python standard library directory of this machine.
pub fn stdlib() -> PathBuf {
    let out = Command::new("python3")
        .args(["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"])
        .output()
        .expect("python3");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// What a run of the binary cost.
pub struct Measured {
    pub wall: Duration,
    /// User + system CPU time of the child.
    pub cpu: Duration,
    pub peak_rss_mb: f64,
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `cmd`, measuring wall time and the child's peak resident memory (`wait4`).
pub fn measure(cmd: &mut Command) -> Measured {
    let started = Instant::now();
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    // Read the pipes on threads so a chatty child cannot block.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert_eq!(waited, pid, "wait4 failed");
    // The child is reaped; dropping the handle must not wait again.
    std::mem::forget(child);
    let seconds = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    Measured {
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_rss_mb: usage.ru_maxrss as f64 / 1024.0,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        code: if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 },
    }
}

/// The release binary, with a clean environment pointed at `db_url` and `ollama_url`.
pub fn cocosearch(cwd: &Path, db_url: &str, ollama_url: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cocosearch"));
    cmd.current_dir(cwd);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("COCOSEARCH_DATABASE_URL", db_url)
        .env("COCOSEARCH_OLLAMA_URL", ollama_url)
        .env("COCOSEARCH_EMBEDDING_MODEL", "all-minilm");
    cmd
}

/// Starts a private MiniLM server *without* the persistent cache, so embedding throughput is
/// measured, not cache lookups. Returns its URL and the process; the caller kills it.
#[allow(clippy::zombie_processes)]
pub fn private_minilm() -> (String, std::process::Child) {
    let python = root().join("target/testenv/venv/bin/python");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let child = Command::new(python)
        .arg(root().join("scripts/ollama_minilm.py"))
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--strict-model"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the MiniLM server");
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return (url, child);
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

/// Copies a directory tree (files only, no `__pycache__`).
pub fn copy_tree(from: &Path, to: &Path) {
    for file in walk(from) {
        let target = to.join(file.strip_prefix(from).expect("prefix"));
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&file, &target).expect("copy");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let path = entry.path();
        if entry.file_name() == "__pycache__" {
            continue;
        }
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.is_file() {
            out.push(path);
        }
    }
    out
}

/// The index of a few thousand chunks shared by the search and MCP benchmarks.
pub const SMALL_INDEX: &str = "small";
/// Standard-library packages in it.
const SMALL_PACKAGES: &[&str] = &["json", "email", "http", "logging", "asyncio", "unittest", "urllib", "concurrent"];

/// Where the small index lives.
pub struct SmallIndex {
    pub db: String,
    pub corpus: PathBuf,
    pub chunks: u64,
}

/// Builds the small index with MiniLM embeddings, or reuses it while it is complete and
/// its corpus still exists.
pub fn small_index(services: &Services) -> SmallIndex {
    let db = database(&services.admin_url, "bench_small", false);
    let corpus = root().join("target/bench-small-corpus");
    let store = pg_store(&db, 2);
    let chunks = indexed_chunks(store.as_ref(), SMALL_INDEX);
    if chunks >= 2000 && store.count_pending(SMALL_INDEX).unwrap_or(1) == 0 && corpus.exists() {
        println!("reusing index {SMALL_INDEX}: {chunks} chunks");
        return SmallIndex { db, corpus, chunks };
    }
    let _ = std::fs::remove_dir_all(&corpus);
    std::fs::create_dir_all(corpus.join(".git")).expect("corpus dir");
    for package in SMALL_PACKAGES {
        copy_tree(&stdlib().join(package), &corpus.join(package));
    }
    println!("indexing {} with MiniLM embeddings…", corpus.display());
    let started = Instant::now();
    let m = measure(cocosearch(&corpus, &db, &services.ollama_url).args([
        "index",
        "--name",
        SMALL_INDEX,
        "--fresh",
        "--json",
    ]));
    assert_eq!(m.code, 0, "{}", m.stderr);
    let chunks = store.index_counts(SMALL_INDEX).expect("counts").chunks;
    println!("  {chunks} chunks in {:.0} s", started.elapsed().as_secs_f64());
    SmallIndex { db, corpus, chunks }
}

/// Chunks in index `name`, 0 when it does not exist.
pub fn indexed_chunks(store: &dyn cocosearch::store::Store, name: &str) -> u64 {
    store.get_index(name).ok().flatten().and_then(|_| store.index_counts(name).ok()).map_or(0, |c| c.chunks)
}

/// The PostgreSQL store at `url`, migrated.
pub fn pg_store(url: &str, pool_size: u32) -> std::sync::Arc<dyn cocosearch::store::Store> {
    use cocosearch::config::{BackendSetting, DatabaseSettings, Origin};
    let settings = DatabaseSettings {
        backend: BackendSetting::Postgres,
        url: url.to_string(),
        path: None,
        pool_size,
        connect_timeout: 5,
        url_origin: Origin::Configured,
    };
    let store = cocosearch::store::open(&settings).expect("open the store").store;
    store.migrate().expect("migrate");
    store
}
