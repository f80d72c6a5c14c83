//! The records that cross the [`super::Store`] boundary.
//!
//! Plain data, no SQL: both backends accept and return the same shapes, and the names they
//! store (`ok`, `method`, `completed`) come from the enums here, never from free text.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::ImportRecord;
use super::glob::{NameGlob, PathGlob};
use crate::chunk::{CUT_MARK, ParseStatus, Reference, SymbolKind};
use crate::discover::{SkipCounts, SkipReason};

/// One index, as registered.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexMeta {
    /// The index name.
    pub name: String,
    /// The project root it indexes.
    pub root: PathBuf,
    /// `ollama`, `openai` or `none`.
    pub provider: String,
    /// The embedding model, once known.
    pub model: Option<String>,
    /// The vector dimension, once known.
    pub dimension: Option<u32>,
    /// The model's context in tokens, once known; it fixes the chunk budget of the index.
    pub context_tokens: Option<u32>,
    /// When it was created.
    pub created_at: SystemTime,
    /// When it last changed.
    pub updated_at: SystemTime,
    /// The git commit of the last completed run.
    pub git_commit: Option<String>,
    /// The git branch of the last completed run.
    pub git_branch: Option<String>,
}

/// What to register when creating an index.
#[derive(Debug, Clone)]
pub struct NewIndex {
    /// The index name (validated by the store).
    pub name: String,
    /// The project root.
    pub root: PathBuf,
    /// The embedding provider.
    pub provider: String,
    /// The model, if embeddings are on.
    pub model: Option<String>,
    /// The dimension, if already known.
    pub dimension: Option<u32>,
    /// The model's context in tokens, if known.
    pub context_tokens: Option<u32>,
}

/// What the store remembers of an indexed file, to decide whether it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileState {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// blake3 of the content.
    pub hash: [u8; 32],
    /// Why it is recorded without chunks (binary, not UTF-8, ...), if it is.
    pub skip_reason: Option<SkipReason>,
    /// How its chunks were cut (see [`FileRecord::chunking`]); `None` for a file recorded
    /// before this was kept, or without chunks.
    pub chunking: Option<String>,
}

/// A syntax error position, 1-based.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorPosition {
    /// Line.
    pub line: u32,
    /// Column, in characters.
    pub column: u32,
    /// `error` or `missing`.
    pub kind: String,
}

/// A file to (re)write, with all its chunks.
#[derive(Debug, Clone)]
pub struct FileRecord {
    /// Path relative to the root.
    pub path: String,
    /// Language id.
    pub language: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// blake3 of the content.
    pub hash: [u8; 32],
    /// Number of lines.
    pub lines: u32,
    /// The worst parse status of its chunks; `None` for a file recorded without chunks.
    pub parse_status: Option<ParseStatus>,
    /// The first syntax errors.
    pub parse_errors: Vec<ErrorPosition>,
    /// Set when the file cannot be indexed (binary, not UTF-8, ...): it is recorded, without
    /// chunks, so unchanged it is not read again and freshness checks know about it.
    pub skip_reason: Option<SkipReason>,
    /// The parameters its chunks were cut with, as one opaque string (chunk budget, overlap,
    /// embedding input limit, chunker version): when the index's parameters change, files cut
    /// with others are chunked again though their content did not change. `None` for a file
    /// without chunks.
    pub chunking: Option<String>,
    /// Its chunks, in order.
    pub chunks: Vec<ChunkRecord>,
    /// What it imports, each with where it resolves (written with the chunks, in the same
    /// transaction).
    pub imports: Vec<ImportRecord>,
    /// What its definitions use.
    pub refs: Vec<Reference>,
}

/// What a chunk is, written and read alike: its place in the file, its text and the
/// definitions it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkBody {
    /// Byte range start.
    pub byte_start: u32,
    /// Byte range end (exclusive).
    pub byte_end: u32,
    /// First line, 1-based.
    pub line_start: u32,
    /// Last line, inclusive.
    pub line_end: u32,
    /// The text, exactly as in the file.
    pub content: String,
    /// The primary symbol's kind.
    pub symbol_type: Option<SymbolKind>,
    /// The primary symbol's name.
    pub symbol_name: Option<String>,
    /// The primary symbol's qualified name.
    pub qualified_name: Option<String>,
    /// The primary symbol's signature.
    pub signature: Option<String>,
    /// Every definition that starts in the chunk, in source order.
    pub symbols: Vec<SymbolRecord>,
    /// Signatures of enclosing definitions, one per line, outermost first.
    pub context: String,
    /// Qualified name of the innermost enclosing definition not starting in the chunk.
    pub enclosing: Option<String>,
    /// How well the chunk parsed.
    pub parse_status: ParseStatus,
}

