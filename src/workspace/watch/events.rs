//! File events, coalesced into batches.
//!
//! One `notify` watcher (inotify, FSEvents or ReadDirectoryChangesW) watches each directory
//! the index walk enters, non-recursively: ignored and excluded trees (`target/`,
//! `node_modules/`) cost no watch and send no event, and a new directory is watched once a
//! batch names it. The project's `.git` directory is watched too, for a new HEAD (a commit, a
//! checkout), without its subdirectories.
//!
//! Events are coalesced per burst, not per path (why not `notify-debouncer-*`: they debounce
//! each path on its own, so a checkout of thousands of files came out in pieces as each
//! file went quiet): a batch closes once no event arrived for the debounce time, so a save
//! is one batch and a branch switch is one batch however many files it writes.
//!
//! Architecture invariant: a path outside the canonical root never leaves this module.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant, SystemTime};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// What happened since the last batch.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Batch {
    /// These paths (files or directories, absolute, under the root) changed, appeared or
    /// went away; `git` when the repository's HEAD may have moved.
    Paths { paths: BTreeSet<PathBuf>, git: GitActivity },
    /// Events may have been lost: compare the whole tree with the index.
    Rescan(RescanReason),
    /// Nothing happened for the idle time.
    Idle,
}

/// Whether a batch touched the repository's own files (`.git/HEAD`, refs, the index file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GitActivity {
    None,
    Touched,
}

/// Why the whole tree is compared again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RescanReason {
    /// The kernel's event queue overflowed.
    Overflow,
    /// The watcher reported an error.
    WatchError,
    /// More paths changed at once than a scoped run handles well.
    ManyPaths,
    /// The machine slept (the wall clock jumped ahead of the monotonic clock).
    Slept,
}

impl RescanReason {
    /// Words for the log.
    pub(super) fn describe(self) -> &'static str {
        match self {
            RescanReason::Overflow => "the file-event queue overflowed",
            RescanReason::WatchError => "the file watcher reported an error",
            RescanReason::ManyPaths => "many paths changed at once",
            RescanReason::Slept => "the machine slept",
        }
    }
}

/// A batch naming more paths than this becomes a walk of the whole tree: comparing every
/// file's size and time is then cheaper than a scope of thousands of paths.
const MANY_PATHS: usize = 1500;
/// A burst that goes on longer than this is cut, so that a never-quiet tree (a build writing
/// into a watched directory) still gets indexed.
const LONGEST_BURST: Duration = Duration::from_secs(10);
/// A wall-clock jump this much larger than the monotonic time means the machine slept.
const SLEEP_JUMP: Duration = Duration::from_secs(5);

/// The event source of one project.
pub(super) struct Events {
    root: PathBuf,
    git_dir: PathBuf,
    watcher: notify::RecommendedWatcher,
    rx: Receiver<notify::Result<notify::Event>>,
    watched: HashSet<PathBuf>,
    /// (monotonic, wall) at the last check, to notice sleep.
    clock: (Instant, SystemTime),
}

impl Events {
    /// Starts watching `root` (canonical) and `directories` (from a walk of it). Fails when the
    /// platform has no file events at all, or refuses even the root.
    pub(super) fn start(root: &Path, directories: &[PathBuf]) -> notify::Result<(Events, WatchCoverage)> {
        let (tx, rx) = channel();
        let watcher = notify::recommended_watcher(tx)?;
        let mut events = Events {
            root: root.to_path_buf(),
            git_dir: root.join(".git"),
            watcher,
            rx,
            watched: HashSet::new(),
            clock: (Instant::now(), SystemTime::now()),
        };
        events.watch_one(root)?;
        if events.git_dir.is_dir() {
            let git_dir = events.git_dir.clone();
            // Best effort: without it, a commit shows in freshness until the next change.
            let _ = events.watch_one(&git_dir);
        }
        let coverage = events.add(directories);
        Ok((events, coverage))
    }

    /// Watches more directories (new ones a batch named); returns whether all could be.
    pub(super) fn add(&mut self, directories: &[PathBuf]) -> WatchCoverage {
        let mut coverage = WatchCoverage::Complete;
        for dir in directories {
            if !dir.starts_with(&self.root) || self.watched.contains(dir) {
                continue;
            }
            if let Err(e) = self.watch_one(dir) {
                tracing::warn!(dir = %dir.display(), error = %e, "cannot watch a directory");
                coverage = WatchCoverage::Partial;
            }
        }
        coverage
    }

    fn watch_one(&mut self, dir: &Path) -> notify::Result<()> {
        self.watcher.watch(dir, RecursiveMode::NonRecursive)?;
        self.watched.insert(dir.to_path_buf());
        Ok(())
    }

    /// How many directories are watched.
    pub(super) fn watched(&self) -> usize {
        self.watched.len()
    }

