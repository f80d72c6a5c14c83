//! The references on a chunk's lines, stored with its text (`cs_<name>_text_refs`, schema 12):
//! what the tables hold as texts are shared, and the upgrade from schema 11, where every
//! reference was its file's.

use cocosearch::chunk::{RefKind, Reference, SymbolKind};
use cocosearch::store::{At, Backend, FileRecord, RefQuery, SnapshotOrigin, SnapshotSpec, Store};

use super::table_shapes;
use crate::cstest;
use crate::store_contract::records::{ChunkExt, chunk, file, index_with_test_model};
use crate::support::TestCtx;

fn call(name: &str, line: u32, caller: Option<&str>) -> Reference {
    Reference { kind: RefKind::Call, name: name.into(), qualifier: None, line, caller: caller.map(str::to_string) }
}

/// `m.py`: an optional one-line header, a class calling two names on one line, and the same
/// call twice (one text, two places); references on those chunks' lines and on the blank
/// lines between them (on no chunk's lines). Without the header, the chunks start at lines 1,
/// 5 and 7; the header moves them two lines down.
fn module(header: bool) -> FileRecord {
    let mut chunks = Vec::new();
    if header {
        chunks.push(chunk("import os"));
    }
    chunks.push(
        chunk("class Request(Base):\n    def send(self):\n        return log(helper())")
            .defines(SymbolKind::Class, "Request")
            .defines(SymbolKind::Method, "Request.send"),
    );
    chunks.push(chunk("helper()"));
    chunks.push(chunk("helper()"));
    let mut f = file("m.py", chunks);
    let at = |line: u32| if header { line + 2 } else { line };
    let inherit = Reference { kind: RefKind::Inherit, ..call("Base", at(1), Some("Request")) };
    // On line 3, in file order: not the order of their names.
    f.refs = vec![
        inherit,
        call("log", at(3), Some("Request.send")),
        call("helper", at(3), Some("Request.send")),
        call("helper", at(4), None),
        call("helper", at(5), None),
        call("helper", at(6), None),
        call("helper", at(7), None),
    ];
    f
}

/// A reference as `line kind name caller`.
fn show(r: &Reference) -> String {
    format!("{} {} {} {}", r.line, r.kind.as_str(), r.name, r.caller.as_deref().unwrap_or("-"))
}

/// Every reference of index `name` read at `at`.
fn references(store: &dyn Store, name: &str, at: At) -> Vec<String> {
    let names = ["Base", "log", "helper"].map(String::from).to_vec();
    let found = store
        .reader_at(name, at)
        .expect("reader")
        .references(&RefQuery { names, limit: usize::MAX, ..RefQuery::default() })
        .expect("references");
    found.iter().map(|r| format!("{} {}", r.path, show(&r.reference))).collect()
}

/// What `references` should read of `f`: its references as the file lists them.
fn listed(f: &FileRecord) -> Vec<String> {
    f.refs.iter().map(|r| format!("{} {}", f.path, show(r))).collect()
}

/// How many rows index `name`'s text references and file references hold.
fn rows(t: &TestCtx, name: &str) -> (i64, i64) {
    let row = t
        .sql()
        .query_one(
            &format!("SELECT (SELECT count(*) FROM cs_{name}_text_refs), (SELECT count(*) FROM cs_{name}_refs)"),
            &[],
        )
        .expect("count references");
    (row.get(0), row.get(1))
}

fn spec(name: &str) -> SnapshotSpec {
    SnapshotSpec {
        name: name.into(),
        origin: SnapshotOrigin::Named,
        git_commit: None,
        git_branch: None,
        worktree: "/work/tree".into(),
    }
}

