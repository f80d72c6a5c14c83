//! Searching one file with `grep-searcher`, collecting its lines for the presenters.

use std::io::Read;
use std::ops::Range;

use grep_matcher::{Captures, Matcher};
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkError, SinkMatch};

use super::{Enclosing, GrepRequest, Polarity, Report, skip_reason_of_read};
use crate::discover::{Candidate, ProjectFiles, ReadRefused, SkipReason};

/// The matches of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMatches {
    /// Path relative to the project root, `/`-separated.
    pub path: String,
    /// The file's language, when cocosearch knows it.
    pub language: Option<&'static str>,
    /// Matching lines (inverted: non-matching ones), as rg counts them for `-c`.
    pub count: u64,
    /// The lines to show (matches and their context) in file order; empty for `-l` and `-c`.
    pub lines: Vec<Line>,
    /// For each matching line (same order), the definition it lies in, when an index knows.
    pub enclosing: Vec<Option<Enclosing>>,
    /// The file changed since it was indexed, so no definition is named for it.
    pub stale: bool,
    /// Size and modification time when walked (ns since the epoch), to compare with the index.
    pub size: u64,
    /// See `size`.
    pub mtime_ns: i64,
}

/// One line shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: u64,
    /// The line's bytes without its line terminator (not always UTF-8).
    pub text: Vec<u8>,
    /// A match or context.
    pub kind: LineKind,
    /// Lines were left out between the previous line shown and this one (rg's `--`).
    pub gap_before: bool,
}

/// What a shown line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// A matching line (for `-v`, a line that does not match).
    Match {
        /// 1-based byte column of the first match (rg's `--column`); `None` for `-v`. Every
        /// line of a multi-line match carries the match's column, as rg's does.
        column: Option<u64>,
        /// Byte ranges of the matches within `text`.
        ranges: Vec<Range<usize>>,
        /// The line continues the match of the line before (one multi-line match).
        joined: bool,
    },
    /// A context line (`-A`/`-B`/`-C`).
    Context,
}

impl Line {
    /// Whether this is a matching line.
    pub fn is_match(&self) -> bool {
        matches!(self.kind, LineKind::Match { .. })
    }
}

/// What searching one file came to.
pub(super) enum Outcome {
    /// Not searched: the request's limit was reached.
    NotSearched,
    /// Not searched or given up: why.
    Skipped(SkipReason),
    /// It could not be read (its path, and the operating system's words): reported, as rg
    /// reports it, not only counted.
    Failed(String, String),
    /// Searched, nothing matched.
    NoMatch,
    /// Searched, with matches.
    Matched(FileMatches),
}

/// The searcher of a request: rg's defaults (line numbers, binary files given up at the first
/// NUL byte), the request's context, inversion, per-file limit and multi-line mode.
pub(super) fn searcher(request: &GrepRequest) -> Searcher {
    let lines = request.report == Report::Lines;
    let max = match request.report {
        Report::Files => Some(1),
        Report::Lines | Report::Count => request.max_count,
    };
    SearcherBuilder::new()
        .line_number(true)
        .binary_detection(BinaryDetection::quit(0))
        .invert_match(request.polarity == Polarity::Inverted)
        .multi_line(request.pattern.multiline)
        .before_context(if lines { request.before } else { 0 })
        .after_context(if lines { request.after } else { 0 })
        .max_matches(max)
        .build()
}

/// Searches `candidate`, opened through `files` (never outside the project).
pub(super) fn search(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    files: &ProjectFiles,
    candidate: &Candidate,
    request: &GrepRequest,
    max_file_size: u64,
) -> Outcome {
    let (file, meta) = match files.open_walked(&candidate.within) {
        Ok(opened) => opened,
        Err(ReadRefused::Io { source, .. }) => return Outcome::Failed(candidate.relative.clone(), source.to_string()),
        Err(refused) => return Outcome::Skipped(skip_reason_of_read(&refused)),
    };
    // It may have grown since the walk; the cap holds for what is read, too.
    if meta.len() > max_file_size {
        return Outcome::Skipped(SkipReason::TooLarge);
    }
    let reader = file.take(max_file_size.saturating_add(1));
    let source = Source { relative: &candidate.relative, size: candidate.size, mtime_ns: candidate.mtime_ns };
    search_with(matcher, request, &source, |matcher, sink| searcher.search_reader(matcher, reader, sink))
}

/// A file's name and what was recorded of it, for its [`FileMatches`].
pub(super) struct Source<'a> {
    /// Path relative to the project root.
    pub relative: &'a str,
    /// Size when walked or stored.
    pub size: u64,
    /// Modification time when walked or stored, ns since the epoch.
    pub mtime_ns: i64,
}

/// Searches text already in memory (a stored file, `grep --at`).
pub(super) fn search_bytes(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    source: &Source<'_>,
    bytes: &[u8],
    request: &GrepRequest,
) -> Outcome {
    search_with(matcher, request, source, |matcher, sink| searcher.search_slice(matcher, bytes, sink))
}

