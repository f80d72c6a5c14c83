//! Records for the contract tests: a chunk from its text, a file from its chunks, with
//! defaults that make every field meaningful (laid-out byte and line ranges, a content hash,
//! the real keyword analysis), and helpers to compute what a store should report from them.

use std::collections::{BTreeMap, HashMap, HashSet};

use cocosearch::chunk::keywords::document_text;
use cocosearch::chunk::{ParseStatus, SymbolKind};
use cocosearch::discover::SkipReason;
use cocosearch::store::{
    ChunkBody, ChunkRecord, ErrorPosition, FileRecord, NewIndex, Store, StoredChunk, SymbolRecord, keyword_length,
    term_frequencies,
};

/// Creates index `name` at `root`, built with a three-dimension test model: where the
/// upgrade tests start before they roll a store back to an older schema.
pub fn index_with_test_model(store: &dyn Store, name: &str, root: &std::path::Path) {
    store
        .create_index(&NewIndex {
            name: name.into(),
            root: root.to_path_buf(),
            provider: "ollama".into(),
            model: None,
            dimension: None,
            context_tokens: None,
        })
        .expect("create");
    store.writer(name).expect("writer").set_model("test-model", 3).expect("model");
}

/// A chunk of `content`: no symbols, parsed fine, no vector. Its keywords are filled in by
/// [`file`] (they include the path's terms, as indexing writes them).
pub fn chunk(content: &str) -> ChunkRecord {
    let mut embed_hash = [0u8; 16];
    embed_hash.copy_from_slice(&blake3::hash(content.as_bytes()).as_bytes()[..16]);
    ChunkRecord {
        body: ChunkBody {
            byte_start: 0,
            byte_end: 0,
            line_start: 0,
            line_end: 0,
            content: content.to_string(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols: Vec::new(),
            context: String::new(),
            enclosing: None,
            parse_status: ParseStatus::Ok,
        },
        parent: None,
        embed_hash,
        embedding: None,
        keywords: String::new(),
    }
}

/// Builder steps on a chunk.
pub trait ChunkExt: Sized {
    /// Stores this vector with it.
    fn vector(self, v: &[f32]) -> Self;
    /// Defines a symbol in it (the first one is the primary symbol). `qualified` is
    /// `Outer.name` or `outer::name`; the own name is the last part.
    fn defines(self, kind: SymbolKind, qualified: &str) -> Self;
    /// Defines a symbol whose own name is `name` as given (headings may hold dots and colons).
    fn defines_named(self, kind: SymbolKind, name: &str, qualified: &str) -> Self;
    /// Sets its parse status.
    fn status(self, status: ParseStatus) -> Self;
    /// Replaces the keyword text that [`file`] would derive.
    fn keywords(self, keywords: &str) -> Self;
}

impl ChunkExt for ChunkRecord {
    fn vector(mut self, v: &[f32]) -> Self {
        self.embedding = Some(v.to_vec());
        self
    }

    fn defines(self, kind: SymbolKind, qualified: &str) -> Self {
        let name = qualified.rsplit(['.', ':']).next().unwrap_or(qualified).to_string();
        self.defines_named(kind, &name, qualified)
    }

    fn defines_named(mut self, kind: SymbolKind, name: &str, qualified: &str) -> Self {
        let parent = qualified
            .strip_suffix(name)
            .map(|p| p.trim_end_matches(['.', ':']))
            .filter(|p| !p.is_empty())
            .map(str::to_string);
        let symbol = SymbolRecord {
            kind,
            name: name.to_string(),
            qualified_name: qualified.to_string(),
            signature: format!("{kind} {name}"),
            parent: parent.clone(),
            start_line: None,
            end_line: None,
            params: Vec::new(),
            bases: Vec::new(),
        };
        if self.body.symbols.is_empty() {
            self.body.symbol_type = Some(kind);
            self.body.symbol_name = Some(symbol.name.clone());
            self.body.qualified_name = Some(symbol.qualified_name.clone());
            self.body.signature = Some(symbol.signature.clone());
            self.parent = parent;
        }
        self.body.symbols.push(symbol);
        self
    }

    fn status(mut self, status: ParseStatus) -> Self {
        self.body.parse_status = status;
        self
    }

    fn keywords(mut self, keywords: &str) -> Self {
        self.keywords = keywords.to_string();
        self
    }
}

/// The language id cocosearch gives a path, by its extension.
pub fn language_of(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("py") => "python",
        Some("rs") => "rust",
        Some("js") => "javascript",
        Some("ts") => "typescript",
        Some("md") => "markdown",
        Some("go") => "go",
        _ => "text",
    }
}

