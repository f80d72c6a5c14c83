//! Indexing over a team's shared index: a file whose content equals the shared base's copy is
//! left to the base; only the others are indexed here, into the local overlay.
//!
//! Whether a file equals the base's is decided by content hash (blake3, as the base recorded
//! it) and by how the base cut it (its chunking key must be this run's). What was found equal
//! is kept in a *ledger* on this machine with the working tree's size and mtime, so the next
//! run and every search check it by `stat` alone, as an index run checks its own files.
//!
//! Invariant: the base shows a file only when the ledger records it with the working tree's
//! current size and mtime and the hash the base holds now, and the overlay does not hold it
//! ([`base_view`]); anything else about it is shadowed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::discover::{Candidate, ProjectFiles};
use crate::store::overlay::{BaseView, Ledger, Verified};
use crate::store::{FileState, Store};

/// A team's shared index, as a run over it and the requests reading it need it.
#[derive(Clone)]
pub struct SharedBase {
    /// The shared store, opened read-only.
    pub store: Arc<dyn Store>,
    /// The shared index's name there (read at its current snapshot).
    pub index: String,
    /// This working tree's ledger (see [`crate::store::overlay::ledger_path`]).
    pub ledger: PathBuf,
    /// The model context the base's files were cut for: an overlay that records none (keyword
    /// search only) cuts its files alike, so equal files carry equal chunking keys.
    pub context_tokens: Option<u32>,
}

/// A run's candidates split into those to index here and those the base holds as they are,
/// with the ledger brought up to date for the paths `covered` says the run looked at.
pub(crate) struct Split {
    pub own: Vec<Candidate>,
    pub from_base: Vec<String>,
}

/// Splits `candidates`: a file whose content (by the ledger when its size and mtime are the
/// ones recorded, else read and hashed) equals the base's copy, cut with `chunking`, is the
/// base's. Records what it found in `ledger`, dropping every entry `in_scope` that is not the
/// base's any more.
pub(crate) fn split(
    base: &HashMap<String, FileState>,
    candidates: Vec<Candidate>,
    chunking: &str,
    files: &ProjectFiles,
    max_size: u64,
    ledger: &mut Ledger,
    in_scope: impl Fn(&str) -> bool,
) -> Split {
    let mut verified = BTreeMap::new();
    let (mut own, mut from_base) = (Vec::new(), Vec::new());
    for candidate in candidates {
        let found = base
            .get(&candidate.relative)
            .filter(|state| state.skip_reason.is_none() && state.chunking.as_deref() == Some(chunking))
            .and_then(|state| equal_to_base(&candidate, state, ledger, files, max_size));
        match found {
            Some(entry) => {
                from_base.push(candidate.relative.clone());
                verified.insert(candidate.relative, entry);
            }
            None => own.push(candidate),
        }
    }
    ledger.replace(in_scope, verified);
    Split { own, from_base }
}

/// The ledger's entry for `candidate` when its content is the base's `state`.
fn equal_to_base(
    candidate: &Candidate,
    state: &FileState,
    ledger: &Ledger,
    files: &ProjectFiles,
    max_size: u64,
) -> Option<Verified> {
    let base_hash = blake3::Hash::from(state.hash).to_hex().to_string();
    let same_stat = |v: &Verified| v.size == candidate.size && v.mtime_ns == candidate.mtime_ns;
    if let Some(known) = ledger.get(&candidate.relative).filter(|v| same_stat(v)) {
        return (known.hash == base_hash).then(|| known.clone());
    }
    let (bytes, _) = files.read(&candidate.within, max_size).ok()?;
    if bytes.len() as u64 > max_size || *blake3::hash(&bytes).as_bytes() != state.hash {
        return None;
    }
    Some(Verified { size: candidate.size, mtime_ns: candidate.mtime_ns, hash: base_hash })
}

