//! Provides syntax-aware chunking: source text in, [`Chunk`]s out, each with
//! its line range, the definitions ([`Symbol`]s) it declares, the signatures of
//! the definitions around it, and a per-chunk [`ParseStatus`].
//!
//! The module is pure: it does no I/O, never returns an error for bad syntax
//! and never panics on any input. A file the parser cannot handle (too large,
//! timed out, grammar failure) is still chunked, by the text fallback, and
//! marked [`ParseStatus::Error`]; a language without a grammar is chunked the
//! same way and marked [`ParseStatus::Unsupported`].
//!
//! Reading order: `lang` ([`Language`] and the registry: one module per language
//! holding everything cocosearch knows about it), `parse` (tree-sitter with a
//! deadline, and the syntax errors), `queries` and `symbols` (the definitions),
//! `graph` (imports and references), `split` (the cAST-style chunker), `assemble`
//! (ranges to chunks), `fallback` (the text chunker), `text` (byte, line and
//! whitespace helpers), `tests`.
//!
//! # Chunk invariants
//!
//! * Chunks are non-empty, in source order, start and end on char boundaries,
//!   and begin and end with non-whitespace.
//! * Every non-whitespace byte lies inside some chunk: the gaps between chunks
//!   hold whitespace only.
//! * Chunks of a parsed file never overlap; text-fallback chunks may overlap
//!   by up to [`ChunkOptions::overlap_bytes`] at line boundaries.
//! * `line_start`/`line_end` are the 1-based lines of the first and last byte.

mod assemble;
mod facts;
mod fallback;
mod graph;
pub mod keywords;
mod lang;
mod naming;
mod parse;
mod prepare;
mod queries;
mod span;
mod split;
mod symbols;
mod text;

#[cfg(test)]
mod tests;

use std::time::Duration;

pub use graph::{EXPRESSION_QUALIFIER, FileGraph, Import, ImportKind, RefKind, Reference};
pub use lang::{Language, ProjectFiles, Resolution, Resolved, Role, TsConfig, dir_of, join_path};
pub use span::definition_span;
pub use symbols::CUT_MARK;

use serde::{Deserialize, Serialize};

/// How well a chunk (or a whole file) was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParseStatus {
    /// Parsed, and no syntax error touches the chunk.
    Ok,
    /// Parsed, but an `ERROR` or `MISSING` node intersects the chunk.
    Partial,
    /// The parser failed, timed out or was skipped because the source exceeds
    /// [`ChunkOptions::max_parse_bytes`]; the text fallback produced the chunk.
    Error,
    /// The language has no grammar (or is unknown); the text fallback produced
    /// the chunk.
    Unsupported,
}

impl ParseStatus {
    /// All statuses, from best to worst.
    pub fn all() -> &'static [ParseStatus] {
        &[ParseStatus::Ok, ParseStatus::Unsupported, ParseStatus::Partial, ParseStatus::Error]
    }

    /// The lowercase name used in storage and output.
    pub fn as_str(self) -> &'static str {
        match self {
            ParseStatus::Ok => "ok",
            ParseStatus::Partial => "partial",
            ParseStatus::Error => "error",
            ParseStatus::Unsupported => "unsupported",
        }
    }

    /// Severity used to compute a file's status as the worst of its chunks.
    /// `Unsupported` sits between `Ok` and `Partial`; the two never mix in one
    /// file, so the order only matters for aggregate reports.
    fn rank(self) -> u8 {
        match self {
            ParseStatus::Ok => 0,
            ParseStatus::Unsupported => 1,
            ParseStatus::Partial => 2,
            ParseStatus::Error => 3,
        }
    }

    /// The worse of two statuses.
    pub fn worst(self, other: ParseStatus) -> ParseStatus {
        if other.rank() > self.rank() { other } else { self }
    }
}

impl std::fmt::Display for ParseStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ParseStatus {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParseStatus::all()
            .iter()
            .copied()
            .find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName::new("parse status", s))
    }
}

/// The error returned when parsing a [`ParseStatus`], [`SymbolKind`] or
/// [`Language`] from an unknown name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {name:?}")]
pub struct UnknownName {
    /// What was being parsed, e.g. "symbol kind".
    pub what: &'static str,
    /// The rejected input.
    pub name: String,
}

impl UnknownName {
    fn new(what: &'static str, name: &str) -> Self {
        UnknownName { what, name: name.to_string() }
    }
}