    /// The next batch: waits up to `idle` for a first event, then until `debounce` passes
    /// without one.
    pub(super) fn next(&mut self, debounce: Duration, idle: Duration) -> Batch {
        if self.slept() {
            return Batch::Rescan(RescanReason::Slept);
        }
        let first = match self.rx.recv_timeout(idle) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => return Batch::Idle,
            // The watcher is gone: nothing more will come; the caller scans periodically.
            Err(RecvTimeoutError::Disconnected) => return Batch::Rescan(RescanReason::WatchError),
        };
        let started = Instant::now();
        let mut paths = BTreeSet::new();
        let mut git = GitActivity::None;
        let mut rescan = None;
        // Whether an event changes anything: reads (open, close without writing; a search
        // reading the files it shows, the indexer itself) do not, and must not keep a burst
        // open or start one.
        let mut take = |event: notify::Result<notify::Event>| match event {
            Err(e) => {
                tracing::debug!(error = %e, "file watcher error");
                rescan = Some(RescanReason::WatchError);
                true
            }
            Ok(event) if event.need_rescan() => {
                rescan = Some(RescanReason::Overflow);
                true
            }
            Ok(event) if matches!(event.kind, EventKind::Access(_)) => false,
            Ok(event) => {
                for path in event.paths {
                    if path.starts_with(&self.git_dir) {
                        git = GitActivity::Touched;
                    } else if path.starts_with(&self.root) && path != self.root {
                        paths.insert(path);
                    }
                }
                true
            }
        };
        if !take(first) {
            return Batch::Idle;
        }
        // The burst ends once `debounce` passed without a change.
        let mut quiet_from = Instant::now();
        while started.elapsed() <= LONGEST_BURST {
            let left = debounce.saturating_sub(quiet_from.elapsed());
            if left.is_zero() {
                break;
            }
            match self.rx.recv_timeout(left) {
                Ok(event) => {
                    if take(event) {
                        quiet_from = Instant::now();
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        if let Some(reason) = rescan {
            return Batch::Rescan(reason);
        }
        if paths.len() > MANY_PATHS {
            return Batch::Rescan(RescanReason::ManyPaths);
        }
        // A removed directory's watch is gone with it.
        self.watched.retain(|dir| !paths.contains(dir) || dir.is_dir());
        Batch::Paths { paths, git }
    }

    /// Whether the wall clock ran ahead of the monotonic one since the last call (a suspended
    /// machine: the monotonic clock stops, events may have been dropped).
    fn slept(&mut self) -> bool {
        let (then_mono, then_wall) = self.clock;
        let now = (Instant::now(), SystemTime::now());
        self.clock = now;
        let mono = now.0.duration_since(then_mono);
        let wall = now.1.duration_since(then_wall).unwrap_or_default();
        wall > mono + SLEEP_JUMP
    }
}

/// Whether every directory the walk entered is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WatchCoverage {
    Complete,
    /// Some could not be (a platform limit on watches): changes there are found by periodic
    /// scans.
    Partial,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(dir: &Path) -> Events {
        let root = dir.canonicalize().expect("canonical");
        Events::start(&root, std::slice::from_ref(&root)).expect("watch").0
    }

    #[test]
    fn a_save_is_one_batch_even_while_files_are_read_all_the_time() {
        let dir = tempfile::tempdir().expect("tempdir");
        let read_me = dir.path().join("read.py");
        std::fs::write(&read_me, "x = 1\n").expect("write");
        let mut events = start(dir.path());
        // A search showing files reads them again and again: reads are no changes, so they
        // must neither make a batch nor keep one open until the longest burst.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (stop, read_me) = (std::sync::Arc::clone(&stop), read_me.clone());
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::read(&read_me);
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        std::thread::sleep(Duration::from_millis(300));
        let drained = Instant::now() + Duration::from_millis(500);
        while Instant::now() < drained {
            events.next(Duration::from_millis(50), Duration::from_millis(50));
        }
        let saved = dir.path().canonicalize().expect("canonical").join("saved.py");
        std::fs::write(&saved, "def f():\n    pass\n").expect("write");
        let started = Instant::now();
        let batch = loop {
            match events.next(Duration::from_millis(200), Duration::from_secs(5)) {
                Batch::Idle => assert!(started.elapsed() < Duration::from_secs(5), "no batch for the save"),
                batch => break batch,
            }
        };
        let took = started.elapsed();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        reader.join().expect("reader");
        assert_eq!(batch, Batch::Paths { paths: BTreeSet::from([saved]), git: GitActivity::None });
        assert!(took < LONGEST_BURST, "the reads kept the burst open for {took:?}");
    }

    #[test]
    fn many_files_written_at_once_are_one_batch_and_a_rename_names_both_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::write(root.join("old.py"), "a = 1\n").expect("write");
        let mut events = start(dir.path());
        for i in 0..200 {
            std::fs::write(root.join(format!("m{i}.py")), format!("v = {i}\n")).expect("write");
        }
        std::fs::rename(root.join("old.py"), root.join("new.py")).expect("rename");
        let Batch::Paths { paths, .. } = events.next(Duration::from_millis(200), Duration::from_secs(5)) else {
            panic!("expected one batch of paths")
        };
        assert_eq!(paths.len(), 202, "{paths:?}");
        assert!(paths.contains(&root.join("old.py")) && paths.contains(&root.join("new.py")));
    }
}
