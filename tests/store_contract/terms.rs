//! Term statistics for BM25: document frequencies, the chunk count and the total keyword
//! length, exact after every write, replacement and removal, with no term left at zero.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use cocosearch::discover::SkipReason;
use cocosearch::store::FileRecord;

use super::records::{ChunkExt, chunk, expected_terms, file, skipped};
use super::{Fixture, contract_tests};

contract_tests!(term_statistics_follow_every_write);

/// Checks the store's statistics for every term ever written (and one never written) against
/// those computed from the files the index should now hold.
fn check(f: &Fixture, now: &BTreeMap<String, FileRecord>, ever: &BTreeSet<String>, step: &str) {
    let expected = expected_terms(now.values());
    let mut asked: Vec<String> = ever.iter().cloned().collect();
    asked.push("neverwritten".into());
    let stats = f.store.reader("t").expect("reader").term_stats(&asked).expect("term stats");
    assert_eq!(stats.chunks, expected.chunks, "{step}: chunks");
    assert_eq!(stats.total_length, expected.total_length, "{step}: total length");
    let wanted: HashMap<String, u64> = expected.df.into_iter().filter(|(term, _)| ever.contains(term)).collect();
    assert_eq!(stats.df, wanted, "{step}: document frequencies (a term no chunk holds any more is absent)");
    let bare = f.store.reader("t").expect("reader").term_stats(&[]).expect("no terms");
    assert_eq!((bare.chunks, bare.total_length, bare.df.len()), (stats.chunks, stats.total_length, 0), "{step}");
    check_files(f, now, &asked, step);
}

/// Each file's share of the statistics, every file's together (the whole index's), and an
/// unknown file's (nothing).
fn check_files(f: &Fixture, now: &BTreeMap<String, FileRecord>, asked: &[String], step: &str) {
    let reader = f.store.reader("t").expect("reader");
    let share = |paths: &[String]| reader.files_term_stats(asked, paths).expect("files' term stats");
    for (path, file) in now {
        let expected = expected_terms([file]);
        let got = share(std::slice::from_ref(path));
        assert_eq!((got.chunks, got.total_length), (expected.chunks, expected.total_length), "{step}: {path}");
        let wanted: HashMap<String, u64> = expected.df.into_iter().filter(|(term, _)| asked.contains(term)).collect();
        assert_eq!(got.df, wanted, "{step}: document frequencies in {path}");
    }
    let all: Vec<String> = now.keys().cloned().chain(["not/indexed.py".to_string()]).collect();
    assert_eq!(share(&all), reader.term_stats(asked).expect("term stats"), "{step}: every file's share is the whole");
    assert_eq!(share(&["not/indexed.py".to_string()]), Default::default(), "{step}: an unknown file holds nothing");
}

fn term_statistics_follow_every_write(f: &Fixture) {
    f.index("t");
    let mut now: BTreeMap<String, FileRecord> = BTreeMap::new();
    let mut ever: BTreeSet<String> = BTreeSet::new();
    let mut write = |files: Vec<FileRecord>, now: &mut BTreeMap<String, FileRecord>| {
        f.store.writer("t").expect("writer").replace_files(&files).expect("write");
        for file in files {
            ever.extend(file.chunks.iter().flat_map(|c| c.keywords.split_ascii_whitespace().map(str::to_string)));
            now.insert(file.path.clone(), file);
        }
        ever.clone()
    };

    let ever_now = write(
        vec![
            file(
                "a.py",
                vec![
                    chunk("def uniqueterm_holder(shared):\n    return shared"),
                    chunk("def second(shared):\n    return shared + shared"),
                ],
            ),
            file("b.py", vec![chunk("class Shared:\n    pass").vector(&[1.0, 0.0, 0.0])]),
            file("many.txt", vec![chunk("many").keywords(&"word ".repeat(300))]),
            skipped("blob.bin", SkipReason::Binary),
        ],
        &mut now,
    );
    check(f, &now, &ever_now, "first write");

    // a.py loses `uniqueterm` and gains `fresh`; its old chunks leave the statistics.
    let ever_now = write(vec![file("a.py", vec![chunk("def fresh_holder(shared):\n    return 1")])], &mut now);
    check(f, &now, &ever_now, "replace");
    assert!(
        !f.store
            .reader("t")
            .expect("reader")
            .term_stats(&["uniqueterm".into()])
            .expect("stats")
            .df
            .contains_key("uniqueterm")
    );

    // The same file written again unchanged changes nothing.
    let a = now["a.py"].clone();
    let ever_now = write(vec![a], &mut now);
    check(f, &now, &ever_now, "rewrite");

    // Removal, and a file that becomes skipped.
    assert_eq!(f.store.writer("t").expect("writer").remove_files(&["b.py".to_string()]).expect("remove"), 1);
    now.remove("b.py");
    check(f, &now, &ever_now, "remove");
    let ever_now = write(vec![skipped("many.txt", SkipReason::NotUtf8)], &mut now);
    check(f, &now, &ever_now, "now skipped");

    // Everything gone: nothing counted.
    let paths: Vec<String> = now.keys().cloned().collect();
    f.store.writer("t").expect("writer").remove_files(&paths).expect("remove all");
    now.clear();
    check(f, &now, &ever_now, "empty");
    let stats = f.store.reader("t").expect("reader").term_stats(&[]).expect("stats");
    assert_eq!((stats.chunks, stats.total_length), (0, 0));
}
