//! The model cache: one directory per model and revision, present only when complete.
//!
//! `<cache>/cocosearch/models/<name>@<revision>/` holds a model's files and a manifest
//! (`cocosearch-model.json`: the files, their sizes and SHA-256). The directory is created by
//! renaming a fully downloaded and verified temporary directory into place, so its existence
//! means "verified"; a download that fails or is interrupted leaves only a `.partial-*`
//! directory, which is never read as a model and is swept by the next download.
//! At each load the files' sizes are compared with the manifest, which catches a cache that
//! was truncated or edited since, without hashing a hundred megabytes on every start.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::models::KnownModel;

/// The manifest's file name inside a cached model directory.
pub const MANIFEST: &str = "cocosearch-model.json";
/// The prefix of temporary download directories.
pub(super) const PARTIAL_PREFIX: &str = ".partial-";
/// Temporary directories older than this are left by dead processes and may be removed.
const STALE_PARTIAL: Duration = Duration::from_secs(24 * 3600);

/// Where cached models live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelCache {
    /// The directory holding one subdirectory per model and revision.
    pub root: PathBuf,
}

/// What the manifest of a cached model records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The model's cocosearch name.
    pub name: String,
    /// The Hugging Face repository.
    pub repo: String,
    /// The commit downloaded.
    pub revision: String,
    /// Every file, as verified.
    pub files: Vec<ManifestFile>,
}

/// One verified file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// The path inside the model directory.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256, hex.
    pub sha256: String,
}

impl Manifest {
    /// The total size of the model's files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// Reads the manifest of `dir`, if it has one.
    pub fn read(dir: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(dir.join(MANIFEST)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Why `dir` no longer matches this manifest, if it does not: a missing file or a size
    /// that changed since the download was verified.
    pub fn mismatch(&self, dir: &Path) -> Option<String> {
        self.files.iter().find_map(|f| match std::fs::metadata(dir.join(&f.path)) {
            Ok(meta) if meta.len() == f.size => None,
            Ok(meta) => Some(format!("{} is {} bytes, {} were verified", f.path, meta.len(), f.size)),
            Err(_) => Some(format!("{} is missing", f.path)),
        })
    }
}

/// A model found in the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// Its directory.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
}

impl ModelCache {
    /// The platform cache directory's `cocosearch/models` (`$XDG_CACHE_HOME` or `~/.cache`
    /// on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows), as the `dirs`
    /// crate derives it — like `database.path`, the one place outside `config` where the
    /// environment decides a default.
    pub fn user() -> Option<ModelCache> {
        dirs::cache_dir().map(|d| ModelCache { root: d.join("cocosearch").join("models") })
    }

    /// The directory `model` is (or would be) cached in.
    pub fn dir(&self, model: &KnownModel) -> PathBuf {
        self.root.join(format!("{}@{}", model.name, model.revision))
    }

    /// The cached copy of `model`, when it is complete and unchanged since it was verified.
    pub fn find(&self, model: &KnownModel) -> Option<Cached> {
        let dir = self.dir(model);
        let manifest = Manifest::read(&dir)?;
        if manifest.revision != model.revision || manifest.mismatch(&dir).is_some() {
            return None;
        }
        Some(Cached { dir, manifest })
    }

    /// Removes temporary download directories that a dead process left behind.
    pub(super) fn sweep_partials(&self) {
        let Ok(entries) = std::fs::read_dir(&self.root) else { return };
        for entry in entries.flatten() {
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .is_some_and(|age| age > STALE_PARTIAL);
            if stale && entry.file_name().to_string_lossy().starts_with(PARTIAL_PREFIX) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            name: "m".into(),
            repo: "o/m".into(),
            revision: "r".into(),
            files: vec![ManifestFile { path: "a.json".into(), size: 3, sha256: "x".into() }],
        }
    }

    #[test]
    fn a_changed_or_missing_file_is_a_mismatch() {
        let dir = tempfile::tempdir().expect("tempdir");
        let m = manifest();
        assert_eq!(m.mismatch(dir.path()).as_deref(), Some("a.json is missing"));
        std::fs::write(dir.path().join("a.json"), b"abcd").expect("write");
        assert_eq!(m.mismatch(dir.path()).as_deref(), Some("a.json is 4 bytes, 3 were verified"));
        std::fs::write(dir.path().join("a.json"), b"abc").expect("write");
        assert_eq!(m.mismatch(dir.path()), None);
    }
}
