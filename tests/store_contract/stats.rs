//! What the store counts for `stats` (files, chunks, lines, pending vectors, parse status per
//! language, symbols by kind, failing files), the runs it records, and the query-vector cache.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime};

use cocosearch::chunk::{ParseStatus, SymbolKind};
use cocosearch::discover::{SkipCounts, SkipReason};
use cocosearch::store::{
    ChunkCounts, EmbeddingCounts, ErrorPosition, FailingFile, FileCounts, FileRecord, IndexCounts, LanguageCounts,
    RunEnd, RunKind, RunStatus, RunSummary,
};

use super::records::{ChunkExt, chunk, error_at, file, skipped, symbols_by_kind};
use super::{Fixture, contract_tests};

contract_tests!(
    index_counts_count_what_was_written,
    failing_files_come_most_failing_first,
    runs_are_recorded_newest_first_with_their_summaries,
    query_vectors_are_cached_per_model_and_replaced,
);

/// The counts a store should report for these files, computed from the records.
fn expected_counts(files: &[FileRecord]) -> IndexCounts {
    let indexed: Vec<&FileRecord> = files.iter().filter(|f| f.skip_reason.is_none()).collect();
    let mut languages: HashMap<String, LanguageCounts> = HashMap::new();
    for f in &indexed {
        let l = languages
            .entry(f.language.clone())
            .or_insert_with(|| LanguageCounts { language: f.language.clone(), ..LanguageCounts::default() });
        l.files += 1;
        l.lines += u64::from(f.lines);
        l.chunks += f.chunks.len() as u64;
        for c in &f.chunks {
            *l.parse_status.entry(c.body.parse_status).or_default() += 1;
        }
    }
    let mut languages: Vec<LanguageCounts> = languages.into_values().collect();
    languages.sort_by_key(|l| std::cmp::Reverse(l.chunks));
    let chunks = indexed.iter().flat_map(|f| &f.chunks);
    IndexCounts {
        files: indexed.len() as u64,
        chunks: chunks.clone().count() as u64,
        stored_texts: distinct_texts(&indexed),
        pending_embeddings: chunks.filter(|c| c.embedding.is_none()).count() as u64,
        lines: indexed.iter().map(|f| u64::from(f.lines)).sum(),
        storage_bytes: 0,
        languages,
        symbols_by_type: symbols_by_kind(files),
    }
}

/// The distinct chunk texts of `files`: a text is a path's chunk content (its keywords hold the
/// path), wherever in the file it stands.
fn distinct_texts(files: &[&FileRecord]) -> u64 {
    let texts: std::collections::HashSet<(&str, &str)> =
        files.iter().flat_map(|f| f.chunks.iter().map(|c| (f.path.as_str(), c.body.content.as_str()))).collect();
    texts.len() as u64
}

fn index_counts_count_what_was_written(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let mut files = vec![
        file(
            "src/a.py",
            vec![
                chunk("def a():\n    return 1").defines(SymbolKind::Function, "a").vector(&[1.0, 0.0, 0.0]),
                chunk("class K:\n    def m(self):\n        pass(")
                    .defines(SymbolKind::Class, "K")
                    .defines(SymbolKind::Method, "K.m")
                    .status(ParseStatus::Partial),
                chunk("X = 1").defines(SymbolKind::Constant, "X"),
            ],
        ),
        file("src/b.py", vec![chunk("class B:\n    pass").defines(SymbolKind::Class, "B")]),
        file(
            "src/r.rs",
            vec![
                chunk("struct S;").defines(SymbolKind::Struct, "S").vector(&[0.0, 1.0, 0.0]),
                chunk("fn f() {}\nfn g() {}").defines(SymbolKind::Function, "f").defines(SymbolKind::Function, "g"),
                chunk("fn h() {").status(ParseStatus::Error),
                chunk("// the end").vector(&[0.0, 0.0, 1.0]),
                chunk("mod m {}").defines(SymbolKind::Module, "m"),
            ],
        ),
        file(
            "notes.txt",
            vec![
                chunk("plain notes").status(ParseStatus::Unsupported),
                chunk("more notes").status(ParseStatus::Unsupported),
            ],
        ),
        skipped("blob.bin", SkipReason::Binary),
    ];
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let check = |files: &[FileRecord], step: &str| {
        let mut got = s.reader("x").expect("reader").index_counts().expect("counts");
        assert!(got.storage_bytes > 0, "{step}: storage bytes");
        got.storage_bytes = 0;
        assert_eq!(got, expected_counts(files), "{step}");
    };
    check(&files, "written");

    // A file replaced, one removed, a vector filled in: the counts follow.
    // (Python ends with more chunks than Rust: languages come by chunk count.)
    let b = vec![chunk("class B2:\n    pass").defines(SymbolKind::Class, "B2"), chunk("Y = 2"), chunk("Z = 3")];
    files[1] = file("src/b.py", b);
    s.writer("x").expect("writer").replace_files(&files[1..2]).expect("replace b");
    assert_eq!(s.writer("x").expect("writer").remove_files(&["notes.txt".to_string()]).expect("remove"), 1);
    files.remove(3);
    let pending = s.reader("x").expect("reader").pending_chunks(0, 1).expect("pending");
    s.writer("x").expect("writer").set_embeddings(&[(pending[0].id, vec![1.0, 1.0, 0.0])]).expect("fill");
    let filled = files
        .iter_mut()
        .flat_map(|f| f.chunks.iter_mut())
        .find(|c| c.body.content == pending[0].content)
        .expect("the filled chunk");
    filled.embedding = Some(vec![1.0, 1.0, 0.0]);
    check(&files, "after changes");
}

