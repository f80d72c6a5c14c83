//! MCP server benchmark (not a test), on the embedded store and on PostgreSQL side by side.
//!
//!   cargo bench --bench mcp                   # both backends
//!   cargo bench --bench mcp -- --only sqlite  # one backend (sqlite or postgres)
//!
//! With a real MCP client — rmcp's own client in this process, over the server's
//! stdin/stdout, so no Python start-up or SDK overhead is counted — it measures:
//! 1. the time from spawning `cocosearch mcp` to a successful `initialize` (target ≤ 200 ms);
//! 2. `search_code` latency on an index of a few thousand chunks (part of the Python standard
//!    library), with the query vector cached by the server (target p95 ≤ 20 ms plus one
//!    query embedding) and with every query embedded, next to one MiniLM embedding alone;
//! 3. the server's resident memory afterwards, from /proc/<pid>/status (target ≤ 60 MB).

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::*;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;

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
    "rotate log files when they get large",
    "cancel a task that waits for a future",
    "quote special characters in a query string",
    "HTTPConnection.request",
    "json.loads",
    "TimeoutError",
    "assertEqual",
    "\"Content-Type\"",
    "create a subprocess and read its output asynchronously",
    "encode a header with a charset",
    "skip a test when a condition holds",
];
/// Rounds of the cached queries.
const ROUNDS: usize = 10;
/// Rounds of the queries with a new text each time, so every one is embedded.
const EMBEDDED_ROUNDS: usize = 3;
/// Server starts measured.
const STARTS: usize = 10;

/// What one backend's server did.
struct Figures {
    start_p50: f64,
    cached_p50: f64,
    cached_p95: f64,
    inside_p50: f64,
    embedded_p50: f64,
    embedded_p95: f64,
    embed_alone_p50: f64,
    rss_mb: f64,
    hwm_mb: f64,
}

fn main() {
    rusage_helper();
    let services = services();
    banner("MCP");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let mut table = Table::new(
        "backend",
        &[
            "spawn → initialize p50",
            "search_code cached p50 / p95",
            "search itself p50",
            "every query embedded p50 / p95",
            "RSS (peak)",
        ],
    );
    for backend in backends() {
        let small = small_index(&services, backend);
        println!(
            "
{backend} (load averages {})",
            load_averages()
        );
        let f = runtime.block_on(bench(&services, &small));
        table.row(
            backend.as_str(),
            vec![
                format!("{:.1} ms", f.start_p50),
                format!("{:.1} / {:.1} ms", f.cached_p50, f.cached_p95),
                format!("{:.1} ms", f.inside_p50),
                format!(
                    "{:.1} / {:.1} ms (one embedding alone {:.1} ms)",
                    f.embedded_p50, f.embedded_p95, f.embed_alone_p50
                ),
                format!("{:.0} MB ({:.0} MB)", f.rss_mb, f.hwm_mb),
            ],
        );
    }
    table.print(&format!("Side by side (load averages now {})", load_averages()));
}

