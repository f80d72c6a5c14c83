//! File discovery: which files of a project go into its index, and why the others do not.
//!
//! The walk uses the `ignore` crate (ripgrep's walker): `.gitignore`, `.git/info/exclude`, the
//! global gitignore, `.ignore` and our own `.cocosearchignore`, plus the built-in exclusions and
//! sensitive-file rules of [`rules`] and the user's include/exclude globs. Every path left out
//! is counted under a [`SkipReason`]; a directory skipped whole counts once.
//!
//! Symbolic links are never followed (ripgrep's default): each one met in the walk is skipped
//! and counted by where it leads — inside the project (its target is indexed under its own
//! path anyway), outside it, round in a loop, or nowhere. A link to the home directory costs
//! one `canonicalize`, never a walk.
//!
//! Architecture invariant: discovery never fails on a bad file or directory — it counts it
//! and moves on. Only a missing or unreadable root is an error.
//! Architecture invariant: nothing here follows a symbolic link; project files are read only
//! through [`ProjectFiles`], which refuses any path that resolves outside the root.

mod confine;
mod each;
pub mod git;
mod paths;
mod read;
pub mod rules;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

pub use confine::{ProjectFiles, ReadRefused};
pub use each::{Walked, each_file};
pub use paths::{PathScope, ScopedDiscovery, discover_paths};
pub use read::{SourceFile, read_source};
use rules::Rules;

/// The name of cocosearch's own ignore file, with `.gitignore` syntax.
pub const IGNORE_FILE: &str = ".cocosearchignore";

/// Why a path is not in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Matched .gitignore, .ignore, .cocosearchignore or git's exclude files.
    Ignored,
    /// Matched a built-in exclusion or the user's exclude (or missed the include) patterns.
    Excluded,
    /// Looks like it holds secrets.
    Sensitive,
    /// Larger than `indexing.maxFileSize`.
    TooLarge,
    /// Contains NUL bytes.
    Binary,
    /// Not valid UTF-8.
    NotUtf8,
    /// Could not be read (permissions, vanished).
    Unreadable,
    /// A symbolic link whose target lies inside the project: not followed, the target is
    /// indexed under its own path.
    Symlink,
    /// A symbolic link that leads outside the project.
    SymlinkOutside,
    /// A symbolic link that leads round in a loop, or to a directory above itself.
    SymlinkLoop,
    /// A symbolic link whose target does not exist.
    SymlinkBroken,
}

impl SkipReason {
    /// Every reason, in display order.
    pub const ALL: [SkipReason; 11] = [
        SkipReason::Ignored,
        SkipReason::Excluded,
        SkipReason::Sensitive,
        SkipReason::TooLarge,
        SkipReason::Binary,
        SkipReason::NotUtf8,
        SkipReason::Unreadable,
        SkipReason::Symlink,
        SkipReason::SymlinkOutside,
        SkipReason::SymlinkLoop,
        SkipReason::SymlinkBroken,
    ];

    /// The snake_case name used in JSON and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Ignored => "ignored",
            SkipReason::Excluded => "excluded",
            SkipReason::Sensitive => "sensitive",
            SkipReason::TooLarge => "too_large",
            SkipReason::Binary => "binary",
            SkipReason::NotUtf8 => "not_utf8",
            SkipReason::Unreadable => "unreadable",
            SkipReason::Symlink => "symlink",
            SkipReason::SymlinkOutside => "symlink_outside",
            SkipReason::SymlinkLoop => "symlink_loop",
            SkipReason::SymlinkBroken => "symlink_broken",
        }
    }

    /// Words for people: "too large".
    pub fn label(self) -> &'static str {
        match self {
            SkipReason::TooLarge => "too large",
            SkipReason::NotUtf8 => "not UTF-8",
            SkipReason::SymlinkOutside => "symlink outside project",
            SkipReason::SymlinkLoop => "symlink loop",
            SkipReason::SymlinkBroken => "broken symlink",
            other => other.as_str(),
        }
    }
}

