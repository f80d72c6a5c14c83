//! From fused candidates to hits: fetch the chunks, merge neighbouring chunks of a file into
//! one hit, read context from disk, and flag files that changed since they were indexed.
//!
//! Files are read through [`ProjectFiles`] only, so a hit never shows a line from outside its
//! index's root: a file that became a link leading out of the project since it was indexed
//! keeps the text stored at indexing time, is marked stale, and gets a warning.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use lru::LruCache;

use super::fuse::Fused;
use super::lines::Lines;
use super::readers::Readers;
use super::{ContextOptions, Hit};
use crate::chunk::{Language, ParseStatus, SymbolKind};
use crate::discover::{ProjectFiles, ReadRefused, mtime_ns};
use crate::store::glob::NameGlob;
use crate::store::{ChunkBody, FileState, IndexMeta, StoreError, StoredChunk, SymbolRecord};

/// Chunks fetched per requested hit: extra ones may merge into earlier hits.
const FETCH_FACTOR: usize = 3;

/// What the hits should point at: symbols the query names, or that the name filter selects.
pub(super) struct Focus<'a> {
    /// Lowercase names from the query.
    pub names: &'a [String],
    /// The `--symbol-name` glob, case-insensitive.
    pub name_glob: Option<&'a NameGlob>,
}

impl Focus<'_> {
    fn pick<'s>(&self, symbols: &'s [SymbolRecord]) -> Option<&'s SymbolRecord> {
        symbols
            .iter()
            .find(|s| s.keys().iter().any(|k| self.names.contains(k)))
            .or_else(|| self.name_glob.and_then(|g| symbols.iter().find(|s| g.is_match(&s.name))))
    }
}

/// Chunks of one file that are neighbours (consecutive ordinals) and all scored.
struct Group<'a> {
    meta: &'a IndexMeta,
    path: &'a str,
    first: u32,
    last: u32,
    chunks: Vec<(&'a StoredChunk, &'a Fused)>,
}

impl Group<'_> {
    fn touches(&self, index: &str, path: &str, first: u32, last: u32) -> bool {
        self.meta.name == index && self.path == path && first <= self.last + 1 && last + 1 >= self.first
    }
}

/// Whether the chunks retrieved were all still there to assemble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Consistent {
    Yes,
    /// Some were gone: an index run replaced them since they were retrieved.
    Rewritten,
}

/// Builds up to `limit` hits from candidates sorted best first; a hit's chunks, lines and label
/// are the same whatever `limit` is (up to [`STABLE_HITS`](super::STABLE_HITS)).
pub(super) fn assemble(
    readers: &Readers,
    candidates: &[(&IndexMeta, Fused)],
    limit: usize,
    options: &ContextOptions,
    focus: &Focus<'_>,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Hit>, Consistent), StoreError> {
    let window = &candidates[..candidates.len().min(limit.max(super::STABLE_HITS) * FETCH_FACTOR)];
    let mut chunks: HashMap<(String, i64), StoredChunk> = HashMap::new();
    let mut by_index: HashMap<&str, Vec<i64>> = HashMap::new();
    for (meta, f) in window {
        by_index.entry(meta.name.as_str()).or_default().push(f.id);
    }
    for (index, ids) in by_index {
        for chunk in readers.get(index)?.chunks(&ids)? {
            chunks.insert((index.to_string(), chunk.id), chunk);
        }
    }

    let all_there = window.iter().all(|(meta, f)| chunks.contains_key(&(meta.name.clone(), f.id)));
    let consistent = if all_there { Consistent::Yes } else { Consistent::Rewritten };

    let mut groups: Vec<Group<'_>> = Vec::new();
    for (meta, f) in window {
        let Some(chunk) = chunks.get(&(meta.name.clone(), f.id)) else { continue };
        match groups.iter().position(|g| g.touches(&meta.name, &chunk.path, chunk.ordinal, chunk.ordinal)) {
            Some(i) => {
                let g = &mut groups[i];
                g.first = g.first.min(chunk.ordinal);
                g.last = g.last.max(chunk.ordinal);
                g.chunks.push((chunk, f));
            }
            None => groups.push(Group {
                meta,
                path: &chunk.path,
                first: chunk.ordinal,
                last: chunk.ordinal,
                chunks: vec![(chunk, f)],
            }),
        }
    }
    // Growing a group can make it touch a later one: fold those together.
    let mut i = 0;
    while i < groups.len() {
        let (index, path, first, last) = (groups[i].meta.name.clone(), groups[i].path, groups[i].first, groups[i].last);
        match (0..i).find(|&j| groups[j].touches(&index, path, first, last)) {
            Some(j) => {
                let later = groups.remove(i);
                groups[j].first = groups[j].first.min(later.first);
                groups[j].last = groups[j].last.max(later.last);
                groups[j].chunks.extend(later.chunks);
            }
            None => i += 1,
        }
    }

    // Every group of the window is formed before the first `limit` are taken, so which chunks
    // join a hit does not depend on the limit.
    groups.truncate(limit);
    let mut hits: Vec<Hit> = groups.into_iter().map(|g| hit(g, focus)).collect();
    add_disk_context(readers, &mut hits, options, warnings)?;
    Ok((hits, consistent))
}