/// The server, spawned with a clean environment in the corpus, serving stdio.
fn server(services: &Services, target: &Target, corpus: &Path) -> tokio::process::Command {
    let std_cmd = cocosearch(corpus, target, &services.ollama_url);
    let mut cmd = tokio::process::Command::new(std_cmd.get_program());
    cmd.current_dir(corpus);
    for (key, value) in std_cmd.get_envs() {
        match value {
            Some(v) => cmd.env(key, v),
            None => cmd.env_remove(key),
        };
    }
    cmd.env("COCOSEARCH_INDEX_NAME", SMALL_INDEX)
        .args(["mcp", "--project-from-cwd"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    cmd
}

fn arguments(value: serde_json::Value) -> rmcp::model::JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

/// The server's resident memory now, its peak, and how much of it now is file-backed (the
/// embedded store's memory-mapped file), in MB.
fn memory(pid: u32) -> (f64, f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"), field("RssFile:"))
}

async fn bench(services: &Services, small: &SmallIndex) -> Figures {
    let (target, corpus, index_chunks) = (&small.target, small.corpus.as_path(), small.chunks);
    // 1. Spawn to initialize.
    let mut starts = Vec::new();
    for _ in 0..STARTS {
        let started = Instant::now();
        let mut child = server(services, target, corpus).spawn().expect("spawn cocosearch mcp");
        let transport = (child.stdout.take().expect("stdout"), child.stdin.take().expect("stdin"));
        let client = ().serve(transport).await.expect("initialize");
        starts.push(started.elapsed().as_secs_f64() * 1000.0);
        drop(client);
        let _ = child.kill().await;
    }
    println!("\n[1] spawn → initialize answered (rmcp client, stdio, {STARTS} starts)");
    println!(
        "    p50 {:.1} ms, max {:.1} ms (target ≤ 200 ms)",
        percentile(&mut starts.clone(), 50.0),
        percentile(&mut starts, 100.0)
    );

    // 2. search_code.
    let mut child = server(services, target, corpus).spawn().expect("spawn cocosearch mcp");
    let pid = child.id().expect("pid");
    let transport = (child.stdout.take().expect("stdout"), child.stdin.take().expect("stdin"));
    let client = ().serve(transport).await.expect("initialize");
    let search = |query: String| {
        let params = CallToolRequestParams::new("search_code")
            .with_arguments(arguments(serde_json::json!({ "query": query, "limit": 10 })));
        let client = &client;
        async move {
            let started = Instant::now();
            let result = client.call_tool(params).await.expect("search_code");
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            assert_ne!(result.is_error, Some(true), "search_code failed: {:?}", result.content);
            let value = result.structured_content.unwrap_or_default();
            (ms, value)
        }
    };
    // Warm up: the first call connects, resolves the project and measures freshness.
    let (first_ms, first) = search(QUERIES[0].to_string()).await;
    assert_eq!(first["project"]["index"], SMALL_INDEX, "{first}");
    for q in QUERIES {
        search(q.to_string()).await;
    }
    let mut cached = Vec::new();
    let mut inside = Vec::new();
    for _ in 0..ROUNDS {
        for q in QUERIES {
            let (ms, value) = search(q.to_string()).await;
            assert!(value["cached_embedding"] == true || value["mode"] == "keyword", "{value}");
            cached.push(ms);
            inside.push(value["took_ms"].as_f64().unwrap_or(0.0));
        }
    }
    // Every query embedded, next to one query embedding alone (from a blocking thread, as the
    // server does it). The two alternate, so both meet the same load on the machine.
    let embedder = minilm_server_embedder(&services.ollama_url, 60);
    let mut uncached = Vec::new();
    let mut embed_only = Vec::new();
    // Unique per process and backend: the shared server caches what it embedded before.
    let run_id = format!("{}-{}", std::process::id(), target.label());
    for round in 0..EMBEDDED_ROUNDS {
        for (i, q) in QUERIES.iter().enumerate() {
            let text = format!("{q} (embedding {run_id}-{round}-{i})");
            let e = std::sync::Arc::clone(&embedder);
            let ms = tokio::task::spawn_blocking(move || {
                let started = Instant::now();
                e.embed_query(&text).expect("embed");
                started.elapsed().as_secs_f64() * 1000.0
            })
            .await
            .expect("embed thread");
            embed_only.push(ms);
            let (ms, value) = search(format!("{q} (variant {run_id}-{round}-{i})")).await;
            assert_eq!(value["cached_embedding"], false, "{value}");
            uncached.push(ms);
        }
    }
    let (rss, hwm, file_backed) = memory(pid);
    println!(
        "\n[2] search_code over MCP (rmcp client, stdio), index {SMALL_INDEX} of {index_chunks} chunks, limit 10, smart context"
    );
    println!("    first call (connect, project, freshness scan): {first_ms:.1} ms");
    println!(
        "    query vector cached: p50 {:.1} ms, p95 {:.1} ms ({} calls, target p95 ≤ 20 ms)",
        percentile(&mut cached.clone(), 50.0),
        percentile(&mut cached, 95.0),
        QUERIES.len() * ROUNDS
    );
    println!(
        "      of which the search itself (took_ms): p50 {:.1} ms, p95 {:.1} ms",
        percentile(&mut inside.clone(), 50.0),
        percentile(&mut inside, 95.0)
    );
    let (embed_p50, embed_p95) = (percentile(&mut embed_only.clone(), 50.0), percentile(&mut embed_only, 95.0));
    let (uncached_p50, uncached_p95) = (percentile(&mut uncached.clone(), 50.0), percentile(&mut uncached, 95.0));
    println!(
        "    every query embedded: p50 {uncached_p50:.1} ms, p95 {uncached_p95:.1} ms ({} calls); one MiniLM query embedding alone: p50 {embed_p50:.1} ms, p95 {embed_p95:.1} ms",
        QUERIES.len() * EMBEDDED_ROUNDS
    );
    println!(
        "      over one embedding: p50 {:+.1} ms, p95 {:+.1} ms (target p95 ≤ 20 ms)",
        uncached_p50 - embed_p50,
        uncached_p95 - embed_p95
    );
    println!("\n[3] server memory after {} calls", QUERIES.len() * (ROUNDS + 1 + EMBEDDED_ROUNDS) + 1);
    println!(
        "    VmRSS {rss:.1} MB ({file_backed:.1} MB of it file-backed), VmHWM (peak) {hwm:.1} MB (target ≤ 60 MB)"
    );
    drop(client);
    let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    Figures {
        start_p50: pct(&starts, 50.0),
        cached_p50: pct(&cached, 50.0),
        cached_p95: pct(&cached, 95.0),
        inside_p50: pct(&inside, 50.0),
        embedded_p50: uncached_p50,
        embedded_p95: uncached_p95,
        embed_alone_p50: embed_p50,
        rss_mb: rss,
        hwm_mb: hwm,
    }
}
