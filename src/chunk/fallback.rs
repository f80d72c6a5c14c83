//! Provides the text fallback: chunks made from paragraphs and lines, for
//! languages without a grammar and for sources the parser could not handle.
//!
//! Paragraphs (runs of non-blank lines) are packed greedily up to the budget;
//! a paragraph over the budget is cut into lines, and a line over the budget at
//! char boundaries. Consecutive chunks overlap by up to `overlap_bytes`, taken
//! as whole lines from the end of the previous chunk, so that a sentence cut at
//! a chunk boundary is still found by a search for it.

use std::ops::Range;

use super::text::{self, LineIndex};
use super::{Chunk, ChunkOptions, ChunkedFile, FileGraph, ParseStatus};

/// Chunks `source` as plain text, giving every chunk `status`.
pub(crate) fn chunk_text(source: &str, opts: &ChunkOptions, status: ParseStatus) -> ChunkedFile {
    let lines = LineIndex::new(source);
    let chunks = text_spans(source, opts.max_chunk_bytes, opts.overlap_bytes)
        .into_iter()
        .map(|range| Chunk {
            line_start: lines.line_of(range.start),
            line_end: lines.line_of(range.end.saturating_sub(1)),
            byte_start: range.start,
            byte_end: range.end,
            parse_status: status,
            symbols: Vec::new(),
            context: Vec::new(),
            enclosing: None,
        })
        .collect();
    ChunkedFile { chunks, parse_status: status, errors: Vec::new(), graph: FileGraph::default() }
}

/// The byte ranges of the text chunks of `src`.
pub(crate) fn text_spans(src: &str, budget: usize, overlap: usize) -> Vec<Range<usize>> {
    let budget = budget.max(1);
    let atoms = atoms(src, budget);
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < atoms.len() {
        let first = atoms[i].clone();
        let mut start = first.start;
        if let Some(prev) = spans.last()
            && let Some(from) = overlap_start(src, prev, overlap)
            && first.end - from <= budget
        {
            start = from;
        }
        let mut end = first.end;
        i += 1;
        while let Some(next) = atoms.get(i) {
            if next.end - start > budget {
                break;
            }
            end = next.end;
            i += 1;
        }
        spans.push(start..end);
    }
    spans
}

/// Paragraphs that fit the budget, else their lines (or line pieces).
fn atoms(src: &str, budget: usize) -> Vec<Range<usize>> {
    let bytes = src.as_bytes();
    let mut atoms = Vec::new();
    let mut para: Option<Range<usize>> = None;
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = bytes[line_start..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |p| line_start + p);
        match text::trim(src, line_start..line_end) {
            Some(line) => match &mut para {
                Some(p) => p.end = line.end,
                None => para = Some(line),
            },
            None => {
                if let Some(p) = para.take() {
                    push_paragraph(src, p, budget, &mut atoms);
                }
            }
        }
        line_start = line_end + 1;
    }
    if let Some(p) = para.take() {
        push_paragraph(src, p, budget, &mut atoms);
    }
    atoms
}

/// Adds a paragraph as one atom, or as line pieces when it is over budget.
fn push_paragraph(src: &str, para: Range<usize>, budget: usize, atoms: &mut Vec<Range<usize>>) {
    if para.end - para.start <= budget {
        atoms.push(para);
    } else {
        text::line_pieces(src, para, budget, &mut |piece| atoms.push(piece));
    }
}

/// Where the next chunk may start so as to repeat the tail of `prev`: the
/// earliest line start inside `prev` (after its first byte) from which at most
/// `overlap` bytes remain, moved forward past whitespace.
fn overlap_start(src: &str, prev: &Range<usize>, overlap: usize) -> Option<usize> {
    if overlap == 0 {
        return None;
    }
    let bytes = src.as_bytes();
    let mut best = None;
    let mut i = prev.end;
    while i > prev.start + 1 {
        i -= 1;
        if bytes[i - 1] == b'\n' {
            if prev.end - i > overlap {
                break;
            }
            best = Some(i);
        }
    }
    let from = text::trim(src, best?..prev.end)?.start;
    Some(from)
}
