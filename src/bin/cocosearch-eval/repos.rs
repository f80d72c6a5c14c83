//! Repositories for the evaluations: found among local git mirrors, materialized at a commit,
//! and what a commit changed.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// A name for `owner/name` made of lowercase letters, digits and underscores: the directory a
/// repository is materialized in, and (prefixed) a valid index name. `folke/lazy.nvim` becomes
/// `folke_lazy_nvim` (a dot is no index-name character).
pub fn slug(repo: &str) -> String {
    repo.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// What [`materialize`] wrote.
#[derive(Debug, Default)]
pub struct Materialized {
    /// Paths of the commit's tree whose blob the mirror lacks (a Git LFS object or a file
    /// too large for the mirror): left out of the directory.
    pub missing: Vec<String>,
}

/// Replaces the contents of `dir` with the tree of `commit`. A mirror that lacks some of the
/// tree's blobs still gives the rest: the tree is then written blob by blob and the absent
/// paths are listed in the answer.
pub fn materialize(mirror: &Path, commit: &str, dir: &Path) -> anyhow::Result<Materialized> {
    clear(dir)?;
    match archive(mirror, commit, dir) {
        Ok(()) => Ok(Materialized::default()),
        Err(e) => {
            clear(dir)?;
            let written = by_blobs(mirror, commit, dir).with_context(|| format!("after git archive failed: {e:#}"))?;
            if written.missing.is_empty() {
                // The archive failed for another reason than a missing blob, yet every blob
                // could be read: the tree is whole.
                eprintln!("{commit}: git archive failed ({e:#}); the tree was written blob by blob");
            }
            Ok(written)
        }
    }
}

fn clear(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() && !path.is_symlink() {
                std::fs::remove_dir_all(&path)?
            } else {
                std::fs::remove_file(&path)?
            }
        }
    } else {
        std::fs::create_dir_all(dir)?;
    }
    Ok(())
}

/// `git archive | tar -x`: both must succeed (git stops at the first blob it cannot read).
fn archive(mirror: &Path, commit: &str, dir: &Path) -> anyhow::Result<()> {
    let mut archive = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running git archive")?;
    let stdout = archive.stdout.take().context("git archive output")?;
    let mut stderr = archive.stderr.take().context("git archive errors")?;
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let tar = Command::new("tar").arg("-x").arg("-C").arg(dir).stdin(stdout).status().context("running tar")?;
    let git = archive.wait().context("waiting for git archive")?;
    let errors = errors.join().unwrap_or_default();
    if !git.success() {
        bail!("git archive {commit}: {}", errors.trim());
    }
    if !tar.success() {
        bail!("extracting {commit} failed");
    }
    Ok(())
}

/// One entry of `git ls-tree -r -z`.
#[derive(Debug, PartialEq)]
struct TreeEntry {
    mode: String,
    kind: String,
    object: String,
    path: String,
}

fn parse_tree(listing: &[u8]) -> Vec<TreeEntry> {
    listing
        .split(|&b| b == 0)
        .filter(|e| !e.is_empty())
        .filter_map(|entry| {
            let entry = String::from_utf8_lossy(entry);
            let (meta, path) = entry.split_once('\t')?;
            let mut meta = meta.split(' ');
            Some(TreeEntry {
                mode: meta.next()?.to_string(),
                kind: meta.next()?.to_string(),
                object: meta.next()?.to_string(),
                path: path.to_string(),
            })
        })
        .collect()
}

/// Writes the tree of `commit` file by file (`git cat-file --batch`), skipping blobs the
/// mirror lacks. Submodules are left out, as `git archive` leaves them empty.
fn by_blobs(mirror: &Path, commit: &str, dir: &Path) -> anyhow::Result<Materialized> {
    let listing = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["ls-tree", "-r", "-z", "--full-tree", commit])
        .output()
        .context("running git ls-tree")?;
    if !listing.status.success() {
        bail!("git ls-tree {commit}: {}", String::from_utf8_lossy(&listing.stderr).trim());
    }
    let entries: Vec<TreeEntry> = parse_tree(&listing.stdout).into_iter().filter(|e| e.kind == "blob").collect();
    let mut batch = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("running git cat-file")?;
    let mut stdin = batch.stdin.take().context("git cat-file input")?;
    let objects: String = entries.iter().map(|e| format!("{}\n", e.object)).collect();
    let feeder = std::thread::spawn(move || stdin.write_all(objects.as_bytes()));
    let mut out = BufReader::new(batch.stdout.take().context("git cat-file output")?);
    let mut written = Materialized::default();
    for entry in &entries {
        let mut header = String::new();
        out.read_line(&mut header)?;
        let fields: Vec<&str> = header.split_whitespace().collect();
        if fields.get(1) == Some(&"missing") || fields.len() < 3 {
            written.missing.push(entry.path.clone());
            continue;
        }
        let size: usize = fields[2].parse().with_context(|| format!("git cat-file header {header:?}"))?;
        let mut content = vec![0u8; size + 1];
        out.read_exact(&mut content)?;
        content.truncate(size);
        let path = dir.join(&entry.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if entry.mode == "120000" {
            std::os::unix::fs::symlink(String::from_utf8_lossy(&content).as_ref(), &path)?;
        } else {
            std::fs::write(&path, &content)?;
            if entry.mode == "100755" {
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
            }
        }
    }
    feeder.join().map_err(|_| anyhow::anyhow!("git cat-file input thread"))??;
    batch.wait()?;
    Ok(written)
}

