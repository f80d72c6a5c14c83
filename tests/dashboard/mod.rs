//! The web dashboard: its JSON API driven with raw HTTP requests against the real binary, a
//! real store and the real embedding server (`api`), and the page driven in headless Chromium
//! by Playwright (`browser`, with `e2e.py`).

mod api;
mod browser;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

pub(crate) use crate::mcp_server::{Reply, http};

/// A `cocosearch dashboard` (or `mcp --transport http`) child, killed on drop.
pub(crate) use crate::mcp_server::HttpServer as Server;

impl Server {
    /// `cocosearch dashboard --no-open` on a free port, with `extra` arguments.
    pub(crate) fn dashboard(cmd: Command, extra: &[&str]) -> Server {
        Server::spawn(cmd, &["dashboard", "--no-open"], extra)
    }

    /// `cocosearch mcp --transport http` on a free port.
    pub(crate) fn mcp(cmd: Command) -> Server {
        Server::start(cmd, &[])
    }

    /// `GET path` with no extra headers.
    pub(crate) fn get(&self, path: &str) -> Reply {
        http(self.port, "GET", path, &[], "")
    }

    /// `GET path`, its status and its body as JSON.
    pub(crate) fn get_json(&self, path: &str) -> (u16, Value) {
        json_of(self.get(path))
    }

    /// `method path` with a JSON body.
    pub(crate) fn send_json(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        json_of(http(self.port, method, path, &[("Content-Type", "application/json")], &body.to_string()))
    }

    /// The server-sent events of `path`, read until the server ends the stream: (event, data).
    pub(crate) fn events(&self, path: &str) -> Vec<(String, Value)> {
        self.events_then(path, || ())
    }

    /// [`Self::events`], calling `after_first` once the first event has arrived.
    pub(crate) fn events_then(&self, path: &str, after_first: impl FnOnce()) -> Vec<(String, Value)> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n",
            self.port
        );
        stream.write_all(request.as_bytes()).expect("send");
        let mut raw = Vec::new();
        let mut buf = [0u8; 8192];
        let mut after_first = Some(after_first);
        loop {
            let n = stream.read(&mut buf).expect("read the event stream");
            if n == 0 {
                break;
            }
            raw.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&raw);
            let first_event = text.split_once("\r\n\r\n").is_some_and(|(_, body)| body.contains("\n\n"));
            if first_event && let Some(call) = after_first.take() {
                call();
            }
        }
        let text = String::from_utf8_lossy(&raw);
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(head.to_lowercase().contains("content-type: text/event-stream"), "{head}");
        let body =
            if head.to_lowercase().contains("transfer-encoding: chunked") { unchunk(body) } else { body.to_string() };
        body.split("\n\n")
            .filter_map(|block| {
                let event = block.lines().find_map(|l| l.strip_prefix("event:"))?.trim().to_string();
                let data: String = block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
                let value =
                    serde_json::from_str(&data).unwrap_or_else(|e| panic!("event data is not JSON ({e}): {data}"));
                Some((event, value))
            })
            .collect()
    }
}

/// The body of an HTTP/1.1 chunked answer.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else { break };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].strip_prefix("\r\n").unwrap_or(&rest[size..]);
    }
    out
}

fn json_of(reply: Reply) -> (u16, Value) {
    let value = serde_json::from_str(&reply.body)
        .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {} {}\n{}", reply.status, reply.head, reply.body));
    (reply.status, value)
}

/// `text` percent-encoded for a query string.
pub(crate) fn enc(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// `git args` in `dir`, with an identity of its own (the machine may have none); panics on
/// failure. Returns its standard output, trimmed.
pub(crate) fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=cocosearch tests",
            "-c",
            "user.email=tests@cocosearch.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
