//! Per-index store handles: what one index offers once it is opened.
//!
//! [`Store`](super::Store) keeps the store-wide operations and opens these for one index, once
//! per request or run: [`Store::reader`](super::Store::reader) a reader (search, graph, stats,
//! the states an index run compares against), [`Store::writer`](super::Store::writer) a writer,
//! which *is* the index's exclusive write lock. The index name is validated when a handle is
//! opened and never passed again. Each trait below is implemented directly by each backend's
//! handle type, in the file holding its SQL (`read.rs`, `graph.rs`, `stats.rs`, `write.rs`,
//! `indexes.rs`), so every operation is written once per backend.

use std::collections::{HashMap, HashSet};

use super::snapshots::{KeptFile, SnapshotReader, SnapshotWriter};
use super::{
    DefQuery, FailingFile, FileRecord, FileState, ImportQuery, ImportTarget, IndexCounts, KeywordCandidate,
    KeywordQuery, PendingChunk, RefQuery, RunKind, RunRecord, RunStatus, RunSummary, Scored, SearchFilter, StoreError,
    StoredChunk, StoredDef, StoredImport, StoredRef, TermStats, VectorAccuracy,
};
use crate::chunk::SymbolKind;

/// What search reads of an index: its chunks, by vector, keyword or symbol.
pub trait ChunkReader: Send + Sync {
    /// The `limit` chunks nearest to `query` by cosine similarity (the score), among those
    /// matching `filter`, best first.
    fn vector_search(
        &self,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError>;

    /// The candidates of a keyword query among the chunks matching `filter` (at most
    /// `query.max_candidates`, any order), with the frequency of each query term in them.
    /// Ranking them is the caller's business.
    fn keyword_candidates(
        &self,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError>;

    /// Chunks defining a symbol whose name or qualified name is one of `names`
    /// (lowercase), among those matching `filter`: the shortest chunk first (a definition on
    /// its own before one inside a larger chunk), then by path and position, the order every
    /// store gives.
    fn symbol_search(&self, names: &[String], filter: &SearchFilter, limit: usize) -> Result<Vec<Scored>, StoreError>;

    /// Document frequencies of `terms`, the number of chunks and their total length.
    fn term_stats(&self, terms: &[String]) -> Result<TermStats, StoreError>;

    /// [`Self::term_stats`] over the chunks of the files `paths` only: their share of the
    /// index's statistics. A shared base subtracts the files a local overlay shadows with it,
    /// so that base and overlay rank as one clean index would.
    fn files_term_stats(&self, terms: &[String], paths: &[String]) -> Result<TermStats, StoreError>;

    /// The chunks with these ids (any order; missing ids are skipped).
    fn chunks(&self, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError>;

    /// Every chunk of these files (any order; unknown paths are skipped).
    fn file_chunks(&self, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError>;

    /// The 1-based line spans recorded at indexing time of the symbols named in `wanted`
    /// (file path, lowercase qualified name) whose kind is one of `kinds`, by file. Search
    /// expands hits to their enclosing definition with them instead of parsing files again.
    fn symbol_spans(
        &self,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError>;
}

/// What an index run compares against: the recorded files and what awaits a vector.
pub trait StateReader: Send + Sync {
    /// What is recorded of the indexed files: all of them, or those of `paths`.
    fn file_states(&self, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError>;

    /// The embed hashes that already have a vector in this index.
    fn embedded_hashes(&self) -> Result<HashSet<[u8; 16]>, StoreError>;

    /// Up to `limit` chunks without a vector whose id is above `after_id`, by id.
    fn pending_chunks(&self, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError>;

    /// How many chunks of the index have no vector.
    fn count_pending(&self) -> Result<u64, StoreError>;
}

/// The code graph of an index.
pub trait GraphReader: Send + Sync {
    /// Definitions matching `query`, by path and line.
    fn definitions(&self, query: &DefQuery) -> Result<Vec<StoredDef>, StoreError>;

    /// Every distinct qualified name of the index's definitions (for "did you mean" hints).
    fn definition_names(&self) -> Result<Vec<String>, StoreError>;

    /// References matching `query`, by path and line.
    fn references(&self, query: &RefQuery) -> Result<Vec<StoredRef>, StoreError>;

    /// Imports matching `query`, by path and line.
    fn imports(&self, query: &ImportQuery) -> Result<Vec<StoredImport>, StoreError>;
}

/// Counts of an index and its runs, for `stats`. A stored row this build cannot read (corrupt,
/// or written by a newer cocosearch) is [`StoreError::Unreadable`], never zeros.
pub trait StatsReader: Send + Sync {
    /// Counts of what the index holds.
    fn index_counts(&self) -> Result<IndexCounts, StoreError>;

    /// Files whose chunks did not all parse cleanly, most failing chunks first.
    fn failing_files(&self, limit: usize) -> Result<Vec<FailingFile>, StoreError>;

    /// The most recent runs, newest first.
    fn runs(&self, limit: usize) -> Result<Vec<RunRecord>, StoreError>;
}

/// Everything that can be read of one index. Opening one validates the name; an index that
/// does not exist answers [`StoreError::IndexNotFound`] at its first read.
/// Everything but [`StateReader::stored_versions`] and [`SnapshotReader::snapshots`] reads the
/// snapshot the reader was opened at ([`super::At`]).
pub trait IndexReader: ChunkReader + StateReader + GraphReader + StatsReader + SnapshotReader {}

impl<T: ChunkReader + StateReader + GraphReader + StatsReader + SnapshotReader> IndexReader for T {}

/// Writing files, chunks and vectors of an index.
pub trait FileWriter: Send + Sync {
    /// Writes these files into the current snapshot with all their chunks, imports and
    /// references, atomically: after a crash either the old or the new version of every file is
    /// there, never a mix. The version a file replaces in the current snapshot is deleted
    /// unless another snapshot holds it; a version stored before (the same path and content)
    /// is written again in place, for every snapshot holding it. The
    /// definitions the graph reads are the symbols of the chunks. New chunks get ids never used
    /// before in the index (an id a search holds never names another chunk); a chunk written
    /// without a vector gets the stored vector of any chunk with the same `embed_hash`,
    /// including the old chunks being replaced; a vector of another dimension than the
    /// index's is an error.
    fn replace_files(&self, files: &[FileRecord]) -> Result<(), StoreError>;

    /// Makes the current snapshot hold each file at its stored version (the same path and
    /// content, written by this or another snapshot) with the size and mtime given: a file
    /// whose content did not change, or one whose content was seen before (a branch switched
    /// back to). A version the index does not store is skipped. Returns how many were kept.
    fn touch_files(&self, files: &[KeptFile]) -> Result<u64, StoreError>;

    /// Removes files from the current snapshot, and with their chunks, imports and references
    /// those no other snapshot holds; imports of other files that resolved to a removed file
    /// become [`super::Resolution::Missing`], in the same transaction. Returns how many files
    /// were removed.
    fn remove_files(&self, paths: &[String]) -> Result<u64, StoreError>;

    /// Stores vectors for chunks by id.
    fn set_embeddings(&self, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError>;

    /// Reorganises what search reads after an index run's writes (the embedded store's
    /// inverted lists); may take seconds on a large index, and is never needed for
    /// correctness: searches see every write without it.
    fn optimize(&self) -> Result<(), StoreError>;
}

/// Writing the code graph's resolutions.
pub trait GraphWriter: Send + Sync {
    /// Records new resolutions of stored imports (ids of imports gone meanwhile are skipped).
    fn set_import_targets(&self, targets: &[ImportTarget]) -> Result<(), StoreError>;
}

/// The index's record, its runs, and its deletion.
pub trait RecordWriter: Send + Sync {
    /// Records the embedding model and dimension of an index that had none, and prepares
    /// vector search for that dimension.
    fn set_model(&self, model: &str, dimension: u32) -> Result<(), StoreError>;

    /// Records the model's context length, which fixes the chunk budget of the index.
    fn set_context(&self, context_tokens: u32) -> Result<(), StoreError>;

    /// Records the start of an index run; returns its id. Runs left running by a process
    /// that died are marked interrupted.
    fn start_run(&self, kind: RunKind) -> Result<i64, StoreError>;

    /// Records how a run ended, its summary (versioned, see [`super::RUN_SUMMARY_VERSION`]),
    /// and the git state it indexed (on the index and on its current snapshot).
    fn finish_run(&self, run: &RunEnd<'_>) -> Result<(), StoreError>;

    /// Deletes the index and everything in it; `false` if there was none. Only the holder of
    /// the writer can, so a deletion never pulls the tables out from under a run writing them.
    fn drop_index(&self) -> Result<bool, StoreError>;
}

/// The exclusive write handle of one index: holding it *is* holding the index's write lock
/// (taken by [`Store::writer`](super::Store::writer), which fails at once with
/// [`StoreError::Busy`] if another holds it; released when the writer is dropped or the
/// process dies). Every operation that writes or deletes an index goes through one. The index
/// need not exist yet.
pub trait IndexWriter: FileWriter + GraphWriter + RecordWriter + SnapshotWriter {
    /// The index it writes.
    fn index(&self) -> &str;

    /// Reads of the same index, for the run holding the writer.
    fn reader(&self) -> &dyn IndexReader;
}

/// How an index run ended.
#[derive(Debug, Clone)]
pub struct RunEnd<'a> {
    /// The run id from [`RecordWriter::start_run`].
    pub run_id: i64,
    /// Completed, interrupted or failed.
    pub status: RunStatus,
    /// What the run did.
    pub summary: &'a RunSummary,
    /// The git commit indexed.
    pub git_commit: Option<&'a str>,
    /// The git branch indexed.
    pub git_branch: Option<&'a str>,
}
