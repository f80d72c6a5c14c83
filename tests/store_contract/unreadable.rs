//! Stored rows this build cannot read: a run summary of a newer version or of the wrong shape;
//! symbol details, graph parameters or bases that do not parse; a run status, symbol kind,
//! parse status, skip reason, graph kind, resolution or task status it does not know; a
//! negative graph line; vectors, centroids, vector packs and keyword text that do not decode.
//! Each is an error naming the index, the row and the fix, never zeros, nothing, another kind
//! or status, or a row left out; a value that is absent (`NULL`: no kind, no skip reason)
//! still reads as none, and a summary written before versioning (no `version`) as version 1.
//! The rows are damaged with each backend's own SQL, here in the store tests only. Where a
//! backend's column type cannot hold the damage at all (pgvector's vectors, `tsvector`), the
//! test checks that it is refused there.

use cocosearch::chunk::{ImportKind, RefKind, Reference, SymbolKind};
use cocosearch::discover::SkipReason;
use cocosearch::store::{
    Backend, DefQuery, FileRecord, ImportQuery, ImportRecord, KeywordQuery, KeywordTerm, NewTask, RefQuery, Resolution,
    RunEnd, RunKind, RunStatus, RunSummary, SearchFilter, StoreError, VectorAccuracy,
};

use super::records::{ChunkExt, chunk, file, skipped, spread};
use super::{Fixture, contract_tests};

contract_tests!(
    summaries_written_before_versioning_read_as_version_one,
    a_run_summary_of_a_newer_version_is_an_error_naming_the_index_and_the_fix,
    a_run_summary_of_the_wrong_shape_is_an_error,
    an_unknown_run_status_is_an_error_not_interrupted,
    symbol_details_that_do_not_parse_are_an_error,
    vectors_that_are_not_vectors_are_an_error_not_skipped,
    organised_vectors_and_packs_that_do_not_decode_are_an_error,
    keyword_text_that_is_not_text_is_an_error_not_zero_counts,
    unknown_symbol_kinds_are_an_error_not_left_out,
    an_unknown_parse_status_is_an_error_not_a_failure,
    graph_parameters_and_bases_that_do_not_parse_are_an_error,
    unknown_graph_kinds_are_an_error_not_left_out,
    negative_graph_lines_are_an_error_not_left_out,
    an_unknown_skip_reason_is_an_error_not_an_indexed_file,
    an_unknown_task_status_is_an_error_when_counted_too,
);

/// Runs `sqlite` or `postgres` (the same change in each dialect) on the fixture's store.
fn damage(f: &Fixture, sqlite: &str, postgres: &str) {
    match f.backend {
        Backend::Sqlite => {
            let conn =
                rusqlite::Connection::open(f.t.embedded_dir().join("cocosearch.db")).expect("open the store file");
            conn.execute_batch(sqlite).expect("damage the row");
        }
        Backend::Postgres => f.t.sql().batch_execute(postgres).expect("damage the row"),
    }
}

/// On PostgreSQL, `sql` is refused: the column's type cannot hold the damage.
fn refused(f: &Fixture, sql: &str) {
    assert_eq!(f.backend, Backend::Postgres);
    let refused = f.t.sql().batch_execute(sql);
    assert!(refused.is_err(), "PostgreSQL stored the damage: {sql}");
}

/// Checks that `err` is [`StoreError::Unreadable`] naming index `index`, the row (`row`, part
/// of its description) and the fix; returns its text.
fn unreadable(err: StoreError, index: &str, row: &str) -> String {
    assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains(&format!("index {index}")), "names the index: {text}");
    assert!(text.contains(row), "names the row ({row}): {text}");
    assert!(text.contains("cocosearch index --fresh"), "names the fix: {text}");
    text
}

/// Index `x` with one finished run; returns the run's id and summary.
fn finished_run(f: &Fixture) -> (i64, RunSummary) {
    f.index("x");
    let summary = RunSummary { elapsed_ms: 42, warnings: vec!["slow".into()], ..RunSummary::default() };
    let writer = f.store.writer("x").expect("writer");
    let id = writer.start_run(RunKind::Full).expect("start");
    writer
        .finish_run(&RunEnd {
            run_id: id,
            status: RunStatus::Completed,
            summary: &summary,
            git_commit: None,
            git_branch: None,
        })
        .expect("finish");
    (id, summary)
}

