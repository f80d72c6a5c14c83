//! Filters as the user spells them (`--lang ts`, `--path src/api`, `--symbol-type fn`) and
//! their canonical form, which the store applies inside its queries.
//!
//! A new filter is a field here, its check in [`normalize_filter`], and its translation in
//! `store::SearchFilter`: every retriever passes the filter to the store as it is.

use super::SearchError;
use crate::chunk::{Language, SymbolKind};
use crate::store::SearchFilter;
use crate::store::glob::{NameGlob, PathGlob};

/// Filters as the user spells them (`--lang ts`, `--path src/api`, `--symbol-type fn`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterSpec {
    /// Language names or aliases; empty means all.
    pub languages: Vec<String>,
    /// A path glob (see [`PathGlob`] for what it matches).
    pub path_glob: Option<String>,
    /// Symbol kinds; empty means all.
    pub symbol_types: Vec<String>,
    /// A case-insensitive glob on symbol names.
    pub symbol_name_glob: Option<String>,
}

/// Turns user spellings into canonical filter values, or says what is allowed.
pub fn normalize_filter(filter: &FilterSpec) -> Result<SearchFilter, SearchError> {
    let languages = filter
        .languages
        .iter()
        .map(|l| {
            Language::from_name(l.trim())
                .map(|l| l.name().to_string())
                .ok_or_else(|| SearchError::InvalidFilter(Language::unknown(l)))
        })
        .collect::<Result<_, _>>()?;
    let symbol_types = filter
        .symbol_types
        .iter()
        .map(|t| {
            t.trim().parse::<SymbolKind>().map_err(|_| {
                let known: Vec<&str> = SymbolKind::all().iter().map(|k| k.as_str()).collect();
                SearchError::InvalidFilter(format!("unknown symbol type {t:?} — use one of: {}", known.join(", ")))
            })
        })
        .collect::<Result<_, _>>()?;
    let invalid = |e: crate::store::glob::GlobError| SearchError::InvalidFilter(e.to_string());
    Ok(SearchFilter {
        languages,
        symbol_types,
        path_glob: filter.path_glob.as_deref().map(PathGlob::new).transpose().map_err(invalid)?,
        symbol_name_glob: filter.symbol_name_glob.as_deref().map(NameGlob::new).transpose().map_err(invalid)?,
    })
}
