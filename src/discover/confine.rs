//! Reading a project's files by relative path, never outside the project.
//!
//! A cloned repository is untrusted input: any path in it may be a symbolic link to `/etc`,
//! to the user's home or to `..`, and a file indexed yesterday may be a link today. Every read
//! of a project file — indexing, search results and their context lines, smart context —
//! goes through [`ProjectFiles`], which resolves the path and refuses it unless its canonical
//! form lies inside the canonical root.
//!
//! Architecture invariant: project files are opened only here. Nothing else in the program
//! opens a path built from an index root and a stored relative path.
//!
//! The check and the open are two system calls, so a process racing to swap a directory for a
//! link between them could still redirect one read; a repository on disk cannot, which is the
//! threat this guards against.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// A project root whose files are read by relative path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectFiles {
    /// The root, canonical.
    root: PathBuf,
}

/// Why a project file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadRefused {
    /// The relative path is absolute, empty, or has `.` or `..` components.
    #[error("{0:?} is not a path inside the project")]
    NotRelative(String),
    /// The path resolves (through a symbolic link) to a place outside the root.
    #[error("{0} leads outside the project, through a symbolic link")]
    Outside(String),
    /// The path resolves through a chain of links that never ends.
    #[error("{0} is a symbolic link loop")]
    Loop(String),
    /// It is not a regular file (a directory, a socket, ...).
    #[error("{0} is not a regular file")]
    NotAFile(String),
    /// The file system refused (missing, permissions, ...).
    #[error("cannot read {path}: {source}")]
    Io {
        /// The relative path.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl ProjectFiles {
    /// The files under `root`, which must exist.
    pub fn new(root: &Path) -> std::io::Result<ProjectFiles> {
        Ok(ProjectFiles { root: root.canonicalize()? })
    }

    /// The canonical root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The canonical path of `relative` (`/`-separated, as stored; or as the walk found it,
    /// whose name need not be UTF-8), if it lies inside the root.
    pub fn resolve(&self, relative: impl AsRef<Path>) -> Result<PathBuf, ReadRefused> {
        let given = relative.as_ref();
        let named = || given.to_string_lossy().into_owned();
        let plain = given.components().all(|c| matches!(c, Component::Normal(_)));
        if given.as_os_str().is_empty() || !plain {
            return Err(ReadRefused::NotRelative(named()));
        }
        let canonical = self.root.join(given).canonicalize().map_err(|source| {
            if is_loop(&source) { ReadRefused::Loop(named()) } else { ReadRefused::Io { path: named(), source } }
        })?;
        if !canonical.starts_with(&self.root) {
            return Err(ReadRefused::Outside(named()));
        }
        Ok(canonical)
    }

    /// Opens `relative` for reading, with its metadata (taken from the open file).
    pub fn open(&self, relative: impl AsRef<Path>) -> Result<(File, Metadata), ReadRefused> {
        let given = relative.as_ref();
        let path = self.resolve(given)?;
        let io = |source| ReadRefused::Io { path: given.to_string_lossy().into_owned(), source };
        let file = File::open(&path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(ReadRefused::NotAFile(given.to_string_lossy().into_owned()));
        }
        Ok((file, meta))
    }

    /// Opens `relative` as the walk just found it, for a reader of many files (`grep`): the
    /// walk follows no link, so every directory on the way is a real one inside the root, and
    /// the file itself is opened without following a link (`O_NOFOLLOW`) and without blocking
    /// (`O_NONBLOCK`: a FIFO swapped in is refused, never waited on), then checked to be a
    /// regular file. One `open` and one `fstat` instead of [`Self::open`]'s path resolution.
    pub fn open_walked(&self, relative: impl AsRef<Path>) -> Result<(File, Metadata), ReadRefused> {
        let given = relative.as_ref();
        let named = || given.to_string_lossy().into_owned();
        let plain = given.components().all(|c| matches!(c, Component::Normal(_)));
        if given.as_os_str().is_empty() || !plain {
            return Err(ReadRefused::NotRelative(named()));
        }
        let io = |source| ReadRefused::Io { path: named(), source };
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let file = options
            .open(self.root.join(given))
            .map_err(|source| if is_loop(&source) { ReadRefused::NotAFile(named()) } else { io(source) })?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(ReadRefused::NotAFile(named()));
        }
        Ok((file, meta))
    }

    /// The bytes of `relative`, with its metadata. Reads at most `limit + 1` bytes, so the
    /// caller can tell a file that grew past its limit without holding all of it.
    pub fn read(&self, relative: impl AsRef<Path>, limit: u64) -> Result<(Vec<u8>, Metadata), ReadRefused> {
        let given = relative.as_ref();
        let (file, meta) = self.open(given)?;
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(limit)).unwrap_or(0) + 1);
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|source| ReadRefused::Io { path: given.to_string_lossy().into_owned(), source })?;
        Ok((bytes, meta))
    }
}

/// Whether an I/O error says a chain of symbolic links loops (`ELOOP`).
pub(crate) fn is_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn reads_inside_and_refuses_everything_that_leaves() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("project");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(root.join("src/a.py"), "inside\n").expect("write");
        std::fs::write(outside.join("secret.txt"), "outside\n").expect("write");
        symlink(outside.join("secret.txt"), root.join("src/leak.py")).expect("symlink");
        symlink(&outside, root.join("out")).expect("symlink");
        symlink(root.join("src/a.py"), root.join("alias.py")).expect("symlink");
        symlink(root.join("loop_b"), root.join("loop_a")).expect("symlink");
        symlink(root.join("loop_a"), root.join("loop_b")).expect("symlink");

        let files = ProjectFiles::new(&root).expect("root");
        let (bytes, meta) = files.read("src/a.py", 100).expect("inside");
        assert_eq!((bytes.as_slice(), meta.len()), (&b"inside\n"[..], 7));
        // A link whose target stays inside reads that target.
        assert_eq!(files.read("alias.py", 100).expect("inside link").0, b"inside\n");

        assert!(matches!(files.read("src/leak.py", 100), Err(ReadRefused::Outside(_))));
        assert!(matches!(files.read("out/secret.txt", 100), Err(ReadRefused::Outside(_))));
        assert!(matches!(files.read("loop_a", 100), Err(ReadRefused::Loop(_))));
        for bad in ["../outside/secret.txt", "src/../../outside/secret.txt", "/etc/passwd", "", "./src/a.py"] {
            assert!(matches!(files.read(bad, 100), Err(ReadRefused::NotRelative(_))), "{bad}");
        }
        assert!(matches!(files.read("src", 100), Err(ReadRefused::NotAFile(_))));
        assert!(matches!(files.read("missing.py", 100), Err(ReadRefused::Io { .. })));
        // As the walk found it: the file itself is never a link followed.
        assert_eq!(files.open_walked("src/a.py").expect("inside").1.len(), 7);
        assert!(matches!(files.open_walked("src/leak.py"), Err(ReadRefused::NotAFile(_))));
        assert!(matches!(files.open_walked("alias.py"), Err(ReadRefused::NotAFile(_))));
        assert!(matches!(files.open_walked("../outside/secret.txt"), Err(ReadRefused::NotRelative(_))));
        // The limit: one byte more than asked, so growth past it shows.
        assert_eq!(files.read("src/a.py", 3).expect("inside").0, b"insi");
    }
}
