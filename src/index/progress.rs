//! Live progress of an index run: lock-free counters that the CLI draws as progress bars and
//! the MCP server reports from `index_status`.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the run is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Connecting and checking.
    Starting,
    /// Walking the tree.
    Discovering,
    /// Parsing, chunking and writing changed files (keyword index and code graph).
    Indexing,
    /// Computing vectors for chunks that were waiting for them.
    Embedding,
    /// Reorganising what search reads (`FileWriter::optimize`).
    Optimizing,
    /// Done (or stopped).
    Finished,
}

impl Phase {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Starting => "starting",
            Phase::Discovering => "discovering",
            Phase::Indexing => "indexing",
            Phase::Embedding => "embedding",
            Phase::Optimizing => "optimizing",
            Phase::Finished => "finished",
        }
    }
}

/// Counters updated by the pipeline; read at any time from any thread.
#[derive(Debug)]
pub struct Progress {
    phase: AtomicU8,
    /// Files found by discovery.
    pub discovered: AtomicU64,
    /// Files that need work (new or changed).
    pub to_index: AtomicU64,
    /// Files parsed and chunked.
    pub parsed: AtomicU64,
    /// Chunks produced.
    pub chunks: AtomicU64,
    /// Chunks waiting for a vector when the vector phase started.
    pub to_embed: AtomicU64,
    /// Vectors computed.
    pub embedded: AtomicU64,
    /// Files written to the store.
    pub written: AtomicU64,
    warnings: Mutex<Vec<String>>,
    /// Said once, as it happens (a long vector phase); drained by whoever draws progress.
    notices: Mutex<Vec<String>>,
    /// Recent (time, vectors done) samples: the rate over a moving window, for the ETA.
    samples: Mutex<VecDeque<(Instant, u64)>>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            phase: AtomicU8::new(Phase::Starting as u8),
            discovered: AtomicU64::new(0),
            to_index: AtomicU64::new(0),
            parsed: AtomicU64::new(0),
            chunks: AtomicU64::new(0),
            to_embed: AtomicU64::new(0),
            embedded: AtomicU64::new(0),
            written: AtomicU64::new(0),
            warnings: Mutex::new(Vec::new()),
            notices: Mutex::new(Vec::new()),
            samples: Mutex::new(VecDeque::new()),
        }
    }
}

impl Progress {
    /// The current phase.
    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Relaxed) {
            0 => Phase::Starting,
            1 => Phase::Discovering,
            2 => Phase::Indexing,
            3 => Phase::Embedding,
            4 => Phase::Optimizing,
            _ => Phase::Finished,
        }
    }

    pub(crate) fn set_phase(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// Reads a counter.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    /// Records a warning for the user (also logged).
    pub(crate) fn warn(&self, message: String) {
        tracing::debug!("{message}");
        lock(&self.warnings).push(message);
    }

    /// The warnings so far.
    pub fn warnings(&self) -> Vec<String> {
        lock(&self.warnings).clone()
    }

    /// Says something to the user now (also logged), once.
    pub(crate) fn notice(&self, message: String) {
        tracing::info!("{message}");
        lock(&self.notices).push(message);
    }

    /// The notices not yet taken.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notices))
    }

    /// The vector phase (or a background filler's backlog) starts with `waiting` chunks to do.
    pub fn start_embedding(&self, waiting: u64) {
        self.to_embed.store(waiting, Ordering::Relaxed);
        self.embedded.store(0, Ordering::Relaxed);
        let mut samples = lock(&self.samples);
        samples.clear();
        samples.push_back((Instant::now(), 0));
    }

    /// `n` more vectors are done.
    pub(crate) fn embedded(&self, n: u64) {
        let done = self.embedded.fetch_add(n, Ordering::Relaxed) + n;
        let now = Instant::now();
        let mut samples = lock(&self.samples);
        samples.push_back((now, done));
        // Keep the window, and at least one sample before it to measure from.
        while samples.len() > 2 && samples.get(1).is_some_and(|(t, _)| now.duration_since(*t) > RATE_WINDOW) {
            samples.pop_front();
        }
    }

    /// Vectors per second over the last [`RATE_WINDOW`]; `None` before there is a measure.
    pub fn rate(&self) -> Option<f64> {
        let samples = lock(&self.samples);
        let (first, last) = (samples.front()?, samples.back()?);
        let span = last.0.duration_since(first.0).as_secs_f64();
        (last.1 > first.1 && span > 0.0).then(|| (last.1 - first.1) as f64 / span)
    }

    /// The time the vector phase still needs at the recent rate. Stable by construction: the
    /// total is fixed when the phase starts, and the rate is a moving window, not the last
    /// batch.
    pub fn eta(&self) -> Option<Duration> {
        let left = Progress::get(&self.to_embed).saturating_sub(Progress::get(&self.embedded));
        self.rate().map(|rate| Duration::from_secs_f64(left as f64 / rate))
    }
}

/// The span the vector rate is measured over.
const RATE_WINDOW: Duration = Duration::from_secs(30);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `95s` → "about 2 min"-style wording: seconds under a minute, minutes under two hours.
pub fn human_duration(d: Duration) -> String {
    let secs = d.as_secs();
    match secs {
        0..=59 => format!("{secs} s"),
        60..=7199 => format!("{} min", secs.div_ceil(60)),
        _ => format!("{:.1} h", secs as f64 / 3600.0),
    }
}