/// The error reading `x`'s runs, checked to name the index, the run and the fix.
fn runs_error(f: &Fixture, id: i64) -> String {
    let err = f.store.reader("x").expect("reader").runs(10).expect_err("an unreadable run is an error");
    unreadable(err, "x", &format!("run record {id}"))
}

fn summaries_written_before_versioning_read_as_version_one(f: &Fixture) {
    let (id, summary) = finished_run(f);
    damage(
        f,
        "UPDATE runs SET summary = json_remove(summary, '$.version')",
        "UPDATE cocosearch_runs SET summary = summary - 'version'",
    );
    let runs = f.store.reader("x").expect("reader").runs(10).expect("an unversioned summary reads");
    assert_eq!((runs[0].id, runs[0].status, &runs[0].summary), (id, RunStatus::Completed, &summary));
}

fn a_run_summary_of_a_newer_version_is_an_error_naming_the_index_and_the_fix(f: &Fixture) {
    let (id, _) = finished_run(f);
    damage(
        f,
        "UPDATE runs SET summary = json_set(summary, '$.version', 2)",
        "UPDATE cocosearch_runs SET summary = jsonb_set(summary, '{version}', '2')",
    );
    let text = runs_error(f, id);
    assert!(text.contains("newer"), "says why: {text}");
}

fn a_run_summary_of_the_wrong_shape_is_an_error(f: &Fixture) {
    let (id, _) = finished_run(f);
    damage(
        f,
        "UPDATE runs SET summary = '{\"files\": \"many\"}'",
        "UPDATE cocosearch_runs SET summary = '{\"files\": \"many\"}'::jsonb",
    );
    runs_error(f, id);
    if f.backend == Backend::Sqlite {
        damage(f, "UPDATE runs SET summary = '{not json'", "");
        runs_error(f, id);
    }
}

fn an_unknown_run_status_is_an_error_not_interrupted(f: &Fixture) {
    let (id, _) = finished_run(f);
    damage(f, "UPDATE runs SET status = 'paused'", "UPDATE cocosearch_runs SET status = 'paused'");
    let text = runs_error(f, id);
    assert!(text.contains("paused"), "names the status: {text}");
}

fn symbol_details_that_do_not_parse_are_an_error(f: &Fixture) {
    f.index("x");
    f.store.writer("x").expect("writer").replace_files(&[file("a.py", vec![chunk("alpha = 1")])]).expect("write");
    damage(
        f,
        "UPDATE cs_x_texts SET symbol_details = '{\"not\": \"a list\"}'",
        "UPDATE cs_x_texts SET symbol_details = '{\"not\": \"a list\"}'::jsonb",
    );
    let reader = f.store.reader("x").expect("reader");
    let err = reader.file_chunks(&["a.py".to_string()]).expect_err("unreadable symbols are an error");
    unreadable(err, "x", "the symbols of a chunk of a.py");
}

fn vectors_that_are_not_vectors_are_an_error_not_skipped(f: &Fixture) {
    f.index("x");
    let chunks = vec![chunk("alpha = 1").vector(&[1.0, 0.0, 0.0]), chunk("beta = 2").vector(&[0.0, 1.0, 0.0])];
    f.store.writer("x").expect("writer").replace_files(&[file("a.py", chunks)]).expect("write");
    if f.backend == Backend::Postgres {
        refused(f, "UPDATE cs_x_texts SET embedding = 'not a vector'");
        return;
    }
    let search = |filter: &SearchFilter, accuracy: VectorAccuracy| {
        f.store.reader("x").expect("reader").vector_search(&[1.0, 0.0, 0.0], filter, 10, accuracy)
    };
    assert_eq!(search(&SearchFilter::default(), VectorAccuracy::Exact).expect("search").len(), 2);
    let python = SearchFilter { languages: vec!["python".into()], ..SearchFilter::default() };
    // Text, a BLOB of a partial value, an empty BLOB, a number.
    for value in ["'not a vector'", "x'0000803f00'", "x''", "7"] {
        damage(
            f,
            &format!("UPDATE cs_x_vectors SET embedding = {value} WHERE id = (SELECT min(id) FROM cs_x_vectors)"),
            "",
        );
        for (filter, accuracy) in [(&SearchFilter::default(), VectorAccuracy::Exact), (&python, VectorAccuracy::Usual)]
        {
            let err = search(filter, accuracy).expect_err("an unreadable vector is an error");
            unreadable(err, "x", "the vector of chunk");
        }
    }
}