impl std::str::FromStr for SkipReason {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SkipReason::ALL.into_iter().find(|r| r.as_str() == s).ok_or_else(|| format!("unknown skip reason {s:?}"))
    }
}

/// Skipped paths counted by reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipCounts(pub BTreeMap<SkipReason, u64>);

impl SkipCounts {
    /// Counts one more path for `reason`.
    pub fn add(&mut self, reason: SkipReason) {
        *self.0.entry(reason).or_default() += 1;
    }

    /// The count for `reason`.
    pub fn get(&self, reason: SkipReason) -> u64 {
        self.0.get(&reason).copied().unwrap_or(0)
    }

    /// All skipped paths.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }
}

/// What to walk and what to leave out.
#[derive(Debug, Clone)]
pub struct Options {
    /// The project root.
    pub root: PathBuf,
    /// Apply .gitignore, .git/info/exclude and the global gitignore.
    pub respect_gitignore: bool,
    /// Only paths matching one of these globs (empty: all).
    pub include: Vec<String>,
    /// Paths matching these globs are left out.
    pub exclude: Vec<String>,
    /// Sensitive-looking paths matching these globs are indexed anyway.
    pub include_sensitive: Vec<String>,
    /// Larger files are skipped.
    pub max_file_size: u64,
}

impl Options {
    /// How an index of `root` walks it: the one place the indexing settings become discovery
    /// rules (index runs, watchers, grep, the freshness scan).
    pub fn for_index(root: &Path, indexing: &crate::config::IndexingSettings) -> Options {
        Options {
            root: root.to_path_buf(),
            respect_gitignore: indexing.respect_gitignore,
            include: indexing.include_patterns.clone(),
            exclude: indexing.exclude_patterns.clone(),
            include_sensitive: indexing.include_sensitive.clone(),
            max_file_size: indexing.max_file_size,
        }
    }
}

/// A file to index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Absolute path.
    pub path: PathBuf,
    /// Path relative to the root, `/`-separated: its name in the index and in every answer
    /// (lossy where the file system's name is not UTF-8).
    pub relative: String,
    /// Path relative to the root as the file system spells it: what opens the file, whatever
    /// its name.
    pub within: PathBuf,
    /// Size in bytes when walked.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: i64,
}

/// The result of a walk.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// Files to index, sorted by relative path.
    pub files: Vec<Candidate>,
    /// What was left out, by reason.
    pub skipped: SkipCounts,
    /// Files left out, with their reason (directories skipped whole are not listed).
    pub skipped_files: Vec<(String, SkipReason)>,
    /// The directories the walk entered (absolute, under the canonical root, the root
    /// included): what a watcher watches, so that ignored and excluded trees cost nothing.
    pub directories: Vec<PathBuf>,
}

/// The root cannot be walked.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// It does not exist.
    #[error("{} does not exist — pass an existing directory", .0.display())]
    NotFound(PathBuf),
    /// It is not a directory.
    #[error("{} is not a directory — pass the project's root directory", .0.display())]
    NotADirectory(PathBuf),
    /// A user glob does not compile.
    #[error("invalid glob {0:?}: {1}")]
    Glob(String, String),
    /// An ignore file of the root is a link leading outside the project.
    #[error(
        "{} is a symbolic link leading outside the project, and cocosearch reads nothing outside it — replace the link with a copy of the file",
        .0.display()
    )]
    LinkedIgnoreFile(PathBuf),
}

/// The user's globs, compiled. A pattern without `/` also matches any single path component,
/// so `tests` or `*.snap` work like in .gitignore.
struct UserGlobs {
    include: Option<GlobSet>,
    exclude: GlobSet,
    reinclude: GlobSet,
}

fn compile(patterns: &[String]) -> Result<GlobSet, DiscoverError> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        let p = p.trim_end_matches('/');
        builder.add(Glob::new(p).map_err(|e| DiscoverError::Glob(p.to_string(), e.kind().to_string()))?);
    }
    builder.build().map_err(|e| DiscoverError::Glob(patterns.join(","), e.to_string()))
}

