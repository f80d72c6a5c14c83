//! The vocabulary every front end names code with: the languages cocosearch knows (detected,
//! listed, given to `--lang`) and the kinds of definition (`--symbol-type`, `--kind`).

pub use crate::chunk::{Language, SymbolKind};