/// A file made of `chunks`, laid out one after the other with a blank line between them:
/// byte and line ranges, the file's size, lines and hash follow from that text. Symbols
/// without lines get their chunk's; chunks without keywords get the real keyword analysis of
/// their content and the path. The file's status is the worst of its chunks'.
pub fn file(path: &str, chunks: Vec<ChunkRecord>) -> FileRecord {
    let mut text = String::new();
    let mut line = 1u32;
    let mut laid_out = Vec::with_capacity(chunks.len());
    for mut c in chunks {
        if !text.is_empty() {
            text.push_str("\n\n");
            line += 2;
        }
        let lines = c.body.content.matches('\n').count() as u32;
        c.body.byte_start = text.len() as u32;
        text.push_str(&c.body.content);
        c.body.byte_end = text.len() as u32;
        c.body.line_start = line;
        c.body.line_end = line + lines;
        line += lines;
        for s in &mut c.body.symbols {
            s.start_line.get_or_insert(c.body.line_start);
            s.end_line.get_or_insert(c.body.line_end);
        }
        if c.keywords.is_empty() {
            c.keywords = document_text(path, &c.body.content);
        }
        laid_out.push(c);
    }
    let status = laid_out.iter().map(|c| c.body.parse_status).reduce(ParseStatus::worst).unwrap_or(ParseStatus::Ok);
    let lines = if text.is_empty() { 0 } else { text.matches('\n').count() as u32 + 1 };
    FileRecord {
        path: path.to_string(),
        language: language_of(path).to_string(),
        size: text.len() as u64,
        mtime_ns: 1_700_000_000_000_000_000,
        hash: *blake3::hash(text.as_bytes()).as_bytes(),
        lines,
        parse_status: Some(status),
        parse_errors: Vec::new(),
        skip_reason: None,
        chunking: Some("budget 1000".into()),
        chunks: laid_out,
        imports: Vec::new(),
        refs: Vec::new(),
    }
}

/// A file recorded without chunks because it cannot be indexed.
pub fn skipped(path: &str, reason: SkipReason) -> FileRecord {
    FileRecord {
        path: path.to_string(),
        language: language_of(path).to_string(),
        size: 7,
        mtime_ns: 1_700_000_000_000_000_000,
        hash: *blake3::hash(path.as_bytes()).as_bytes(),
        lines: 0,
        parse_status: None,
        parse_errors: Vec::new(),
        skip_reason: Some(reason),
        chunking: None,
        chunks: Vec::new(),
        imports: Vec::new(),
        refs: Vec::new(),
    }
}

/// A syntax error position.
pub fn error_at(line: u32, column: u32) -> ErrorPosition {
    ErrorPosition { line, column, kind: "error".into() }
}

/// What a store's term statistics should be for these files (the whole index).
pub struct ExpectedTerms {
    /// Chunks.
    pub chunks: u64,
    /// Sum of [`keyword_length`] over the chunks.
    pub total_length: u64,
    /// Chunks containing each term.
    pub df: HashMap<String, u64>,
}

/// Term statistics computed from the records themselves.
pub fn expected_terms<'a>(files: impl IntoIterator<Item = &'a FileRecord>) -> ExpectedTerms {
    let mut expected = ExpectedTerms { chunks: 0, total_length: 0, df: HashMap::new() };
    for c in files.into_iter().flat_map(|f| &f.chunks) {
        expected.chunks += 1;
        expected.total_length += u64::from(keyword_length(&c.keywords));
        let terms: HashSet<&str> = c.keywords.split_ascii_whitespace().collect();
        for t in terms {
            *expected.df.entry(t.to_string()).or_default() += 1;
        }
    }
    expected
}

/// How often `term` occurs in a chunk's keyword text, as a store reports it (capped).
pub fn frequency(chunk: &ChunkRecord, term: &str) -> u32 {
    term_frequencies(&chunk.keywords).get(term).copied().unwrap_or(0)
}

/// Symbols defined by kind, over all chunks of these files.
pub fn symbols_by_kind<'a>(files: impl IntoIterator<Item = &'a FileRecord>) -> BTreeMap<SymbolKind, u64> {
    let mut kinds = BTreeMap::new();
    for s in files.into_iter().flat_map(|f| &f.chunks).flat_map(|c| &c.body.symbols) {
        *kinds.entry(s.kind).or_default() += 1;
    }
    kinds
}

/// `(path, ordinal)` of stored chunks, sorted: chunk identity that does not depend on ids.
pub fn places(chunks: &[StoredChunk]) -> Vec<(String, u32)> {
    let mut places: Vec<(String, u32)> = chunks.iter().map(|c| (c.path.clone(), c.ordinal)).collect();
    places.sort();
    places
}

/// Cosine similarity, computed in f64 as the reference for stored scores.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

/// A unit vector spread over the sphere, from `i` of `n` (the golden-angle spiral).
pub fn spread(i: usize, n: usize) -> [f32; 3] {
    let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
    let r = (1.0 - z * z).sqrt();
    let angle = i as f32 * 2.399_963;
    [r * angle.cos(), r * angle.sin(), z]
}
