//! A small embedding server speaking Ollama's `/api/show` and `/api/embed`, for the cases the
//! real MiniLM server cannot produce: vectors of the wrong length, an answer that takes its
//! time, an answer held back until the test lets it go.
//!
//! It is a real HTTP/1.1 server on a real socket (keep-alive, `Content-Length` bodies), so the
//! program under test talks to it exactly as to Ollama. Each connection gets a thread.

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What the server answers; every knob can change while it runs.
#[derive(Default)]
pub struct Behaviour {
    /// The length of the vectors `/api/embed` returns.
    pub dimension: AtomicUsize,
    /// The `embedding_length` `/api/show` reports; 0 reports none.
    pub show_dimension: AtomicUsize,
    /// The `context_length` `/api/show` reports; 0 reports none.
    pub context_length: AtomicUsize,
    /// How long `/api/embed` waits before answering, milliseconds.
    pub delay_ms: AtomicU64,
    /// Embed requests received so far (counted on arrival, before any wait).
    pub embed_requests: AtomicUsize,
    /// Vector values too large for an `f32` (they parse as infinity).
    pub overflowing: AtomicBool,
    /// `/api/embed` answers 500.
    pub failing: AtomicBool,
    /// While closed, `/api/embed` answers only once the gate opens.
    closed: Mutex<bool>,
    opened: Condvar,
}

impl Behaviour {
    /// Holds every embed answer back until [`Behaviour::open`].
    pub fn close(&self) {
        *self.closed.lock().expect("gate") = true;
    }

    /// Lets held and future embed answers go.
    pub fn open(&self) {
        *self.closed.lock().expect("gate") = false;
        self.opened.notify_all();
    }

    fn wait_open(&self) {
        let mut closed = self.closed.lock().expect("gate");
        while *closed {
            closed = self.opened.wait(closed).expect("gate");
        }
    }
}

/// A running fake server; it stops accepting when dropped.
pub struct FakeOllama {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Its behaviour, shared with the connection threads.
    pub behaviour: Arc<Behaviour>,
    stop: Arc<AtomicBool>,
}

impl FakeOllama {
    /// A server returning `dimension`-long vectors and reporting that dimension and a context
    /// of 512 tokens.
    pub fn start(dimension: usize) -> FakeOllama {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake embedding server");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let behaviour = Arc::new(Behaviour::default());
        behaviour.dimension.store(dimension, Ordering::SeqCst);
        behaviour.show_dimension.store(dimension, Ordering::SeqCst);
        behaviour.context_length.store(512, Ordering::SeqCst);
        let stop = Arc::new(AtomicBool::new(false));
        let (b, s) = (Arc::clone(&behaviour), Arc::clone(&stop));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let b = Arc::clone(&b);
                std::thread::spawn(move || serve(stream, &b));
            }
        });
        FakeOllama { url, behaviour, stop }
    }
}

impl Drop for FakeOllama {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.behaviour.open();
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

/// Answers requests on one connection until the client closes it.
fn serve(stream: TcpStream, behaviour: &Behaviour) {
    let _ = stream.set_nodelay(true);
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    let mut reader = BufReader::new(stream);
    loop {
        let Some((request_line, body)) = super::http::read_request(&mut reader) else { return };
        let path = request_line.split_whitespace().nth(1).unwrap_or_default().to_string();
        let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let (status, text) = match path.as_str() {
            "/api/show" => (200, show(behaviour, &request).to_string()),
            "/api/embed" => embed(behaviour, &request),
            _ => (404, serde_json::json!({ "error": format!("no route {path}") }).to_string()),
        };
        let reason = match status {
            200 => "OK",
            404 => "Not Found",
            _ => "Internal Server Error",
        };
        let reply = format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
            text.len()
        );
        if writer.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

fn show(behaviour: &Behaviour, request: &serde_json::Value) -> serde_json::Value {
    let mut info = serde_json::Map::new();
    let dimension = behaviour.show_dimension.load(Ordering::SeqCst);
    if dimension > 0 {
        info.insert("bert.embedding_length".into(), dimension.into());
    }
    let context = behaviour.context_length.load(Ordering::SeqCst);
    if context > 0 {
        info.insert("bert.context_length".into(), context.into());
    }
    serde_json::json!({ "model": request["model"], "parameters": "", "model_info": info })
}

/// A value no real vector here holds, replaced by `1e39` in the JSON text.
const OVERFLOW_MARK: f32 = 12345.0;

/// The status and body of an `/api/embed` answer.
fn embed(behaviour: &Behaviour, request: &serde_json::Value) -> (u16, String) {
    behaviour.embed_requests.fetch_add(1, Ordering::SeqCst);
    behaviour.wait_open();
    let delay = behaviour.delay_ms.load(Ordering::SeqCst);
    if delay > 0 {
        std::thread::sleep(Duration::from_millis(delay));
    }
    if behaviour.failing.load(Ordering::SeqCst) {
        return (500, r#"{"error":"the fake server fails on purpose"}"#.to_string());
    }
    let inputs: Vec<String> = match &request["input"] {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(items) => items.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect(),
        _ => Vec::new(),
    };
    let dimension = behaviour.dimension.load(Ordering::SeqCst);
    // Vectors that differ with the text and are never all zero, so cosine distances exist.
    let vectors: Vec<Vec<f32>> = inputs
        .iter()
        .map(|text| {
            let seed = text.bytes().fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
            (0..dimension)
                .map(|i| 1.0 + ((seed.wrapping_add((i as u32).wrapping_mul(2654435761)) % 1000) as f32) / 1000.0)
                .collect()
        })
        .collect();
    let overflowing = behaviour.overflowing.load(Ordering::SeqCst);
    let vectors: Vec<Vec<f32>> = vectors
        .into_iter()
        .map(|mut v| {
            if overflowing && let Some(first) = v.first_mut() {
                *first = OVERFLOW_MARK;
            }
            v
        })
        .collect();
    let body = serde_json::json!({ "model": request["model"], "embeddings": vectors }).to_string();
    // JSON has no infinity; a number past f32::MAX is what a broken server can send.
    (200, body.replace(&format!("{OVERFLOW_MARK:?}"), "1e39"))
}
