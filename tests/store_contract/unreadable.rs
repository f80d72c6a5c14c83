//! Stored rows this build cannot read: a run summary of a newer version or of the wrong shape,
//! an unknown run status, symbol details that do not parse. Each is an error naming the index,
//! the row and the fix, never zeros or another status; a summary written before versioning
//! (no `version`) still reads as version 1. The rows are damaged with each backend's own SQL,
//! here in the store tests only.

use cocosearch::store::{Backend, RunEnd, RunKind, RunStatus, RunSummary, StoreError};

use super::records::{chunk, file};
use super::{Fixture, contract_tests};

contract_tests!(
    summaries_written_before_versioning_read_as_version_one,
    a_run_summary_of_a_newer_version_is_an_error_naming_the_index_and_the_fix,
    a_run_summary_of_the_wrong_shape_is_an_error,
    an_unknown_run_status_is_an_error_not_interrupted,
    symbol_details_that_do_not_parse_are_an_error,
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
    assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("index x"), "names the index: {text}");
    assert!(text.contains(&format!("run record {id}")), "names the run: {text}");
    assert!(text.contains("cocosearch index --fresh"), "names the fix: {text}");
    text
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
        "UPDATE cs_x_chunks SET symbol_details = '{\"not\": \"a list\"}'",
        "UPDATE cs_x_chunks SET symbol_details = '{\"not\": \"a list\"}'::jsonb",
    );
    let reader = f.store.reader("x").expect("reader");
    let err = reader.file_chunks(&["a.py".to_string()]).expect_err("unreadable symbols are an error");
    let text = err.to_string();
    assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
    assert!(text.contains("index x") && text.contains("a.py") && text.contains("--fresh"), "{text}");
}
