//! Per-index migration 8: chunk texts stored once (see `store::texts`).
//!
//! The chunks table of schema 7 splits into texts and places, definitions move from files to
//! texts, and references stay with their files (as `file_refs`: old texts hold none). Ids are kept — each old chunk becomes a text and a place with its id — so the
//! vectors, symbol keys, FTS rows and packs (all keyed by chunk id) now name texts without
//! being rewritten, and no vector is computed again. Old texts get keys no new text has (they
//! are not shared with later writes; they go as their files do). Symbol lines become relative
//! to their chunk. It runs inside the migration's transaction with foreign keys off.

use rusqlite::{Connection, params};

use super::graph;
use super::schema::Tables;
use super::write::json_list;
use crate::store::SymbolRecord;
use crate::store::texts::relative_symbols;

/// The tables of schema 7 that migration 8 replaces, renamed out of the way.
fn old(t: &Tables, table: &str) -> String {
    format!("\"{}_{table}__v7\"", t.prefix())
}

/// Whether `name` (quoted) is a table, not a view.
fn is_table(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
        [name.trim_matches('"')],
        |r| r.get(0),
    )
}

pub(crate) fn to_texts(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    if !is_table(conn, &t.chunks)? {
        return conn.execute_batch(&t.create_sql());
    }
    let prefix = t.prefix();
    let mut set_aside = String::new();
    // Schema 7's indexes go first: their names are free for the new tables' indexes.
    for index in ["c_path", "c_file", "c_hash", "v_list", "s_key", "s_chunk", "d_path", "d_file", "d_name", "d_qual"] {
        set_aside.push_str(&format!("DROP INDEX IF EXISTS \"{prefix}_{index}\";\n"));
    }
    for (table, name) in [(&t.chunks, "chunks"), (&t.vectors, "vectors"), (&t.symbols, "symbols"), (&t.defs, "defs")] {
        set_aside.push_str(&format!("ALTER TABLE {table} RENAME TO {};\n", old(t, name)));
    }
    // References stay their file's (schema 7 has no texts to give them to).
    set_aside.push_str(&format!("ALTER TABLE {} RENAME TO {};\n", t.refs, t.file_refs));
    conn.execute_batch(&set_aside)?;
    conn.execute_batch(&t.create_sql())?;
    let (chunks, vectors, symbols) = (old(t, "chunks"), old(t, "vectors"), old(t, "symbols"));
    conn.execute_batch(&format!(
        "INSERT INTO {texts} (id, key, language, content, symbol_type, symbol_name, qualified_name, symbol_signature,
                              symbol_parent, symbol_keys, symbol_names, symbol_kinds, symbol_details, enclosing,
                              context, parse_status, embed_hash, keywords, keyword_length)
             SELECT id, CAST('schema 7 chunk ' || id AS BLOB), language, content, symbol_type, symbol_name,
                    qualified_name, symbol_signature, symbol_parent, symbol_keys, symbol_names, symbol_kinds,
                    symbol_details, enclosing, context, parse_status, embed_hash, keywords, keyword_length
             FROM {chunks};
         INSERT INTO {places} (id, file_id, text_id, ordinal, byte_start, byte_end, line_start, line_end)
             SELECT id, file_id, id, ordinal, byte_start, byte_end, line_start, line_end FROM {chunks};
         INSERT INTO {new_vectors} (id, list, embedding) SELECT id, list, embedding FROM {vectors};
         INSERT INTO {new_symbols} (key, text_id) SELECT key, chunk_id FROM {symbols};",
        texts = t.texts,
        places = t.places,
        new_vectors = t.vectors,
        new_symbols = t.symbols,
    ))?;
    place_symbols_relatively(conn, t, &chunks)?;
    let mut drop = String::new();
    for name in ["vectors", "symbols", "defs", "chunks"] {
        drop.push_str(&format!("DROP TABLE {};\n", old(t, name)));
    }
    conn.execute_batch(&drop)
}

