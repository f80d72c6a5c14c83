//! What only the embedded backend has: upgrades of stores written by its first pre-release
//! builds, whose schema changed before versions were counted. Behaviour both backends
//! promise is in `store_contract`.

use cocosearch::store::{Backend, DefQuery, SearchFilter, VectorAccuracy};

use crate::cstest;
use crate::store_contract::records::{ChunkExt, chunk, file, index_with_test_model};

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
    let sql = rusqlite::Connection::open(t.embedded_dir().join("cocosearch.db")).expect("open the store file");
    sql.execute_batch(
        "DROP INDEX cs_old_v_list;
         ALTER TABLE cs_old_vectors DROP COLUMN list;
         ALTER TABLE cs_old_files DROP COLUMN chunking;
         ALTER TABLE cs_old_chunks DROP COLUMN symbol_names;
         DROP TABLE cs_old_lists; DROP TABLE cs_old_packs;
         DROP TABLE cs_old_defs; DROP TABLE cs_old_refs; DROP TABLE cs_old_imports;
         ALTER TABLE indexes DROP COLUMN ivf_trained;
         UPDATE indexes SET schema_version = 1 WHERE name = 'old';",
    )
    .expect("downgrade");

    let store = t.store(Backend::Sqlite);
    let version: i64 =
        sql.query_row("SELECT schema_version FROM indexes WHERE name = 'old'", [], |r| r.get(0)).expect("version");
    assert_eq!(version, 4);
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
