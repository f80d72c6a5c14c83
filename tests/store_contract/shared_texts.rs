//! Chunk texts stored once: a chunk's text, vector, keyword terms, definitions and references
//! are stored once however many files and snapshots hold it, each holder reads it at its own
//! place (its lines, its symbols' and references' lines), and what nothing holds any more is
//! freed with what frees it.

use std::collections::BTreeMap;

use cocosearch::chunk::{RefKind, Reference, SymbolKind};
use cocosearch::store::{
    At, DefQuery, FileRecord, KeywordQuery, KeywordTerm, RefQuery, SearchFilter, SnapshotOrigin, SnapshotSpec, Store,
    VectorAccuracy,
};

use super::records::{ChunkExt, chunk, expected_terms, file};
use super::{Fixture, contract_tests};
use crate::support::index_contents_at;

contract_tests!(a_chunk_text_is_stored_once_and_read_at_each_place, texts_nothing_holds_are_freed_with_it);

fn spec(name: &str) -> SnapshotSpec {
    SnapshotSpec {
        name: name.into(),
        origin: SnapshotOrigin::Named,
        git_commit: None,
        git_branch: None,
        worktree: "/work/tree".into(),
    }
}

const RULE: &str = "# ----------------\n# separator";

/// `m.py`: an optional header, `alpha` (the same in every version), `beta` as given, and the
/// same rule twice (one text, two places in one file).
fn module(header: Option<&str>, beta: &str) -> FileRecord {
    let mut chunks = Vec::new();
    if let Some(h) = header {
        chunks.push(chunk(h).vector(&[0.0, 0.0, 1.0]));
    }
    chunks.push(chunk("def alpha():\n    return 1").defines(SymbolKind::Function, "alpha").vector(&[1.0, 0.0, 0.0]));
    chunks.push(chunk(RULE).vector(&[0.5, 0.5, 0.0]));
    chunks.push(chunk(beta).defines(SymbolKind::Function, "beta").vector(&[0.0, 1.0, 0.0]));
    chunks.push(chunk(RULE).vector(&[0.5, 0.5, 0.0]));
    let mut m = file("m.py", chunks);
    // `alpha` calls `helper` on its second line: the call moves down with it.
    let alpha = &m.chunks[usize::from(header.is_some())].body;
    m.refs = vec![Reference {
        kind: RefKind::Call,
        name: "helper".into(),
        qualifier: None,
        line: alpha.line_start + 1,
        caller: Some("alpha".into()),
    }];
    m
}

/// Version 1: `m.py` and `other.py`. Version 2: a header line pushes every chunk of `m.py`
/// down and `beta` changed; `other.py` the same.
fn versions() -> (Vec<FileRecord>, Vec<FileRecord>) {
    let other = file("other.py", vec![chunk("def helper():\n    return alpha()").vector(&[0.0, 0.3, 0.9])]);
    let v1 = vec![module(None, "def beta():\n    return 2"), other.clone()];
    let v2 = vec![module(Some("import os"), "def beta():\n    return 22"), other];
    (v1, v2)
}

/// Both versions written as snapshots `v1` and `v2` (current); their ids.
fn two_versions(f: &Fixture) -> (i64, i64) {
    f.index("x");
    let (v1, v2) = versions();
    let w = f.store.writer("x").expect("writer");
    let first = w.begin_snapshot(&spec("v1")).expect("v1").id;
    w.replace_files(&v1).expect("write v1");
    let second = w.begin_snapshot(&spec("v2")).expect("v2").id;
    w.replace_files(&v2[..1]).expect("write v2's m.py");
    (first, second)
}

fn clean(f: &Fixture, name: &str, files: &[FileRecord]) -> BTreeMap<String, String> {
    f.index(name);
    f.store.writer(name).expect("writer").replace_files(files).expect("write");
    index_contents_at(f.store.as_ref(), name, At::Current)
}

fn stored_texts(s: &dyn Store) -> u64 {
    s.reader("x").expect("reader").index_counts().expect("counts").stored_texts
}

/// The line where `alpha` is defined, and where its chunk starts, read at `at` by a vector
/// search, a symbol search and the code graph.
fn alpha_lines(s: &dyn Store, at: At) -> (u32, u32, u32, u32) {
    let r = s.reader_at("x", at).expect("reader");
    let near = r.vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 1, VectorAccuracy::Exact).expect("vectors");
    let by_vector = r.chunks(&[near[0].id]).expect("chunk").remove(0);
    let found = r.symbol_search(&["alpha".into()], &SearchFilter::default(), 5).expect("symbols");
    assert_eq!(found.len(), 1, "{at:?}: one alpha");
    let by_symbol = r.chunks(&[found[0].id]).expect("chunk").remove(0);
    assert_eq!(by_symbol.id, by_vector.id, "{at:?}: the same chunk");
    let symbol_line = by_symbol.body.symbols[0].start_line.expect("a line");
    let query = DefQuery { names: vec!["alpha".into()], limit: 5, ..DefQuery::default() };
    let defs = r.definitions(&query).expect("definitions");
    assert_eq!(defs.len(), 1, "{at:?}: {defs:?}");
    (by_vector.body.line_start, by_symbol.body.line_start, symbol_line, defs[0].symbol.start_line.unwrap_or(0))
}

