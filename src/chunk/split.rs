//! Provides the syntax-aware chunker (cAST-style): it turns a parsed tree
//! into the byte ranges of chunks, which `assemble` then completes with
//! lines, symbols, context and parse status.
//!
//! The tree is turned into a stream of "atoms" that are merged greedily:
//!
//! * A node that fits the budget is one atom, so a definition that fits stays
//!   whole. Adjacent atoms merge while the merged range fits the budget.
//! * A node over the budget is replaced by its children, recursively; a leaf
//!   over the budget by its lines, and a line over the budget by char-boundary
//!   pieces. Text between children that no child covers is emitted the same
//!   way, so no byte can be lost.
//! * Comments (and Rust attributes) directly before a node are grouped with
//!   it, and a comment on the same line as the end of a node goes with that
//!   node, so doc comments stay with their definition.
//! * An oversized definition starts a new chunk, and its last chunk may be
//!   joined by the code after it but not by the next definition, so a chunk
//!   never straddles the end of a split class and the next definition.
//! * A small open chunk (a header such as `namespace X {` or `class A(B):`,
//!   up to a third of the budget) is not closed before a node that cannot
//!   join it: the node is split instead, so headers are not left alone. The
//!   same holds for leading comments, which stay with the first lines of
//!   their definition when the whole does not fit.
//! * A closing token (`}`, `end`, `;`) that does not fit takes the atom
//!   before it along, so no chunk is a lone brace.
//! * Some languages force boundaries: Markdown sections, HCL top-level blocks,
//!   Dockerfile stages (`FROM`) and YAML documents always start a new chunk.
//!
//! The resulting byte ranges go to `assemble`, which turns them into chunks.

use std::ops::Range;

use tree_sitter::{Node, QueryCursor, Tree};

use super::assemble;
use super::facts;
use super::graph;
use super::parse;
use super::symbols;
use super::text;
use super::{ChunkOptions, ChunkedFile, GraphFacts, Language};

/// Deeper nodes are split as text. Tree-sitter trees of generated code (long
/// `a + b + ...` chains) can be thousands of levels deep, and the walk is
/// recursive.
const MAX_DEPTH: usize = 200;

/// Chunks a parsed file.
pub(crate) fn chunk_tree(
    lang: Language,
    tree: &Tree,
    src: &str,
    opts: &ChunkOptions,
    cursor: &mut QueryCursor,
) -> ChunkedFile {
    let root = tree.root_node();
    let mut defs = symbols::extract(lang, root, src, cursor);
    let graph = match opts.graph {
        GraphFacts::Extract => facts::extract(lang, root, src, &mut defs),
        GraphFacts::Skip => graph::FileGraph::default(),
    };
    let mut def_ranges: Vec<(usize, usize)> = defs.iter().map(|d| (d.outer.start, d.outer.end)).collect();
    def_ranges.sort_unstable();
    def_ranges.dedup();
    let budget = opts.max_chunk_bytes.max(1);
    let mut splitter = Splitter {
        lang,
        src,
        budget,
        def_ranges: &def_ranges,
        spans: Vec::new(),
        open: None,
        last_start: 0,
        prev_end: None,
        sealed: false,
        lead: false,
    };
    splitter.walk_children(root, 0);
    splitter.flush();
    let spans = assemble::normalize(src, splitter.spans, budget);
    let errors = parse::collect_errors(root, src, lang.spec().parse.tolerate);
    let mut file = assemble::assemble(src, spans, defs, &errors);
    file.graph = graph;
    file
}

/// A run of sibling nodes chunked as one unit: leading comments, the main
/// node, and same-line trailing comments. Indices point into the children.
struct Unit {
    first: usize,
    main: Option<usize>,
    last: usize,
}

/// How an atom may join the open chunk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atom {
    /// Ordinary content.
    Content,
    /// A lone punctuation token, a same-line trailing comment, or code that
    /// is not a definition: it may join a sealed chunk.
    Trailing,
    /// A closing token (`}`, `)`, `end`, `;`): like `Trailing`, and if it
    /// does not fit, it takes the previous atom along rather than standing
    /// alone in a chunk.
    Closer,
}

/// Atoms up to this size (names, parameter lists) keep a leading comment's
/// chunk open for the definition's header, see [`Splitter::lead`].
const HEADER_ATOM: usize = 32;

/// The greedy merger and its state.
struct Splitter<'a> {
    lang: Language,
    src: &'a str,
    budget: usize,
    /// Sorted `(start, end)` of every definition's outer range.
    def_ranges: &'a [(usize, usize)],
    spans: Vec<Range<usize>>,
    /// The chunk being grown.
    open: Option<Range<usize>>,
    /// Where the last atom of the open chunk starts, and where the atom
    /// before it ends (if there is one), so a closer can take it along.
    last_start: usize,
    prev_end: Option<usize>,
    /// The open chunk is the tail of a split definition: only trailing atoms
    /// (not the next definition) may join it.
    sealed: bool,
    /// The open chunk holds only leading comments and header tokens of the
    /// node being split, which should be followed by the node's first lines
    /// rather than closed.
    lead: bool,
}