fn failing_files_come_most_failing_first(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let partial = |text: &str| chunk(text).status(ParseStatus::Partial);
    let mut one = file("f1.py", vec![partial("def a(:"), partial("def b(:"), chunk("ok = 1")]);
    one.parse_errors = vec![error_at(1, 7), error_at(3, 7)];
    let mut two = file("f2.rs", vec![chunk("fn a() {").status(ParseStatus::Error), chunk("fn b() {}")]);
    two.parse_errors = vec![error_at(1, 9)];
    let mut three = file("web/f3.js", vec![partial("a("), partial("b("), partial("c("), chunk("d()")]);
    three.parse_errors = vec![ErrorPosition { line: 2, column: 1, kind: "missing".into() }];
    let files = vec![
        one.clone(),
        two.clone(),
        three.clone(),
        file("ok.py", vec![chunk("fine = 1")]),
        file("notes.txt", vec![chunk("prose").status(ParseStatus::Unsupported)]),
        skipped("blob.bin", SkipReason::Binary),
    ];
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let failing = |f: &FileRecord, status, failing_chunks| FailingFile {
        path: f.path.clone(),
        language: f.language.clone(),
        status,
        failing_chunks,
        chunks: f.chunks.len() as u64,
        errors: f.parse_errors.clone(),
    };
    let expected = vec![
        failing(&three, ParseStatus::Partial, 3),
        failing(&one, ParseStatus::Partial, 2),
        failing(&two, ParseStatus::Error, 1),
    ];
    assert_eq!(s.reader("x").expect("reader").failing_files(10).expect("failing"), expected);
    assert_eq!(s.reader("x").expect("reader").failing_files(2).expect("failing"), expected[..2].to_vec(), "the limit");

    // A file fixed leaves the list.
    s.writer("x").expect("writer").replace_files(&[file("web/f3.js", vec![chunk("a()")])]).expect("fix f3");
    assert_eq!(s.reader("x").expect("reader").failing_files(10).expect("failing"), expected[1..].to_vec());
}

fn summary(added: u64, warning: Option<&str>, error: Option<&str>) -> RunSummary {
    let mut skipped = SkipCounts::default();
    skipped.add(SkipReason::Binary);
    skipped.add(SkipReason::Ignored);
    skipped.add(SkipReason::Ignored);
    RunSummary {
        files: FileCounts {
            discovered: 10,
            added,
            modified: 2,
            rechunked: 1,
            unchanged: 5,
            reused: 3,
            removed: 1,
            shared: 4,
        },
        skipped,
        chunks: ChunkCounts {
            written: 40,
            by_status: BTreeMap::from([
                (ParseStatus::Ok, 37),
                (ParseStatus::Partial, 2),
                (ParseStatus::Unsupported, 1),
            ]),
        },
        embeddings: EmbeddingCounts {
            model: Some("test-model".into()),
            dimension: Some(3),
            computed: 38,
            requests: 3,
            elapsed_ms: 1234,
            pending: 2,
        },
        elapsed_ms: 5678,
        chunks_per_second: 7.0445,
        warnings: warning.map(|w| vec![w.to_string()]).unwrap_or_default(),
        error: error.map(str::to_string),
    }
}

