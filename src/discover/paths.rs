//! Discovery of some paths only: what a file watcher reports (files or directories changed,
//! added or removed), classified exactly as the full walk would classify them.
//!
//! The walk is the full walk's — the same ignore files, exclusions and sensitive-file rules,
//! starting at the root — entering only the directories on the way to a named path and those
//! beneath a named directory, so a path comes out as it would from [`super::discover`]. A
//! path outside the root (or with `..` in it) is left out and counted as `excluded`; a named
//! path the walk does not reach is counted under the reason of the directory pruned above it,
//! else as `ignored`; a named path that no longer exists is only part of the scope, so the
//! index forgets what it held there. Files that ignore files hide inside a named directory
//! are not counted (the full walk's second walk, which counts them, is not repeated here).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::rules::Rules;
use super::{
    DiscoverError, Discovery, Options, SkipReason, UserGlobs, canonical_root, classify, dir_reason, lock,
    relative_path, walker,
};

/// The paths a run covers, relative to the root (`/`-separated): a file, or a directory and
/// everything beneath it; the empty path is the whole project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathScope {
    paths: Vec<String>,
}

impl PathScope {
    /// A scope of these project-relative paths (`/`-separated; empty is the whole project).
    pub(super) fn new(paths: Vec<String>) -> PathScope {
        PathScope { paths }
    }

    /// Whether `relative` is one of the paths or lies beneath one.
    pub fn covers(&self, relative: &str) -> bool {
        self.paths.iter().any(|p| p.is_empty() || relative == p || is_beneath(relative, p))
    }

    /// Whether the walk must enter directory `relative` to reach the paths.
    pub(super) fn leads_to(&self, relative: &str) -> bool {
        self.covers(relative) || self.paths.iter().any(|p| is_beneath(p, relative))
    }
}

/// The files among some paths, and the scope they cover.
#[derive(Debug, Clone, Default)]
pub struct ScopedDiscovery {
    /// Files to index and what was left out, as from the full walk but for these paths only.
    pub discovery: Discovery,
    /// What the index should hold exactly `discovery.files` of.
    pub scope: PathScope,
}

