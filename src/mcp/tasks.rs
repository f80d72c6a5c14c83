//! The task tools: `create_task`, `get_task`, `list_tasks`, `update_task` (names and
//! parameters of the Codebase MCP server) and `search_tasks`, over the task service
//! ([`crate::tasks::Tasks`]) of the call's project.
//!
//! Each finds the project as the other tools do (an explicit `index_name`, else the client's
//! roots and the rest of `workspace::project::detect`), and answers the JSON of `cocosearch
//! task … --json` ([`wire`]) plus the project. Runs on a blocking thread.

use std::sync::Arc;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::{CreateTaskArgs, GetTaskArgs, ListTasksArgs, SearchTasksArgs, UpdateTaskArgs};
use crate::wire;
use crate::workspace::project::Hints;
use crate::workspace::tasks::{TaskFilter, TaskInput, TaskUpdate, validate};
use crate::workspace::{Caller, IndexName, IndexRef, Need, Target, Workspace};

/// The project of a call (its index need not exist).
fn target(shared: &Arc<Workspace>, hints: &Hints, index: &IndexName) -> Result<Target, ToolError> {
    shared.open(Caller::Client(hints), &IndexRef::from(index.clone()), Need::Project)
}

/// `value` with the project used.
fn answer(t: &Target, mut value: Value) -> Value {
    value["project"] = project_json(&t.project);
    value
}

/// `create_task`.
pub(crate) fn create_task(shared: &Arc<Workspace>, hints: &Hints, args: CreateTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, &args.index)?;
    let input = TaskInput {
        title: args.title,
        description: args.description,
        notes: args.notes,
        planning_references: args.planning_references.unwrap_or_default(),
        branch: None,
        commit: None,
    };
    let task = t.tasks()?.create(&input)?;
    Ok(answer(&t, wire::task_json(&task)))
}

/// `get_task`.
pub(crate) fn get_task(shared: &Arc<Workspace>, hints: &Hints, args: GetTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, &args.index)?;
    let task = t.tasks()?.get(&args.task_id)?;
    Ok(answer(&t, wire::task_json(&task)))
}

/// `list_tasks`.
pub(crate) fn list_tasks(shared: &Arc<Workspace>, hints: &Hints, args: ListTasksArgs) -> Result<Value, ToolError> {
    let filter = TaskFilter { status: args.status, branch: args.branch, text: None, limit: args.limit };
    list(shared, hints, &args.index, &filter)
}

/// `search_tasks`.
pub(crate) fn search_tasks(shared: &Arc<Workspace>, hints: &Hints, args: SearchTasksArgs) -> Result<Value, ToolError> {
    if args.query.trim().is_empty() {
        return Err(ToolError::new("query is empty — give words to find in the tasks' titles, descriptions and notes"));
    }
    let filter = TaskFilter { status: args.status, branch: None, text: Some(args.query.clone()), limit: args.limit };
    let mut value = list(shared, hints, &args.index, &filter)?;
    value["query"] = json!(args.query);
    Ok(value)
}

fn list(shared: &Arc<Workspace>, hints: &Hints, index: &IndexName, filter: &TaskFilter) -> Result<Value, ToolError> {
    // Checked before the project is looked for, so a bad limit is named first.
    let limit = validate::limit(filter.limit)?;
    let status = filter.status.as_deref().map(validate::status).transpose()?;
    let t = target(shared, hints, index)?;
    let tasks = t.tasks()?.list(filter)?;
    Ok(answer(&t, wire::tasks_json(&tasks, status, filter.branch.as_deref(), limit)))
}

/// `update_task`.
pub(crate) fn update_task(shared: &Arc<Workspace>, hints: &Hints, args: UpdateTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, &args.index)?;
    let update = TaskUpdate {
        title: args.title,
        description: args.description,
        notes: args.notes,
        status: args.status,
        branch: args.branch,
        commit: args.commit,
        planning_references: args.planning_references.unwrap_or_default(),
    };
    let task = t.tasks()?.update(&args.task_id, &update)?;
    Ok(answer(&t, wire::task_json(&task)))
}
