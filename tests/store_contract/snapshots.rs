//! Snapshots (quick checks written with the PostgreSQL side; to be reconciled with the full
//! set): writes go to the current snapshot, reads to the reader's, stored versions are shared
//! and collected when no snapshot holds them.

use cocosearch::chunk::SymbolKind;
use cocosearch::store::{
    At, Collected, DefQuery, FileRecord, KeptFile, KeywordQuery, KeywordTerm, RunEnd, RunKind, RunStatus, RunSummary,
    SearchFilter, SnapshotOrigin, SnapshotSpec, Store, VectorAccuracy,
};

use super::records::{ChunkExt, chunk, expected_terms, file};
use super::{Fixture, contract_tests};

contract_tests!(
    writes_go_to_the_current_snapshot_and_reads_to_their_own,
    a_stored_version_is_taken_back_and_collected_when_unheld,
    a_new_index_writes_an_implicit_working_tree,
);

fn spec(name: &str) -> SnapshotSpec {
    SnapshotSpec {
        name: name.into(),
        origin: SnapshotOrigin::Branch,
        git_commit: Some(format!("{name}-commit")),
        git_branch: Some(name.into()),
        worktree: "/tree".into(),
    }
}

fn kept(f: &FileRecord) -> KeptFile {
    KeptFile { path: f.path.clone(), hash: f.hash, size: f.size, mtime_ns: 7 }
}

fn keyword_paths(s: &dyn Store, at: At, word: &str) -> Vec<String> {
    let q = KeywordQuery { terms: vec![KeywordTerm::Word(word.into())], select: vec![vec![0]], max_candidates: None };
    let mut paths: Vec<String> = s
        .reader_at("x", at)
        .expect("reader")
        .keyword_candidates(&q, &SearchFilter::default())
        .expect("keywords")
        .into_iter()
        .map(|c| c.path)
        .collect();
    paths.sort();
    paths
}

fn state_paths(s: &dyn Store, at: At) -> Vec<(String, [u8; 32])> {
    let mut states: Vec<(String, [u8; 32])> = s
        .reader_at("x", at)
        .expect("reader")
        .file_states(None)
        .expect("states")
        .into_iter()
        .map(|(p, st)| (p, st.hash))
        .collect();
    states.sort();
    states
}

fn assert_terms(s: &dyn Store, stored: &[&FileRecord]) {
    let expected = expected_terms(stored.iter().copied());
    let terms: Vec<String> = expected.df.keys().cloned().collect();
    let stats = s.reader("x").expect("reader").term_stats(&terms).expect("terms");
    assert_eq!((stats.chunks, stats.total_length), (expected.chunks, expected.total_length));
    assert_eq!(stats.df, expected.df);
}

