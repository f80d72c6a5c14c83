//! Chunk texts stored once (see `store::texts`): writing the chunks of a batch of files as
//! texts (each new one with its definitions and the references on its lines) and places, and
//! freeing the texts no place holds any more, in the caller's transaction.

use std::collections::HashMap;

use pgvector::Vector;
use postgres::Transaction;

use super::tables::Tables;
use crate::chunk::Reference;
use crate::store::texts::{relative_symbols, text_key};
use crate::store::{ChunkRecord, FileRecord, SymbolRecord, keyword_length, qualified_key};

/// The references on each chunk's lines of each file, as `store::texts::refs_by_chunk` gives
/// them.
pub(super) type ChunkRefs<'a> = [Vec<Vec<&'a Reference>>];

fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Newline-separated text (`''` for none): arrays per row cannot pass through `unnest` of a
/// two-dimensional array, so they travel as lines.
fn lines<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join("\n")
}

/// SQL turning newline-separated text into a text array (`''` into an empty one).
fn lines_array(column: &str) -> String {
    format!("CASE WHEN {column} = '' THEN '{{}}'::text[] ELSE string_to_array({column}, E'\\n') END")
}

/// The columns of the texts of a batch, one entry per distinct key.
#[derive(Default)]
struct TextColumns<'a> {
    key: Vec<Vec<u8>>,
    language: Vec<&'a str>,
    content: Vec<&'a str>,
    symbol_type: Vec<Option<&'a str>>,
    symbol_name: Vec<Option<&'a str>>,
    qualified_name: Vec<Option<&'a str>>,
    signature: Vec<Option<&'a str>>,
    parent: Vec<Option<&'a str>>,
    symbols: Vec<String>,
    keys: Vec<String>,
    kinds: Vec<String>,
    details: Vec<serde_json::Value>,
    enclosing: Vec<Option<&'a str>>,
    context: Vec<&'a str>,
    status: Vec<&'a str>,
    hash: Vec<&'a [u8]>,
    embedding: Vec<Option<Vector>>,
    keywords: Vec<&'a str>,
    length: Vec<i32>,
}

impl<'a> TextColumns<'a> {
    fn push(&mut self, key: [u8; 32], language: &'a str, chunk: &'a ChunkRecord) {
        let body = &chunk.body;
        self.key.push(key.to_vec());
        self.language.push(language);
        self.content.push(&body.content);
        self.symbol_type.push(body.symbol_type.map(|k| k.as_str()));
        self.symbol_name.push(body.symbol_name.as_deref());
        self.qualified_name.push(body.qualified_name.as_deref());
        self.signature.push(body.signature.as_deref());
        self.parent.push(chunk.parent.as_deref());
        self.symbols.push(lines(body.symbols.iter().map(|s| s.qualified_name.as_str())));
        self.keys.push(body.symbols.iter().flat_map(|s| s.keys()).collect::<Vec<_>>().join("\n"));
        self.kinds.push(lines(body.symbols.iter().map(|s| s.kind.as_str())));
        let relative = relative_symbols(&body.symbols, body.line_start);
        self.details.push(serde_json::to_value(&relative).unwrap_or_default());
        self.enclosing.push(body.enclosing.as_deref());
        self.context.push(&body.context);
        self.status.push(body.parse_status.as_str());
        self.hash.push(&chunk.embed_hash);
        self.embedding.push(chunk.embedding.as_ref().map(|v| Vector::from(v.clone())));
        self.keywords.push(&chunk.keywords);
        self.length.push(i32::try_from(keyword_length(&chunk.keywords)).unwrap_or(i32::MAX));
    }
}

/// A chunk and the references on its lines.
type Held<'a> = (&'a ChunkRecord, &'a [&'a Reference]);

/// The chunks of `files` (stored as `file_ids`, in order), each with its file, its ordinal and
/// its text's key; and the texts they hold, each once, with the chunk that first holds it.
struct Batch<'a> {
    places: Vec<(&'a FileRecord, i64, usize, [u8; 32])>,
    texts: TextColumns<'a>,
    first: Vec<Held<'a>>,
}

