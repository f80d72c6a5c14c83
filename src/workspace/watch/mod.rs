//! The live index: a watcher that keeps one project's index fresh as files change, shared by
//! `cocosearch watch`, `cocosearch mcp` and `cocosearch dashboard`.
//!
//! Two threads per watched index. The **updater** waits for a batch of file events
//! ([`events`]), then runs the same index run as `cocosearch index`, scoped to the paths the
//! batch names ([`crate::index::Scope::Paths`]: changed, added, removed and renamed paths, each
//! file written in one transaction as always) and without vectors, so a saved file is
//! searchable by keyword within the debounce time plus a few milliseconds. When events may
//! have been lost (queue overflow, a platform limit on watches, the machine slept) it compares
//! the whole tree instead, and says so in the log; with no file events at all it does that
//! periodically. A checkout that switches the snapshot (HEAD names another branch or commit
//! than the last run began with) compares the whole tree too, with the snapshot switched to. The **filler** computes the vectors of waiting chunks in the background at
//! the lowest priority, one page at a time, holding the index's write lock only to store them
//! ([`crate::index::fill_vectors`]); search never waits for it.
//!
//! Architecture invariant: one writer per index. The updater and the filler take the index's
//! write lock for each step and wait for it when another writer (a `cocosearch index`, an MCP
//! job) holds it, so nothing is written twice; and one watcher per index, across processes
//! ([`crate::index::lease`]): a second one defers to the first.
//! Architecture invariant: the watcher reads only what the index walk reads (the same
//! discovery rules and confinement), because every change goes through an index run.

mod events;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::index::lease::{self, Claim, Watcher};
use events::{Batch, Events, GitActivity, WatchCoverage};

use crate::config::Settings;
use crate::discover;
use crate::discover::git::{self, GitHead};
use crate::embed::Embedder;
use crate::index::{self, IndexError, IndexRequest, Progress, Scope, Summary, VectorPhase, VectorRequest, snapshot};
use crate::store::Store;

/// What to watch.
pub struct WatchTarget {
    /// The index kept fresh.
    pub index: String,
    /// The project root (canonical).
    pub root: PathBuf,
    /// The resolved settings of the project, with the embedder chosen for the index
    /// ([`crate::index::embedding_settings`]).
    pub settings: Settings,
    /// The store.
    pub store: Arc<dyn Store>,
    /// The embedder for the background vectors; `None` keeps the index keyword-only.
    pub embedder: Option<Arc<dyn Embedder>>,
    /// The team's shared index the runs leave unchanged files to, if one is configured.
    pub shared: Option<crate::index::shared::SharedBase>,
    /// Who watches, as other processes see it (`cocosearch watch`, `cocosearch mcp`).
    pub process: String,
}

/// What a watcher tells its presenter, as it happens.
#[derive(Debug)]
pub enum Update {
    /// Watching started: the first run compared the whole tree with the index.
    Started {
        /// That run.
        summary: Box<Summary>,
        /// Directories watched (0 when scanning periodically).
        directories: usize,
        /// How changes are found.
        mode: Mode,
    },
    /// A batch of changes was indexed.
    Indexed {
        /// The run.
        summary: Box<Summary>,
        /// Paths the events named.
        paths: usize,
        /// From the first event to the index run's end.
        latency: Duration,
        /// Whether a checkout switched the snapshot: the run then compared every file with the
        /// snapshot switched to ([`Summary::snapshot`]), not only the paths.
        switched: bool,
    },
    /// The whole tree is compared again, and why.
    Rescan(&'static str),
    /// Waiting for another writer of the index.
    Waiting,
    /// Vectors were computed in the background; `remaining` still wait.
    Vectors {
        /// Computed in this step.
        embedded: u64,
        /// Still waiting.
        remaining: u64,
    },
    /// A step failed; the watcher goes on (the next change tries again).
    Failed(String),
}

/// How a watcher finds changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// File events from the operating system.
    Events,
    /// File events, but not every directory could be watched: a periodic scan covers the rest.
    EventsAndScans,
    /// No file events: the whole tree is compared periodically.
    Scans,
}

