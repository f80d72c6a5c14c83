//! Provides [`Blanked`]: a copy of a source in which chosen byte ranges are
//! overwritten with spaces, for the parser's eyes only.
//!
//! Every byte of a blanked range becomes a space except line breaks, which
//! stay, so byte offsets, line numbers and columns of everything else are
//! those of the original text, and a tree parsed from the copy describes the
//! original. Ranges must start and end on char boundaries (the callers blank
//! ASCII tokens), which keeps the copy valid UTF-8.

use std::borrow::Cow;
use std::ops::Range;

/// A source with some ranges blanked; the copy is made on the first range.
pub(crate) struct Blanked<'a> {
    source: &'a str,
    copy: Option<Vec<u8>>,
}

impl<'a> Blanked<'a> {
    /// Starts with the source unchanged.
    pub(crate) fn new(source: &'a str) -> Self {
        Blanked { source, copy: None }
    }

    /// Overwrites `range` with spaces, keeping `\n` and `\r`. A range that is
    /// out of bounds or not on char boundaries is ignored.
    pub(crate) fn blank(&mut self, range: Range<usize>) {
        let source = self.source;
        if range.start >= range.end
            || !source.is_char_boundary(range.start)
            || !source.is_char_boundary(range.end)
            || range.end > source.len()
        {
            return;
        }
        let copy = self.copy.get_or_insert_with(|| source.as_bytes().to_vec());
        for byte in &mut copy[range] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b' ';
            }
        }
    }

    /// Overwrites the bytes at `start` with `text` (ASCII, no line breaks, of
    /// the same length as what it covers). Out of bounds is ignored.
    pub(crate) fn overwrite(&mut self, start: usize, text: &[u8]) {
        let source = self.source;
        let end = start + text.len();
        if end > source.len() || !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            return;
        }
        let copy = self.copy.get_or_insert_with(|| source.as_bytes().to_vec());
        copy[start..end].copy_from_slice(text);
    }

    /// The text to parse: the source itself when nothing was blanked.
    pub(crate) fn finish(self) -> Cow<'a, str> {
        match self.copy {
            None => Cow::Borrowed(self.source),
            // Only whole chars were replaced by ASCII spaces, so this never fails;
            // if it somehow did, parsing the original is the safe answer.
            Some(bytes) => String::from_utf8(bytes).map_or(Cow::Borrowed(self.source), Cow::Owned),
        }
    }
}