fn matches(set: &GlobSet, relative: &str, name: &str) -> bool {
    set.is_match(relative) || set.is_match(name)
}

/// Walks `opts.root` and classifies every file.
pub fn discover(opts: &Options) -> Result<Discovery, DiscoverError> {
    let root = &canonical_root(opts)?;
    let globs = Arc::new(UserGlobs::new(opts)?);
    let rules = Arc::new(Rules::new());
    let counts = Arc::new(Mutex::new(SkipCounts::default()));

    let mut builder = walker(root, opts)?;
    builder.filter_entry(dir_filter(root.clone(), Arc::clone(&rules), Arc::clone(&globs), Some(Arc::clone(&counts))));

    let mut discovery = Discovery::default();
    let mut seen_dirs: HashSet<PathBuf> = HashSet::new();
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    for result in builder.build() {
        let entry = match result {
            Ok(entry) => entry,
            Err(e) => {
                tracing::debug!(error = %e, "skipping an unreadable path");
                lock(&counts).add(SkipReason::Unreadable);
                continue;
            }
        };
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if is_dir {
            seen_dirs.insert(entry.path().to_path_buf());
            continue;
        }
        seen_files.insert(entry.path().to_path_buf());
        let verdict = classify(root, &entry, &globs, &rules, opts.max_file_size);
        match verdict {
            Ok(candidate) => discovery.files.push(candidate),
            Err((relative, reason)) => {
                lock(&counts).add(reason);
                discovery.skipped_files.push((relative, reason));
            }
        }
    }

    count_ignored(root, &rules, &globs, &seen_dirs, &seen_files, &counts);
    discovery.files.sort_by(|a, b| a.relative.cmp(&b.relative));
    discovery.skipped = lock(&counts).clone();
    discovery.directories = seen_dirs.into_iter().collect();
    discovery.directories.sort();
    Ok(discovery)
}

/// The directories [`discover`] enters (absolute, under the canonical root, the root included),
/// without classifying a file or counting what the ignore files hide: what a watcher watches.
pub fn directories(opts: &Options) -> Result<Vec<PathBuf>, DiscoverError> {
    let root = &canonical_root(opts)?;
    let mut builder = walker(root, opts)?;
    builder.filter_entry(dir_filter(root.clone(), Arc::new(Rules::new()), Arc::new(UserGlobs::new(opts)?), None));
    let mut dirs: Vec<PathBuf> = builder
        .build()
        .flatten()
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_dir()))
        .map(ignore::DirEntry::into_path)
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// The root's checks (it exists and is a directory) and its canonical path: walks start at
/// the canonical root, so every path they meet, and every link target, compares with the
/// root as it is.
fn canonical_root(opts: &Options) -> Result<PathBuf, DiscoverError> {
    check_root(&opts.root)?;
    opts.root.canonicalize().map_err(|_| DiscoverError::NotFound(opts.root.clone()))
}

/// Whether `root` can be walked at all: it exists and is a directory. An index run checks it
/// before anything is created, so a mistyped path leaves no index behind.
pub fn check_root(root: &Path) -> Result<(), DiscoverError> {
    match std::fs::metadata(root) {
        Err(_) => Err(DiscoverError::NotFound(root.to_path_buf())),
        Ok(meta) if !meta.is_dir() => Err(DiscoverError::NotADirectory(root.to_path_buf())),
        Ok(_) => Ok(()),
    }
}

impl UserGlobs {
    fn new(opts: &Options) -> Result<UserGlobs, DiscoverError> {
        Ok(UserGlobs {
            include: if opts.include.is_empty() { None } else { Some(compile(&opts.include)?) },
            exclude: compile(&opts.exclude)?,
            reinclude: compile(&opts.include_sensitive)?,
        })
    }
}

