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
use crate::config::validate_index_name;
use crate::store::Store;
use crate::tasks::{TaskError, TaskFilter, TaskInput, TaskUpdate, Tasks, validate};
use crate::wire;
use crate::workspace::Workspace;
use crate::workspace::project::{self, Hints, Project, index_project};

/// The project of a call, its index name and its store.
struct Target {
    project: Project,
    index: String,
    store: Arc<dyn Store>,
}

impl Target {
    fn tasks(&self) -> Result<Tasks<'_>, ToolError> {
        Tasks::open(self.store.as_ref(), &self.index, &self.project.root).map_err(failed)
    }

    fn answer(&self, mut value: Value) -> Value {
        value["project"] = project_json(&self.project);
        value
    }
}

fn target(shared: &Workspace, hints: &Hints, index_name: Option<&str>) -> Result<Target, ToolError> {
    let (project, index) = match index_name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => {
            validate_index_name(name).map_err(|m| ToolError::new(format!("index_name {name:?}: {m}")))?;
            (index_project(shared, name)?, name.to_string())
        }
        None => {
            let project = project::detect(shared, hints)?;
            let index = project.config.index_name();
            (project, index)
        }
    };
    let store = shared.store(&project.config.settings.database)?;
    Ok(Target { project, index, store })
}

fn failed(e: TaskError) -> ToolError {
    match e {
        TaskError::Store(e) => ToolError::from(e),
        other => ToolError::new(other.to_string()),
    }
}

/// `create_task`.
pub(crate) fn create_task(shared: &Arc<Workspace>, hints: &Hints, args: CreateTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, args.index_name.as_deref())?;
    let input = TaskInput {
        title: args.title,
        description: args.description,
        notes: args.notes,
        planning_references: args.planning_references.unwrap_or_default(),
        branch: None,
        commit: None,
    };
    let task = t.tasks()?.create(&input).map_err(failed)?;
    Ok(t.answer(wire::task_json(&task)))
}

/// `get_task`.
pub(crate) fn get_task(shared: &Arc<Workspace>, hints: &Hints, args: GetTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, args.index_name.as_deref())?;
    let task = t.tasks()?.get(&args.task_id).map_err(failed)?;
    Ok(t.answer(wire::task_json(&task)))
}

/// `list_tasks`.
pub(crate) fn list_tasks(shared: &Arc<Workspace>, hints: &Hints, args: ListTasksArgs) -> Result<Value, ToolError> {
    let filter = TaskFilter { status: args.status, branch: args.branch, text: None, limit: args.limit };
    list(shared, hints, args.index_name.as_deref(), &filter)
}

/// `search_tasks`.
pub(crate) fn search_tasks(shared: &Arc<Workspace>, hints: &Hints, args: SearchTasksArgs) -> Result<Value, ToolError> {
    if args.query.trim().is_empty() {
        return Err(ToolError::new("query is empty — give words to find in the tasks' titles, descriptions and notes"));
    }
    let filter = TaskFilter { status: args.status, branch: None, text: Some(args.query.clone()), limit: args.limit };
    let mut value = list(shared, hints, args.index_name.as_deref(), &filter)?;
    value["query"] = json!(args.query);
    Ok(value)
}

fn list(shared: &Workspace, hints: &Hints, index: Option<&str>, filter: &TaskFilter) -> Result<Value, ToolError> {
    // Checked before the project is looked for, so a bad limit is named first.
    let limit = validate::limit(filter.limit).map_err(failed)?;
    let status = filter.status.as_deref().map(validate::status).transpose().map_err(failed)?;
    let t = target(shared, hints, index)?;
    let tasks = t.tasks()?.list(filter).map_err(failed)?;
    Ok(t.answer(wire::tasks_json(&tasks, status, filter.branch.as_deref(), limit)))
}

/// `update_task`.
pub(crate) fn update_task(shared: &Arc<Workspace>, hints: &Hints, args: UpdateTaskArgs) -> Result<Value, ToolError> {
    let t = target(shared, hints, args.index_name.as_deref())?;
    let update = TaskUpdate {
        title: args.title,
        description: args.description,
        notes: args.notes,
        status: args.status,
        branch: args.branch,
        commit: args.commit,
        planning_references: args.planning_references.unwrap_or_default(),
    };
    let task = t.tasks()?.update(&args.task_id, &update).map_err(failed)?;
    Ok(t.answer(wire::task_json(&task)))
}
