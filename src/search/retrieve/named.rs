//! The named-code retriever: what a long question names as code ([`structure::read`]),
//! resolved against the index's definitions and files.
//!
//! - A **traceback frame** whose file is in the index points at that file, and at the
//!   definition of the frame's function there (a frame without one, like a link to a line, at
//!   the chunk holding its line); the innermost frame of the project weighs most
//!   (the error surfaced there), outer ones less ([`FRAME_DECAY`] each).
//! - A **name** used as code (`xr.Dataset.to_netcdf`, `EncodedFile`, `self.prepare_request()`)
//!   points at its definitions, by its qualified name when the index has it, else by its last
//!   segment; a member defined nowhere (one a change adds: `Settings.PreferTypeHandlersForEnums`)
//!   points at its container's definition (`Settings`), if that is named like a type, at
//!   [`Tuning::named_container`](crate::search::Tuning::named_container) of its weight. Where
//!   it was seen sets its weight (a frame's function, a code block, backticks, prose); a name defined in many files says little about each, so its weight is shared
//!   among them, and one defined in more than [`MAX_FILES`] files is ignored.
//! - A quoted **error message** points at the chunks holding it as a phrase: its raise site.
//!
//! Definitions and messages in tests, examples and benchmarks are left out
//! ([`AuxiliaryDefinitions::Dropped`]): a report's own code (`class Foo`, `def test_x`) shares
//! their names, and the project's code is what it asks about.
//!
//! Evidence accumulates per chunk and per file; both lists join the fusion, with the files one
//! step from them in the code graph (callers of the names, imports of the named files).
//!
//! [`structure::read`]: crate::search::structure::read

use std::collections::HashMap;

use super::{Evidence, Index, Leg, Needs, Retriever};
use crate::chunk::keywords as analysis;
use crate::search::analyse::{Analysed, AuxiliaryDefinitions, Length};
use crate::search::fuse::RawScore;
use crate::search::mentions::FileNames;
use crate::search::paths;
use crate::search::query;
use crate::search::structure::{Frame, Name, Seen, Structure};
use crate::store::{ImportQuery, KeywordQuery, KeywordTerm, RefQuery, Scored, StoreError};

/// Each frame further out from the innermost one of the project weighs this much less.
const FRAME_DECAY: f64 = 0.7;
/// A name defined in more files than this names nothing in particular.
const MAX_FILES: usize = 8;
/// Definitions read per name.
const READ: usize = 50;
/// Names whose callers are looked up, in the question's order.
const MAX_NEIGHBOUR_NAMES: usize = 16;
/// Named files, best first, whose imports are followed.
const NEIGHBOUR_SOURCES: usize = 3;
/// Chunks holding a message that are kept: more means the message is a common phrase.
const MAX_MESSAGE_SITES: u64 = 20;
/// Words (not counting stop words) a message needs to be worth looking up.
const MIN_MESSAGE_TERMS: usize = 2;
/// The shortest beginning of a message looked up as a phrase.
const MIN_PHRASE_TERMS: usize = 3;

/// What a long question names.
pub(super) struct NamedCode;

impl Retriever for NamedCode {
    fn name(&self) -> &'static str {
        "named code"
    }

    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        search.length == Length::Long
            && (search.tuning.named_chunks > 0.0 || search.tuning.named_files > 0.0)
            && !search.structure.is_empty()
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let mut found = Found::default();
        frames(search, index, &mut found)?;
        names(search, index, &mut found)?;
        messages(search, index, &mut found)?;
        let (chunks, files) = found.ranked();
        let follows_graph = search.weighs_files || search.tuning.named_neighbours > 0.0;
        let neighbours = if follows_graph { neighbours(search, index, &files)? } else { Vec::new() };
        Ok(vec![
            Evidence::Chunks { hits: chunks, weight: search.tuning.named_chunks, reports: RawScore::Named },
            Evidence::Files {
                ranked: files,
                scores: Vec::new(),
                weight: search.tuning.named_files,
                leg: Leg::NamedFiles,
            },
            Evidence::Files {
                ranked: neighbours,
                scores: Vec::new(),
                weight: search.tuning.named_neighbours,
                leg: Leg::NamedNeighbours,
            },
        ])
    }
}

