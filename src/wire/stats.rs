//! The JSON of index statistics (`cocosearch stats --json`, `index_stats`, `/api/stats`, the
//! dashboard's indexes) and of an index run's summary (`cocosearch index --json`, a finished
//! job's `summary`): the engine's [`IndexStats`] and [`Summary`] are plain structs, and these
//! shapes name their fields for scripts and agents.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::chunk::ParseStatus;
use crate::chunk::SymbolKind;
use crate::discover::SkipCounts;
use crate::index::Summary;
use crate::index::lease::{Following, Watcher};
use crate::stats::{Freshness, IndexStats, LanguageHealth, ParseHealth, PathSet, RunInfo, SearchFreshness};
use crate::store::{ErrorPosition, FailingFile, LanguageCounts, RunKind, RunStatus, RunSummary};

/// One index's statistics.
pub fn stats_json(stats: &IndexStats) -> Value {
    serde_json::to_value(StatsJson::from(stats)).unwrap_or_default()
}

/// How fresh a searched index is: with every search answer (`cocosearch search --json`,
/// `search_code`).
pub fn search_freshness_json(f: &SearchFreshness) -> Value {
    let fresh = &f.freshness;
    serde_json::json!({
        "index": f.index,
        "state": search_freshness_state(f),
        "watched_by": f.watcher.as_ref().map(watcher_json),
        "files_added": fresh.added.count,
        "files_modified": fresh.modified.count,
        "files_removed": fresh.removed.count,
        "scanned": fresh.scanned,
        "commit_drift": fresh.commit_drift,
        "branch_drift": fresh.branch_drift,
        "age_days": fresh.age_days,
        "stale": fresh.stale,
        "pending_embeddings": f.pending_embeddings,
    })
}

/// `live` (a watcher keeps it fresh), `fresh` (nothing changed since the last run) or
/// `behind` (files changed, or HEAD moved, since).
pub fn search_freshness_state(f: &SearchFreshness) -> &'static str {
    let behind = f.freshness.stale && !f.freshness.stale_by_age;
    match (f.watcher.as_ref().map(|w| w.following), behind) {
        (Some(Following::Live), _) => "live",
        (_, false) => "fresh",
        (_, true) => "behind",
    }
}

/// The process keeping an index fresh.
pub fn watcher_json(w: &Watcher) -> Value {
    let following = match w.following {
        Following::CatchingUp => "catching_up",
        Following::Live => "live",
    };
    serde_json::json!({"pid": w.pid, "process": w.process, "since": w.since, "following": following})
}

/// What an index run did.
pub fn summary_json(summary: &Summary) -> Value {
    serde_json::to_value(SummaryJson::from(summary)).unwrap_or_default()
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    index: &'a str,
    root: &'a Path,
    kind: RunKind,
    status: RunStatus,
    #[serde(flatten)]
    run: &'a RunSummary,
    git_commit: &'a Option<String>,
    git_branch: &'a Option<String>,
    snapshot: Option<&'a str>,
    snapshots_deleted: u64,
    files_collected: u64,
}

impl<'a> From<&'a Summary> for SummaryJson<'a> {
    fn from(s: &'a Summary) -> Self {
        SummaryJson {
            index: &s.index,
            root: &s.root,
            kind: s.kind,
            status: s.status,
            run: &s.run,
            git_commit: &s.git_commit,
            git_branch: &s.git_branch,
            snapshot: s.snapshot.as_ref().map(|x| x.name.as_str()),
            snapshots_deleted: s.collected.snapshots,
            files_collected: s.collected.files,
        }
    }
}

#[derive(Serialize)]
struct StatsJson<'a> {
    name: &'a str,
    root: &'a Path,
    provider: &'a str,
    model: &'a Option<String>,
    dimension: Option<u32>,
    created_at: &'a str,
    updated_at: &'a str,
    git_commit: &'a Option<String>,
    git_branch: &'a Option<String>,
    files: u64,
    chunks: u64,
    stored_texts: u64,
    pending_embeddings: u64,
    lines: u64,
    backend: &'static str,
    storage_bytes: u64,
    symbols_by_type: &'a BTreeMap<SymbolKind, u64>,
    languages: Vec<LanguageCountsJson<'a>>,
    last_run: Option<RunInfoJson<'a>>,
    skipped: &'a SkipCounts,
    freshness: FreshnessJson<'a>,
    watched_by: Option<Value>,
    parse_health: ParseHealthJson<'a>,
    failing_files: Vec<FailingFileJson<'a>>,
    shared: Option<&'a crate::store::overlay::SharedUse>,
}

