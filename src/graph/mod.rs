//! The code graph engine: answers the structural questions an agent asks before changing
//! code — where is `X` defined, who uses it, what does this file import, what depends on it,
//! how does `A` reach `B`, what is in this file — from what indexing stored (definitions,
//! references, imports resolved to files).
//!
//! Reading order: this file (the [`Graph`] handle, scopes, the records answers are made of,
//! freshness), `names` (finding definitions and hinting at close names), `meaning` (what a
//! reference means: which definition, and how sure), `symbols` (references, dependencies,
//! impact and call chains of symbols), `files` (file dependencies, dependents, outlines,
//! dependency paths), `source` (a definition's text).
//!
//! Architecture invariant: the engine returns plain structs; JSON shapes belong to the
//! presenters (`wire`, `cli`, `mcp`). Every list it returns is capped by the caller's limit
//! and says when it was cut. Files are read only through [`ProjectFiles`].
//! Architecture invariant: an edge is exact only when the language's own rules make it so
//! (see `meaning`); every other edge is heuristic and says so.

mod files;
mod meaning;
mod names;
mod source;
mod symbols;

use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::Path;

pub use files::{
    DepEdge, DepNode, DepsAnswer, FileImpact, FilePath, ImpactedFile, Neighbours, OutlineAnswer, OutlineImport,
};
pub use names::{Resolution, SymbolAnswer, SymbolMatch};
pub use source::{SourceAnswer, SourceKind};
pub use symbols::{
    CHAIN_TIME_LIMIT, CallChain, CallHop, ChainSearch, DependenciesAnswer, Dependency, Impacted, RefHit, RefsAnswer,
    Stop, SymbolImpact,
};

use crate::chunk::{Language, SymbolKind};
use crate::discover::{ProjectFiles, mtime_ns};
use crate::store::glob::PathGlob;
use crate::store::{At, FileState, IndexReader, Store, StoreError, StoredDef};

/// The longest name or path for which the closest indexed ones are looked for. Similarity
/// costs time in the product of two lengths, and no real identifier or path comes near this.
const MAX_SUGGESTED_LEN: usize = 512;

/// How sure an edge is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Certainty {
    /// By the language's rules: the name is defined in the same file or scope, imported from
    /// the definition's file, or reached through an import of it.
    Exact,
    /// By name only, or through a guess: a method called on a value of unknown type, a
    /// module found by a heuristic resolution.
    Heuristic,
}

impl Certainty {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Certainty::Exact => "exact",
            Certainty::Heuristic => "heuristic",
        }
    }

    /// The weaker of two.
    pub fn and(self, other: Certainty) -> Certainty {
        self.max(other)
    }
}

/// A failure of a graph question.
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The store failed (including "no index named X").
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The question cannot be asked this way (a path outside the project, a file and a
    /// symbol mixed in one chain); the message says what to ask instead.
    #[error("{0}")]
    Usage(String),
}

/// Which files answers may name: the usual `--lang` and `--path` filters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    /// Language ids (canonical names); empty means all.
    pub languages: Vec<String>,
    /// A path glob.
    pub path_glob: Option<PathGlob>,
}

impl Scope {
    /// Whether a file of `language` at `path` is in scope.
    pub fn admits(&self, path: &str, language: &str) -> bool {
        (self.languages.is_empty() || self.languages.iter().any(|l| l == language))
            && self.path_glob.as_ref().is_none_or(|g| g.is_match(path))
    }
}

/// A definition as answers show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// File, relative to the project root.
    pub path: String,
    /// Language id.
    pub language: String,
    /// What it defines.
    pub kind: SymbolKind,
    /// Its own name.
    pub name: String,
    /// Its qualified name (`Request.send`, `Lexer::new`).
    pub qualified_name: String,
    /// The declaration without its body.
    pub signature: String,
    /// The enclosing definition's qualified name.
    pub parent: Option<String>,
    /// First line (decorators included), 1-based.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Parameters, for functions and methods.
    pub params: Vec<String>,
    /// Bases and implemented interfaces, for classes and the like.
    pub bases: Vec<String>,
    /// The file changed on disk since it was indexed: lines may have moved.
    pub stale: bool,
}

impl Definition {
    fn from_stored(d: StoredDef) -> Definition {
        let s = d.symbol;
        Definition {
            path: d.path,
            language: d.language,
            kind: s.kind,
            name: s.name,
            qualified_name: s.qualified_name,
            signature: s.signature,
            parent: s.parent,
            start_line: s.start_line.unwrap_or(1),
            end_line: s.end_line.or(s.start_line).unwrap_or(1),
            params: s.params,
            bases: s.bases,
            stale: false,
        }
    }
}