/// What kind of definition a [`Symbol`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    /// A free function (or a function nested in another function).
    Function,
    /// A function defined in a class-like scope.
    Method,
    /// A class (also Kotlin/Scala objects, Java records, Swift classes).
    Class,
    /// A struct or union.
    Struct,
    /// An enum.
    Enum,
    /// An interface or protocol.
    Interface,
    /// A trait (Rust, Scala, PHP).
    Trait,
    /// A Rust `impl` block or a Swift `extension`.
    Impl,
    /// A module or namespace (Rust `mod`, Ruby `module`, C++/C# `namespace`,
    /// TypeScript `namespace`, SQL schema, TOML table).
    Module,
    /// A type alias or typedef.
    Type,
    /// A constant.
    Constant,
    /// A variable, a property, or a top-level key of a YAML or JSON document.
    Variable,
    /// A Terraform `resource` block.
    Resource,
    /// A Terraform `data` block.
    Data,
    /// A Terraform `output` block.
    Output,
    /// A Terraform `provider` block.
    Provider,
    /// A Terraform `locals` block.
    Locals,
    /// Any other top-level HCL block (`terraform`, Packer `source`, ...).
    Block,
    /// A Markdown heading (its section).
    Heading,
    /// A Dockerfile build stage (`FROM image AS name`).
    Stage,
    /// A Dockerfile instruction other than `FROM`.
    Instruction,
    /// A SQL table.
    Table,
    /// A SQL view or materialized view.
    View,
}

impl SymbolKind {
    /// All kinds, in declaration order.
    pub fn all() -> &'static [SymbolKind] {
        use SymbolKind::*;
        &[
            Function,
            Method,
            Class,
            Struct,
            Enum,
            Interface,
            Trait,
            Impl,
            Module,
            Type,
            Constant,
            Variable,
            Resource,
            Data,
            Output,
            Provider,
            Locals,
            Block,
            Heading,
            Stage,
            Instruction,
            Table,
            View,
        ]
    }

    /// Whether it is a function or a method: something that is called, has parameters,
    /// and whose nested values are locals.
    pub fn is_callable(self) -> bool {
        matches!(self, SymbolKind::Function | SymbolKind::Method)
    }

    /// Whether it is a class-like type (class, struct, enum, interface, trait, impl): the
    /// functions directly inside it are its methods.
    pub fn is_type(self) -> bool {
        use SymbolKind::*;
        matches!(self, Class | Struct | Enum | Interface | Trait | Impl)
    }

    /// Whether it is a value (a constant or a variable) rather than code.
    pub fn is_value(self) -> bool {
        matches!(self, SymbolKind::Constant | SymbolKind::Variable)
    }

    /// The lowercase name used in storage and output.
    pub fn as_str(self) -> &'static str {
        use SymbolKind::*;
        match self {
            Function => "function",
            Method => "method",
            Class => "class",
            Struct => "struct",
            Enum => "enum",
            Interface => "interface",
            Trait => "trait",
            Impl => "impl",
            Module => "module",
            Type => "type",
            Constant => "constant",
            Variable => "variable",
            Resource => "resource",
            Data => "data",
            Output => "output",
            Provider => "provider",
            Locals => "locals",
            Block => "block",
            Heading => "heading",
            Stage => "stage",
            Instruction => "instruction",
            Table => "table",
            View => "view",
        }
    }
}

impl std::fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SymbolKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SymbolKind::all()
            .iter()
            .copied()
            .find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName::new("symbol kind", s))
    }
}

/// A definition found in the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    /// What it defines.
    pub kind: SymbolKind,
    /// The bare name, e.g. `register_hook`, `aws_s3_bucket.logs`, `Installation`.
    pub name: String,
    /// The name qualified by its enclosing scopes, e.g. `Request.register_hook`
    /// (Python), `Lexer::new` (Rust), `Store.Get` (Go), `resource.aws_s3_bucket.logs`
    /// (Terraform), `Demo App > Installation` (Markdown).
    pub qualified_name: String,
    /// The declaration without its body, whitespace-collapsed and capped at
    /// about 200 characters, e.g. `def get(self, url, params=None, **kwargs)`.
    pub signature: String,
    /// The qualified name of the enclosing definition (the receiver type for Go
    /// methods, the scope for C++ `A::f` definitions), if any.
    pub parent: Option<String>,
    /// A function's or method's parameters as named (`self`, `url`, `*args`, `**kwargs`);
    /// empty for other definitions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// What a class-like definition extends or implements, as written (`RequestHooksMixin`,
    /// `fmt::Display` for a Rust `impl fmt::Display for T`); empty when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// First line of the whole definition (decorators included), 1-based.
    pub line_start: u32,
    /// Last line of the whole definition.
    pub line_end: u32,
}