/// The definition a chunk is about: of those in it, the one holding most of its lines (a chunk
/// with the tail of one method and the whole of the next is about the next); the first on a tie
/// or when no line is known.
fn label(chunk: &ChunkBody) -> Option<&SymbolRecord> {
    let held = |s: &SymbolRecord| match (s.start_line, s.end_line) {
        (Some(start), Some(end)) => (end.min(chunk.line_end) + 1).saturating_sub(start.max(chunk.line_start)),
        _ => 0,
    };
    let mut best: Option<(&SymbolRecord, u32)> = None;
    for symbol in &chunk.symbols {
        let lines = held(symbol);
        if best.is_none_or(|(_, most)| lines > most) {
            best = Some((symbol, lines));
        }
    }
    best.map(|(symbol, _)| symbol)
}

/// One hit from a group: its lines, best scores, and the symbol it is about.
fn hit(mut group: Group<'_>, focus: &Focus<'_>) -> Hit {
    group.chunks.sort_by_key(|(c, _)| c.ordinal);
    let best = group.chunks.iter().max_by(|a, b| a.1.score.total_cmp(&b.1.score)).map(|(c, _)| *c);
    let all_symbols: Vec<&SymbolRecord> = group.chunks.iter().flat_map(|(c, _)| c.body.symbols.iter()).collect();
    let focused = group.chunks.iter().find_map(|(c, _)| focus.pick(&c.body.symbols).map(|s| (s, *c)));
    // A named symbol is shown alone: the group's chunks that hold none of its lines (a class
    // head and the methods before it) are left out, so its label is what the hit shows.
    let shown: Vec<&StoredChunk> = match focused.and_then(|(s, _)| s.start_line.zip(s.end_line)) {
        Some((s_start, s_end)) => group
            .chunks
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| c.body.line_end >= s_start && c.body.line_start <= s_end)
            .collect(),
        None => group.chunks.iter().map(|(c, _)| *c).collect(),
    };
    let symbol =
        focused.map(|(s, _)| s).or_else(|| best.and_then(|c| label(&c.body))).or_else(|| all_symbols.first().copied());
    let (first, last) = (shown.first().copied(), shown.last().copied());
    let (mut start_line, mut end_line) = (first.map_or(1, |c| c.body.line_start), last.map_or(1, |c| c.body.line_end));
    let mut content = shown.iter().map(|c| c.body.content.as_str()).collect::<Vec<_>>().join("\n");
    // A single chunk whose named symbol starts inside it narrows to that symbol: to its end,
    // or to the chunk's when it goes on past it (the smart context then grows the hit to the
    // whole definition, from the file), so the hit never shows unrelated lines above the
    // definition it is labelled with.
    if let (Some((s, chunk)), 1) = (focused, shown.len())
        && let Some((s_start, s_end)) = s.start_line.zip(s.end_line)
        && (chunk.body.line_start..=chunk.body.line_end).contains(&s_start)
    {
        let s_end = s_end.min(chunk.body.line_end);
        start_line = s_start;
        end_line = s_end;
        let skip = (s_start - chunk.body.line_start) as usize;
        content =
            chunk.body.content.lines().skip(skip).take((s_end - s_start + 1) as usize).collect::<Vec<_>>().join("\n");
    }
    let max_opt = |pick: fn(&Fused) -> Option<f64>| group.chunks.iter().filter_map(|(_, f)| pick(f)).reduce(f64::max);
    // The first status that is not ok, as the hit's.
    let parse_status = group
        .chunks
        .iter()
        .map(|(c, _)| c.body.parse_status)
        .find(|s| *s != ParseStatus::Ok)
        .unwrap_or(ParseStatus::Ok);
    Hit {
        index: group.meta.name.clone(),
        root: group.meta.root.clone(),
        path: group.path.to_string(),
        start_line,
        end_line,
        language: best.map(|c| c.language.clone()).unwrap_or_default(),
        symbol_type: symbol.map(|s| s.kind),
        symbol_name: symbol.map(|s| s.name.clone()),
        qualified_name: symbol.map(|s| s.qualified_name.clone()),
        signature: symbol.map(|s| s.signature.clone()),
        symbols: shown.iter().flat_map(|c| c.body.symbols.iter()).map(|s| s.qualified_name.clone()).collect(),
        enclosing: first.and_then(|c| c.body.enclosing.clone()),
        score: group.chunks.iter().map(|(_, f)| f.score).fold(0.0, f64::max),
        vector_score: max_opt(|f| f.vector),
        keyword_score: max_opt(|f| f.keyword),
        parse_status,
        content,
        before: Vec::new(),
        after: Vec::new(),
        stale: false,
    }
}

