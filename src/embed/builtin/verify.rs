//! Checking downloaded files: SHA-256, Git blob ids, and what the hub declares.
//!
//! A file enters the model cache only after one of these checks passed (see
//! [`super::models::FileCheck`] for which check applies to which file, and why).

use std::io::Read;
use std::path::Path;

use sha1::Sha1;
use sha2::{Digest, Sha256};

/// What the hub said a file's bytes hash to, read from its response headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// `X-Linked-Etag`: the SHA-256 of a file stored in Git LFS.
    Sha256(String),
    /// `ETag` of a file stored in Git: its Git blob id.
    GitBlob(String),
    /// Nothing usable.
    Nothing,
}

impl Declared {
    /// Reads the declaration from a hub response. `X-Linked-Etag` wins: for LFS files the
    /// plain `ETag` may describe a redirect or a CDN object, never the file's own hash.
    pub fn from_headers(linked_etag: Option<&str>, etag: Option<&str>) -> Declared {
        let clean = |v: &str| v.trim().trim_start_matches("W/").trim_matches('"').to_ascii_lowercase();
        if let Some(v) = linked_etag.map(clean).filter(|v| is_hex(v, 64)) {
            return Declared::Sha256(v);
        }
        match etag.map(clean) {
            Some(v) if is_hex(&v, 64) => Declared::Sha256(v),
            Some(v) if is_hex(&v, 40) => Declared::GitBlob(v),
            _ => Declared::Nothing,
        }
    }
}

fn is_hex(v: &str, len: usize) -> bool {
    v.len() == len && v.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Lowercase hex of `bytes` (sha2 0.11's digests have no `LowerHex`).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

/// The Git blob id of a file: `sha1("blob <len>\0" + bytes)`, hex.
pub fn git_blob_sha1_file(path: &Path) -> std::io::Result<String> {
    let len = std::fs::metadata(path)?.len();
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {len}\0").as_bytes());
    read_through(path, |chunk| hasher.update(chunk))?;
    Ok(hex(&hasher.finalize()))
}

/// The Git blob id of bytes in memory, hex.
pub fn git_blob_sha1(bytes: &[u8]) -> String {
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {}\0", bytes.len()).as_bytes());
    hasher.update(bytes);
    hex(&hasher.finalize())
}

/// The SHA-256 of a file, hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    read_through(path, |chunk| hasher.update(chunk))?;
    Ok(hex(&hasher.finalize()))
}

/// The SHA-256 of bytes in memory, hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn read_through(path: &Path, mut each: impl FnMut(&[u8])) -> std::io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        each(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_known_values() {
        // `printf 'hello\n' | git hash-object --stdin` and `sha256sum`.
        assert_eq!(git_blob_sha1(b"hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
        assert_eq!(sha256(b"hello\n"), "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        std::fs::write(&path, b"hello\n").expect("write");
        assert_eq!(git_blob_sha1_file(&path).ok().as_deref(), Some("ce013625030ba8dba906f756967f9e9ca394464a"));
    }

    #[test]
    fn declarations_are_read_like_huggingface_hub_reads_them() {
        let sha = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
        let blob = "ce013625030ba8dba906f756967f9e9ca394464a";
        assert_eq!(
            Declared::from_headers(Some(&format!("\"{sha}\"")), Some("\"abc-cdn\"")),
            Declared::Sha256(sha.into())
        );
        assert_eq!(Declared::from_headers(None, Some(&format!("W/\"{blob}\""))), Declared::GitBlob(blob.into()));
        assert_eq!(Declared::from_headers(None, Some("\"not-a-hash\"")), Declared::Nothing);
        assert_eq!(Declared::from_headers(None, None), Declared::Nothing);
    }
}