/// Runs `search` (the searcher over one file's bytes) into a collecting sink.
fn search_with(
    matcher: &RegexMatcher,
    request: &GrepRequest,
    source: &Source<'_>,
    search: impl FnOnce(&RegexMatcher, &mut Collect<'_>) -> Result<(), Failed>,
) -> Outcome {
    let mut sink = Collect {
        matcher,
        replace: request.replace.as_deref(),
        keep_lines: request.report == Report::Lines,
        inverted: request.polarity == Polarity::Inverted,
        count: 0,
        lines: Vec::new(),
        gap: false,
        binary: false,
    };
    if let Err(e) = search(matcher, &mut sink) {
        tracing::debug!(path = %source.relative, error = %e.0, "search failed");
        return Outcome::Failed(source.relative.to_string(), e.0);
    }
    if sink.binary {
        return Outcome::Skipped(SkipReason::Binary);
    }
    if sink.count == 0 {
        return Outcome::NoMatch;
    }
    let language = crate::chunk::Language::detect(std::path::Path::new(source.relative), "").map(|l| l.name());
    Outcome::Matched(FileMatches {
        path: source.relative.to_string(),
        language,
        count: sink.count,
        lines: sink.lines,
        enclosing: Vec::new(),
        stale: false,
        size: source.size,
        mtime_ns: source.mtime_ns,
    })
}

/// The sink's error: a message (I/O errors of the read, mostly).
#[derive(Debug)]
pub(super) struct Failed(String);

impl SinkError for Failed {
    fn error_message<T: std::fmt::Display>(message: T) -> Failed {
        Failed(message.to_string())
    }
}

/// Collects a file's lines; a file found to hold a NUL byte is given up whole, as the index
/// gives it up.
struct Collect<'m> {
    matcher: &'m RegexMatcher,
    /// `--replace`: each match's text in the lines reported.
    replace: Option<&'m [u8]>,
    keep_lines: bool,
    inverted: bool,
    count: u64,
    lines: Vec<Line>,
    gap: bool,
    binary: bool,
}

impl Sink for Collect<'_> {
    type Error = Failed;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Failed> {
        let first = mat.line_number().unwrap_or(0);
        let bytes = mat.bytes();
        let mut ranges = Vec::new();
        if !self.inverted && self.keep_lines {
            self.matcher
                .find_iter(bytes, |m| {
                    // An empty match at the very end (after the last line terminator) shows nothing.
                    if m.start() < bytes.len() || m.is_empty() {
                        ranges.push(m.start()..m.end());
                    }
                    true
                })
                .map_err(|e| Failed(e.to_string()))?;
        }
        let replacements = match self.replace {
            Some(replacement) => ranges
                .iter()
                .map(|r| interpolate(self.matcher, bytes, r.start, replacement))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        let column = if self.inverted {
            None
        } else {
            let start = ranges.first().map_or(0, |r| r.start);
            let line_start = bytes[..start].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            Some((start - line_start) as u64 + 1)
        };
        let mut offset = 0;
        for (i, line) in mat.lines().enumerate() {
            self.count += 1;
            if !self.keep_lines {
                offset += line.len();
                continue;
            }
            let text = strip_terminator(line);
            let span = offset..offset + text.len();
            // Each match's piece on this line, with the match it belongs to and whether it
            // starts here.
            let pieces: Vec<(usize, Range<usize>, bool)> = ranges
                .iter()
                .enumerate()
                .filter(|(_, r)| {
                    (r.start < span.end && r.end > span.start) || (r.is_empty() && span.contains(&r.start))
                })
                .map(|(m, r)| {
                    (m, r.start.max(span.start) - span.start..r.end.min(span.end) - span.start, r.start >= span.start)
                })
                .collect();
            let (text, here) = match self.replace {
                Some(_) => replaced(text, &pieces, &replacements),
                None => (text.to_vec(), pieces.into_iter().map(|(_, piece, _)| piece).collect()),
            };
            self.lines.push(Line {
                number: first + i as u64,
                text,
                kind: LineKind::Match { column, ranges: here, joined: i > 0 },
                gap_before: std::mem::take(&mut self.gap),
            });
            offset += line.len();
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, context: &SinkContext<'_>) -> Result<bool, Failed> {
        if self.keep_lines {
            self.lines.push(Line {
                number: context.line_number().unwrap_or(0),
                text: strip_terminator(context.bytes()).to_vec(),
                kind: LineKind::Context,
                gap_before: std::mem::take(&mut self.gap),
            });
        }
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, Failed> {
        self.gap = !self.lines.is_empty();
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, Failed> {
        self.binary = true;
        Ok(false)
    }
}

/// The replacement of the match starting at `at` in `bytes`: `replacement` with the match's
/// groups (`$1`, `${name}`) put in, as rg's `--replace` does.
fn interpolate(matcher: &RegexMatcher, bytes: &[u8], at: usize, replacement: &[u8]) -> Result<Vec<u8>, Failed> {
    let failed = |e: grep_matcher::NoError| Failed(e.to_string());
    let mut captures = matcher.new_captures().map_err(failed)?;
    let mut out = Vec::with_capacity(replacement.len());
    if matcher.captures_at(bytes, at, &mut captures).map_err(failed)? {
        captures.interpolate(|name| matcher.capture_index(name), bytes, replacement, &mut out);
    } else {
        out.extend_from_slice(replacement);
    }
    Ok(out)
}

/// `text` with each match replaced: a match's replacement where it starts, and what it spans
/// on a later line (a multi-line match) left out; the replacements' ranges in the new text.
fn replaced(
    text: &[u8],
    pieces: &[(usize, Range<usize>, bool)],
    replacements: &[Vec<u8>],
) -> (Vec<u8>, Vec<Range<usize>>) {
    let (mut out, mut ranges, mut at) = (Vec::with_capacity(text.len()), Vec::new(), 0);
    for (m, piece, starts) in pieces {
        if piece.start < at {
            continue;
        }
        out.extend_from_slice(&text[at..piece.start]);
        if *starts && let Some(replacement) = replacements.get(*m) {
            let start = out.len();
            out.extend_from_slice(replacement);
            ranges.push(start..out.len());
        }
        at = piece.end;
    }
    out.extend_from_slice(&text[at..]);
    (out, ranges)
}

/// `line` without its `\n` (a `\r` before it stays, as rg shows it).
fn strip_terminator(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}
