//! Indexing: the pipeline that turns a project into an up-to-date index.
//!
//! A run (1) takes the index's write lock and checks the embedder cheaply, (2) walks the tree
//! (or only the paths a watcher named, see [`Scope`]) and compares it with what is stored —
//! size and mtime first, then the content hash, and the parameters each file was chunked
//! with — (3) parses, chunks and writes the changed files through bounded channels so memory
//! stays flat for any repository, (4) removes vanished files — after which every file is
//! searchable by keyword and in the code graph — and (5) computes the vectors of every chunk
//! still waiting for one, this run's and earlier runs'. See [`pipeline`] for the first phase's
//! stages and [`vectors`] for the second.
//!
//! Architecture invariant: a file's chunks are replaced in one transaction, so a crash at any
//! moment leaves each file either fully old or fully new, and the next run resumes.
//! Architecture invariant: a chunk without a vector is stored as awaiting one and never
//! counted as embedded; the next run with a working embedder fills it in.

mod embed_text;
pub mod lease;
mod link;
mod pipeline;
mod progress;
pub mod resolve;
pub mod shared;
pub mod snapshot;
mod vectors;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use embed_text::{embed_hash, embed_text};
pub use progress::{Phase, Progress, human_duration};
pub use vectors::{Filled, VectorRequest, fill_vectors};

/// Lowers the calling thread to the lowest scheduling priority (nice 19 on Linux; nothing
/// elsewhere): background work such as a watcher's vectors yields to everything else.
pub fn background_priority() {
    #[cfg(target_os = "linux")]
    pipeline::set_thread_nice(19);
}

use crate::chunk::ChunkOptions;
use crate::config::Settings;
use crate::discover::{self, DiscoverError, Options as DiscoverOptions};
use crate::embed::{EmbedError, Embedder};
use crate::store::{
    ChunkCounts, Collected, EmbeddingCounts, FileCounts, IndexWriter, NewIndex, Patience, RunEnd, RunKind, RunStatus,
    RunSummary, SnapshotRecord, Store, StoreError,
};

/// What to index, and how.
pub struct IndexRequest<'a> {
    /// The index name (validated by the store).
    pub name: String,
    /// The project root.
    pub root: PathBuf,
    /// The resolved settings.
    pub settings: &'a Settings,
    /// Delete the index first.
    pub fresh: bool,
    /// The embedder; `None` to store chunks as awaiting vectors (`--no-embed`, provider none).
    pub embedder: Option<&'a dyn Embedder>,
    /// Live counters.
    pub progress: Arc<Progress>,
    /// Set to stop the run cleanly (Ctrl-C).
    pub cancel: Arc<AtomicBool>,
    /// Which files the run looks at. A run that builds the index from nothing (a new index,
    /// `fresh`) walks the whole project whatever this says.
    pub scope: Scope,
    /// Whether the run computes the vectors, or leaves them to a background filler.
    pub vectors: VectorPhase,
    /// The snapshot's name (`--snapshot`); by default the branch or commit checked out
    /// ([`snapshot::spec_for`], with HEAD as the run begins).
    pub snapshot: Option<String>,
    /// A team's shared index this one overlays: files equal to its copy are left to it.
    pub shared: Option<shared::SharedBase>,
}

/// Who computes the vectors of the chunks a run writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorPhase {
    /// The run, after every file is written (`cocosearch index`, an MCP index job).
    InRun,
    /// A background filler ([`fill_vectors`]), so the run returns as soon as the files are
    /// searchable by keyword (the watcher).
    Deferred,
}

/// Which files an index run looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Walk the whole project: every file is compared with the index, and files that are gone
    /// (or now left out) are removed from it.
    FullWalk,
    /// Only these paths — what a file watcher reports as changed, added or removed: files or
    /// directories, absolute or relative to the root. Each is classified as the full walk would
    /// classify it (`discover::discover_paths`): one that exists and is indexable is indexed
    /// again if it changed, one that is gone or now left out is removed from the index, and one
    /// outside the project is ignored and counted as a skip. The rest of the index stays as it
    /// is, so after the run it equals a full run's whenever the paths named every change.
    Paths(Vec<PathBuf>),
}

