//! Provides the byte-level helpers every chunking path shares: what counts as
//! whitespace, trimming ranges, snapping to char boundaries, mapping bytes to
//! lines and columns, splitting oversized text at line and char boundaries,
//! and building signatures.
//!
//! Keeping these in one place makes the chunk invariants (ranges on char
//! boundaries, gaps made of whitespace only, exact line numbers) hold the same
//! way for syntax-aware and fallback chunks.

use std::ops::Range;

/// Whether a byte is whitespace for chunking purposes.
///
/// Only ASCII whitespace counts. Non-ASCII spaces (U+00A0, U+3000) are treated
/// as content, so a chunk gap can never hide part of a multi-byte char.
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// Whether `src[range]` holds only whitespace (or nothing).
pub(crate) fn is_blank(src: &str, range: Range<usize>) -> bool {
    src.as_bytes().get(range).is_none_or(|bytes| bytes.iter().all(|b| is_ws(*b)))
}

/// Shrinks `range` to start and end at non-whitespace, or `None` if nothing
/// but whitespace is left. Out-of-bounds ends are clamped.
pub(crate) fn trim(src: &str, range: Range<usize>) -> Option<Range<usize>> {
    let bytes = src.as_bytes();
    let mut start = range.start.min(bytes.len());
    let mut end = range.end.min(bytes.len());
    while start < end && is_ws(bytes[start]) {
        start += 1;
    }
    while end > start && is_ws(bytes[end - 1]) {
        end -= 1;
    }
    (start < end).then_some(start..end)
}

/// The largest char boundary at or below `i` (clamped to the source length).
pub(crate) fn floor_char(src: &str, i: usize) -> usize {
    let mut i = i.min(src.len());
    while !src.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary at or above `i` (clamped to the source length).
pub(crate) fn ceil_char(src: &str, i: usize) -> usize {
    let mut i = i.min(src.len());
    while !src.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Byte offsets of line starts, for mapping bytes to 1-based lines.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `src` (one pass over its bytes).
    pub(crate) fn new(src: &str) -> Self {
        let mut starts = Vec::with_capacity(src.len() / 32 + 1);
        starts.push(0);
        starts.extend(src.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line holding byte `i`. A `'\n'` belongs to the line it ends.
    pub(crate) fn line_of(&self, i: usize) -> u32 {
        let line = self.starts.partition_point(|&s| s <= i);
        u32::try_from(line).unwrap_or(u32::MAX)
    }

    /// The 1-based line and char column of byte `i`.
    pub(crate) fn position(&self, src: &str, i: usize) -> (u32, u32) {
        let line = self.line_of(i);
        let start = self.starts.get((line as usize).saturating_sub(1)).copied().unwrap_or(0);
        let i = floor_char(src, i);
        let column = src.get(start..i).map_or(0, |s| s.chars().count());
        (line, u32::try_from(column + 1).unwrap_or(u32::MAX))
    }
}

/// Calls `emit` with pieces of `src[range]` no longer than `budget` bytes:
/// each non-blank line trimmed, and each line longer than the budget cut at
/// char boundaries. Used for leaves and gaps the syntax cannot split.
pub(crate) fn line_pieces(src: &str, range: Range<usize>, budget: usize, emit: &mut dyn FnMut(Range<usize>)) {
    let bytes = src.as_bytes();
    let end = range.end.min(bytes.len());
    let mut line_start = range.start.min(end);
    while line_start < end {
        let line_end = bytes[line_start..end].iter().position(|b| *b == b'\n').map_or(end, |p| line_start + p);
        if let Some(line) = trim(src, line_start..line_end) {
            char_pieces(src, line, budget, emit);
        }
        line_start = line_end + 1;
    }
}

/// Cuts `range` into pieces of at most `budget` bytes at char boundaries
/// (a piece holds at least one char, so progress is guaranteed even when the
/// budget is smaller than a char). Whitespace at the cut points is trimmed.
pub(crate) fn char_pieces(src: &str, range: Range<usize>, budget: usize, emit: &mut dyn FnMut(Range<usize>)) {
    let budget = budget.max(1);
    let mut start = range.start;
    while start < range.end {
        let mut cut = floor_char(src, start.saturating_add(budget).min(range.end));
        if cut <= start {
            cut = ceil_char(src, start + 1).min(range.end.max(start + 1));
        }
        if let Some(piece) = trim(src, start..cut) {
            emit(piece);
        }
        start = cut;
    }
}

/// Maximum length of a signature, in chars.
const SIGNATURE_CHARS: usize = 200;

/// Collapses runs of whitespace to single spaces, drops a trailing body
/// opener (`{`, `:`, `=`), and caps the result at about 200 chars.
pub(crate) fn signature(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(SIGNATURE_CHARS + 8));
    let mut chars = 0;
    let mut truncated = false;
    for word in text.split_ascii_whitespace() {
        if !out.is_empty() && chars + word.len() + 1 > SIGNATURE_CHARS * 2 {
            truncated = true;
            break;
        }
        if !out.is_empty() {
            out.push(' ');
            chars += 1;
        }
        out.push_str(word);
        chars += word.len();
    }
    let trimmed = strip_opener(&out);
    out.truncate(trimmed);
    if out.chars().count() > SIGNATURE_CHARS || truncated {
        let cut = out.char_indices().nth(SIGNATURE_CHARS).map_or(out.len(), |(i, _)| i);
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// The length of `s` without a trailing body opener and whitespace.
fn strip_opener(s: &str) -> usize {
    let t = s.trim_end();
    let bytes = t.as_bytes();
    let n = bytes.len();
    let strip = match bytes.last() {
        Some(b'{') => true,
        // `::` (a path) and `==`/`!=`/`<=`/`>=` are not openers.
        Some(b':') => n < 2 || bytes[n - 2] != b':',
        Some(b'=') => n < 2 || !matches!(bytes[n - 2], b'=' | b'!' | b'<' | b'>'),
        _ => false,
    };
    if strip { t[..n - 1].trim_end().len() } else { t.len() }
}
