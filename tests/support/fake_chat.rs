//! A small OpenAI-compatible chat server (`POST /chat/completions`) for the query rewrite: it
//! answers every prompt with a fixed rewrite, after an optional delay, and remembers the
//! prompts it was sent. A real HTTP/1.1 server on a real socket, one thread per connection.

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A running fake chat server.
pub struct FakeChat {
    /// `http://127.0.0.1:PORT/v1`.
    pub url: String,
    /// The prompts received, in order.
    pub prompts: Arc<Mutex<Vec<String>>>,
}

impl FakeChat {
    /// A server answering `answer` after `delay`.
    pub fn start(answer: &str, delay: Duration) -> FakeChat {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake chat server");
        let url = format!("http://{}/v1", listener.local_addr().expect("address"));
        let prompts = Arc::new(Mutex::new(Vec::new()));
        let (answer, seen) = (answer.to_string(), Arc::clone(&prompts));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (answer, seen) = (answer.clone(), Arc::clone(&seen));
                std::thread::spawn(move || serve(stream, &answer, delay, &seen));
            }
        });
        FakeChat { url, prompts }
    }
}

fn serve(stream: TcpStream, answer: &str, delay: Duration, seen: &Mutex<Vec<String>>) {
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    let Some((request_line, body)) = super::http::read_request(&mut reader) else { return };
    let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let prompt = request["messages"][0]["content"].as_str().unwrap_or_default().to_string();
    seen.lock().expect("prompts").push(prompt);
    std::thread::sleep(delay);
    let (status, text) = if request_line.contains("/v1/chat/completions") {
        ("200 OK", serde_json::json!({"choices": [{"message": {"role": "assistant", "content": answer}}]}).to_string())
    } else {
        ("404 Not Found", r#"{"error":"no route"}"#.to_string())
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = writer.write_all(reply.as_bytes());
}
