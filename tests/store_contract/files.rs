//! Writing files: per-file atomic replacement, skipped files, file states, touching and
//! removing.

use std::collections::HashSet;

use cocosearch::chunk::ParseStatus;
use cocosearch::discover::SkipReason;
use cocosearch::store::{FileRecord, FileState, KeptFile, SearchFilter, VectorAccuracy};

use super::records::{ChunkExt, chunk, file, places, skipped};
use super::{Fixture, contract_tests};
use crate::support::all_chunks;

contract_tests!(
    replacing_a_file_swaps_all_its_chunks,
    a_failed_batch_leaves_every_file_as_it_was,
    skipped_files_are_recorded_without_chunks,
    file_states_of_all_or_some_paths,
    touching_files_changes_only_size_and_mtime,
    removing_files_takes_their_chunks,
);

fn state(f: &FileRecord) -> FileState {
    FileState {
        size: f.size,
        mtime_ns: f.mtime_ns,
        hash: f.hash,
        skip_reason: f.skip_reason,
        chunking: f.chunking.clone(),
    }
}

fn strings(paths: &[&str]) -> Vec<String> {
    paths.iter().map(|p| p.to_string()).collect()
}

fn replacing_a_file_swaps_all_its_chunks(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let a = file("a.py", vec![chunk("def one():\n    return 1"), chunk("def two():\n    return 2")]);
    let b = file("b.py", vec![chunk("def other():\n    return 3")]);
    s.writer("x").expect("writer").replace_files(&[a.clone(), b.clone()]).expect("write");
    let before = all_chunks(s.as_ref(), "x");
    assert_eq!(places(&before), vec![("a.py".into(), 0), ("a.py".into(), 1), ("b.py".into(), 0)]);
    for (stored, written) in before.iter().zip(a.chunks.iter().chain(&b.chunks)) {
        assert_eq!(stored.body, written.body, "a chunk reads back as written");
        assert_eq!(stored.language, "python");
    }
    let old_a: Vec<i64> = before.iter().filter(|c| c.path == "a.py").map(|c| c.id).collect();
    let b_id = before.iter().find(|c| c.path == "b.py").map(|c| c.id).expect("b");

    // a.py now has three other chunks: all of its old ones go, b.py is untouched.
    let a2 = file(
        "a.py",
        vec![
            chunk("def one():\n    return 'one'"),
            chunk("def two():\n    return 'two'"),
            chunk("def three():\n    return 'three'"),
        ],
    );
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&a2)).expect("replace");
    let after = all_chunks(s.as_ref(), "x");
    let contents: Vec<&str> = after.iter().filter(|c| c.path == "a.py").map(|c| c.body.content.as_str()).collect();
    assert_eq!(contents, a2.chunks.iter().map(|c| c.body.content.as_str()).collect::<Vec<_>>());
    assert_eq!(after.iter().filter(|c| c.path == "a.py").map(|c| c.ordinal).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert_eq!(after.iter().find(|c| c.path == "b.py").map(|c| c.id), Some(b_id), "b.py keeps its chunk and id");
    assert!(
        s.reader("x").expect("reader").chunks(&old_a).expect("old ids").is_empty(),
        "the old chunks of a.py are gone"
    );
    // New chunks get new ids: an id held by a search never names another chunk later.
    let seen: HashSet<i64> = before.iter().map(|c| c.id).collect();
    let new_ids: Vec<i64> = after.iter().filter(|c| c.path == "a.py").map(|c| c.id).collect();
    assert!(new_ids.iter().all(|id| !seen.contains(id)), "ids reused: before {seen:?}, new {new_ids:?}");
    assert_eq!(s.reader("x").expect("reader").file_states(None).expect("states")["a.py"], state(&a2));
    let counts = s.reader("x").expect("reader").index_counts().expect("counts");
    assert_eq!((counts.files, counts.chunks), (2, 4), "{counts:?}");
    assert_eq!(counts.lines, u64::from(a2.lines + b.lines));

    // A file that now has no chunks (emptied) keeps its record and loses its chunks.
    let empty = file("a.py", Vec::new());
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&empty)).expect("empty a.py");
    assert_eq!(places(&all_chunks(s.as_ref(), "x")), vec![("b.py".into(), 0)]);
    assert_eq!(s.reader("x").expect("reader").file_states(None).expect("states")["a.py"], state(&empty));

    // Several files in one call, new and old alike; an empty call changes nothing.
    let c = file("c.py", vec![chunk("def c():\n    pass")]);
    s.writer("x").expect("writer").replace_files(&[a.clone(), c.clone()]).expect("batch");
    s.writer("x").expect("writer").replace_files(&[]).expect("empty batch");
    let places_now = places(&all_chunks(s.as_ref(), "x"));
    assert_eq!(places_now, vec![("a.py".into(), 0), ("a.py".into(), 1), ("b.py".into(), 0), ("c.py".into(), 0)]);
}

