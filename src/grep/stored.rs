//! Grep at a snapshot (`--at`): the files a snapshot stored, not the ones on disk.
//!
//! A stored file is its chunks, and chunks are exact slices of the file separated by
//! whitespace only (see [`crate::store::StoredChunk::ordinal`]), so the text is rebuilt from
//! them: every non-blank line comes back byte for byte, on its own line number. What no chunk
//! holds is whitespace whose exact bytes were not kept; it comes back as line breaks and
//! spaces (tabs, when that gives back the recorded content hash). The walk is the snapshot's
//! list of files, filtered as the disk walk is (paths, globs, languages); nothing is read from
//! disk, so a snapshot of another branch is searched as it was.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::file::{self, Outcome, Source};
use super::{GrepError, GrepRequest, GrepSummary, matcher, wanted};
use crate::discover::SkipCounts;
use crate::store::{FileState, IndexReader, StoredChunk};

/// Stored files rebuilt and searched together.
const BATCH: usize = 128;

/// Greps the files of the snapshot `reader` was opened at, for the project at `root`, and
/// hands each matching file to `emit` in path order.
pub fn grep_stored(
    reader: &dyn IndexReader,
    root: &Path,
    request: &GrepRequest,
    mut emit: impl FnMut(super::FileMatches) -> ControlFlow<()>,
) -> Result<GrepSummary, GrepError> {
    let started = Instant::now();
    let matcher = matcher::build(&request.pattern)?;
    let (files, mut summary) = stored_files(reader, root, request)?;
    'batches: for batch in files.chunks(BATCH) {
        if request.limit.is_some_and(|limit| summary.matched_lines >= limit) {
            summary.cut = true;
            break;
        }
        let paths: Vec<String> =
            batch.iter().filter(|(_, s)| s.skip_reason.is_none()).map(|(p, _)| p.clone()).collect();
        let mut chunks: BTreeMap<String, Vec<StoredChunk>> = BTreeMap::new();
        for chunk in reader.file_chunks(&paths)? {
            chunks.entry(chunk.path.clone()).or_default().push(chunk);
        }
        let outcomes: Vec<Outcome> = batch
            .par_iter()
            .map_init(
                || file::searcher(request),
                |searcher, (path, state)| {
                    if let Some(reason) = state.skip_reason {
                        return Outcome::Skipped(reason);
                    }
                    let text = rebuild(chunks.get(path).map_or(&[][..], Vec::as_slice), state);
                    let source = Source { relative: path, size: state.size, mtime_ns: state.mtime_ns };
                    file::search_bytes(searcher, &matcher, &source, &text, request)
                },
            )
            .collect();
        for outcome in outcomes {
            if summary.tally(outcome, &mut emit).is_break() {
                break 'batches;
            }
        }
    }
    summary.took_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(summary)
}

/// The paths of the snapshot `reader` was opened at that a grep of `request` searches, in
/// path order (`cocosearch grep --files --at`).
pub fn stored_paths(reader: &dyn IndexReader, root: &Path, request: &GrepRequest) -> Result<Vec<String>, GrepError> {
    let (files, _) = stored_files(reader, root, request)?;
    Ok(files.into_iter().filter(|(_, s)| s.skip_reason.is_none()).map(|(p, _)| p).collect())
}

/// The snapshot's files the request keeps, by path, and the summary so far (paths given that
/// lie outside the project).
fn stored_files(
    reader: &dyn IndexReader,
    root: &Path,
    request: &GrepRequest,
) -> Result<(Vec<(String, FileState)>, GrepSummary), GrepError> {
    let overrides = super::globs(root, &request.globs)?;
    let mut summary = GrepSummary { skipped: SkipCounts::default(), ..GrepSummary::default() };
    // The paths given, relative to the root; one outside it is reported, not searched.
    let mut scopes: Vec<String> = Vec::new();
    for path in &request.paths {
        let absolute = if path.is_absolute() { path.clone() } else { root.join(path) };
        match absolute.strip_prefix(root) {
            Ok(relative) => scopes.push(relative.to_string_lossy().replace('\\', "/")),
            Err(_) => summary.outside.push(path.clone()),
        }
    }
    if !request.paths.is_empty() && scopes.is_empty() {
        return Ok((Vec::new(), summary));
    }
    let mut files: Vec<(String, FileState)> = reader
        .file_states(None)?
        .into_iter()
        .filter(|(path, _)| scopes.is_empty() || scopes.iter().any(|s| within(path, s)))
        .filter(|(path, _)| wanted(&root.join(path), path, &overrides, &request.languages, root))
        .collect();
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok((files, summary))
}