/// Whether `mirror` holds `commit`.
pub fn has_commit(mirror: &Path, commit: &str) -> bool {
    Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Lines of a file at the base that a change touched, 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// Lines `start..=end` of the base were modified or deleted.
    Lines(u32, u32),
    /// Lines were inserted after base line `n` (0: at the top of the file), none removed.
    After(u32),
}

/// What `commit` changed in `path` relative to `base`, from `git diff -U0`.
pub fn changed_lines(mirror: &Path, base: &str, commit: &str, path: &str) -> anyhow::Result<Vec<Changed>> {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", base, commit, "--", path])
        .output()
        .context("running git diff")?;
    if !out.status.success() {
        bail!("git diff {base}..{commit} -- {path}: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(parse_hunks(&String::from_utf8_lossy(&out.stdout)))
}

/// The base side of each hunk header (`@@ -a,b +c,d @@`) of a zero-context diff: `b` lines
/// from `a` (b omitted means 1); `b` = 0 is a pure insertion after line `a`.
pub fn parse_hunks(diff: &str) -> Vec<Changed> {
    diff.lines()
        .filter_map(|line| {
            let old = line.strip_prefix("@@ -")?.split(' ').next()?;
            let (start, count) = match old.split_once(',') {
                Some((a, b)) => (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?),
                None => (old.parse::<u32>().ok()?, 1),
            };
            Some(if count == 0 { Changed::After(start) } else { Changed::Lines(start, start + count - 1) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dotted_repository_name_makes_a_valid_index_name() {
        assert_eq!(slug("folke/lazy.nvim"), "folke_lazy_nvim");
        assert_eq!(slug("pytest-dev/pytest"), "pytest_dev_pytest");
        assert_eq!(slug("Bash-it/bash-it"), "bash_it_bash_it");
        for repo in ["folke/lazy.nvim", "DapperLib/Dapper", "Hejsil/zig-clap"] {
            cocosearch::config::validate_index_name(&format!("eval_{}", slug(repo))).unwrap();
        }
    }

    #[test]
    fn hunk_headers_give_the_base_lines() {
        let diff = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -3 +3 @@ def f():\n-a\n+b\n\
                    @@ -10,2 +10,0 @@\n-c\n-d\n@@ -20,0 +19,3 @@ class C:\n+e\n@@ -0,0 +1 @@\n+f\n";
        assert_eq!(
            parse_hunks(diff),
            vec![Changed::Lines(3, 3), Changed::Lines(10, 11), Changed::After(20), Changed::After(0)]
        );
        assert!(parse_hunks("").is_empty());
    }

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    #[test]
    fn a_mirror_missing_a_blob_still_materializes_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join("src")).unwrap();
        git(&repo, &["init", "-q"]);
        std::fs::write(repo.join("src/a.py"), "def a():\n    return 1\n").unwrap();
        std::fs::write(repo.join("big.bin"), "pretend this is an LFS object\n").unwrap();
        std::fs::write(repo.join("run.sh"), "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(repo.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-q", "-m", "one"]);
        let commit = git(&repo, &["rev-parse", "HEAD"]);
        let mirror = repo.join(".git");
        let out = tmp.path().join("out");

        // Whole: git archive.
        assert!(materialize(&mirror, &commit, &out).unwrap().missing.is_empty());
        assert!(out.join("big.bin").exists());

        // The blob of big.bin removed from the object store: the archive fails, the rest is
        // written and big.bin is reported.
        let blob = git(&repo, &["rev-parse", "HEAD:big.bin"]);
        std::fs::remove_file(mirror.join("objects").join(&blob[..2]).join(&blob[2..])).unwrap();
        assert!(archive(&mirror, &commit, &tmp.path().join("partial")).is_err());
        let written = materialize(&mirror, &commit, &out).unwrap();
        assert_eq!(written.missing, vec!["big.bin".to_string()]);
        assert!(!out.join("big.bin").exists());
        assert_eq!(std::fs::read_to_string(out.join("src/a.py")).unwrap(), "def a():\n    return 1\n");
        assert_eq!(std::fs::metadata(out.join("run.sh")).unwrap().permissions().mode() & 0o111, 0o111);
    }
}
