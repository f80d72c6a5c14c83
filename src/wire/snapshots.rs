//! The JSON of snapshots (`cocosearch snapshots --json`, `list_snapshots`).

use serde_json::{Value, json};

use crate::store::{Collected, SnapshotRecord};

fn time(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// One snapshot.
pub fn snapshot_json(s: &SnapshotRecord) -> Value {
    json!({
        "name": s.name,
        "origin": s.origin.as_str(),
        "commit": s.git_commit,
        "branch": s.git_branch,
        "worktree": s.worktree,
        "created_at": time(s.created_at),
        "updated_at": time(s.updated_at),
        "current": s.current,
        "files": s.files,
        "shared_with_current": s.shared_with_current,
    })
}

/// The snapshots of index `index`.
pub fn snapshots_json(index: &str, listed: &[SnapshotRecord]) -> Value {
    json!({ "index": index, "snapshots": listed.iter().map(snapshot_json).collect::<Vec<_>>() })
}

/// What `cocosearch snapshots --delete` deleted of index `index`.
pub fn snapshots_deleted_json(index: &str, names: &[&str], collected: &Collected) -> Value {
    json!({
        "index": index,
        "deleted": names,
        "files_collected": collected.files,
        "chunks_collected": collected.chunks,
    })
}
