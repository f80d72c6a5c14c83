//! Reading a candidate file: the checks that decide whether its text can be indexed.

use std::path::Path;

use super::SkipReason;

/// A file's text, checked and hashed.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The content, exactly as on disk.
    pub text: String,
    /// blake3 of the bytes.
    pub hash: [u8; 32],
    /// Number of lines (a last line without newline counts).
    pub lines: u32,
    /// Size in bytes.
    pub size: u64,
}

/// Reads `path`; `Err` says why it cannot be indexed. A file that grew past `max_size` since
/// the walk is refused too, so memory stays bounded.
pub fn read_source(path: &Path, max_size: u64) -> Result<SourceFile, SkipReason> {
    let bytes = std::fs::read(path).map_err(|_| SkipReason::Unreadable)?;
    if bytes.len() as u64 > max_size {
        return Err(SkipReason::TooLarge);
    }
    if bytes.contains(&0) {
        return Err(SkipReason::Binary);
    }
    let hash = *blake3::hash(&bytes).as_bytes();
    let size = bytes.len() as u64;
    let text = String::from_utf8(bytes).map_err(|_| SkipReason::NotUtf8)?;
    let lines = line_count(&text);
    Ok(SourceFile { text, hash, lines, size })
}

/// Lines in `text`: newlines, plus one for a last line without its newline.
pub fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    let partial = usize::from(!text.is_empty() && !text.ends_with('\n'));
    u32::try_from(newlines + partial).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_content() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, bytes: &[u8]| {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).expect("write");
            p
        };
        assert_eq!(read_source(&write("bin", b"ab\0cd"), 100).err(), Some(SkipReason::Binary));
        assert_eq!(read_source(&write("latin1", b"caf\xe9"), 100).err(), Some(SkipReason::NotUtf8));
        assert_eq!(read_source(&write("big", &[b'a'; 101]), 100).err(), Some(SkipReason::TooLarge));
        assert_eq!(read_source(&dir.path().join("missing"), 100).err(), Some(SkipReason::Unreadable));
        let ok = read_source(&write("ok.py", "x = 'é'\ny = 2".as_bytes()), 100).expect("readable");
        assert_eq!((ok.lines, ok.size), (2, 14));
    }
}
