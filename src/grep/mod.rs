//! Exact search: a regular expression over the project's files, with ripgrep's semantics.
//!
//! The matcher and the searcher are ripgrep's own crates (`grep-regex`, `grep-searcher`);
//! nothing here matches text by hand. The files are the index's: the walk is
//! [`discover::each_file`] (the same ignore files, exclusions, sensitive-file rule and size
//! cap), and every file is opened through [`ProjectFiles`], so no link leads out of the
//! project. No index is needed; when there is one, [`enclose`] names the definition each match
//! lies in.
//!
//! Architecture invariant: results are plain structs in path order; JSON shapes and text
//! output belong to the presenters.

mod enclose;
mod file;
mod matcher;
mod stored;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

pub use enclose::{Enclosing, enclose};
pub use file::{FileMatches, Line, LineKind};
pub use matcher::{DFA_SIZE_LIMIT, SIZE_LIMIT};
pub use stored::{grep_stored, stored_paths};

use crate::chunk::Language;
use crate::discover::{self, Candidate, ProjectFiles, SkipCounts, SkipReason};

/// How the pattern text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A regular expression (the regex crate's syntax, as rg's).
    Regex,
    /// Literal text (`-F`).
    Fixed,
}

/// Case sensitivity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// As written.
    Sensitive,
    /// `-i`.
    Insensitive,
    /// `-S`: insensitive unless the pattern has an upper-case letter.
    Smart,
}

/// What to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// One or more patterns; a line matches when any does.
    pub patterns: Vec<String>,
    /// Regex or literal.
    pub syntax: Syntax,
    /// Case sensitivity.
    pub case: Case,
    /// Only whole words (`-w`).
    pub word: bool,
    /// A match may span lines (`-U`).
    pub multiline: bool,
}

/// What is reported of each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// The matching lines, with context.
    Lines,
    /// Only whether the file matches (`-l`): the search of a file stops at its first match.
    Files,
    /// Only the number of matching lines (`-c`).
    Count,
}

/// Which lines count as matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    /// Lines that match.
    Matching,
    /// Lines that do not match (`-v`).
    Inverted,
}

/// The order files are searched and reported in (rg's `--sort`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// By path (rg's `--sort path`; its `none` gives no order, which this one is too).
    #[default]
    Path,
    /// By modification time, oldest first.
    Modified,
    /// By access time, oldest first.
    Accessed,
    /// By creation time, oldest first.
    Created,
}

/// How files are ordered: by what, and whether the other way round (rg's `--sortr`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sort {
    /// By what.
    pub by: Order,
    /// Newest (or last path) first.
    pub reverse: bool,
}

/// A grep, as every presenter asks for it.
#[derive(Debug, Clone)]
pub struct GrepRequest {
    /// The pattern.
    pub pattern: Pattern,
    /// `-v`.
    pub polarity: Polarity,
    /// Lines of context before each match (`-B`).
    pub before: usize,
    /// Lines of context after each match (`-A`).
    pub after: usize,
    /// At most this many matching lines per file (`-m`).
    pub max_count: Option<u64>,
    /// What to report.
    pub report: Report,
    /// rg's `--glob`s: `*.py` keeps only matching files, `!tests/**` leaves matching ones out.
    pub globs: Vec<String>,
    /// Only files of these languages (empty: all).
    pub languages: Vec<Language>,
    /// Only these paths (files or directories; absolute or relative to the root); empty: all.
    pub paths: Vec<PathBuf>,
    /// Stop once this many matching lines are found in all (the answer says it was cut).
    pub limit: Option<u64>,
    /// The order files are searched and reported in (files on disk; a snapshot's are by path).
    pub sort: Sort,
    /// Each match replaced by this text in the lines reported (rg's `--replace`: `$1`,
    /// `${name}` are the match's groups); the files are not touched.
    pub replace: Option<Vec<u8>>,
}