/// The number the embedded store's file answers to `sql`.
fn sqlite_number(f: &Fixture, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(f.t.embedded_dir().join("cocosearch.db")).expect("open the store file");
    conn.query_row(sql, [], |r| r.get(0)).expect("query the store file")
}

/// An index past the size where the embedded store organises its vectors (inverted lists,
/// 20,000 vectors, and each list's vectors packed in one row): every read of a vector, a
/// centroid or a pack that does not decode is an error, when searching and when organising.
fn organised_vectors_and_packs_that_do_not_decode_are_an_error(f: &Fixture) {
    if f.backend == Backend::Postgres {
        f.index("big");
        let near = file("near.py", vec![chunk("near = 1").vector(&[0.3, -0.5, 0.8])]);
        f.store.writer("big").expect("writer").replace_files(&[near]).expect("write");
        refused(f, "UPDATE cs_big_texts SET embedding = '[1, 2]'");
        return;
    }
    const FILES: usize = 200;
    const PER_FILE: usize = 100;
    let n = FILES * PER_FILE;
    let query = [0.3f32, -0.5, 0.8];
    f.index("big");
    let mut files: Vec<FileRecord> = (0..FILES)
        .map(|i| {
            let chunks = (0..PER_FILE)
                .map(|j| {
                    let k = i * PER_FILE + j;
                    chunk(&format!("v{k} = {k}")).vector(&spread((k * 7919) % n, n))
                })
                .collect();
            file(&format!("f{i}.py"), chunks)
        })
        .collect();
    files.push(file("near.py", vec![chunk("near = 1").vector(&query)]));
    for batch in files.chunks(30) {
        f.store.writer("big").expect("writer").replace_files(batch).expect("write");
    }
    let organise = || f.store.writer("big").expect("writer").optimize();
    let search = || {
        f.store.reader("big").expect("reader").vector_search(
            &query,
            &SearchFilter::default(),
            10,
            VectorAccuracy::Usual,
        )
    };
    let sqlite = |sql: &str| damage(f, sql, "");

    // Training reads the vectors: the first is in its sample.
    sqlite(
        "CREATE TABLE saved_vector AS SELECT id, embedding FROM cs_big_vectors WHERE id = (SELECT min(id) FROM cs_big_vectors)",
    );
    sqlite("UPDATE cs_big_vectors SET embedding = x'0000803f00' WHERE id = (SELECT id FROM saved_vector)");
    unreadable(organise().expect_err("training on an unreadable vector"), "big", "the vector of chunk");
    sqlite(
        "UPDATE cs_big_vectors SET embedding = (SELECT embedding FROM saved_vector) WHERE id = (SELECT id FROM saved_vector)",
    );
    organise().expect("organise");
    assert!(sqlite_number(f, "SELECT count(*) FROM cs_big_packs") > 0, "the lists are packed");
    let near = search().expect("search")[0].id;
    assert_eq!(f.store.reader("big").expect("reader").chunks(&[near]).expect("chunk")[0].path, "near.py");
    let list = sqlite_number(f, &format!("SELECT list FROM cs_big_vectors WHERE id = {near}"));

    // A centroid, read by every search.
    sqlite("CREATE TABLE saved_lists AS SELECT * FROM cs_big_lists");
    sqlite(&format!("UPDATE cs_big_lists SET centroid = x'00' WHERE list = {list}"));
    unreadable(search().expect_err("an unreadable centroid"), "big", &format!("the centroid of list {list}"));
    sqlite("DELETE FROM cs_big_lists; INSERT INTO cs_big_lists SELECT * FROM saved_lists");

    // The pack of the list holding the best vector: ids that are not a BLOB or fewer than its
    // count, vectors that are not a BLOB.
    sqlite("CREATE TABLE saved_packs AS SELECT * FROM cs_big_packs");
    for value in ["ids = 'text'", "ids = x''", "vectors = 'text'"] {
        sqlite(&format!("UPDATE cs_big_packs SET {value} WHERE list = {list}"));
        unreadable(search().expect_err(value), "big", &format!("the vector pack of list {list}"));
        sqlite("DELETE FROM cs_big_packs; INSERT INTO cs_big_packs SELECT * FROM saved_packs");
    }
    assert_eq!(search().expect("search with the packs restored")[0].id, near);

    // The best vector itself, rescored from its row after its pack ranked it first.
    let near_vector = format!("the vector of chunk {near}");
    sqlite(&format!("CREATE TABLE saved_near AS SELECT embedding FROM cs_big_vectors WHERE id = {near}"));
    sqlite(&format!("UPDATE cs_big_vectors SET embedding = 'text' WHERE id = {near}"));
    unreadable(search().expect_err("rescoring an unreadable vector"), "big", &near_vector);
    // Without its pack, its list is read as rows, and organising writes the pack again.
    sqlite(&format!("DELETE FROM cs_big_packs WHERE list = {list}"));
    unreadable(search().expect_err("reading an unreadable vector's row"), "big", &near_vector);
    unreadable(organise().expect_err("packing an unreadable vector"), "big", &near_vector);
    sqlite(&format!("UPDATE cs_big_vectors SET embedding = (SELECT embedding FROM saved_near) WHERE id = {near}"));
    organise().expect("organise again");
    assert_eq!(search().expect("search with the vector restored")[0].id, near);

    // A vector in no list yet: read as a row by every search, labelled when organising.
    f.store
        .writer("big")
        .expect("writer")
        .replace_files(&[file("new.py", vec![chunk("newest = 1").vector(&query)])])
        .expect("write new");
    let new = sqlite_number(f, "SELECT id FROM cs_big_vectors WHERE list IS NULL");
    sqlite(&format!("UPDATE cs_big_vectors SET embedding = 7 WHERE id = {new}"));
    let new_vector = format!("the vector of chunk {new}");
    unreadable(search().expect_err("an unreadable vector in no list"), "big", &new_vector);
    unreadable(organise().expect_err("labelling an unreadable vector"), "big", &new_vector);
}

