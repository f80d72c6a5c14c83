//! The local model directories this machine has used, by the name of the model each holds.
//!
//! A model cocosearch downloads lives in the cache under its name and revision; a model from a
//! local directory (`embedding.modelPath`) lives wherever the user put it. So that an index
//! finds its model whatever `modelPath` says today, the model cache remembers, for each model
//! name a local directory was used as, that directory and the SHA-256 of its weights
//! (`<cache>/local-models.json`): a remembered directory is used only while its weights are
//! still those, so a directory whose files were replaced is not taken for the model it held.
//! Remembering is best effort: a cache that cannot be written costs only the memory.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::cache::ModelCache;
use super::identify;

/// The file, in the model cache's root.
const FILE: &str = "local-models.json";

/// One remembered directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remembered {
    /// The model's name, as indexes record it.
    pub name: String,
    /// The directory (canonical).
    pub path: PathBuf,
    /// The SHA-256 of its weights (`model.safetensors`) when it was used.
    pub weights_sha256: String,
}

/// Remembers that `dir` holds the model `name`.
pub fn remember(cache: &ModelCache, name: &str, dir: &Path) {
    let (Ok(path), Some(weights_sha256)) = (dir.canonicalize(), identify::weights_sha256(dir)) else { return };
    let entry = Remembered { name: name.to_string(), path, weights_sha256 };
    let mut entries = all(cache);
    if entries.contains(&entry) {
        return;
    }
    // One directory per name: the one used last.
    entries.retain(|e| e.name != entry.name);
    entries.push(entry);
    if let Err(e) = write(cache, &entries) {
        tracing::debug!(error = %e, "cannot remember a local model directory");
    }
}

/// What is remembered of the model `name`, whether or not its directory still holds it.
pub fn entry(cache: &ModelCache, name: &str) -> Option<Remembered> {
    all(cache).into_iter().find(|e| e.name == name)
}

impl Remembered {
    /// Whether `dir` holds this model's weights: the remembered directory unchanged, or a copy
    /// of it (the directory moved or renamed, which renames nothing).
    pub fn holds(&self, dir: &Path) -> bool {
        identify::weights_sha256(dir).as_deref() == Some(self.weights_sha256.as_str())
    }
}

/// Every remembered directory (`cocosearch model list`).
pub fn all(cache: &ModelCache) -> Vec<Remembered> {
    std::fs::read(cache.root.join(FILE)).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

fn write(cache: &ModelCache, entries: &[Remembered]) -> std::io::Result<()> {
    std::fs::create_dir_all(&cache.root)?;
    let file = cache.root.join(FILE);
    // Written aside and renamed, so a reader never sees half a file.
    let partial = file.with_extension(format!("json.{}.partial", std::process::id()));
    std::fs::write(&partial, serde_json::to_vec_pretty(entries).map_err(std::io::Error::other)?)?;
    std::fs::rename(&partial, &file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directory remembered for the model `name`, while it still holds the same weights.
    fn remembered(cache: &ModelCache, name: &str) -> Option<PathBuf> {
        entry(cache, name).filter(|e| e.holds(&e.path)).map(|e| e.path)
    }

    #[test]
    fn a_directory_is_remembered_by_name_until_its_weights_change() {
        let root = tempfile::tempdir().expect("cache");
        let cache = ModelCache { root: root.path().join("models") };
        let dir = tempfile::tempdir().expect("model");
        std::fs::write(dir.path().join("model.safetensors"), b"weights one").expect("write");
        assert_eq!(remembered(&cache, "mine"), None);
        remember(&cache, "mine", dir.path());
        let canonical = dir.path().canonicalize().expect("canonical");
        assert_eq!(remembered(&cache, "mine"), Some(canonical.clone()));
        assert_eq!(remembered(&cache, "other"), None);
        std::fs::write(dir.path().join("model.safetensors"), b"other weights, longer").expect("write");
        assert_eq!(remembered(&cache, "mine"), None, "the files were replaced");
        remember(&cache, "mine", dir.path());
        assert_eq!(all(&cache).len(), 1, "one directory per name");
        assert_eq!(remembered(&cache, "mine"), Some(canonical));
    }
}
