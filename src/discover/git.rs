//! The commit and branch a project is at, read from `.git` directly (no `git` binary needed).
//!
//! A repository's `.git` is as untrusted as the rest of it: `HEAD` may be a link to any file
//! and a ref name may climb out with `..`. Only what looks like a commit id (hexadecimal) and a
//! ref under `refs/` ever comes out, so no other file's content can leak through the stats.

use std::path::{Path, PathBuf};

/// Where HEAD points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GitHead {
    /// The commit id, when it can be resolved.
    pub commit: Option<String>,
    /// The branch name, unless HEAD is detached.
    pub branch: Option<String>,
}

/// HEAD of the repository containing `root`, or `None` outside git.
pub fn head(root: &Path) -> Option<GitHead> {
    let git_dir = git_dir(root)?;
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref: ") else {
        return Some(GitHead { commit: commit_id(head), branch: None });
    };
    if !plain_ref(reference) {
        return Some(GitHead::default());
    }
    let branch = reference.strip_prefix("refs/heads/").unwrap_or(reference).to_string();
    // Worktrees keep refs in the common directory.
    let common = common_dir(&git_dir);
    let commit = [&git_dir, &common]
        .iter()
        .find_map(|dir| std::fs::read_to_string(dir.join(reference)).ok())
        .and_then(|s| commit_id(s.trim()))
        .or_else(|| packed_ref(&common, reference));
    Some(GitHead { commit, branch: Some(branch) })
}

/// `text` if it is a commit id: 4 to 64 hexadecimal digits (SHA-1, SHA-256, abbreviated).
fn commit_id(text: &str) -> Option<String> {
    ((4..=64).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_hexdigit())).then(|| text.to_string())
}

/// A ref name git would write: under `refs/`, without `.`/`..` components or odd characters.
fn plain_ref(reference: &str) -> bool {
    reference.starts_with("refs/")
        && reference.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
        && !reference.chars().any(|c| c.is_control() || c == '\\')
}

/// The branches checked out in the repository containing `root`, in any of its worktrees
/// (the main one and each under `.git/worktrees/`).
pub fn checked_out_branches(root: &Path) -> Vec<String> {
    let Some(git_dir) = git_dir(root) else { return Vec::new() };
    let common = common_dir(&git_dir);
    let mut heads = vec![common.join("HEAD")];
    if let Ok(entries) = std::fs::read_dir(common.join("worktrees")) {
        heads.extend(entries.flatten().map(|e| e.path().join("HEAD")));
    }
    let mut branches: Vec<String> = heads
        .iter()
        .filter_map(|head| std::fs::read_to_string(head).ok())
        .filter_map(|text| {
            let reference = text.trim().strip_prefix("ref: ")?.to_string();
            plain_ref(&reference).then(|| reference.strip_prefix("refs/heads/").unwrap_or(&reference).to_string())
        })
        .collect();
    branches.sort();
    branches.dedup();
    branches
}

/// The commit a tag names, for a lightweight tag or an annotated one packed with its peeled
/// commit (`git pack-refs` writes both); `None` when it cannot be read without unpacking objects.
pub fn tag_commit(root: &Path, tag: &str) -> Option<String> {
    let reference = format!("refs/tags/{tag}");
    if !plain_ref(&reference) {
        return None;
    }
    let common = common_dir(&git_dir(root)?);
    if let Some(id) = std::fs::read_to_string(common.join(&reference)).ok().and_then(|s| commit_id(s.trim())) {
        return Some(id);
    }
    let packed = std::fs::read_to_string(common.join("packed-refs")).ok()?;
    let mut lines = packed.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((id, name)) = line.split_once(' ') else { continue };
        if name != reference {
            continue;
        }
        // An annotated tag's peeled commit follows on a `^` line.
        let peeled = lines.peek().and_then(|next| next.strip_prefix('^')).and_then(commit_id);
        return peeled.or_else(|| commit_id(id));
    }
    None
}

/// The directory a worktree's git directory shares refs through (itself for the main one).
fn common_dir(git_dir: &Path) -> PathBuf {
    std::fs::read_to_string(git_dir.join("commondir"))
        .ok()
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|| git_dir.to_path_buf())
}

fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.ancestors().map(|d| d.join(".git")).find(|p| p.exists())?;
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    // A worktree or submodule: `.git` is a file saying `gitdir: <path>`.
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir: ")?;
    let parent = dot_git.parent()?;
    Some(parent.join(target))
}

fn packed_ref(git_dir: &Path, reference: &str) -> Option<String> {
    let packed = std::fs::read_to_string(git_dir.join("packed-refs")).ok()?;
    packed.lines().find_map(|line| {
        let (commit, name) = line.split_once(' ')?;
        if name == reference { commit_id(commit) } else { None }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_branch_commit_and_packed_refs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git = dir.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).expect("mkdir");
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").expect("write");
        std::fs::write(git.join("refs/heads/main"), "abc123\n").expect("write");
        assert_eq!(head(dir.path()), Some(GitHead { commit: Some("abc123".into()), branch: Some("main".into()) }));

        std::fs::write(git.join("HEAD"), "ref: refs/heads/dev\n").expect("write");
        std::fs::write(git.join("packed-refs"), "# pack-refs\ndef456 refs/heads/dev\n").expect("write");
        assert_eq!(head(dir.path()).and_then(|h| h.commit), Some("def456".into()));

        std::fs::write(git.join("HEAD"), "0123abcd\n").expect("write");
        assert_eq!(head(dir.path()), Some(GitHead { commit: Some("0123abcd".into()), branch: None }));
    }

    #[test]
    fn other_files_never_come_out_as_commits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret"), "password=hunter2\n").expect("write");
        let git = dir.path().join(".git");
        std::fs::create_dir_all(&git).expect("mkdir");
        // HEAD is a link to a file outside.
        std::os::unix::fs::symlink(outside.path().join("secret"), git.join("HEAD")).expect("symlink");
        assert_eq!(head(dir.path()), Some(GitHead { commit: None, branch: None }));
        // A ref that climbs out.
        std::fs::remove_file(git.join("HEAD")).expect("remove");
        let climb = format!("ref: refs/heads/../../../..{}/secret\n", outside.path().display());
        std::fs::write(git.join("HEAD"), climb).expect("write");
        assert_eq!(head(dir.path()), Some(GitHead::default()));
        // A ref file holding something else than a commit id.
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").expect("write");
        std::fs::create_dir_all(git.join("refs/heads")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path().join("secret"), git.join("refs/heads/main")).expect("symlink");
        assert_eq!(head(dir.path()), Some(GitHead { commit: None, branch: Some("main".into()) }));
    }
}
