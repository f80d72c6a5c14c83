//! What only the embedded backend has: upgrades of stores written by its first pre-release
//! builds, whose schema changed before versions were counted, and what its own tables hold
//! after index runs. Behaviour both backends promise is in `store_contract`; these tests
//! alone (with `store_contract`) read the embedded store's file with SQL.

use cocosearch::store::SnapshotCounts;
use cocosearch::store::{Backend, DefQuery, SearchFilter, VectorAccuracy};

use crate::cstest;
use crate::index_cli::{chunk_snapshot, chunky_project, index_json, term_edits, terms_project};
use crate::store_contract::records::{ChunkExt, chunk, file, index_with_test_model};
use crate::support::TestCtx;

/// A connection on the file of this test's embedded store.
fn store_file(t: &TestCtx) -> rusqlite::Connection {
    rusqlite::Connection::open(t.embedded_dir().join("cocosearch.db")).expect("open the store file")
}

cstest!(an_embedded_store_of_the_first_schema_is_upgraded, |t| {
    let store = t.store(Backend::Sqlite);
    index_with_test_model(&*store, "old", t.path());
    store
        .writer("old")
        .expect("writer")
        .replace_files(&[file("a.py", vec![chunk("alpha = 1").vector(&[1.0, 0.0, 0.0])])])
        .expect("write");
    drop(store);
    // Roll the store back to what the first builds wrote: no chunking record, no symbol
    // names, no inverted lists or packs, no graph, and per-index schema 1.
    let sql = store_file(&t);
    // Files keyed by path, and chunks pointing at them by path, as the first schema had them
    // (rebuilt: SQLite cannot drop a key), without snapshots. Renames leave the other tables'
    // keys as they are, as in the store being imitated.
    sql.execute_batch(
        "PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = ON;
         DROP TABLE cs_old_members; DROP TABLE cs_old_snapshots;
         CREATE TABLE chunks_now AS SELECT * FROM cs_old_chunks;
         CREATE TABLE vectors_now AS SELECT id, embedding FROM cs_old_vectors;
         DROP VIEW cs_old_chunks; DROP VIEW cs_old_defs; DROP VIEW cs_old_refs; DROP TABLE cs_old_text_refs;
         DROP TABLE cs_old_text_defs; DROP TABLE cs_old_symbols; DROP TABLE cs_old_vectors;
         DROP TABLE cs_old_places; DROP TABLE cs_old_texts;
         CREATE TABLE cs_old_symbols (key TEXT NOT NULL,
             chunk_id INTEGER NOT NULL REFERENCES cs_old_chunks(id) ON DELETE CASCADE);
         ALTER TABLE cs_old_files RENAME TO files_now;
         CREATE TABLE cs_old_files (
             path TEXT PRIMARY KEY, language TEXT NOT NULL, size_bytes INTEGER NOT NULL,
             mtime_ns INTEGER NOT NULL, content_hash BLOB NOT NULL, line_count INTEGER NOT NULL,
             chunk_count INTEGER NOT NULL, parse_status TEXT NOT NULL,
             parse_errors TEXT NOT NULL DEFAULT '[]', indexed_at INTEGER NOT NULL, skip_reason TEXT,
             chunking TEXT);
         INSERT INTO cs_old_files SELECT path, language, size_bytes, mtime_ns, content_hash, line_count,
             chunk_count, parse_status, parse_errors, indexed_at, skip_reason, chunking FROM files_now;
         DROP TABLE files_now;
         CREATE TABLE cs_old_chunks (
             id INTEGER PRIMARY KEY AUTOINCREMENT,
             path TEXT NOT NULL REFERENCES cs_old_files(path) ON DELETE CASCADE,
             ordinal INTEGER NOT NULL, byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
             line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, language TEXT NOT NULL,
             content TEXT NOT NULL, symbol_type TEXT, symbol_name TEXT, qualified_name TEXT,
             symbol_signature TEXT, symbol_parent TEXT, symbol_keys TEXT NOT NULL DEFAULT '',
             symbol_names TEXT NOT NULL DEFAULT '', symbol_kinds TEXT NOT NULL DEFAULT '',
             symbol_details TEXT NOT NULL DEFAULT '[]', enclosing TEXT, context TEXT NOT NULL DEFAULT '',
             parse_status TEXT NOT NULL, embed_hash BLOB NOT NULL, keywords TEXT NOT NULL,
             keyword_length INTEGER NOT NULL);
         INSERT INTO cs_old_chunks SELECT id, path, ordinal, byte_start, byte_end, line_start, line_end,
             language, content, symbol_type, symbol_name, qualified_name, symbol_signature, symbol_parent,
             symbol_keys, symbol_names, symbol_kinds, symbol_details, enclosing, context, parse_status,
             embed_hash, keywords, keyword_length FROM chunks_now;
         DROP TABLE chunks_now;
         CREATE INDEX cs_old_c_path ON cs_old_chunks (path);
         CREATE TABLE cs_old_vectors (id INTEGER PRIMARY KEY REFERENCES cs_old_chunks(id) ON DELETE CASCADE,
             embedding BLOB NOT NULL);
         INSERT INTO cs_old_vectors SELECT id, embedding FROM vectors_now;
         DROP TABLE vectors_now;
         ALTER TABLE cs_old_files DROP COLUMN chunking;
         ALTER TABLE cs_old_chunks DROP COLUMN symbol_names;
         DROP TABLE cs_old_lists; DROP TABLE cs_old_packs;
         DROP TABLE cs_old_file_refs; DROP TABLE cs_old_imports;
         ALTER TABLE indexes DROP COLUMN ivf_trained;
         UPDATE indexes SET schema_version = 1 WHERE name = 'old';",
    )
    .expect("downgrade");

    let store = t.store(Backend::Sqlite);
    let version: i64 =
        sql.query_row("SELECT schema_version FROM indexes WHERE name = 'old'", [], |r| r.get(0)).expect("version");
    assert_eq!(version, 8);
    // Each stored file knows its keyword length, the sum of its chunks'.
    let (file_length, chunk_length): (i64, i64) = sql
        .query_row(
            "SELECT (SELECT sum(keyword_length) FROM cs_old_files), (SELECT sum(keyword_length) FROM cs_old_chunks)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("lengths");
    assert!(file_length > 0 && file_length == chunk_length, "{file_length} against {chunk_length}");
    // The files written before are the one snapshot, `working-tree`.
    let snapshots = store.reader("old").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!(
        snapshots.iter().map(|s| (s.name.as_str(), s.current, s.files)).collect::<Vec<_>>(),
        [("working-tree", true, 1)]
    );
    // The file written before has no chunking record, so the next run chunks it again.
    let states = store.reader("old").expect("reader").file_states(None).expect("file states");
    assert_eq!(states["a.py"].chunking, None);
    let hits = store.reader("old").expect("reader").vector_search(
        &[1.0, 0.0, 0.0],
        &SearchFilter::default(),
        5,
        VectorAccuracy::Usual,
    );
    assert_eq!(hits.expect("vector search").len(), 1);
    // Everything the current schema writes and reads works.
    store
        .writer("old")
        .expect("writer")
        .replace_files(&[file("b.py", vec![chunk("beta = 2").vector(&[0.0, 1.0, 0.0])])])
        .expect("write");
    assert_eq!(
        store.reader("old").expect("reader").file_states(None).expect("states")["b.py"].chunking.as_deref(),
        Some("budget 1000")
    );
    assert!(
        store
            .reader("old")
            .expect("reader")
            .definitions(&DefQuery { limit: 10, ..DefQuery::default() })
            .expect("graph")
            .is_empty()
    );
    store.writer("old").expect("writer").optimize().expect("organise");
    // Migrating again changes nothing.
    store.migrate().expect("again");
    assert_eq!(
        store
            .reader("old")
            .expect("reader")
            .vector_search(&[0.0, 1.0, 0.0], &SearchFilter::default(), 1, VectorAccuracy::Usual)
            .expect("search")[0]
            .path,
        "b.py"
    );
});

// The term table keeps no row at zero (what the `Store` API cannot show: it answers only for
// terms some chunk holds); `index_cli` checks the frequencies themselves.
cstest!(term_rows_at_zero_are_deleted_through_edits_and_deletions, |t| {
    terms_project(&t);
    let name = t.index_name();
    index_json(&t, &["--no-embed"]);
    let rows = |t: &TestCtx| -> (i64, i64) {
        store_file(t)
            .query_row(&format!("SELECT count(*), count(*) FILTER (WHERE df <= 0) FROM cs_{name}_terms"), [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .expect("count term rows")
    };
    assert!(rows(&t).0 > 2, "the table holds the terms: {:?}", rows(&t));
    for (i, step) in term_edits().iter().enumerate() {
        step(&t);
        index_json(&t, &["--no-embed"]);
        assert_eq!(rows(&t).1, 0, "after step {i}: terms with df 0 are deleted");
    }
});

cstest!(files_of_an_older_embedded_index_are_chunked_again_without_new_embeddings, |t| {
    chunky_project(&t);
    let name = t.index_name();
    index_json(&t, &[]);
    let before = chunk_snapshot(&t, &name);
    // As an index of the first pre-release builds, which recorded no chunking parameters.
    store_file(&t)
        .execute_batch(&format!(
            "ALTER TABLE cs_{name}_files DROP COLUMN chunking;
             UPDATE indexes SET schema_version = 3 WHERE name = '{name}';"
        ))
        .expect("make the index look old");
    let json = index_json(&t, &[]);
    assert_eq!(json["files"]["rechunked"], 3, "{json}");
    assert_eq!(json["embeddings"]["requests"], 0, "the same chunks keep their vectors: {json}");
    assert_eq!(chunk_snapshot(&t, &name), before);
    let states = t.db_store().reader(&name).expect("reader").file_states(None).expect("file states");
    assert!(states.values().all(|s| s.chunking.is_some()), "every file records how it was cut: {states:?}");
    let again = index_json(&t, &[]);
    assert_eq!(again["files"]["unchanged"], 3, "{again}");
});

// Issue 25, item 9: `clear` never returned disk space (a cleared 4.1 GB store kept 2.68 GB of
// free pages).
cstest!(clear_gives_the_disk_space_back, |t| {
    let body: String =
        (0..400).map(|i| format!("def function_{i}(value):\n    return value * {i} + len('{i:0>40}')\n\n")).collect();
    for i in 0..120 {
        t.write(&format!("pkg/module_{i}.py"), &body);
    }
    index_json(&t, &["--no-embed"]);
    let size = |t: &TestCtx| -> u64 {
        ["cocosearch.db", "cocosearch.db-wal"]
            .iter()
            .filter_map(|f| std::fs::metadata(t.embedded_dir().join(f)).ok())
            .map(|m| m.len())
            .sum()
    };
    let before = size(&t);
    assert!(before > 8 << 20, "the index is large enough to see: {before} bytes");
    let out = crate::support::run(t.cmd_db(), &["clear", &t.index_name(), "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    let after = size(&t);
    assert!(after * 4 < before, "clear kept the space: {before} bytes before, {after} after");
});

// Issue 25, item 8: a damaged store file had no way out — `clear` and `index --fresh` failed
// with "malformed", plain `index` said "Indexed" with exit 0, and the advice was to check that
// the directory is writable.
cstest!(a_damaged_store_is_named_with_its_way_out_and_never_reported_as_indexed, |t| {
    let body: String = (0..200).map(|i| format!("def function_{i}(value):\n    return value * {i}\n\n")).collect();
    for i in 0..40 {
        t.write(&format!("pkg/module_{i}.py"), &body);
    }
    index_json(&t, &["--no-embed"]);
    let file = t.embedded_dir().join("cocosearch.db");
    // Overwrite the middle half of the file: pages of the index's tables, not the header.
    let mut bytes = std::fs::read(&file).expect("read the store");
    assert!(bytes.len() > 64 << 10, "the store is large enough to damage in the middle");
    let (from, to) = (bytes.len() / 4, bytes.len() * 3 / 4);
    bytes[from..to].iter_mut().enumerate().for_each(|(i, b)| *b = (i * 7 % 251) as u8);
    std::fs::write(&file, &bytes).expect("damage the store");
    let file = file.display().to_string();

    for args in [vec!["index", "--no-embed"], vec!["index", "--no-embed", "--fresh"], vec!["stats"]] {
        let out = crate::support::run(t.cmd_db(), &args);
        assert_ne!(out.code, 0, "`{}` succeeded on a damaged store: {out:?}", args.join(" "));
        assert!(
            out.stderr.contains(&file)
                && out.stderr.contains("damaged")
                && out.stderr.contains("cocosearch clear --all"),
            "`{}` names the file and the way out: {out:?}",
            args.join(" ")
        );
        assert!(!out.stderr.contains("writable"), "no advice about permissions: {out:?}");
    }
    let cleared = crate::support::run(t.cmd_db(), &["clear", "--all", "--force"]);
    assert_eq!(cleared.code, 0, "clear --all recreates the store: {cleared:?}");
    index_json(&t, &["--no-embed"]);
    let found = crate::support::run(t.cmd_db(), &["search", "function_7", "--json"]).json();
    assert!(found["results"].as_array().is_some_and(|r| !r.is_empty()), "the new store works: {found}");
});

// `stats` on a 2 GB index spent a second walking its every page for its size; an index alone
// in its store is now measured by what it leaves of the file's used pages.
cstest!(storage_bytes_are_the_pages_of_the_index_tables_alone_in_the_store_or_not, |t| {
    let store = t.store(Backend::Sqlite);
    let walked = |name: &str| -> u64 {
        let bytes: i64 = store_file(&t)
            .query_row(
                "SELECT sum(pgsize) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name GLOB ?1)",
                [format!("cs_{name}_*")],
                |r| r.get(0),
            )
            .expect("walk the pages");
        u64::try_from(bytes).expect("a size")
    };
    let fill = |name: &str, files: usize| {
        index_with_test_model(&*store, name, t.path());
        let records: Vec<_> = (0..files)
            .map(|i| file(&format!("m{i}.py"), vec![chunk(&format!("def f{i}(x):\n    return x * {i}\n").repeat(40))]))
            .collect();
        store.writer(name).expect("writer").replace_files(&records).expect("write");
    };
    let counted = |name: &str| store.reader(name).expect("reader").index_counts().expect("counts").storage_bytes;
    fill("one", 30);
    assert_eq!(counted("one"), walked("one"), "the only index");
    fill("two", 90);
    assert_eq!(counted("one"), walked("one"), "beside another");
    assert_eq!(counted("two"), walked("two"), "beside another");
    let one = walked("one");
    assert!(store.writer("one").expect("writer").drop_index().expect("drop"));
    assert_eq!(counted("two"), walked("two"), "the only index again");
    assert!(walked("two") > one, "the two differ");
});
