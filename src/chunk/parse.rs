//! Provides parsing with a deadline and the list of syntax errors in a tree.
//!
//! The deadline uses tree-sitter 0.27's progress callback
//! (`Parser::parse_with_options`), which replaced the deprecated timeout API;
//! a cancelled parse returns `None` and the caller falls back to text chunks.

use std::ops::ControlFlow;
use std::ops::Range;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, ParseState, Parser, Tree};

/// Parses `source`, giving up after `timeout`.
///
/// Returns `None` when the parse was cancelled or failed; the parser is reset
/// so that the next call starts from scratch instead of resuming.
pub(crate) fn parse(parser: &mut Parser, source: &str, timeout: Duration) -> Option<Tree> {
    let started = Instant::now();
    let mut progress = |_: &ParseState| {
        if started.elapsed() >= timeout { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let bytes = source.as_bytes();
    let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    if tree.is_none() {
        parser.reset();
    }
    tree
}

/// A syntax error node: its byte range and whether it is an `ERROR` node
/// (unexpected text) or a zero-width `MISSING` node (an invented token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ErrorSpan {
    pub(crate) range: Range<usize>,
    pub(crate) kind: &'static str,
}

/// Collects the outermost `ERROR` nodes and all `MISSING` nodes outside them,
/// in source order.
///
/// The walk is iterative (no recursion on deep trees) and only descends into
/// subtrees whose `has_error()` is set, so a clean file costs one check.
///
/// An `ERROR` node the language's `tolerate` hook accepts (a grammar limitation, not a
/// syntax error) is left out, with what it holds.
pub(crate) fn collect_errors(
    root: Node<'_>,
    src: &str,
    tolerate: Option<fn(Node<'_>, &str) -> bool>,
) -> Vec<ErrorSpan> {
    let mut errors = Vec::new();
    if !root.has_error() {
        return errors;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let mut descend = false;
        if node.is_error() && tolerate.is_some_and(|tolerated| tolerated(node, src)) {
            // Neither counted nor searched for nested errors.
        } else if node.is_error() {
            errors.push(ErrorSpan { range: node.start_byte()..node.end_byte(), kind: "error" });
        } else if node.is_missing() {
            errors.push(ErrorSpan { range: node.start_byte()..node.end_byte(), kind: "missing" });
        } else {
            descend = node.has_error();
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        // Move to the next sibling, climbing up as far as needed.
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return errors;
            }
        }
    }
}

/// How many bytes the syntax errors of a tree cover (a `MISSING` node counts
/// one): the measure by which the chunker picks the better of two parses.
pub(crate) fn error_bytes(root: Node<'_>) -> usize {
    collect_errors(root, "", None).iter().map(|e| e.range.len().max(1)).sum()
}