/// An indexing failure.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The root cannot be walked.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The embedder failed in a way retrying cannot fix (unknown model, bad key).
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The index exists for another directory.
    #[error(
        "index {index} belongs to {existing}, not {requested} — pass --index NAME to give this project its own index, or --fresh to re-point it"
    )]
    RootMismatch {
        /// The index.
        index: String,
        /// The root it was built for.
        existing: String,
        /// The root asked for now.
        requested: String,
    },
}

/// What a run did; printed by `cocosearch index` (its JSON is `wire::summary_json`), and its
/// [`RunSummary`] stored with the run.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The index.
    pub index: String,
    /// The root.
    pub root: PathBuf,
    /// Full (new or --fresh) or incremental.
    pub kind: RunKind,
    /// Completed or interrupted.
    pub status: RunStatus,
    /// The counts, as recorded with the run.
    pub run: RunSummary,
    /// The commit checked out when the run began: its snapshot's.
    pub git_commit: Option<String>,
    /// The branch checked out when the run began.
    pub git_branch: Option<String>,
    /// The snapshot the run wrote, as it was when the run began.
    pub snapshot: Option<SnapshotRecord>,
    /// What letting older snapshots go deleted (`indexing.keepSnapshots`).
    pub collected: Collected,
}

/// Runs one index run to completion (or clean interruption), holding the index's write lock
/// from before anything changes (`--fresh` deletes the old index under it) to the end.
pub fn run(store: &dyn Store, req: &IndexRequest<'_>) -> Result<Summary, IndexError> {
    // A root that cannot be walked fails before the lock, the index record or its tables exist.
    discover::check_root(&req.root)?;
    // Another writer (a watcher's batch, another run) is waited for, not failed on.
    let writer = crate::store::writer_when_free(store, &req.name, Patience::UntilCancelled(&req.cancel), &mut || {
        req.progress.notice(format!(
            "index {} is being written by another process (a watcher — `cocosearch watch`, an MCP server, the dashboard — or another `cocosearch index`); waiting for it to let go",
            req.name
        ))
    })?;
    run_locked(store, req, writer.as_ref())
}