fn a_failed_batch_leaves_every_file_as_it_was(f: &Fixture) {
    // The promise is about crashes; a write that fails half-way (here on a vector of the wrong
    // dimension in the second file) must leave the same state behind: every file of the batch
    // as it was before the call.
    let s = &f.store;
    f.index("x");
    let a = file("a.py", vec![chunk("def a():\n    return 1").vector(&[1.0, 0.0, 0.0])]);
    let b = file("b.py", vec![chunk("def b():\n    return 2")]);
    s.writer("x").expect("writer").replace_files(&[a.clone(), b.clone()]).expect("write");
    let before = all_chunks(s.as_ref(), "x");
    let states = s.reader("x").expect("reader").file_states(None).expect("states");

    let a2 = file("a.py", vec![chunk("def a():\n    return 'new'"), chunk("def a2():\n    pass")]);
    let b2 = file("b.py", vec![chunk("def b():\n    return 'new'").vector(&[1.0, 0.0, 0.0, 0.0])]);
    let err = s.writer("x").expect("writer").replace_files(&[a2, b2]);
    assert!(err.is_err(), "a 4-dimensional vector was accepted by a 3-dimensional index");
    assert_eq!(all_chunks(s.as_ref(), "x"), before, "a failed batch changed chunks");
    assert_eq!(
        s.reader("x").expect("reader").file_states(None).expect("states"),
        states,
        "a failed batch changed files"
    );
    let stats = s.reader("x").expect("reader").term_stats(&["new".into()]).expect("stats");
    assert_eq!((stats.chunks, stats.df.get("new")), (2, None), "a failed batch changed term statistics");

    let bad = s.writer("x").expect("writer").set_embeddings(&[(before[1].id, vec![1.0, 0.0])]);
    assert!(bad.is_err(), "a 2-dimensional vector was stored in a 3-dimensional index");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 1);
}

fn skipped_files_are_recorded_without_chunks(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let ok = file("ok.py", vec![chunk("def fine():\n    return 1")]);
    let binary = skipped("blob.dat", SkipReason::Binary);
    let latin1 = skipped("latin1.py", SkipReason::NotUtf8);
    s.writer("x").expect("writer").replace_files(&[ok.clone(), binary.clone(), latin1.clone()]).expect("write");
    let states = s.reader("x").expect("reader").file_states(None).expect("states");
    assert_eq!(states.len(), 3);
    assert_eq!(states["blob.dat"], state(&binary));
    assert_eq!(states["blob.dat"].skip_reason, Some(SkipReason::Binary));
    assert_eq!(states["latin1.py"].skip_reason, Some(SkipReason::NotUtf8));
    assert_eq!(states["ok.py"].skip_reason, None);
    let counts = s.reader("x").expect("reader").index_counts().expect("counts");
    assert_eq!((counts.files, counts.chunks), (1, 1), "skipped files are not indexed files: {counts:?}");
    assert_eq!(counts.languages.iter().map(|l| l.files).sum::<u64>(), 1, "{counts:?}");

    // A file that becomes unreadable loses its chunks but stays recorded; and back.
    let now_binary = skipped("ok.py", SkipReason::Binary);
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&now_binary)).expect("skip ok.py");
    assert_eq!(s.reader("x").expect("reader").index_counts().expect("counts").chunks, 0);
    assert_eq!(s.reader("x").expect("reader").file_states(None).expect("states")["ok.py"], state(&now_binary));
    assert_eq!(s.reader("x").expect("reader").term_stats(&["fine".into()]).expect("stats").df.get("fine"), None);
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&ok)).expect("fixed");
    assert_eq!(s.reader("x").expect("reader").file_states(None).expect("states")["ok.py"], state(&ok));
    assert_eq!(places(&all_chunks(s.as_ref(), "x")), vec![("ok.py".into(), 0)]);
}