impl Splitter<'_> {
    /// Closes the open chunk.
    fn flush(&mut self) {
        if let Some(open) = self.open.take() {
            self.spans.push(open);
        }
        self.sealed = false;
        self.lead = false;
        self.prev_end = None;
    }

    /// Adds an atom that fits the budget, merging it into the open chunk
    /// when the result still fits.
    fn push(&mut self, range: Range<usize>, atom: Atom) {
        if text::is_blank(self.src, range.clone()) {
            return;
        }
        if let Some(open) = &mut self.open {
            let fits = range.end.saturating_sub(open.start) <= self.budget;
            if fits && (!self.sealed || atom != Atom::Content) {
                self.prev_end = Some(open.end);
                self.last_start = range.start;
                open.end = open.end.max(range.end);
                if atom == Atom::Content && range.end - range.start > HEADER_ATOM {
                    self.lead = false;
                }
                return;
            }
            if atom == Atom::Closer
                && !self.sealed
                && let Some(prev_end) = self.prev_end
                && range.end.saturating_sub(self.last_start) <= self.budget
            {
                // Move the last atom over, so the closer does not end up
                // alone in a chunk.
                self.spans.push(open.start..prev_end);
                self.open = Some(self.last_start..range.end);
                self.prev_end = None;
                self.lead = false;
                return;
            }
            self.flush();
        }
        self.open = Some(range.clone());
        self.last_start = range.start;
        self.prev_end = None;
    }

    /// Adds text that no node structure can split, as line pieces.
    fn push_text(&mut self, range: Range<usize>, atom: Atom) {
        if range.end - range.start <= self.budget {
            self.push(range, atom);
            return;
        }
        let mut pieces = Vec::new();
        text::line_pieces(self.src, range, self.budget, &mut |p| pieces.push(p));
        for piece in pieces {
            self.push(piece, atom);
        }
    }

    /// Emits the children of `node`, with any uncovered text between them.
    fn walk_children(&mut self, node: Node<'_>, depth: usize) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> =
            node.children(&mut cursor).filter(|c| !text::is_blank(self.src, c.start_byte()..c.end_byte())).collect();
        let mut pos = node.start_byte();
        for unit in self.units(&children) {
            let start = children[unit.first].start_byte();
            if start > pos && !text::is_blank(self.src, pos..start) {
                self.push_text(pos..start, Atom::Content);
            }
            self.unit(&children, &unit, depth);
            pos = pos.max(children[unit.last].end_byte());
        }
        let end = node.end_byte();
        if end > pos && !text::is_blank(self.src, pos..end) {
            self.push_text(pos..end, Atom::Content);
        }
    }

    /// Groups children into units: comments attach to the next node, or to
    /// the previous one when they start on the line where it ends.
    fn units(&self, children: &[Node<'_>]) -> Vec<Unit> {
        let mut units: Vec<Unit> = Vec::with_capacity(children.len());
        let mut pending: Option<usize> = None;
        for (i, child) in children.iter().enumerate() {
            if attaches(child.kind()) {
                if pending.is_none()
                    && let Some(prev) = units.last_mut()
                    && prev.main.is_some()
                    && self
                        .src
                        .get(children[prev.last].end_byte()..child.start_byte())
                        .is_some_and(|between| !between.contains('\n'))
                {
                    prev.last = i;
                    continue;
                }
                // A blank line ends a comment group: only the comments
                // directly above a node belong to it.
                if let Some(first) = pending
                    && self.blank_line_between(children[i - 1], *child)
                {
                    units.push(Unit { first, main: None, last: i - 1 });
                    pending = None;
                }
                pending.get_or_insert(i);
                continue;
            }
            if let Some(first) = pending
                && self.blank_line_between(children[i - 1], *child)
            {
                units.push(Unit { first, main: None, last: i - 1 });
                pending = None;
            }
            units.push(Unit { first: pending.take().unwrap_or(i), main: Some(i), last: i });
        }
        if let Some(first) = pending {
            units.push(Unit { first, main: None, last: children.len() - 1 });
        }
        units
    }

    /// Whether a blank line separates two sibling nodes. Some grammars end
    /// a line comment with its newline, which then counts as one of the two.
    fn blank_line_between(&self, before: Node<'_>, after: Node<'_>) -> bool {
        let end = before.end_byte();
        let gap = self.src.get(end..after.start_byte()).unwrap_or("");
        let ends_line = end > 0 && self.src.as_bytes().get(end - 1) == Some(&b'\n');
        gap.matches('\n').count() + usize::from(ends_line) >= 2
    }

    /// Whether `node` is the outer node of a definition.
    fn is_def(&self, node: Node<'_>) -> bool {
        self.def_ranges.binary_search(&(node.start_byte(), node.end_byte())).is_ok()
    }

    /// Whether a unit that fits the budget should still be split because it
    /// cannot join the open chunk, and the open chunk should not be closed
    /// yet: it is a small header (`class A extends B {`) or a leading comment
    /// with header tokens. Splitting the unit fills that chunk instead of
    /// leaving the header alone. Definitions are split this way only to
    /// follow their own leading comments.
    fn fills_header(&self, node: Node<'_>, start: usize, end: usize) -> bool {
        let Some(open) = &self.open else {
            return false;
        };
        let small = open.end - open.start <= self.budget / 3;
        !self.sealed
            && (small || self.lead)
            && end.saturating_sub(open.start) > self.budget
            && start >= open.end
            && node.child_count() > 0
            && (self.lead || !self.is_def(node))
    }

    /// Emits one unit: as one atom when it fits, else split.
    fn unit(&mut self, children: &[Node<'_>], unit: &Unit, depth: usize) {
        let start = children[unit.first].start_byte();
        let end = children[unit.last].end_byte();
        let main = unit.main.map(|i| children[i]);
        if main.is_some_and(|n| self.lang.spec().sections.starts(n.kind(), depth)) {
            self.flush();
        }
        let forced = main.is_some_and(|n| self.lang.spec().sections.descends(n.kind(), depth));
        let fill = main.is_some_and(|n| self.fills_header(n, start, end));
        if end - start <= self.budget && !forced && !fill {
            let atom = match main {
                Some(n) if unit.first == unit.last && n.child_count() == 0 => {
                    if is_closer(n.kind(), node_text(n, self.src)) {
                        Atom::Closer
                    } else if n.is_named() {
                        Atom::Content
                    } else {
                        Atom::Trailing
                    }
                }
                // Code that is not a definition may follow the tail of a
                // split definition; only the next definition must not.
                Some(n) if self.sealed && unit.first == unit.last && !self.is_def(n) => Atom::Trailing,
                _ => Atom::Content,
            };
            self.push(start..end, atom);
            return;
        }
        let (Some(main_index), Some(node)) = (unit.main, main) else {
            // A run of comments with nothing after it.
            for child in &children[unit.first..=unit.last] {
                self.push_text(child.start_byte()..child.end_byte(), Atom::Content);
            }
            return;
        };
        let is_def = self.is_def(node);
        // A split definition starts a new chunk, except that a small open
        // chunk (typically the header of the enclosing node, such as
        // `namespace X {`) is carried into it rather than left alone.
        let open_len = self.open.as_ref().map_or(0, |o| o.end - o.start);
        if is_def && !fill && (self.sealed || open_len > self.budget / 3) {
            self.flush();
        }
        let commented = unit.first < main_index;
        for child in &children[unit.first..main_index] {
            self.push_text(child.start_byte()..child.end_byte(), Atom::Content);
        }
        if commented && self.open.is_some() {
            self.lead = true;
        }
        // A node that fits alone is still split when its leading comments
        // pushed the unit over the budget: the comments belong with the
        // node's first lines rather than in a chunk of their own.
        let node_fits = node.end_byte() - node.start_byte() <= self.budget;
        let split = fill || forced || (commented && self.lead);
        if node_fits && !(split && node.child_count() > 0) {
            self.push(node.start_byte()..node.end_byte(), Atom::Content);
        } else if node.child_count() > 0 && depth < MAX_DEPTH && !is_text_like(node.kind()) {
            self.walk_children(node, depth + 1);
        } else {
            self.push_text(node.start_byte()..node.end_byte(), Atom::Content);
        }
        for child in &children[main_index + 1..=unit.last] {
            self.push_text(child.start_byte()..child.end_byte(), Atom::Trailing);
        }
        if is_def {
            self.sealed = true;
            self.lead = false;
        }
    }
}

/// The text of a node, or `""` if its range is not valid in `src`.
fn node_text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// Whether a leaf closes a construct, so that it should not start a chunk:
/// closing punctuation and keywords, and end markers such as `string_end`.
fn is_closer(kind: &str, token: &str) -> bool {
    kind.ends_with("_end")
        || matches!(token, "}" | ")" | "]" | ";" | "," | "end" | "fi" | "done" | "esac" | "}}" | "%}" | "?>")
        || token.starts_with("</")
}

/// Whether an oversized node is better split at its lines than at its
/// children: strings and comments, whose children (escape sequences,
/// interpolations) would otherwise produce cuts in the middle of a line.
fn is_text_like(kind: &str) -> bool {
    kind.contains("string") || kind.contains("comment") || kind.contains("heredoc")
}

/// Node kinds that belong to the node after them.
fn attaches(kind: &str) -> bool {
    kind.contains("comment") || kind == "attribute_item"
}
