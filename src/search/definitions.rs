//! Definitions ranked for a search: "which function should I change", answered from the files
//! the search ranked first.
//!
//! A hit is a chunk, and a chunk may hold one definition, many (a class with its methods), or
//! a piece of one (a long function split over several chunks), so listing the definitions of
//! the hits in hit order answers badly: on the evaluation's 60 tasks with gold functions, the
//! changed function was in the first five that way for 14. Instead every function and method
//! of the first [`Tuning::definition_files`] files is a candidate (a function nested in another
//! is part of it, not a candidate), its text cut from its file's chunks by the lines recorded
//! at indexing, so a split function is one candidate with all its text. Candidates rank by
//! BM25 of the query over their texts — the candidates are the collection: a word found in
//! every method of the file says little — normalised by the best, plus a prior for their
//! file's rank ([`Tuning::definition_file_prior`]), so evidence decides within and across the
//! first files while a tie goes to the better file.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::query::Query;
use super::readers::Readers;
use super::{Hit, Tuning, keywords};
use crate::chunk::{SymbolKind, keywords as analysis};
use crate::store::{StoreError, StoredChunk};

/// A definition with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedDefinition {
    /// The index it came from.
    pub index: String,
    /// Path of its file, relative to the index root.
    pub path: String,
    /// Qualified name (`Request.register_hook`).
    pub name: String,
    /// Function or method.
    pub kind: SymbolKind,
    /// First line, 1-based.
    pub start_line: u32,
    /// Last line, inclusive.
    pub end_line: u32,
    /// Evidence with the file prior, from 0 to 1; only the order means something.
    pub score: f64,
}

/// A function or method of one of the top files, with its text's terms.
#[derive(Debug, Clone, PartialEq)]
struct Candidate {
    name: String,
    kind: SymbolKind,
    start_line: u32,
    end_line: u32,
    /// Whether it is defined inside a function (a closure, a local helper).
    nested: bool,
    terms: Vec<String>,
}

/// The best `limit` definitions of the first files of `hits` for `query`, those whose name
/// the question `named` (lowercase last segments) gaining [`Tuning::definition_named`].
pub(crate) fn rank_definitions(
    readers: &Readers,
    query: &Query,
    named: &HashSet<String>,
    hits: &[Hit],
    limit: usize,
    tuning: &Tuning,
    max_terms: usize,
) -> Result<Vec<RankedDefinition>, StoreError> {
    let mut files: Vec<(&str, &str)> = Vec::new();
    for hit in hits {
        let file = (hit.index.as_str(), hit.path.as_str());
        if !files.contains(&file) {
            files.push(file);
            if files.len() == tuning.definition_files {
                break;
            }
        }
    }
    let mut by_index: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (index, path) in &files {
        by_index.entry(index).or_default().push(path.to_string());
    }
    let mut chunks: HashMap<(&str, String), Vec<StoredChunk>> = HashMap::new();
    for (index, paths) in by_index {
        for chunk in readers.get(index)?.file_chunks(&paths)? {
            chunks.entry((index, chunk.path.clone())).or_default().push(chunk);
        }
    }
    let ranked_files: Vec<(usize, Vec<Candidate>)> = files
        .iter()
        .enumerate()
        .map(|(rank, (index, path))| {
            let candidates = chunks
                .get(&(*index, path.to_string()))
                .map(|c| candidates(c, tuning.definition_types > 0.0, tuning.definition_nested > 0.0))
                .unwrap_or_default();
            (rank, candidates)
        })
        .collect();
    let mut ranked = rank_candidates(query, named, &ranked_files, tuning, max_terms);
    ranked.truncate(limit);
    Ok(ranked
        .into_iter()
        .map(|(rank, c, score)| RankedDefinition {
            index: files[rank].0.to_string(),
            path: files[rank].1.to_string(),
            name: c.name.clone(),
            kind: c.kind,
            start_line: c.start_line,
            end_line: c.end_line,
            score,
        })
        .collect())
}

/// The candidates of each file (by file rank), best first, with their scores.
fn rank_candidates<'a>(
    query: &Query,
    named: &HashSet<String>,
    files: &'a [(usize, Vec<Candidate>)],
    tuning: &Tuning,
    max_terms: usize,
) -> Vec<(usize, &'a Candidate, f64)> {
    let all: Vec<(usize, &Candidate)> =
        files.iter().flat_map(|(rank, candidates)| candidates.iter().map(move |c| (*rank, c))).collect();
    let texts: Vec<&[String]> = all.iter().map(|(_, c)| c.terms.as_slice()).collect();
    let evidence = keywords::score_documents(query, &texts, max_terms, tuning.bm25);
    let best = evidence.iter().copied().fold(0.0, f64::max);
    // The most a candidate can score: the best evidence in the first file. Scores are divided
    // by it, so they lie within 0..1 as every other score does, in the same order.
    let most = 1.0 + tuning.definition_file_prior.max(0.0) + tuning.definition_named.max(0.0);
    let mut ranked: Vec<(usize, &Candidate, f64)> = all
        .into_iter()
        .zip(evidence)
        .map(|((rank, c), e)| {
            let relative = if best > 0.0 { e / best } else { 0.0 };
            let last = c.name.rsplit('.').next().unwrap_or(&c.name).to_lowercase();
            let asked = if named.contains(&last) { tuning.definition_named } else { 0.0 };
            let kind = match (c.kind.is_type(), c.nested) {
                (true, _) => tuning.definition_types.min(1.0),
                (false, true) => tuning.definition_nested.min(1.0),
                (false, false) => 1.0,
            };
            (rank, c, kind * (relative + tuning.definition_file_prior / (rank as f64 + 1.0) + asked) / most)
        })
        .collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.start_line.cmp(&b.1.start_line)));
    ranked
}

