//! Tasks linked to the code: the service the CLI, the MCP tools and the dashboard share.
//!
//! A task belongs to a project (its index name) and is kept in the same store as the index
//! ([`crate::store::TaskStore`]), apart from the index's tables, so re-indexing and `clear`
//! leave it unless asked. [`Tasks`] checks every value a person or an agent gives
//! ([`validate`]: a title of 1 to 200 characters, a known status, a 40-digit commit id, a git
//! branch name, planning documents that are files inside the project, a limit of 1 to 100)
//! before anything is written, so a refused request writes nothing; [`code`] joins a task to
//! the code through its commits (the files git says they changed, with their definitions and
//! dependents from the index).
//!
//! Returns plain structs; their JSON is `wire::task_json` and friends.

pub mod code;
pub mod git;
pub mod validate;

use std::path::{Path, PathBuf};

use crate::store::{
    LinkKind, NewTask, Store, StoreError, TaskChange, TaskLink, TaskQuery, TaskRecord, TaskStatus, TaskStore,
    search_words,
};
pub use code::{ChangeCounts, ChangedFile, CommitFiles, Detail, PlanFile, TaskCode};
pub use git::FileChange;
use validate::TaskId;

/// A task request that cannot be done, with the field and the fix.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// A value that is not allowed; nothing was written.
    #[error("{field} {problem}")]
    Invalid {
        /// The field (`title`, `status`, `commit`, `planning_references`, `limit`, `task_id`).
        field: &'static str,
        /// What is wrong and the fix.
        problem: String,
    },
    /// No task has this id (or id prefix) in the project.
    #[error(
        "no task {id} in project {project} — {mean}list the tasks (list_tasks, `cocosearch task list`) for their ids"
    )]
    NotFound {
        /// The id as given.
        id: String,
        /// The project.
        project: String,
        /// `did you mean `1a2b3c4d`? ` when a task's id starts much like `id`; else empty.
        mean: String,
    },
    /// An id prefix that starts several tasks' ids.
    #[error("task id {prefix} is ambiguous: it starts {ids} — give more of the id")]
    Ambiguous {
        /// The prefix.
        prefix: String,
        /// The ids it starts.
        ids: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a new task says; every field as given, checked by [`Tasks::create`].
#[derive(Debug, Clone, Default)]
pub struct TaskInput {
    /// The title.
    pub title: String,
    /// What is to be done.
    pub description: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Planning documents: paths inside the project.
    pub planning_references: Vec<String>,
    /// A branch to link.
    pub branch: Option<String>,
    /// A commit to link.
    pub commit: Option<String>,
}

/// A change to a task; every field as given, checked by [`Tasks::update`].
#[derive(Debug, Clone, Default)]
pub struct TaskUpdate {
    /// A new title.
    pub title: Option<String>,
    /// A new description.
    pub description: Option<String>,
    /// New notes.
    pub notes: Option<String>,
    /// A new status (its name).
    pub status: Option<String>,
    /// A branch to link.
    pub branch: Option<String>,
    /// A commit to link.
    pub commit: Option<String>,
    /// Planning documents to link.
    pub planning_references: Vec<String>,
}

/// Which tasks to list; every field as given, checked by [`Tasks::list`].
#[derive(Debug, Clone, Default)]
pub struct TaskFilter {
    /// Only this status (its name).
    pub status: Option<String>,
    /// Only tasks linked to this branch.
    pub branch: Option<String>,
    /// Only tasks whose title, description or notes hold every word of this.
    pub text: Option<String>,
    /// At most this many (1 to 100; 50 when not given).
    pub limit: Option<u32>,
}

/// The tasks of one project: its index name, its root, and the store holding both.
pub struct Tasks<'a> {
    store: &'a dyn Store,
    project: String,
    root: PathBuf,
    tasks: Box<dyn TaskStore>,
}

impl<'a> Tasks<'a> {
    /// The tasks of project `project` (an index name) rooted at `root`, in `store`.
    pub fn open(store: &'a dyn Store, project: &str, root: &Path) -> Result<Tasks<'a>, TaskError> {
        Ok(Tasks { store, project: project.to_string(), root: root.to_path_buf(), tasks: store.tasks(project)? })
    }

    /// The project (index name).
    pub fn project(&self) -> &str {
        &self.project
    }

    /// Creates a task after checking every field; a refused field writes nothing.
    pub fn create(&self, input: &TaskInput) -> Result<TaskRecord, TaskError> {
        let title = validate::title(&input.title)?;
        let description = input.description.as_deref().map(|t| validate::text("description", t)).transpose()?;
        let notes = input.notes.as_deref().map(|t| validate::text("notes", t)).transpose()?;
        let links = self.links(input.branch.as_deref(), input.commit.as_deref(), &input.planning_references)?;
        let id = uuid::Uuid::new_v4().to_string();
        Ok(self.tasks.create(&NewTask { id, title, description, notes, links })?)
    }

    /// The task named by `id` (a UUID, or its first 4 or more characters).
    pub fn get(&self, id: &str) -> Result<TaskRecord, TaskError> {
        match validate::task_id(id)? {
            TaskId::Whole(whole) => match self.tasks.get(&whole)? {
                Some(task) => Ok(task),
                None => Err(self.not_found(&whole)),
            },
            TaskId::Prefix(prefix) => {
                let mut found = self.tasks.list(&TaskQuery { id_prefix: Some(prefix.clone()), ..TaskQuery::all(2) })?;
                match found.len() {
                    0 => Err(self.not_found(&prefix)),
                    1 => Ok(found.remove(0)),
                    _ => Err(TaskError::Ambiguous {
                        prefix,
                        ids: found.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", "),
                    }),
                }
            }
        }
    }

