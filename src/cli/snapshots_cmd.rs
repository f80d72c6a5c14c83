//! `cocosearch snapshots`: the snapshots an index keeps.

use std::time::SystemTime;

use super::args::SnapshotsArgs;
use super::output::{number, plural, print, print_json, visible};
use super::{Context, Exit, failed};
use crate::wire;
use crate::workspace::indexes::human_duration;
use crate::workspace::snapshots::SnapshotCounts;
use crate::workspace::{Caller, IndexRef, Need, Target};

/// `cocosearch snapshots`.
pub fn snapshots(ctx: &Context, args: &SnapshotsArgs) -> anyhow::Result<Exit> {
    let target = ctx.workspace().open(Caller::Command, &IndexRef::from(args.index.clone()), Need::Index);
    let target = target.map_err(failed)?;
    if !args.delete.is_empty() {
        return delete(&target, args);
    }
    let name = &target.index;
    let listed = target.snapshots(SnapshotCounts::Counted).map_err(failed)?;
    if args.json {
        print_json(&wire::snapshots_json(name, &listed))?;
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
            visible(&s.name),
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
fn delete(target: &Target, args: &SnapshotsArgs) -> anyhow::Result<Exit> {
    let (names, collected) = target.delete_snapshots(&args.delete).map_err(failed)?;
    let name = &target.index;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    if args.json {
        print_json(&wire::snapshots_deleted_json(name, &names, &collected))?;
    } else {
        print(&format!(
            "deleted {} of index {name}: {} ({}) no other snapshot held\n",
            visible(&names.join(", ")),
            plural(collected.files, "stored file"),
            plural(collected.chunks, "chunk")
        ))?;
    }
    Ok(Exit::Success)
}
