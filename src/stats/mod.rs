//! Stats: the one authoritative account of an index — what it holds, how fresh it is, and
//! where parsing failed.
//!
//! Architecture invariant: [`collect`] is the only function that assembles index statistics;
//! `cocosearch stats`, the MCP `index_stats` tool and `/api/stats` all call it (long-running
//! servers through [`collect_cached`], which only keeps the counts between calls), so they can
//! never disagree. Freshness is measured (a size/mtime scan of the tree and the git HEAD), not
//! guessed from timestamps.
//!
//! The records here are plain structs; their JSON is `wire::stats_json`.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

mod cache;
pub use cache::CountsCache;

use crate::chunk::{ParseStatus, SymbolKind};
use crate::config::IndexingSettings;
use crate::discover::{self, SkipCounts};
use crate::index::lease::{self, Watcher};
use crate::store::{
    Backend, FailingFile, IndexCounts, IndexMeta, IndexReader, LanguageCounts, RunKind, RunRecord, RunStatus, Store,
    StoreError,
};

/// What to include.
#[derive(Debug, Clone, Copy)]
pub struct StatsOptions {
    /// Warn when the last completed run is older than this.
    pub staleness_days: u64,
    /// How many failing files to list (0: none).
    pub failing_files: usize,
    /// Scan the tree to measure freshness.
    pub scan: bool,
    /// The snapshot counted: another than the current one is not the tree on disk, and is
    /// never scanned.
    pub at: crate::store::At,
}

/// How many changed paths of each kind are listed by name.
const LISTED_PATHS: usize = 20;

/// The last run of an index.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// Full or incremental.
    pub kind: RunKind,
    /// How it stands.
    pub status: RunStatus,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// When it ended (RFC 3339).
    pub finished_at: Option<String>,
    /// How long it took.
    pub duration_ms: Option<u64>,
    /// Files added.
    pub files_added: u64,
    /// Files re-indexed because they changed.
    pub files_modified: u64,
    /// Files removed.
    pub files_removed: u64,
    /// Chunks written.
    pub chunks_written: u64,
}

/// Changed paths of one kind: how many, and the first few.
#[derive(Debug, Clone, Default)]
pub struct PathSet {
    /// How many.
    pub count: u64,
    /// The first ones, sorted.
    pub paths: Vec<String>,
}

impl PathSet {
    fn from(mut paths: Vec<String>) -> PathSet {
        paths.sort();
        let count = paths.len() as u64;
        paths.truncate(LISTED_PATHS);
        PathSet { count, paths }
    }
}

/// How far the index is behind the tree and the repository.
#[derive(Debug, Clone)]
pub struct Freshness {
    /// Whether the tree was scanned (false when the root is gone).
    pub scanned: bool,
    /// How long the scan took.
    pub scan_ms: u64,
    /// Files on disk not in the index.
    pub added: PathSet,
    /// Files whose size or mtime differ from what was indexed.
    pub modified: PathSet,
    /// Indexed files no longer on disk (or now skipped).
    pub removed: PathSet,
    /// Sensitive-looking files the scan left out (`.env`, keys), so that a count of them is
    /// never a mystery; empty when not scanned.
    pub sensitive: PathSet,
    /// The commit checked out now.
    pub head_commit: Option<String>,
    /// The branch checked out now.
    pub head_branch: Option<String>,
    /// HEAD is not the commit that was indexed.
    pub commit_drift: bool,
    /// HEAD is not on the branch that was indexed.
    pub branch_drift: bool,
    /// Days since the last completed run.
    pub age_days: Option<f64>,
    /// The staleness threshold.
    pub threshold_days: u64,
    /// Older than the threshold.
    pub stale_by_age: bool,
    /// Anything at all behind.
    pub stale: bool,
}

/// Parse health of one language.
#[derive(Debug, Clone)]
pub struct LanguageHealth {
    /// Language id.
    pub language: String,
    /// Chunks parsed cleanly.
    pub ok: u64,
    /// Chunks with syntax errors inside.
    pub partial: u64,
    /// Chunks cut by the fallback after the parser failed or timed out.
    pub error: u64,
    /// Chunks of languages without a grammar.
    pub unsupported: u64,
    /// `ok` as a percentage of parsed chunks (`ok + partial + error`); `None` without any.
    pub ok_percent: Option<f64>,
}