    /// No task has the id (or prefix) `id`: the refusal, with the task whose id starts most
    /// like it (its first 8 characters, or as many as were typed) when one looks mistyped.
    fn not_found(&self, id: &str) -> TaskError {
        // The most recent thousand tasks are looked through: a typo is of a task in hand.
        let ids: Vec<String> =
            self.tasks.list(&TaskQuery::all(1000)).map(|t| t.into_iter().map(|t| t.id).collect()).unwrap_or_default();
        // Each id cut to the length typed, compared with what was typed.
        let starts = ids.iter().filter_map(|i| i.get(..id.len()));
        let mean = crate::config::closest(id, starts, 0.8)
            .and_then(|start| ids.iter().find(|i| i.starts_with(start)))
            .and_then(|i| i.get(..id.len().max(8)))
            .map(|start| format!("did you mean `{start}`? "))
            .unwrap_or_default();
        TaskError::NotFound { id: id.to_string(), project: self.project.clone(), mean }
    }

    /// Tasks matching `filter`, most recently changed first.
    pub fn list(&self, filter: &TaskFilter) -> Result<Vec<TaskRecord>, TaskError> {
        let limit = validate::limit(filter.limit)?;
        let status = filter.status.as_deref().map(validate::status).transpose()?;
        let branch = filter.branch.as_deref().map(validate::branch).transpose()?;
        let words = filter.text.as_deref().map(search_words).unwrap_or_default();
        Ok(self.tasks.list(&TaskQuery { status, branch, id_prefix: None, words, limit })?)
    }

    /// Applies `update` to the task named by `id` after checking every field; a refused field
    /// writes nothing. A status change is recorded in the history.
    pub fn update(&self, id: &str, update: &TaskUpdate) -> Result<TaskRecord, TaskError> {
        let change = TaskChange {
            title: update.title.as_deref().map(validate::title).transpose()?,
            description: update.description.as_deref().map(|t| validate::text("description", t)).transpose()?,
            notes: update.notes.as_deref().map(|t| validate::text("notes", t)).transpose()?,
            status: update.status.as_deref().map(validate::status).transpose()?,
            links: self.links(update.branch.as_deref(), update.commit.as_deref(), &update.planning_references)?,
        };
        let task = self.get(id)?;
        self.tasks.update(&task.id, &change)?.ok_or_else(|| self.not_found(id.trim()))
    }

    /// Marks the task named by `id` complete, linking what `links` adds.
    pub fn complete(&self, id: &str, mut links: TaskUpdate) -> Result<TaskRecord, TaskError> {
        links.status = Some(TaskStatus::Complete.as_str().to_string());
        self.update(id, &links)
    }

    /// How many tasks the project has per status.
    pub fn counts(&self) -> Result<Vec<(TaskStatus, u64)>, TaskError> {
        Ok(self.tasks.counts()?)
    }

    /// Deletes every task of the project; returns how many.
    pub fn delete_all(&self) -> Result<u64, TaskError> {
        Ok(self.tasks.delete_all()?)
    }

    /// `task` joined to the code, as much as `detail` asks: the files of its commits with their
    /// definitions and dependents, and its planning documents.
    pub fn code(&self, task: &TaskRecord, detail: Detail) -> Result<TaskCode, TaskError> {
        Ok(code::task_code(self.store, &self.project, &self.root, task, detail)?)
    }

    fn links(&self, branch: Option<&str>, commit: Option<&str>, plans: &[String]) -> Result<Vec<TaskLink>, TaskError> {
        let mut links = Vec::new();
        if let Some(branch) = branch {
            links.push(TaskLink { kind: LinkKind::Branch, value: validate::branch(branch)? });
        }
        if let Some(commit) = commit {
            links.push(TaskLink { kind: LinkKind::Commit, value: validate::commit(commit)? });
        }
        for plan in plans {
            links.push(TaskLink { kind: LinkKind::Plan, value: validate::planning_reference(&self.root, plan)? });
        }
        Ok(links)
    }
}
