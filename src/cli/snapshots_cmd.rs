//! `cocosearch snapshots`: the snapshots an index keeps.

use std::time::SystemTime;

use super::args::SnapshotsArgs;
use super::output::{number, print, print_json};
use super::{Context, Exit};
use crate::index::human_duration;
use crate::wire;

/// `cocosearch snapshots`.
pub fn snapshots(ctx: &Context, args: &SnapshotsArgs) -> anyhow::Result<Exit> {
    let name = args.index.clone().unwrap_or_else(|| ctx.config.index_name());
    let store = ctx.open_store()?;
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
