//! Live progress of an index run: lock-free counters that the CLI draws as progress bars and
//! the MCP server reports from `index_status`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What the run is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Connecting and checking.
    Starting,
    /// Walking the tree.
    Discovering,
    /// Parsing, embedding and writing changed files.
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
    /// Chunks that need a vector in this run (known once parsed).
    pub to_embed: AtomicU64,
    /// Vectors computed.
    pub embedded: AtomicU64,
    /// Files written to the store.
    pub written: AtomicU64,
    warnings: Mutex<Vec<String>>,
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
        self.warnings.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(message);
    }

    /// The warnings so far.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}