/// Classifies `paths` (absolute, or relative to `opts.root`) as the full walk would.
pub fn discover_paths(opts: &Options, paths: &[PathBuf]) -> Result<ScopedDiscovery, DiscoverError> {
    let root = &canonical_root(opts)?;
    let globs = Arc::new(UserGlobs::new(opts)?);
    let rules = Arc::new(Rules::new());
    let mut discovery = Discovery::default();
    let mut scope = PathScope::default();
    for path in paths {
        match project_relative(&opts.root, root, path) {
            Some(relative) if !scope.paths.contains(&relative) => scope.paths.push(relative),
            Some(_) => {}
            None => discovery.skipped.add(SkipReason::Excluded),
        }
    }
    if scope.paths.is_empty() {
        return Ok(ScopedDiscovery { discovery, scope });
    }

    // Directories on the way that the rules prune, with their reason.
    let pruned: Arc<Mutex<Vec<(String, SkipReason)>>> = Arc::default();
    let mut builder = walker(root, opts)?;
    let (walk_root, walk_rules, walk_globs, walk_scope, walk_pruned) =
        (root.clone(), Arc::clone(&rules), Arc::clone(&globs), scope.clone(), Arc::clone(&pruned));
    builder.filter_entry(move |entry| {
        if entry.depth() == 0 {
            return true;
        }
        let relative = relative_path(&walk_root, entry.path());
        if !entry.file_type().is_some_and(|t| t.is_dir()) {
            return walk_scope.covers(&relative);
        }
        if !walk_scope.leads_to(&relative) {
            return false;
        }
        match dir_reason(&walk_root, entry, &walk_rules, &walk_globs) {
            Some(reason) => {
                lock(&walk_pruned).push((relative, reason));
                false
            }
            None => true,
        }
    });
    let mut reached: HashSet<String> = HashSet::new();
    for result in builder.build() {
        let entry = match result {
            Ok(entry) => entry,
            Err(e) => {
                tracing::debug!(error = %e, "skipping an unreadable path");
                discovery.skipped.add(SkipReason::Unreadable);
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            if scope.covers(&relative_path(root, entry.path())) {
                discovery.directories.push(entry.path().to_path_buf());
            }
            continue;
        }
        match classify(root, &entry, &globs, &rules, opts.max_file_size) {
            Ok(candidate) => {
                reached.insert(candidate.relative.clone());
                discovery.files.push(candidate);
            }
            Err((relative, reason)) => {
                discovery.skipped.add(reason);
                reached.insert(relative.clone());
                discovery.skipped_files.push((relative, reason));
            }
        }
    }
    count_unreached(root, &scope, &reached, &lock(&pruned), &mut discovery);
    discovery.files.sort_by(|a, b| a.relative.cmp(&b.relative));
    Ok(ScopedDiscovery { discovery, scope })
}

/// Counts the directories the rules pruned inside the scope, and the named paths that exist
/// but that the walk did not reach: under the reason of a pruned directory above (or at)
/// them, each such directory once, else as ignored (an ignore file hides them, or they lie
/// behind a link).
fn count_unreached(
    root: &Path,
    scope: &PathScope,
    reached: &HashSet<String>,
    pruned: &[(String, SkipReason)],
    discovery: &mut Discovery,
) {
    // A pruned directory inside the scope counts once, as in the full walk.
    let mut counted_dirs: HashSet<&str> = HashSet::new();
    for (dir, reason) in pruned {
        if scope.covers(dir) && counted_dirs.insert(dir) {
            discovery.skipped.add(*reason);
        }
    }
    for path in &scope.paths {
        let found_some = reached.iter().any(|r| r == path || is_beneath(r, path));
        if found_some || std::fs::symlink_metadata(root.join(path)).is_err() {
            continue;
        }
        match pruned.iter().find(|(dir, _)| path == dir || is_beneath(path, dir)) {
            Some((dir, reason)) => {
                if counted_dirs.insert(dir) {
                    discovery.skipped.add(*reason);
                }
            }
            None => discovery.skipped.add(SkipReason::Ignored),
        }
    }
}

/// `path` relative to the project root (`/`-separated), or `None` when it lies outside.
/// `given_root` is the root as configured, `root` its canonical path.
pub(super) fn project_relative(given_root: &Path, root: &Path, path: &Path) -> Option<String> {
    let within = if path.is_absolute() {
        path.strip_prefix(given_root).or_else(|_| path.strip_prefix(root)).ok().map(Path::to_path_buf).or_else(
            || {
                // The root reached by another spelling (a link above it): compare canonical paths of
                // the deepest part that exists.
                let existing = path.ancestors().find(|a| a.exists())?;
                let rest = path.strip_prefix(existing).ok()?;
                Some(existing.canonicalize().ok()?.strip_prefix(root).ok()?.join(rest))
            },
        )?
    } else {
        path.to_path_buf()
    };
    let mut parts = Vec::new();
    for component in within.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` lies strictly beneath directory `dir`.
fn is_beneath(path: &str, dir: &str) -> bool {
    (dir.is_empty() && !path.is_empty())
        || (path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_root_are_refused() {
        let root = Path::new("/p/root");
        assert_eq!(project_relative(root, root, Path::new("/p/root/src/a.py")).as_deref(), Some("src/a.py"));
        assert_eq!(project_relative(root, root, Path::new("src/./a.py")).as_deref(), Some("src/a.py"));
        assert_eq!(project_relative(root, root, Path::new("/p/root")).as_deref(), Some(""));
        assert_eq!(project_relative(root, root, Path::new("../other/a.py")), None);
        assert_eq!(project_relative(root, root, Path::new("/p/root/../other/a.py")), None);
        assert_eq!(project_relative(root, root, Path::new("/nowhere/at/all.py")), None);
    }

    #[test]
    fn a_scope_covers_its_files_and_what_lies_beneath_its_directories() {
        let scope = PathScope { paths: vec!["src/a.py".into(), "lib".into()] };
        assert!(scope.covers("src/a.py") && scope.covers("lib/x/y.py") && scope.covers("lib"));
        assert!(!scope.covers("src/a.pyc") && !scope.covers("src") && !scope.covers("library/z.py"));
        assert!(scope.leads_to("src") && !scope.leads_to("docs"));
        assert!(PathScope { paths: vec![String::new()] }.covers("any/thing"));
    }
}
