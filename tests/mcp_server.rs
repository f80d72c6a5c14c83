//! `cocosearch mcp` driven by a real MCP client — the official Python SDK (`mcp` from PyPI,
//! installed by `scripts/testenv.py` into its virtualenv) — over stdio and streamable HTTP,
//! on the embedded store with real embeddings. Two tests also run on PostgreSQL, the
//! end-to-end set: a search and the index's statistics through a client (the small project
//! indexed by the CLI), and `/health` with `/api/stats`.
//!
//! `tests/mcp/client.py` runs one scenario per call and prints a JSON report of what the
//! client saw; the assertions are here. The HTTP guard (Origin, Host, token) is checked with
//! raw HTTP requests, so the exact status codes are visible.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cocosearch::store::Backend;
use serde_json::Value;

use crate::cstest;
use crate::support::fake_ollama::FakeOllama;
use crate::support::{TestCtx, run, start_held_run, write_sample_project};

/// How long one client scenario may take before the test gives up on it.
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(300);

/// The test virtualenv's python, with the MCP SDK installed (`testenv.py python`).
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/testenv.py");
        let out = Command::new("python3")
            .arg(&script)
            .arg("python")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(out.status.success(), "testenv.py python failed:\n{}", String::from_utf8_lossy(&out.stderr));
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// Runs `tests/mcp/client.py SCENARIO` with the environment `server` would have (database,
/// embedding server, model) and returns its report.
pub(crate) fn scenario(server: &Command, name: &str, args: &[&str]) -> Value {
    let mut cmd = Command::new(python());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    for (key, value) in server.get_envs() {
        match value {
            Some(value) => cmd.env(key, value),
            None => cmd.env_remove(key),
        };
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    cmd.arg(script).arg(name).arg("--bin").arg(env!("CARGO_BIN_EXE_cocosearch")).args(args);
    let (code, stdout, stderr) = output_within(cmd, SCENARIO_TIMEOUT);
    assert_eq!(code, Some(0), "client.py {name} failed\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("client.py {name} printed no JSON ({e}):\n{stdout}\n{stderr}"))
}

/// Runs `cmd` to the end, or kills it after `limit`.
pub(crate) fn output_within(cmd: Command, limit: Duration) -> (Option<i32>, String, String) {
    let (code, out, err) = crate::support::bytes_within(cmd, limit);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// A small Python project: the files the assertions look for, plus `extra` generated modules.
/// Their text names the test's own directory, so the embedding server's cache of vectors
/// (it keeps them across runs) cannot answer for them: indexing them takes real work.
fn project(t: &TestCtx, extra: usize) {
    write_sample_project(t);
    let nonce = t.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for i in 0..extra {
        let body: String = (0..4)
            .map(|j| {
                format!(
                    "def compute_report_{i}_{j}(rows, threshold={j}):\n    \"\"\"Summarise report {i} part {j} of {nonce}: keep rows above the threshold and total them.\"\"\"\n    kept = [row for row in rows if row.value > threshold]\n    total = sum(row.value for row in kept)\n    average = total / max(len(kept), 1)\n    return {{'report': {i}, 'part': {j}, 'total': total, 'average': average, 'rows': len(kept)}}\n\n\n"
                )
            })
            .collect();
        t.write(&format!("reports/report_{i:03}.py"), body);
    }
}

fn index_with_cli(t: &TestCtx) {
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
}

pub(crate) fn index_name(t: &TestCtx) -> String {
    cocosearch::config::sanitize_index_name(&t.path().file_name().expect("name").to_string_lossy())
}

pub(crate) fn root(t: &TestCtx) -> String {
    t.path().canonicalize().expect("canonical root").display().to_string()
}

pub(crate) fn text(v: &Value) -> &str {
    v["text"].as_str().unwrap_or_default()
}

pub(crate) fn paths(search: &Value) -> Vec<String> {
    search["json"]["results"]
        .as_array()
        .map(|r| r.iter().filter_map(|h| h["path"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// A `cocosearch` HTTP server child (`mcp --transport http`, or `dashboard`), killed on drop.
pub(crate) struct HttpServer {
    child: Child,
    pub(crate) port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl HttpServer {
    /// `cocosearch mcp --transport http` on a free port, with `extra` arguments.
    pub(crate) fn start(cmd: Command, extra: &[&str]) -> HttpServer {
        HttpServer::spawn(cmd, &["mcp", "--transport", "http"], extra)
    }

    /// `cocosearch <command> --port <free port> <extra>`, once it listens.
    pub(crate) fn spawn(mut cmd: Command, command: &[&str], extra: &[&str]) -> HttpServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("server.log");
        let child = cmd
            .args(command)
            .args(["--port", &port.to_string()])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("spawn cocosearch");
        let mut server = HttpServer { child, port, log, _dir: dir };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the server exited with {status}:\n{}", server.log());
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the server did not listen:\n{}", server.log());
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// The server's root, `http://127.0.0.1:<port>`.
    pub(crate) fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The MCP endpoint.
    pub(crate) fn url(&self) -> String {
        format!("{}/mcp", self.base_url())
    }

    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The server's threads now, from `/proc`.
    pub(crate) fn threads(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("Threads:").and_then(|v| v.trim().parse().ok()))
            .unwrap_or(0)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP exchange.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: String,
}

/// Sends a raw HTTP/1.1 request (so every header is exactly what the test says) and reads the
/// status, the headers and the body (up to its length, or the first SSE event).
pub(crate) fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data);
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| l.to_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>()))
                .and_then(Result::ok);
            match length {
                Some(length) if rest.len() >= length => break,
                None if rest.contains("\n\n") => break,
                _ => {}
            }
        }
    }
    let text = String::from_utf8_lossy(&data).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Reply { status, head: head.to_string(), body: body.to_string() }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

fn post_initialize(port: u16, extra: &[(&str, &str)]) -> Reply {
    let mut headers = vec![("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")];
    headers.extend_from_slice(extra);
    http(port, "POST", "/mcp", &headers, INITIALIZE)
}

cstest!(mcp_stdio_session_indexes_in_the_background_searches_and_keeps_stdout_clean, |t| {
    project(&t, 120);
    let elsewhere = tempfile::tempdir().expect("server cwd");
    let stdout_log = elsewhere.path().join("server-stdout.jsonl");
    let r = scenario(
        &t.cmd_db(),
        "session",
        &[
            "--project",
            &root(&t),
            "--cwd",
            &elsewhere.path().display().to_string(),
            "--stdout-log",
            &stdout_log.display().to_string(),
        ],
    );

    // The handshake.
    assert_eq!(r["protocol_version"], "2025-11-25", "{r}");
    assert_eq!(r["server_info"]["name"], "cocosearch");
    assert_eq!(r["server_info"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(r["instructions"].as_str().is_some_and(|s| s.contains("search_code")), "{r}");

    // tools/list: the everyday tools only (search, grep, the code graph, indexing), with
    // descriptions, no union types in any schema, and small: the aliases, the task, admin and
    // debug tools are callable but listed only when mcp.tools asks for them.
    let tools = r["tools"].as_object().expect("tools");
    let mut names: Vec<&str> = tools.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "find_symbol",
            "get_call_chain",
            "get_change_impact",
            "get_class_source",
            "get_dependencies",
            "get_dependents",
            "get_file_dependencies",
            "get_file_dependents",
            "get_file_structure",
            "get_function_source",
            "grep_code",
            "index_codebase",
            "index_stats",
            "index_status",
            "search_code",
        ]
    );
    let listed = r["tools_list_characters"].as_u64().expect("size");
    assert!(listed <= 16_000, "tools/list is {listed} characters");
    for (name, tool) in tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 40), "{name} needs a description");
    }
    for (name, unions) in r["schema_unions"].as_object().expect("unions") {
        assert_eq!(unions, &serde_json::json!([]), "{name} has union types: {}", tools[name]["schema"]);
    }
    let search_schema = &tools["search_code"]["schema"];
    assert_eq!(search_schema["required"], serde_json::json!(["query"]));
    for param in [
        "query",
        "limit",
        "offset",
        "language",
        "symbol_type",
        "symbol_name",
        "around",
        "smart_context",
        "path",
        "max_lines",
        "include_deps",
        "definitions",
    ] {
        assert!(search_schema["properties"][param].is_object(), "search_code.{param} missing: {search_schema}");
    }
    assert!(r["instructions"].as_str().is_some_and(|s| s.contains("index_name")), "shared parameters: {r}");

    // index_codebase answers at once with a job; the job finishes; progress was reported.
    let index = &r["index"];
    assert_eq!(index["is_error"], false, "{index}");
    let job = &index["json"]["job"];
    assert!(job["job_id"].as_str().is_some_and(|id| id.starts_with("job-")), "{index}");
    assert_eq!(index["json"]["project"]["source"], "roots", "{index}");
    assert_eq!(index["json"]["project"]["root"], root(&t), "{index}");
    assert_eq!(index["structured"], index["json"], "structuredContent mirrors the text");
    let status = &r["status"]["json"]["job"];
    assert_eq!(status["state"], "completed", "{status}");
    assert_eq!(status["summary"]["files"]["added"], 123, "{status}");
    assert_eq!(status["summary"]["embeddings"]["pending"], 0, "{status}");
    let whole_run_ms = status["summary"]["elapsed_ms"].as_f64().expect("elapsed");
    let call_ms = r["index_seconds"].as_f64().expect("call time") * 1000.0;
    assert!(
        whole_run_ms > 1000.0 && call_ms < whole_run_ms / 2.0,
        "index_codebase must not wait for the run: call {call_ms:.0} ms, run {whole_run_ms:.0} ms"
    );
    assert_eq!(job["state"], "running", "the job was still running when the call answered: {job}");
    let progress = r["progress"].as_array().expect("progress");
    assert!(!progress.is_empty(), "a progress notification arrives for the call's token");
    for p in progress {
        assert_eq!(p["total"], 100.0, "{p}");
        assert!((0.0..=100.0).contains(&p["progress"].as_f64().expect("progress")), "{p}");
    }

    // search_code: the project came from the roots; results like `cocosearch search --json`.
    let search = &r["search"];
    assert_eq!(search["is_error"], false, "{search}");
    assert_eq!(paths(search)[0], "src/uploads.py", "{search}");
    let s = &search["json"];
    assert_eq!(s["project"]["source"], "roots", "{s}");
    assert_eq!(s["project"]["root"], root(&t), "{s}");
    assert_eq!(s["project"]["index"], index_name(&t), "{s}");
    assert_eq!(s["indexes"], serde_json::json!([index_name(&t)]), "{s}");
    assert_eq!(s["mode"], "hybrid", "{s}");
    assert_eq!(s["freshness"]["stale"], false, "{s}");
    for key in ["query", "query_kind", "degraded", "warnings", "took_ms", "cached_embedding", "results", "notes"] {
        assert!(s.get(key).is_some(), "{key} missing: {s}");
    }
    let hit = &s["results"][0];
    for key in ["index", "path", "start_line", "end_line", "language", "symbol", "score", "content", "stale"] {
        assert!(hit.get(key).is_some(), "result field {key} missing: {hit}");
    }
    assert_eq!(hit["symbol"]["name"], "upload_with_retry", "{hit}");

    // Filters and max_lines.
    let filtered = &r["search_filtered"]["json"];
    let results = filtered["results"].as_array().expect("results");
    assert!(!results.is_empty(), "{filtered}");
    for hit in results {
        assert_eq!(hit["language"], "python", "{hit}");
        assert!(hit["content"].as_str().expect("content").lines().count() <= 2, "{hit}");
    }
    // The methods of the top files most likely meant, ranked.
    let definitions = filtered["definitions"].as_array().expect("definitions asked for");
    assert_eq!(definitions.len(), 2, "{filtered}");
    assert_eq!(definitions[0]["name"], "UserStore.get_user_by_id", "{filtered}");
    assert_eq!(definitions[0]["path"], "src/users.py", "{filtered}");
    assert!(results.iter().any(|h| h["truncated_lines"].as_u64() > Some(0)), "a long hit says it was cut: {filtered}");

    // min_score, around and mode, as the command line takes them.
    let all = s["results"].as_array().expect("results");
    let floor = r["search_min_score"]["json"]["results"].as_array().expect("results");
    assert!(floor.len() < all.len(), "min_score drops the weaker hits: {}", r["search_min_score"]);
    assert!(floor.iter().all(|h| h["score"].as_f64() >= Some(0.9)), "{}", r["search_min_score"]);
    let around = r["search_around"]["json"]["results"].as_array().expect("results");
    assert!(!around.is_empty(), "{}", r["search_around"]);
    for hit in around {
        let (before, after) = (hit["before"].as_array().expect("before"), hit["after"].as_array().expect("after"));
        assert!(before.len() <= 2 && after.len() <= 2, "{hit}");
        let first = hit["start_line"].as_u64().expect("start");
        assert_eq!(before.len() as u64, (first - 1).min(2), "two lines before, where the file has them: {hit}");
    }
    assert!(around.iter().any(|h| !h["after"].as_array().expect("after").is_empty()), "{}", r["search_around"]);
    assert_eq!(r["search_keyword"]["json"]["mode"], "keyword", "{}", r["search_keyword"]);

    // index_stats and list_indexes.
    assert_eq!(r["stats"]["json"]["name"], index_name(&t), "{}", r["stats"]);
    assert_eq!(r["stats"]["json"]["files"], 123, "{}", r["stats"]);
    let listed: Vec<&str> =
        r["list"]["json"]["indexes"].as_array().expect("indexes").iter().filter_map(|i| i["name"].as_str()).collect();
    assert_eq!(listed, vec![index_name(&t).as_str()], "{}", r["list"]);

    // Bad arguments: tool errors that say what is wrong and what is allowed; the server lives on.
    let bad = &r["bad"];
    let expect_error = |case: &str, fragments: &[&str]| {
        assert_eq!(bad[case]["is_error"], true, "{case}: {}", bad[case]);
        for f in fragments {
            assert!(text(&bad[case]).contains(f), "{case} should mention {f:?}: {}", bad[case]);
        }
    };
    expect_error("wrong_type", &["`limit` must be an integer", "query (string, required)"]);
    expect_error("unknown_param", &["unknown parameter `qurey`", "did you mean `query`"]);
    expect_error("missing_required", &["missing required parameter `index_name`"]);
    expect_error("bad_language", &["unknown language \"klingon\"", "python"]);
    expect_error("no_such_index", &["no index named no_such_index", "list_indexes"]);
    expect_error("bad_index_name", &["Bad Name!", "lowercase"]);
    expect_error("outside_roots", &["refusing to index /etc: /etc is a system directory"]);
    expect_error("escape_roots", &["refusing to index /: / is the filesystem root"]);
    assert!(bad["unknown_tool"]["raised"].as_str().is_some_and(|m| m.contains("unknown tool")), "{bad}");
    assert_eq!(paths(&r["after_bad"])[0], "src/users.py", "{}", r["after_bad"]);
    assert!(r["roots_calls"].as_u64() >= Some(1), "the server asked for the roots: {r}");

    // Everything the server wrote to stdout was JSON-RPC, through the whole session.
    let log = std::fs::read_to_string(&stdout_log).expect("stdout copy");
    let mut methods = Vec::new();
    let mut results = 0;
    for (i, line) in log.lines().enumerate() {
        let message: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout line {} is not JSON ({e}): {line:?}", i + 1));
        assert_eq!(message["jsonrpc"], "2.0", "stdout line {}: {line}", i + 1);
        if let Some(m) = message["method"].as_str() {
            methods.push(m.to_string());
        }
        results += usize::from(message.get("result").is_some() || message.get("error").is_some());
    }
    // initialize, tools/list, index_codebase, each index_status poll, 5 searches, index_stats,
    // list_indexes, 9 misuses and the search after them: one answer each; and a second
    // tools/list, which the official client sends before calling a tool it was not shown
    // (list_indexes is listed only with mcp.tools: [admin]).
    let polls = r["polls"].as_u64().expect("polls") as usize;
    assert_eq!(results, 21 + polls, "the copy holds the whole session");
    assert!(methods.iter().any(|m| m == "roots/list"), "{methods:?}");
    assert!(methods.iter().any(|m| m == "notifications/progress"), "{methods:?}");
});