fn keyword_text_that_is_not_text_is_an_error_not_zero_counts(f: &Fixture) {
    f.index("x");
    let a = file("a.py", vec![chunk("def parse_header(line):\n    return line.strip()")]);
    f.store.writer("x").expect("writer").replace_files(&[a]).expect("write");
    if f.backend == Backend::Postgres {
        refused(f, "UPDATE cs_x_texts SET keywords = '\\xff'::bytea");
        return;
    }
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word("parse".into())], select: vec![vec![0]], max_candidates: None };
    let candidates = || f.store.reader("x").expect("reader").keyword_candidates(&query, &SearchFilter::default());
    let found = candidates().expect("keyword candidates");
    assert!(found.len() == 1 && found[0].frequencies[0] > 0, "{found:?}");
    // A BLOB, text that is not UTF-8.
    for value in ["x'ff00'", "CAST(x'ff' AS TEXT)"] {
        damage(f, &format!("UPDATE cs_x_texts SET keywords = {value}"), "");
        unreadable(candidates().expect_err(value), "x", "the keyword text of a chunk of a.py");
    }
}

/// Index `x` holding `a.py`: a chunk defining a class, and one defining nothing.
fn class_and_plain_chunk(f: &Fixture) {
    f.index("x");
    let a = file("a.py", vec![chunk("class Request:\n    pass").defines(SymbolKind::Class, "Request"), chunk("x = 1")]);
    f.store.writer("x").expect("writer").replace_files(&[a]).expect("write");
}