fn runs_are_recorded_newest_first_with_their_summaries(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    f.index("other");
    let before = SystemTime::now() - Duration::from_secs(300);
    assert!(s.reader("x").expect("reader").runs(10).expect("runs").is_empty());

    let first = s.writer("x").expect("writer").start_run(RunKind::Full).expect("start");
    let runs = s.reader("x").expect("reader").runs(10).expect("runs");
    assert_eq!(runs.len(), 1);
    assert_eq!((runs[0].id, runs[0].kind, runs[0].status), (first, RunKind::Full, RunStatus::Running));
    assert!(runs[0].started_at > before && runs[0].finished_at.is_none(), "{:?}", runs[0]);
    assert_eq!(runs[0].summary, RunSummary::default(), "a running run has an empty summary");

    let done = summary(3, Some("the embedder was slow"), None);
    s.writer("x")
        .expect("writer")
        .finish_run(&RunEnd {
            run_id: first,
            status: RunStatus::Completed,
            summary: &done,
            git_commit: Some("abc123"),
            git_branch: Some("main"),
        })
        .expect("finish");
    let runs = s.reader("x").expect("reader").runs(10).expect("runs");
    assert_eq!(runs[0].status, RunStatus::Completed);
    assert_eq!(runs[0].summary, done, "the summary round-trips");
    let finished = runs[0].finished_at.expect("finished at");
    assert!(finished >= runs[0].started_at, "{:?}", runs[0]);
    let meta = s.get_index("x").expect("get").expect("x");
    assert_eq!((meta.git_commit.as_deref(), meta.git_branch.as_deref()), (Some("abc123"), Some("main")));

    // A run left running (its process died) is marked interrupted by the next start.
    let second = s.writer("x").expect("writer").start_run(RunKind::Incremental).expect("start");
    let third = s.writer("x").expect("writer").start_run(RunKind::Incremental).expect("start again");
    let other = s.writer("other").expect("writer").start_run(RunKind::Full).expect("other index");
    let runs = s.reader("x").expect("reader").runs(10).expect("runs");
    let seen: Vec<(i64, RunKind, RunStatus)> = runs.iter().map(|r| (r.id, r.kind, r.status)).collect();
    assert_eq!(
        seen,
        vec![
            (third, RunKind::Incremental, RunStatus::Running),
            (second, RunKind::Incremental, RunStatus::Interrupted),
            (first, RunKind::Full, RunStatus::Completed),
        ],
        "newest first"
    );
    assert_eq!(runs[2].summary, done, "finished runs are left alone");
    assert_eq!(
        s.reader("other").expect("reader").runs(10).expect("runs").iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![other]
    );
    assert_eq!(
        s.reader("other").expect("reader").runs(10).expect("runs")[0].status,
        RunStatus::Running,
        "another index's run is its own"
    );

    let failed = summary(0, None, Some("the disk is full"));
    s.writer("x")
        .expect("writer")
        .finish_run(&RunEnd {
            run_id: third,
            status: RunStatus::Failed,
            summary: &failed,
            git_commit: None,
            git_branch: None,
        })
        .expect("finish failed");
    let runs = s.reader("x").expect("reader").runs(2).expect("runs");
    assert_eq!(runs.len(), 2, "the limit");
    assert_eq!((runs[0].id, runs[0].status), (third, RunStatus::Failed));
    assert_eq!(runs[0].summary, failed);
    assert_eq!(runs[0].summary.error.as_deref(), Some("the disk is full"));
    let meta = s.get_index("x").expect("get").expect("x");
    assert_eq!(meta.git_commit.as_deref(), Some("abc123"), "a run without git state keeps the last one");
    assert!(s.reader("x").expect("reader").runs(0).expect("none").is_empty());
}

fn query_vectors_are_cached_per_model_and_replaced(f: &Fixture) {
    let s = &f.store;
    assert_eq!(s.cached_query_vector("model-a", "where is the retry").expect("miss"), None);
    s.cache_query_vector("model-a", "where is the retry", &[0.25, -0.5, 1.0, 0.0]).expect("cache");
    assert_eq!(s.cached_query_vector("model-a", "where is the retry").expect("hit"), Some(vec![0.25, -0.5, 1.0, 0.0]));
    assert_eq!(s.cached_query_vector("model-b", "where is the retry").expect("other model"), None);
    assert_eq!(s.cached_query_vector("model-a", "where is the retry ").expect("other query"), None);
    s.cache_query_vector("model-a", "where is the retry", &[1.0, 2.0, 3.0]).expect("replace");
    assert_eq!(s.cached_query_vector("model-a", "where is the retry").expect("hit"), Some(vec![1.0, 2.0, 3.0]));
    let long: Vec<f32> = (0..384).map(|i| i as f32 / 384.0).collect();
    s.cache_query_vector("model-b", "where is the retry", &long).expect("cache 384");
    assert_eq!(s.cached_query_vector("model-b", "where is the retry").expect("hit"), Some(long));
    assert_eq!(s.cached_query_vector("model-a", "where is the retry").expect("hit"), Some(vec![1.0, 2.0, 3.0]));
    // The cache is the store's, not an index's: another handle sees it.
    assert_eq!(
        f.reopen().cached_query_vector("model-a", "where is the retry").expect("hit"),
        Some(vec![1.0, 2.0, 3.0])
    );
}
