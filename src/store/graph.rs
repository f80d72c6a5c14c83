//! The code graph's records: what indexing writes beside a file's chunks (its imports, with
//! where each resolves, and its references), what the graph engine reads back (definitions,
//! references, imports), and the plain queries that select them.
//!
//! Definitions are not written separately: a store keeps one row per [`SymbolRecord`] of a
//! file's chunks, so the graph and search can never disagree about what a file defines.

use serde::{Deserialize, Serialize};

use super::glob::PathGlob;
use super::unreadable::{stored_line, stored_name, unreadable_column};
use super::{StoreError, SymbolRecord};
pub use crate::chunk::Resolution;
use crate::chunk::{ImportKind, Reference, SymbolKind};

/// An import of a file, as indexing writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRecord {
    /// What kind of import.
    pub kind: ImportKind,
    /// The module, path or image as written.
    pub spec: String,
    /// The name imported from it, if the statement names one (`*` for a wildcard).
    pub name: Option<String>,
    /// The local name, if renamed.
    pub alias: Option<String>,
    /// 1-based line.
    pub line: u32,
    /// The project file it resolves to, or the directory (ending in `/`) of a package that
    /// several files make up (a Go package, a Java wildcard import, a Terraform module);
    /// `None` when unresolved.
    pub target: Option<String>,
    /// How `target` was found, or why there is none.
    pub resolution: Resolution,
}

/// A definition as the graph reads it: a symbol of a chunk, with its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDef {
    /// File path relative to the root.
    pub path: String,
    /// Language id of the file.
    pub language: String,
    /// The definition, with its lines, parameters and bases.
    pub symbol: SymbolRecord,
}

/// A reference as the graph reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRef {
    /// File path relative to the root.
    pub path: String,
    /// Language id of the file.
    pub language: String,
    /// The reference.
    pub reference: Reference,
}

/// An import as the graph reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredImport {
    /// Its id, for [`ImportTarget`] updates; ids are never reused.
    pub id: i64,
    /// The importing file.
    pub path: String,
    /// Language id of the importing file.
    pub language: String,
    /// The import and its resolution.
    pub import: ImportRecord,
}

/// A new resolution for a stored import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportTarget {
    /// The import's id.
    pub id: i64,
    /// The file or package directory it now resolves to.
    pub target: Option<String>,
    /// How.
    pub resolution: Resolution,
}

/// Which definitions to read. Every condition given must hold; an empty query selects all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DefQuery {
    /// Lowercase names: a definition matches when its name or its qualified name (with `::`
    /// written `.`) is one of them.
    pub names: Vec<String>,
    /// A lowercase text the qualified name (with `::` written `.`) contains, matched
    /// literally: no character is special.
    pub contains: Option<String>,
    /// Only definitions in these files.
    pub paths: Vec<String>,
    /// Only these kinds; empty means all.
    pub kinds: Vec<SymbolKind>,
    /// Only files of these languages (canonical names); empty means all.
    pub languages: Vec<String>,
    /// Only files matching this glob.
    pub path_glob: Option<PathGlob>,
    /// At most this many, in order of path and line.
    pub limit: usize,
}

/// Which references to read. Every condition given must hold; at least one of `names` and
/// `callers` must be given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefQuery {
    /// Only references using one of these names (exact, case-sensitive).
    pub names: Vec<String>,
    /// Only references made inside these definitions: (file, caller's qualified name).
    pub callers: Vec<(String, String)>,
    /// Only files of these languages; empty means all.
    pub languages: Vec<String>,
    /// Only files matching this glob.
    pub path_glob: Option<PathGlob>,
    /// At most this many, in order of path and line.
    pub limit: usize,
}

/// Which imports to read: those of some files, those resolving to some targets, or all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportQuery {
    /// Only imports made by these files.
    pub from: Option<Vec<String>>,
    /// Only imports resolving to these files or package directories.
    pub targets: Option<Vec<String>>,
}

/// A stored definition's columns as either backend reads them, before its kind, lines,
/// parameters and bases (text and numbers there) are decoded.
pub(crate) struct DefColumns {
    pub path: String,
    pub language: String,
    pub kind: String,
    pub name: String,
    pub qualified_name: String,
    pub signature: String,
    pub parent: Option<String>,
    /// The first and last line.
    pub lines: (i64, i64),
    /// The JSON list of parameter names.
    pub params: String,
    /// The JSON list of base names.
    pub bases: String,
}

impl DefColumns {
    /// The definition of index `index`; a column this build cannot read is an error naming
    /// the definition and its file, never another kind, no lines, or no parameters or bases.
    pub(crate) fn decode(self, index: &str) -> Result<StoredDef, StoreError> {
        let what = || format!("the definition of {} in {}", self.qualified_name, self.path);
        let list = |which: &str, json: &str| -> Result<Vec<String>, StoreError> {
            serde_json::from_str(json).map_err(|e| unreadable_column(index, format!("the {which} of {}", what()), &e))
        };
        let symbol = SymbolRecord {
            kind: stored_name(index, &self.kind, what)?,
            start_line: Some(stored_line(index, self.lines.0, what)?),
            end_line: Some(stored_line(index, self.lines.1, what)?),
            params: list("parameters", &self.params)?,
            bases: list("bases", &self.bases)?,
            name: self.name,
            qualified_name: self.qualified_name,
            signature: self.signature,
            parent: self.parent,
        };
        Ok(StoredDef { path: self.path, language: self.language, symbol })
    }
}

/// The lowercase key under which a qualified name is looked up: `Foo::bar` and `Foo.bar`
/// are the same key, `foo.bar`.
pub fn qualified_key(qualified: &str) -> String {
    qualified.to_lowercase().replace("::", ".")
}
