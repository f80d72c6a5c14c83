//! Migration 11, in place: chunk texts stored once (see `store::texts`). Every existing chunk
//! becomes its own text, under a key no written text can have (nine bytes: zero and the old
//! id, where written keys are blake3's 32), so old rows share nothing but read as before; the
//! chunks keep their ids and become places pointing at their text. Vectors and keyword vectors
//! move as they are (nothing is embedded again), symbol lines become relative to the chunk's
//! first line, and each definition moves to the text of the chunk that listed its symbol.

use super::tables::Tables;

/// SQL for the relative line (a wrapping `u32` offset, as `store::texts::relative_symbols`
/// computes it) of absolute line `line` in a chunk starting at `line_start`.
fn relative(line: &str, line_start: &str) -> String {
    format!("((({line}) - ({line_start})) % 4294967296 + 4294967296) % 4294967296")
}

/// SQL for a symbol's line field `field` of JSON object `s` as a number, or NULL when it is
/// absent, null or not a number.
fn json_line(s: &str, field: &str) -> String {
    format!("CASE WHEN jsonb_typeof({s}->'{field}') = 'number' THEN ({s}->>'{field}')::int8 END")
}

/// SQL for `details` (a chunk's `symbol_details`) with each symbol's lines relative to
/// `line_start`; a null line stays null, and anything not a list of objects stays as it is
/// (the reader reports it, as it did).
fn relative_details(details: &str, line_start: &str) -> String {
    let start = relative(&json_line("s", "start_line"), line_start);
    let end = relative(&json_line("s", "end_line"), line_start);
    format!(
        "CASE WHEN jsonb_typeof({details}) = 'array' THEN
             (SELECT COALESCE(jsonb_agg(CASE WHEN jsonb_typeof(s) = 'object'
                                             THEN s || jsonb_strip_nulls(jsonb_build_object('start_line', {start}, 'end_line', {end}))
                                             ELSE s END ORDER BY n), '[]'::jsonb)
              FROM jsonb_array_elements({details}) WITH ORDINALITY AS e(s, n))
         ELSE {details} END"
    )
}

/// The columns that move from the chunks to the texts, in the texts' order.
const TEXT_COLUMNS: [&str; 18] = [
    "language",
    "content",
    "symbol_type",
    "symbol_name",
    "qualified_name",
    "symbol_signature",
    "symbol_parent",
    "symbols",
    "symbol_keys",
    "symbol_kinds",
    "symbol_details",
    "enclosing",
    "context",
    "parse_status",
    "embed_hash",
    "embedding",
    "keywords",
    "keyword_length",
];