impl<'a> From<&'a IndexStats> for StatsJson<'a> {
    fn from(s: &'a IndexStats) -> Self {
        StatsJson {
            name: &s.name,
            root: &s.root,
            provider: &s.provider,
            model: &s.model,
            dimension: s.dimension,
            created_at: &s.created_at,
            updated_at: &s.updated_at,
            git_commit: &s.git_commit,
            git_branch: &s.git_branch,
            files: s.files,
            chunks: s.chunks,
            stored_texts: s.stored_texts,
            pending_embeddings: s.pending_embeddings,
            lines: s.lines,
            backend: s.backend.as_str(),
            storage_bytes: s.storage_bytes,
            symbols_by_type: &s.symbols_by_type,
            languages: s.languages.iter().map(LanguageCountsJson::from).collect(),
            last_run: s.last_run.as_ref().map(RunInfoJson::from),
            skipped: &s.skipped,
            freshness: FreshnessJson::from(&s.freshness),
            watched_by: s.watcher.as_ref().map(watcher_json),
            parse_health: ParseHealthJson::from(&s.parse_health),
            failing_files: s.failing_files.iter().map(FailingFileJson::from).collect(),
            shared: s.shared.as_ref(),
        }
    }
}

#[derive(Serialize)]
struct LanguageCountsJson<'a> {
    language: &'a str,
    files: u64,
    chunks: u64,
    lines: u64,
    parse_status: &'a BTreeMap<ParseStatus, u64>,
}

impl<'a> From<&'a LanguageCounts> for LanguageCountsJson<'a> {
    fn from(l: &'a LanguageCounts) -> Self {
        LanguageCountsJson {
            language: &l.language,
            files: l.files,
            chunks: l.chunks,
            lines: l.lines,
            parse_status: &l.parse_status,
        }
    }
}

#[derive(Serialize)]
struct FailingFileJson<'a> {
    path: &'a str,
    language: &'a str,
    status: ParseStatus,
    failing_chunks: u64,
    chunks: u64,
    errors: &'a [ErrorPosition],
}

impl<'a> From<&'a FailingFile> for FailingFileJson<'a> {
    fn from(f: &'a FailingFile) -> Self {
        FailingFileJson {
            path: &f.path,
            language: &f.language,
            status: f.status,
            failing_chunks: f.failing_chunks,
            chunks: f.chunks,
            errors: &f.errors,
        }
    }
}

#[derive(Serialize)]
struct RunInfoJson<'a> {
    kind: RunKind,
    status: RunStatus,
    started_at: &'a str,
    finished_at: &'a Option<String>,
    duration_ms: Option<u64>,
    files_added: u64,
    files_modified: u64,
    files_removed: u64,
    chunks_written: u64,
}

impl<'a> From<&'a RunInfo> for RunInfoJson<'a> {
    fn from(r: &'a RunInfo) -> Self {
        RunInfoJson {
            kind: r.kind,
            status: r.status,
            started_at: &r.started_at,
            finished_at: &r.finished_at,
            duration_ms: r.duration_ms,
            files_added: r.files_added,
            files_modified: r.files_modified,
            files_removed: r.files_removed,
            chunks_written: r.chunks_written,
        }
    }
}

#[derive(Serialize)]
struct PathSetJson<'a> {
    count: u64,
    paths: &'a [String],
}

impl<'a> From<&'a PathSet> for PathSetJson<'a> {
    fn from(p: &'a PathSet) -> Self {
        PathSetJson { count: p.count, paths: &p.paths }
    }
}

#[derive(Serialize)]
struct FreshnessJson<'a> {
    scanned: bool,
    scan_ms: u64,
    added: PathSetJson<'a>,
    modified: PathSetJson<'a>,
    removed: PathSetJson<'a>,
    sensitive: PathSetJson<'a>,
    head_commit: &'a Option<String>,
    head_branch: &'a Option<String>,
    commit_drift: bool,
    branch_drift: bool,
    age_days: Option<f64>,
    threshold_days: u64,
    stale_by_age: bool,
    stale: bool,
}

impl<'a> From<&'a Freshness> for FreshnessJson<'a> {
    fn from(f: &'a Freshness) -> Self {
        FreshnessJson {
            scanned: f.scanned,
            scan_ms: f.scan_ms,
            added: PathSetJson::from(&f.added),
            modified: PathSetJson::from(&f.modified),
            removed: PathSetJson::from(&f.removed),
            sensitive: PathSetJson::from(&f.sensitive),
            head_commit: &f.head_commit,
            head_branch: &f.head_branch,
            commit_drift: f.commit_drift,
            branch_drift: f.branch_drift,
            age_days: f.age_days,
            threshold_days: f.threshold_days,
            stale_by_age: f.stale_by_age,
            stale: f.stale,
        }
    }
}

#[derive(Serialize)]
struct LanguageHealthJson<'a> {
    language: &'a str,
    ok: u64,
    partial: u64,
    error: u64,
    unsupported: u64,
    ok_percent: Option<f64>,
}

#[derive(Serialize)]
struct ParseHealthJson<'a> {
    languages: Vec<LanguageHealthJson<'a>>,
    ok_percent: Option<f64>,
}

impl<'a> From<&'a ParseHealth> for ParseHealthJson<'a> {
    fn from(p: &'a ParseHealth) -> Self {
        let language = |l: &'a LanguageHealth| LanguageHealthJson {
            language: &l.language,
            ok: l.ok,
            partial: l.partial,
            error: l.error,
            unsupported: l.unsupported,
            ok_percent: l.ok_percent,
        };
        ParseHealthJson { languages: p.languages.iter().map(language).collect(), ok_percent: p.ok_percent }
    }
}
