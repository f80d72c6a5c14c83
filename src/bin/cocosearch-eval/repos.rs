//! Repositories for the evaluations: found among local git mirrors, materialized at a commit.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

pub fn mirror_for(mirrors: &Path, repo: &str) -> anyhow::Result<PathBuf> {
    let slug = repo.replace('/', "+");
    for candidate in [mirrors.join(&slug).join("repo"), mirrors.join(format!("{slug}.git")), mirrors.join(&slug)] {
        if candidate.join("HEAD").exists() || candidate.join(".git").exists() {
            return Ok(candidate);
        }
    }
    bail!("no git mirror of {repo} under {} (expected {slug}/repo)", mirrors.display())
}

/// Replaces the contents of `dir` with the tree of `commit`.
pub fn materialize(mirror: &Path, commit: &str, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() { std::fs::remove_dir_all(&path)? } else { std::fs::remove_file(&path)? }
        }
    } else {
        std::fs::create_dir_all(dir)?;
    }
    let archive = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["archive", "--format=tar", commit])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("running git archive")?;
    let status = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dir)
        .stdin(archive.stdout.context("git archive output")?)
        .status()
        .context("running tar")?;
    if !status.success() {
        bail!("extracting {commit} failed");
    }
    Ok(())
}

/// Whether `mirror` holds `commit`.
pub fn has_commit(mirror: &Path, commit: &str) -> bool {
    Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
