//! Lines of a file's text, found only as far as they are asked for.
//!
//! A hit needs a few dozen lines of a file that may hold thousands; splitting the whole file
//! into lines for every hit was the largest CPU cost of assembling results. Line boundaries
//! are found with `memchr` up to the last line requested and remembered.
//!
//! Lines follow [`str::lines`]: split at `\n`, a `\r` before it dropped, no empty line after a
//! final newline.

/// Line access to one text.
pub(super) struct Lines<'a> {
    text: &'a str,
    /// Byte offsets where lines start, in order; the first is 0.
    starts: Vec<usize>,
    /// Every newline has been found.
    complete: bool,
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str) -> Lines<'a> {
        Lines { text, starts: vec![0], complete: false }
    }

    /// Finds line starts until line `index` (0-based) has one, or the text ends.
    fn find_through(&mut self, index: usize) {
        if self.starts.len() > index || self.complete {
            return;
        }
        let from = self.starts.last().copied().unwrap_or(0);
        let mut newlines = memchr::memchr_iter(b'\n', &self.text.as_bytes()[from..]);
        while self.starts.len() <= index {
            match newlines.next() {
                Some(at) => self.starts.push(from + at + 1),
                None => {
                    self.complete = true;
                    return;
                }
            }
        }
    }

    /// Line `index` (0-based), if the text has it.
    pub(super) fn get(&mut self, index: usize) -> Option<&'a str> {
        self.find_through(index + 1);
        let start = *self.starts.get(index)?;
        if start >= self.text.len() {
            return None;
        }
        Some(match self.starts.get(index + 1) {
            Some(&next) => {
                let line = &self.text[start..next - 1];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => &self.text[start..],
        })
    }

    /// Lines `from..to` (0-based, end exclusive) that exist.
    pub(super) fn range(&mut self, from: usize, to: usize) -> Vec<&'a str> {
        (from..to).map_while(|i| self.get(i)).collect()
    }

    /// Lines `start..=end` (1-based) joined with newlines.
    pub(super) fn slice(&mut self, start: u32, end: u32) -> String {
        self.range((start as usize).saturating_sub(1), end as usize).join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::Lines;

    #[test]
    fn lines_match_str_lines() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\n\nb\n", "x\ry\nz\r", "é\nü\n\n"] {
            let expected: Vec<&str> = text.lines().collect();
            let mut lines = Lines::new(text);
            assert_eq!(lines.range(0, expected.len() + 3), expected, "{text:?}");
            // Asking out of order gives the same lines.
            let mut lines = Lines::new(text);
            for i in (0..expected.len() + 2).rev() {
                assert_eq!(lines.get(i), expected.get(i).copied(), "{text:?} line {i}");
            }
        }
    }

    #[test]
    fn slices_are_one_based_and_inclusive() {
        let mut lines = Lines::new("one\ntwo\nthree\nfour\n");
        assert_eq!(lines.slice(2, 3), "two\nthree");
        assert_eq!(lines.slice(3, 9), "three\nfour");
        assert_eq!(lines.slice(0, 1), "one");
        assert_eq!(lines.slice(7, 9), "");
    }
}