cstest!(mcp_stdio_new_protocol_asks_for_roots_and_reports_a_stale_index, both_backends, |t| {
    project(&t, 0);
    index_with_cli(&t);
    // Changed after indexing: one file edited, one added.
    t.write("src/users.py", "class UserStore:\n    pass\n");
    t.write("src/billing.py", "def charge(invoice):\n    return invoice\n");
    let elsewhere = tempfile::tempdir().expect("server cwd");
    // Without a watcher the index stays behind the files, and the answers say so.
    let args = ["--project", &root(&t), "--cwd", &elsewhere.path().display().to_string(), "--mode", "auto"];
    let r = scenario(&t.cmd_db(), "roots", &[&args[..], &["--server-arg=--no-watch"]].concat());
    // 2026-07-28 has no server-to-client requests: the roots come back through an
    // InputRequiredResult that the client fulfils and retries.
    assert_eq!(r["protocol_version"], "2026-07-28", "{r}");
    assert!(r["roots_calls"].as_u64() >= Some(2), "both calls asked for the roots: {r}");
    let s = &r["search"]["json"];
    assert_eq!(s["project"]["source"], "roots", "{}", r["search"]);
    assert_eq!(s["project"]["root"], root(&t), "{s}");
    assert_eq!(paths(&r["search"])[0], "src/uploads.py", "{s}");
    assert_eq!(s["freshness"]["stale"], true, "{s}");
    assert_eq!(s["freshness"]["files_added"], 1, "{s}");
    assert_eq!(s["freshness"]["files_modified"], 1, "{s}");
    let notes = s["notes"].to_string();
    assert!(notes.contains("behind the files") && notes.contains("index_codebase"), "{notes}");
    assert_eq!(r["stats"]["json"]["project"]["source"], "roots", "{}", r["stats"]);
    assert_eq!(r["stats"]["json"]["freshness"]["stale"], true, "{}", r["stats"]);
});