/// The engine over one index.
pub struct Graph {
    /// The index, opened once for every question asked of this engine.
    reader: Box<dyn IndexReader>,
    files: Option<ProjectFiles>,
    /// The indexed files and their recorded states, read once per question.
    states: OnceCell<HashMap<String, FileState>>,
    /// Files found changed on disk, computed once each.
    stale: std::cell::RefCell<HashMap<String, bool>>,
    /// Whether the snapshot read is the tree on disk.
    disk: Disk,
}

/// Whether a graph's files are the ones on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Disk {
    /// The current snapshot: each file is compared with the disk to say whether it is stale.
    Compared,
    /// Another snapshot: its files are not on disk, and none is stale.
    Elsewhere,
}

impl Graph {
    /// The engine over `index`, whose files lie under `root` (a root that is gone only
    /// makes every file stale). Opens the index's reader once.
    pub fn open(store: &dyn Store, index: &str, root: &Path) -> Result<Graph, StoreError> {
        Graph::open_at(store, index, root, At::Current)
    }

    /// [`Graph::open`] at a snapshot. Another snapshot's files are not the ones on disk: none
    /// is compared with the disk (nor read from it), so none counts as stale.
    pub fn open_at(store: &dyn Store, index: &str, root: &Path, at: At) -> Result<Graph, StoreError> {
        let on_disk = at == At::Current;
        Ok(Graph {
            reader: store.reader_at(index, at)?,
            files: if on_disk { ProjectFiles::new(root).ok() } else { None },
            states: OnceCell::new(),
            stale: std::cell::RefCell::new(HashMap::new()),
            disk: if on_disk { Disk::Compared } else { Disk::Elsewhere },
        })
    }

    /// The index's reader.
    pub(crate) fn reader(&self) -> &dyn IndexReader {
        self.reader.as_ref()
    }

    /// The project's files, for reading.
    pub(crate) fn project(&self) -> Option<&ProjectFiles> {
        self.files.as_ref()
    }

    /// Every indexed file with its recorded state.
    pub(crate) fn states(&self) -> Result<&HashMap<String, FileState>, GraphError> {
        if let Some(states) = self.states.get() {
            return Ok(states);
        }
        let states = self.reader.file_states(None)?;
        Ok(self.states.get_or_init(|| states))
    }

    /// Whether `path` changed on disk since it was indexed (size and mtime, then content).
    pub(crate) fn is_stale(&self, path: &str) -> bool {
        if let Some(known) = self.stale.borrow().get(path) {
            return *known;
        }
        let state = self.states().ok().and_then(|s| s.get(path).cloned());
        if self.disk == Disk::Elsewhere {
            return false;
        }
        let stale = match (&self.files, state) {
            (Some(files), Some(state)) => match files.open(path) {
                Ok((mut file, meta)) => {
                    if meta.len() == state.size && mtime_ns(&meta) == state.mtime_ns {
                        false
                    } else {
                        let mut bytes = Vec::new();
                        std::io::Read::read_to_end(&mut file, &mut bytes).is_err()
                            || *blake3::hash(&bytes).as_bytes() != state.hash
                    }
                }
                Err(_) => true,
            },
            _ => true,
        };
        self.stale.borrow_mut().insert(path.to_string(), stale);
        stale
    }

    /// A stored definition, with its freshness.
    pub(crate) fn definition(&self, d: StoredDef) -> Definition {
        let mut def = Definition::from_stored(d);
        def.stale = self.is_stale(&def.path);
        def
    }
}

/// The scope separator of qualified names in `language` (`::` for Rust and C++).
pub(crate) fn separator(language: &str) -> &'static str {
    Language::from_name(language).map_or(".", Language::separator)
}

/// The last part of a qualified name, whatever its separator.
pub(crate) fn last_part(qualified: &str) -> &str {
    qualified.rsplit(['.', ':']).next().unwrap_or(qualified)
}

/// The directory of a path, `""` at the root.
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// A list cut to `limit`, and whether it was cut.
pub(crate) fn cap<T>(mut items: Vec<T>, limit: usize) -> (Vec<T>, bool) {
    let truncated = items.len() > limit;
    items.truncate(limit);
    (items, truncated)
}
