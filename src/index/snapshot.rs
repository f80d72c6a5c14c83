//! Which snapshot an index run writes, and which snapshots it lets go (`indexing.keepSnapshots`).
//!
//! The policy lives here once; the store only keeps what it is told (see `store::snapshots`).

use std::path::Path;

use crate::discover::git::{self, GitHead};
use crate::store::{Collected, IndexWriter, SnapshotCounts, SnapshotOrigin, SnapshotRecord, SnapshotSpec, StoreError};

/// The longest snapshot name.
const MAX_NAME: usize = 100;

/// Why a snapshot name given on the command line cannot be one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{name:?} cannot name a snapshot: {problem} — use up to 100 letters, digits and . _ - / + @ (a release such as v1.2.0)"
)]
pub struct BadSnapshotName {
    /// The name given.
    pub name: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

/// Checks a name given with `--snapshot`.
pub fn check_name(name: &str) -> Result<(), BadSnapshotName> {
    let bad = |problem| Err(BadSnapshotName { name: name.to_string(), problem });
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.len() > MAX_NAME {
        return bad("it is too long");
    }
    if !name.chars().all(|c| c.is_alphanumeric() || "._-/+@".contains(c)) {
        return bad("it holds a character other than those");
    }
    Ok(())
}

/// The snapshot a run at `root` writes while `head` is checked out: the one `named`
/// (`--snapshot`), else the branch checked out, else a detached HEAD's commit, else (outside
/// git) `working-tree`. The caller reads HEAD once, when the run begins, and the snapshot keeps
/// that commit: HEAD may move while the run reads files (a checkout during a watcher's batch),
/// and a snapshot named after one checkout must never carry another's commit.
pub fn spec_for(root: &Path, head: &GitHead, named: Option<&str>) -> SnapshotSpec {
    let (name, origin) = match named {
        Some(name) => (name.to_string(), SnapshotOrigin::Named),
        None => name_of(head),
    };
    SnapshotSpec {
        name,
        origin,
        git_commit: head.commit.clone(),
        git_branch: head.branch.clone(),
        worktree: root.display().to_string(),
    }
}

/// The name of the snapshot a run writes by default while `head` is checked out, and why.
pub fn name_of(head: &GitHead) -> (String, SnapshotOrigin) {
    match (&head.branch, &head.commit) {
        (Some(branch), _) => (branch.clone(), SnapshotOrigin::Branch),
        (None, Some(commit)) => (commit.chars().take(12).collect(), SnapshotOrigin::Commit),
        (None, None) => ("working-tree".to_string(), SnapshotOrigin::WorkingTree),
    }
}

/// The snapshots to let go: all but the current one, the branches checked out in a worktree
/// (`checked_out`), and the `keep` most recently written of the rest.
pub fn to_let_go(snapshots: &[SnapshotRecord], keep: u64, checked_out: &[String]) -> Vec<i64> {
    let mut others: Vec<&SnapshotRecord> = snapshots
        .iter()
        .filter(|s| !s.current)
        .filter(|s| !(s.origin == SnapshotOrigin::Branch && checked_out.contains(&s.name)))
        .collect();
    // Newest first; ids break ties (a later snapshot has a larger id).
    others.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(b.id.cmp(&a.id)));
    others.into_iter().skip(usize::try_from(keep).unwrap_or(usize::MAX)).map(|s| s.id).collect()
}

/// Deletes the snapshots `indexing.keepSnapshots` no longer keeps, with what only they stored.
pub fn prune(writer: &dyn IndexWriter, root: &Path, keep: u64) -> Result<Collected, StoreError> {
    let snapshots = writer.reader().snapshots(SnapshotCounts::Uncounted)?;
    let ids = to_let_go(&snapshots, keep, &git::checked_out_branches(root));
    if ids.is_empty() {
        return Ok(Collected::default());
    }
    writer.delete_snapshots(&ids)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    fn snapshot(id: i64, name: &str, origin: SnapshotOrigin, age: u64) -> SnapshotRecord {
        SnapshotRecord {
            id,
            name: name.into(),
            origin,
            git_commit: None,
            git_branch: None,
            worktree: None,
            created_at: UNIX_EPOCH,
            updated_at: UNIX_EPOCH + Duration::from_secs(1000 - age),
            current: false,
            files: 0,
            shared_with_current: 0,
        }
    }

    #[test]
    fn keeps_the_current_the_checked_out_branches_and_the_newest_others() {
        let mut all = vec![
            snapshot(1, "v1", SnapshotOrigin::Named, 50),
            snapshot(2, "v2", SnapshotOrigin::Named, 40),
            snapshot(3, "feature", SnapshotOrigin::Branch, 60),
            snapshot(4, "v3", SnapshotOrigin::Named, 30),
            snapshot(5, "main", SnapshotOrigin::Branch, 0),
        ];
        all[4].current = true;
        let checked_out = vec!["feature".to_string()];
        assert_eq!(to_let_go(&all, 2, &checked_out), vec![1]);
        assert_eq!(to_let_go(&all, 0, &checked_out), vec![4, 2, 1]);
        assert!(to_let_go(&all, 3, &checked_out).is_empty());
        // A branch no worktree has checked out is kept like any other snapshot.
        assert_eq!(to_let_go(&all, 2, &[]), vec![1, 3]);
    }

    #[test]
    fn snapshot_names_are_checked() {
        assert!(check_name("v1.2.0").is_ok());
        assert!(check_name("release/2024-01+hotfix@2").is_ok());
        for bad in ["", "a b", "x;y", &"v".repeat(101)] {
            let e = check_name(bad).expect_err(bad);
            assert!(e.to_string().contains("cannot name a snapshot"), "{e}");
        }
    }
}