impl Mode {
    /// Words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Mode::Events => "file events",
            Mode::EventsAndScans => "file events, and a scan every 30 s for directories that could not be watched",
            Mode::Scans => "a scan every 30 s (no file events on this system)",
        }
    }
}

/// How often the whole tree is compared when events cannot cover it.
const SCAN_EVERY: Duration = Duration::from_secs(30);
/// How long the updater waits for an event before checking whether to stop.
const IDLE: Duration = Duration::from_millis(500);
/// How long the filler rests after the embedder failed before trying again.
const EMBEDDER_RETRY: Duration = Duration::from_secs(30);

/// Why a watcher did not start.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// Another process watches the index.
    #[error("index {index} is already watched by {} — it keeps the index fresh; stop it first to watch from here", describe(.holder))]
    AlreadyWatched {
        /// The index.
        index: String,
        /// Who watches it.
        holder: Option<Watcher>,
    },
    /// The lease file could not be written.
    #[error("cannot record the watcher of index {index}: {source}")]
    Lease {
        /// The index.
        index: String,
        /// Why.
        source: std::io::Error,
    },
    /// The first run failed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

fn describe(holder: &Option<Watcher>) -> String {
    match holder {
        Some(w) => format!("{} (pid {}, since {})", w.process, w.pid, w.since),
        None => "another process".to_string(),
    }
}

/// A running watcher; dropping it stops it: the updater finishes its current batch (the drop
/// waits for it), the filler stops after the embedder's current answer (the drop does not wait
/// for it: a slow or stuck embedder must not hold up a deletion or an exit, and it stores
/// nothing once stopped).
pub struct Watching {
    stop: Arc<AtomicBool>,
    updater: Option<JoinHandle<()>>,
    filler: Option<JoinHandle<()>>,
}

impl Watching {
    /// Whether it still follows changes (a stop, or its index deleted, ends it).
    pub fn is_running(&self) -> bool {
        self.updater.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(updater) = self.updater.take() {
            let _ = updater.join();
        }
        drop(self.filler.take());
    }
}

/// The reporter a presenter passes: called on the watcher's threads.
pub type Report = Arc<dyn Fn(Update) + Send + Sync>;