/// What a grep did besides its matches.
#[derive(Debug, Clone, Default)]
pub struct GrepSummary {
    /// Files searched.
    pub files_searched: u64,
    /// Files with at least one match.
    pub files_matched: u64,
    /// Matching lines reported.
    pub matched_lines: u64,
    /// Files left out by the walk's rules or when read (binary, too large, unreadable), by
    /// reason.
    pub skipped: SkipCounts,
    /// Paths given that lie outside the project.
    pub outside: Vec<PathBuf>,
    /// What could not be searched, as rg reports it: a path given that does not exist, a
    /// directory or file that cannot be read (each also counted in `skipped` when walked).
    pub errors: Vec<FileError>,
    /// The search stopped at [`GrepRequest::limit`]: more files may match.
    pub cut: bool,
    /// Wall time, milliseconds.
    pub took_ms: f64,
}

impl GrepSummary {
    /// Counts `other` (a grep of another project) into this summary.
    pub fn absorb(&mut self, other: GrepSummary) {
        self.files_searched += other.files_searched;
        self.files_matched += other.files_matched;
        self.matched_lines += other.matched_lines;
        for (reason, n) in other.skipped.0 {
            *self.skipped.0.entry(reason).or_default() += n;
        }
        self.outside.extend(other.outside);
        self.errors.extend(other.errors);
        self.cut |= other.cut;
        self.took_ms += other.took_ms;
    }
}

/// A path that could not be searched, and why (`Permission denied (os error 13)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The path: as given, or relative to the project root.
    pub path: PathBuf,
    /// What went wrong, in the operating system's words.
    pub message: String,
}