/// [`run`] for a caller that already holds the index's write lock (the MCP server takes it
/// when it accepts a job, so a busy index is refused in the tool call itself).
pub fn run_locked(store: &dyn Store, req: &IndexRequest<'_>, writer: &dyn IndexWriter) -> Result<Summary, IndexError> {
    debug_assert_eq!(writer.index(), req.name, "the writer held is the index's");
    let started = Instant::now();
    let progress = &req.progress;
    progress.set_phase(Phase::Starting);
    store.migrate()?;
    let settings = req.settings;
    // The embedder names its model: a built-in model's canonical name, or the model a local
    // directory holds, which the settings cannot know without reading it. Without an embedder
    // (`--no-embed`) the index still records the model that will fill it, named the same way.
    let model_name = match req.embedder {
        Some(e) => e.info().model,
        None => crate::embed::choose::model_identity(&settings.embedding).map_err(EmbedError::from)?,
    };
    // Callers resolve `auto` with [`embedding_settings`]; should one not, the provider recorded
    // is still a real one.
    debug_assert_ne!(settings.embedding.provider, crate::config::Provider::Auto, "resolve auto first");
    let provider = crate::embed::choose::for_new_index(&settings.embedding).provider.as_str();
    let embeds = provider != "none";

    // The cheap model check first: an unknown model stops here, before anything changes.
    let mut embedder = req.embedder;
    let mut limits = None;
    if let Some(e) = embedder {
        match e.limits() {
            Ok(l) => limits = Some(l),
            Err(err @ (EmbedError::ModelNotFound { .. } | EmbedError::Auth { .. })) => return Err(err.into()),
            Err(err) => {
                progress.warn(format!(
                    "{err}; indexing without embeddings — keyword search works now, and the next `cocosearch index` with the embedder up fills in the vectors"
                ));
                embedder = None;
            }
        }
    }

    if req.fresh {
        writer.drop_index()?;
    }
    let existing = store.get_index(&req.name)?;
    let created = existing.is_none();
    let kind = match (&existing, req.fresh, &req.scope) {
        (None, _, _) | (_, true, _) => RunKind::Full,
        (Some(_), false, Scope::FullWalk) => RunKind::Incremental,
        (Some(_), false, Scope::Paths(_)) => RunKind::Live,
    };
    let meta = match existing {
        Some(meta) => {
            // Worktrees of one repository share its index, each its own snapshots.
            let same_root = meta.root == req.root
                || meta.root.canonicalize().ok().as_ref() == Some(&req.root)
                || crate::config::same_repository(&meta.root, &req.root);
            if !same_root {
                return Err(IndexError::RootMismatch {
                    index: req.name.clone(),
                    existing: meta.root.display().to_string(),
                    requested: req.root.display().to_string(),
                });
            }
            let wanted_dimension = limits.and_then(|l| l.dimension).map(|d| d as u32);
            let dimension_differs = matches!((meta.dimension, wanted_dimension), (Some(a), Some(b)) if a != b);
            if embeds && (meta.model.as_deref().is_some_and(|m| m != model_name) || dimension_differs) {
                return Err(StoreError::ModelMismatch {
                    index: req.name.clone(),
                    existing: describe_model(meta.model.as_deref(), meta.dimension),
                    requested: describe_model(Some(&model_name), wanted_dimension),
                }
                .into());
            }
            meta
        }
        None => store.create_index(&NewIndex {
            name: req.name.clone(),
            root: req.root.clone(),
            provider: provider.to_string(),
            model: embeds.then(|| model_name.clone()),
            dimension: None,
            context_tokens: limits.and_then(|l| l.context_tokens).map(|t| u32::try_from(t).unwrap_or(u32::MAX)),
        })?,
    };
    // The embedding input limit follows the model's context as recorded in the index, so a run
    // with the embedder down (or --no-embed) records files exactly like the others. What the
    // server reports now is recorded first: files recorded for another context are cut again
    // below (into the same chunks: the chunk budget is the setting alone).
    let live_context = limits.and_then(|l| l.context_tokens).map(|t| u32::try_from(t).unwrap_or(u32::MAX));
    let mut meta = meta;
    if let Some(tokens) = live_context
        && meta.context_tokens != Some(tokens)
    {
        writer.set_context(tokens)?;
        meta.context_tokens = Some(tokens);
    }
    let run_id = writer.start_run(kind)?;
    // HEAD is read once: it names the snapshot and is the commit the run records, however it
    // moves while the run reads files.
    let head = discover::git::head(&req.root).unwrap_or_default();
    let snapshot = writer.begin_snapshot(&snapshot::spec_for(&req.root, &head, req.snapshot.as_deref()))?;

    let model = ModelUse { embedder, limits, name: &model_name };
    // A run that builds the index from nothing has nothing to compare paths with.
    let scope = match kind {
        RunKind::Full => &Scope::FullWalk,
        RunKind::Incremental | RunKind::Live => &req.scope,
    };
    let result = index_files(writer, req, &model, &meta, (kind, scope), started).map(|summary| Summary {
        git_commit: head.commit,
        git_branch: head.branch,
        ..summary
    });
    let result = result.and_then(|mut summary| {
        summary.snapshot = Some(snapshot);
        // A watcher's batch leaves the snapshots to the full runs.
        if kind != RunKind::Live && summary.status == RunStatus::Completed {
            summary.collected = snapshot::prune(writer, &req.root, settings.indexing.keep_snapshots)?;
        }
        Ok(summary)
    });
    let (status, summary) = match result {
        Ok(summary) => (summary.status, summary),
        // An error creates nothing: the index this run created goes with it.
        Err(e) if created => {
            let _ = writer.drop_index();
            return Err(e);
        }
        Err(e) => {
            let summary = RunSummary { error: Some(e.to_string()), ..RunSummary::default() };
            let _ = writer.finish_run(&RunEnd {
                run_id,
                status: RunStatus::Failed,
                summary: &summary,
                git_commit: None,
                git_branch: None,
            });
            return Err(e);
        }
    };
    writer.finish_run(&RunEnd {
        run_id,
        status,
        summary: &summary.run,
        git_commit: summary.git_commit.as_deref(),
        git_branch: summary.git_branch.as_deref(),
    })?;
    progress.set_phase(Phase::Finished);
    Ok(summary)
}

