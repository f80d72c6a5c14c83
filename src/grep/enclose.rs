//! The definition each match lies in, from the index: the innermost definition recorded at
//! indexing whose lines hold the match. No file is parsed again; a file that changed since it
//! was indexed gets no definition (its lines may have moved) and is marked stale.

use std::collections::HashMap;

use super::FileMatches;
use crate::chunk::SymbolKind;
use crate::store::{DefQuery, IndexReader, StoreError, SymbolRecord};

/// A definition holding a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enclosing {
    /// Its kind.
    pub kind: SymbolKind,
    /// Its name.
    pub name: String,
    /// Its qualified name (`Class.method`).
    pub qualified_name: String,
    /// Its declaration without the body.
    pub signature: String,
    /// First line, 1-based.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
}

/// Fills in [`FileMatches::enclosing`] (one entry per matching line) and
/// [`FileMatches::stale`] for `files`, from one read of the index's file states and
/// definitions.
pub fn enclose(reader: &dyn IndexReader, files: &mut [FileMatches]) -> Result<(), StoreError> {
    if files.is_empty() {
        return Ok(());
    }
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let states = reader.file_states(Some(&paths))?;
    let fresh: Vec<String> = files
        .iter()
        .filter(|f| states.get(&f.path).is_some_and(|s| s.size == f.size && s.mtime_ns == f.mtime_ns))
        .map(|f| f.path.clone())
        .collect();
    let mut by_file: HashMap<String, Vec<SymbolRecord>> = HashMap::new();
    if !fresh.is_empty() {
        let query = DefQuery { paths: fresh, limit: 1_000_000, ..DefQuery::default() };
        for def in reader.definitions(&query)? {
            by_file.entry(def.path).or_default().push(def.symbol);
        }
    }
    for file in files {
        let indexed = states.contains_key(&file.path);
        let Some(defs) = by_file.get(&file.path) else {
            file.stale =
                indexed && !states.get(&file.path).is_some_and(|s| s.size == file.size && s.mtime_ns == file.mtime_ns);
            file.enclosing = Vec::new();
            continue;
        };
        file.enclosing = file.lines.iter().filter(|l| l.is_match()).map(|l| innermost(defs, l.number)).collect();
    }
    Ok(())
}

/// The shortest definition whose lines hold `line`.
fn innermost(defs: &[SymbolRecord], line: u64) -> Option<Enclosing> {
    defs.iter()
        .filter_map(|d| Some((d, d.start_line?, d.end_line?)))
        .filter(|(_, start, end)| u64::from(*start) <= line && line <= u64::from(*end))
        .min_by_key(|(_, start, end)| end - start)
        .map(|(d, start_line, end_line)| Enclosing {
            kind: d.kind,
            name: d.name.clone(),
            qualified_name: d.qualified_name.clone(),
            signature: d.signature.clone(),
            start_line,
            end_line,
        })
}