/// A hit's file as read from disk.
struct OnDisk {
    text: String,
    meta: std::fs::Metadata,
}

/// Reads each hit's file once: marks stale files, replaces content with the exact lines from
/// disk, expands to the enclosing definition and adds `-B`/`-A` lines.
fn add_disk_context(
    readers: &Readers,
    hits: &mut [Hit],
    options: &ContextOptions,
    warnings: &mut Vec<String>,
) -> Result<(), StoreError> {
    // Two independent reads, side by side.
    let (states, spans) = std::thread::scope(|scope| {
        let shared: &[Hit] = hits;
        let spans = scope.spawn(|| if options.smart { recorded_spans(readers, shared) } else { Ok(HashMap::new()) });
        let states = file_states(readers, shared);
        (states, spans.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    let (states, spans) = (states?, spans?);
    let mut roots: HashMap<PathBuf, Option<ProjectFiles>> = HashMap::new();
    let mut files: HashMap<PathBuf, Option<OnDisk>> = HashMap::new();
    // Another snapshot's files are not the ones on disk: its hits keep their stored text.
    for hit in hits.iter_mut().filter(|h| readers.on_disk(&h.index)) {
        let path = hit.root.join(&hit.path);
        let state = states.get(&(hit.index.clone(), hit.path.clone()));
        let disk = files.entry(path.clone()).or_insert_with(|| {
            let root = roots.entry(hit.root.clone()).or_insert_with(|| ProjectFiles::new(&hit.root).ok()).as_ref()?;
            read_text(root, &hit.path, warnings)
        });
        let meta = disk.as_ref().map(|d| &d.meta);
        let unchanged_stat = match (meta, state) {
            (Some(m), Some(s)) => m.len() == s.size && mtime_ns(m) == s.mtime_ns,
            _ => false,
        };
        let text = disk.as_ref().map(|d| d.text.as_str());
        hit.stale = match (text, state) {
            (None, _) => true,
            (Some(_), _) if unchanged_stat => false,
            (Some(t), Some(s)) => *blake3::hash(t.as_bytes()).as_bytes() != s.hash,
            (Some(_), None) => true,
        };
        let Some(text) = text else { continue };
        let mut lines = Lines::new(text);
        if !hit.stale {
            let recorded = Language::from_name(&hit.language).is_some_and(Language::has_symbols);
            let span = match spans.get(&(hit.index.clone(), hit.path.clone())) {
                _ if !options.smart => None,
                Some(spans) => enclosing_span(spans, hit.start_line, hit.end_line, options.max_lines),
                // The index knows this language's definitions: none encloses the hit.
                None if recorded => None,
                // A language without symbol extraction: parse.
                None => smart_span(&path, meta, text, hit, options.max_lines),
            };
            if let Some((start, end)) = span {
                hit.start_line = start;
                hit.end_line = end;
            }
            hit.content = lines.slice(hit.start_line, hit.end_line);
        }
        let first = (hit.start_line as usize).saturating_sub(1);
        hit.before = lines.range(first.saturating_sub(options.before), first).into_iter().map(String::from).collect();
        let last = hit.end_line as usize;
        hit.after = lines.range(last, last + options.after).into_iter().map(String::from).collect();
    }
    Ok(())
}

/// Paths of the hits, by index.
fn paths_by_index(hits: &[Hit]) -> HashMap<&str, Vec<String>> {
    let mut paths: HashMap<&str, Vec<String>> = HashMap::new();
    for h in hits {
        paths.entry(&h.index).or_default().push(h.path.clone());
    }
    paths
}

/// What the index recorded of the hits' files, by (index, path).
fn file_states(readers: &Readers, hits: &[Hit]) -> Result<HashMap<(String, String), FileState>, StoreError> {
    let mut states = HashMap::new();
    for (index, paths) in paths_by_index(hits) {
        for (path, state) in readers.get(index)?.file_states(Some(&paths))? {
            states.insert((index.to_string(), path), state);
        }
    }
    Ok(states)
}

/// Definition spans recorded at indexing time that may enclose the hits, by (index, path):
/// the definitions starting in a hit and the one enclosing it with its own enclosing ones
/// (`Class.method` names `Class` too). Expanding with them costs no parse.
fn recorded_spans(readers: &Readers, hits: &[Hit]) -> Result<SpansByFile, StoreError> {
    let kinds: Vec<SymbolKind> = SymbolKind::all().iter().copied().filter(|&k| expands_to(k)).collect();
    let mut wanted: HashMap<&str, Vec<(String, String)>> = HashMap::new();
    for h in hits {
        let names = h.symbols.iter().chain(&h.qualified_name).chain(&h.enclosing);
        for name in names {
            for key in qualified_prefixes(&name.to_lowercase()) {
                wanted.entry(&h.index).or_default().push((h.path.clone(), key));
            }
        }
    }
    let mut spans = HashMap::new();
    for (index, mut wanted) in wanted {
        wanted.sort();
        wanted.dedup();
        for (path, file_spans) in readers.get(index)?.symbol_spans(&wanted, &kinds)? {
            spans.insert((index.to_string(), path), file_spans);
        }
    }
    Ok(spans)
}

/// Line spans by (index, path).
type SpansByFile = HashMap<(String, String), Vec<(u32, u32)>>;

/// `a.b.c` and its enclosing names `a.b`, `a` (also with `::`).
fn qualified_prefixes(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    let mut rest = name;
    while let Some(cut) = rest.rfind(['.', ':']) {
        rest = rest[..cut].trim_end_matches(':');
        if rest.is_empty() {
            break;
        }
        out.push(rest.to_string());
    }
    out
}

/// Whether smart context expands to the spans of this kind: functions and class-like types.
fn expands_to(kind: SymbolKind) -> bool {
    kind.is_callable() || kind.is_type()
}

/// The smallest of `spans` enclosing lines `start..=end`, if it is larger than the range and
/// at most `max_lines` long (the rule of [`crate::chunk::definition_span`]).
fn enclosing_span(spans: &[(u32, u32)], start: u32, end: u32, max_lines: usize) -> Option<(u32, u32)> {
    let (s, e) = spans.iter().filter(|(s, e)| *s <= start && *e >= end).min_by_key(|(s, e)| e - s)?;
    ((e - s + 1) as usize <= max_lines && (*s, *e) != (start, end)).then_some((*s, *e))
}

/// A definition span computed before: (path, size, mtime, start, end, max lines).
type SpanKey = (PathBuf, u64, i64, u32, u32, usize);
/// Remembered definition spans, `None` where the hit lies in no definition.
type SpanCache = Mutex<LruCache<SpanKey, Option<(u32, u32)>>>;

/// Spans kept per process; a few hundred bytes each.
const SPAN_CACHE: usize = 4096;

/// [`crate::chunk::definition_span`] for a hit, remembered by file identity and range: a
/// long-lived process (the MCP server, `search -i`) meets the same hits again and again, and
/// parsing a large file costs milliseconds each time.
fn smart_span(
    path: &Path,
    meta: Option<&std::fs::Metadata>,
    text: &str,
    hit: &Hit,
    max_lines: usize,
) -> Option<(u32, u32)> {
    static SPANS: OnceLock<SpanCache> = OnceLock::new();
    let compute = || crate::chunk::definition_span(path, text, hit.start_line, hit.end_line, max_lines);
    let Some(meta) = meta else { return compute() };
    let key = (path.to_path_buf(), meta.len(), mtime_ns(meta), hit.start_line, hit.end_line, max_lines);
    let spans =
        SPANS.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(SPAN_CACHE).unwrap_or(NonZeroUsize::MIN))));
    if let Some(span) = spans.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return *span;
    }
    let span = compute();
    spans.lock().unwrap_or_else(PoisonError::into_inner).put(key, span);
    span
}

