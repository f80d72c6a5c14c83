//! The flags of `cocosearch task …` (clap derive), beside the other commands' in `args.rs`.

use std::path::PathBuf;

use crate::workspace::IndexName;
use clap::{Args, Subcommand};

/// `cocosearch task …`.
#[derive(Debug, Subcommand)]
pub enum TaskCommand {
    /// Record a task (status: need to be done).
    ///
    /// Prints the task with its id; the first 4 or more characters of an id name it in the
    /// other task commands.
    Add(TaskAddArgs),
    /// List tasks, most recently changed first.
    List(TaskListArgs),
    /// Show a task and a summary of its commits' changes (--full: every file, its symbols and
    /// its importers).
    ///
    /// Each linked commit's change is its diff against its first parent, from git: for a merge,
    /// the work it merged, never the other side's. Each commit's counts come first, then its
    /// first files with how many definitions each holds and how many files import it; --full
    /// lists every file (up to 200 a commit) with its definitions and the files importing it,
    /// from the project's index. Planning documents that are gone are reported.
    Show(TaskShowArgs),
    /// Change a task's title, description, notes or status, or link a branch, a commit or a
    /// planning document.
    Update(TaskUpdateArgs),
    /// Mark a task complete (with --here: linked to the current branch and commit).
    Done(TaskDoneArgs),
    /// A task's status history and links, oldest first.
    Log(TaskIdArgs),
}

/// Flags every task command takes.
#[derive(Debug, Args)]
pub struct TaskCommon {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub index: IndexName,
    /// JSON output.
    #[arg(long)]
    pub json: bool,
}

/// Links to a branch and a commit.
#[derive(Debug, Args)]
pub struct TaskLinkArgs {
    /// Link the task to this git branch.
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Link the task to this commit (its full 40-digit SHA-1).
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// Link the current git branch, and HEAD as a commit of the task's
    ///
    /// Link the current git branch and, except with `task add`, the HEAD commit (unless
    /// --branch/--commit say otherwise). A new task links only the branch: the commit it starts
    /// from is not its change; `task update --here` or `task done --here` link the commits that
    /// are.
    #[arg(long)]
    pub here: bool,
}

/// `cocosearch task add`.
#[derive(Debug, Args)]
pub struct TaskAddArgs {
    /// The task in a line (1 to 200 characters).
    #[arg(value_name = "TITLE")]
    pub title: String,
    /// What is to be done, and why.
    #[arg(short = 'd', long, value_name = "TEXT")]
    pub description: Option<String>,
    /// Notes.
    #[arg(long, value_name = "TEXT")]
    pub notes: Option<String>,
    /// A spec or plan document inside the project (repeatable).
    #[arg(long = "plan", value_name = "PATH")]
    pub plans: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub links: TaskLinkArgs,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}

/// `cocosearch task list`.
#[derive(Debug, Args)]
pub struct TaskListArgs {
    /// Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete
    /// (done).
    #[arg(short = 's', long, value_name = "STATUS")]
    pub status: Option<String>,
    /// Only tasks linked to this branch.
    #[arg(short = 'b', long, value_name = "BRANCH", conflicts_with = "here")]
    pub branch: Option<String>,
    /// Only tasks linked to the current git branch.
    #[arg(long)]
    pub here: bool,
    /// Only tasks whose title, description or notes hold every word of TEXT.
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// Show at most N tasks, 1 to 100 (default 50).
    #[arg(short = 'm', long, value_name = "N")]
    pub limit: Option<u32>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}

/// `cocosearch task show`.
#[derive(Debug, Args)]
pub struct TaskShowArgs {
    /// The task's id (or its first 4+ characters).
    #[arg(value_name = "ID")]
    pub id: String,
    /// Every changed file with its definitions and importers, not a summary.
    #[arg(long)]
    pub full: bool,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}

/// `cocosearch task log`.
#[derive(Debug, Args)]
pub struct TaskIdArgs {
    /// The task's id (or its first 4+ characters).
    #[arg(value_name = "ID")]
    pub id: String,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}

/// `cocosearch task update`.
#[derive(Debug, Args)]
pub struct TaskUpdateArgs {
    /// The task's id (or its first 4+ characters).
    #[arg(value_name = "ID")]
    pub id: String,
    /// A new title.
    #[arg(long, value_name = "TITLE")]
    pub title: Option<String>,
    /// A new description.
    #[arg(short = 'd', long, value_name = "TEXT")]
    pub description: Option<String>,
    /// New notes (they replace the old ones).
    #[arg(long, value_name = "TEXT")]
    pub notes: Option<String>,
    /// A new status: need-to-be-done (todo), in-progress (doing), complete (done).
    #[arg(short = 's', long, value_name = "STATUS")]
    pub status: Option<String>,
    /// Link a spec or plan document inside the project (repeatable).
    #[arg(long = "plan", value_name = "PATH")]
    pub plans: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub links: TaskLinkArgs,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}

/// `cocosearch task done`.
#[derive(Debug, Args)]
pub struct TaskDoneArgs {
    /// The task's id (or its first 4+ characters).
    #[arg(value_name = "ID")]
    pub id: String,
    /// New notes (they replace the old ones).
    #[arg(long, value_name = "TEXT")]
    pub notes: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub links: TaskLinkArgs,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub common: TaskCommon,
}