/// Parse health of the index.
#[derive(Debug, Clone)]
pub struct ParseHealth {
    /// Per language, most chunks first.
    pub languages: Vec<LanguageHealth>,
    /// `ok` as a percentage of all parsed chunks.
    pub ok_percent: Option<f64>,
}

/// Everything `stats` reports about one index.
#[derive(Debug, Clone)]
pub struct IndexStats {
    /// Index name.
    pub name: String,
    /// Project root.
    pub root: PathBuf,
    /// Embedding provider.
    pub provider: String,
    /// Embedding model.
    pub model: Option<String>,
    /// Vector dimension.
    pub dimension: Option<u32>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
    /// Commit indexed.
    pub git_commit: Option<String>,
    /// Branch indexed.
    pub git_branch: Option<String>,
    /// Files indexed.
    pub files: u64,
    /// Chunks.
    pub chunks: u64,
    /// Distinct chunk texts stored over every snapshot (each once, with its vector).
    pub stored_texts: u64,
    /// Chunks without a vector yet.
    pub pending_embeddings: u64,
    /// Lines.
    pub lines: u64,
    /// The backend that holds it.
    pub backend: Backend,
    /// Bytes it uses in the store (tables and their indexes).
    pub storage_bytes: u64,
    /// Definitions by kind.
    pub symbols_by_type: BTreeMap<SymbolKind, u64>,
    /// Per language: files, chunks, lines, chunks by parse status.
    pub languages: Vec<LanguageCounts>,
    /// The last run.
    pub last_run: Option<RunInfo>,
    /// Paths skipped by reason, as of the last completed run.
    pub skipped: SkipCounts,
    /// How fresh.
    pub freshness: Freshness,
    /// The process keeping it fresh as files change (`cocosearch watch`, an MCP server, the
    /// dashboard), if one does.
    pub watcher: Option<Watcher>,
    /// Parse health.
    pub parse_health: ParseHealth,
    /// Files with failing chunks (when asked for).
    pub failing_files: Vec<FailingFile>,
    /// The team's shared index read with this one (`shared.url`), when one is: the counts
    /// above are this machine's overlay.
    pub shared: Option<crate::store::overlay::SharedUse>,
}

/// A stats failure.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// The store failed (including "no index named X").
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// Collects the statistics of one index.
pub fn collect(
    store: &dyn Store,
    name: &str,
    indexing: &IndexingSettings,
    options: StatsOptions,
) -> Result<IndexStats, StatsError> {
    assemble(store, name, indexing, options, None)
}

/// [`collect`], with the counts kept in `cache` while the index has not changed (a server's
/// repeated calls); freshness, runs and failing files are read anew every time.
pub fn collect_cached(
    store: &dyn Store,
    name: &str,
    indexing: &IndexingSettings,
    options: StatsOptions,
    cache: &CountsCache,
) -> Result<IndexStats, StatsError> {
    assemble(store, name, indexing, options, Some(cache))
}

fn assemble(
    store: &dyn Store,
    name: &str,
    indexing: &IndexingSettings,
    options: StatsOptions,
    cache: Option<&CountsCache>,
) -> Result<IndexStats, StatsError> {
    let meta = store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.to_string()))?;
    let reader = store.reader_at(name, options.at)?;
    let runs = reader.runs(20)?;
    let counts = match cache {
        Some(cache) if options.at == crate::store::At::Current => {
            cache.counts(store.location(), reader.as_ref(), &meta, runs.first())?
        }
        _ => reader.index_counts()?,
    };
    let last_run = runs.first().map(run_info);
    let last_completed = runs.iter().find(|r| r.status == RunStatus::Completed);
    let skipped = last_completed.map(|r| r.summary.skipped.clone()).unwrap_or_default();
    let freshness = freshness(reader.as_ref(), &meta, indexing, last_completed, options)?;
    let parse_health = parse_health(&counts);
    let failing_files =
        if options.failing_files > 0 { reader.failing_files(options.failing_files)? } else { Vec::new() };
    let IndexCounts {
        files,
        chunks,
        stored_texts,
        pending_embeddings,
        lines,
        storage_bytes,
        languages,
        symbols_by_type,
    } = counts;
    Ok(IndexStats {
        name: meta.name,
        root: meta.root,
        provider: meta.provider,
        model: meta.model,
        dimension: meta.dimension,
        created_at: rfc3339(meta.created_at),
        updated_at: rfc3339(meta.updated_at),
        git_commit: meta.git_commit,
        git_branch: meta.git_branch,
        files,
        chunks,
        stored_texts,
        pending_embeddings,
        lines,
        backend: store.backend(),
        storage_bytes,
        symbols_by_type,
        languages,
        last_run,
        skipped,
        freshness,
        watcher: lease::watcher_of(&store.location(), name),
        parse_health,
        failing_files,
        shared: None,
    })
}

