//! Dashboard speed benchmark (not a test).
//!
//!   cargo bench --bench dashboard
//!
//! `cocosearch dashboard` (the release binary), measured from a client on loopback that opens a
//! new connection per request (as a first visit does):
//! 1. The whole Python standard library in an embedded store, keyword only (`--no-embed`;
//!    reused while it exists in `target/bench-dashboard-store`): the page's first load — the
//!    document, its four assets, `/api/info` and `/api/indexes`, which is everything the page
//!    fetches before it draws the index cards — once right after the server starts (cold) and
//!    then repeated (target ≤ 300 ms).
//!    Then the same in headless Chromium (`dashboard_load.py`, with the Chromium and Playwright
//!    `scripts/testenv.py browser` provides): from navigation start to the first frame with an index card, in a new
//!    browser profile each time.
//! 2. On that index, `/api/search` round trips in keyword mode (no embedding involved).
//! 3. On eight stdlib packages with real MiniLM vectors (the search and MCP benchmarks' small
//!    corpus, in the same embedded store), `/api/search` hybrid round trips with the query
//!    vector cached by the server, and with every query embedded, next to one MiniLM embedding
//!    alone (target ≤ 150 ms plus the query embedding).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

const QUERIES: &[&str] = &[
    "where do we retry failed connections",
    "parse an HTTP header into a dictionary",
    "how are log records formatted with a timestamp",
    "decode a JSON string with escape sequences",
    "run a test case and collect its failures",
    "open a connection with a timeout",
    "split a URL into its parts",
    "thread pool that runs callables concurrently",
    "send an email message with attachments",
    "HTTPConnection.request",
    "json.loads",
    "TimeoutError",
];
/// The packages of the index with vectors (the search and MCP benchmarks' small corpus).
const VECTOR_PACKAGES: &[&str] = &["json", "email", "http", "logging", "asyncio", "unittest", "urllib", "concurrent"];
/// Page loads measured after the first.
const LOADS: usize = 20;
/// Rounds over [`QUERIES`].
const ROUNDS: usize = 5;
/// What the page fetches before it draws the index cards.
const PAGE: &[&str] = &[
    "/dashboard",
    "/dashboard/assets/app.css",
    "/dashboard/assets/highlight.js",
    "/dashboard/assets/app.js",
    "/dashboard/assets/favicon.svg",
    "/api/info",
    "/api/indexes",
];

/// A server child, killed on drop.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(mut cmd: Command) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let child = cmd
        .args(["dashboard", "--no-open", "--port", &port.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start cocosearch dashboard");
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the dashboard did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    Server { child, port }
}

/// `GET path` on a new connection: the body, and the wall time in milliseconds.
fn get(port: u16, path: &str) -> (String, f64) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let text = String::from_utf8_lossy(&raw).into_owned();
    assert!(text.starts_with("HTTP/1.1 200"), "{path}: {}", text.lines().next().unwrap_or_default());
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (body, ms)
}

fn page_load(port: u16) -> f64 {
    PAGE.iter().map(|path| get(port, path).1).sum()
}