/// A piece of a source file, sized for embedding and display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// First byte of the chunk (inclusive), on a char boundary.
    pub byte_start: usize,
    /// End of the chunk (exclusive), on a char boundary.
    pub byte_end: usize,
    /// 1-based line of the first byte.
    pub line_start: u32,
    /// 1-based line of the last byte (a trailing `'\n'` belongs to the line it ends).
    pub line_end: u32,
    /// Whether a syntax error touches this chunk.
    pub parse_status: ParseStatus,
    /// Definitions whose declaration starts inside this chunk, in source
    /// order; the first is the chunk's primary symbol.
    pub symbols: Vec<Symbol>,
    /// Signatures of the enclosing definitions that start before this chunk,
    /// outermost first (e.g. `["class Foo(Base)"]` for a method chunk of a
    /// split class, or the parent headings of a Markdown section).
    pub context: Vec<String>,
    /// The qualified name of the innermost enclosing definition that starts before the
    /// chunk (the method a piece of a split method belongs to), if any.
    pub enclosing: Option<String>,
}

impl Chunk {
    /// The chunk's text.
    ///
    /// Returns an empty string if `source` is not the text the chunk was made
    /// from (the range does not fit or is not on char boundaries).
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        source.get(self.byte_start..self.byte_end).unwrap_or("")
    }
}

/// A syntax error reported by the parser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    /// 1-based line where the error starts.
    pub line: u32,
    /// 1-based column, counted in chars.
    pub column: u32,
    /// `"error"` for an `ERROR` node (unexpected text), `"missing"` for a
    /// `MISSING` node (a token the parser had to invent).
    pub kind: &'static str,
}

/// The result of chunking one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChunkedFile {
    /// The chunks, in source order.
    pub chunks: Vec<Chunk>,
    /// The worst status over the chunks; for a file without chunks (empty or
    /// whitespace-only), the status of the path taken (`ok` when parsed).
    pub parse_status: ParseStatus,
    /// The first ten syntax errors, in source order.
    pub errors: Vec<SyntaxError>,
    /// What the file imports and what its definitions use; empty when the file was not
    /// parsed (text fallback) or its language has no graph rules.
    pub graph: FileGraph,
}

/// Knobs for [`chunk_source`] and [`Chunker::chunk`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkOptions {
    /// The size budget of a chunk, in bytes of source text. A chunk exceeds it
    /// only when one char is longer than the budget.
    pub max_chunk_bytes: usize,
    /// Overlap between consecutive chunks of the text fallback, in bytes,
    /// taken at line boundaries. Parsed files never overlap.
    pub overlap_bytes: usize,
    /// Parsing is cancelled after this long, and the file falls back to text
    /// chunks with status `error`.
    pub parse_timeout: Duration,
    /// Sources longer than this skip tree-sitter and fall back to text chunks
    /// with status `error`.
    pub max_parse_bytes: usize,
    /// Whether the code graph's facts (imports, references, parameters, bases) are
    /// extracted. Indexing always extracts them; the graph benchmark measures their cost.
    pub graph: GraphFacts,
}

/// Whether chunking extracts the code graph's facts ([`ChunkOptions::graph`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GraphFacts {
    /// Imports, references, parameters and bases, as indexing needs them.
    #[default]
    Extract,
    /// Chunks and symbols only ([`ChunkedFile::graph`] stays empty).
    Skip,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions {
            max_chunk_bytes: 1000,
            overlap_bytes: 200,
            parse_timeout: Duration::from_secs(2),
            max_parse_bytes: 2 * 1024 * 1024,
            graph: GraphFacts::Extract,
        }
    }
}

/// A reusable chunker that keeps one tree-sitter parser per language (and a
/// query cursor), so that a worker thread pays for parser setup once.
///
/// Create one per thread (it is `Send` but not `Sync`); [`chunk_source`]
/// does exactly that with a thread-local.
pub struct Chunker {
    parsers: Vec<Option<tree_sitter::Parser>>,
    cursor: tree_sitter::QueryCursor,
}

impl Default for Chunker {
    fn default() -> Self {
        Chunker::new()
    }
}

impl std::fmt::Debug for Chunker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cached = self.parsers.iter().filter(|p| p.is_some()).count();
        f.debug_struct("Chunker").field("cached_parsers", &cached).finish()
    }
}

impl Chunker {
    /// Creates a chunker with no parsers yet; they are created on first use.
    pub fn new() -> Self {
        Chunker { parsers: Language::all().iter().map(|_| None).collect(), cursor: tree_sitter::QueryCursor::new() }
    }

