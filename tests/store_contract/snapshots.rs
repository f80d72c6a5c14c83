//! Snapshots: stored files shared between the snapshots holding them, reads scoped to one
//! snapshot, switching back without writing, and deleting snapshots with only what they alone
//! stored.

use cocosearch::store::SnapshotCounts;
use std::collections::BTreeMap;

use cocosearch::chunk::SymbolKind;
use cocosearch::store::{
    At, DefQuery, FileRecord, KeptFile, KeywordQuery, KeywordTerm, RunEnd, RunKind, RunStatus, RunSummary,
    SearchFilter, SnapshotOrigin, SnapshotSpec, Store, VectorAccuracy,
};

use super::records::{ChunkExt, chunk, expected_terms, file};
use super::{Fixture, contract_tests};
use crate::support::index_contents_at;

contract_tests!(
    a_new_snapshot_starts_from_the_current_one_and_each_reads_only_its_own,
    switching_back_keeps_stored_files_without_writing_them,
    deleting_snapshots_takes_only_what_they_alone_stored,
    an_unnamed_current_snapshot_is_taken_over_by_the_first_named_one,
);

fn spec(name: &str) -> SnapshotSpec {
    SnapshotSpec {
        name: name.into(),
        origin: SnapshotOrigin::Branch,
        git_commit: Some(format!("{:0>40}", name.len())),
        git_branch: Some(name.into()),
        worktree: "/work/tree".into(),
    }
}

fn kept(f: &FileRecord, mtime_ns: i64) -> KeptFile {
    KeptFile { path: f.path.clone(), hash: f.hash, size: f.size, mtime_ns }
}

/// Branch `a`: three files. Branch `b`: `one.py` the same, `two.py` changed, `three.py` gone,
/// `four.py` new.
fn branches() -> (Vec<FileRecord>, Vec<FileRecord>) {
    let one = file("one.py", vec![chunk("def shared_helper():\n    return 1").vector(&[1.0, 0.0, 0.0])]);
    let two_a = file(
        "two.py",
        vec![
            chunk("def parse_alpha():\n    return 2")
                .defines(SymbolKind::Function, "parse_alpha")
                .vector(&[0.0, 1.0, 0.0]),
        ],
    );
    let three = file("three.py", vec![chunk("def only_on_alpha():\n    return 3").vector(&[0.0, 0.0, 1.0])]);
    let two_b = file(
        "two.py",
        vec![
            chunk("def parse_beta():\n    return 22")
                .defines(SymbolKind::Function, "parse_beta")
                .vector(&[0.0, 0.7, 0.7]),
        ],
    );
    let four = file("four.py", vec![chunk("def only_on_beta():\n    return 4").vector(&[0.7, 0.7, 0.0])]);
    (vec![one.clone(), two_a, three], vec![one, two_b, four])
}

/// Each branch written into its own snapshot, `b` last (current); returns the two snapshot ids.
fn two_branches(f: &Fixture) -> (i64, i64) {
    let s = &f.store;
    f.index("x");
    let (a, b) = branches();
    let w = s.writer("x").expect("writer");
    let first = w.begin_snapshot(&spec("a")).expect("snapshot a");
    w.replace_files(&a).expect("write a");
    let second = w.begin_snapshot(&spec("b")).expect("snapshot b");
    assert_eq!(second.files, 3, "a new snapshot starts as a copy of the current one");
    w.replace_files(&b[1..]).expect("write b's changes");
    assert_eq!(w.remove_files(&["three.py".to_string()]).expect("remove"), 1);
    (first.id, second.id)
}

/// A clean index of `files` in a store of its own backend.
fn clean(f: &Fixture, name: &str, files: &[FileRecord]) -> BTreeMap<String, String> {
    f.index(name);
    f.store.writer(name).expect("writer").replace_files(files).expect("write");
    index_contents_at(f.store.as_ref(), name, At::Current)
}

fn keyword_paths(s: &dyn Store, at: At, word: &str) -> Vec<String> {
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word(word.into())], select: vec![vec![0]], max_candidates: None };
    let mut paths: Vec<String> = s
        .reader_at("x", at)
        .expect("reader")
        .keyword_candidates(&query, &SearchFilter::default())
        .expect("keywords")
        .into_iter()
        .map(|c| c.path)
        .collect();
    paths.sort();
    paths
}

