//! Which repository a directory belongs to.
//!
//! The project root is the git root above the working directory, unless that repository
//! ignores the directory. A directory the repository ignores (a virtualenv, a vendored
//! checkout, the Python builds inside a pyenv checkout) is not its code: indexing "the
//! repository" from there would index everything except the code the user stands in.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The root of the git repository `start` belongs to: the nearest directory at or above it
/// containing `.git` (a directory or a file, as in worktrees and submodules), or `None` when
/// there is none or that repository's ignore rules exclude `start`.
pub fn git_root(start: &Path) -> Option<PathBuf> {
    let root = start.ancestors().find(|dir| dir.join(".git").exists())?;
    (!ignored_within(root, start)).then(|| root.to_path_buf())
}

/// The main worktree of the repository of which `root` is a linked worktree (`git worktree
/// add`): its `.git` is a file naming `<repository>/.git/worktrees/<name>`, whose `commondir`
/// leads to the repository's `.git`. `None` for a main worktree, a submodule (no `commondir`),
/// or no repository. Only the two small files on the way are read.
pub fn main_worktree(root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join(".git")).ok()?;
    let git_dir = root.join(text.trim().strip_prefix("gitdir: ")?);
    let common = std::fs::read_to_string(git_dir.join("commondir")).ok()?;
    let common = git_dir.join(common.trim()).canonicalize().ok()?;
    if common.file_name()? != ".git" {
        return None;
    }
    common.parent().map(Path::to_path_buf)
}

/// Whether `a` and `b` are worktrees of one repository (or the same directory).
pub fn same_repository(a: &Path, b: &Path) -> bool {
    let main = |p: &Path| main_worktree(p).unwrap_or_else(|| p.to_path_buf());
    let canonical = |p: PathBuf| p.canonicalize().unwrap_or(p);
    canonical(main(a)) == canonical(main(b))
}

/// Whether the ignore rules of the repository at `root` exclude `dir` (at or below `root`),
/// as git decides it: walking down from `root`, each directory is matched against the global
/// excludes, `.git/info/exclude` and the `.gitignore` files above it, the deepest one with an
/// opinion winning; once a directory is excluded, nothing below it can be taken back.
fn ignored_within(root: &Path, dir: &Path) -> bool {
    let Ok(relative) = dir.strip_prefix(root) else { return false };
    let mut matchers: Vec<Gitignore> =
        vec![Gitignore::global().0, repository_excludes(root), Gitignore::new(root.join(".gitignore")).0];
    let mut current = root.to_path_buf();
    for part in relative.components() {
        current.push(part);
        let verdict = matchers.iter().rev().map(|m| m.matched(&current, true)).find(|m| !m.is_none());
        if verdict.is_some_and(|m| m.is_ignore()) {
            return true;
        }
        matchers.push(Gitignore::new(current.join(".gitignore")).0);
    }
    false
}

/// `.git/info/exclude` of the repository at `root`, rooted there.
fn repository_excludes(root: &Path) -> Gitignore {
    let mut builder = GitignoreBuilder::new(root);
    builder.add(root.join(".git/info/exclude"));
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

#[cfg(test)]
mod tests {
    use super::git_root;

    #[test]
    fn an_ignored_directory_stands_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).expect("mkdir .git");
        std::fs::write(root.join(".gitignore"), "versions/\n").expect("write .gitignore");
        std::fs::create_dir_all(root.join("versions/3.11/lib")).expect("mkdir");
        std::fs::create_dir_all(root.join("src/deep")).expect("mkdir");

        assert_eq!(git_root(root).as_deref(), Some(root));
        assert_eq!(git_root(&root.join("src/deep")).as_deref(), Some(root));
        assert_eq!(git_root(&root.join("versions")), None);
        assert_eq!(git_root(&root.join("versions/3.11/lib")), None);

        // A deeper .gitignore can take a directory back, but not one below an excluded one.
        std::fs::write(root.join(".gitignore"), "versions/\nout*/\n").expect("write .gitignore");
        std::fs::create_dir_all(root.join("src/outline")).expect("mkdir");
        std::fs::create_dir_all(root.join("src/output/keep")).expect("mkdir");
        assert_eq!(git_root(&root.join("src/outline")), None);
        std::fs::write(root.join("src/.gitignore"), "!outline/\n").expect("write");
        assert_eq!(git_root(&root.join("src/outline")).as_deref(), Some(root));
        std::fs::write(root.join("src/output/.gitignore"), "!keep/\n").expect("write");
        assert_eq!(git_root(&root.join("src/output/keep")), None);
    }
}