fn unknown_symbol_kinds_are_an_error_not_left_out(f: &Fixture) {
    class_and_plain_chunk(f);
    let reader = f.store.reader("x").expect("reader");
    let read = || reader.file_chunks(&["a.py".to_string()]);
    // A chunk defining nothing has no kind (NULL): that is no kind, not an unreadable one.
    let kinds: Vec<Option<SymbolKind>> = read().expect("chunks").iter().map(|c| c.body.symbol_type).collect();
    assert_eq!(kinds, vec![Some(SymbolKind::Class), None]);
    // The kind of a chunk's primary symbol.
    let rename =
        |from: &str, to: &str| format!("UPDATE cs_x_texts SET symbol_type = '{to}' WHERE symbol_type = '{from}'");
    damage(f, &rename("class", "gadget"), &rename("class", "gadget"));
    let text = unreadable(read().expect_err("an unknown kind"), "x", "a chunk of a.py");
    assert!(text.contains("gadget"), "names the kind: {text}");
    damage(f, &rename("gadget", "class"), &rename("gadget", "class"));
    // The kinds of every symbol of a chunk, counted by `stats`.
    assert_eq!(reader.index_counts().expect("counts").symbols_by_type.get(&SymbolKind::Class), Some(&1));
    damage(
        f,
        "UPDATE cs_x_texts SET symbol_kinds = char(10) || 'gadget' || char(10) WHERE symbol_kinds <> ''",
        "UPDATE cs_x_texts SET symbol_kinds = ARRAY['gadget'] WHERE symbol_kinds <> '{}'",
    );
    let text = unreadable(reader.index_counts().expect_err("an unknown kind counted"), "x", "symbol kinds");
    assert!(text.contains("gadget"), "names the kind: {text}");
    if f.backend == Backend::Sqlite {
        damage(f, "UPDATE cs_x_texts SET symbol_kinds = x'ff' WHERE symbol_kinds <> ''", "");
        unreadable(reader.index_counts().expect_err("kinds that are not text"), "x", "symbol kinds");
    }
}

fn an_unknown_parse_status_is_an_error_not_a_failure(f: &Fixture) {
    class_and_plain_chunk(f);
    let reader = f.store.reader("x").expect("reader");
    let sql = "UPDATE cs_x_texts SET parse_status = 'mangled' WHERE symbol_type IS NULL";
    damage(f, sql, sql);
    let text = unreadable(reader.file_chunks(&["a.py".to_string()]).expect_err("chunks"), "x", "a chunk of a.py");
    assert!(text.contains("mangled"), "names the status: {text}");
    let text = unreadable(reader.index_counts().expect_err("counts"), "x", "parse status");
    assert!(text.contains("mangled"), "names the status: {text}");
}

/// Index `x` holding `a.py`: a class with a base and a method with parameters, one import and
/// one reference.
fn graph_index(f: &Fixture) {
    f.index("x");
    let mut request = chunk("class Request(Base):\n    def send(self, timeout=None):\n        return 1")
        .defines(SymbolKind::Class, "Request")
        .defines(SymbolKind::Method, "Request.send");
    request.body.symbols[0].bases = vec!["Base".into()];
    request.body.symbols[1].params = vec!["self".into(), "timeout".into()];
    let mut a = file("a.py", vec![request]);
    a.imports = vec![ImportRecord {
        kind: ImportKind::Import,
        spec: ".base".into(),
        name: Some("Base".into()),
        alias: None,
        line: 1,
        target: Some("base.py".into()),
        resolution: Resolution::Exact,
    }];
    a.refs = vec![Reference {
        kind: RefKind::Inherit,
        name: "Base".into(),
        qualifier: None,
        line: 1,
        caller: Some("Request".into()),
    }];
    f.store.writer("x").expect("writer").replace_files(&[a]).expect("write");
}

/// The graph reads of `x`: definitions, references to `Base`, imports.
fn read_graph(f: &Fixture) -> [Result<usize, StoreError>; 3] {
    let reader = f.store.reader("x").expect("reader");
    let refs = RefQuery { names: vec!["Base".into()], limit: usize::MAX, ..RefQuery::default() };
    [
        reader.definitions(&DefQuery { limit: usize::MAX, ..DefQuery::default() }).map(|d| d.len()),
        reader.references(&refs).map(|r| r.len()),
        reader.imports(&ImportQuery::default()).map(|i| i.len()),
    ]
}

/// Writes index `x` afresh (see [`graph_index`]), damages it with `UPDATE cs_x_<table> SET
/// <set>` (SQL of both backends), and checks that the read of that table is unreadable
/// naming `row` and the file.
fn damage_graph(f: &Fixture, table: &str, set: &str, row: &str) {
    if f.store.get_index("x").expect("get").is_some() {
        f.store.writer("x").expect("writer").drop_index().expect("drop");
    }
    graph_index(f);
    // Definitions and the references on a chunk's lines are stored with its text (see
    // `store::texts`).
    let stored = match (f.backend, table) {
        (Backend::Sqlite, "defs") => "text_defs",
        (_, "refs") => "text_refs",
        (_, other) => other,
    };
    let sql = format!("UPDATE cs_x_{stored} SET {set}");
    damage(f, &sql, &sql);
    let read = ["defs", "refs", "imports"].iter().position(|t| *t == table).expect("a graph table");
    let result = read_graph(f).into_iter().nth(read).expect("a read");
    let text = unreadable(result.expect_err(&sql), "x", row);
    assert!(text.contains("a.py"), "names the file: {text}");
}