fn enc(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn report(label: &str, samples: &mut [f64]) {
    println!(
        "  {label}: p50 {:.1} ms, p95 {:.1} ms (n={})",
        percentile(samples, 50.0),
        percentile(samples, 95.0),
        samples.len()
    );
}

/// The first load in headless Chromium, measured by the page (see the module documentation).
fn browser_loads(port: u16) {
    let tools = Command::new("python3")
        .arg(root().join("scripts/testenv.py"))
        .args(["browser", "--json"])
        .output()
        .expect("run scripts/testenv.py browser");
    assert!(tools.status.success(), "testenv.py browser failed:\n{}", String::from_utf8_lossy(&tools.stderr));
    let tools: serde_json::Value = serde_json::from_slice(&tools.stdout).expect("testenv JSON");
    let var = |k: &str| tools[k].as_str().unwrap_or_else(|| panic!("testenv.py browser did not print {k}")).to_string();
    let out = Command::new(var("COCOSEARCH_TEST_PLAYWRIGHT_PYTHON"))
        .arg(root().join("benches/dashboard_load.py"))
        .env("DASHBOARD_URL", format!("http://127.0.0.1:{port}"))
        .env("LOADS", "10")
        .env("CHROMIUM", var("COCOSEARCH_TEST_CHROMIUM"))
        .output()
        .expect("run the Playwright python");
    assert!(out.status.success(), "dashboard_load.py failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let mut samples: Vec<f64> = serde_json::from_slice(&out.stdout).expect("samples");
    report("in Chromium, navigation start to the cards drawn (new profile each)", &mut samples);
}

fn main() {
    rusage_helper();
    let services = services();
    println!(
        "cocosearch dashboard benchmark — release binary, {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // 1. The standard library, keyword only, in an embedded store.
    let store = root().join("target/bench-dashboard-store");
    let embedded = |cwd: &Path| cocosearch(cwd, &Target::Sqlite { dir: store.clone() }, &services.ollama_url);
    let stdlib = stdlib();
    if !store.join("cocosearch.db").exists() {
        println!("indexing {} into {} (keyword only)…", stdlib.display(), store.display());
        let m = measure(embedded(&stdlib).arg("index").arg(&stdlib).args([
            "--no-embed",
            "-e",
            "site-packages",
            "--name",
            "stdlib",
            "--json",
        ]));
        assert_eq!(m.code, 0, "{}", m.stderr);
        println!("  {:.1} s", m.wall.as_secs_f64());
    }
    let server = serve(embedded(&stdlib));
    let (indexes, _) = get(server.port, "/api/indexes");
    let indexes: serde_json::Value = serde_json::from_str(&indexes).expect("indexes JSON");
    // The store also holds the smaller index of part 3 once a run has built it.
    let stats = indexes["indexes"]
        .as_array()
        .and_then(|all| all.iter().find(|i| i["name"] == "stdlib"))
        .expect("the stdlib index is listed");
    println!("index stdlib: {} files, {} chunks, embedded store", stats["files"], stats["chunks"]);
    // A new server, so the first load is the first it serves (the tree's freshness scan runs).
    drop(server);
    let server = serve(embedded(&stdlib));
    let cold = page_load(server.port);
    let mut warm: Vec<f64> = (0..LOADS).map(|_| page_load(server.port)).collect();
    println!(
        "first page load (document, 4 assets, /api/info, /api/indexes of {} indexes), sequential:",
        indexes["indexes"].as_array().map_or(0, Vec::len)
    );
    println!("  cold (first request of a new server): {cold:.1} ms");
    report("again", &mut warm);
    let mut parts = Vec::new();
    for path in PAGE {
        let mut samples: Vec<f64> = (0..LOADS).map(|_| get(server.port, path).1).collect();
        parts.push(format!("{path} {:.1}", percentile(&mut samples, 50.0)));
    }
    println!("  p50 per request, ms: {}", parts.join(", "));
    browser_loads(server.port);

    // 2. Keyword search on the whole standard library.
    let mut keyword = Vec::new();
    let mut took = Vec::new();
    for _ in 0..ROUNDS {
        for q in QUERIES {
            let (body, ms) = get(server.port, &format!("/api/search?q={}&index=stdlib&keyword", enc(q)));
            let value: serde_json::Value = serde_json::from_str(&body).expect("search JSON");
            took.push(value["took_ms"].as_f64().unwrap_or_default());
            keyword.push(ms);
        }
    }
    println!("/api/search on the stdlib index, keyword mode:");
    report("round trip", &mut keyword);
    report("search itself (took_ms)", &mut took);
    drop(server);

    // 3. Hybrid search with real vectors: eight stdlib packages with MiniLM embeddings, in the
    // same embedded store (reused while it is there).
    let corpus = root().join("target/bench-dashboard-corpus");
    if !corpus.exists() {
        std::fs::create_dir_all(corpus.join(".git")).expect("corpus dir");
        for package in VECTOR_PACKAGES {
            copy_tree(&stdlib.join(package), &corpus.join(package));
        }
    }
    println!("indexing {} with MiniLM embeddings (incremental)…", corpus.display());
    let m = measure(embedded(&corpus).arg("index").arg(&corpus).args(["--name", SMALL_INDEX, "--json"]));
    assert_eq!(m.code, 0, "{}", m.stderr);
    let server = serve(embedded(&corpus));
    let (listed, _) = get(server.port, &format!("/api/indexes/{SMALL_INDEX}"));
    let listed: serde_json::Value = serde_json::from_str(&listed).expect("index JSON");
    assert_eq!(listed["pending_embeddings"], 0, "every chunk has its vector");
    println!("index {SMALL_INDEX}: {} chunks with MiniLM vectors, embedded store", listed["chunks"]);
    for q in QUERIES {
        get(server.port, &format!("/api/search?q={}&index={SMALL_INDEX}&hybrid", enc(q)));
    }
    let mut cached = Vec::new();
    for _ in 0..ROUNDS {
        for q in QUERIES {
            let (body, ms) = get(server.port, &format!("/api/search?q={}&index={SMALL_INDEX}&hybrid", enc(q)));
            let value: serde_json::Value = serde_json::from_str(&body).expect("search JSON");
            assert_eq!(value["cached_embedding"], true, "{value}");
            cached.push(ms);
        }
    }
    let embedder = minilm_server_embedder(&services.ollama_url, 60);
    let run_id = std::process::id();
    let mut uncached = Vec::new();
    let mut embed_only = Vec::new();
    for (i, q) in QUERIES.iter().enumerate() {
        // New texts each time, so neither the server nor the embedding server's cache answers.
        let started = Instant::now();
        embedder.embed_query(&format!("{q} (alone {run_id}-{i})")).expect("embed");
        embed_only.push(started.elapsed().as_secs_f64() * 1000.0);
        let text = format!("{q} (variant {run_id}-{i})");
        let (body, ms) = get(server.port, &format!("/api/search?q={}&index={SMALL_INDEX}&hybrid", enc(&text)));
        let value: serde_json::Value = serde_json::from_str(&body).expect("search JSON");
        assert_eq!(value["cached_embedding"], false, "{value}");
        uncached.push(ms);
    }
    println!("/api/search, hybrid:");
    report("query vector cached by the server", &mut cached);
    report("every query embedded", &mut uncached);
    report("one MiniLM query embedding alone", &mut embed_only);
}