/// How fresh an index is, as a search answer says it: who keeps it fresh, how many chunks
/// wait for vectors, and — when no watcher does — what changed on disk since the last run.
#[derive(Debug, Clone)]
pub struct SearchFreshness {
    /// The index.
    pub index: String,
    /// The watcher keeping it fresh, if any.
    pub watcher: Option<Watcher>,
    /// Chunks without a vector yet: found by keyword only until they get one.
    pub pending_embeddings: u64,
    /// What changed since the last run (the tree is scanned only when nothing watches it: a
    /// watched index is as fresh as its debounce time).
    pub freshness: Freshness,
}

impl SearchFreshness {
    /// Files changed on disk and not yet indexed (0 for a watched index).
    pub fn files_behind(&self) -> u64 {
        let f = &self.freshness;
        f.added.count + f.modified.count + f.removed.count
    }
}

/// [`SearchFreshness`] of `name`: a few small queries, and a walk of the tree (as `stats`
/// does, tens of milliseconds on the standard library) when no watcher keeps it fresh.
pub fn search_freshness(
    store: &dyn Store,
    name: &str,
    indexing: &IndexingSettings,
) -> Result<SearchFreshness, StatsError> {
    let watcher = lease::watcher_of(&store.location(), name);
    // A watcher that follows the files makes the scan pointless; one still catching up does not.
    let live = watcher.as_ref().is_some_and(|w| w.following == lease::Following::Live);
    let options = StatsOptions { staleness_days: 7, failing_files: 0, scan: !live, at: crate::store::At::Current };
    let reader = store.reader(name)?;
    let freshness = freshness_of(store, reader.as_ref(), name, indexing, options)?;
    Ok(SearchFreshness { index: name.to_string(), watcher, pending_embeddings: reader.count_pending()?, freshness })
}

/// The freshness part of [`collect`] alone: how far `name` is behind its files, without
/// counting the index (counting walks every chunk and page: seconds on 400,000 chunks, where
/// this takes a walk of the tree).
pub fn index_freshness(
    store: &dyn Store,
    name: &str,
    indexing: &IndexingSettings,
    options: StatsOptions,
) -> Result<Freshness, StatsError> {
    let reader = store.reader_at(name, options.at)?;
    freshness_of(store, reader.as_ref(), name, indexing, options)
}

/// [`index_freshness`] read through `reader`, which the caller may read more from.
fn freshness_of(
    store: &dyn Store,
    reader: &dyn IndexReader,
    name: &str,
    indexing: &IndexingSettings,
    options: StatsOptions,
) -> Result<Freshness, StatsError> {
    let meta = store.get_index(name)?.ok_or_else(|| StoreError::IndexNotFound(name.to_string()))?;
    let runs = reader.runs(20)?;
    let last_completed = runs.iter().find(|r| r.status == RunStatus::Completed);
    Ok(freshness(reader, &meta, indexing, last_completed, options)?)
}

fn run_info(r: &RunRecord) -> RunInfo {
    let files = &r.summary.files;
    RunInfo {
        kind: r.kind,
        status: r.status,
        started_at: rfc3339(r.started_at),
        finished_at: r.finished_at.map(rfc3339),
        duration_ms: r.finished_at.and_then(|f| f.duration_since(r.started_at).ok()).map(|d| d.as_millis() as u64),
        files_added: files.added,
        files_modified: files.modified,
        files_removed: files.removed,
        chunks_written: r.summary.chunks.written,
    }
}