cstest!(mcp_stdio_without_roots_uses_the_default_project_or_says_what_to_do, |t| {
    project(&t, 0);
    index_with_cli(&t);
    std::fs::create_dir_all(t.path().join("src/deep")).expect("mkdir");
    let deep = t.path().join("src/deep").display().to_string();
    let name = index_name(&t);

    // No roots, no default: the call fails with the ways out; naming the index works.
    let r = scenario(&t.cmd_db(), "no-roots", &["--project", &root(&t), "--cwd", &deep, "--index", &name]);
    assert_eq!(r["search"]["is_error"], true, "{r}");
    for fragment in
        ["cannot tell which project", "index_name", "--project-from-cwd", "COCOSEARCH_PROJECT_PATH", "?project="]
    {
        assert!(text(&r["search"]).contains(fragment), "{fragment}: {}", r["search"]);
    }
    assert_eq!(r["by_name"]["is_error"], false, "{}", r["by_name"]);
    assert_eq!(r["by_name"]["json"]["project"]["source"], "index_name", "{}", r["by_name"]);
    assert_eq!(r["by_name"]["json"]["project"]["root"], root(&t), "{}", r["by_name"]);

    // --project-from-cwd: the working directory, walked up to the git root.
    let r = scenario(
        &t.cmd_db(),
        "no-roots",
        &["--project", &root(&t), "--cwd", &deep, "--server-arg=--project-from-cwd", "--mode", "auto"],
    );
    assert_eq!(r["search"]["json"]["project"]["source"], "cwd", "{}", r["search"]);
    assert_eq!(r["search"]["json"]["project"]["root"], root(&t), "{}", r["search"]);
    assert_eq!(paths(&r["search"])[0], "src/uploads.py", "{}", r["search"]);

    // COCOSEARCH_PROJECT_PATH.
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_PROJECT_PATH", t.path());
    let elsewhere = tempfile::tempdir().expect("server cwd");
    let r = scenario(&cmd, "no-roots", &["--project", &root(&t), "--cwd", &elsewhere.path().display().to_string()]);
    assert_eq!(r["search"]["json"]["project"]["source"], "env", "{}", r["search"]);
    assert_eq!(r["search"]["json"]["project"]["root"], root(&t), "{}", r["search"]);
});