fn a_chunk_text_is_stored_once_and_read_at_each_place(f: &Fixture) {
    let s = f.store.as_ref();
    let (v1_id, v2_id) = two_versions(f);
    let (v1, v2) = versions();
    // v1: alpha, the rule, beta 2 and other.py's helper; v2 adds its header and beta 22. The
    // rule (twice in m.py) and alpha (moved two lines down) are stored once.
    assert_eq!(stored_texts(s), 6);
    let counts = s.reader("x").expect("reader").index_counts().expect("counts");
    assert_eq!((counts.files, counts.chunks), (2, 6), "the current snapshot's own chunks");

    // Each snapshot reads as a clean index of its version: every chunk at its own lines.
    assert_eq!(index_contents_at(s, "x", At::Snapshot(v1_id)), clean(f, "clean_v1", &v1));
    assert_eq!(index_contents_at(s, "x", At::Snapshot(v2_id)), clean(f, "clean_v2", &v2));
    assert_eq!(alpha_lines(s, At::Snapshot(v1_id)), (1, 1, 1, 1));
    assert_eq!(alpha_lines(s, At::Current), (3, 3, 3, 3));
    // Its reference too, read at each snapshot's line.
    let calls = |at| {
        let query = RefQuery { names: vec!["helper".into()], limit: 10, ..RefQuery::default() };
        let found = s.reader_at("x", at).expect("reader").references(&query).expect("references");
        found.iter().map(|r| (r.path.clone(), r.reference.line)).collect::<Vec<_>>()
    };
    assert_eq!(calls(At::Snapshot(v1_id)), [("m.py".to_string(), 2)]);
    assert_eq!(calls(At::Current), [("m.py".to_string(), 4)]);

    // One text in two places of a file is two chunks to every reader, as in a clean index.
    let query = KeywordQuery {
        terms: vec![KeywordTerm::Word("separator".into())],
        select: vec![vec![0]],
        max_candidates: None,
    };
    for at in [At::Snapshot(v1_id), At::Current] {
        let r = s.reader_at("x", at).expect("reader");
        let found = r.keyword_candidates(&query, &SearchFilter::default()).expect("keywords");
        let mut ids: Vec<i64> = found.iter().map(|c| c.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), 2, "{at:?}: {found:?}");
        let mut lines: Vec<u32> = r.chunks(&ids).expect("chunks").iter().map(|c| c.body.line_start).collect();
        lines.sort_unstable();
        let expected = if at == At::Current { [6, 12] } else { [4, 10] };
        assert_eq!(lines, expected, "{at:?}");
        let near =
            r.vector_search(&[0.5, 0.5, 0.0], &SearchFilter::default(), 2, VectorAccuracy::Exact).expect("vectors");
        assert_eq!(near.len(), 2, "{at:?}: both places of the rule");
        assert_ne!(near[0].id, near[1].id);
    }
    for (at, files) in [(At::Snapshot(v1_id), &v1), (At::Current, &v2)] {
        let expected = expected_terms(files.iter());
        let terms: Vec<String> = expected.df.keys().cloned().collect();
        let stats = s.reader_at("x", at).expect("reader").term_stats(&terms).expect("term stats");
        assert_eq!((stats.chunks, stats.total_length), (expected.chunks, expected.total_length), "{at:?}");
        assert_eq!(stats.df, expected.df, "{at:?}");
        // A file's share at a snapshot is of the version that snapshot holds.
        let m = files.iter().find(|file| file.path == "m.py").expect("m.py");
        let expected = expected_terms([m]);
        let share = s.reader_at("x", at).expect("reader").files_term_stats(&terms, &["m.py".into()]).expect("share");
        assert_eq!((share.chunks, share.total_length), (expected.chunks, expected.total_length), "{at:?}: m.py");
        assert_eq!(share.df, expected.df.into_iter().filter(|(_, df)| *df > 0).collect(), "{at:?}: m.py");
    }
}

fn texts_nothing_holds_are_freed_with_it(f: &Fixture) {
    let s = f.store.as_ref();
    let (v1_id, _) = two_versions(f);
    let (_, v2) = versions();
    let w = s.writer("x").expect("writer");
    // Writing a version again stores nothing new.
    w.replace_files(&v2).expect("write v2 again");
    assert_eq!(stored_texts(s), 6);
    // v1's m.py goes with v1; of its texts only beta 2 was v1's alone.
    let collected = w.delete_snapshots(&[v1_id]).expect("delete v1");
    assert_eq!((collected.snapshots, collected.files, collected.chunks, collected.texts), (1, 1, 4, 1));
    assert_eq!(stored_texts(s), 5);
    // Removing m.py frees its four texts (with alpha's reference); other.py keeps its one.
    assert_eq!(w.remove_files(&["m.py".to_string()]).expect("remove"), 1);
    assert_eq!(stored_texts(s), 1);
    let r = s.reader("x").expect("reader");
    let query = RefQuery { names: vec!["helper".into()], limit: 10, ..RefQuery::default() };
    assert!(r.references(&query).expect("references").is_empty());
    let near = r.vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact).expect("vectors");
    assert_eq!(near.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(), ["other.py"]);
    assert_eq!(r.index_counts().expect("counts").pending_embeddings, 0);
}