impl<'a> Batch<'a> {
    fn new(files: &'a [FileRecord], file_ids: &[i64], refs: &'a ChunkRefs<'a>) -> Batch<'a> {
        let mut batch = Batch { places: Vec::new(), texts: TextColumns::default(), first: Vec::new() };
        let mut seen = std::collections::HashSet::new();
        for ((file, id), refs) in files.iter().zip(file_ids).zip(refs) {
            for (ordinal, (chunk, refs)) in file.chunks.iter().zip(refs).enumerate() {
                let key = text_key(&file.language, chunk, refs);
                batch.places.push((file, *id, ordinal, key));
                if seen.insert(key) {
                    batch.texts.push(key, &file.language, chunk);
                    batch.first.push((chunk, refs));
                }
            }
        }
        batch
    }
}

/// Writes the chunks of `files`, stored as `file_ids` (in order), with `refs` on their lines:
/// the texts the index does not hold yet (a missing vector taken from a text of the same embed
/// hash, as an edit should not embed again what it did not change) with their definitions and
/// references, vectors for held texts that had none, and one place per chunk. Returns how many
/// places it wrote and how many it should have (they differ only if a text vanished under the
/// writer's lock).
pub(super) fn write_chunks(
    tx: &mut Transaction<'_>,
    t: &Tables,
    files: &[FileRecord],
    file_ids: &[i64],
    refs: &ChunkRefs<'_>,
) -> Result<(u64, u64), postgres::Error> {
    let batch = Batch::new(files, file_ids, refs);
    if batch.places.is_empty() {
        return Ok((0, 0));
    }
    let added = insert_texts(tx, t, &batch.texts)?;
    fill_vectors(tx, t, &batch.texts)?;
    // A text's key covers its references: one already held has them already.
    let new_texts: Vec<(i64, Held<'_>)> = batch
        .texts
        .key
        .iter()
        .zip(&batch.first)
        .filter_map(|(key, held)| added.get(key).map(|id| (*id, *held)))
        .collect();
    insert_defs(tx, t, &new_texts)?;
    insert_refs(tx, t, &new_texts)?;
    let written = insert_places(tx, t, &batch.places)?;
    Ok((written, batch.places.len() as u64))
}

/// Inserts the texts of `c` the index does not hold; returns the new ones' ids by key.
fn insert_texts(
    tx: &mut Transaction<'_>,
    t: &Tables,
    c: &TextColumns<'_>,
) -> Result<HashMap<Vec<u8>, i64>, postgres::Error> {
    let texts = &t.texts;
    let sql = format!(
        "INSERT INTO {texts} (key, language, content, symbol_type, symbol_name, qualified_name, symbol_signature,
             symbol_parent, symbols, symbol_keys, symbol_kinds, symbol_details, enclosing, context, parse_status,
             embed_hash, embedding, keywords, keyword_length)
         SELECT u.key, u.language, u.content, u.symbol_type, u.symbol_name, u.qualified_name, u.signature, u.parent,
             {lines_symbols}, {lines_keys}, {lines_kinds}, u.details, u.enclosing, u.context, u.status, u.hash,
             COALESCE(u.embedding, (SELECT x.embedding FROM {texts} x
                                    WHERE x.embed_hash = u.hash AND x.embedding IS NOT NULL LIMIT 1)),
             to_tsvector('simple', u.keywords), u.length
         FROM unnest($1::bytea[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::text[], $10::text[], $11::text[], $12::jsonb[], $13::text[], $14::text[], $15::text[],
                     $16::bytea[], $17::vector[], $18::text[], $19::int4[])
              AS u(key, language, content, symbol_type, symbol_name, qualified_name, signature, parent,
                   symbols, keys, kinds, details, enclosing, context, status, hash, embedding, keywords, length)
         ON CONFLICT (key) DO NOTHING
         RETURNING key, id",
        lines_symbols = lines_array("u.symbols"),
        lines_keys = lines_array("u.keys"),
        lines_kinds = lines_array("u.kinds"),
    );
    let rows = tx.query(
        &sql,
        &[
            &c.key,
            &c.language,
            &c.content,
            &c.symbol_type,
            &c.symbol_name,
            &c.qualified_name,
            &c.signature,
            &c.parent,
            &c.symbols,
            &c.keys,
            &c.kinds,
            &c.details,
            &c.enclosing,
            &c.context,
            &c.status,
            &c.hash,
            &c.embedding,
            &c.keywords,
            &c.length,
        ],
    )?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Gives the held texts of `c` that have no vector the one written with them, if any.
fn fill_vectors(tx: &mut Transaction<'_>, t: &Tables, c: &TextColumns<'_>) -> Result<(), postgres::Error> {
    let (keys, vectors): (Vec<&Vec<u8>>, Vec<&Vector>) =
        c.key.iter().zip(&c.embedding).filter_map(|(k, v)| v.as_ref().map(|v| (k, v))).unzip();
    if keys.is_empty() {
        return Ok(());
    }
    tx.execute(
        &format!(
            "UPDATE {} x SET embedding = u.embedding FROM unnest($1::bytea[], $2::vector[]) AS u(key, embedding)
             WHERE x.key = u.key AND x.embedding IS NULL",
            t.texts
        ),
        &[&keys, &vectors],
    )?;
    Ok(())
}

/// The definitions of new texts: one row per symbol, lines relative to the chunk's first line
/// (a missing line is the chunk's first or last).
fn insert_defs(tx: &mut Transaction<'_>, t: &Tables, texts: &[(i64, Held<'_>)]) -> Result<(), postgres::Error> {
    let symbols: Vec<(i64, &ChunkRecord, &SymbolRecord)> =
        texts.iter().flat_map(|(id, (c, _))| c.body.symbols.iter().map(move |s| (*id, *c, s))).collect();
    if symbols.is_empty() {
        return Ok(());
    }
    let relative = |line: Option<u32>, otherwise: u32, c: &ChunkRecord| {
        i64::from(line.unwrap_or(otherwise).wrapping_sub(c.body.line_start))
    };
    let text: Vec<i64> = symbols.iter().map(|(id, _, _)| *id).collect();
    let kind: Vec<&str> = symbols.iter().map(|(_, _, s)| s.kind.as_str()).collect();
    let name: Vec<&str> = symbols.iter().map(|(_, _, s)| s.name.as_str()).collect();
    let qualified: Vec<&str> = symbols.iter().map(|(_, _, s)| s.qualified_name.as_str()).collect();
    let signature: Vec<&str> = symbols.iter().map(|(_, _, s)| s.signature.as_str()).collect();
    let parent: Vec<Option<&str>> = symbols.iter().map(|(_, _, s)| s.parent.as_deref()).collect();
    let start: Vec<i64> = symbols.iter().map(|(_, c, s)| relative(s.start_line, c.body.line_start, c)).collect();
    let end: Vec<i64> = symbols.iter().map(|(_, c, s)| relative(s.end_line, c.body.line_end, c)).collect();
    let params: Vec<serde_json::Value> =
        symbols.iter().map(|(_, _, s)| serde_json::to_value(&s.params).unwrap_or_default()).collect();
    let bases: Vec<serde_json::Value> =
        symbols.iter().map(|(_, _, s)| serde_json::to_value(&s.bases).unwrap_or_default()).collect();
    let name_key: Vec<String> = symbols.iter().map(|(_, _, s)| s.name.to_lowercase()).collect();
    let qualified_keys: Vec<String> = symbols.iter().map(|(_, _, s)| qualified_key(&s.qualified_name)).collect();
    tx.execute(
        &format!(
            "INSERT INTO {} (kind, name, qualified_name, signature, parent, line_start, line_end, params, bases,
                             name_key, qualified_key, text_id)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::int8[],
                                  $8::jsonb[], $9::jsonb[], $10::text[], $11::text[], $12::int8[])",
            t.defs
        ),
        &[
            &kind,
            &name,
            &qualified,
            &signature,
            &parent,
            &start,
            &end,
            &params,
            &bases,
            &name_key,
            &qualified_keys,
            &text,
        ],
    )?;
    Ok(())
}