/// The settings of a run on index `name`, with the embedder chosen by the rule of
/// `embedding.provider: auto` (`embed::choose`): a configured embedder, else the one the index
/// was built with, else the default for a new index. `fresh` rebuilds, so the index's record
/// does not count.
pub fn embedding_settings(
    store: &dyn Store,
    name: &str,
    settings: &Settings,
    fresh: Fresh,
) -> Result<Settings, StoreError> {
    let existing = match fresh {
        Fresh::Rebuild => None,
        Fresh::Keep => store.get_index(name)?,
    };
    let recorded =
        existing.as_ref().map(|m| crate::embed::choose::Recorded { provider: &m.provider, model: m.model.as_deref() });
    let mut chosen = settings.clone();
    chosen.embedding = crate::embed::choose::for_run(&settings.embedding, recorded);
    Ok(chosen)
}

/// Whether a run rebuilds its index from nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// Keep what is indexed (an incremental run, or a first one).
    Keep,
    /// Delete the index first (`--fresh`).
    Rebuild,
}

fn describe_model(model: Option<&str>, dimension: Option<u32>) -> String {
    match (model, dimension) {
        (Some(m), Some(d)) => format!("{m} (dimension {d})"),
        (Some(m), None) => m.to_string(),
        (None, _) => "no embedding model".to_string(),
    }
}

/// The body of a run, once the index exists and is locked.
/// The embedder of a run (none when it is down or off), what it reported, and the model's
/// name as the index records it.
struct ModelUse<'a> {
    embedder: Option<&'a dyn Embedder>,
    limits: Option<crate::embed::ModelLimits>,
    name: &'a str,
}

