//! Provides the last step of syntax-aware chunking: turning the splitter's
//! byte ranges into [`Chunk`]s with exact lines, parse status, symbols and
//! context, and the file-level status and error list.
//!
//! It also re-checks the ranges (trimmed, ordered, disjoint, on char
//! boundaries) and re-covers any non-blank gap with text pieces. The splitter
//! should never leave one, but this safety net makes the coverage invariant
//! hold for every input, including trees that do not match their source.

use std::cmp::Reverse;
use std::ops::Range;

use super::parse::ErrorSpan;
use super::symbols::Def;
use super::text::{self, LineIndex};
use super::{Chunk, ChunkedFile, FileGraph, ParseStatus, SyntaxError};

/// How many syntax errors a [`ChunkedFile`] reports.
const MAX_REPORTED_ERRORS: usize = 10;

/// The most enclosing signatures a chunk carries as context (the innermost ones): each chunk
/// stores its own, so an unbounded list grew with the nesting depth times the chunk count.
pub(crate) const MAX_CONTEXT_SIGNATURES: usize = 16;

/// Trims the spans, keeps them ordered and disjoint on char boundaries, and
/// re-covers any non-blank gap with text pieces.
pub(crate) fn normalize(src: &str, spans: Vec<Range<usize>>, budget: usize) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    let mut covered = 0;
    for span in spans {
        let start = text::floor_char(src, span.start.max(covered));
        let start = if start < covered { text::ceil_char(src, covered) } else { start };
        let end = text::ceil_char(src, span.end);
        let Some(span) = text::trim(src, start..end) else {
            continue;
        };
        cover_gap(src, covered..span.start, budget, &mut out);
        covered = span.end;
        out.push(span);
    }
    cover_gap(src, covered..src.len(), budget, &mut out);
    out
}

/// Adds chunks for the non-blank text of a gap between spans.
fn cover_gap(src: &str, gap: Range<usize>, budget: usize, out: &mut Vec<Range<usize>>) {
    if gap.start >= gap.end || text::is_blank(src, gap.clone()) {
        return;
    }
    let mut open: Option<Range<usize>> = None;
    text::line_pieces(src, gap, budget, &mut |piece| match &mut open {
        Some(o) if piece.end - o.start <= budget => o.end = piece.end,
        _ => {
            if let Some(o) = open.replace(piece) {
                out.push(o);
            }
        }
    });
    out.extend(open);
}

/// Builds the chunks: lines, parse status, symbols and context.
pub(crate) fn assemble(src: &str, spans: Vec<Range<usize>>, defs: Vec<Def>, errors: &[ErrorSpan]) -> ChunkedFile {
    let lines = LineIndex::new(src);
    let mut chunks: Vec<Chunk> = spans
        .iter()
        .map(|r| Chunk {
            byte_start: r.start,
            byte_end: r.end,
            line_start: lines.line_of(r.start),
            line_end: lines.line_of(r.end.saturating_sub(1)),
            parse_status: ParseStatus::Ok,
            symbols: Vec::new(),
            context: Vec::new(),
            enclosing: None,
        })
        .collect();
    mark_errors(&mut chunks, errors);
    add_context(&mut chunks, &defs);
    for mut def in defs {
        let index = chunks.partition_point(|c| c.byte_end <= def.decl_start);
        if let Some(chunk) = chunks.get_mut(index)
            && chunk.byte_start <= def.decl_start
        {
            def.symbol.line_start = lines.line_of(def.outer.start);
            def.symbol.line_end = lines.line_of(def.outer.end.saturating_sub(1));
            chunk.symbols.push(def.symbol);
        }
    }
    let parse_status = if chunks.is_empty() {
        if errors.is_empty() { ParseStatus::Ok } else { ParseStatus::Partial }
    } else {
        chunks.iter().fold(ParseStatus::Ok, |acc, c| acc.worst(c.parse_status))
    };
    let errors = errors
        .iter()
        .take(MAX_REPORTED_ERRORS)
        .map(|e| {
            let (line, column) = lines.position(src, e.range.start);
            SyntaxError { line, column, kind: e.kind }
        })
        .collect();
    ChunkedFile { chunks, parse_status, errors, graph: FileGraph::default() }
}

/// Marks chunks touched by a syntax error as partial. An error that lies in
/// whitespace between chunks marks the chunk before it (or the first chunk),
/// so that a file with errors never looks clean.
fn mark_errors(chunks: &mut [Chunk], errors: &[ErrorSpan]) {
    if chunks.is_empty() {
        return;
    }
    for error in errors {
        let (a, b) = (error.range.start, error.range.end);
        // Chunks are sorted and disjoint, so the touched ones are a run.
        let first = chunks.partition_point(|c| c.byte_end < a || (c.byte_end == a && b > a));
        let mut marked = false;
        for chunk in chunks[first..].iter_mut() {
            let touches = if a == b {
                chunk.byte_start <= a && a <= chunk.byte_end
            } else {
                chunk.byte_start < b && a < chunk.byte_end
            };
            if !touches {
                break;
            }
            chunk.parse_status = ParseStatus::Partial;
            marked = true;
        }
        if !marked {
            let index = chunks.partition_point(|c| c.byte_start <= a).saturating_sub(1);
            if let Some(chunk) = chunks.get_mut(index) {
                chunk.parse_status = ParseStatus::Partial;
            }
        }
    }
}

/// Sets each chunk's context: the signatures of the definitions that start
/// before the chunk and are still open at its start, outermost first.
fn add_context(chunks: &mut [Chunk], defs: &[Def]) {
    let mut order: Vec<&Def> = defs.iter().collect();
    order.sort_by_key(|d| (d.outer.start, Reverse(d.outer.end)));
    let mut stack: Vec<&Def> = Vec::new();
    let mut next = 0;
    for chunk in chunks.iter_mut() {
        while let Some(def) = order.get(next)
            && def.outer.start < chunk.byte_start
        {
            while stack.last().is_some_and(|top| top.outer.end <= def.outer.start) {
                stack.pop();
            }
            stack.push(def);
            next += 1;
        }
        while stack.last().is_some_and(|top| top.outer.end <= chunk.byte_start) {
            stack.pop();
        }
        let open: Vec<&&Def> =
            stack.iter().filter(|d| d.decl_start < chunk.byte_start && d.outer.end > chunk.byte_start).collect();
        let innermost = open.len().saturating_sub(MAX_CONTEXT_SIGNATURES);
        chunk.context = open[innermost..].iter().map(|d| d.symbol.signature.clone()).collect();
        chunk.enclosing = open.last().map(|d| d.symbol.qualified_name.clone());
    }
}
