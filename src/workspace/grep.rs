//! `cocosearch grep`, `grep_code` and the dashboard's grep mode: the project's files as the
//! index walks them, and the definitions of the project's index when there is one.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::Front;
use super::snapshots::{self, AtError};
use crate::config::{Config, IndexingSettings};
use crate::discover;
use crate::grep::{self, FileMatches, GrepError, GrepRequest, GrepSummary};
use crate::store::{self, IndexReader, Store, StoreError};

/// Whether matches are given the definitions they lie in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Definitions {
    /// From the project's index, when it exists and was built for this root.
    FromIndex,
    /// Not looked up (no store is opened).
    Skip,
}

/// Files handed to the index together: one read of states and definitions per batch.
const ENCLOSE_BATCH: usize = 32;

/// The walk options of the index, for `root`.
pub fn walk_options(root: &std::path::Path, indexing: &IndexingSettings) -> discover::Options {
    discover::Options {
        root: root.to_path_buf(),
        respect_gitignore: indexing.respect_gitignore,
        include: indexing.include_patterns.clone(),
        exclude: indexing.exclude_patterns.clone(),
        include_sensitive: indexing.include_sensitive.clone(),
        max_file_size: indexing.max_file_size,
    }
}

/// The reader of the project's own index, when a store and that index exist and the index
/// was built for this project root. Never creates a store; a store that fails is `None` (grep
/// needs no index).
pub fn project_index(config: &Config, store: Option<&Arc<dyn Store>>) -> Option<Box<dyn IndexReader>> {
    let store = existing_store(config, store).ok()??;
    let meta = store.get_index(&config.index_name()).ok()??;
    let root = config.project_root.canonicalize().unwrap_or_else(|_| config.project_root.clone());
    if meta.root != root && meta.root != config.project_root {
        return None;
    }
    store.reader(&meta.name).ok()
}

