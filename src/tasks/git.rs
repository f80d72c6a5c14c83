//! The files a commit changed, read with the `git` binary (the one thing `.git` cannot tell
//! without a diff).
//!
//! The repository is as untrusted as the rest of the project: only a validated 40-digit
//! commit id reaches the command line (never an option), hooks and the file-system monitor
//! are switched off, and paths come out NUL-separated, exactly as git stores them.

use std::path::Path;
use std::process::Command;

/// How a commit changed a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileChange {
    /// Added.
    Added,
    /// Modified (content or mode).
    Modified,
    /// Deleted.
    Deleted,
    /// Anything else git reports (a type change).
    Other,
}

impl FileChange {
    /// The name shown.
    pub fn as_str(self) -> &'static str {
        match self {
            FileChange::Added => "added",
            FileChange::Modified => "modified",
            FileChange::Deleted => "deleted",
            FileChange::Other => "changed",
        }
    }
}

/// The files `commit` changed under `root` (paths relative to it, `/`-separated), against its
/// first parent (a root commit: everything it holds). A merge's change is what it brought into
/// its first parent's line, the work merged: never its diff against every parent, which lists
/// the other side's changes too. `Err` says why git could not tell.
pub fn changed_files(root: &Path, commit: &str) -> Result<Vec<(String, FileChange)>, String> {
    if !is_commit_id(commit) {
        return Err(format!("{commit:?} is not a commit id"));
    }
    let parents = run_git(root, commit, &["rev-list", "--parents", "-n", "1", commit, "--"])?;
    let first_parent = String::from_utf8_lossy(&parents).split_whitespace().nth(1).map(str::to_string);
    let mut diff = vec!["diff-tree", "-r", "--no-commit-id", "--no-renames", "--name-status", "-z", "--relative"];
    match first_parent.as_deref() {
        Some(parent) if is_commit_id(parent) => diff.push(parent),
        Some(parent) => return Err(format!("git named the parent {parent:?}, which is not a commit id")),
        None => diff.push("--root"),
    }
    diff.extend([commit, "--"]);
    let output = run_git(root, commit, &diff)?;
    let mut out = Vec::new();
    let mut fields = output.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let (Some(status), Some(path)) = (fields.next(), fields.next()) {
        let change = match status.first() {
            Some(b'A') => FileChange::Added,
            Some(b'M') => FileChange::Modified,
            Some(b'D') => FileChange::Deleted,
            _ => FileChange::Other,
        };
        out.push((String::from_utf8_lossy(path).into_owned(), change));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Whether `text` is a full commit id (40 hexadecimal digits), the only thing that reaches
/// git's command line from a task.
fn is_commit_id(text: &str) -> bool {
    text.len() == 40 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The standard output of `git ARGS` in `root` (hooks and the file-system monitor off), or
/// why it failed, in words about `commit`.
fn run_git(root: &Path, commit: &str, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
        .args(["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.quotepath=off"])
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git ({e}) — install git to see the files a commit changed"))?;
    if output.status.success() {
        return Ok(output.stdout);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or("").trim();
    Err(if first.contains("bad object") || first.contains("unknown revision") || first.contains("bad revision") {
        format!("commit {commit} is not in the repository at {} (fetch it, or check the id)", root.display())
    } else if first.contains("not a git repository") {
        format!("{} is not a git repository", root.display())
    } else {
        format!("git {} failed: {first}", args.first().copied().unwrap_or("git"))
    })
}