fn file_states_of_all_or_some_paths(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let mut a = file("src/a.py", vec![chunk("a = 1")]);
    a.mtime_ns = -5;
    let mut b = file("src/b.py", vec![chunk("b = 2")]);
    b.size = u64::from(u32::MAX) + 10;
    b.mtime_ns = i64::MAX - 1;
    let c = skipped("c.bin", SkipReason::Binary);
    s.writer("x").expect("writer").replace_files(&[a.clone(), b.clone(), c.clone()]).expect("write");

    let all = s.reader("x").expect("reader").file_states(None).expect("all");
    assert_eq!(all.len(), 3);
    assert_eq!((&all["src/a.py"], &all["src/b.py"], &all["c.bin"]), (&state(&a), &state(&b), &state(&c)));
    let some =
        s.reader("x").expect("reader").file_states(Some(&strings(&["src/b.py", "missing.py", "c.bin"]))).expect("some");
    assert_eq!(some.len(), 2, "unknown paths are left out: {some:?}");
    assert_eq!((&some["src/b.py"], &some["c.bin"]), (&state(&b), &state(&c)));
    assert!(
        s.reader("x").expect("reader").file_states(Some(&[])).expect("none").is_empty(),
        "no paths asked, none given"
    );
}

fn touching_files_changes_only_size_and_mtime(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let a = file("a.py", vec![chunk("def a():\n    return 1").vector(&[0.0, 0.0, 1.0])]);
    let b = file("b.py", vec![chunk("def b():\n    return 2")]);
    s.writer("x").expect("writer").replace_files(&[a.clone(), b.clone()]).expect("write");
    let before = all_chunks(s.as_ref(), "x");

    // Stopgap for the snapshot API (the files row keeps its size; the member takes the mtime).
    let kept = [
        KeptFile { path: "a.py".into(), hash: a.hash, size: a.size, mtime_ns: 42 },
        KeptFile { path: "ghost.py".into(), hash: [9; 32], size: 9, mtime_ns: 9 },
    ];
    assert_eq!(s.writer("x").expect("writer").touch_files(&kept).expect("touch"), 1);
    assert_eq!(s.writer("x").expect("writer").touch_files(&[]).expect("touch nothing"), 0);
    let states = s.reader("x").expect("reader").file_states(None).expect("states");
    assert_eq!(states["a.py"], FileState { mtime_ns: 42, ..state(&a) });
    assert_eq!(states["b.py"], state(&b));
    assert!(!states.contains_key("ghost.py"), "touching an unknown path records nothing");
    assert_eq!(all_chunks(s.as_ref(), "x"), before, "touching leaves chunks and their ids alone");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 1);
}

fn removing_files_takes_their_chunks(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = [
        file("a.py", vec![chunk("def a():\n    return 1").vector(&[1.0, 0.0, 0.0]), chunk("def a2():\n    pass")]),
        file("b.py", vec![chunk("def b():\n    return 2").vector(&[0.0, 1.0, 0.0])]),
        file("c.py", vec![chunk("def c():\n    return 3")]),
        skipped("d.bin", SkipReason::Binary),
    ];
    s.writer("x").expect("writer").replace_files(&files).expect("write");

    let removed = s.writer("x").expect("writer").remove_files(&strings(&["a.py", "d.bin", "nope.py"])).expect("remove");
    assert_eq!(removed, 2, "only files that were there count");
    assert_eq!(s.writer("x").expect("writer").remove_files(&[]).expect("remove nothing"), 0);
    let states = s.reader("x").expect("reader").file_states(None).expect("states");
    let mut left: Vec<&String> = states.keys().collect();
    left.sort();
    assert_eq!(left, vec!["b.py", "c.py"]);
    assert_eq!(places(&all_chunks(s.as_ref(), "x")), vec![("b.py".into(), 0), ("c.py".into(), 0)]);
    assert_eq!(
        s.reader("x").expect("reader").count_pending().expect("pending"),
        1,
        "a.py's pending chunk left with it"
    );
    let hits = s
        .reader("x")
        .expect("reader")
        .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("search");
    assert_eq!(hits.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(), vec!["b.py"]);
    let counts = s.reader("x").expect("reader").index_counts().expect("counts");
    assert_eq!((counts.files, counts.chunks), (2, 2));
    assert_eq!(
        counts.languages.iter().map(|l| l.parse_status.get(&ParseStatus::Ok).copied().unwrap_or(0)).sum::<u64>(),
        2
    );

    // Removing the same files again removes nothing and fails nothing.
    assert_eq!(s.writer("x").expect("writer").remove_files(&strings(&["a.py"])).expect("again"), 0);
}