cstest!(references_on_a_chunk_are_stored_once_with_its_text, postgres, |t| {
    let store = t.store(Backend::Postgres);
    index_with_test_model(&*store, "x", t.path());
    let (v1, v2) = (module(false), module(true));
    let w = store.writer("x").expect("writer");
    let first = w.begin_snapshot(&spec("v1")).expect("v1").id;
    w.replace_files(std::slice::from_ref(&v1)).expect("write v1");
    // Three on the class's lines and one on the call held twice; lines 4 and 6 are no chunk's.
    assert_eq!(rows(&t, "x"), (4, 2));
    assert_eq!(references(&*store, "x", At::Current), listed(&v1), "each text's at both its places");
    w.begin_snapshot(&spec("v2")).expect("v2");
    w.replace_files(std::slice::from_ref(&v2)).expect("write v2");
    // The chunks moved down with their references are the same texts: only the file's own
    // references are stored again.
    assert_eq!(rows(&t, "x"), (4, 4));
    assert_eq!(references(&*store, "x", At::Snapshot(first)), listed(&v1));
    assert_eq!(references(&*store, "x", At::Current), listed(&v2));
    let by_caller = RefQuery { callers: vec![("m.py".into(), "Request.send".into())], ..RefQuery::default() };
    let found = store.reader("x").expect("reader").references(&RefQuery { limit: 9, ..by_caller }).expect("callers");
    let found: Vec<(u32, &str)> = found.iter().map(|r| (r.reference.line, r.reference.name.as_str())).collect();
    assert_eq!(found, [(5, "log"), (5, "helper")], "a caller's references in file order");
    // A reference moved on the same lines makes another text.
    let mut moved = v2.clone();
    moved.refs[2].line -= 1;
    moved.refs.swap(1, 2);
    moved.size += 1;
    moved.hash[0] ^= 1;
    w.replace_files(std::slice::from_ref(&moved)).expect("write the move");
    assert_eq!(references(&*store, "x", At::Current), listed(&moved));
    assert_eq!(rows(&t, "x").0, 7, "the class's text again, with its three references");
    // Texts and files nothing holds any more take their references with them.
    w.delete_snapshots(&[first]).expect("delete v1");
    assert_eq!(rows(&t, "x"), (4, 2));
    w.remove_files(&["m.py".to_string()]).expect("remove");
    assert_eq!(rows(&t, "x"), (0, 0));
});

/// Turns the tables of index `name` (schema 12) back into schema 11's: every reference its
/// file's, at its absolute line, and the texts that held some under a key no text written at
/// 12 has (as 11 keyed a text without its references).
pub(super) fn downgrade_to_v11(t: &TestCtx, name: &str) {
    t.sql()
        .batch_execute(&format!(
            "INSERT INTO cs_{name}_refs (path, line, kind, name, qualifier, caller, file_id)
                 SELECT c.path, r.line + c.line_start, r.kind, r.name, r.qualifier, r.caller, c.file_id
                 FROM cs_{name}_text_refs r JOIN cs_{name}_chunks c ON c.text_id = r.text_id
                 ORDER BY c.file_id, r.line + c.line_start, r.ordinal;
             UPDATE cs_{name}_texts SET key = '\\x01'::bytea || key WHERE id IN (SELECT text_id FROM cs_{name}_text_refs);
             DROP TABLE cs_{name}_text_refs;
             UPDATE cocosearch_indexes SET schema_version = 11 WHERE name = '{name}';"
        ))
        .expect("downgrade to schema 11");
}

cstest!(an_index_upgraded_from_schema_11_is_one_made_at_12, postgres, |t| {
    let store = t.store(Backend::Postgres);
    let files = [module(false)];
    for name in ["made", "old"] {
        index_with_test_model(&*store, name, t.path());
        store.writer(name).expect("writer").replace_files(&files).expect("write");
    }
    downgrade_to_v11(&t, "old");
    let file_refs: i64 = t.sql().query_one("SELECT count(*) FROM cs_old_refs", &[]).expect("count").get(0);
    assert_eq!(file_refs, 7, "every reference its file's at schema 11");
    store.migrate().expect("upgrade");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"), "the same tables, keys and indexes");
    // The references stay their file's (the old texts hold none) and read as before.
    assert_eq!(rows(&t, "old"), (0, 7));
    assert_eq!(references(&*store, "old", At::Current), listed(&files[0]));
    // Written again at 12, those on the chunks' lines go with new texts.
    store.writer("old").expect("writer").replace_files(&files).expect("write again");
    assert_eq!(rows(&t, "old"), (4, 2));
    assert_eq!(references(&*store, "old", At::Current), listed(&files[0]));
    // Migration 12 leaves an index already at the new shape as it is.
    t.sql().batch_execute("UPDATE cocosearch_indexes SET schema_version = 11 WHERE name = 'made'").expect("pretend");
    store.migrate().expect("again");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"));
    assert_eq!((rows(&t, "made"), references(&*store, "made", At::Current)), ((4, 2), listed(&files[0])));
});