/// The files one step from what the question names, most evidence first: those calling a
/// name the question uses as code (its weight shared among them), and those the first
/// [`NEIGHBOUR_SOURCES`] named files import. A bug named at a call often lives in the callee's
/// module, or a caller's.
fn neighbours(search: &Analysed<'_>, index: &Index<'_>, named_files: &[String]) -> Result<Vec<String>, StoreError> {
    let mut found = Found::default();
    let called = search.structure.names.iter().map(|n| (n.last(), seen_weight(n)));
    let functions = search.structure.frames.iter().filter_map(|f| f.function.as_deref()).map(|f| (f, 0.5));
    for (name, weight) in called.chain(functions).take(MAX_NEIGHBOUR_NAMES) {
        let last = name.rsplit('.').next().unwrap_or(name).to_string();
        let query = RefQuery { names: vec![last], limit: READ, ..RefQuery::default() };
        let mut files: Vec<String> = index.reader.references(&query)?.into_iter().map(|r| r.path).collect();
        files.sort_unstable();
        files.dedup();
        if files.is_empty() || files.len() > MAX_FILES {
            continue;
        }
        let share = weight / files.len() as f64;
        for file in &files {
            found.file(file, share);
        }
    }
    let sources = named_files.iter().take(NEIGHBOUR_SOURCES).cloned().collect();
    let imports = index.reader.imports(&ImportQuery { from: Some(sources), targets: None })?;
    for import in &imports {
        if let Some(target) = import.import.target.as_deref().filter(|t| !t.ends_with('/')) {
            found.file(target, 0.5 / imports.len() as f64);
        }
    }
    Ok(found.ranked().1)
}

/// Evidence gathered, per chunk and per file.
#[derive(Default)]
struct Found {
    chunks: HashMap<i64, (String, f64)>,
    files: HashMap<String, f64>,
}

impl Found {
    fn chunk(&mut self, hit: &Scored, weight: f64) {
        self.chunks.entry(hit.id).or_insert_with(|| (hit.path.clone(), 0.0)).1 += weight;
    }

    fn file(&mut self, path: &str, weight: f64) {
        *self.files.entry(path.to_string()).or_default() += weight;
    }

    /// Chunks and files, most evidence first (ties by path, then id: stable across runs).
    fn ranked(self) -> (Vec<Scored>, Vec<String>) {
        let mut chunks: Vec<Scored> =
            self.chunks.into_iter().map(|(id, (path, score))| Scored { id, path, score }).collect();
        chunks.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)).then(a.id.cmp(&b.id)));
        let mut files: Vec<(String, f64)> = self.files.into_iter().collect();
        files.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        (chunks, files.into_iter().map(|(path, _)| path).collect())
    }
}

/// The frames whose files are in the index, innermost first, each with its weight.
fn frames(search: &Analysed<'_>, index: &Index<'_>, found: &mut Found) -> Result<(), StoreError> {
    let structure: &Structure = &search.structure;
    if structure.frames.is_empty() {
        return Ok(());
    }
    let paths = super::path_names::paths(index)?;
    let names = FileNames::new(paths.iter());
    let project: Vec<(&Frame, &str)> = structure
        .frames
        .iter()
        .rev()
        .filter_map(|frame| match names.named_by(&frame.path).as_slice() {
            [only] => Some((frame, *only)),
            _ => None,
        })
        .collect();
    let mut at_lines: Vec<(&str, u32, f64)> = Vec::new();
    for (depth, (frame, path)) in project.into_iter().enumerate() {
        let weight = FRAME_DECAY.powi(i32::try_from(depth).unwrap_or(i32::MAX));
        found.file(path, weight);
        let Some(function) = &frame.function else {
            at_lines.extend(frame.line.map(|line| (path, line, weight)));
            continue;
        };
        let last = function.rsplit('.').next().unwrap_or(function).to_lowercase();
        for hit in index.reader.symbol_search(&[last], &search.filter, READ)? {
            if hit.path == path {
                found.chunk(&hit, weight);
            }
        }
    }
    lines(index, &at_lines, found)
}