fn freshness(
    reader: &dyn IndexReader,
    meta: &IndexMeta,
    indexing: &IndexingSettings,
    last_completed: Option<&RunRecord>,
    options: StatsOptions,
) -> Result<Freshness, StoreError> {
    let started = Instant::now();
    let mut added = Vec::new();
    let mut modified = Vec::new();
    let mut removed = Vec::new();
    let mut sensitive = Vec::new();
    let mut scanned = false;
    if options.scan && options.at == crate::store::At::Current {
        // The index's own walk, in parallel; what ignore files hid is not counted here.
        let on_disk: std::sync::Mutex<Vec<(String, u64, i64)>> = std::sync::Mutex::default();
        let walked = discover::each_file(&discover::Options::for_index(&meta.root, indexing), &[], |c| {
            on_disk.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((c.relative, c.size, c.mtime_ns));
        });
        if let Ok(walked) = walked {
            scanned = true;
            let on_disk = on_disk.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
            let states = reader.file_states(None)?;
            let paths: HashSet<&str> = on_disk.iter().map(|(relative, _, _)| relative.as_str()).collect();
            for (relative, size, mtime_ns) in &on_disk {
                match states.get(relative) {
                    None => added.push(relative.clone()),
                    Some(s) if s.size != *size || s.mtime_ns != *mtime_ns => modified.push(relative.clone()),
                    Some(_) => {}
                }
            }
            removed = states.keys().filter(|p| !paths.contains(p.as_str())).cloned().collect();
            sensitive = walked.sensitive;
        }
    }
    let head = discover::git::head(&meta.root).unwrap_or_default();
    let commit_drift = matches!((&meta.git_commit, &head.commit), (Some(a), Some(b)) if a != b);
    let branch_drift = matches!((&meta.git_branch, &head.branch), (Some(a), Some(b)) if a != b);
    let age_days = last_completed
        .and_then(|r| r.finished_at)
        .and_then(|f| SystemTime::now().duration_since(f).ok())
        .map(|d: Duration| d.as_secs_f64() / 86_400.0);
    let stale_by_age = age_days.is_some_and(|d| d > options.staleness_days as f64);
    let stale = !added.is_empty()
        || !modified.is_empty()
        || !removed.is_empty()
        || commit_drift
        || branch_drift
        || stale_by_age;
    Ok(Freshness {
        scanned,
        scan_ms: started.elapsed().as_millis() as u64,
        added: PathSet::from(added),
        modified: PathSet::from(modified),
        removed: PathSet::from(removed),
        sensitive: PathSet::from(sensitive),
        head_commit: head.commit,
        head_branch: head.branch,
        commit_drift,
        branch_drift,
        age_days: age_days.map(|d| (d * 100.0).round() / 100.0),
        threshold_days: options.staleness_days,
        stale_by_age,
        stale,
    })
}

fn percent(ok: u64, parsed: u64) -> Option<f64> {
    (parsed > 0).then(|| (ok as f64 * 1000.0 / parsed as f64).round() / 10.0)
}

fn parse_health(counts: &IndexCounts) -> ParseHealth {
    let get = |l: &LanguageCounts, s: ParseStatus| l.parse_status.get(&s).copied().unwrap_or(0);
    let languages: Vec<LanguageHealth> = counts
        .languages
        .iter()
        .map(|l| {
            let (ok, partial, error) =
                (get(l, ParseStatus::Ok), get(l, ParseStatus::Partial), get(l, ParseStatus::Error));
            LanguageHealth {
                language: l.language.clone(),
                ok,
                partial,
                error,
                unsupported: get(l, ParseStatus::Unsupported),
                ok_percent: percent(ok, ok + partial + error),
            }
        })
        .collect();
    let ok: u64 = languages.iter().map(|l| l.ok).sum();
    let parsed: u64 = languages.iter().map(|l| l.ok + l.partial + l.error).sum();
    ParseHealth { languages, ok_percent: percent(ok, parsed) }
}
