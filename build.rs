//! Records the git commit the binary is built from, for `cocosearch --version`.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let date = Command::new("git")
        .args(["log", "-1", "--format=%cs"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=COCOSEARCH_GIT_COMMIT={}", commit.unwrap_or_else(|| "unknown".into()));
    println!("cargo:rustc-env=COCOSEARCH_GIT_DATE={date}");
    // Rebuild when HEAD moves (a commit, a checkout): when HEAD or the checked-out branch's ref
    // changes. Git says where they are: in a worktree `.git` is a file (a `.git/HEAD` that
    // does not exist would rebuild the crate on every build), and the branches of every
    // worktree share one directory (watching it whole would rebuild on others' commits).
    let git_path = |path: &str| {
        git(&["rev-parse", "--path-format=absolute", "--git-path", path]).filter(|p| std::path::Path::new(p).exists())
    };
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let watched = [
        git_path("HEAD"),
        branch.as_deref().and_then(git_path).or_else(|| branch.as_ref().and_then(|_| git_path("packed-refs"))),
    ];
    for path in watched.into_iter().flatten() {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// The trimmed output of a git command that succeeded.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}