    /// Chunks `source`, written in `lang` (`None` when unknown).
    ///
    /// Never fails: unparseable input degrades to text chunks whose status
    /// says why (see [`ParseStatus`]).
    pub fn chunk(&mut self, lang: Option<Language>, source: &str, opts: &ChunkOptions) -> ChunkedFile {
        // A UTF-8 byte-order mark is an encoding signature, not text: chunked with the rest, it
        // would be a chunk of its own (parsers see a stray character). The text after it is
        // chunked and the byte ranges moved past it, so they stay exact offsets into the file
        // as it is on disk; lines do not move, the mark holding no newline.
        match source.strip_prefix(BYTE_ORDER_MARK) {
            Some(rest) => {
                let mut file = self.chunk_unmarked(lang, rest, opts);
                for chunk in &mut file.chunks {
                    chunk.byte_start += BYTE_ORDER_MARK.len_utf8();
                    chunk.byte_end += BYTE_ORDER_MARK.len_utf8();
                }
                file
            }
            None => self.chunk_unmarked(lang, source, opts),
        }
    }

    /// [`Chunker::chunk`] for a source without a byte-order mark.
    fn chunk_unmarked(&mut self, lang: Option<Language>, source: &str, opts: &ChunkOptions) -> ChunkedFile {
        let Some(lang) = lang else {
            return fallback::chunk_text(source, opts, ParseStatus::Unsupported);
        };
        if lang.grammar().is_none() {
            return fallback::chunk_text(source, opts, ParseStatus::Unsupported);
        }
        if source.len() > opts.max_parse_bytes {
            return fallback::chunk_text(source, opts, ParseStatus::Error);
        }
        let Some(parser) = self.parser(lang) else {
            return fallback::chunk_text(source, opts, ParseStatus::Error);
        };
        // The tree is parsed from the text the language module prepares, which has the
        // source's offsets and lines, and chunked against the source itself.
        let hooks = lang.spec().parse;
        let prepared = hooks.prepare.map_or(std::borrow::Cow::Borrowed(source), |prepare| prepare(source));
        let Some(mut tree) = parse::parse(parser, &prepared, opts.parse_timeout) else {
            return fallback::chunk_text(source, opts, ParseStatus::Error);
        };
        if tree.root_node().has_error()
            && let Some(second) = hooks.retry.and_then(|retry| retry(&prepared))
            && let Some(other) = parse::parse(parser, &second, opts.parse_timeout)
            && parse::error_bytes(other.root_node()) < parse::error_bytes(tree.root_node())
        {
            tree = other;
        }
        split::chunk_tree(lang, &tree, source, opts, &mut self.cursor)
    }

    /// Chunks a tree the caller has already parsed from `source` with the
    /// grammar of `lang` (for example to reuse it for incremental parsing).
    ///
    /// A tree that does not belong to `source` gives meaningless symbols but
    /// still chunks that cover `source` and satisfy the chunk invariants.
    pub fn chunk_tree(
        &mut self,
        lang: Language,
        tree: &tree_sitter::Tree,
        source: &str,
        opts: &ChunkOptions,
    ) -> ChunkedFile {
        split::chunk_tree(lang, tree, source, opts, &mut self.cursor)
    }

    /// The cached parser for `lang`, created on first use; `None` if the
    /// grammar cannot be loaded (an ABI mismatch, which a test guards against).
    fn parser(&mut self, lang: Language) -> Option<&mut tree_sitter::Parser> {
        let slot = self.parsers.get_mut(lang.index())?;
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&lang.grammar()?).ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()
    }
}

/// The version of the chunking rules: raise it when the same source and options are cut
/// differently, and indexes chunk every file again on their next run.
pub const CHUNKER_VERSION: u32 = 6;

/// The version of the graph rules (imports, references, parameters and bases): raise it when
/// the same source gives other facts, and indexes read every file again on their next run
/// (reusing its vectors), so the graph always equals a fresh index's.
pub const GRAPH_VERSION: u32 = 2;

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

thread_local! {
    static CHUNKER: std::cell::RefCell<Chunker> = std::cell::RefCell::new(Chunker::new());
}

/// Chunks `source`, written in `lang` (`None` when unknown), reusing a
/// per-thread [`Chunker`] so that rayon workers keep their parsers.
///
/// Never fails and never panics; see [`ParseStatus`] for how problems are
/// reported.
pub fn chunk_source(lang: Option<Language>, source: &str, opts: &ChunkOptions) -> ChunkedFile {
    let cached =
        CHUNKER.try_with(|cell| cell.try_borrow_mut().ok().map(|mut chunker| chunker.chunk(lang, source, opts)));
    match cached {
        Ok(Some(file)) => file,
        // The thread-local is being torn down, or already borrowed: a fresh
        // chunker gives the same result, only slower.
        _ => Chunker::new().chunk(lang, source, opts),
    }
}
