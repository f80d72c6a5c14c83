//! Tasks as JSON: one task (the Codebase MCP server's `TaskResponse` fields — `id`, `title`,
//! `description`, `notes`, `status`, `created_at`, `updated_at`, `planning_references`,
//! `branches`, `commits` — plus `status_history` and `links` with their times), a list, and a
//! task joined to the code (`cocosearch task show --json`).

use std::time::SystemTime;

use serde_json::{Value, json};

use super::graph::definition_json;
use crate::store::{LinkKind, TaskRecord, TaskStatus};
use crate::tasks::{ChangedFile, TaskCode};

fn time(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

/// One task.
pub fn task_json(t: &TaskRecord) -> Value {
    json!({
        "id": t.id,
        "project": t.project,
        "title": t.title,
        "description": t.description,
        "notes": t.notes,
        "status": t.status.as_str(),
        "created_at": time(t.created_at),
        "updated_at": time(t.updated_at),
        "planning_references": t.linked(LinkKind::Plan),
        "branches": t.linked(LinkKind::Branch),
        "commits": t.linked(LinkKind::Commit),
        "status_history": t.history.iter().map(|h| json!({
            "from_status": h.from.map(TaskStatus::as_str),
            "to_status": h.to.as_str(),
            "changed_at": time(h.at),
        })).collect::<Vec<_>>(),
        "links": t.links.iter().map(|l| json!({
            "kind": l.link.kind.as_str(),
            "value": l.link.value,
            "linked_at": time(l.linked_at),
        })).collect::<Vec<_>>(),
    })
}

/// A list of tasks, with the filters that chose them.
pub fn tasks_json(tasks: &[TaskRecord], status: Option<TaskStatus>, branch: Option<&str>, limit: usize) -> Value {
    json!({
        "tasks": tasks.iter().map(task_json).collect::<Vec<_>>(),
        "count": tasks.len(),
        "filters": { "status": status.map(TaskStatus::as_str), "branch": branch, "limit": limit },
    })
}

fn changed_file_json(f: &ChangedFile) -> Value {
    json!({
        "path": f.path,
        "change": f.change.as_str(),
        "indexed": f.indexed,
        "symbols": f.symbols.iter().map(definition_json).collect::<Vec<_>>(),
        "impact": f.impact.iter().map(|i| json!({
            "path": i.path,
            "depth": i.depth,
            "via": i.via,
            "line": i.line,
            "stale": i.stale,
        })).collect::<Vec<_>>(),
        "impact_truncated": f.impact_truncated,
    })
}

/// A task joined to the code: the task, each commit's counts of changed files and the files
/// listed with their symbols and impact (`truncated` when it changed more), and its planning
/// documents.
pub fn task_code_json(t: &TaskRecord, code: &TaskCode) -> Value {
    let mut value = task_json(t);
    value["code"] = json!({
        "commits": code.commits.iter().map(|c| json!({
            "commit": c.commit,
            "files_changed": c.changes.total(),
            "changes": {
                "added": c.changes.added,
                "modified": c.changes.modified,
                "deleted": c.changes.deleted,
                "other": c.changes.other,
            },
            "files": c.files.iter().map(changed_file_json).collect::<Vec<_>>(),
            "truncated": c.truncated,
            "problem": c.problem,
        })).collect::<Vec<_>>(),
        "planning_references": code.plans.iter().map(|p| json!({ "path": p.path, "exists": p.exists })).collect::<Vec<_>>(),
        "note": code.index_note,
    });
    value
}
