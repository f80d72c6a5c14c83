//! Snapshots: the states of one project's tree an index keeps, sharing what they have in common.
//!
//! A stored file is a version of a path: its path and its content hash, with its chunks,
//! vectors, keyword terms and graph facts. A snapshot maps paths to stored files, so a branch,
//! a worktree or a release that holds a file as another snapshot holds it stores nothing again:
//! switching to it parses and embeds nothing. A stored file no snapshot holds is deleted with
//! everything that is its own, in the transaction that lets it go.
//!
//! Every write of files goes to the index's current snapshot ([`SnapshotWriter::begin_snapshot`]
//! chooses it); every read goes to the snapshot its reader was opened at ([`At`]).

use std::time::SystemTime;

use super::StoreError;

/// Which snapshot a reader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The index's current snapshot: the one its last run wrote.
    Current,
    /// A snapshot by id (see [`SnapshotRecord::id`]).
    Snapshot(i64),
}

/// How a snapshot got its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotOrigin {
    /// The branch checked out (`main`).
    Branch,
    /// A detached HEAD: the commit's short id.
    Commit,
    /// Named by the user (`cocosearch index --snapshot NAME`).
    Named,
    /// A tree outside git, or a store written before snapshots were kept.
    WorkingTree,
}

super::types::named_enum!(SnapshotOrigin {
    Branch => "branch",
    Commit => "commit",
    Named => "named",
    WorkingTree => "working-tree",
});

/// The snapshot an index run writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotSpec {
    /// Its name, unique in the index.
    pub name: String,
    /// How it got the name.
    pub origin: SnapshotOrigin,
    /// The commit checked out, if any.
    pub git_commit: Option<String>,
    /// The branch checked out, if any.
    pub git_branch: Option<String>,
    /// The root of the tree it was taken from (a worktree of the project, or the project).
    pub worktree: String,
}

/// A snapshot as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRecord {
    /// Its id in the index.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// How it got the name.
    pub origin: SnapshotOrigin,
    /// The commit it was last taken at.
    pub git_commit: Option<String>,
    /// The branch it was last taken on.
    pub git_branch: Option<String>,
    /// The tree it was taken from.
    pub worktree: Option<String>,
    /// When it was first taken.
    pub created_at: SystemTime,
    /// When a run last wrote it.
    pub updated_at: SystemTime,
    /// Whether it is the index's current snapshot.
    pub current: bool,
    /// The files it holds.
    pub files: u64,
    /// Of those, the files the current snapshot holds too (path and content).
    pub shared_with_current: u64,
}

/// A stored version of a path, which a run may take into its snapshot instead of parsing the
/// file again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredVersion {
    /// blake3 of the content.
    pub hash: [u8; 32],
    /// How its chunks were cut (see [`super::FileRecord::chunking`]).
    pub chunking: Option<String>,
}

/// A file whose stored version the current snapshot holds, with its size and mtime in the
/// tree: a file whose content did not change, or one whose content a snapshot stored before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFile {
    /// Path relative to the root.
    pub path: String,
    /// blake3 of the content: the stored version to hold.
    pub hash: [u8; 32],
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
}

/// What letting snapshots go deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collected {
    /// Snapshots deleted.
    pub snapshots: u64,
    /// Stored files no snapshot held any more, deleted with their chunks.
    pub files: u64,
    /// Their chunks.
    pub chunks: u64,
    /// Chunk texts nothing held any more, freed with their vectors, terms and definitions.
    pub texts: u64,
}

/// Whether a listing of snapshots counts their files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotCounts {
    /// Each snapshot's files, and those it shares with the current one (a pass over what
    /// every snapshot holds: for listings, not for every search).
    Counted,
    /// No counts (both 0): which snapshots there are, at once.
    Uncounted,
}

/// The snapshots of an index.
pub trait SnapshotReader: Send + Sync {
    /// Every snapshot of the index, oldest first.
    fn snapshots(&self, counts: SnapshotCounts) -> Result<Vec<SnapshotRecord>, StoreError>;

    /// The stored versions of each of `paths` (all paths when `None`) in any snapshot.
    fn stored_versions(
        &self,
        paths: Option<&[String]>,
    ) -> Result<std::collections::HashMap<String, Vec<StoredVersion>>, StoreError>;
}

/// Choosing and deleting snapshots.
pub trait SnapshotWriter: Send + Sync {
    /// Makes the snapshot `spec` names the index's current one, the one every write goes to:
    /// an existing one keeps what it holds and takes `spec`'s commit, branch and tree; a new
    /// one starts as a copy of the current snapshot, or is the current snapshot renamed when
    /// that holds nothing or is unnamed ([`SnapshotOrigin::WorkingTree`]: files stored before
    /// snapshots were kept, or a tree outside git). One transaction: a crash leaves the old
    /// current snapshot.
    fn begin_snapshot(&self, spec: &SnapshotSpec) -> Result<SnapshotRecord, StoreError>;

    /// Deletes these snapshots (the current one never: it is skipped), then every stored file
    /// no snapshot holds any more, with its chunks, vectors, keyword terms and graph facts.
    fn delete_snapshots(&self, ids: &[i64]) -> Result<Collected, StoreError>;
}