/// The walker of the index, honouring the ignore files, following no link. Refuses a root
/// whose ignore file leads outside it (see [`linked_ignore_file`]).
fn walker(root: &Path, opts: &Options) -> Result<ignore::WalkBuilder, DiscoverError> {
    if let Some(linked) = linked_ignore_file(root, root) {
        return Err(DiscoverError::LinkedIgnoreFile(linked));
    }
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(opts.respect_gitignore)
        .git_exclude(opts.respect_gitignore)
        .git_global(opts.respect_gitignore)
        .require_git(false)
        .follow_links(false)
        .add_custom_ignore_filename(IGNORE_FILE);
    Ok(builder)
}

/// The ignore files the walk reads in each directory it enters.
const WALKED_IGNORE_FILES: [&str; 4] = [".gitignore", ".ignore", IGNORE_FILE, ".git/info/exclude"];

/// An ignore file of `dir` that is a link leading outside `root`. The `ignore` crate follows
/// links when it reads them, so a repository's `.gitignore -> ~/.ssh/id_rsa` would make the
/// walk read that file; a directory holding one is not entered (the root is refused).
fn linked_ignore_file(root: &Path, dir: &Path) -> Option<PathBuf> {
    // `dir` lies inside the canonical root, so only a link can lead the path out of it: a path
    // with no link on the way needs no resolution (one `lstat` per component, where resolving
    // every path cost a walk of the project dozens of failed `readlink`s per directory).
    WALKED_IGNORE_FILES
        .iter()
        .filter(|name| has_link(dir, name))
        .map(|name| dir.join(name))
        .find(|path| path.canonicalize().is_ok_and(|target| !target.starts_with(root)))
}

/// Whether `dir/name` (`name` relative, `/`-separated) passes through a symbolic link; a path
/// that stops existing on the way has none.
fn has_link(dir: &Path, name: &str) -> bool {
    let mut path = dir.to_path_buf();
    for part in name.split('/') {
        path.push(part);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
}

/// A file the walk met: a candidate, or its relative path and why it is left out.
fn classify(
    root: &Path,
    entry: &ignore::DirEntry,
    globs: &UserGlobs,
    rules: &Rules,
    max_file_size: u64,
) -> Result<Candidate, (String, SkipReason)> {
    let relative = relative_path(root, entry.path());
    let name = entry.file_name().to_string_lossy();
    let skip = |reason| (relative.clone(), reason);
    if entry.depth() > 0 && entry.path_is_symlink() {
        Err(skip(link_reason(root, entry.path())))
    } else if matches(&globs.exclude, &relative, &name)
        || globs.include.as_ref().is_some_and(|inc| !matches(inc, &relative, &name))
    {
        Err(skip(SkipReason::Excluded))
    } else if rules.sensitive_file(&name) && !matches(&globs.reinclude, &relative, &name) {
        Err(skip(SkipReason::Sensitive))
    } else if rules.excluded_file(&name) && !globs.include.as_ref().is_some_and(|inc| matches(inc, &relative, &name)) {
        Err(skip(SkipReason::Excluded))
    } else {
        match entry.metadata() {
            Err(_) => Err(skip(SkipReason::Unreadable)),
            Ok(meta) if !meta.is_file() => Err(skip(SkipReason::Unreadable)),
            Ok(meta) if meta.len() > max_file_size => Err(skip(SkipReason::TooLarge)),
            Ok(meta) => Ok(Candidate {
                path: entry.path().to_path_buf(),
                relative: relative.clone(),
                within: entry.path().strip_prefix(root).unwrap_or(entry.path()).to_path_buf(),
                size: meta.len(),
                mtime_ns: mtime_ns(&meta),
            }),
        }
    }
}

/// Why the walk leaves a directory out whole: built-in exclusions, virtualenvs, the user's
/// excludes and sensitive folders; `None` enters it.
fn dir_reason(root: &Path, entry: &ignore::DirEntry, rules: &Rules, globs: &UserGlobs) -> Option<SkipReason> {
    let name = entry.file_name().to_string_lossy();
    let relative = relative_path(root, entry.path());
    if rules.excluded_dir(&name) || matches(&globs.exclude, &relative, &name) || is_virtualenv(entry.path()) {
        Some(SkipReason::Excluded)
    } else if rules.sensitive_dir(&name) && !matches(&globs.reinclude, &relative, &name) {
        Some(SkipReason::Sensitive)
    } else if linked_ignore_file(root, entry.path()).is_some() {
        Some(SkipReason::SymlinkOutside)
    } else {
        None
    }
}

/// The pruning filter for directories: built-in exclusions, virtualenvs, the user's excludes
/// and sensitive folders. Counts what it prunes when given counters.
fn dir_filter(
    root: PathBuf,
    rules: Arc<Rules>,
    globs: Arc<UserGlobs>,
    counts: Option<Arc<Mutex<SkipCounts>>>,
) -> impl Fn(&ignore::DirEntry) -> bool + Send + Sync + 'static {
    move |entry| {
        if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_dir()) {
            return true;
        }
        let reason = dir_reason(&root, entry, &rules, &globs);
        if let (Some(reason), Some(counts)) = (reason, &counts) {
            lock(counts).add(reason);
        }
        reason.is_none()
    }
}