cstest!(mcp_http_roots_and_per_session_project_parameter, |t| {
    project(&t, 0);
    index_with_cli(&t);
    let other = TestCtx::new("mcp_http_other_project");
    other.write("lib/uploads.rb", "def retry_failed_uploads(queue)\n  queue.each { |u| u.retry! }\nend\n");
    let mut cmd = t.cmd_db();
    cmd.current_dir(other.path());
    let out = run(cmd, &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");

    let elsewhere = tempfile::tempdir().expect("server cwd");
    let mut cmd = t.cmd_db();
    cmd.current_dir(elsewhere.path());
    let server = HttpServer::start(cmd, &[]);

    // Roots over HTTP, with the initialize handshake (roots/list goes over SSE) and with the
    // 2026-07-28 protocol (InputRequiredResult).
    for mode in ["legacy", "auto"] {
        let r = scenario(&t.cmd_db(), "roots", &["--project", &root(&t), "--url", &server.url(), "--mode", mode]);
        assert!(r["roots_calls"].as_u64() >= Some(1), "{mode}: {r}\n{}", server.log());
        assert_eq!(r["search"]["json"]["project"]["source"], "roots", "{mode}: {}", r["search"]);
        assert_eq!(r["search"]["json"]["project"]["root"], root(&t), "{mode}: {}", r["search"]);
    }

    // ?project= belongs to its session: two sessions at once, each with its own project.
    let other_root = other.path().canonicalize().expect("canonical").display().to_string();
    for mode in ["legacy", "auto"] {
        let r = scenario(
            &t.cmd_db(),
            "http-project",
            &["--project", &root(&t), "--other-project", &other_root, "--url", &server.url(), "--mode", mode],
        );
        let (a, b) = (&r["a"]["json"], &r["b"]["json"]);
        assert_eq!(a["project"]["source"], "query_param", "{mode}: {}", r["a"]);
        assert_eq!(a["project"]["root"], root(&t), "{mode}: {a}");
        assert_eq!(b["project"]["source"], "query_param", "{mode}: {}", r["b"]);
        assert_eq!(b["project"]["root"], other_root, "{mode}: {b}");
        let found = paths(&r["a"]);
        assert!(!found.is_empty() && found.iter().all(|p| !p.ends_with(".rb")), "{a}");
        assert_eq!(paths(&r["b"]), vec!["lib/uploads.rb"], "{b}");
        assert_eq!(r["a_again"]["json"]["project"]["root"], root(&t), "{}", r["a_again"]);
    }
});

cstest!(mcp_http_rejects_foreign_origins_and_hosts_and_checks_the_token, |t| {
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_MCP_ALLOWED_ORIGINS", "https://app.example.com");
    let server = HttpServer::start(cmd, &[]);
    let port = server.port;

    let evil = post_initialize(port, &[("Origin", "https://evil.example")]);
    assert_eq!(evil.status, 403, "{evil:?}");
    assert!(evil.body.contains("not allowed") && evil.body.contains("mcp.allowedOrigins"), "{evil:?}");
    let evil_health = http(port, "GET", "/health", &[("Origin", "http://evil.example:3000")], "");
    assert_eq!(evil_health.status, 403, "{evil_health:?}");
    let rebinding = post_initialize(port, &[("Host", "evil.example:3000")]);
    assert_eq!(rebinding.status, 403, "{rebinding:?}");
    for origin in ["http://localhost:5173", "http://127.0.0.1", "https://app.example.com"] {
        let ok = post_initialize(port, &[("Origin", origin)]);
        assert_eq!(ok.status, 200, "{origin}: {ok:?}\n{}", server.log());
        assert!(ok.body.contains("\"serverInfo\"") && ok.body.contains("cocosearch"), "{origin}: {ok:?}");
    }
    // No Origin at all (every non-browser client) is fine.
    assert_eq!(post_initialize(port, &[]).status, 200);
    drop(server);

    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_MCP_TOKEN", "s3cret-token");
    let server = HttpServer::start(cmd, &[]);
    let port = server.port;
    let missing = post_initialize(port, &[]);
    assert_eq!(missing.status, 401, "{missing:?}");
    assert!(missing.head.to_lowercase().contains("www-authenticate: bearer"), "{missing:?}");
    assert!(!missing.body.contains("s3cret"), "the token is never echoed: {missing:?}");
    assert_eq!(post_initialize(port, &[("Authorization", "Bearer wrong")]).status, 401);
    assert_eq!(http(port, "GET", "/health", &[], "").status, 401);
    assert_eq!(http(port, "GET", "/api/stats", &[("Authorization", "Bearer nope")], "").status, 401);
    assert_eq!(post_initialize(port, &[("Authorization", "Bearer s3cret-token")]).status, 200);
    let r =
        scenario(&t.cmd_db(), "tools", &["--project", &root(&t), "--url", &server.url(), "--token", "s3cret-token"]);
    assert_eq!(r["tools"].as_array().map(Vec::len), Some(15), "the everyday tools: {r}");
    assert_eq!(r["schema_unions"]["search_code"], serde_json::json!([]), "{r}");
});

cstest!(mcp_http_health_and_api_stats, both_backends, |t| {
    project(&t, 0);
    index_with_cli(&t);
    let server = HttpServer::start(t.cmd_db(), &[]);

    let health = http(server.port, "GET", "/health", &[], "");
    assert_eq!(health.status, 200, "{health:?}");
    let h: Value = serde_json::from_str(&health.body).expect("health JSON");
    assert_eq!(h["status"], "ok", "{h}");
    assert_eq!(h["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(h["database"]["reachable"], true, "{h}");
    let (backend, choice) = match t.backend() {
        Backend::Postgres => ("postgres", "postgres (auto: database.url is set)"),
        Backend::Sqlite => ("sqlite", "sqlite (database.backend)"),
    };
    assert_eq!(h["database"]["backend"], backend, "{h}");
    assert_eq!(h["database"]["backend_choice"], choice, "{h}");
    assert!(!h["database"]["location"].as_str().unwrap_or_default().is_empty(), "{h}");
    assert_eq!(h["embedder"]["reachable"], true, "{h}");
    assert_eq!(h["embedder"]["model"], crate::support::TEST_MODEL, "{h}");

    let stats = http(server.port, "GET", "/api/stats", &[], "");
    assert_eq!(stats.status, 200, "{stats:?}");
    let mut api: Value = serde_json::from_str(&stats.body).expect("stats JSON");
    let out = run(t.cmd_db(), &["stats", "--json", "--all"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut cli = out.json();
    // Timing fields differ between two measurements; everything else must be identical.
    for all in [&mut api, &mut cli] {
        for s in all.as_array_mut().expect("array") {
            s["freshness"]["scan_ms"] = Value::Null;
            s["freshness"]["age_days"] = Value::Null;
        }
    }
    assert_eq!(api, cli);
    assert_eq!(api[0]["name"], index_name(&t));

    // The PostgreSQL server gone: 503 and why.
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    let mut cmd = t.cmd_pg();
    cmd.env("COCOSEARCH_DATABASE_URL", format!("postgresql://u:pw@127.0.0.1:{port}/db"));
    let dead = HttpServer::start(cmd, &[]);
    let health = http(dead.port, "GET", "/health", &[], "");
    assert_eq!(health.status, 503, "{health:?}");
    let h: Value = serde_json::from_str(&health.body).expect("health JSON");
    assert_eq!(h["status"], "unavailable", "{h}");
    assert_eq!(h["database"]["reachable"], false, "{h}");
    assert!(!health.body.contains(":pw@"), "the password is redacted: {h}");
});

cstest!(mcp_clear_and_fresh_index_refuse_while_another_process_writes, |t| {
    project(&t, 0);
    let name = index_name(&t);
    let fake = FakeOllama::start(8);
    let first = start_held_run(&t, &fake);
    let mut server = t.cmd_db();
    server.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let r = scenario(&server, "busy", &["--project", &root(&t), "--index", &name]);
    fake.behaviour.open();
    let first = first.wait_with_output().expect("wait for the first run");

    for call in ["clear", "fresh", "again"] {
        let reply = &r[call];
        assert_eq!(reply["is_error"], true, "{call}: {reply}");
        assert!(
            text(reply).contains(&format!("index {name} is being written by another run"))
                && text(reply).contains("wait for it to finish"),
            "{call}: {reply}"
        );
    }
    let summary: serde_json::Value = serde_json::from_slice(&first.stdout).expect("summary JSON");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(summary["status"], "completed", "{summary}");
    assert_eq!(summary["files"]["added"], 3, "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    let counts = t.db_store().reader(&name).expect("reader").index_counts().expect("counts");
    let embedded = counts.chunks - counts.pending_embeddings;
    assert_eq!(Some(embedded), summary["chunks"]["written"].as_u64(), "every chunk has its vector: {summary}");
});

/// The `mcp-session-id` header of a reply.
fn session_id(reply: &Reply) -> String {
    reply
        .head
        .lines()
        .find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id")))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| panic!("no session id: {reply:?}"))
}

/// The live sessions `/health` reports.
fn live_sessions(port: u16) -> u64 {
    let health = http(port, "GET", "/health", &[], "");
    let h: Value = serde_json::from_str(&health.body).unwrap_or_else(|e| panic!("health JSON ({e}): {health:?}"));
    h["sessions"]["live"].as_u64().unwrap_or_else(|| panic!("no session count: {h}"))
}

/// A request in the session `id`.
fn in_session(port: u16, id: &str, body: &str) -> Reply {
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Mcp-Session-Id", id),
        ("Mcp-Protocol-Version", "2025-06-18"),
    ];
    http(port, "POST", "/mcp", &headers, body)
}

const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

cstest!(mcp_http_sessions_are_bounded_and_expire_when_idle, |t| {
    // The bound, with sessions that do not expire during the test.
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_MCP_SESSION_IDLE_TIMEOUT", "3600").env("COCOSEARCH_MCP_MAX_SESSIONS", "2");
    let server = HttpServer::start(cmd, &[]);
    let port = server.port;
    let a = post_initialize(port, &[]);
    let b = post_initialize(port, &[]);
    assert_eq!((a.status, b.status), (200, 200), "{a:?}\n{b:?}");
    let (a, b) = (session_id(&a), session_id(&b));
    assert_eq!(live_sessions(port), 2);
    // The third handshake is refused with a JSON-RPC error that names the setting.
    let refused = post_initialize(port, &[]);
    assert_eq!(refused.status, 503, "{refused:?}");
    let error: Value = serde_json::from_str(&refused.body).expect("JSON-RPC error");
    assert_eq!(error["jsonrpc"], "2.0", "{error}");
    assert_eq!(error["id"], 1, "{error}");
    let message = error["error"]["message"].as_str().expect("message");
    assert!(message.contains("too many MCP sessions") && message.contains("mcp.maxSessions"), "{message}");
    assert!(message.contains("mcp.sessionIdleTimeout"), "{message}");
    assert_eq!(live_sessions(port), 2, "a refused handshake leaves nothing behind");
    // Live sessions answer; DELETE frees a place at once.
    assert_eq!(in_session(port, &b, TOOLS_LIST).status, 200);
    let deleted = http(port, "DELETE", "/mcp", &[("Mcp-Session-Id", &a), ("Mcp-Protocol-Version", "2025-06-18")], "");
    assert!(deleted.status < 300, "{deleted:?}");
    assert_eq!(live_sessions(port), 1);
    assert_eq!(post_initialize(port, &[]).status, 200);
    drop(server);

    // Expiry: left alone, a session ends, the count drops and its id gets 404 (the MCP
    // specification's answer for an unknown session, which makes clients initialize again).
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_MCP_SESSION_IDLE_TIMEOUT", "1");
    let server = HttpServer::start(cmd, &[]);
    let port = server.port;
    let idle = post_initialize(port, &[]);
    assert_eq!(idle.status, 200, "{idle:?}");
    let idle = session_id(&idle);
    let started = Instant::now();
    while live_sessions(port) > 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "an idle session never expired:\n{}", server.log());
        std::thread::sleep(Duration::from_millis(200));
    }
    let gone = in_session(port, &idle, TOOLS_LIST);
    assert_eq!(gone.status, 404, "an expired session is not found: {gone:?}");
    assert_eq!(post_initialize(port, &[]).status, 200);
});

cstest!(mcp_http_malformed_json_is_a_bad_request, |t| {
    let server = HttpServer::start(t.cmd_db(), &[]);
    let headers = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")];
    for (body, code) in
        [(r#"{"jsonrpc":"2.0","id":1,"method":"#, -32700), ("not json", -32700), (r#"{"hello":1}"#, -32600)]
    {
        let reply = http(server.port, "POST", "/mcp", &headers, body);
        assert_eq!(reply.status, 400, "{body}: {reply:?}");
        let error: Value = serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{body}: {e}: {reply:?}"));
        assert_eq!(error["error"]["code"], code, "{body}: {error}");
        assert_eq!(error["id"], Value::Null, "{body}: {error}");
    }
    // A body that is not JSON at all by its content type is still a media type problem.
    let reply = http(server.port, "POST", "/mcp", &[("Content-Type", "text/plain"), headers[1]], INITIALIZE);
    assert_eq!(reply.status, 415, "{reply:?}");
    // And the server still shakes hands.
    assert_eq!(post_initialize(server.port, &[]).status, 200);
});

cstest!(mcp_http_disconnects_clients_that_trickle_headers, |t| {
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_MCP_HEADER_TIMEOUT", "1");
    let server = HttpServer::start(cmd, &[]);
    let mut slow = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    slow.write_all(b"GET /hea").expect("half a request line");
    // Generous: the point is that the server closes it at all, not how fast.
    slow.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let mut buf = [0u8; 1024];
    let mut answer = Vec::new();
    loop {
        match slow.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                panic!("the server kept a connection that never finished its headers:\n{}", server.log())
            }
            // A reset is a disconnection too.
            Err(_) => break,
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 408"), "{answer}");
    // Everyone else is served as before.
    assert_eq!(http(server.port, "GET", "/health", &[], "").status, 200);
});

/// A request in the session `id`, read to the end of its event stream.
fn call_to_end(port: u16, id: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

// Issue 25, item 3: each concurrent request held a blocking thread and a store connection of
// its own (200 concurrent searches: 186 connections, 1.6 GB that stayed). Requests now take one
// of `database.poolSize` slots; the rest wait, and all are answered.
cstest!(concurrent_http_searches_wait_for_a_slot_instead_of_each_holding_a_thread, |t| {
    project(&t, 40);
    let mut index = t.cmd_db();
    index.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    let indexed = crate::support::run(index, &["index"]);
    assert_eq!(indexed.code, 0, "{indexed:?}");
    const CLIENTS: usize = 48;
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none")
        .env("COCOSEARCH_DATABASE_POOL_SIZE", "2")
        .env("COCOSEARCH_MCP_MAX_SESSIONS", "100")
        .env("COCOSEARCH_PROJECT_PATH", t.path());
    let server = HttpServer::start(cmd, &[]);
    let port = server.port;
    let sessions: Vec<String> = (0..CLIENTS).map(|_| session_id(&post_initialize(port, &[]))).collect();
    for id in &sessions {
        in_session(port, id, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }
    let idle = server.threads();
    let done = std::sync::atomic::AtomicBool::new(false);
    let start = std::sync::Barrier::new(CLIENTS);
    let (peak, replies) = std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(server.threads());
                std::thread::sleep(Duration::from_millis(2));
            }
            peak
        });
        let calls: Vec<_> = sessions
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let start = &start;
                scope.spawn(move || {
                    let body = format!(
                        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"search_code","arguments":{{"query":"compute report {i} threshold total"}}}}}}"#
                    );
                    start.wait();
                    call_to_end(port, id, &body)
                })
            })
            .collect();
        let replies: Vec<String> = calls.into_iter().map(|c| c.join().expect("client")).collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (sampler.join().expect("sampler"), replies)
    });
    for reply in &replies {
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        assert!(reply.contains("compute_report_") && !reply.contains(r#""isError":true"#), "{reply}");
    }
    assert!(
        // Two slots' blocking threads, and the runtime's and the store's own few; one thread per
        // client (48) is what the bound is against.
        peak <= idle + 12,
        "{CLIENTS} concurrent searches with database.poolSize 2 grew the server from {idle} to {peak} threads"
    );
});