fn writes_go_to_the_current_snapshot_and_reads_to_their_own(f: &Fixture) {
    let s = f.store.as_ref();
    f.index("x");
    let a1 = file(
        "a.py",
        vec![chunk("def apple():\n    return 1").defines(SymbolKind::Function, "apple").vector(&[1.0, 0.0, 0.0])],
    );
    let a2 = file("a.py", vec![chunk("def avocado():\n    return 2").defines(SymbolKind::Function, "avocado")]);
    let b = file("b.py", vec![chunk("def banana():\n    return 3")]);
    let c = file("c.py", vec![chunk("def cherry():\n    return 4")]);

    let main = s.writer("x").expect("writer").begin_snapshot(&spec("main")).expect("begin main");
    assert!(main.current && main.files == 0 && main.name == "main", "{main:?}");
    s.writer("x").expect("writer").replace_files(&[a1.clone(), b.clone()]).expect("write main");
    let feature = s.writer("x").expect("writer").begin_snapshot(&spec("feature")).expect("begin feature");
    assert_eq!((feature.files, feature.shared_with_current, feature.current), (2, 2, true), "a copy of main");
    assert_ne!(feature.id, main.id);
    {
        let w = s.writer("x").expect("writer");
        w.replace_files(&[a2.clone(), c.clone()]).expect("write feature");
        assert_eq!(w.remove_files(&["b.py".to_string()]).expect("remove"), 1);
    }

    // The current snapshot is the feature's; main keeps what it held.
    assert_eq!(state_paths(s, At::Current), vec![("a.py".into(), a2.hash), ("c.py".into(), c.hash)]);
    assert_eq!(state_paths(s, At::Snapshot(main.id)), vec![("a.py".into(), a1.hash), ("b.py".into(), b.hash)]);
    assert_eq!(keyword_paths(s, At::Current, "apple"), Vec::<String>::new());
    assert_eq!(keyword_paths(s, At::Current, "avocado"), vec!["a.py"]);
    assert_eq!(keyword_paths(s, At::Snapshot(main.id), "apple"), vec!["a.py"]);
    assert_eq!(keyword_paths(s, At::Snapshot(main.id), "banana"), vec!["b.py"]);
    let chunks = s.reader("x").expect("reader").file_chunks(&["a.py".into()]).expect("chunks");
    assert_eq!(chunks.len(), 1);
    assert!(chunks[0].body.content.contains("avocado"));
    let defs = |at| {
        let mut names: Vec<String> = s
            .reader_at("x", at)
            .expect("reader")
            .definitions(&DefQuery { limit: usize::MAX, ..DefQuery::default() })
            .expect("defs")
            .into_iter()
            .map(|d| d.symbol.qualified_name)
            .collect();
        names.sort();
        names
    };
    assert_eq!(defs(At::Current), vec!["avocado"]);
    assert_eq!(defs(At::Snapshot(main.id)), vec!["apple"]);
    let names = |at| s.reader_at("x", at).expect("reader").definition_names().expect("names");
    assert_eq!((names(At::Current), names(At::Snapshot(main.id))), (vec!["avocado".into()], vec!["apple".into()]));
    let symbols = |at, name: &str| {
        let hits = s.reader_at("x", at).expect("reader").symbol_search(&[name.into()], &SearchFilter::default(), 5);
        hits.expect("symbols").len()
    };
    assert_eq!((symbols(At::Current, "apple"), symbols(At::Snapshot(main.id), "apple")), (0, 1));
    let nearest = |at| {
        let hits = s.reader_at("x", at).expect("reader").vector_search(
            &[1.0, 0.0, 0.0],
            &SearchFilter::default(),
            10,
            VectorAccuracy::Exact,
        );
        hits.expect("vectors").into_iter().map(|h| h.path).collect::<Vec<_>>()
    };
    assert_eq!((nearest(At::Current), nearest(At::Snapshot(main.id))), (vec![], vec!["a.py".to_string()]));
    assert_eq!(s.reader("x").expect("reader").index_counts().expect("counts").files, 2);
    assert_eq!(s.reader_at("x", At::Snapshot(main.id)).expect("reader").index_counts().expect("counts").chunks, 2);
    // Term statistics are the index's: every stored version.
    assert_terms(s, &[&a1, &a2, &b, &c]);
    let versions = s.reader("x").expect("reader").stored_versions(Some(&["a.py".into()])).expect("versions");
    let mut hashes: Vec<[u8; 32]> = versions["a.py"].iter().map(|v| v.hash).collect();
    hashes.sort();
    let mut want = vec![a1.hash, a2.hash];
    want.sort();
    assert_eq!(hashes, want);

    let listed = s.reader("x").expect("reader").snapshots().expect("snapshots");
    let summary: Vec<(&str, bool, u64, u64)> =
        listed.iter().map(|r| (r.name.as_str(), r.current, r.files, r.shared_with_current)).collect();
    assert_eq!(summary, vec![("main", false, 2, 0), ("feature", true, 2, 2)]);

    // Back to main: an existing snapshot keeps what it holds.
    let back = s.writer("x").expect("writer").begin_snapshot(&spec("main")).expect("back to main");
    assert_eq!((back.id, back.files, back.current), (main.id, 2, true));
    assert_eq!(state_paths(s, At::Current), vec![("a.py".into(), a1.hash), ("b.py".into(), b.hash)]);
    // Deleting the feature takes the versions only it held; the current one is never deleted.
    let collected = s.writer("x").expect("writer").delete_snapshots(&[feature.id, main.id]).expect("delete");
    assert_eq!(collected, Collected { snapshots: 1, files: 2, chunks: 2 });
    assert_terms(s, &[&a1, &b]);
    assert_eq!(s.reader("x").expect("reader").snapshots().expect("snapshots").len(), 1);
    assert!(s.reader("x").expect("reader").stored_versions(Some(&["c.py".into()])).expect("versions").is_empty());
}

