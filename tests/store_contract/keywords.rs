//! Keyword candidates: selection by groups and phrases, the candidate cap, and the exact
//! frequencies and lengths ranking needs.

use std::collections::{BTreeMap, BTreeSet};

use cocosearch::store::glob::PathGlob;
use cocosearch::store::{
    ChunkRecord, FileRecord, KeywordCandidate, KeywordQuery, KeywordTerm, MAX_TERM_FREQUENCY, SearchFilter,
    keyword_length,
};

use super::records::{ChunkExt, chunk, file, frequency};
use super::{Fixture, contract_tests};

contract_tests!(
    groups_select_candidates_and_every_term_is_counted,
    phrases_match_terms_in_sequence,
    frequencies_and_lengths_are_exact_and_capped,
);

fn word(w: &str) -> KeywordTerm {
    KeywordTerm::Word(w.to_string())
}

fn phrase(words: &[&str]) -> KeywordTerm {
    KeywordTerm::Phrase(words.iter().map(|w| w.to_string()).collect())
}

/// Candidates by path (each test file has one chunk).
fn by_path(f: &Fixture, query: &KeywordQuery) -> BTreeMap<String, KeywordCandidate> {
    let found = f
        .store
        .reader("kw")
        .expect("reader")
        .keyword_candidates(query, &SearchFilter::default())
        .expect("keyword candidates");
    let n = found.len();
    let map: BTreeMap<String, KeywordCandidate> = found.into_iter().map(|c| (c.path.clone(), c)).collect();
    assert_eq!(map.len(), n, "a chunk is a candidate once");
    map
}

fn the_chunk<'a>(files: &'a [FileRecord], path: &str) -> &'a ChunkRecord {
    &files.iter().find(|f| f.path == path).expect(path).chunks[0]
}

/// Checks every candidate's id, length and frequencies against the records.
fn check_counts(f: &Fixture, files: &[FileRecord], terms: &[KeywordTerm], found: &BTreeMap<String, KeywordCandidate>) {
    for (path, candidate) in found {
        let record = the_chunk(files, path);
        let stored = f.store.reader("kw").expect("reader").chunks(&[candidate.id]).expect("chunk");
        assert_eq!(stored.len(), 1);
        assert_eq!(&stored[0].path, path, "a candidate's path is its chunk's");
        assert_eq!(candidate.length, keyword_length(&record.keywords), "{path}: length");
        let expected: Vec<u32> = terms
            .iter()
            .map(|t| match t {
                KeywordTerm::Word(w) => frequency(record, w),
                KeywordTerm::Phrase(words) => {
                    let text = format!(" {} ", record.keywords);
                    u32::from(text.contains(&format!(" {} ", words.join(" "))))
                }
            })
            .collect();
        assert_eq!(candidate.frequencies, expected, "{path}: frequencies of {terms:?}");
    }
}

fn set(paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|p| p.to_string()).collect()
}

fn groups_select_candidates_and_every_term_is_counted(f: &Fixture) {
    f.index("kw");
    let files = vec![
        file("both.py", vec![chunk("def parse_header(line):\n    return line.strip()")]),
        file("parse_only.py", vec![chunk("def parse_body(text):\n    return text")]),
        file("header_only.py", vec![chunk("def header_value(h):\n    return h")]),
        file("neither.py", vec![chunk("def render(x):\n    return x")]),
    ];
    f.store.writer("kw").expect("writer").replace_files(&files).expect("write");
    let terms = vec![word("parse"), word("header")];
    let query = |select: Vec<Vec<usize>>, max_candidates: Option<u64>| KeywordQuery {
        terms: terms.clone(),
        select,
        max_candidates,
    };
    let paths = |select: Vec<Vec<usize>>| -> BTreeSet<String> {
        let found = by_path(f, &query(select, None));
        check_counts(f, &files, &terms, &found);
        found.into_keys().collect()
    };
    // A pair selects chunks containing both terms.
    assert_eq!(paths(vec![vec![0, 1]]), set(&["both.py"]));
    // `header` selects; `parse` is only counted (0 where it is absent).
    assert_eq!(paths(vec![vec![1]]), set(&["both.py", "header_only.py"]));
    let counted = by_path(f, &query(vec![vec![1]], None));
    assert!(counted["both.py"].frequencies[0] > 0 && counted["header_only.py"].frequencies[0] == 0, "{counted:?}");
    // Either group selects.
    assert_eq!(paths(vec![vec![0], vec![1]]), set(&["both.py", "parse_only.py", "header_only.py"]));
    assert_eq!(paths(vec![vec![0, 1], vec![0]]), set(&["both.py", "parse_only.py"]));
    // A cap beyond any count is no cap (an unbounded budget saturates to u64::MAX).
    let uncapped = f
        .store
        .reader("kw")
        .expect("reader")
        .keyword_candidates(&query(vec![vec![0], vec![1]], Some(u64::MAX)), &SearchFilter::default());
    assert_eq!(uncapped.expect("a huge cap is allowed").len(), 3);
    // No group selects nothing; no term neither.
    assert!(paths(Vec::new()).is_empty(), "no group selects nothing");
    let nothing = KeywordQuery { terms: Vec::new(), select: vec![vec![]], max_candidates: None };
    assert!(
        f.store
            .reader("kw")
            .expect("reader")
            .keyword_candidates(&nothing, &SearchFilter::default())
            .expect("empty")
            .is_empty()
    );
    // A term found nowhere selects nothing, and is counted as 0 elsewhere.
    let absent = KeywordQuery { terms: vec![word("zzz"), word("parse")], select: vec![vec![0]], max_candidates: None };
    assert!(by_path(f, &absent).is_empty());
    let absent = KeywordQuery { terms: vec![word("zzz"), word("parse")], select: vec![vec![1]], max_candidates: None };
    let found = by_path(f, &absent);
    // The chunks `parse` selects come back, so the zeros below are counted, not vacuous.
    assert_eq!(found.keys().cloned().collect::<BTreeSet<_>>(), set(&["both.py", "parse_only.py"]));
    assert!(found.values().all(|c| c.frequencies[0] == 0), "{found:?}");

    // The candidate cap bounds how many come back, from those selected.
    for cap in [0u64, 1, 2, 3, 10] {
        let found = by_path(f, &query(vec![vec![0], vec![1]], Some(cap)));
        assert_eq!(found.len() as u64, cap.min(3), "cap {cap}");
        assert!(found.keys().all(|p| p != "neither.py"), "cap {cap}: {found:?}");
        check_counts(f, &files, &terms, &found);
    }
    // Under a filter the cap counts the chunks that pass it: the matches the filter drops
    // (`both.py`, selected first) never use up the cap.
    let only = SearchFilter { path_glob: Some(PathGlob::new("*_only.py").expect("glob")), ..SearchFilter::default() };
    let reader = f.store.reader("kw").expect("reader");
    let filtered = reader.keyword_candidates(&query(vec![vec![0], vec![1]], Some(2)), &only).expect("filtered");
    let paths: BTreeSet<String> = filtered.iter().map(|c| c.path.clone()).collect();
    assert_eq!(paths, set(&["parse_only.py", "header_only.py"]), "{filtered:?}");
}