cstest!(a_real_client_sees_every_change_to_a_watched_project_without_reindexing, |t| {
    write_sample_project(&t);
    index_with_cli(&t);
    let r = scenario(&t.cmd_db(), "live", &["--project", &root(&t)]);
    assert_eq!(r["watched"]["seen"], true, "the first search starts the watcher: {r:#}");
    for step in ["added", "edited", "renamed", "deleted", "vectors"] {
        assert_eq!(r["steps"][step]["seen"], true, "{step}: {r:#}");
    }
    let freshness = &r["steps"]["vectors"]["freshness"];
    assert_eq!(freshness["state"], "live", "{r:#}");
    assert!(freshness["watched_by"]["process"].as_str().is_some_and(|p| p.starts_with("cocosearch mcp")), "{r:#}");
    assert!(
        r["notes"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n.as_str().is_some_and(|n| n.contains("kept fresh by")))),
        "{r:#}"
    );
    // The watcher left nothing stale: the index holds exactly the files on disk.
    let store = t.db_store();
    let held: Vec<String> =
        store.reader(&index_name(&t)).expect("reader").file_states(None).expect("states").into_keys().collect();
    let held: Vec<String> = {
        let mut held = held;
        held.sort();
        held
    };
    assert_eq!(held, ["live/semantic.py", "src/uploads.py", "src/users.py", "web/app.js"]);
});
