//! The embedded store's chunk texts (see `store::texts`): each distinct text stored once with
//! its vector, symbol keys and definitions; texts no place holds any more freed in the
//! transaction that let them go.

use rusqlite::{OptionalExtension, Transaction, params};

use super::graph;
use super::schema::Tables;
use super::vectors::{encode, normalised};
use super::write::json_list;
use crate::chunk::Reference;
use crate::store::texts::{relative_symbols, text_key};
use crate::store::{ChunkRecord, FileRecord};

/// One line per item, with a newline before and after, so `instr(x, '\nitem\n')` finds
/// exactly one whole item.
fn lines<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("\n");
    for item in items {
        out.push_str(item);
        out.push('\n');
    }
    if out.len() == 1 { String::new() } else { out }
}

/// A stored text: its id, and whether this write stored it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stored {
    pub id: i64,
    pub new: bool,
}

/// Whether the index may hold a vector a new text could borrow. While it holds none (a fresh
/// keyword-only index), a new text without a vector looks for none: a lookup per chunk saved.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lenders(bool);

impl Lenders {
    /// Whether the index holds any vector now.
    pub(super) fn of(tx: &Transaction<'_>, t: &Tables) -> rusqlite::Result<Lenders> {
        tx.query_row(&format!("SELECT EXISTS (SELECT 1 FROM {})", t.vectors), [], |r| r.get(0)).map(Lenders)
    }
}

/// Stores the text of `chunk` (of file `f`, `length` keyword terms long, `refs` on its lines)
/// unless the index has it, with its symbol keys, definitions and references; gives it `chunk`'s vector, or one of another text
/// embedded the same way, when it has none.
pub(super) fn store(
    tx: &Transaction<'_>,
    t: &Tables,
    f: &FileRecord,
    (chunk, refs): (&ChunkRecord, &[&Reference]),
    length: u32,
    lenders: &mut Lenders,
) -> rusqlite::Result<Stored> {
    let key = text_key(&f.language, chunk, refs);
    // Most texts are new: the insert's own check of the key finds the others.
    let stored = match insert(tx, t, f, (chunk, refs), (&key, length))? {
        Some(id) => Stored { id, new: true },
        None => {
            let id = tx
                .prepare_cached(&format!("SELECT id FROM {} WHERE key = ?1", t.texts))?
                .query_row([key.as_slice()], |r| r.get(0))?;
            Stored { id, new: false }
        }
    };
    let vector = match &chunk.embedding {
        Some(v) => Some(encode(&normalised(v.clone()))),
        None if stored.new && lenders.0 => tx
            .prepare_cached(&format!(
                "SELECT v.embedding FROM {texts} x JOIN {vectors} v ON v.id = x.id WHERE x.embed_hash = ?1 LIMIT 1",
                texts = t.texts,
                vectors = t.vectors
            ))?
            .query_row([chunk.embed_hash.as_slice()], |r| r.get::<_, Vec<u8>>(0))
            .optional()?,
        None => None,
    };
    if let Some(blob) = vector {
        lenders.0 = true;
        tx.prepare_cached(&format!(
            "INSERT INTO {} (id, embedding) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING",
            t.vectors
        ))?
        .execute(params![stored.id, blob])?;
    }
    Ok(stored)
}

/// Inserts the text unless the index has its key; returns its id when it was new.
fn insert(
    tx: &Transaction<'_>,
    t: &Tables,
    f: &FileRecord,
    (chunk, refs): (&ChunkRecord, &[&Reference]),
    (key, length): (&[u8; 32], u32),
) -> rusqlite::Result<Option<i64>> {
    let b = &chunk.body;
    let keys: Vec<String> = b.symbols.iter().flat_map(|s| s.keys()).collect();
    let inserted = tx
        .prepare_cached(&format!(
            "INSERT INTO {} (key, language, content, symbol_type, symbol_name, qualified_name, symbol_signature,
                         symbol_parent, symbol_keys, symbol_kinds, symbol_details, enclosing, context, parse_status,
                         embed_hash, keywords, keyword_length, symbol_names)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
         ON CONFLICT (key) DO NOTHING",
            t.texts
        ))?
        .execute(params![
            key.as_slice(),
            f.language,
            b.content,
            b.symbol_type.map(|k| k.as_str()),
            b.symbol_name,
            b.qualified_name,
            b.signature,
            chunk.parent,
            lines(keys.iter().map(String::as_str)),
            lines(b.symbols.iter().map(|s| s.kind.as_str())),
            json_list(&relative_symbols(&b.symbols, b.line_start)),
            b.enclosing,
            b.context,
            b.parse_status.as_str(),
            chunk.embed_hash.as_slice(),
            chunk.keywords,
            length,
            lines(b.symbols.iter().map(|s| s.name.as_str())),
        ])?;
    if inserted == 0 {
        return Ok(None);
    }
    let id = tx.last_insert_rowid();
    let mut symbol_stmt = tx.prepare_cached(&format!("INSERT INTO {} (key, text_id) VALUES (?1, ?2)", t.symbols))?;
    for key in &keys {
        symbol_stmt.execute(params![key, id])?;
    }
    graph::write_defs(tx, t, id, &b.symbols, (b.line_start, b.line_end))?;
    graph::write_text_refs(tx, t, id, refs, b.line_start)?;
    Ok(Some(id))
}

/// Places chunk `ordinal` of stored file `file_id` with text `text_id`; returns the chunk's id.
pub(super) fn place(
    tx: &Transaction<'_>,
    t: &Tables,
    (file_id, ordinal): (i64, usize),
    chunk: &ChunkRecord,
    text_id: i64,
) -> rusqlite::Result<i64> {
    let b = &chunk.body;
    tx.prepare_cached(&format!(
        "INSERT INTO {} (file_id, text_id, ordinal, byte_start, byte_end, line_start, line_end)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        t.places
    ))?
    .execute(params![file_id, text_id, ordinal as i64, b.byte_start, b.byte_end, b.line_start, b.line_end])?;
    Ok(tx.last_insert_rowid())
}

/// Deletes, of the texts `candidates`, those no place holds; returns their ids (their vectors,
/// symbol keys and definitions go with them, by foreign-key cascades).
pub(super) fn free_unplaced(tx: &Transaction<'_>, t: &Tables, candidates: &[i64]) -> rusqlite::Result<Vec<i64>> {
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = tx.prepare_cached(&format!(
        "DELETE FROM {texts} WHERE id IN (SELECT value FROM json_each(?1))
             AND NOT EXISTS (SELECT 1 FROM {places} p WHERE p.text_id = {texts}.id)
         RETURNING id",
        texts = t.texts,
        places = t.places
    ))?;
    let rows = stmt.query_map([json_list(candidates)], |r| r.get(0))?;
    rows.collect()
}