fn vector_paths(s: &dyn Store, at: At) -> Vec<String> {
    let mut paths: Vec<String> = s
        .reader_at("x", at)
        .expect("reader")
        .vector_search(&[1.0, 1.0, 1.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("vectors")
        .into_iter()
        .map(|h| h.path)
        .collect();
    paths.sort();
    paths
}

fn a_new_snapshot_starts_from_the_current_one_and_each_reads_only_its_own(f: &Fixture) {
    let s = f.store.as_ref();
    let (a_id, b_id) = two_branches(f);
    let (a, b) = branches();
    let at_a = index_contents_at(s, "x", At::Snapshot(a_id));
    let at_b = index_contents_at(s, "x", At::Snapshot(b_id));
    assert_eq!(index_contents_at(s, "x", At::Current), at_b, "the current snapshot is the last begun");
    assert_eq!(at_a, clean(f, "clean_a", &a), "snapshot a reads as a clean index of branch a");
    assert_eq!(at_b, clean(f, "clean_b", &b), "snapshot b reads as a clean index of branch b");

    // Every way of reading sees the snapshot's files only.
    assert_eq!(keyword_paths(s, At::Snapshot(a_id), "return"), ["one.py", "three.py", "two.py"]);
    assert_eq!(keyword_paths(s, At::Current, "return"), ["four.py", "one.py", "two.py"]);
    assert_eq!(keyword_paths(s, At::Current, "alpha"), Vec::<String>::new());
    assert_eq!(vector_paths(s, At::Snapshot(a_id)), ["one.py", "three.py", "two.py"]);
    assert_eq!(vector_paths(s, At::Current), ["four.py", "one.py", "two.py"]);
    let symbols = |at| {
        let r = s.reader_at("x", at).expect("reader");
        let found = r.symbol_search(&["parse_alpha".into(), "parse_beta".into()], &SearchFilter::default(), 10);
        let ids: Vec<i64> = found.expect("symbols").iter().map(|h| h.id).collect();
        r.chunks(&ids).expect("chunks").into_iter().map(|c| c.body.content).collect::<Vec<_>>()
    };
    assert_eq!(symbols(At::Snapshot(a_id)), ["def parse_alpha():\n    return 2"]);
    assert_eq!(symbols(At::Current), ["def parse_beta():\n    return 22"]);
    let defs = |at| {
        let query = DefQuery { limit: 10, ..DefQuery::default() };
        let found = s.reader_at("x", at).expect("reader").definitions(&query).expect("definitions");
        found.into_iter().map(|d| d.symbol.name).collect::<Vec<_>>()
    };
    assert_eq!(defs(At::Snapshot(a_id)), ["parse_alpha"]);
    assert_eq!(defs(At::Current), ["parse_beta"]);
    // Keyword statistics at a snapshot are a clean index's of it, so it ranks as one would.
    for (at, files) in [(At::Snapshot(a_id), &a), (At::Snapshot(b_id), &b), (At::Current, &b)] {
        let expected = expected_terms(files.iter());
        let terms: Vec<String> = expected.df.keys().cloned().chain(["alpha".into(), "beta".into()]).collect();
        let stats = s.reader_at("x", at).expect("reader").term_stats(&terms).expect("term stats");
        assert_eq!((stats.chunks, stats.total_length), (expected.chunks, expected.total_length), "{at:?}");
        assert_eq!(stats.df, expected.df, "{at:?}");
    }
    let counts = |at| s.reader_at("x", at).expect("reader").index_counts().expect("counts");
    assert_eq!((counts(At::Snapshot(a_id)).files, counts(At::Snapshot(a_id)).chunks), (3, 3));
    assert_eq!((counts(At::Current).files, counts(At::Current).chunks), (3, 3));

    // The shared file is stored once: one version of one.py, two of two.py.
    let versions = s.reader("x").expect("reader").stored_versions(None).expect("versions");
    assert_eq!(versions["one.py"].len(), 1);
    assert_eq!(versions["two.py"].len(), 2);
    assert_eq!(versions["three.py"].len(), 1);
    let listed = s.reader("x").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    let summary: Vec<(&str, bool, u64, u64)> =
        listed.iter().map(|l| (l.name.as_str(), l.current, l.files, l.shared_with_current)).collect();
    assert_eq!(summary, [("a", false, 3, 1), ("b", true, 3, 3)]);
    assert_eq!(listed[1].git_branch.as_deref(), Some("b"));
    assert_eq!(listed[1].worktree.as_deref(), Some("/work/tree"));
}

fn switching_back_keeps_stored_files_without_writing_them(f: &Fixture) {
    let s = f.store.as_ref();
    let (a_id, _) = two_branches(f);
    let (a, _) = branches();
    let ids_before: Vec<i64> = {
        let r = s.reader_at("x", At::Snapshot(a_id)).expect("reader");
        let paths: Vec<String> = a.iter().map(|f| f.path.clone()).collect();
        let mut ids: Vec<i64> = r.file_chunks(&paths).expect("chunks").iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids
    };
    let w = s.writer("x").expect("writer");
    let back = w.begin_snapshot(&spec("a")).expect("back to a");
    assert_eq!(back.id, a_id, "a snapshot's name finds it again");
    assert!(back.current);
    // The checkout touched every file: each is kept at its stored version, nothing is written.
    assert_eq!(w.touch_files(&a.iter().map(|f| kept(f, 99)).collect::<Vec<_>>()).expect("keep"), 3);
    let states = w.reader().file_states(None).expect("states");
    assert!(states.values().all(|s| s.mtime_ns == 99), "the tree's mtimes are recorded: {states:?}");
    let paths: Vec<String> = a.iter().map(|f| f.path.clone()).collect();
    let mut ids: Vec<i64> = w.reader().file_chunks(&paths).expect("chunks").iter().map(|c| c.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, ids_before, "no chunk was written again");

    // Keeping a stored version another snapshot wrote takes it into this one.
    let (_, b) = branches();
    assert_eq!(w.touch_files(&[kept(&b[1], 5)]).expect("take b's two.py"), 1);
    let two = w.reader().file_chunks(&["two.py".to_string()]).expect("two.py");
    assert_eq!(two.len(), 1);
    assert_eq!(two[0].body.content, "def parse_beta():\n    return 22");
    // a's version of two.py was held by a alone: it is gone.
    let versions = w.reader().stored_versions(Some(&["two.py".to_string()])).expect("versions");
    assert_eq!(versions["two.py"].len(), 1);
}

fn deleting_snapshots_takes_only_what_they_alone_stored(f: &Fixture) {
    let s = f.store.as_ref();
    let (a_id, b_id) = two_branches(f);
    let (a, b) = branches();
    let w = s.writer("x").expect("writer");
    let nothing = w.delete_snapshots(&[b_id]).expect("the current one is never deleted");
    assert_eq!((nothing.snapshots, nothing.files), (0, 0));
    w.begin_snapshot(&spec("a")).expect("back to a");
    let collected = w.delete_snapshots(&[b_id]).expect("delete b");
    assert_eq!((collected.snapshots, collected.files, collected.chunks), (1, 2, 2), "b's two.py and four.py");
    let listed = s.reader("x").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!(listed.iter().map(|l| l.id).collect::<Vec<_>>(), [a_id]);
    assert_eq!(index_contents_at(s, "x", At::Current), clean(f, "clean_a", &a));
    let versions = s.reader("x").expect("reader").stored_versions(None).expect("versions");
    assert_eq!(versions.values().map(Vec::len).sum::<usize>(), 3, "{versions:?}");
    assert!(!versions.contains_key("four.py"));
    // Keyword statistics count a's chunks only, as in a clean index of a.
    let expected = expected_terms(&a);
    let terms: Vec<String> = expected.df.keys().cloned().chain(["beta".to_string()]).collect();
    let stats = s.reader("x").expect("reader").term_stats(&terms).expect("term stats");
    assert_eq!((stats.chunks, stats.total_length), (expected.chunks, expected.total_length));
    assert_eq!(stats.df, expected.df);
    // A snapshot that is gone reads as empty.
    assert!(s.reader_at("x", At::Snapshot(b_id)).expect("reader").file_states(None).expect("states").is_empty());
    let _ = b;
}

fn an_unnamed_current_snapshot_is_taken_over_by_the_first_named_one(f: &Fixture) {
    let s = f.store.as_ref();
    f.index("x");
    let w = s.writer("x").expect("writer");
    // Writing before any snapshot was begun keeps the files in `working-tree`.
    w.replace_files(&[file("a.py", vec![chunk("x = 1")])]).expect("write");
    let listed = w.reader().snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!(
        listed.iter().map(|l| (l.name.as_str(), l.origin, l.current)).collect::<Vec<_>>(),
        [("working-tree", SnapshotOrigin::WorkingTree, true)]
    );
    assert_eq!(listed[0].worktree.as_deref(), Some(f.t.path().to_string_lossy().as_ref()));
    // A run's end records its git state on the current snapshot.
    let run_id = w.start_run(RunKind::Full).expect("start");
    let summary = RunSummary::default();
    let end = RunEnd {
        run_id,
        status: RunStatus::Completed,
        summary: &summary,
        git_commit: Some("abc"),
        git_branch: Some("dev"),
    };
    w.finish_run(&end).expect("finish");
    let listed = w.reader().snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!((listed[0].git_commit.as_deref(), listed[0].git_branch.as_deref()), (Some("abc"), Some("dev")));
    // The first named snapshot takes it over (a store from before snapshots, a tree now in git),
    // with what it holds, instead of keeping it beside.
    let first = w.begin_snapshot(&spec("main")).expect("main");
    assert_eq!((first.id, first.origin, first.files), (listed[0].id, SnapshotOrigin::Branch, 1));
    assert_eq!(w.reader().snapshots(SnapshotCounts::Counted).expect("snapshots").len(), 1);
    // A named one is copied by the next, not taken over.
    let second = w.begin_snapshot(&spec("feature")).expect("feature");
    assert_ne!(second.id, first.id);
    assert_eq!((second.files, second.shared_with_current), (1, 1));
}