fn a_stored_version_is_taken_back_and_collected_when_unheld(f: &Fixture) {
    let s = f.store.as_ref();
    f.index("x");
    let a1 = file("a.py", vec![chunk("def apple():\n    return 1").vector(&[1.0, 0.0, 0.0])]);
    let a2 = file("a.py", vec![chunk("def avocado():\n    return 2")]);
    let w = s.writer("x").expect("writer");
    w.begin_snapshot(&spec("main")).expect("main");
    w.replace_files(std::slice::from_ref(&a1)).expect("a1");
    w.begin_snapshot(&spec("feature")).expect("feature");
    w.replace_files(std::slice::from_ref(&a2)).expect("a2");
    assert_terms(s, &[&a1, &a2]);
    // The feature takes a1 back (its content as main stored it): a2 is held by nothing and goes.
    assert_eq!(w.touch_files(&[kept(&a1), kept(&file("ghost.py", vec![chunk("boo")]))]).expect("touch"), 1);
    assert_terms(s, &[&a1]);
    let states = s.reader("x").expect("reader").file_states(None).expect("states");
    assert_eq!((states["a.py"].hash, states["a.py"].mtime_ns, states["a.py"].size), (a1.hash, 7, a1.size));
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 0, "a1's vector kept");
    // Removed from both snapshots, the version goes.
    assert_eq!(w.remove_files(&["a.py".into()]).expect("remove"), 1);
    assert_terms(s, &[&a1]);
    w.begin_snapshot(&spec("main")).expect("main again");
    assert_eq!(w.remove_files(&["a.py".into()]).expect("remove"), 1);
    assert_terms(s, &[]);
    assert!(s.reader("x").expect("reader").stored_versions(None).expect("versions").is_empty());
}

fn a_new_index_writes_an_implicit_working_tree(f: &Fixture) {
    let s = f.store.as_ref();
    f.index("x");
    assert!(s.reader("x").expect("reader").snapshots().expect("snapshots").is_empty());
    assert!(s.reader("x").expect("reader").file_states(None).expect("states").is_empty());
    let a = file("a.py", vec![chunk("def apple():\n    return 1")]);
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&a)).expect("write");
    let listed = s.reader("x").expect("reader").snapshots().expect("snapshots");
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].name.as_str(), listed[0].origin, listed[0].current),
        ("working-tree", SnapshotOrigin::WorkingTree, true)
    );
    assert_eq!(listed[0].worktree.as_deref(), Some(f.t.path().to_string_lossy().as_ref()));
    // A run's end records its git state on the current snapshot.
    let w = s.writer("x").expect("writer");
    let run_id = w.start_run(RunKind::Full).expect("start");
    let summary = RunSummary::default();
    w.finish_run(&RunEnd {
        run_id,
        status: RunStatus::Completed,
        summary: &summary,
        git_commit: Some("abc"),
        git_branch: Some("dev"),
    })
    .expect("finish");
    let listed = s.reader("x").expect("reader").snapshots().expect("snapshots");
    assert_eq!((listed[0].git_commit.as_deref(), listed[0].git_branch.as_deref()), (Some("abc"), Some("dev")));
    assert!(listed[0].updated_at >= listed[0].created_at);
    // A snapshot holding files is copied, not renamed, by the first named one.
    let named = w.begin_snapshot(&spec("main")).expect("main");
    assert_eq!((named.files, named.shared_with_current), (1, 1));
    assert_eq!(s.reader("x").expect("reader").snapshots().expect("snapshots").len(), 2);
}
