//! Chunk texts stored once. Both backends split a chunk in two: its **text** — the content
//! with everything derived from it (keyword terms, symbols, parse status, the vector) — stored
//! once per distinct key in the index, and its **place** — which stored file, which ordinal,
//! which byte and line range — stored per chunk. A version that changes one function stores
//! that function's text only; snapshots and files share the rest.
//!
//! A text cannot carry absolute line numbers (the same function two lines lower is the same
//! text), so its symbols' lines are stored relative to the chunk's first line and placed again
//! when read. Relative lines are kept as wrapping `u32` offsets: a symbol starting above its
//! chunk round-trips exactly. The references on a chunk's lines belong to its text the same
//! way ([`refs_by_chunk`]); those on no chunk's lines stay with their file.

use super::types::{ChunkRecord, FileRecord, SymbolRecord};
use crate::chunk::Reference;

/// The key of a chunk's stored text: blake3 over everything stored with it, symbols and
/// references (`refs`, those [`refs_by_chunk`] gives it) at their relative lines. Two chunks
/// with the same key read the same wherever they stand.
pub fn text_key(language: &str, chunk: &ChunkRecord, refs: &[&Reference]) -> [u8; 32] {
    let b = &chunk.body;
    let mut hasher = blake3::Hasher::new();
    let mut field = |bytes: &[u8]| {
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(language.as_bytes());
    field(b.content.as_bytes());
    field(chunk.keywords.as_bytes());
    field(b.context.as_bytes());
    field(b.enclosing.as_deref().unwrap_or("\u{0}").as_bytes());
    field(chunk.parent.as_deref().unwrap_or("\u{0}").as_bytes());
    field(b.symbol_type.map_or("\u{0}", |k| k.as_str()).as_bytes());
    field(b.symbol_name.as_deref().unwrap_or("\u{0}").as_bytes());
    field(b.qualified_name.as_deref().unwrap_or("\u{0}").as_bytes());
    field(b.signature.as_deref().unwrap_or("\u{0}").as_bytes());
    field(b.parse_status.as_str().as_bytes());
    field(&chunk.embed_hash);
    field(serde_json::to_string(&relative_symbols(&b.symbols, b.line_start)).unwrap_or_default().as_bytes());
    for r in refs {
        field(&r.line.wrapping_sub(b.line_start).to_le_bytes());
        field(r.kind.as_str().as_bytes());
        field(r.name.as_bytes());
        field(r.qualifier.as_deref().unwrap_or("\u{0}").as_bytes());
        field(r.caller.as_deref().unwrap_or("\u{0}").as_bytes());
    }
    *hasher.finalize().as_bytes()
}

/// The references of each chunk of `f`, and those on no chunk's lines, each in file order. A
/// reference belongs to the chunk starting last at or above its line (of those starting there,
/// the longest), if that chunk reaches it.
pub fn refs_by_chunk(f: &FileRecord) -> (Vec<Vec<&Reference>>, Vec<&Reference>) {
    let mut by_start: Vec<(u32, u32, usize)> =
        f.chunks.iter().enumerate().map(|(i, c)| (c.body.line_start, c.body.line_end, i)).collect();
    by_start.sort_unstable();
    let mut chunks = vec![Vec::new(); f.chunks.len()];
    let mut outside = Vec::new();
    for r in &f.refs {
        let after = by_start.partition_point(|&(start, _, _)| start <= r.line);
        match after.checked_sub(1).map(|last| by_start[last]) {
            Some((_, end, i)) if end >= r.line => chunks[i].push(r),
            _ => outside.push(r),
        }
    }
    (chunks, outside)
}

/// `symbols` with lines counted from `line_start` (the chunk's first line), as stored with the
/// text.
pub fn relative_symbols(symbols: &[SymbolRecord], line_start: u32) -> Vec<SymbolRecord> {
    shifted(symbols, |line| line.wrapping_sub(line_start))
}

/// Stored symbols placed at a chunk whose first line is `line_start`.
pub fn place_symbols(symbols: &mut [SymbolRecord], line_start: u32) {
    for s in symbols {
        s.start_line = s.start_line.map(|l| l.wrapping_add(line_start));
        s.end_line = s.end_line.map(|l| l.wrapping_add(line_start));
    }
}

fn shifted(symbols: &[SymbolRecord], by: impl Fn(u32) -> u32) -> Vec<SymbolRecord> {
    symbols
        .iter()
        .map(|s| SymbolRecord { start_line: s.start_line.map(&by), end_line: s.end_line.map(&by), ..s.clone() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{ParseStatus, SymbolKind};
    use crate::store::ChunkBody;

    fn at(line_start: u32, symbol_start: u32) -> ChunkRecord {
        let symbol = SymbolRecord {
            kind: SymbolKind::Function,
            name: "f".into(),
            qualified_name: "f".into(),
            signature: "def f()".into(),
            parent: None,
            start_line: Some(symbol_start),
            end_line: Some(symbol_start + 1),
            params: Vec::new(),
            bases: Vec::new(),
        };
        ChunkRecord {
            body: ChunkBody {
                byte_start: line_start * 10,
                byte_end: line_start * 10 + 20,
                line_start,
                line_end: line_start + 1,
                content: "def f():\n    pass".into(),
                symbol_type: Some(SymbolKind::Function),
                symbol_name: Some("f".into()),
                qualified_name: Some("f".into()),
                signature: Some("def f()".into()),
                symbols: vec![symbol],
                context: String::new(),
                enclosing: None,
                parse_status: ParseStatus::Ok,
            },
            parent: None,
            embed_hash: [7; 16],
            embedding: None,
            keywords: "f pass".into(),
        }
    }

    #[test]
    fn a_moved_chunk_keeps_its_key_and_a_changed_one_does_not() {
        assert_eq!(text_key("python", &at(1, 1), &[]), text_key("python", &at(40, 40), &[]));
        assert_ne!(
            text_key("python", &at(1, 1), &[]),
            text_key("python", &at(1, 2), &[]),
            "the symbol moved inside it"
        );
        assert_ne!(text_key("python", &at(1, 1), &[]), text_key("rust", &at(1, 1), &[]));
        let mut edited = at(1, 1);
        edited.body.content.push('\n');
        assert_ne!(text_key("python", &at(1, 1), &[]), text_key("python", &edited, &[]));
    }

    #[test]
    fn references_belong_to_the_chunk_on_their_line_and_key_it() {
        let call = |line: u32| Reference {
            kind: crate::chunk::RefKind::Call,
            name: "g".into(),
            qualifier: None,
            line,
            caller: Some("f".into()),
        };
        let mut f = crate::store::FileRecord {
            path: "a.py".into(),
            language: "python".into(),
            size: 0,
            mtime_ns: 0,
            hash: [0; 32],
            lines: 50,
            parse_status: None,
            parse_errors: Vec::new(),
            skip_reason: None,
            chunking: None,
            chunks: vec![at(1, 1), at(10, 10)],
            imports: Vec::new(),
            refs: vec![call(2), call(5), call(10), call(11)],
        };
        let (chunks, outside) = refs_by_chunk(&f);
        let lines = |refs: &[&Reference]| refs.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!((lines(&chunks[0]), lines(&chunks[1]), lines(&outside)), (vec![2], vec![10, 11], vec![5]));
        // The same call one line lower in the same chunk is another text.
        let key = text_key("python", &f.chunks[1], &chunks[1]);
        f.refs[2].line = 11;
        let (moved, _) = refs_by_chunk(&f);
        assert_ne!(key, text_key("python", &f.chunks[1], &moved[1]));
        // A chunk and its references moved down together are the same text.
        let lower = at(40, 40);
        let (c40, c41) = (call(40), call(41));
        assert_eq!(key, text_key("python", &lower, &[&c40, &c41]));
    }

    #[test]
    fn relative_lines_round_trip_even_above_the_chunk() {
        let chunk = at(10, 7);
        let mut stored = relative_symbols(&chunk.body.symbols, 10);
        place_symbols(&mut stored, 10);
        assert_eq!(stored, chunk.body.symbols);
        let mut elsewhere = relative_symbols(&chunk.body.symbols, 10);
        place_symbols(&mut elsewhere, 30);
        assert_eq!((elsewhere[0].start_line, elsewhere[0].end_line), (Some(27), Some(28)));
    }
}