/// Whether `path` is `scope` or lies beneath it (`""`: the root, everything).
fn within(path: &str, scope: &str) -> bool {
    let scope = scope.trim_end_matches('/');
    scope.is_empty() || path == scope || path.strip_prefix(scope).is_some_and(|rest| rest.starts_with('/'))
}

/// Where the whitespace between two chunks that is not line breaks goes.
#[derive(Clone, Copy)]
enum Residue {
    /// Before the next chunk, on its line: indentation (the usual case).
    Indent,
    /// After the first line break: a blank line's whitespace (when the gap has two breaks).
    BlankLine,
    /// Before the line breaks: trailing whitespace of the line the gap starts on.
    Trailing,
}

/// What that whitespace is made of.
#[derive(Clone, Copy)]
enum Fill {
    /// What the lines around the gap are indented with.
    Nearby,
    /// Tabs, wherever a line starts.
    Tabs,
}

/// A stored file's text from its chunks (see the module's note): the chunks in file order,
/// overlaps taken once, and each gap between them rebuilt from what is known of it (its
/// length, the line the next chunk starts on, the file's line ending, the indentation nearby).
/// Where the whitespace that is not line breaks went is a guess, checked against the recorded
/// content hash; when no guess gives it back, the first stands and only whitespace differs.
fn rebuild(chunks: &[StoredChunk], state: &FileState) -> Vec<u8> {
    let mut ordered: Vec<&StoredChunk> = chunks.iter().collect();
    ordered.sort_unstable_by_key(|c| (c.body.byte_start, c.ordinal));
    let crlf = ordered.iter().any(|c| c.body.content.contains("\r\n"));
    let with = |fill: Fill, residue: Residue| {
        let mut text: Vec<u8> = Vec::with_capacity(state.size as usize);
        let mut line = 1u64;
        for chunk in &ordered {
            let body = &chunk.body;
            let (start, content) = (body.byte_start as usize, body.content.as_bytes());
            if start > text.len() {
                let gap = start - text.len();
                let breaks = u64::from(body.line_start).saturating_sub(line) as usize;
                let ending: &[u8] = if crlf && 2 * breaks <= gap { b"\r\n" } else { b"\n" };
                let breaks = breaks.min(gap / ending.len());
                let before = match residue {
                    Residue::Indent => breaks,
                    Residue::BlankLine => breaks.min(1),
                    Residue::Trailing => 0,
                };
                let byte = match fill {
                    // Within a line (a chunk cut between words), a space.
                    _ if breaks == 0 => b' ',
                    Fill::Nearby => indent_byte(content, &text),
                    Fill::Tabs => b'\t',
                };
                text.extend(ending.repeat(before));
                text.extend(std::iter::repeat_n(byte, gap - breaks * ending.len()));
                text.extend(ending.repeat(breaks - before));
                line += breaks as u64;
            }
            let skip = text.len().saturating_sub(start).min(content.len());
            let rest = &content[skip..];
            line += rest.iter().filter(|&&b| b == b'\n').count() as u64;
            text.extend_from_slice(rest);
        }
        // What follows the last chunk is whitespace: line breaks, mostly a single one.
        let tail = (state.size as usize).saturating_sub(text.len());
        if crlf && tail.is_multiple_of(2) {
            text.extend(b"\r\n".repeat(tail / 2));
        } else {
            text.extend(std::iter::repeat_n(b'\n', tail));
        }
        text
    };
    let first = with(Fill::Nearby, Residue::Indent);
    if *blake3::hash(&first).as_bytes() == state.hash {
        return first;
    }
    [(Fill::Nearby, Residue::BlankLine), (Fill::Nearby, Residue::Trailing), (Fill::Tabs, Residue::Indent)]
        .into_iter()
        .map(|(fill, residue)| with(fill, residue))
        .find(|text| *blake3::hash(text).as_bytes() == state.hash)
        .unwrap_or(first)
}