/// The references on the lines of new texts: one row per reference, its line relative to the
/// chunk's first (which is at or above it) and its place among the text's.
fn insert_refs(tx: &mut Transaction<'_>, t: &Tables, texts: &[(i64, Held<'_>)]) -> Result<(), postgres::Error> {
    let refs: Vec<(i64, u32, usize, &Reference)> = texts
        .iter()
        .flat_map(|(id, (c, refs))| refs.iter().enumerate().map(move |(i, r)| (*id, c.body.line_start, i, *r)))
        .collect();
    if refs.is_empty() {
        return Ok(());
    }
    let text: Vec<i64> = refs.iter().map(|(id, _, _, _)| *id).collect();
    let line: Vec<i32> = refs.iter().map(|(_, start, _, r)| to_i32(r.line.wrapping_sub(*start))).collect();
    let ordinal: Vec<i32> = refs.iter().map(|(_, _, i, _)| i32::try_from(*i).unwrap_or(i32::MAX)).collect();
    let kind: Vec<&str> = refs.iter().map(|(_, _, _, r)| r.kind.as_str()).collect();
    let name: Vec<&str> = refs.iter().map(|(_, _, _, r)| r.name.as_str()).collect();
    let qualifier: Vec<Option<&str>> = refs.iter().map(|(_, _, _, r)| r.qualifier.as_deref()).collect();
    let caller: Vec<Option<&str>> = refs.iter().map(|(_, _, _, r)| r.caller.as_deref()).collect();
    tx.execute(
        &format!(
            "INSERT INTO {} (text_id, line, ordinal, kind, name, qualifier, caller)
             SELECT * FROM unnest($1::int8[], $2::int4[], $3::int4[], $4::text[], $5::text[], $6::text[], $7::text[])",
            t.text_refs
        ),
        &[&text, &line, &ordinal, &kind, &name, &qualifier, &caller],
    )?;
    Ok(())
}