fn graph_parameters_and_bases_that_do_not_parse_are_an_error(f: &Fixture) {
    graph_index(f);
    let defs = f.store.reader("x").expect("reader").definitions(&DefQuery { limit: 9, ..DefQuery::default() });
    let defs = defs.expect("definitions");
    assert_eq!(defs.iter().map(|d| d.symbol.bases.len() + d.symbol.params.len()).sum::<usize>(), 3, "{defs:?}");
    let parameters = "the parameters of the definition of Request.send";
    damage_graph(f, "defs", "params = '{\"not\": \"a list\"}' WHERE name = 'send'", parameters);
    damage_graph(f, "defs", "bases = '[1, 2]' WHERE name = 'Request'", "the bases of the definition of Request");
    if f.backend == Backend::Sqlite {
        damage_graph(f, "defs", "params = '[not json' WHERE name = 'send'", parameters);
    }
}

fn unknown_graph_kinds_are_an_error_not_left_out(f: &Fixture) {
    graph_index(f);
    assert!(read_graph(f).iter().all(|n| n.as_ref().is_ok_and(|n| *n > 0)), "{:?}", read_graph(f));
    damage_graph(f, "defs", "kind = 'gadget' WHERE name = 'send'", "the definition of Request.send");
    damage_graph(f, "refs", "kind = 'gadget'", "a reference to Base");
    damage_graph(f, "imports", "kind = 'gadget'", "an import of .base");
    damage_graph(f, "imports", "resolution = 'gadget'", "an import of .base");
}

fn negative_graph_lines_are_an_error_not_left_out(f: &Fixture) {
    // Lines of definitions and references are stored relative to their chunk: far enough
    // above it to be negative.
    damage_graph(f, "defs", "line_start = -1000000 WHERE name = 'send'", "the definition of Request.send");
    damage_graph(f, "defs", "line_end = -1000000 WHERE name = 'send'", "the definition of Request.send");
    damage_graph(f, "refs", "line = -1000000", "a reference to Base");
    damage_graph(f, "imports", "line = -1", "an import of .base");
}

fn an_unknown_skip_reason_is_an_error_not_an_indexed_file(f: &Fixture) {
    f.index("x");
    let files = [file("a.py", vec![chunk("alpha = 1")]), skipped("big.bin", SkipReason::TooLarge)];
    f.store.writer("x").expect("writer").replace_files(&files).expect("write");
    let reader = f.store.reader("x").expect("reader");
    // An indexed file has no reason (NULL): that is no reason, not an unreadable one.
    let states = reader.file_states(None).expect("states");
    assert_eq!((states["a.py"].skip_reason, states["big.bin"].skip_reason), (None, Some(SkipReason::TooLarge)));
    let sql = "UPDATE cs_x_files SET skip_reason = 'vanished' WHERE skip_reason IS NOT NULL";
    damage(f, sql, sql);
    let text = unreadable(reader.file_states(None).expect_err("an unknown reason"), "x", "big.bin");
    assert!(text.contains("vanished"), "names the reason: {text}");
    unreadable(reader.file_states(Some(&["big.bin".to_string()])).expect_err("the file's state"), "x", "big.bin");
}

/// Tasks are the project's own, not rebuilt from its files: an unknown status is one a newer
/// cocosearch wrote, and the fix is to upgrade.
fn an_unknown_task_status_is_an_error_when_counted_too(f: &Fixture) {
    const A: &str = "0a1b2c3d-0000-4000-8000-000000000001";
    let tasks = f.store.tasks("proj").expect("tasks");
    let task =
        NewTask { id: A.into(), title: "Fix the retry".into(), description: None, notes: None, links: Vec::new() };
    tasks.create(&task).expect("create");
    assert_eq!(tasks.counts().expect("counts").len(), 1);
    damage(f, "UPDATE tasks SET status = 'paused'", "UPDATE cocosearch_tasks SET status = 'paused'");
    for err in [tasks.get(A).expect_err("the task"), tasks.counts().expect_err("the counts")] {
        assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("proj") && text.contains("paused") && text.contains("upgrade cocosearch"), "{text}");
    }
}
