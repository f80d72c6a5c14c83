//! Naming a snapshot: what `--at REF` (and `at` over MCP) means, once for every presenter.
//!
//! A reference is, in this order: a snapshot's name, a branch a snapshot was taken on, a tag
//! whose commit a snapshot was taken at, or a commit (a prefix of at least 4 hexadecimal
//! digits) a snapshot was taken at. Tags are read from the repository's refs (`discover::git`).

use std::path::Path;

use crate::discover::git;
pub use crate::store::{Collected, SnapshotCounts, SnapshotRecord};

use crate::store::{At, Store, StoreError};

/// Why a reference names no snapshot.
#[derive(Debug, thiserror::Error)]
pub enum AtError {
    /// Nothing indexed matches it.
    #[error(
        "no snapshot of index {index} matches {reference:?}{mean}: {listed} — index it first (check it out, then `cocosearch index`, or `cocosearch index --snapshot NAME`)"
    )]
    Unknown {
        /// The index.
        index: String,
        /// The reference given.
        reference: String,
        /// ` (did you mean `main`?)` when a snapshot's name or branch looks like what was
        /// meant; else empty.
        mean: String,
        /// The snapshots there are, for the message.
        listed: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<AtError> for super::Error {
    fn from(e: AtError) -> Self {
        match e {
            AtError::Store(e) => e.into(),
            unknown @ AtError::Unknown { .. } => super::Error::of_kind(super::ErrorKind::NotFound, unknown.to_string()),
        }
    }
}

impl super::Target {
    /// The snapshots the index keeps, oldest first (`Counted`: with their file counts).
    pub fn snapshots(&self, counts: SnapshotCounts) -> Result<Vec<SnapshotRecord>, super::Error> {
        Ok(self.store.reader(&self.index)?.snapshots(counts)?)
    }

    /// Deletes the snapshots `references` name (each resolved first: an unknown one, or the
    /// current snapshot, deletes nothing), in one deletion under the index's write lock.
    /// Returns their names and what only they held.
    pub fn delete_snapshots(&self, references: &[String]) -> Result<(Vec<String>, Collected), super::Error> {
        let meta = self.meta()?;
        let mut doomed: Vec<(i64, String)> = Vec::new();
        for reference in references {
            match resolve(self.store.as_ref(), &self.index, &meta.root, Some(reference))? {
                (At::Snapshot(id), Some(record)) => {
                    if !doomed.iter().any(|(i, _)| *i == id) {
                        doomed.push((id, record.name));
                    }
                }
                (_, record) => {
                    return Err(super::Error::usage(format!(
                        "{} is the current snapshot of index {} and cannot be deleted — index another branch or `--snapshot NAME` first",
                        record.map_or_else(|| reference.clone(), |r| r.name),
                        self.index
                    )));
                }
            }
        }
        let ids: Vec<i64> = doomed.iter().map(|(id, _)| *id).collect();
        let collected = self.store.writer(&self.index)?.delete_snapshots(&ids)?;
        Ok((doomed.into_iter().map(|(_, name)| name).collect(), collected))
    }
}

/// The snapshot of index `index` (of the project at `root`) that `reference` names; `None`
/// reads the snapshot of the worktree at `root` ([`of_worktree`]).
pub fn resolve(
    store: &dyn Store,
    index: &str,
    root: &Path,
    reference: Option<&str>,
) -> Result<(At, Option<SnapshotRecord>), AtError> {
    let reference = reference.map(str::trim).filter(|r| !r.is_empty());
    let snapshots = match store.reader(index)?.snapshots(SnapshotCounts::Uncounted) {
        Ok(snapshots) => snapshots,
        // No index: the caller's own read reports it, with its own fix.
        Err(StoreError::IndexNotFound(_)) if reference.is_none() => return Ok((At::Current, None)),
        Err(e) => return Err(e.into()),
    };
    let Some(reference) = reference else { return Ok(of_worktree(&snapshots, root)) };
    let found = find(&snapshots, reference, || git::tag_commit(root, reference));
    match found {
        Some(s) => Ok((if s.current { At::Current } else { At::Snapshot(s.id) }, Some(s.clone()))),
        None => Err(AtError::Unknown {
            index: index.to_string(),
            reference: reference.to_string(),
            mean: crate::config::did_you_mean(
                reference,
                snapshots.iter().flat_map(|s| std::iter::once(s.name.as_str()).chain(s.git_branch.as_deref())),
            )
            .map(|m| format!(" ({m})"))
            .unwrap_or_default(),
            listed: if snapshots.is_empty() {
                "it has none".to_string()
            } else {
                let names: Vec<String> = snapshots.iter().map(describe).collect();
                format!("it has {}", names.join(", "))
            },
        }),
    }
}

/// The snapshot of the worktree at `root`: the one a run there wrote last. Worktrees of one
/// repository share its index, and the index's current snapshot is the one whichever worktree
/// ran last wrote; a worktree reads its own. Another than the current one is read as any
/// other snapshot (its stored text, no lines from disk). The current one when the index has
/// none of this worktree's (a run from it has not finished yet).
fn of_worktree(snapshots: &[SnapshotRecord], root: &Path) -> (At, Option<SnapshotRecord>) {
    let root = root.display().to_string();
    let own =
        snapshots.iter().filter(|s| s.worktree.as_deref() == Some(root.as_str())).max_by_key(|s| (s.updated_at, s.id));
    match own {
        Some(s)
            if !s.current && !snapshots.iter().any(|c| c.current && c.worktree.as_deref() == Some(root.as_str())) =>
        {
            (At::Snapshot(s.id), Some(s.clone()))
        }
        _ => (At::Current, None),
    }
}

/// `name (branch main, commit 1a2b3c4d)`.
fn describe(s: &SnapshotRecord) -> String {
    let commit = s.git_commit.as_deref().map(|c| format!("commit {}", &c[..c.len().min(8)]));
    let details: Vec<String> =
        [s.git_branch.as_ref().map(|b| format!("branch {b}")), commit].into_iter().flatten().collect();
    if details.is_empty() { s.name.clone() } else { format!("{} ({})", s.name, details.join(", ")) }
}

fn find<'a>(
    snapshots: &'a [SnapshotRecord],
    reference: &str,
    tag: impl FnOnce() -> Option<String>,
) -> Option<&'a SnapshotRecord> {
    // The newest match wins when several were taken on one branch or commit.
    let newest = |pick: &dyn Fn(&SnapshotRecord) -> bool| {
        snapshots.iter().filter(|s| pick(s)).max_by_key(|s| (s.updated_at, s.id))
    };
    if let Some(s) = snapshots.iter().find(|s| s.name == reference) {
        return Some(s);
    }
    if let Some(s) = newest(&|s| s.git_branch.as_deref() == Some(reference)) {
        return Some(s);
    }
    if let Some(commit) = tag()
        && let Some(s) = newest(&|s| s.git_commit.as_deref() == Some(commit.as_str()))
    {
        return Some(s);
    }
    let hex = reference.len() >= 4 && reference.bytes().all(|b| b.is_ascii_hexdigit());
    let lower = reference.to_ascii_lowercase();
    hex.then(|| newest(&|s| s.git_commit.as_deref().is_some_and(|c| c.starts_with(&lower)))).flatten()
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use crate::store::SnapshotOrigin;

    fn snapshot(id: i64, name: &str, branch: Option<&str>, commit: &str) -> SnapshotRecord {
        SnapshotRecord {
            id,
            name: name.into(),
            origin: SnapshotOrigin::Named,
            git_commit: Some(commit.into()),
            git_branch: branch.map(Into::into),
            worktree: None,
            created_at: UNIX_EPOCH,
            updated_at: UNIX_EPOCH,
            current: false,
            files: 1,
            shared_with_current: 0,
        }
    }

    #[test]
    fn a_reference_is_a_name_a_branch_a_tag_or_a_commit() {
        let all = [
            snapshot(1, "v1.0", Some("main"), "aaaa1111"),
            snapshot(2, "main", Some("main"), "bbbb2222"),
            snapshot(3, "feature", Some("feature"), "cccc3333"),
        ];
        let id = |reference: &str, tag: Option<&str>| find(&all, reference, || tag.map(Into::into)).map(|s| s.id);
        assert_eq!(id("v1.0", None), Some(1));
        assert_eq!(id("main", None), Some(2), "a name before a branch");
        assert_eq!(id("feature", None), Some(3));
        assert_eq!(id("release", Some("aaaa1111")), Some(1), "a tag by its commit");
        assert_eq!(id("cccc", None), Some(3), "a commit prefix");
        assert_eq!(id("CCCC33", None), Some(3));
        assert_eq!(id("ccc", None), None, "too short to be a commit");
        assert_eq!(id("dddd", None), None);
    }
}
