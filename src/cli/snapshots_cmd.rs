//! `cocosearch snapshots`: the snapshots an index keeps.

use std::time::SystemTime;

use super::args::SnapshotsArgs;
use super::output::{number, print, print_json};
use super::{Context, Exit, UsageError};
use crate::index::human_duration;
use crate::store::{At, Store, StoreError};
use crate::wire;

/// `cocosearch snapshots`.
pub fn snapshots(ctx: &Context, args: &SnapshotsArgs) -> anyhow::Result<Exit> {
    let name = args.index.clone().unwrap_or_else(|| ctx.config.index_name());
    let store = ctx.open_store()?;
    if !args.delete.is_empty() {
        return delete(store.as_ref(), &name, args);
    }
    let listed = store.reader(&name)?.snapshots(crate::store::SnapshotCounts::Counted)?;
    if args.json {
        print_json(&wire::snapshots_json(&name, &listed))?;
        return Ok(Exit::Success);
    }
    if listed.is_empty() {
        print(&format!("index {name} has no snapshots yet — run `cocosearch index`\n"))?;
        return Ok(Exit::Success);
    }
    let mut out = format!("snapshots of index {name}, oldest first:\n");
    for s in &listed {
        let marker = if s.current { "*" } else { " " };
        let commit = s.git_commit.as_deref().map_or_else(|| "-".to_string(), |c| c.chars().take(10).collect());
        let ago = SystemTime::now()
            .duration_since(s.updated_at)
            .map_or_else(|_| "now".into(), |d| format!("{} ago", human_duration(d)));
        let shared = if s.current {
            "current".to_string()
        } else {
            format!("shares {} with the current", number(s.shared_with_current))
        };
        out.push_str(&format!(
            "{marker} {:<24} {:<10} {:<9} {:>7} files  {}  {ago}\n",
            s.name,
            commit,
            s.origin.as_str(),
            number(s.files),
            shared
        ));
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// `cocosearch snapshots --delete REF...`: every reference resolved first (an unknown one, or
/// the current snapshot, deletes nothing), then one deletion under the index's write lock.
fn delete(store: &dyn Store, name: &str, args: &SnapshotsArgs) -> anyhow::Result<Exit> {
    let meta = store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.to_string()))?;
    let mut doomed = Vec::new();
    for reference in &args.delete {
        match crate::workspace::snapshots::resolve(store, name, &meta.root, Some(reference))? {
            (At::Snapshot(id), Some(record)) => {
                if !doomed.iter().any(|(i, _)| *i == id) {
                    doomed.push((id, record.name));
                }
            }
            (_, record) => {
                return Err(UsageError(format!(
                    "{} is the current snapshot of index {name} and cannot be deleted — index another branch or `--snapshot NAME` first",
                    record.map_or_else(|| reference.clone(), |r| r.name)
                ))
                .into());
            }
        }
    }
    let ids: Vec<i64> = doomed.iter().map(|(id, _)| *id).collect();
    let collected = store.writer(name)?.delete_snapshots(&ids)?;
    let names: Vec<&str> = doomed.iter().map(|(_, n)| n.as_str()).collect();
    if args.json {
        print_json(&wire::snapshots_deleted_json(name, &names, &collected))?;
    } else {
        print(&format!(
            "deleted {} of index {name}: {} stored files ({} chunks) no other snapshot held\n",
            names.join(", "),
            number(collected.files),
            number(collected.chunks)
        ))?;
    }
    Ok(Exit::Success)
}