/// The chunks at the lines of frames that name no function (a link to `models.py#L401`, a
/// `path.go:12` frame): the code the question points at.
fn lines(index: &Index<'_>, at_lines: &[(&str, u32, f64)], found: &mut Found) -> Result<(), StoreError> {
    if at_lines.is_empty() {
        return Ok(());
    }
    let mut paths: Vec<String> = at_lines.iter().map(|(path, _, _)| path.to_string()).collect();
    paths.sort_unstable();
    paths.dedup();
    let chunks = index.reader.file_chunks(&paths)?;
    for (path, line, weight) in at_lines {
        let at = chunks.iter().find(|c| c.path == *path && (c.body.line_start..=c.body.line_end).contains(line));
        if let Some(chunk) = at {
            found.chunk(&Scored { id: chunk.id, path: chunk.path.clone(), score: *weight }, *weight);
        }
    }
    Ok(())
}

/// `hits` without those the search leaves out as auxiliary.
fn project_code<T>(search: &Analysed<'_>, hits: &mut Vec<T>, path: impl Fn(&T) -> &str) {
    if search.auxiliary_definitions() == AuxiliaryDefinitions::Dropped {
        hits.retain(|hit| !paths::is_auxiliary(path(hit)));
    }
}

/// How much a name says, by where it was seen.
fn seen_weight(name: &Name) -> f64 {
    match name.seen {
        Seen::Frame => 0.5,
        Seen::Backticks => 0.8,
        Seen::Code => 0.6,
        Seen::Prose => 0.5,
    }
}

/// The definitions of the names used as code, each name's weight shared among its files.
fn names(search: &Analysed<'_>, index: &Index<'_>, found: &mut Found) -> Result<(), StoreError> {
    for name in &search.structure.names {
        let dotted = name.dotted.to_lowercase();
        let mut share = 1.0;
        let mut hits = index.reader.symbol_search(std::slice::from_ref(&dotted), &search.filter, READ)?;
        if hits.is_empty() && dotted.contains('.') {
            hits = index.reader.symbol_search(&[name.last().to_lowercase()], &search.filter, READ)?;
        }
        if let Some(container) = name.container().filter(|_| hits.is_empty() && search.tuning.named_container > 0.0) {
            hits = index.reader.symbol_search(&[container.to_lowercase()], &search.filter, READ)?;
            share = search.tuning.named_container;
        }
        project_code(search, &mut hits, |hit| &hit.path);
        let mut files: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        if files.is_empty() || files.len() > MAX_FILES {
            continue;
        }
        let weight = share * seen_weight(name) / files.len() as f64;
        for hit in &hits {
            found.chunk(hit, weight);
        }
        for file in files {
            found.file(file, weight);
        }
    }
    Ok(())
}

/// The chunks holding a quoted message: its raise site. A message is printed with values the
/// source fills in (`write() argument must be str, not bytes` from `"… not {}".format(…)`), so
/// the longest beginning of it that some chunks hold as a phrase is looked up, values the
/// message quotes left out.
fn messages(search: &Analysed<'_>, index: &Index<'_>, found: &mut Found) -> Result<(), StoreError> {
    for message in &search.structure.messages {
        let unquoted: String = message.split(['\'', '"', '`']).step_by(2).collect::<Vec<_>>().join(" ");
        let terms = analysis::terms(&unquoted);
        if terms.iter().filter(|t| !query::is_stop_word(t)).count() < MIN_MESSAGE_TERMS {
            continue;
        }
        let mut lengths = vec![terms.len(), 6, 4, MIN_PHRASE_TERMS];
        lengths.retain(|&n| n <= terms.len() && n >= MIN_PHRASE_TERMS);
        lengths.dedup();
        for length in lengths {
            let query = KeywordQuery {
                terms: vec![KeywordTerm::Phrase(terms[..length].to_vec())],
                select: vec![vec![0]],
                max_candidates: Some(MAX_MESSAGE_SITES + 1),
            };
            let mut sites = index.reader.keyword_candidates(&query, &search.filter)?;
            project_code(search, &mut sites, |site| &site.path);
            if sites.len() as u64 > MAX_MESSAGE_SITES {
                break;
            }
            if sites.is_empty() {
                continue;
            }
            let weight = 1.0 / sites.len() as f64;
            for site in &sites {
                found.chunk(&Scored { id: site.id, path: site.path.clone(), score: weight }, weight);
                found.file(&site.path, weight);
            }
            break;
        }
    }
    Ok(())
}
