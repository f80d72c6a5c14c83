//! The index's walk in parallel, for readers that want each file as soon as it is found
//! (`cocosearch grep`) rather than the sorted, fully counted [`super::discover`].
//!
//! The rules are the full walk's — the same walker, ignore files, directory pruning and file
//! classification — so a file comes out here exactly when the index would hold it. Only the
//! second walk that counts what ignore files hid is left out (it would double the cost), so
//! `ignored` is not counted.

use std::path::PathBuf;
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
    /// Paths given that lie outside the project, as given.
    pub outside: Vec<PathBuf>,
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
                Some(r) => relative.push(r),
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
    let (globs, rules, counts, visit) = (&globs, &rules, &counts, &visit);
    builder.build_parallel().run(|| {
        Box::new(move |result| {
            let entry = match result {
                Ok(entry) => entry,
                Err(e) => {
                    tracing::debug!(error = %e, "skipping an unreadable path");
                    lock(counts).add(SkipReason::Unreadable);
                    return WalkState::Continue;
                }
            };
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                return WalkState::Continue;
            }
            match classify(root, &entry, globs, rules, opts.max_file_size) {
                Ok(candidate) => visit(candidate),
                Err((_, reason)) => lock(counts).add(reason),
            }
            WalkState::Continue
        })
    });
    walked.skipped = lock(counts).clone();
    Ok(walked)
}