/// Each chunk's text, under the chunk's id, with the vector dimension the chunks had.
fn texts_from_chunks(t: &Tables) -> String {
    let Tables { texts, chunks, .. } = t;
    let columns = TEXT_COLUMNS.join(", ");
    let values = TEXT_COLUMNS
        .iter()
        .map(|c| {
            if *c == "symbol_details" { relative_details("c.symbol_details", "c.line_start") } else { format!("c.{c}") }
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{create}
         SELECT atttypmod INTO dimension FROM pg_attribute WHERE attrelid = '{chunks_literal}'::regclass AND attname = 'embedding';
         IF dimension > 0 THEN
             EXECUTE format('ALTER TABLE %s ALTER COLUMN embedding TYPE vector(%s)', '{texts_literal}', dimension);
         END IF;
         INSERT INTO {texts} (id, key, {columns})
             SELECT c.id, '\\x00'::bytea || int8send(c.id), {values} FROM {chunks} c;
         PERFORM setval(pg_get_serial_sequence('{texts_literal}', 'id'), max(id)) FROM {texts};
         ALTER TABLE {chunks} ADD COLUMN text_id bigint REFERENCES {texts}(id);
         UPDATE {chunks} SET text_id = id;
         ALTER TABLE {chunks} ALTER COLUMN text_id SET NOT NULL;",
        create = t.texts_sql(),
        chunks_literal = literal(chunks),
        texts_literal = literal(texts),
    )
}

/// Each definition to the text of the chunk of its file that lists its symbol (by qualified
/// name and first line), or else the first chunk of its file holding its first line, with
/// its lines relative to that chunk. One that no chunk holds has nowhere to be read and goes.
fn defs_to_texts(t: &Tables) -> String {
    let Tables { chunks, texts, defs, .. } = t;
    let line = format!("COALESCE({}, c.line_start)", json_line("s", "start_line"));
    format!(
        "ALTER TABLE {defs} ADD COLUMN text_id bigint REFERENCES {texts}(id) ON DELETE CASCADE;
         WITH listed AS (
             SELECT c.id, c.file_id, s->>'qualified_name' AS qualified_name, {line} AS line
             FROM {chunks} c,
                  jsonb_array_elements(CASE WHEN jsonb_typeof(c.symbol_details) = 'array' THEN c.symbol_details ELSE '[]' END) s
             WHERE jsonb_typeof(s) = 'object'
         ), matched AS (
             SELECT DISTINCT ON (d.ctid) d.ctid AS row, l.id FROM {defs} d
             JOIN listed l ON l.file_id = d.file_id AND l.qualified_name = d.qualified_name AND l.line = d.line_start
             ORDER BY d.ctid, l.id
         )
         UPDATE {defs} d SET text_id = m.id FROM matched m WHERE d.ctid = m.row;
         UPDATE {defs} d SET text_id = (SELECT c.id FROM {chunks} c WHERE c.file_id = d.file_id
                                        AND d.line_start BETWEEN c.line_start AND c.line_end ORDER BY c.id LIMIT 1)
             WHERE text_id IS NULL;
         DELETE FROM {defs} WHERE text_id IS NULL;
         ALTER TABLE {defs} ALTER COLUMN line_start TYPE bigint, ALTER COLUMN line_end TYPE bigint;
         UPDATE {defs} d SET line_start = {start}, line_end = {end} FROM {chunks} c WHERE c.id = d.text_id;
         ALTER TABLE {defs} ALTER COLUMN text_id SET NOT NULL;
         ALTER TABLE {defs} DROP COLUMN path, DROP COLUMN file_id;",
        start = relative("d.line_start", "c.line_start"),
        end = relative("d.line_end", "c.line_start"),
    )
}

fn literal(name: &str) -> String {
    name.replace('\'', "''")
}

/// Migration 11 (see the module). An index already in the new shape (its chunks have no
/// content) is left as it is; the result is what [`Tables::create_sql`] makes.
pub(super) fn to_texts(t: &Tables) -> String {
    let Tables { chunks, texts, .. } = t;
    let drops = TEXT_COLUMNS.iter().map(|c| format!("DROP COLUMN {c}")).collect::<Vec<_>>().join(", ");
    // Indexes on the moved columns go with them; named here too, for their predicates.
    let old_indexes = ["c_kw", "c_hash", "c_pending", "c_sym", "c_hnsw", "d_path", "d_file"]
        .iter()
        .map(|s| format!("DROP INDEX IF EXISTS {};", t.object(s)))
        .collect::<String>();
    format!(
        "DO $texts$
         DECLARE
             dimension int;
         BEGIN
             IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '{chunks_literal}'::regclass
                            AND attname = 'content' AND NOT attisdropped) THEN
                 RETURN;
             END IF;
             {texts_from_chunks}
             {defs_to_texts}
             ALTER TABLE {chunks} {drops};
             {old_indexes}
             {texts_indexes}
             {places}
             CREATE INDEX IF NOT EXISTS {d_text} ON {defs} (text_id);
             IF dimension > 0 THEN
                 CREATE INDEX IF NOT EXISTS {hnsw} ON {texts} USING hnsw (embedding vector_cosine_ops);
             END IF;
         END
         $texts$;",
        chunks_literal = literal(chunks),
        texts_from_chunks = texts_from_chunks(t),
        defs_to_texts = defs_to_texts(t),
        texts_indexes = t.texts_indexes_sql(),
        places = t.places_sql(),
        d_text = t.object("d_text"),
        defs = t.defs,
        hnsw = t.object("t_hnsw"),
    )
}