/// Starts watching: claims the index's lease, runs a first comparison of the whole tree with
/// the index (creating it if needed), and then follows changes on background threads.
/// Blocks for that first run; returns once the watcher is following events.
pub fn start(target: WatchTarget, report: Report) -> Result<Watching, WatchError> {
    let mut lease = match lease::claim(&target.store.location(), &target.index, &target.process) {
        Ok(Claim::Taken(lease)) => lease,
        Ok(Claim::HeldBy(holder)) => return Err(WatchError::AlreadyWatched { index: target.index.clone(), holder }),
        Err(source) => return Err(WatchError::Lease { index: target.index.clone(), source }),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let target = Arc::new(target);
    // Watch before the first run, so that nothing changed during it is missed.
    let options = index::discover_options(&target.root, &target.settings);
    let directories = discover::directories(&options).unwrap_or_default();
    let (events, mode) = match Events::start(&target.root, &directories) {
        Ok((events, WatchCoverage::Complete)) => (Some(events), Mode::Events),
        Ok((events, WatchCoverage::Partial)) => (Some(events), Mode::EventsAndScans),
        Err(e) => {
            tracing::warn!(error = %e, "no file events; the watcher scans the project every {} s", SCAN_EVERY.as_secs());
            (None, Mode::Scans)
        }
    };
    let summary = run(&target, Scope::FullWalk, &stop, &report)?;
    let head = head_of(&summary);
    // From now on the index follows the files: freshness need not scan the tree any more.
    if let Err(e) = lease.mark_live() {
        tracing::warn!(error = %e, "cannot record that the watcher follows the files");
    }
    let watched = events.as_ref().map_or(0, Events::watched);
    report(Update::Started { summary: Box::new(summary), directories: watched, mode });

    let (kick, kicked) = channel();
    let _ = kick.send(());
    let updater = Updater { target: Arc::clone(&target), events, mode, stop: Arc::clone(&stop), kick, report, head };
    let filler_report = Arc::clone(&updater.report);
    let updater = std::thread::Builder::new()
        .name("cocosearch-watch".into())
        .spawn(move || {
            let _lease = lease;
            updater.follow();
        })
        .map_err(|source| WatchError::Lease { index: target.index.clone(), source })?;
    let (filler_target, filler_stop) = (Arc::clone(&target), Arc::clone(&stop));
    let filler = std::thread::Builder::new()
        .name("cocosearch-vectors".into())
        .spawn(move || fill(&filler_target, &filler_stop, &kicked, &filler_report))
        .ok();
    Ok(Watching { stop, updater: Some(updater), filler })
}

/// One index run over `scope`, vectors left to the filler, waiting for another writer.
fn run(target: &WatchTarget, scope: Scope, stop: &Arc<AtomicBool>, report: &Report) -> Result<Summary, IndexError> {
    let progress = Arc::new(Progress::default());
    let result = index::run(
        target.store.as_ref(),
        &IndexRequest {
            name: target.index.clone(),
            root: target.root.clone(),
            settings: &target.settings,
            fresh: false,
            embedder: target.embedder.as_deref(),
            progress: Arc::clone(&progress),
            cancel: Arc::clone(stop),
            scope,
            vectors: VectorPhase::Deferred,
            snapshot: None,
            shared: target.shared.clone(),
        },
    );
    if !progress.take_notices().is_empty() {
        report(Update::Waiting);
    }
    result
}

/// The HEAD a run began with, which named its snapshot.
fn head_of(summary: &Summary) -> GitHead {
    GitHead { commit: summary.git_commit.clone(), branch: summary.git_branch.clone() }
}

/// The updater's state.
struct Updater {
    target: Arc<WatchTarget>,
    events: Option<Events>,
    mode: Mode,
    stop: Arc<AtomicBool>,
    kick: Sender<()>,
    report: Report,
    /// The HEAD the last run began with: a checkout is a HEAD other than this one, also when
    /// it happened while that run was reading files.
    head: GitHead,
}

impl Updater {
    /// Follows changes until stopped.
    fn follow(mut self) {
        let debounce = Duration::from_millis(self.target.settings.indexing.watch_debounce_ms);
        let mut last_scan = Instant::now();
        while !self.stop.load(Ordering::Relaxed) {
            let batch = match self.events.as_mut() {
                Some(events) => events.next(debounce, IDLE),
                None => {
                    std::thread::sleep(IDLE);
                    Batch::Idle
                }
            };
            let started = Instant::now();
            let scan_due = self.mode != Mode::Events && last_scan.elapsed() >= SCAN_EVERY;
            let (scope, paths, switched) = match batch {
                Batch::Idle if scan_due => (Scope::FullWalk, 0, false),
                Batch::Idle => continue,
                Batch::Rescan(reason) => {
                    tracing::info!(index = %self.target.index, "{}: comparing the whole project with the index", reason.describe());
                    (self.report)(Update::Rescan(reason.describe()));
                    (Scope::FullWalk, 0, false)
                }
                Batch::Paths { paths, git } => {
                    let now = match git {
                        GitActivity::Touched => git::head(&self.target.root).unwrap_or_default(),
                        GitActivity::None => self.head.clone(),
                    };
                    let switched = snapshot::name_of(&now) != snapshot::name_of(&self.head);
                    if paths.is_empty() && now == self.head {
                        continue;
                    }
                    self.watch_new_directories(&paths);
                    let count = paths.len();
                    // Another snapshot recorded its files with the times they had when it was
                    // last current; a file this checkout did not write may have been written by
                    // checkouts since (the same content, a later time). Every file is compared
                    // with the snapshot switched to, or it looks modified to freshness and grep.
                    let scope = if switched { Scope::FullWalk } else { Scope::Paths(paths.into_iter().collect()) };
                    (scope, count, switched)
                }
            };
            // A deleted index is not built again behind its owner's back.
            if !matches!(self.target.store.get_index(&self.target.index), Ok(Some(_))) {
                tracing::info!(index = %self.target.index, "the index was deleted: the watcher stops");
                (self.report)(Update::Failed(format!("index {} was deleted; the watcher stops", self.target.index)));
                return;
            }
            if scope == Scope::FullWalk {
                last_scan = Instant::now();
                self.watch_all_directories();
            }
            match run(&self.target, scope, &self.stop, &self.report) {
                Ok(summary) => {
                    self.head = head_of(&summary);
                    let latency = started.elapsed();
                    (self.report)(Update::Indexed { summary: Box::new(summary), paths, latency, switched });
                    let _ = self.kick.send(());
                }
                Err(e) => {
                    tracing::warn!(index = %self.target.index, error = %e, "indexing a batch of changes failed");
                    (self.report)(Update::Failed(e.to_string()));
                }
            }
        }
    }

    /// Watches the directories among `paths` that are new, and those beneath them.
    fn watch_new_directories(&mut self, paths: &std::collections::BTreeSet<PathBuf>) {
        let Some(events) = self.events.as_mut() else { return };
        let new: Vec<PathBuf> = paths.iter().filter(|p| p.is_dir()).cloned().collect();
        if new.is_empty() {
            return;
        }
        let options = index::discover_options(&self.target.root, &self.target.settings);
        if let Ok(found) = discover::discover_paths(&options, &new)
            && events.add(&found.discovery.directories) == WatchCoverage::Partial
        {
            self.mode = Mode::EventsAndScans;
        }
    }

    /// After a rescan: watches every directory the walk enters now.
    fn watch_all_directories(&mut self) {
        let Some(events) = self.events.as_mut() else { return };
        let options = index::discover_options(&self.target.root, &self.target.settings);
        if let Ok(found) = discover::directories(&options)
            && events.add(&found) == WatchCoverage::Partial
        {
            self.mode = Mode::EventsAndScans;
        }
    }
}

/// The filler: computes waiting vectors, one page at a time, at the lowest priority, whenever
/// the updater wrote something (or every few seconds), until none wait.
fn fill(target: &WatchTarget, stop: &AtomicBool, kicked: &Receiver<()>, report: &Report) {
    // The background vectors' counters (their rate), for this filler only.
    let vectors = Progress::default();
    index::background_priority();
    let Some(embedder) = target.embedder.as_deref() else { return };
    let mut backlog = false;
    while !stop.load(Ordering::Relaxed) {
        match kicked.recv_timeout(IDLE) {
            // One pass covers every kick so far; a kick during the pass starts another.
            Ok(()) => while kicked.try_recv().is_ok() {},
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        }
        while !stop.load(Ordering::Relaxed) {
            let request = VectorRequest {
                name: &target.index,
                settings: &target.settings,
                embedder,
                progress: &vectors,
                cancel: stop,
            };
            if !backlog {
                let waiting = target.store.reader(&target.index).and_then(|r| r.count_pending()).unwrap_or(0);
                vectors.start_embedding(waiting);
                backlog = true;
            }
            match index::fill_vectors(target.store.as_ref(), &request) {
                Ok(filled) => {
                    if filled.embedded > 0 {
                        report(Update::Vectors { embedded: filled.embedded, remaining: filled.remaining });
                    }
                    if filled.remaining == 0 {
                        backlog = false;
                        break;
                    }
                    if filled.embedder_down {
                        rest(stop, EMBEDDER_RETRY);
                    }
                }
                Err(e) => {
                    tracing::warn!(index = %target.index, error = %e, "computing vectors in the background failed");
                    report(Update::Failed(e.to_string()));
                    rest(stop, EMBEDDER_RETRY);
                    break;
                }
            }
        }
    }
}

/// Sleeps up to `how_long`, waking early when stopped.
fn rest(stop: &AtomicBool, how_long: Duration) {
    let until = Instant::now() + how_long;
    while !stop.load(Ordering::Relaxed) && Instant::now() < until {
        std::thread::sleep(IDLE.min(until.saturating_duration_since(Instant::now())));
    }
}
