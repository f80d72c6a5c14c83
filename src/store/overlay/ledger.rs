//! The ledger of a working tree read over a shared index: the files found equal to the base's
//! copy, as they were then (size, mtime, content hash), kept on this machine so later runs and
//! every search re-check them by `stat` alone. It is only a cache of hashes: one that is
//! missing or damaged is empty, and the files are hashed again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::store::StoreError;

/// The files of a working tree found equal to the base's copy.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    files: BTreeMap<String, Verified>,
}

/// A file as it was when found equal to the base's copy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verified {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// blake3 of the content, hex.
    pub hash: String,
}

/// Where the ledger of index `index` for the working tree at `root` lives, under `dir` (the
/// embedded store's directory): one per working tree, as worktrees share an index.
pub fn ledger_path(dir: &Path, index: &str, root: &Path) -> PathBuf {
    let tree = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
    dir.join("shared").join(format!("{index}-{}.json", &tree[..16]))
}

impl Ledger {
    /// The ledger at `path`; none yet, or one that cannot be read, is empty.
    pub fn load(path: &Path) -> Ledger {
        let Ok(bytes) = std::fs::read(path) else { return Ledger::default() };
        serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(path = %path.display(), error = %e, "unreadable ledger of shared files; checking them again");
            Ledger::default()
        })
    }

    /// Writes the ledger whole (a new file renamed over the old), so a reader never sees half.
    pub fn save(&self, path: &Path) -> Result<(), StoreError> {
        let io = |e: std::io::Error| StoreError::Query {
            context: format!("writing {}", path.display()),
            message: e.to_string(),
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let bytes = serde_json::to_vec(self).map_err(|e| io(std::io::Error::other(e)))?;
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, bytes).map_err(io)?;
        std::fs::rename(&partial, path).map_err(io)
    }

    /// What is recorded of `path`.
    pub fn get(&self, path: &str) -> Option<&Verified> {
        self.files.get(path)
    }

    /// Drops every entry `in_scope` says a run looked at, then records `verified`.
    pub fn replace(&mut self, in_scope: impl Fn(&str) -> bool, verified: BTreeMap<String, Verified>) {
        self.files.retain(|path, _| !in_scope(path));
        self.files.extend(verified);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ledger_survives_a_round_trip_and_a_damaged_one_is_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = ledger_path(dir.path(), "team", Path::new("/some/tree"));
        let mut ledger = Ledger::default();
        let entry = Verified { size: 1, mtime_ns: 2, hash: "ab".into() };
        ledger.replace(|_| true, [("a.py".to_string(), entry.clone())].into());
        ledger.save(&path).expect("save");
        assert_eq!(Ledger::load(&path).get("a.py"), Some(&entry));
        std::fs::write(&path, "{not json").expect("damage");
        assert_eq!(Ledger::load(&path).get("a.py"), None);
        assert_ne!(path, ledger_path(dir.path(), "team", Path::new("/another/tree")), "one ledger per tree");
    }

    #[test]
    fn a_run_of_some_paths_keeps_the_entries_of_the_others() {
        let entry = |size| Verified { size, mtime_ns: 0, hash: String::new() };
        let mut ledger = Ledger::default();
        ledger.replace(|_| true, [("a".to_string(), entry(1)), ("b".to_string(), entry(2))].into());
        ledger.replace(|p| p == "a", BTreeMap::new());
        assert_eq!((ledger.get("a"), ledger.get("b")), (None, Some(&entry(2))));
    }
}