/// One chunk to store.
#[derive(Debug, Clone)]
pub struct ChunkRecord {
    /// The chunk itself.
    pub body: ChunkBody,
    /// The primary symbol's parent.
    pub parent: Option<String>,
    /// Hash of the exact text sent to the embedder (with the model), to reuse vectors.
    pub embed_hash: [u8; 16],
    /// The vector, if computed in this run; `None` reuses a stored vector with the same
    /// `embed_hash` or leaves the chunk awaiting embedding.
    pub embedding: Option<Vec<f32>>,
    /// The identifier-aware keyword text: space-separated terms, with repeats.
    pub keywords: String,
}

/// A chunk awaiting its vector.
#[derive(Debug, Clone)]
pub struct PendingChunk {
    /// Chunk id.
    pub id: i64,
    /// File path.
    pub path: String,
    /// Language id.
    pub language: String,
    /// Enclosing signatures.
    pub context: String,
    /// The text.
    pub content: String,
}

/// Restrictions applied inside every retrieval query, before the top-k cut.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchFilter {
    /// Language ids (canonical names); empty means all.
    pub languages: Vec<String>,
    /// A path glob ([`PathGlob`] defines what it matches).
    pub path_glob: Option<PathGlob>,
    /// Symbol kinds: a chunk defining any of them matches; empty means all.
    pub symbol_types: Vec<SymbolKind>,
    /// A case-insensitive glob on the names of the symbols a chunk defines.
    pub symbol_name_glob: Option<NameGlob>,
}

/// One keyword of a keyword query: a term, or several that must appear in sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeywordTerm {
    /// One analysed term.
    Word(String),
    /// Analysed terms that must appear one after the other (a quoted phrase).
    Phrase(Vec<String>),
}

/// A planned keyword query: which chunks are candidates, and which terms the store reports
/// for each of them. The store selects and counts; `search::keywords` ranks.
///
/// Ranking costs per candidate, so the planner keeps the candidate set small: a chunk that
/// merely says `error` is not worth ranking, one that says a rare identifier of the query is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeywordQuery {
    /// Every term whose frequency is reported for each candidate.
    pub terms: Vec<KeywordTerm>,
    /// Candidate groups: a chunk is a candidate when it contains every term of at least one
    /// group. Each group lists indexes into `terms`.
    pub select: Vec<Vec<usize>>,
    /// At most this many candidates are scored. A last resort for queries made only of words
    /// that are everywhere (`src/lib.rs` on Rust crates): past the cap the candidates are an
    /// arbitrary subset, and such queries are answered by vector search anyway.
    pub max_candidates: Option<u64>,
}

/// A retrieved chunk id with its raw score.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Chunk id.
    pub id: i64,
    /// The chunk's file, relative to the index root.
    pub path: String,
    /// Cosine similarity (vector), BM25 (keyword), or 1 (symbol match).
    pub score: f64,
}

/// A keyword candidate as the store found it: what ranking needs, nothing ranked yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordCandidate {
    /// Chunk id.
    pub id: i64,
    /// The chunk's file, relative to the index root.
    pub path: String,
    /// Terms in the chunk's keyword text, with repeats (its BM25 document length).
    pub length: u32,
    /// For each term of the query, in order: how often it occurs in the chunk (a phrase:
    /// 1 when it occurs, else 0). Counts are capped at [`MAX_TERM_FREQUENCY`].
    pub frequencies: Vec<u32>,
}

/// The terms of a keyword text with their counts. The hasher is FxHash: terms are not chosen by
/// an adversary who could exploit it, and std's SipHash was most of the cost of counting.
pub type TermCounts<'a> = HashMap<&'a str, u32, rustc_hash::FxBuildHasher>;

/// How often each term occurs in a chunk's keyword text (space-separated terms, as
/// [`ChunkRecord::keywords`]), each count capped at [`MAX_TERM_FREQUENCY`].
pub fn term_frequencies(keywords: &str) -> TermCounts<'_> {
    let mut counts = TermCounts::default();
    for term in keywords.split_ascii_whitespace() {
        let n = counts.entry(term).or_default();
        *n = (*n + 1).min(MAX_TERM_FREQUENCY);
    }
    counts
}

/// How often each of `words` occurs in `keywords` (space-separated terms), each count capped
/// at [`MAX_TERM_FREQUENCY`]: the counts [`term_frequencies`] gives for these words, without
/// counting every other term (a query has a few words, a chunk hundreds of terms).
pub fn word_frequencies(keywords: &str, words: &[&str]) -> Vec<u32> {
    let mut counts = vec![0u32; words.len()];
    for term in keywords.split_ascii_whitespace() {
        for (word, n) in words.iter().zip(&mut counts) {
            if term == *word {
                *n = (*n + 1).min(MAX_TERM_FREQUENCY);
            }
        }
    }
    counts
}