fn index_files(
    writer: &dyn IndexWriter,
    req: &IndexRequest<'_>,
    model: &ModelUse<'_>,
    meta: &crate::store::IndexMeta,
    (kind, scope): (RunKind, &Scope),
    started: Instant,
) -> Result<Summary, IndexError> {
    let settings = req.settings;
    let (embedder, limits) = (model.embedder, model.limits);
    let progress = &req.progress;
    progress.set_phase(Phase::Discovering);
    let (discovery, covered) = discover_scope(req, scope)?;
    Progress::add(&progress.discovered, discovery.files.len() as u64);
    let files_on_disk =
        discover::ProjectFiles::new(&req.root).map_err(|_| DiscoverError::NotFound(req.root.clone()))?;

    let states = writer.reader().file_states(None)?;
    let in_scope = |path: &str| covered.as_ref().is_none_or(|scope| scope.covers(path));
    let mut files = FileCounts { discovered: discovery.files.len() as u64, ..FileCounts::default() };
    let base_context = req.shared.as_ref().and_then(|base| base.context_tokens);
    let chunking = Chunking::new(settings, meta.context_tokens.or(base_context));
    let split = leave_to_base(req, discovery.files, &chunking, &files_on_disk, &in_scope)?;
    files.shared = split.from_base.len() as u64;
    let present: HashSet<&str> = split.own.iter().map(|c| c.relative.as_str()).collect();
    let removed: Vec<String> =
        states.keys().filter(|p| in_scope(p) && !present.contains(p.as_str())).cloned().collect();
    // Imports resolve against every file the index will hold (what the run found, the files
    // left to a shared base, and outside its scope what the index holds), so they are resolved
    // as each file is parsed, in the transaction that writes it.
    let listed = present
        .iter()
        .copied()
        .chain(split.from_base.iter().map(String::as_str))
        .chain(states.keys().map(String::as_str).filter(|p| !in_scope(p)));
    let resolver = link::resolver(listed, &files_on_disk);
    let (work, skipped_unchanged) = changed_files(split.own, &states, &chunking, &mut files);
    // What other snapshots stored of the paths to read: a file switched back to is taken as
    // stored instead of parsed and embedded again.
    let work_paths: Vec<String> = work.iter().map(|w| w.candidate.relative.clone()).collect();
    let stored =
        if work_paths.is_empty() { HashMap::new() } else { writer.reader().stored_versions(Some(&work_paths))? };
    files.removed += writer.remove_files(&removed)?;
    Progress::add(&progress.to_index, work.len() as u64);

    let embedding = embedder.map(|e| vectors::EmbedPlan {
        embedder: e,
        known_dimension: meta.dimension.map(|d| d as usize).or(limits.and_then(|l| l.dimension)),
        index_has_model: meta.dimension.is_some(),
        max_input_bytes: chunking.max_input,
        batch_size: settings.embedding.batch_size,
        concurrency: settings.embedding.concurrency,
    });
    progress.set_phase(Phase::Indexing);
    let outcome = pipeline::process(&pipeline::Context {
        writer,
        files: &files_on_disk,
        model: model.name,
        max_file_size: settings.indexing.max_file_size,
        chunking: &chunking,
        progress,
        cancel: &req.cancel,
        work,
        resolver: &resolver,
        stored: &stored,
    })?;
    // A run that stopped between its writes and linking (the run before this one, which
    // `start_run` just recorded) left imports resolved against an older file list.
    let unlinked = writer.reader().runs(2)?.get(1).is_some_and(|r| r.status != RunStatus::Completed);
    let wrote = outcome.added + outcome.modified + outcome.rechunked + outcome.skipped.len() as u64;
    if wrote > 0 || files.removed > 0 || unlinked {
        link::relink(writer, &resolver)?;
    }
    files.added += outcome.added;
    files.modified += outcome.modified;
    files.rechunked += outcome.rechunked;
    files.unchanged += outcome.unchanged;
    files.reused += outcome.reused;
    files.removed += outcome.removed;
    warn_if_most_removed(&files, progress);
    let mut skipped = discovery.skipped;
    for reason in &outcome.skipped {
        skipped.add(*reason);
    }
    for reason in skipped_unchanged {
        skipped.add(reason);
    }

    let embeddings = finish_embeddings(writer, req, model, meta, embedding.as_ref(), &outcome, files.removed)?;

    let elapsed = started.elapsed();
    Ok(Summary {
        index: req.name.clone(),
        root: req.root.clone(),
        kind,
        status: if req.cancel.load(Ordering::Relaxed) { RunStatus::Interrupted } else { RunStatus::Completed },
        run: RunSummary {
            files,
            skipped,
            chunks: ChunkCounts { written: outcome.chunks, by_status: outcome.by_status },
            embeddings,
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            chunks_per_second: outcome.chunks as f64 / elapsed.as_secs_f64().max(1e-9),
            warnings: progress.warnings(),
            error: None,
        },
        git_commit: None,
        git_branch: None,
        snapshot: None,
        collected: Collected::default(),
    })
}

/// Warns when a run removed most of an index: an ignore file of `*`, or a moved checkout,
/// empties an index silently otherwise, and the next search finds nothing.
fn warn_if_most_removed(files: &FileCounts, progress: &Progress) {
    let before = files.unchanged + files.modified + files.rechunked + files.removed;
    if files.removed >= MOST_REMOVED_AT_LEAST && files.removed * 2 > before {
        progress.warn(format!(
            "this run removed {} of the index's {before} files: if that was not meant, check .gitignore, .cocosearchignore and indexing.excludePatterns (the skipped counts say what the walk left out)",
            files.removed
        ));
    }
}