/// Why a grep could not run.
#[derive(Debug, thiserror::Error)]
pub enum GrepError {
    /// The pattern does not compile.
    #[error("invalid pattern: {0}")]
    Pattern(String),
    /// The compiled pattern would pass the size limits.
    #[error(
        "the pattern compiles to more than {0} MiB — simplify it (large repetitions such as a{{1000}} multiply its size)"
    )]
    TooBig(usize),
    /// A `--glob` does not compile.
    #[error("invalid glob {0:?}: {1}")]
    Glob(String, String),
    /// The project cannot be walked.
    #[error(transparent)]
    Discover(#[from] discover::DiscoverError),
    /// The project root cannot be read.
    #[error("cannot read the project root: {0}")]
    Root(std::io::Error),
    /// The snapshot's files cannot be read from the store (`--at`).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

/// Files searched together before their results are handed on in path order: enough to keep
/// every core busy, few enough that memory stays bounded by the batch.
const BATCH: usize = 256;
/// Bytes of matching lines the files searched during the walk may hold (see [`grep`]).
const EARLY_BUDGET: usize = 32 << 20;
/// What a held line costs besides its text.
const LINE_OVERHEAD: usize = 64;

/// Searches the project of `opts` and hands each matching file to `emit`, in path order.
/// `emit` may stop the search by returning `Break`.
pub fn grep(
    opts: &discover::Options,
    request: &GrepRequest,
    mut emit: impl FnMut(FileMatches) -> ControlFlow<()>,
) -> Result<GrepSummary, GrepError> {
    let started = Instant::now();
    let matcher = matcher::build(&request.pattern)?;
    let files = ProjectFiles::new(&opts.root).map_err(GrepError::Root)?;

    let found_lines = AtomicU64::new(0);
    // Searchers are reused: each holds buffers worth keeping.
    let pool: Mutex<Vec<grep_searcher::Searcher>> = Mutex::default();
    let reached = || request.limit.is_some_and(|limit| found_lines.load(Ordering::Relaxed) >= limit);

    // Files are searched as the walk finds them (the walk and the reads overlap, as in rg),
    // their results held until they can go out in path order, within a budget; past it, and
    // whenever a limit asks for the first matches in path order, files wait for the ordered
    // pass below.
    let early: Mutex<HashMap<String, file::Outcome>> = Mutex::default();
    let held = AtomicUsize::new(0);
    let search_early = request.limit.is_none();
    let (candidates, walked) = candidates(opts, &files, request, &|candidate| {
        if !search_early || held.load(Ordering::Relaxed) >= EARLY_BUDGET {
            return;
        }
        let mut searcher = lock(&pool).pop().unwrap_or_else(|| file::searcher(request));
        let outcome = file::search(&mut searcher, &matcher, &files, candidate, request, opts.max_file_size);
        lock(&pool).push(searcher);
        if let file::Outcome::Matched(m) = &outcome {
            held.fetch_add(m.lines.iter().map(|l| l.text.len() + LINE_OVERHEAD).sum::<usize>(), Ordering::Relaxed);
        }
        lock(&early).insert(candidate.relative.clone(), outcome);
    })?;
    let mut early = early.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);

    let mut summary = GrepSummary {
        skipped: walked.skipped,
        outside: walked.outside,
        errors: walked.errors.into_iter().map(|(path, message)| FileError { path, message }).collect(),
        ..GrepSummary::default()
    };
    'batches: for batch in candidates.chunks(BATCH) {
        if reached() {
            summary.cut = true;
            break;
        }
        let ready: Vec<Option<file::Outcome>> = batch.iter().map(|c| early.remove(&c.relative)).collect();
        let outcomes: Vec<file::Outcome> = batch
            .par_iter()
            .zip(ready)
            .map_init(
                || Pooled { pool: &pool, searcher: Some(lock(&pool).pop().unwrap_or_else(|| file::searcher(request))) },
                |pooled, (candidate, ready)| {
                    if let Some(outcome) = ready {
                        return outcome;
                    }
                    let Some(searcher) = pooled.searcher.as_mut() else { return file::Outcome::NotSearched };
                    if reached() {
                        return file::Outcome::NotSearched;
                    }
                    let outcome = file::search(searcher, &matcher, &files, candidate, request, opts.max_file_size);
                    if let file::Outcome::Matched(m) = &outcome {
                        found_lines.fetch_add(m.count, Ordering::Relaxed);
                    }
                    outcome
                },
            )
            .collect();
        // A file left unsearched because later files reached the limit first is searched now,
        // while the files before it fall short: the answer is the first matches in path order.
        let mut before = 0u64;
        for (candidate, mut outcome) in batch.iter().zip(outcomes) {
            let short = request.limit.is_none_or(|limit| before < limit);
            if short && matches!(outcome, file::Outcome::NotSearched) {
                let mut searcher = lock(&pool).pop().unwrap_or_else(|| file::searcher(request));
                outcome = file::search(&mut searcher, &matcher, &files, candidate, request, opts.max_file_size);
                lock(&pool).push(searcher);
            }
            if let file::Outcome::Matched(m) = &outcome {
                before += m.count;
            }
            if summary.tally(outcome, &mut emit).is_break() {
                break 'batches;
            }
        }
    }
    summary.took_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(summary)
}

