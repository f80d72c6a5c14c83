//! The index's walk in parallel, for readers that want each file as soon as it is found
//! (`cocosearch grep`) rather than the sorted, fully counted [`super::discover`].
//!
//! The rules are the full walk's — the same walker, ignore files, directory pruning and file
//! classification — so a file comes out here exactly when the index would hold it. Only the
//! second walk that counts what ignore files hid is left out (it would double the cost), so
//! `ignored` is not counted.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::WalkState;

use super::paths::{PathScope, project_relative};
use super::rules::Rules;
use super::{
    Candidate, DiscoverError, Options, SkipCounts, SkipReason, UserGlobs, canonical_root, classify, dir_filter, lock,
    relative_path, walker,
};

/// What a parallel walk left out, and the paths it was given that lie outside the project.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    /// Paths left out, by reason (`ignored` is not counted).
    pub skipped: SkipCounts,
    /// The files left out as sensitive (relative, sorted): a reader may name them, never read
    /// them.
    pub sensitive: Vec<String>,
    /// Paths given that lie outside the project, as given.
    pub outside: Vec<PathBuf>,
    /// What could not be read, with why, as rg reports it (`nosuch: No such file or directory
    /// (os error 2)`): a path given that does not exist (as given), a directory the walk could
    /// not enter (relative to the root).
    pub errors: Vec<(PathBuf, String)>,
}

/// Walks `opts.root` (or only `paths` in it: absolute, or relative to the root; empty means the
/// whole project) on several threads and calls `visit` with every file the index would hold.
pub fn each_file(
    opts: &Options,
    paths: &[PathBuf],
    visit: impl Fn(Candidate) + Send + Sync,
) -> Result<Walked, DiscoverError> {
    let root = canonical_root(opts)?;
    let globs = Arc::new(UserGlobs::new(opts)?);
    let rules = Arc::new(Rules::new());
    let counts = Arc::new(Mutex::new(SkipCounts::default()));
    let mut walked = Walked::default();
    let scope = if paths.is_empty() {
        None
    } else {
        let mut relative = Vec::new();
        for path in paths {
            match project_relative(&opts.root, &root, path) {
                Some(r) => match missing(&root, &r) {
                    Some(e) => walked.errors.push((path.clone(), e.to_string())),
                    None => relative.push(r),
                },
                None => walked.outside.push(path.clone()),
            }
        }
        if relative.is_empty() {
            return Ok(walked);
        }
        Some(PathScope::new(relative))
    };

    let mut builder = walker(&root, opts)?;
    let prune = dir_filter(root.clone(), Arc::clone(&rules), Arc::clone(&globs), Some(Arc::clone(&counts)));
    let (filter_root, filter_scope) = (root.clone(), scope.clone());
    builder.filter_entry(move |entry| {
        if let Some(scope) = &filter_scope
            && entry.depth() > 0
        {
            let relative = relative_path(&filter_root, entry.path());
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if (is_dir && !scope.leads_to(&relative)) || (!is_dir && !scope.covers(&relative)) {
                return false;
            }
        }
        prune(entry)
    });
    let root = &root;
    let errors: Mutex<Vec<(PathBuf, String)>> = Mutex::default();
    let sensitive: Mutex<Vec<String>> = Mutex::default();
    let (globs, rules, counts, visit, failed, sensitive_files) = (&globs, &rules, &counts, &visit, &errors, &sensitive);
    builder.build_parallel().run(|| {
        Box::new(move |result| {
            let entry = match result {
                Ok(entry) => entry,
                Err(e) => {
                    tracing::debug!(error = %e, "skipping an unreadable path");
                    lock(counts).add(SkipReason::Unreadable);
                    lock(failed).push(walk_error(root, &e));
                    return WalkState::Continue;
                }
            };
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                return WalkState::Continue;
            }
            match classify(root, &entry, globs, rules, opts.max_file_size) {
                Ok(candidate) => visit(candidate),
                Err((relative, reason)) => {
                    if reason == SkipReason::Sensitive {
                        lock(sensitive_files).push(relative);
                    }
                    lock(counts).add(reason);
                }
            }
            WalkState::Continue
        })
    });
    walked.skipped = lock(counts).clone();
    walked.sensitive = sensitive.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    walked.sensitive.sort();
    let mut errors = errors.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    errors.sort();
    walked.errors.extend(errors);
    Ok(walked)
}

/// Why the path `relative` (inside `root`, `/`-separated) is not there, when it is not: the
/// error of its first part that does not exist. A part that is a symbolic link ends the
/// check (the walk will not follow it, and what lies beyond it is not the project's to tell).
fn missing(root: &Path, relative: &str) -> Option<std::io::Error> {
    let mut at = root.to_path_buf();
    for part in relative.split('/').filter(|p| !p.is_empty()) {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Err(e) => return Some(e),
            Ok(meta) if meta.file_type().is_symlink() => return None,
            Ok(_) => {}
        }
    }
    None
}

/// An error of the walk as a path (relative to `root` when inside it) and what went wrong.
fn walk_error(root: &Path, error: &ignore::Error) -> (PathBuf, String) {
    match error {
        ignore::Error::WithPath { path, err } => {
            (path.strip_prefix(root).map_or_else(|_| path.clone(), Path::to_path_buf), err.to_string())
        }
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_error(root, err),
        other => (PathBuf::new(), other.to_string()),
    }
}