/// The fewest removed files that [`warn_if_most_removed`] speaks of: a small project may
/// well lose most of its few files.
const MOST_REMOVED_AT_LEAST: u64 = 10;

/// After the files are written: vectors that earlier runs left pending filled in (unless the
/// run was stopped or the embedder went down), the store optimised when anything changed, and
/// a warning that says truly why chunks still wait for vectors.
fn finish_embeddings(
    writer: &dyn IndexWriter,
    req: &IndexRequest<'_>,
    model: &ModelUse<'_>,
    meta: &crate::store::IndexMeta,
    embedding: Option<&vectors::EmbedPlan<'_>>,
    outcome: &pipeline::Outcome,
    removed: u64,
) -> Result<EmbeddingCounts, IndexError> {
    let progress = &req.progress;
    let cancelled = req.cancel.load(Ordering::Relaxed);
    let mut embeddings = EmbeddingCounts {
        model: model.embedder.map(|_| model.name.to_string()).or(meta.model.clone()),
        dimension: meta.dimension,
        computed: 0,
        requests: 0,
        elapsed_ms: 0,
        pending: 0,
    };
    let mut embedder_down = false;
    if let (Some(plan), false, VectorPhase::InRun) = (embedding, cancelled, req.vectors) {
        progress.set_phase(Phase::Embedding);
        let filled = vectors::fill_pending(writer, model.name, plan, progress, &req.cancel)?;
        embeddings.computed += filled.embedded;
        embeddings.requests += filled.requests;
        embeddings.elapsed_ms += filled.elapsed.as_millis() as u64;
        embeddings.dimension = embeddings.dimension.or(filled.dimension.map(|d| d as u32));
        embedder_down = filled.embedder_down;
    }
    embeddings.pending = writer.reader().count_pending()?;
    // Ctrl-C may have come during the vector phase.
    let cancelled = req.cancel.load(Ordering::Relaxed);
    if outcome.chunks > 0 || embeddings.computed > 0 || removed > 0 {
        progress.set_phase(Phase::Optimizing);
        writer.optimize()?;
    }
    // An embedder found down before the run started was warned about then, with the same
    // fix: one warning, as the README promises, and the summary counts the chunks waiting.
    let warned_at_start = req.embedder.is_some() && model.embedder.is_none();
    let deferred = req.vectors == VectorPhase::Deferred && model.embedder.is_some();
    if embeddings.pending > 0 && req.settings.embedding.provider.as_str() != "none" && !warned_at_start && !deferred {
        // Say why they wait, truly: an embedder that answered all along must not be reported
        // down because the run was stopped.
        let fix = if req.embedder.is_none() {
            "`cocosearch index` without --no-embed computes them"
        } else if model.embedder.is_none() || embedder_down {
            "run `cocosearch index` again with the embedder up to fill them in"
        } else if cancelled {
            "the run was stopped before computing them; the next `cocosearch index` does"
        } else {
            "the next `cocosearch index` computes them"
        };
        progress
            .warn(format!("{} chunks are awaiting embeddings — keyword search covers them; {fix}", embeddings.pending));
    }
    Ok(embeddings)
}

/// How the index of `root` walks it, for index runs and for a watcher choosing what to watch
/// ([`DiscoverOptions::for_index`]).
pub fn discover_options(root: &std::path::Path, settings: &Settings) -> DiscoverOptions {
    DiscoverOptions::for_index(root, &settings.indexing)
}

/// The files of the run's scope as the walk classifies them, and the scope (`None`: the whole
/// project).
fn discover_scope(
    req: &IndexRequest<'_>,
    scope: &Scope,
) -> Result<(discover::Discovery, Option<discover::PathScope>), DiscoverError> {
    let options = discover_options(&req.root, req.settings);
    match scope {
        Scope::FullWalk => Ok((discover::discover(&options)?, None)),
        Scope::Paths(paths) => {
            let found = discover::discover_paths(&options, paths)?;
            Ok((found.discovery, Some(found.scope)))
        }
    }
}