fn phrases_match_terms_in_sequence(f: &Fixture) {
    f.index("kw");
    let files = vec![
        file("c1.txt", vec![chunk("1").keywords("open file now")]),
        file("c2.txt", vec![chunk("2").keywords("file open")]),
        file("c3.txt", vec![chunk("3").keywords("open the file")]),
        file("c4.txt", vec![chunk("4").keywords("open file and open file")]),
        file("c5.txt", vec![chunk("5").keywords("close file")]),
    ];
    f.store.writer("kw").expect("writer").replace_files(&files).expect("write");
    let terms = vec![phrase(&["open", "file"]), word("open")];
    let select = |select: Vec<Vec<usize>>| {
        let found = by_path(f, &KeywordQuery { terms: terms.clone(), select, max_candidates: None });
        check_counts(f, &files, &terms, &found);
        found
    };
    let found = select(vec![vec![0]]);
    assert_eq!(found.keys().cloned().collect::<BTreeSet<_>>(), set(&["c1.txt", "c4.txt"]));
    assert_eq!(found["c4.txt"].frequencies, vec![1, 2], "a phrase counts 1 however often it occurs");
    let found = select(vec![vec![1]]);
    assert_eq!(found.keys().cloned().collect::<BTreeSet<_>>(), set(&["c1.txt", "c2.txt", "c3.txt", "c4.txt"]));
    assert_eq!(found["c2.txt"].frequencies, vec![0, 1], "terms in the other order are no phrase");
    assert_eq!(found["c3.txt"].frequencies, vec![0, 1], "terms apart are no phrase");
    let three = vec![phrase(&["open", "file", "now"])];
    let found = by_path(f, &KeywordQuery { terms: three.clone(), select: vec![vec![0]], max_candidates: None });
    assert_eq!(found.keys().cloned().collect::<BTreeSet<_>>(), set(&["c1.txt"]));
    check_counts(f, &files, &three, &found);
}

fn frequencies_and_lengths_are_exact_and_capped(f: &Fixture) {
    f.index("kw");
    let many = format!("{} tail", "word ".repeat(300));
    let files = vec![
        file("many.txt", vec![chunk("many").keywords(&many)]),
        file("few.txt", vec![chunk("few").keywords("alpha beta alpha gamma alpha word")]),
        file("code.py", vec![chunk("def word_count(words):\n    return len(words)  # word count word")]),
    ];
    f.store.writer("kw").expect("writer").replace_files(&files).expect("write");
    let terms = vec![word("word"), word("alpha"), word("tail"), word("count")];
    let found = by_path(f, &KeywordQuery { terms: terms.clone(), select: vec![vec![0]], max_candidates: None });
    assert_eq!(found.keys().cloned().collect::<BTreeSet<_>>(), set(&["many.txt", "few.txt", "code.py"]));
    check_counts(f, &files, &terms, &found);
    assert_eq!(found["many.txt"].frequencies, vec![MAX_TERM_FREQUENCY, 0, 1, 0], "300 repeats count as the cap");
    assert_eq!(found["many.txt"].length, MAX_TERM_FREQUENCY + 1, "the length counts capped repeats too");
    assert_eq!(found["few.txt"].frequencies, vec![1, 3, 0, 0]);
    assert_eq!(found["few.txt"].length, 6);
}