/// Where a grep reads the files it searches.
#[derive(Clone, Copy)]
pub enum Files<'r> {
    /// The project's files on disk; the definitions each match lies in come from the
    /// project's index, when its reader is given.
    OnDisk(Option<&'r dyn IndexReader>),
    /// The files a snapshot stored (`--at`), with the definitions it recorded.
    AtSnapshot(&'r dyn IndexReader),
}

/// The reader of the snapshot `reference` names in the project's index (`grep --at`). No store
/// or no index is [`StoreError::IndexNotFound`]; a reference naming nothing lists the
/// snapshots there are.
pub fn snapshot_index(
    config: &Config,
    store: Option<&Arc<dyn Store>>,
    reference: &str,
) -> Result<Box<dyn IndexReader>, AtError> {
    let name = config.index_name();
    let store = existing_store(config, store)?.ok_or_else(|| StoreError::IndexNotFound(name.clone()))?;
    let (at, _) = snapshots::resolve(store.as_ref(), &name, &config.project_root, Some(reference))?;
    Ok(store.reader_at(&name, at)?)
}

/// `store`, or the store `config` names when it exists (none is ever created here).
fn existing_store(config: &Config, store: Option<&Arc<dyn Store>>) -> Result<Option<Arc<dyn Store>>, StoreError> {
    match store {
        Some(store) => Ok(Some(Arc::clone(store))),
        None => Ok(store::open::open_existing(&config.settings.database)?.map(|opened| opened.store)),
    }
}

/// Greps the project of `config` (its files as `files` says), handing each matching file (with
/// its definitions when there is an index to read them from) to `emit` in path order.
pub fn run(
    config: &Config,
    request: &GrepRequest,
    files: Files<'_>,
    mut emit: impl FnMut(FileMatches) -> ControlFlow<()>,
) -> Result<GrepSummary, GrepError> {
    let options = walk_options(&config.project_root, &config.settings.indexing);
    let search = |emit: &mut dyn FnMut(FileMatches) -> ControlFlow<()>| match files {
        Files::OnDisk(_) => grep::grep(&options, request, emit),
        Files::AtSnapshot(reader) => grep::grep_stored(reader, &config.project_root, request, emit),
    };
    let reader = match files {
        Files::OnDisk(reader) => reader,
        Files::AtSnapshot(reader) => Some(reader),
    };
    let Some(reader) = reader.filter(|_| request.report == grep::Report::Lines) else {
        return search(&mut emit);
    };
    let mut pending: Vec<FileMatches> = Vec::new();
    let mut stopped = false;
    let flush = |pending: &mut Vec<FileMatches>, emit: &mut dyn FnMut(FileMatches) -> ControlFlow<()>| {
        if let Err(e) = grep::enclose(reader, pending) {
            tracing::warn!(error = %e, "cannot read definitions from the index");
        }
        for file in pending.drain(..) {
            if emit(file).is_break() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    };
    let mut summary = search(&mut |file| {
        pending.push(file);
        if pending.len() >= ENCLOSE_BATCH {
            let flow = flush(&mut pending, &mut emit);
            stopped = flow.is_break();
            return flow;
        }
        ControlFlow::Continue(())
    })?;
    if !stopped && flush(&mut pending, &mut emit).is_break() {
        summary.cut = true;
    }
    Ok(summary)
}

/// The files a grep of `request` searches, in path order (`cocosearch grep --files`).
pub fn files(config: &Config, request: &GrepRequest, files: Files<'_>) -> Result<Vec<String>, GrepError> {
    match files {
        Files::OnDisk(_) => {
            let options = walk_options(&config.project_root, &config.settings.indexing);
            Ok(grep::files(&options, request)?.0)
        }
        Files::AtSnapshot(reader) => grep::stored_paths(reader, &config.project_root, request),
    }
}

/// For a query shaped like an identifier (`getUserById`, `Session.send`, `std::fs`) that a
/// search hit holds literally: where every occurrence is listed, since search shows only the
/// best few, phrased for `front`.
pub fn hint(query: &str, hits: &[crate::search::Hit], front: Front) -> Option<String> {
    let query = query.trim();
    let identifier = |part: &str| {
        part.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let shaped = !query.is_empty()
        && query.len() <= 200
        && query.split(['.', ':']).filter(|p| !p.is_empty()).all(identifier)
        && identifier(query.split(['.', ':']).next().unwrap_or(""));
    if !shaped || !hits.iter().any(|h| h.content.contains(query)) {
        return None;
    }
    let dotted = !query.chars().all(|c| c.is_alphanumeric() || c == '_');
    Some(match (front, dotted) {
        (Front::Command, false) => format!("for every occurrence: `cocosearch grep -w {query}`"),
        (Front::Command, true) => format!("for every occurrence: `cocosearch grep -F '{query}'`"),
        (Front::Mcp, _) => format!(
            "for every occurrence of {query}, call grep_code with pattern {query:?} and fixed_strings true{}",
            if dotted { "" } else { ", word true" }
        ),
        (Front::Dashboard, _) => format!("for every occurrence of {query}: the search box's grep mode"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_queries_found_literally_get_the_hint() {
        let hit = |content: &str| crate::search::Hit {
            index: "i".into(),
            root: "/p".into(),
            path: "a.py".into(),
            start_line: 1,
            end_line: 1,
            language: "python".into(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols: Vec::new(),
            enclosing: None,
            score: 1.0,
            vector_score: None,
            keyword_score: None,
            parse_status: crate::chunk::ParseStatus::Ok,
            content: content.into(),
            before: Vec::new(),
            after: Vec::new(),
            stale: false,
        };
        let hits = [hit("x = getUserById(1)\ny = Session.send()")];
        assert_eq!(
            hint("getUserById", &hits, Front::Command).as_deref(),
            Some("for every occurrence: `cocosearch grep -w getUserById`")
        );
        assert!(hint("Session.send", &hits, Front::Command).is_some_and(|h| h.contains("-F 'Session.send'")));
        assert!(hint("Session.send", &hits, Front::Mcp).is_some_and(|h| h.contains("grep_code")));
        assert_eq!(hint("how do we send", &hits, Front::Command), None);
        assert_eq!(hint("missingName", &hits, Front::Command), None);
        assert_eq!(hint("1abc", &hits, Front::Command), None);
    }
}