/// The byte a gap's indentation is most likely made of: the first indentation of the chunk
/// after it (past its first line), else the last in the few kilobytes before it, else a space.
fn indent_byte(next: &[u8], before: &[u8]) -> u8 {
    const LOOK_BACK: usize = 4096;
    let leading = |line: &[u8]| line.first().copied().filter(|b| *b == b' ' || *b == b'\t');
    let near = &before[before.len().saturating_sub(LOOK_BACK)..];
    next.split(|&b| b == b'\n')
        .skip(1)
        .find_map(leading)
        .or_else(|| near.rsplit(|&b| b == b'\n').find_map(leading))
        .unwrap_or(b' ')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::ParseStatus;
    use crate::store::ChunkBody;

    /// Chunks of `text` as the chunker cuts it: the given byte ranges, exact slices.
    fn chunks_of(text: &str, ranges: &[(usize, usize)]) -> Vec<StoredChunk> {
        ranges
            .iter()
            .enumerate()
            .map(|(i, &(start, end))| {
                let line_start = text[..start].matches('\n').count() as u32 + 1;
                let line_end = line_start + text[start..end].trim_end_matches('\n').matches('\n').count() as u32;
                StoredChunk {
                    id: i as i64,
                    path: "f.py".into(),
                    ordinal: i as u32,
                    language: "python".into(),
                    body: ChunkBody {
                        byte_start: start as u32,
                        byte_end: end as u32,
                        line_start,
                        line_end,
                        content: text[start..end].to_string(),
                        symbol_type: None,
                        symbol_name: None,
                        qualified_name: None,
                        signature: None,
                        symbols: Vec::new(),
                        context: String::new(),
                        enclosing: None,
                        parse_status: ParseStatus::Ok,
                    },
                }
            })
            .collect()
    }

    /// `text` rebuilt from the chunks cut at `cuts`.
    fn rebuilt(text: &str, cuts: &[(usize, usize)]) -> String {
        String::from_utf8(rebuild(&chunks_of(text, cuts), &state_of(text))).unwrap()
    }

    fn state_of(text: &str) -> FileState {
        FileState {
            size: text.len() as u64,
            mtime_ns: 0,
            hash: *blake3::hash(text.as_bytes()).as_bytes(),
            skip_reason: None,
            chunking: None,
        }
    }

    #[test]
    fn a_file_comes_back_whole_from_chunks_with_gaps_and_overlaps() {
        let text = "import os\n\n\nclass A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n";
        let class = text.find("class").unwrap();
        let g = text.find("def g").unwrap();
        // The import; the class up to f's end (overlapping g's start is allowed); g alone.
        assert_eq!(rebuilt(text, &[(0, 9), (class, g + 3), (g, text.len() - 1)]), text);
    }

    #[test]
    fn tab_indentation_between_chunks_comes_back_when_the_hash_says_so() {
        let text = "func a() {\n}\n\n\tfunc b() {}\n";
        let b = text.find("func b").unwrap();
        assert_eq!(rebuilt(text, &[(0, 12), (b, text.len() - 1)]), text);
    }

    #[test]
    fn a_blank_lines_whitespace_between_chunks_comes_back_when_the_hash_says_so() {
        let text = "a = 1\n    \nb = 2\n";
        let b = text.find("b =").unwrap();
        assert_eq!(rebuilt(text, &[(0, 5), (b, text.len() - 1)]), text);
    }

    #[test]
    fn crlf_line_breaks_and_a_chunk_cut_between_words_come_back() {
        // Tab-indented code nearby, yet the cut inside a line was a space.
        let text = "x := 1\r\n\r\n\ty := 2\r\n// one two\r\n";
        let y = text.find("y :=").unwrap();
        let two = text.find("two").unwrap();
        assert_eq!(rebuilt(text, &[(0, 6), (y, two - 1), (two, text.len() - 2)]), text);
    }

    #[test]
    fn unknown_whitespace_still_keeps_every_line_on_its_number() {
        // Mixed whitespace on a blank line: no guess gives it back, but lines stay put.
        let text = "a = 1\n  \t \nb = 2\n";
        let b = text.find("b =").unwrap();
        let back = rebuilt(text, &[(0, 5), (b, text.len() - 1)]);
        assert_ne!(back, text);
        assert_eq!(back.lines().nth(2).map(str::trim), Some("b = 2"));
        assert_eq!(back.len(), text.len());
    }

    #[test]
    fn scopes_hold_their_own_paths_only() {
        assert!(within("src/a.py", "src"));
        assert!(within("src/a.py", "src/"));
        assert!(within("src/a.py", "src/a.py"));
        assert!(within("src/a.py", ""));
        assert!(!within("srcx/a.py", "src"));
    }
}