/// Counts paths the ignore files hid: walks again without them and counts what the first walk
/// never saw (an ignored directory counts once and is not entered).
fn count_ignored(
    root: &Path,
    rules: &Arc<Rules>,
    globs: &Arc<UserGlobs>,
    seen_dirs: &HashSet<PathBuf>,
    seen_files: &HashSet<PathBuf>,
    counts: &Arc<Mutex<SkipCounts>>,
) {
    let seen_dirs = Arc::new(seen_dirs.clone());
    let ignored = Arc::new(Mutex::new(0u64));
    let mut builder = ignore::WalkBuilder::new(root);
    builder.standard_filters(false).hidden(false).follow_links(false);
    let prune = dir_filter(root.to_path_buf(), Arc::clone(rules), Arc::clone(globs), None);
    let (dirs, ignored_dirs) = (Arc::clone(&seen_dirs), Arc::clone(&ignored));
    builder.filter_entry(move |entry| {
        if !prune(entry) {
            return false;
        }
        if entry.depth() > 0 && entry.file_type().is_some_and(|t| t.is_dir()) && !dirs.contains(entry.path()) {
            *lock(&ignored_dirs) += 1;
            return false;
        }
        true
    });
    let mut files = 0;
    for entry in builder.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_dir()) && !seen_files.contains(entry.path()) {
            files += 1;
        }
    }
    let total = files + *lock(&ignored);
    let mut counts = lock(counts);
    for _ in 0..total {
        counts.add(SkipReason::Ignored);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where a symbolic link met in the walk leads. `root` is canonical, and so is the link's
/// directory (the walk starts at the canonical root and follows no link).
fn link_reason(root: &Path, link: &Path) -> SkipReason {
    match link.canonicalize() {
        Ok(target) if !target.starts_with(root) => SkipReason::SymlinkOutside,
        // A link to a directory above itself: following it would walk round forever.
        Ok(target) if link.parent().is_some_and(|dir| dir.starts_with(&target)) => SkipReason::SymlinkLoop,
        Ok(_) => SkipReason::Symlink,
        Err(e) if confine::is_loop(&e) => SkipReason::SymlinkLoop,
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
            SkipReason::SymlinkBroken
        }
        Err(_) => SkipReason::Unreadable,
    }
}

/// A directory with `pyvenv.cfg` is a Python virtualenv, whatever its name.
fn is_virtualenv(dir: &Path) -> bool {
    dir.join("pyvenv.cfg").is_file()
}

/// `path` relative to `root`, with `/` separators.
pub fn relative_path(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Modification time in nanoseconds since the epoch (0 when unknown).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests;
