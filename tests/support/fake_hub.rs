//! A local stand-in for the Hugging Face hub, serving real model files from disk the way the
//! hub does, so the real download and verification code runs without the network.
//!
//! Like the hub, `GET /{repo}/resolve/{revision}/{path}` answers a file kept in Git with the
//! bytes and `ETag: "<git blob id>"`, and a file kept in LFS (`*.safetensors`) with a `302`
//! to storage on another host (here `localhost` instead of `127.0.0.1`) carrying
//! `X-Linked-Etag: "<sha256>"`; the storage answers with the bytes. A test can make it serve
//! altered bytes, declaring either the true hash (a damaged transfer) or the hash of the
//! altered bytes (a lying mirror).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How a file is altered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corruption {
    /// One byte flipped; the declaration is the true file's.
    Damaged,
    /// One byte flipped; the declaration is of the flipped bytes.
    Lying,
}

struct State {
    repos: HashMap<String, PathBuf>,
    corrupt: Mutex<HashMap<String, Corruption>>,
    requests: AtomicUsize,
    stop: AtomicBool,
}

/// A running fake hub; stops when dropped.
pub struct FakeHub {
    /// The base URL to use as `embedding.hubUrl`.
    pub url: String,
    port: u16,
    state: Arc<State>,
}

impl FakeHub {
    /// Serves each `(repo, directory)`: any revision of `repo` is the files of `directory`.
    pub fn start(repos: &[(&str, PathBuf)]) -> FakeHub {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake hub");
        let port = listener.local_addr().expect("address").port();
        let state = Arc::new(State {
            repos: repos.iter().map(|(r, d)| (r.to_string(), d.clone())).collect(),
            corrupt: Mutex::new(HashMap::new()),
            requests: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if shared.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let state = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &state, port));
            }
        });
        FakeHub { url: format!("http://127.0.0.1:{port}"), port, state }
    }

    /// Serves `file` (a path inside a repository) altered from now on.
    pub fn corrupt(&self, file: &str, how: Corruption) {
        self.state.corrupt.lock().expect("lock").insert(file.to_string(), how);
    }

    /// Serves every file intact again.
    pub fn repair(&self) {
        self.state.corrupt.lock().expect("lock").clear();
    }

    /// Requests answered so far (hub and storage).
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }
}

impl Drop for FakeHub {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(mut stream: TcpStream, state: &State, port: u16) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    state.requests.fetch_add(1, Ordering::SeqCst);
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let head = method == "HEAD";
    let response = route(state, target, port);
    let (status, headers, body) = match response {
        Some(r) => r,
        None => ("404 Not Found", Vec::new(), b"Entry not found".to_vec()),
    };
    let mut out = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    let _ = stream.write_all(out.as_bytes());
    if !head {
        for chunk in body.chunks(64 * 1024) {
            if stream.write_all(chunk).is_err() {
                return;
            }
        }
    }
    let _ = stream.flush();
}

type Response = (&'static str, Vec<(&'static str, String)>, Vec<u8>);

fn route(state: &State, target: &str, port: u16) -> Option<Response> {
    if let Some(rest) = target.strip_prefix("/storage/") {
        // Storage: /storage/{owner}/{name}/{path}
        let (repo, file) = split_repo(rest)?;
        let (bytes, _) = file_bytes(state, &repo, &file)?;
        return Some(("200 OK", vec![("ETag", "\"storage-object\"".to_string())], bytes));
    }
    // The hub: /{owner}/{name}/resolve/{revision}/{path}
    let (repo, rest) = split_repo(target.trim_start_matches('/'))?;
    let rest = rest.strip_prefix("resolve/")?;
    let (_revision, file) = rest.split_once('/')?;
    let (bytes, declared_from) = file_bytes(state, &repo, file)?;
    if file.ends_with(".safetensors") {
        let sha = cocosearch::embed::builtin::sha256(&declared_from);
        let location = format!("http://localhost:{port}/storage/{repo}/{file}");
        return Some((
            "302 Found",
            vec![
                ("Location", location),
                ("X-Linked-Etag", format!("\"{sha}\"")),
                ("X-Linked-Size", bytes.len().to_string()),
            ],
            Vec::new(),
        ));
    }
    let blob = cocosearch::embed::builtin::git_blob_sha1(&declared_from);
    Some(("200 OK", vec![("ETag", format!("\"{blob}\""))], bytes))
}

fn split_repo(path: &str) -> Option<(String, String)> {
    let mut parts = path.splitn(3, '/');
    let (owner, name, rest) = (parts.next()?, parts.next()?, parts.next()?);
    Some((format!("{owner}/{name}"), rest.to_string()))
}

/// The bytes to serve and the bytes whose hash is declared.
fn file_bytes(state: &State, repo: &str, file: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let dir = state.repos.get(repo)?;
    if file.contains("..") {
        return None;
    }
    let bytes = std::fs::read(dir.join(file)).ok()?;
    let how = state.corrupt.lock().ok()?.get(file).copied();
    Some(match how {
        None => (bytes.clone(), bytes),
        Some(how) => {
            let mut altered = bytes.clone();
            let middle = altered.len() / 2;
            altered[middle] ^= 0x55;
            let declared = if how == Corruption::Damaged { bytes } else { altered.clone() };
            (altered, declared)
        }
    })
}
