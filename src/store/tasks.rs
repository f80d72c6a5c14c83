//! Tasks: what an agent or a person is working on in a project, stored beside its index.
//!
//! Tasks live in store-wide tables keyed by the project's index name, not in the index's own
//! tables, so dropping an index (`clear`, `index --fresh`) leaves them; only
//! [`TaskStore::delete_all`] removes them. Validation (title length, commit ids, planning
//! references inside the project) is the task service's (`crate::tasks`); the store keeps
//! what it is given. What a text search matches is decided here, once ([`search_text`],
//! [`search_words`]), and both backends only translate it.

use std::time::SystemTime;

use super::StoreError;

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaskStatus {
    /// Not started.
    NeedToBeDone,
    /// Being worked on.
    InProgress,
    /// Done.
    Complete,
}

impl TaskStatus {
    /// Every status, in the order work goes.
    pub const ALL: [TaskStatus; 3] = [TaskStatus::NeedToBeDone, TaskStatus::InProgress, TaskStatus::Complete];

    /// The stored and shown name (the Codebase MCP server's).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::NeedToBeDone => "need to be done",
            TaskStatus::InProgress => "in progress",
            TaskStatus::Complete => "complete",
        }
    }

    /// The status with this stored name.
    pub fn from_stored(text: &str) -> Option<TaskStatus> {
        TaskStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// What a link of a task points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkKind {
    /// A git branch name.
    Branch,
    /// A git commit id (40 hexadecimal digits, lowercase).
    Commit,
    /// A planning document: a path relative to the project root.
    Plan,
}

impl LinkKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Branch => "branch",
            LinkKind::Commit => "commit",
            LinkKind::Plan => "plan",
        }
    }

    /// The kind with this stored name.
    pub fn from_stored(text: &str) -> Option<LinkKind> {
        [LinkKind::Branch, LinkKind::Commit, LinkKind::Plan].into_iter().find(|k| k.as_str() == text)
    }
}

/// A link of a task to a branch, a commit or a planning document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLink {
    /// What it points at.
    pub kind: LinkKind,
    /// The branch name, commit id or path.
    pub value: String,
}

/// A stored link, with when it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLink {
    /// The link.
    pub link: TaskLink,
    /// When it was recorded.
    pub linked_at: SystemTime,
}

/// One step of a task's status history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange {
    /// The status before (`None` for the task's creation).
    pub from: Option<TaskStatus>,
    /// The status after.
    pub to: TaskStatus,
    /// When.
    pub at: SystemTime,
}

/// A stored task with its history and links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRecord {
    /// Its id (a UUID).
    pub id: String,
    /// The project (index name) it belongs to.
    pub project: String,
    /// The title, 1 to 200 characters.
    pub title: String,
    /// What is to be done.
    pub description: Option<String>,
    /// Notes along the way.
    pub notes: Option<String>,
    /// Where it stands.
    pub status: TaskStatus,
    /// Created.
    pub created_at: SystemTime,
    /// Last changed.
    pub updated_at: SystemTime,
    /// Status changes, oldest first (the first is the creation).
    pub history: Vec<StatusChange>,
    /// Links, oldest first.
    pub links: Vec<StoredLink>,
}

impl TaskRecord {
    /// The values of its links of one kind, oldest first.
    pub fn linked(&self, kind: LinkKind) -> Vec<&str> {
        self.links.iter().filter(|l| l.link.kind == kind).map(|l| l.link.value.as_str()).collect()
    }
}

/// A task to create (status `need to be done`, recorded in its history).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTask {
    /// Its id, chosen by the caller (a UUID).
    pub id: String,
    /// The title.
    pub title: String,
    /// What is to be done.
    pub description: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Links made with it.
    pub links: Vec<TaskLink>,
}

/// A change to a task: each field set replaces the stored one; a status different from the
/// stored one is recorded in the history; links are added (a link already there stays once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskChange {
    /// A new title.
    pub title: Option<String>,
    /// A new description.
    pub description: Option<String>,
    /// New notes.
    pub notes: Option<String>,
    /// A new status.
    pub status: Option<TaskStatus>,
    /// Links to add.
    pub links: Vec<TaskLink>,
}

/// Which tasks to list, most recently changed first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskQuery {
    /// Only tasks with this status.
    pub status: Option<TaskStatus>,
    /// Only tasks linked to this branch.
    pub branch: Option<String>,
    /// Only tasks whose ids start with this (lowercase hexadecimal digits and dashes).
    pub id_prefix: Option<String>,
    /// Only tasks whose title, description or notes hold every one of these words
    /// ([`search_words`]).
    pub words: Vec<String>,
    /// At most this many.
    pub limit: usize,
}

impl TaskQuery {
    /// Every task, up to `limit`.
    pub fn all(limit: usize) -> TaskQuery {
        TaskQuery { status: None, branch: None, id_prefix: None, words: Vec::new(), limit }
    }
}

/// The tasks of one project.
pub trait TaskStore: Send + Sync {
    /// Creates a task; returns it as stored.
    fn create(&self, task: &NewTask) -> Result<TaskRecord, StoreError>;

    /// The task with this id, if the project has it.
    fn get(&self, id: &str) -> Result<Option<TaskRecord>, StoreError>;

    /// Tasks matching `query`, most recently changed first (then by id).
    fn list(&self, query: &TaskQuery) -> Result<Vec<TaskRecord>, StoreError>;

    /// Applies `change` to task `id` in one transaction; `None` if the project has no such task.
    fn update(&self, id: &str, change: &TaskChange) -> Result<Option<TaskRecord>, StoreError>;

    /// How many tasks the project has, per status (statuses without tasks are left out).
    fn counts(&self) -> Result<Vec<(TaskStatus, u64)>, StoreError>;

    /// Deletes every task of the project with its history and links; returns how many.
    fn delete_all(&self) -> Result<u64, StoreError>;
}

/// The text a task's words are searched in: title, description and notes, lowercased.
pub fn search_text(title: &str, description: Option<&str>, notes: Option<&str>) -> String {
    let mut text = title.to_lowercase();
    for part in [description, notes].into_iter().flatten() {
        text.push('\n');
        text.push_str(&part.to_lowercase());
    }
    text
}

/// The words of a search: lowercased, split at whitespace, each matched as a substring of
/// [`search_text`].
pub fn search_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    words.sort();
    words.dedup();
    words
}

/// The row of a project's task counts, as an unreadable status among them names it.
pub(crate) const COUNTS: &str = "the status counts of its tasks";

/// A stored status this build cannot read, of the row `what` names (`task <id>`).
pub(crate) fn unreadable_status(project: &str, what: String, text: &str) -> StoreError {
    StoreError::Unreadable {
        index: project.to_string(),
        what,
        problem: format!("unknown status {text:?}"),
        fix: "upgrade cocosearch (a newer one wrote it)".into(),
    }
}
