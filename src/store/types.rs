//! The records that cross the [`super::Store`] boundary.
//!
//! Plain data, no SQL: an embedded store would accept and return the same shapes.

use std::path::PathBuf;
use std::time::SystemTime;

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
    /// Why it is recorded without chunks (`binary`, `not_utf8`, ...), if it is.
    pub skip_reason: Option<String>,
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
    /// The worst parse status of its chunks.
    pub parse_status: String,
    /// The first syntax errors.
    pub parse_errors: Vec<ErrorPosition>,
    /// Set when the file cannot be indexed (binary, not UTF-8, ...): it is recorded, without
    /// chunks, so unchanged it is not read again and freshness checks know about it.
    pub skip_reason: Option<String>,
    /// The parameters its chunks were cut with, as one opaque string (chunk budget, overlap,
    /// embedding input limit, chunker version): when the index's parameters change, files cut
    /// with others are chunked again though their content did not change. `None` for a file
    /// without chunks.
    pub chunking: Option<String>,
    /// Its chunks, in order.
    pub chunks: Vec<ChunkRecord>,
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
    pub symbol_type: Option<String>,
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
    /// `ok`, `partial`, `error` or `unsupported`.
    pub parse_status: String,
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
    /// The identifier-aware keyword text.
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
    /// A path glob (see `store::postgres::glob` for its semantics).
    pub path_glob: Option<String>,
    /// Symbol kinds; empty means all.
    pub symbol_types: Vec<String>,
    /// A case-insensitive glob on the symbol name.
    pub symbol_name_glob: Option<String>,
}

/// One keyword of a keyword query with its weight (typically its IDF).
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedTerm {
    /// The analysed term, or several terms that must appear in sequence (a phrase).
    pub terms: Vec<String>,
    /// The weight.
    pub weight: f64,
}

/// A planned keyword query: what scores a chunk, and which chunks are scored at all.
///
/// Scoring costs a few microseconds per chunk, so the planner (`search::keywords`) keeps
/// the candidate set small: a chunk that merely says `error` is not worth ranking, one that
/// says a rare identifier of the query is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeywordQuery {
    /// Every weighted term; a chunk's score is the weighted sum of their ranks in it.
    pub terms: Vec<WeightedTerm>,
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
    /// Cosine similarity (vector), weighted rank (keyword), or 1 (symbol match).
    pub score: f64,
}

/// Document frequencies of some terms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TermStats {
    /// Number of chunks in the index.
    pub chunks: u64,
    /// Chunks containing each term (terms absent from the index are absent here).
    pub df: std::collections::HashMap<String, u64>,
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SymbolRecord {
    /// Kind (`function`, `method`, `class`, ...).
    pub kind: String,
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
}

impl SymbolRecord {
    /// The lowercase names a query can use to name this symbol exactly: the name, the
    /// qualified name, and the qualified name with `::` spelled `.`.
    pub fn keys(&self) -> Vec<String> {
        let mut keys = vec![self.name.to_lowercase(), self.qualified_name.to_lowercase()];
        let dotted = self.qualified_name.to_lowercase().replace("::", ".");
        keys.push(dotted);
        keys.sort_unstable();
        keys.dedup();
        keys
    }
}

/// Per-language counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
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
    pub parse_status: std::collections::BTreeMap<String, u64>,
}

/// What an index holds, counted in the store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexCounts {
    /// Files indexed.
    pub files: u64,
    /// Chunks.
    pub chunks: u64,
    /// Chunks without a vector.
    pub pending_embeddings: u64,
    /// Lines of all files.
    pub lines: u64,
    /// Bytes on disk in the database (tables and their indexes).
    pub storage_bytes: u64,
    /// Per language, by chunk count descending.
    pub languages: Vec<LanguageCounts>,
    /// Definitions by kind.
    pub symbols_by_type: std::collections::BTreeMap<String, u64>,
}

/// A file with chunks that did not parse cleanly.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FailingFile {
    /// Path.
    pub path: String,
    /// Language id.
    pub language: String,
    /// The file's worst status.
    pub status: String,
    /// Chunks not `ok` (and not `unsupported`).
    pub failing_chunks: u64,
    /// All its chunks.
    pub chunks: u64,
    /// The first syntax errors.
    pub errors: Vec<ErrorPosition>,
}

/// A recorded index run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// Run id.
    pub id: i64,
    /// `full` or `incremental`.
    pub kind: String,
    /// `running`, `completed`, `interrupted` or `failed`.
    pub status: String,
    /// When it started.
    pub started_at: std::time::SystemTime,
    /// When it ended.
    pub finished_at: Option<std::time::SystemTime>,
    /// Its summary.
    pub summary: serde_json::Value,
}
