//! One indexed file, read for a presenter that shows files (the dashboard's viewer and editor
//! button): [`Target::indexed_file`] serves it only when the index's root is servable, the
//! path stays inside the root through every link ([`ProjectFiles::resolve`]), and the index
//! holds it — so a sensitive file the walk skipped (`.env`, keys) is never shown, even though
//! it lies inside the root.

use std::path::{Path, PathBuf};

use super::{Error, ErrorKind, Target};
use crate::chunk::Language;
use crate::discover::{ProjectFiles, ReadRefused, mtime_ns};
use crate::store::FileState;

/// A file of the index, which the process may read.
pub struct IndexedFile {
    files: ProjectFiles,
    /// Its path relative to the root, as the index stores it.
    pub path: String,
    /// Its canonical path on disk.
    pub canonical: PathBuf,
    state: FileState,
}

/// A file's content as it is on disk now.
pub struct FileText {
    /// The text.
    pub content: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its language (`text` when none is known).
    pub language: &'static str,
    /// Whether it changed since it was indexed.
    pub stale: bool,
}

/// Why a file's text is not shown.
#[derive(Debug)]
pub enum Unshown {
    /// It is larger than the limit asked for.
    TooLarge(u64),
    /// It is no longer UTF-8 text.
    NotText,
    /// It cannot be read.
    Refused(Error),
}

impl Target {
    /// The file `path` of the index, if this process may read it (see the module's
    /// documentation).
    pub fn indexed_file(&self, path: &str) -> Result<IndexedFile, Error> {
        let meta = self.meta()?;
        let files = ProjectFiles::new(&meta.root).map_err(|e| {
            Error::of_kind(
                ErrorKind::NotFound,
                format!("the root of index {}, {}, cannot be read: {e}", self.index, meta.root.display()),
            )
        })?;
        let canonical = files.resolve(path).map_err(|e| refusal(path, e))?;
        let state = self
            .store
            .reader(&self.index)?
            .file_states(Some(&[path.to_string()]))?
            .remove(path)
            .filter(|s| s.skip_reason.is_none())
            .ok_or_else(|| {
                Error::of_kind(
                    ErrorKind::NotFound,
                    format!(
                        "{path} is not in index {} — only indexed files are shown (re-index if it is new)",
                        self.index
                    ),
                )
            })?;
        Ok(IndexedFile { files, path: path.to_string(), canonical, state })
    }
}

impl IndexedFile {
    /// The canonical root of the file's project.
    pub fn root(&self) -> &Path {
        self.files.root()
    }

    /// Its text as it is on disk now, when it is UTF-8 text of at most `limit` bytes.
    pub fn text(&self, limit: u64) -> Result<FileText, Unshown> {
        let (bytes, meta) = self.files.read(&self.path, limit).map_err(|e| Unshown::Refused(refusal(&self.path, e)))?;
        if bytes.len() as u64 > limit {
            return Err(Unshown::TooLarge(limit));
        }
        if bytes.contains(&0) {
            return Err(Unshown::NotText);
        }
        let content = String::from_utf8(bytes).map_err(|_| Unshown::NotText)?;
        let head: String = content.chars().take(512).collect();
        let language = Language::detect(Path::new(&self.path), &head).map_or("text", Language::name);
        let stale = meta.len() != self.state.size || mtime_ns(&meta) != self.state.mtime_ns;
        Ok(FileText { content, bytes: meta.len(), language, stale })
    }
}

/// The error for a path `ProjectFiles` refused.
fn refusal(path: &str, e: ReadRefused) -> Error {
    match e {
        ReadRefused::NotRelative(_) | ReadRefused::Outside(_) | ReadRefused::Loop(_) => Error::of_kind(
            ErrorKind::Refused,
            format!("refusing to read {path:?}: {e} — only files inside the index's root are shown"),
        ),
        ReadRefused::NotAFile(_) | ReadRefused::Io { .. } => Error::of_kind(ErrorKind::NotFound, e.to_string()),
    }
}
