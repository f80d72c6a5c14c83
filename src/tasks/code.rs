//! A task joined to the code: the files its linked commits changed (from git: each commit's
//! diff against its first parent), each with its definitions as the index knows them now and
//! the files that depend on it (the code graph), and whether its planning documents are still
//! there. A summary (the counts, and the first [`SUMMARY_FILES`] files) unless the whole is
//! asked for ([`Detail::Full`], at most [`MAX_FILES`] files a commit).

use std::path::Path;

use super::git::{FileChange, changed_files};
use crate::graph::{Definition, Graph, GraphError, ImpactedFile, Scope};
use crate::store::{LinkKind, Store, StoreError, TaskRecord};

/// Files listed per commit, at most.
pub const MAX_FILES: usize = 200;
/// Files listed per commit in a summary.
pub const SUMMARY_FILES: usize = 10;

/// How much of a task's code is joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The counts of each commit's changes and its first [`SUMMARY_FILES`] files.
    Summary,
    /// Every file (up to [`MAX_FILES`] a commit).
    Full,
}

impl Detail {
    /// Files listed per commit.
    fn files(self) -> usize {
        match self {
            Detail::Summary => SUMMARY_FILES,
            Detail::Full => MAX_FILES,
        }
    }
}
/// Dependent files listed per changed file, at most.
pub const MAX_IMPACT: usize = 20;
/// Import levels followed for a changed file's impact.
const IMPACT_DEPTH: usize = 2;

/// What a task's links lead to in the project.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskCode {
    /// Each linked commit, oldest link first.
    pub commits: Vec<CommitFiles>,
    /// Each planning document, and whether it is still there.
    pub plans: Vec<PlanFile>,
    /// Why definitions and impact are missing (no index yet), if they are.
    pub index_note: Option<String>,
}

/// The files one commit changed.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitFiles {
    /// The commit id.
    pub commit: String,
    /// How many files it changed, each way (every file, listed or not).
    pub changes: ChangeCounts,
    /// The files, by path (at most [`Detail`]'s number).
    pub files: Vec<ChangedFile>,
    /// More files than listed.
    pub truncated: bool,
    /// Why git could not tell, if it could not.
    pub problem: Option<String>,
}

/// How many files a commit changed, each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChangeCounts {
    /// Added.
    pub added: usize,
    /// Modified.
    pub modified: usize,
    /// Deleted.
    pub deleted: usize,
    /// Changed otherwise (a type change).
    pub other: usize,
}

impl ChangeCounts {
    /// The counts of `changes`.
    fn of(changes: &[(String, FileChange)]) -> ChangeCounts {
        let mut counts = ChangeCounts::default();
        for (_, change) in changes {
            *match change {
                FileChange::Added => &mut counts.added,
                FileChange::Modified => &mut counts.modified,
                FileChange::Deleted => &mut counts.deleted,
                FileChange::Other => &mut counts.other,
            } += 1;
        }
        counts
    }

    /// Every file changed.
    pub fn total(&self) -> usize {
        self.added + self.modified + self.deleted + self.other
    }
}

/// A changed file with what the index knows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedFile {
    /// Path relative to the project root.
    pub path: String,
    /// How the commit changed it.
    pub change: FileChange,
    /// Whether the index holds it now.
    pub indexed: bool,
    /// Its definitions now, in line order.
    pub symbols: Vec<Definition>,
    /// The files importing it, directly or through one more file (at most [`MAX_IMPACT`]).
    pub impact: Vec<ImpactedFile>,
    /// More dependents than listed.
    pub impact_truncated: bool,
}

/// A planning document of a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFile {
    /// Path relative to the project root.
    pub path: String,
    /// Whether it is a file in the project now.
    pub exists: bool,
}

/// Joins `task` to the project at `root` and its index `index` in `store`, as much as
/// `detail` asks (definitions and impact are left out, with a note, when the index does not
/// exist).
pub fn task_code(
    store: &dyn Store,
    index: &str,
    root: &Path,
    task: &TaskRecord,
    detail: Detail,
) -> Result<TaskCode, StoreError> {
    let graph = match store.get_index(index)? {
        Some(meta) => Some(Graph::open(store, index, &meta.root)?),
        None => None,
    };
    let index_note = graph
        .is_none()
        .then(|| format!("no index named {index} yet — run `cocosearch index` to see each file's symbols and impact"));
    let mut commits = Vec::new();
    for commit in task.linked(LinkKind::Commit) {
        commits.push(commit_files(graph.as_ref(), root, commit, detail)?);
    }
    let plans = task
        .linked(LinkKind::Plan)
        .into_iter()
        .map(|path| PlanFile { path: path.to_string(), exists: still_there(root, path) })
        .collect();
    Ok(TaskCode { commits, plans, index_note })
}

fn commit_files(graph: Option<&Graph>, root: &Path, commit: &str, detail: Detail) -> Result<CommitFiles, StoreError> {
    let changed = match changed_files(root, commit) {
        Ok(files) => files,
        Err(problem) => {
            return Ok(CommitFiles {
                commit: commit.to_string(),
                changes: ChangeCounts::default(),
                files: Vec::new(),
                truncated: false,
                problem: Some(problem),
            });
        }
    };
    let changes = ChangeCounts::of(&changed);
    let truncated = changed.len() > detail.files();
    let mut files = Vec::new();
    for (path, change) in changed.into_iter().take(detail.files()) {
        files.push(match graph {
            Some(graph) => joined(graph, path, change)?,
            None => ChangedFile {
                path,
                change,
                indexed: false,
                symbols: Vec::new(),
                impact: Vec::new(),
                impact_truncated: false,
            },
        });
    }
    Ok(CommitFiles { commit: commit.to_string(), changes, files, truncated, problem: None })
}

fn joined(graph: &Graph, path: String, change: FileChange) -> Result<ChangedFile, StoreError> {
    let store_error = |e: GraphError| match e {
        GraphError::Store(e) => e,
        GraphError::Usage(message) => StoreError::Query { context: "reading the code graph".into(), message },
    };
    let outline = graph.outline(&path).map_err(store_error)?;
    if !outline.found || outline.path != path {
        return Ok(ChangedFile {
            path,
            change,
            indexed: false,
            symbols: Vec::new(),
            impact: Vec::new(),
            impact_truncated: false,
        });
    }
    let scope = Scope { languages: Vec::new(), path_glob: None };
    let impact = graph.file_dependents(&path, Some(IMPACT_DEPTH), &scope, MAX_IMPACT).map_err(store_error)?;
    Ok(ChangedFile {
        path,
        change,
        indexed: true,
        symbols: outline.definitions.into_iter().map(|(d, _)| d).collect(),
        impact: impact.files,
        impact_truncated: impact.truncated,
    })
}

/// Whether the planning document `path` is still a file inside `root`.
fn still_there(root: &Path, path: &str) -> bool {
    super::validate::planning_reference(root, path).is_ok()
}