/// A chunk's BM25 document length: its terms with repeats, each term counted at most
/// [`MAX_TERM_FREQUENCY`] times (as both backends store it).
pub fn keyword_length(keywords: &str) -> u32 {
    term_frequencies(keywords).values().sum()
}

/// The most occurrences of one term a store reports for a chunk. PostgreSQL keeps at most 255
/// positions of a word per document, so every backend caps there and ranks alike; BM25
/// saturates long before.
pub const MAX_TERM_FREQUENCY: u32 = 255;

/// Document frequencies of some terms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TermStats {
    /// Number of chunks in the index.
    pub chunks: u64,
    /// Terms in all chunks together, with repeats (for BM25's average document length).
    pub total_length: u64,
    /// Chunks containing each term (terms absent from the index are absent here).
    pub df: HashMap<String, u64>,
}

/// A stored chunk, as search returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredChunk {
    /// Chunk id.
    pub id: i64,
    /// File path relative to the root.
    pub path: String,
    /// Position of the chunk in its file (0-based); consecutive chunks are separated by
    /// whitespace only.
    pub ordinal: u32,
    /// Language id.
    pub language: String,
    /// The chunk itself.
    pub body: ChunkBody,
}

/// A definition inside a chunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolRecord {
    /// Kind.
    pub kind: SymbolKind,
    /// Name.
    pub name: String,
    /// Name qualified by enclosing definitions (`Class.method`).
    pub qualified_name: String,
    /// The declaration without its body.
    pub signature: String,
    /// Qualified name of the enclosing definition.
    pub parent: Option<String>,
    /// First line of the definition, when known.
    pub start_line: Option<u32>,
    /// Last line of the definition, when known.
    pub end_line: Option<u32>,
    /// A function's parameters as named; empty for other definitions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// What a class-like definition extends or implements, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
}

impl SymbolRecord {
    /// The lowercase names a query can use to name this symbol exactly: the name, the
    /// qualified name, and the qualified name with `::` spelled `.`; a name that is itself a
    /// path (Elixir's `defmodule Ecto.Query`, C++'s `Status::ok` defined out of line) also by
    /// its last segment, as people say `Query`. A qualified name cut to its innermost scopes
    /// (deep nesting) is no name anyone types: only the name is a key, which also keeps a file
    /// of deep nesting from storing each of its names three times.
    pub fn keys(&self) -> Vec<String> {
        let name = self.name.to_lowercase();
        let last = name.rsplit(['.', ':']).next().filter(|last| !last.is_empty() && last.len() < name.len());
        if self.qualified_name.starts_with(CUT_MARK) {
            return std::iter::once(name.clone()).chain(last.map(str::to_string)).collect();
        }
        let mut keys = vec![name.clone(), self.qualified_name.to_lowercase()];
        keys.extend(last.map(str::to_string));
        let dotted = self.qualified_name.to_lowercase().replace("::", ".");
        keys.push(dotted);
        keys.sort_unstable();
        keys.dedup();
        keys
    }
}

/// Per-language counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LanguageCounts {
    /// Language id.
    pub language: String,
    /// Files.
    pub files: u64,
    /// Chunks.
    pub chunks: u64,
    /// Lines.
    pub lines: u64,
    /// Chunks by parse status.
    pub parse_status: BTreeMap<ParseStatus, u64>,
}

/// What an index holds, counted in the store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexCounts {
    /// Files indexed.
    pub files: u64,
    /// Chunks.
    pub chunks: u64,
    /// Distinct chunk texts the index stores, over every snapshot: each once, with its
    /// vector, keyword terms and definitions, however many files and snapshots hold it.
    pub stored_texts: u64,
    /// Chunks without a vector.
    pub pending_embeddings: u64,
    /// Lines of all files.
    pub lines: u64,
    /// Bytes on disk in the database (tables and their indexes).
    pub storage_bytes: u64,
    /// Per language, by chunk count descending.
    pub languages: Vec<LanguageCounts>,
    /// Definitions by kind.
    pub symbols_by_type: BTreeMap<SymbolKind, u64>,
}

/// A file with chunks that did not parse cleanly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailingFile {
    /// Path.
    pub path: String,
    /// Language id.
    pub language: String,
    /// The file's worst status.
    pub status: ParseStatus,
    /// Chunks not `ok` (and not `unsupported`).
    pub failing_chunks: u64,
    /// All its chunks.
    pub chunks: u64,
    /// The first syntax errors.
    pub errors: Vec<ErrorPosition>,
}

