//! `cocosearch grep`, `grep_code` and the dashboard's grep mode: the project's files as the
//! index walks them, and the definitions of the project's index when there is one.

use std::ops::ControlFlow;
use std::sync::Arc;

use crate::config::{Config, IndexingSettings};
use crate::discover;
use crate::grep::{self, FileMatches, GrepError, GrepRequest, GrepSummary};
use crate::store::{self, IndexReader, Store};

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
    let opened;
    let store = match store {
        Some(store) => store,
        None => {
            opened = store::open::open_existing(&config.settings.database).ok()??.store;
            &opened
        }
    };
    let meta = store.get_index(&config.index_name()).ok()??;
    let root = config.project_root.canonicalize().unwrap_or_else(|_| config.project_root.clone());
    if meta.root != root && meta.root != config.project_root {
        return None;
    }
    store.reader(&meta.name).ok()
}

/// Greps the project of `config`, handing each matching file (with its definitions when
/// `reader` is given) to `emit` in path order.
pub fn run(
    config: &Config,
    request: &GrepRequest,
    reader: Option<&dyn IndexReader>,
    mut emit: impl FnMut(FileMatches) -> ControlFlow<()>,
) -> Result<GrepSummary, GrepError> {
    let options = walk_options(&config.project_root, &config.settings.indexing);
    let Some(reader) = reader.filter(|_| request.report == grep::Report::Lines) else {
        return grep::grep(&options, request, emit);
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
    let mut summary = grep::grep(&options, request, |file| {
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
