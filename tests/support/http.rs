//! Reading one HTTP/1.1 request off a socket, for the fake servers: the request line and a
//! `Content-Length` body.

use std::io::BufRead;

/// The next request on `reader`: its request line and body; `None` once the client is gone.
pub fn read_request(reader: &mut impl BufRead) -> Option<(String, Vec<u8>)> {
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).map_or(true, |n| n == 0) {
        return None;
    }
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_or(true, |n| n == 0) {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some((request_line, body))
}