/// One place per chunk, pointing at its text (found by key); returns how many it wrote.
fn insert_places(
    tx: &mut Transaction<'_>,
    t: &Tables,
    places: &[(&FileRecord, i64, usize, [u8; 32])],
) -> Result<u64, postgres::Error> {
    let key: Vec<&[u8]> = places.iter().map(|(_, _, _, k)| k.as_slice()).collect();
    let path: Vec<&str> = places.iter().map(|(f, _, _, _)| f.path.as_str()).collect();
    let file: Vec<i64> = places.iter().map(|(_, id, _, _)| *id).collect();
    let ordinal: Vec<i32> = places.iter().map(|(_, _, i, _)| i32::try_from(*i).unwrap_or(i32::MAX)).collect();
    fn body<'a>((f, _, i, _): &(&'a FileRecord, i64, usize, [u8; 32])) -> &'a crate::store::ChunkBody {
        &f.chunks[*i].body
    }
    let byte_start: Vec<i32> = places.iter().map(|p| to_i32(body(p).byte_start)).collect();
    let byte_end: Vec<i32> = places.iter().map(|p| to_i32(body(p).byte_end)).collect();
    let line_start: Vec<i32> = places.iter().map(|p| to_i32(body(p).line_start)).collect();
    let line_end: Vec<i32> = places.iter().map(|p| to_i32(body(p).line_end)).collect();
    tx.execute(
        &format!(
            "INSERT INTO {chunks} (path, ordinal, byte_start, byte_end, line_start, line_end, file_id, text_id)
             SELECT u.path, u.ordinal, u.byte_start, u.byte_end, u.line_start, u.line_end, u.file_id, x.id
             FROM unnest($1::text[], $2::int4[], $3::int4[], $4::int4[], $5::int4[], $6::int4[], $7::int8[], $8::bytea[])
                  WITH ORDINALITY AS u(path, ordinal, byte_start, byte_end, line_start, line_end, file_id, key, n)
             JOIN {texts} x ON x.key = u.key
             ORDER BY u.n",
            chunks = t.chunks,
            texts = t.texts,
        ),
        &[&path, &ordinal, &byte_start, &byte_end, &line_start, &line_end, &file, &key],
    )
}

/// Deletes the texts among `ids` that no chunk holds any more, with their vectors,
/// definitions and references (foreign-key cascades); returns how many went. Whatever deletes chunks calls
/// this in its transaction, so the index never keeps a text nothing reads.
pub(super) fn free(tx: &mut Transaction<'_>, t: &Tables, ids: &[i64]) -> Result<u64, postgres::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    tx.execute(
        &format!(
            "DELETE FROM {texts} x WHERE x.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM {chunks} c WHERE c.text_id = x.id)",
            texts = t.texts,
            chunks = t.chunks,
        ),
        &[&ids],
    )
}