/// Each text's symbols at lines relative to its chunk, and its definitions from them (as a
/// new write stores them).
fn place_symbols_relatively(conn: &Connection, t: &Tables, chunks: &str) -> rusqlite::Result<()> {
    let mut read = conn.prepare(&format!("SELECT id, line_start, line_end, symbol_details FROM {chunks}"))?;
    let mut update = conn.prepare(&format!("UPDATE {} SET symbol_details = ?2 WHERE id = ?1", t.texts))?;
    let mut rows = read.query([])?;
    while let Some(row) = rows.next()? {
        let (id, first, last): (i64, u32, u32) = (row.get(0)?, row.get(1)?, row.get(2)?);
        // Details this build cannot read stay as they are: reading them reports the chunk.
        let Ok(symbols) = serde_json::from_str::<Vec<SymbolRecord>>(&row.get::<_, String>(3)?) else { continue };
        update.execute(params![id, json_list(&relative_symbols(&symbols, first))])?;
        graph::write_defs(conn, t, id, &symbols, (first, last))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::super::migrate::migrate;
    use super::*;
    use crate::chunk::SymbolKind;

    #[test]
    fn chunks_of_schema_7_become_texts_and_places_keeping_vectors_and_definitions() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn).expect("migrate");
        let t = Tables::new("demo").expect("name");
        conn.execute_batch(&t.create_sql_v7()).expect("schema 7");
        let symbol = SymbolRecord {
            kind: SymbolKind::Function,
            name: "f".into(),
            qualified_name: "f".into(),
            signature: "def f()".into(),
            parent: None,
            start_line: Some(10),
            end_line: Some(12),
            params: vec!["x".into()],
            bases: Vec::new(),
        };
        conn.execute(
            "INSERT INTO indexes (name, root_path, provider, schema_version, created_at, updated_at)
             VALUES ('demo', '/p', 'none', 7, 0, 0)",
            [],
        )
        .expect("register");
        conn.execute_batch(&format!(
            "INSERT INTO {files} (id, path, language, size_bytes, mtime_ns, content_hash, line_count, chunk_count,
                                  parse_status, indexed_at) VALUES (1, 'a.py', 'python', 30, 0, x'01', 12, 1, 'ok', 0);
             INSERT INTO {chunks} (id, file_id, path, ordinal, byte_start, byte_end, line_start, line_end, language,
                                   content, symbol_type, symbol_name, symbol_details, parse_status, embed_hash,
                                   keywords, keyword_length)
                 VALUES (5, 1, 'a.py', 0, 0, 30, 10, 12, 'python', 'def f(x):\n    pass', 'function', 'f',
                         '{details}', 'ok', x'00', 'f x pass', 3);
             INSERT INTO {vectors} (id, embedding) VALUES (5, x'0000803f');
             INSERT INTO {symbols} (key, chunk_id) VALUES ('f', 5);
             INSERT INTO {defs} (file_id, path, kind, name, qualified_name, signature, line_start, line_end, params,
                                 name_key, qualified_key)
                 VALUES (1, 'a.py', 'function', 'f', 'f', 'def f()', 10, 12, '[\"x\"]', 'f', 'f');",
            files = t.files,
            chunks = t.chunks,
            vectors = t.vectors,
            symbols = t.symbols,
            defs = t.defs,
            details = json_list(std::slice::from_ref(&symbol)),
        ))
        .expect("a schema 7 index");
        migrate(&mut conn).expect("upgrade");
        let version: i64 = conn
            .query_row("SELECT schema_version FROM indexes WHERE name = 'demo'", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, 8);
        // The chunk is a text and a place with its id; its vector and symbol key name the text.
        let (text, line, details): (i64, u32, String) = conn
            .query_row(&format!("SELECT text_id, line_start, symbol_details FROM {} WHERE id = 5", t.chunks), [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .expect("the chunk");
        assert_eq!((text, line), (5, 10));
        let stored: Vec<SymbolRecord> = serde_json::from_str(&details).expect("details");
        assert_eq!((stored[0].start_line, stored[0].end_line), (Some(0), Some(2)), "relative to the chunk");
        let count = |conn: &Connection, sql: String| conn.query_row(&sql, [], |r| r.get::<_, i64>(0)).expect(&sql);
        assert_eq!(count(&conn, format!("SELECT count(*) FROM {} WHERE id = 5", t.vectors)), 1);
        assert_eq!(count(&conn, format!("SELECT count(*) FROM {} WHERE text_id = 5 AND key = 'f'", t.symbols)), 1);
        // The definition hangs off the text and reads at its lines.
        let def: (String, u32, u32, String) = conn
            .query_row(&format!("SELECT path, line_start, line_end, params FROM {}", t.defs), [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .expect("the definition");
        assert_eq!(def, ("a.py".to_string(), 10, 12, "[\"x\"]".to_string()));
        assert_eq!(
            count(&conn, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%\\_\\_v7%' ESCAPE '\\'".into()),
            0
        );
        // Migrating again changes nothing.
        migrate(&mut conn).expect("again");
        assert_eq!(count(&conn, format!("SELECT count(*) FROM {}", t.chunks)), 1);
    }
}