/// What kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// The index was new or rebuilt (`--fresh`).
    Full,
    /// Only what changed since the last run.
    Incremental,
    /// Only the paths a file watcher reported changed.
    Live,
}

/// How a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// In progress (or its process died; the next run marks it interrupted).
    Running,
    /// Finished.
    Completed,
    /// Stopped early (Ctrl-C, or its process died); the next run resumes.
    Interrupted,
    /// Ended by an error.
    Failed,
}

macro_rules! named_enum {
    ($ty:ty { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// The lowercase name used in storage and output.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
        }
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s { $($name => Ok(Self::$variant),)+ other => Err(format!("unknown value {other:?}")) }
            }
        }
    };
}

pub(crate) use named_enum;

named_enum!(RunKind { Full => "full", Incremental => "incremental", Live => "live" });

/// Live runs kept per index: a watcher records one per batch of changes, and only the recent
/// ones say anything (the older are deleted when a run starts).
pub const KEPT_LIVE_RUNS: i64 = 100;
named_enum!(RunStatus { Running => "running", Completed => "completed", Interrupted => "interrupted", Failed => "failed" });

/// File counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FileCounts {
    /// Files that can be indexed.
    pub discovered: u64,
    /// New files indexed.
    pub added: u64,
    /// Changed files re-indexed.
    pub modified: u64,
    /// Unchanged files chunked again, because they were cut with other parameters (another
    /// chunk budget or model context, or before the index recorded them).
    pub rechunked: u64,
    /// Files whose size and mtime, or content hash, were unchanged.
    pub unchanged: u64,
    /// Files whose content another snapshot stored at the same path (a branch switched back
    /// to): taken as stored, neither parsed nor embedded again.
    pub reused: u64,
    /// Files removed from the index (vanished, or now skipped).
    pub removed: u64,
    /// Files whose content equals a team's shared index's copy: read from it, not indexed
    /// here.
    pub shared: u64,
}

/// Chunk counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChunkCounts {
    /// Chunks written in this run.
    pub written: u64,
    /// Of those, by parse status.
    pub by_status: BTreeMap<ParseStatus, u64>,
}

/// Embedding counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EmbeddingCounts {
    /// The model.
    pub model: Option<String>,
    /// Its dimension, once known.
    pub dimension: Option<u32>,
    /// Vectors computed by the embedder in this run (`requests` calls).
    pub computed: u64,
    /// Embedding requests sent.
    pub requests: u64,
    /// Wall time spent waiting for the embedder, milliseconds.
    pub elapsed_ms: u64,
    /// Chunks in the whole index still awaiting a vector after this run.
    pub pending: u64,
}

/// What a run did, as recorded with it. Every field has a default, so summaries written by
/// older versions (or by a run that failed early) still read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunSummary {
    /// Files.
    pub files: FileCounts,
    /// Skipped paths by reason.
    pub skipped: SkipCounts,
    /// Chunks.
    pub chunks: ChunkCounts,
    /// Embeddings.
    pub embeddings: EmbeddingCounts,
    /// Wall time.
    pub elapsed_ms: u64,
    /// Chunks written per second.
    pub chunks_per_second: f64,
    /// Things the user should know (embedder down, ...).
    pub warnings: Vec<String>,
    /// Why the run failed, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A recorded index run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// Run id.
    pub id: i64,
    /// What kind of run.
    pub kind: RunKind,
    /// How it stands.
    pub status: RunStatus,
    /// When it started.
    pub started_at: SystemTime,
    /// When it ended.
    pub finished_at: Option<SystemTime>,
    /// What it did, once it ended.
    pub summary: RunSummary,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbol(name: &str, qualified_name: &str) -> SymbolRecord {
        SymbolRecord {
            kind: SymbolKind::Class,
            name: name.to_string(),
            qualified_name: qualified_name.to_string(),
            signature: String::new(),
            parent: None,
            start_line: None,
            end_line: None,
            params: Vec::new(),
            bases: Vec::new(),
        }
    }

    #[test]
    fn a_name_that_is_a_path_is_also_found_by_its_last_segment() {
        assert_eq!(symbol("Ecto.Query", "Ecto.Query").keys(), vec!["ecto.query", "query"]);
        assert_eq!(symbol("send", "Session.send").keys(), vec!["send", "session.send"]);
        assert_eq!(symbol("new", "Lexer::new").keys(), vec!["lexer.new", "lexer::new", "new"]);
        assert_eq!(symbol("Status::ok", "Status::ok").keys(), vec!["ok", "status.ok", "status::ok"]);
    }
}