/// The candidates that need work (new, changed, or cut with other parameters), and the skip
/// reasons of unchanged unindexable files; unchanged files are counted in `files`.
/// The run's candidates, less those equal to the shared base's copy when there is one (the
/// ledger of what was found equal saved for the next run and for searches).
fn leave_to_base(
    req: &IndexRequest<'_>,
    candidates: Vec<discover::Candidate>,
    chunking: &Chunking,
    files: &discover::ProjectFiles,
    in_scope: &dyn Fn(&str) -> bool,
) -> Result<shared::Split, IndexError> {
    let Some(base) = &req.shared else { return Ok(shared::Split { own: candidates, from_base: Vec::new() }) };
    let base_files = base.store.reader(&base.index)?.file_states(None)?;
    let mut ledger = crate::store::overlay::Ledger::load(&base.ledger);
    let max_size = req.settings.indexing.max_file_size;
    let split = shared::split(&base_files, candidates, &chunking.key, files, max_size, &mut ledger, in_scope);
    ledger.save(&base.ledger)?;
    Ok(split)
}

fn changed_files(
    candidates: Vec<discover::Candidate>,
    states: &std::collections::HashMap<String, crate::store::FileState>,
    chunking: &Chunking,
    files: &mut FileCounts,
) -> (Vec<pipeline::Work>, Vec<discover::SkipReason>) {
    let mut work = Vec::new();
    let mut skipped_unchanged = Vec::new();
    for candidate in candidates {
        match states.get(&candidate.relative) {
            Some(s) if s.size == candidate.size && s.mtime_ns == candidate.mtime_ns => match &s.skip_reason {
                // Still the same unindexable file: counted, not read again.
                Some(reason) => skipped_unchanged.push(*reason),
                None if s.chunking.as_deref() == Some(chunking.key.as_str()) => files.unchanged += 1,
                // Cut with other parameters: read and chunked again.
                None => work.push(pipeline::Work { candidate, previous: Some(s.clone()) }),
            },
            previous => work.push(pipeline::Work { candidate, previous: previous.cloned() }),
        }
    }
    (work, skipped_unchanged)
}

/// How files are cut in an index, from the settings and the model's context as recorded in the
/// index — never from whether the embedder answers in this run, so every run cuts a file the
/// same way.
pub(crate) struct Chunking {
    /// The chunker's knobs.
    pub options: ChunkOptions,
    /// The longest text worth embedding, in bytes (`usize::MAX` when the context is unknown).
    pub max_input: usize,
    /// All of the above as one string, recorded with each file; a file recorded with another
    /// key is chunked again.
    pub key: String,
}

impl Chunking {
    fn new(settings: &Settings, context_tokens: Option<u32>) -> Chunking {
        // The budget is the setting alone: chunks, and so keyword scores, are the same with any
        // embedder or none. The model's context only bounds the text that is embedded.
        let max_input = context_tokens
            .map(|t| crate::embed::ModelLimits { dimension: None, context_tokens: Some(t as usize) }.max_input_bytes());
        let budget = settings.indexing.chunk_size;
        let options = ChunkOptions {
            max_chunk_bytes: budget,
            overlap_bytes: settings.indexing.chunk_overlap.min(budget / 2),
            ..ChunkOptions::default()
        };
        let input = max_input.map_or_else(|| "unlimited".to_string(), |b| b.to_string());
        let key = format!(
            "chunker {} graph {} budget {} overlap {} input {input}",
            crate::chunk::CHUNKER_VERSION,
            crate::chunk::GRAPH_VERSION,
            options.max_chunk_bytes,
            options.overlap_bytes
        );
        Chunking { options, max_input: max_input.unwrap_or(usize::MAX), key }
    }
}