impl GrepSummary {
    /// Counts what searching one file came to, handing a match to `emit`; `Break` when
    /// `emit` stops the search (the summary then says it was cut).
    fn tally(
        &mut self,
        outcome: file::Outcome,
        emit: &mut impl FnMut(FileMatches) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match outcome {
            file::Outcome::NotSearched => self.cut = true,
            file::Outcome::Skipped(reason) => self.skipped.add(reason),
            file::Outcome::Failed(relative, message) => {
                self.skipped.add(SkipReason::Unreadable);
                self.errors.push(FileError { path: PathBuf::from(relative), message });
            }
            file::Outcome::NoMatch => self.files_searched += 1,
            file::Outcome::Matched(m) => {
                self.files_searched += 1;
                self.files_matched += 1;
                self.matched_lines += m.count;
                if emit(m).is_break() {
                    self.cut = true;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// A searcher taken from the pool, given back when dropped.
struct Pooled<'p> {
    pool: &'p Mutex<Vec<grep_searcher::Searcher>>,
    searcher: Option<grep_searcher::Searcher>,
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let Some(searcher) = self.searcher.take() {
            lock(self.pool).push(searcher);
        }
    }
}

/// The files a grep of `request` searches, in its order (`cocosearch grep --files`), and
/// what the walk left out.
pub fn files(opts: &discover::Options, request: &GrepRequest) -> Result<(Vec<String>, discover::Walked), GrepError> {
    let files = ProjectFiles::new(&opts.root).map_err(GrepError::Root)?;
    let (candidates, walked) = candidates(opts, &files, request, &|_| {})?;
    Ok((candidates.into_iter().map(|c| c.relative).collect(), walked))
}

/// The walk, with the request's paths, globs and languages, sorted by path; `found_now` sees
/// each file kept as the walk finds it.
fn candidates(
    opts: &discover::Options,
    files: &ProjectFiles,
    request: &GrepRequest,
    found_now: &(dyn Fn(&Candidate) + Sync),
) -> Result<(Vec<Candidate>, discover::Walked), GrepError> {
    let overrides = globs(files.root(), &request.globs)?;
    let found: Mutex<Vec<Candidate>> = Mutex::default();
    let walked = discover::each_file(opts, &request.paths, |candidate| {
        if wanted(&candidate.path, &candidate.relative, &overrides, &request.languages, files.root()) {
            found_now(&candidate);
            lock(&found).push(candidate);
        }
    })?;
    let mut candidates = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    candidates.sort_unstable_by(|a, b| a.relative.cmp(&b.relative));
    sort(&mut candidates, request.sort);
    Ok((candidates, walked))
}

/// `candidates`, in path order, in the order `sort` asks for (a time it cannot read sorts
/// first; ties keep path order).
fn sort(candidates: &mut [Candidate], sort: Sort) {
    let time = |c: &Candidate, of: fn(&std::fs::Metadata) -> std::io::Result<std::time::SystemTime>| {
        std::fs::symlink_metadata(&c.path).and_then(|m| of(&m)).ok()
    };
    match sort.by {
        Order::Path => {}
        Order::Modified => candidates.sort_by_key(|c| c.mtime_ns),
        Order::Accessed => candidates.sort_by_cached_key(|c| time(c, std::fs::Metadata::accessed)),
        Order::Created => candidates.sort_by_cached_key(|c| time(c, std::fs::Metadata::created)),
    }
    if sort.reverse {
        candidates.reverse();
    }
}

/// rg's `--glob` overrides, rooted at the project.
fn globs(root: &std::path::Path, patterns: &[String]) -> Result<ignore::overrides::Override, GrepError> {
    let mut builder = ignore::overrides::OverrideBuilder::new(root);
    for glob in patterns {
        builder.add(glob).map_err(|e| GrepError::Glob(glob.clone(), e.to_string()))?;
    }
    builder.build().map_err(|e| GrepError::Glob(patterns.join(","), e.to_string()))
}

/// Whether the request's globs and languages keep the file at `path` (`relative` to `root`).
/// A glob that leaves a directory out (`!tests`) leaves out what lies beneath it, as it does in rg's walk.
fn wanted(
    path: &std::path::Path,
    relative: &str,
    overrides: &ignore::overrides::Override,
    languages: &[Language],
    root: &std::path::Path,
) -> bool {
    if !languages.is_empty()
        && !Language::detect(std::path::Path::new(relative), "").is_some_and(|l| languages.contains(&l))
    {
        return false;
    }
    if overrides.is_empty() {
        return true;
    }
    match overrides.matched(path, false) {
        ignore::Match::Whitelist(_) => true,
        ignore::Match::Ignore(_) => false,
        ignore::Match::None => !path
            .ancestors()
            .skip(1)
            .take_while(|dir| dir.starts_with(root) && *dir != root)
            .any(|dir| overrides.matched(dir, true).is_ignore()),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A reason a file found by the walk was not searched after all.
pub(crate) fn skip_reason_of_read(refused: &discover::ReadRefused) -> SkipReason {
    match refused {
        discover::ReadRefused::Outside(_) => SkipReason::SymlinkOutside,
        discover::ReadRefused::Loop(_) => SkipReason::SymlinkLoop,
        _ => SkipReason::Unreadable,
    }
}