/// The file's text and metadata, `None` when it is unreadable, no longer UTF-8, or refused
/// for leading outside the project (which adds a warning). Unlike indexing, this neither
/// hashes nor scans for NUL bytes: an unchanged file was checked when it was indexed, and a
/// changed one is hashed by the caller.
fn read_text(files: &ProjectFiles, relative: &str, warnings: &mut Vec<String>) -> Option<OnDisk> {
    match files.read(relative, u64::MAX) {
        Ok((bytes, meta)) => String::from_utf8(bytes).ok().map(|text| OnDisk { text, meta }),
        Err(refused @ (ReadRefused::Outside(_) | ReadRefused::Loop(_) | ReadRefused::NotRelative(_))) => {
            // Said once, in the answer's warnings (not also as a log line); once per file.
            let warning = format!("{refused}: showing the text indexed before, without context — re-index to refresh");
            if !warnings.contains(&warning) {
                warnings.push(warning);
            }
            None
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{enclosing_span, label, qualified_prefixes};
    use crate::chunk::{ParseStatus, SymbolKind};
    use crate::store::{ChunkBody, SymbolRecord};

    fn method(name: &str, start_line: u32, end_line: u32) -> SymbolRecord {
        SymbolRecord {
            kind: SymbolKind::Method,
            name: name.to_string(),
            qualified_name: format!("App.{name}"),
            signature: format!("def {name}(self)"),
            parent: Some("App".to_string()),
            start_line: Some(start_line),
            end_line: Some(end_line),
            params: Vec::new(),
            bases: Vec::new(),
        }
    }

    // Issue 26: the best hit for "register a blueprint" was shown as `method App.debug`, the
    // definition whose tail the chunk began with.
    #[test]
    fn a_chunk_is_labelled_with_the_definition_holding_most_of_it() {
        let body = |symbols| ChunkBody {
            byte_start: 0,
            byte_end: 0,
            line_start: 40,
            line_end: 80,
            content: String::new(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols,
            context: String::new(),
            enclosing: None,
            parse_status: ParseStatus::Ok,
        };
        let chunk = body(vec![method("debug", 10, 45), method("register_blueprint", 47, 80)]);
        assert_eq!(label(&chunk).map(|s| s.name.as_str()), Some("register_blueprint"));
        let chunk = body(vec![method("debug", 10, 70), method("register_blueprint", 72, 90)]);
        assert_eq!(label(&chunk).map(|s| s.name.as_str()), Some("debug"));
        assert!(label(&body(Vec::new())).is_none());
    }

    #[test]
    fn the_smallest_larger_definition_within_the_cap_encloses() {
        // A class (1..=60) holding a method (10..=30).
        let spans = [(1, 60), (10, 30)];
        assert_eq!(enclosing_span(&spans, 15, 20, 50), Some((10, 30)));
        // The whole method: its smallest definition is itself, so it stays as it is.
        assert_eq!(enclosing_span(&spans, 10, 30, 100), None);
        // Outside the method, inside the class: the class, when the cap allows.
        assert_eq!(enclosing_span(&spans, 40, 45, 50), None);
        assert_eq!(enclosing_span(&spans, 40, 45, 60), Some((1, 60)));
        // Across two definitions' edges: none encloses.
        assert_eq!(enclosing_span(&[(1, 5), (6, 9)], 4, 7, 50), None);
    }

    #[test]
    fn qualified_names_name_their_enclosing_definitions() {
        assert_eq!(qualified_prefixes("pipeline.run"), vec!["pipeline.run", "pipeline"]);
        assert_eq!(qualified_prefixes("a::b::c"), vec!["a::b::c", "a::b", "a"]);
        assert_eq!(qualified_prefixes("top"), vec!["top"]);
    }
}