/// What of the base a search of the working tree at `root` reads: the files the ledger found
/// equal, still of the size and mtime it recorded, of the hash the base holds now, and not in
/// the overlay (`local`); every other base file is shadowed.
pub fn base_view(root: &Path, base: HashMap<String, FileState>, ledger: &Ledger, local: &HashSet<String>) -> BaseView {
    let mut view = BaseView::default();
    for (path, state) in base {
        let unchanged = ledger.get(&path).filter(|v| {
            v.hash == blake3::Hash::from(state.hash).to_hex().as_str()
                && !local.contains(&path)
                && on_disk(root, &path, v)
        });
        match unchanged {
            Some(v) => {
                let state = FileState { size: v.size, mtime_ns: v.mtime_ns, ..state };
                view.kept.insert(path, state);
            }
            None => view.shadowed.push(path),
        }
    }
    view.shadowed.sort();
    view
}

/// Whether the file at `path` under `root` is a regular file of the size and mtime recorded.
fn on_disk(root: &Path, path: &str, recorded: &Verified) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(root.join(path)) else { return false };
    meta.is_file() && meta.len() == recorded.size && crate::discover::mtime_ns(&meta) == recorded.mtime_ns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(bytes: &[u8], chunking: &str) -> FileState {
        FileState {
            size: bytes.len() as u64,
            mtime_ns: 1,
            hash: *blake3::hash(bytes).as_bytes(),
            skip_reason: None,
            chunking: Some(chunking.to_string()),
        }
    }

    fn candidates(root: &Path, paths: &[&str]) -> Vec<Candidate> {
        paths
            .iter()
            .map(|p| {
                let meta = std::fs::metadata(root.join(p)).expect("stat");
                Candidate {
                    path: root.join(p),
                    relative: p.to_string(),
                    within: PathBuf::from(p),
                    size: meta.len(),
                    mtime_ns: crate::discover::mtime_ns(&meta),
                }
            })
            .collect()
    }

    #[test]
    fn only_files_equal_to_the_base_and_cut_alike_are_left_to_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for (path, text) in [("same.py", "x = 1\n"), ("edited.py", "y = 2\n"), ("new.py", "z\n"), ("recut.py", "w\n")] {
            std::fs::write(root.join(path), text).expect("write");
        }
        let base: HashMap<String, FileState> = [
            ("same.py", state(b"x = 1\n", "k")),
            ("edited.py", state(b"y = 1\n", "k")),
            ("recut.py", state(b"w\n", "other chunking")),
            ("gone.py", state(b"g\n", "k")),
        ]
        .into_iter()
        .map(|(p, s)| (p.to_string(), s))
        .collect();
        let files = ProjectFiles::new(root).expect("project");
        let mut ledger = Ledger::default();
        let found = candidates(root, &["same.py", "edited.py", "new.py", "recut.py"]);
        let parted = split(&base, found, "k", &files, 1 << 20, &mut ledger, |_| true);
        let own: Vec<&str> = parted.own.iter().map(|c| c.relative.as_str()).collect();
        assert_eq!((parted.from_base, own), (vec!["same.py".to_string()], vec!["edited.py", "new.py", "recut.py"]));

        // A search reads the base's same.py only; gone.py, edited.py and recut.py are shadowed.
        let view = base_view(root, base.clone(), &ledger, &HashSet::new());
        assert_eq!(view.kept.keys().collect::<Vec<_>>(), ["same.py"]);
        assert_eq!(view.shadowed, ["edited.py", "gone.py", "recut.py"]);
        // Edited since the run (another size): shadowed at once, before any run.
        std::fs::write(root.join("same.py"), "x = 100\n").expect("edit");
        assert!(base_view(root, base.clone(), &ledger, &HashSet::new()).kept.is_empty());
        // Held by the overlay: never read from the base.
        std::fs::write(root.join("same.py"), "x = 1\n").expect("revert");
        let again = candidates(root, &["same.py"]);
        let mut fresh_ledger = Ledger::default();
        split(&base, again, "k", &files, 1 << 20, &mut fresh_ledger, |_| true);
        let overlay: HashSet<String> = ["same.py".to_string()].into();
        assert!(base_view(root, base, &fresh_ledger, &overlay).kept.is_empty());
    }
}
