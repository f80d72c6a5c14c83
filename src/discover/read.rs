//! Reading a candidate file: the checks that decide whether its text can be indexed.

use super::{ProjectFiles, ReadRefused, SkipReason};

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

/// Reads the project file at `relative`; `Err` says why it cannot be indexed. A file that grew
/// past `max_size` since the walk is refused too, so memory stays bounded; one that became a
/// link leading out of the project since the walk is refused like the walk refuses links.
pub fn read_source(
    files: &ProjectFiles,
    relative: impl AsRef<std::path::Path>,
    max_size: u64,
) -> Result<SourceFile, SkipReason> {
    let (bytes, _) = files.read(relative, max_size).map_err(|refused| match refused {
        ReadRefused::Outside(_) => SkipReason::SymlinkOutside,
        ReadRefused::Loop(_) => SkipReason::SymlinkLoop,
        ReadRefused::NotRelative(_) | ReadRefused::NotAFile(_) | ReadRefused::Io { .. } => SkipReason::Unreadable,
    })?;
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
        let files = ProjectFiles::new(dir.path()).expect("root");
        let write = |name: &'static str, bytes: &[u8]| {
            std::fs::write(dir.path().join(name), bytes).expect("write");
            name
        };
        assert_eq!(read_source(&files, write("bin", b"ab\0cd"), 100).err(), Some(SkipReason::Binary));
        assert_eq!(read_source(&files, write("latin1", b"caf\xe9"), 100).err(), Some(SkipReason::NotUtf8));
        assert_eq!(read_source(&files, write("big", &[b'a'; 101]), 100).err(), Some(SkipReason::TooLarge));
        assert_eq!(read_source(&files, "missing", 100).err(), Some(SkipReason::Unreadable));
        let ok = read_source(&files, write("ok.py", "x = 'é'\ny = 2".as_bytes()), 100).expect("readable");
        assert_eq!((ok.lines, ok.size), (2, 14));
    }

    #[test]
    fn a_file_that_became_a_link_out_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret.py"), "x = 1\n").expect("write");
        std::os::unix::fs::symlink(outside.path().join("secret.py"), dir.path().join("a.py")).expect("symlink");
        let files = ProjectFiles::new(dir.path()).expect("root");
        assert_eq!(read_source(&files, "a.py", 100).err(), Some(SkipReason::SymlinkOutside));
    }
}