/// The functions and methods defined in one file's `chunks`, with the terms of their lines,
/// and with `with_types` its classes and other types, with the terms of their lines outside
/// their methods (a change to a class's attributes or docstring is a change to the class).
fn candidates(chunks: &[StoredChunk], with_types: bool, with_nested: bool) -> Vec<Candidate> {
    let mut chunks: Vec<&StoredChunk> = chunks.iter().collect();
    chunks.sort_by_key(|c| c.body.byte_start);
    // The file's lines as its chunks hold them (chunks overlap; the first holder of a line
    // has it from its start). Lines between chunks are whitespace.
    let mut lines: BTreeMap<u32, &str> = BTreeMap::new();
    for chunk in &chunks {
        for (i, line) in chunk.body.content.split('\n').enumerate() {
            lines.entry(chunk.body.line_start + i as u32).or_insert(line);
        }
    }
    let kinds: HashMap<&str, SymbolKind> =
        chunks.iter().flat_map(|c| &c.body.symbols).map(|s| (s.qualified_name.as_str(), s.kind)).collect();
    let callable = SymbolKind::is_callable;
    let symbols: Vec<_> = chunks.iter().flat_map(|c| &c.body.symbols).collect();
    // The lines of each type's methods: a type's own text is what lies outside them.
    let mut methods: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for symbol in &symbols {
        if let (Some(parent), Some(start), Some(end)) = (symbol.parent.as_deref(), symbol.start_line, symbol.end_line)
            && callable(symbol.kind)
        {
            methods.entry(parent).or_default().push((start, end));
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for symbol in symbols {
        let (Some(start), Some(end)) = (symbol.start_line, symbol.end_line) else { continue };
        let nested = symbol.parent.as_deref().and_then(|p| kinds.get(p)).is_some_and(|k| callable(*k));
        let wanted = callable(symbol.kind) || (with_types && symbol.kind.is_type());
        if !wanted || (nested && !with_nested) || !seen.insert((symbol.qualified_name.as_str(), start)) {
            continue;
        }
        let inside = methods.get(symbol.qualified_name.as_str());
        let in_a_method = |line: u32| inside.is_some_and(|spans| spans.iter().any(|&(a, b)| (a..=b).contains(&line)));
        let text: Vec<&str> = lines
            .range(start..=end)
            .filter(|(n, _)| symbol.kind.is_callable() || !in_a_method(**n))
            .map(|(_, line)| *line)
            .collect();
        out.push(Candidate {
            name: symbol.qualified_name.clone(),
            kind: symbol.kind,
            start_line: start,
            end_line: end,
            nested,
            terms: analysis::terms(&text.join("\n")),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::ParseStatus;
    use crate::search::query::analyze;
    use crate::store::{ChunkBody, SymbolRecord};

    fn symbol(kind: SymbolKind, name: &str, parent: Option<&str>, lines: (u32, u32)) -> SymbolRecord {
        SymbolRecord {
            kind,
            name: name.rsplit('.').next().unwrap_or(name).into(),
            qualified_name: name.into(),
            signature: String::new(),
            parent: parent.map(str::to_string),
            start_line: Some(lines.0),
            end_line: Some(lines.1),
            params: Vec::new(),
            bases: Vec::new(),
        }
    }

    /// A chunk of `content` starting at `line` (byte offsets follow the line numbers).
    fn chunk(line: u32, content: &str, symbols: Vec<SymbolRecord>) -> StoredChunk {
        StoredChunk {
            id: i64::from(line),
            path: "a.py".into(),
            ordinal: line,
            language: "python".into(),
            body: ChunkBody {
                byte_start: line * 100,
                byte_end: line * 100 + content.len() as u32,
                line_start: line,
                line_end: line + content.matches('\n').count() as u32,
                content: content.into(),
                symbol_type: None,
                symbol_name: None,
                qualified_name: None,
                signature: None,
                symbols,
                context: String::new(),
                enclosing: None,
                parse_status: ParseStatus::Ok,
            },
        }
    }

    fn names<'a>(ranked: &[(usize, &'a Candidate, f64)]) -> Vec<&'a str> {
        ranked.iter().map(|(_, c, _)| c.name.as_str()).collect()
    }

    #[test]
    fn a_split_function_is_one_candidate_with_all_its_text_and_nested_ones_are_part_of_it() {
        let chunks = [
            chunk(
                1,
                "class Session:\n    def send(self, request):\n        def retry():\n            pass",
                vec![
                    symbol(SymbolKind::Class, "Session", None, (1, 8)),
                    symbol(SymbolKind::Method, "Session.send", Some("Session"), (2, 6)),
                    symbol(SymbolKind::Function, "Session.send.retry", Some("Session.send"), (3, 4)),
                ],
            ),
            // The second piece of `send`, overlapping the first by a line.
            chunk(4, "            pass\n        return adapter.send(request)", Vec::new()),
            chunk(
                7,
                "    def close(self):\n        pass",
                vec![symbol(SymbolKind::Method, "Session.close", Some("Session"), (7, 8))],
            ),
        ];
        let found = candidates(&chunks, false, false);
        assert_eq!(found.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), vec!["Session.send", "Session.close"]);
        assert!(found[0].terms.contains(&"adapter".to_string()), "the second piece counts: {:?}", found[0].terms);
        assert!(!found[1].terms.contains(&"adapter".to_string()));
        let with_nested = candidates(&chunks, false, true);
        let names: Vec<_> = with_nested.iter().map(|c| (c.name.as_str(), c.nested)).collect();
        assert_eq!(names, vec![("Session.send", false), ("Session.send.retry", true), ("Session.close", false)]);
    }

    #[test]
    fn a_class_is_a_candidate_with_its_own_lines_outside_its_methods() {
        let chunks = [chunk(
            1,
            "class EncodedFile:
    encoding = 'utf-8'
    def write(self, obj):
        return obj.encode(self.encoding)",
            vec![
                symbol(SymbolKind::Class, "EncodedFile", None, (1, 4)),
                symbol(SymbolKind::Method, "EncodedFile.write", Some("EncodedFile"), (3, 4)),
            ],
        )];
        let found = candidates(&chunks, true, false);
        assert_eq!(found.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), vec!["EncodedFile", "EncodedFile.write"]);
        assert!(found[0].terms.contains(&"utf".to_string()), "{:?}", found[0].terms);
        assert!(!found[0].terms.contains(&"obj".to_string()), "a method's lines are its own: {:?}", found[0].terms);
        assert_eq!(candidates(&chunks, false, false).len(), 1, "types only when asked for");
    }

    #[test]
    fn a_definition_the_question_names_gains() {
        let tuning = Tuning::default();
        let files = vec![(
            0,
            vec![
                candidate("Logger.clear", "empty the records"),
                candidate("Logger.handler", "the records of the log, records and records again"),
            ],
        )];
        let query = analyze("records are not reset");
        let ranked = rank_candidates(&query, &HashSet::new(), &files, &tuning, 32);
        assert_eq!(names(&ranked)[0], "Logger.handler", "{ranked:?}");
        let named: HashSet<String> = ["clear".to_string()].into();
        let ranked = rank_candidates(&query, &named, &files, &tuning, 32);
        assert_eq!(names(&ranked)[0], "Logger.clear", "{ranked:?}");
        assert!(ranked.iter().all(|(_, _, score)| (0.0..=1.0).contains(score)), "{ranked:?}");
    }

    fn candidate(name: &str, text: &str) -> Candidate {
        Candidate {
            name: name.into(),
            kind: SymbolKind::Method,
            start_line: 1,
            end_line: 1,
            nested: false,
            terms: analysis::terms(text),
        }
    }

    #[test]
    fn evidence_decides_across_files_and_a_tie_goes_to_the_better_file() {
        let tuning = Tuning::default();
        let files = vec![
            (
                0,
                vec![
                    candidate("first.setup", "config options values"),
                    candidate("first.load", "load the config file"),
                ],
            ),
            (1, vec![candidate("second.register_hook", "hooks register_hook append callable hook list")]),
            (2, vec![candidate("third.load", "load the config file")]),
        ];
        let query = analyze("register_hook should accept a list of hooks");
        let ranked = rank_candidates(&query, &HashSet::new(), &files, &tuning, 32);
        assert_eq!(names(&ranked)[0], "second.register_hook", "{ranked:?}");
        let query = analyze("load config file");
        let ranked = rank_candidates(&query, &HashSet::new(), &files, &tuning, 32);
        assert_eq!(names(&ranked)[..2], ["first.load", "third.load"], "{ranked:?}");
    }

    #[test]
    fn rare_words_outweigh_words_every_candidate_shares() {
        let tuning = Tuning::default();
        let files = vec![(
            0,
            vec![
                candidate("a", "request request request request session"),
                candidate("b", "request session timeout"),
                candidate("c", "request session"),
            ],
        )];
        let ranked = rank_candidates(&analyze("request timeout"), &HashSet::new(), &files, &tuning, 32);
        assert_eq!(names(&ranked)[0], "b", "{ranked:?}");
    }
}
