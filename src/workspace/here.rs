//! The command line's own runs in the project it was started in: `cocosearch index` in the
//! foreground, with the progress and the Ctrl-C flag the command draws and sets, and `cocosearch
//! watch`. The store, the index's embedding settings (the rule of `embedding.provider: auto`
//! applied to the index's record) and the embedder are chosen here, as for a server's jobs.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub use super::watch::{Update, Watching};
pub use crate::index::lease::Following;
pub use crate::index::snapshot::check_name as check_snapshot_name;

use super::watch::{self, WatchTarget};
use super::{Error, Workspace};
use crate::config::Settings;
use crate::embed::Embedder;
use crate::index::{self, Fresh, IndexError, IndexRequest, Progress, Summary};
use crate::store::Store;

/// Whether a run computes vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vectors {
    /// With the embedder the index records or the configuration chooses.
    Computed,
    /// Not now (`--no-embed`): the chunks wait for a later run.
    Deferred,
}

/// A foreground index run of the startup project.
pub struct HereRun {
    /// Whether the index is rebuilt from nothing.
    pub fresh: Fresh,
    /// Whether vectors are computed.
    pub vectors: Vectors,
    /// The snapshot written (`--snapshot NAME`), else the branch's.
    pub snapshot: Option<String>,
    /// The live counters the command draws.
    pub progress: Arc<Progress>,
    /// Set to stop after the current batch (Ctrl-C).
    pub cancel: Arc<AtomicBool>,
}

impl Workspace {
    /// Indexes the startup project as its index, in this thread.
    pub fn index_here(&self, run: HereRun) -> Result<Summary, Error> {
        if let Some(name) = &run.snapshot {
            check_snapshot_name(name).map_err(|e| Error::usage(e.to_string()))?;
        }
        // Before the store is opened: a directory that is not there creates no store either.
        crate::discover::check_root(&self.options.config.project_root).map_err(|e| Error::new(e.to_string()))?;
        let RunParts { store, name, settings, embedder } = self.run_parts(run.fresh, run.vectors)?;
        let root = &self.options.config.project_root;
        let shared = self.run_base(&settings, &name, root, embedder.as_deref());
        let request = IndexRequest {
            name,
            root: self.options.config.project_root.clone(),
            settings: &settings,
            fresh: run.fresh == Fresh::Rebuild,
            embedder: embedder.as_deref(),
            progress: run.progress,
            cancel: run.cancel,
            scope: index::Scope::FullWalk,
            vectors: index::VectorPhase::InRun,
            snapshot: run.snapshot,
            shared,
        };
        index::run(store.as_ref(), &request).map_err(index_error)
    }

    /// Whether a run of the startup project asking for `vectors` computes them: not when
    /// asked not to, nor when embeddings are off.
    pub fn vectors_here(&self, vectors: Vectors) -> Result<Vectors, Error> {
        let parts = self.run_parts(Fresh::Keep, vectors)?;
        Ok(if parts.embedder.is_some() { Vectors::Computed } else { Vectors::Deferred })
    }

    /// Watches the startup project, reporting each update to `report`, until the returned
    /// watcher is dropped.
    pub fn watch_here(&self, vectors: Vectors, report: Arc<dyn Fn(Update) + Send + Sync>) -> Result<Watching, Error> {
        let RunParts { store, name, settings, embedder } = self.run_parts(Fresh::Keep, vectors)?;
        let shared = self.run_base(&settings, &name, &self.options.config.project_root, embedder.as_deref());
        let target = WatchTarget {
            index: name,
            root: self.options.config.project_root.clone(),
            settings,
            store,
            shared,
            embedder,
            process: format!("cocosearch watch (pid {})", std::process::id()),
        };
        watch::start(target, report).map_err(|e| Error::new(e.to_string()))
    }

    /// What a run of the startup project works with.
    fn run_parts(&self, fresh: Fresh, vectors: Vectors) -> Result<RunParts, Error> {
        let config = &self.options.config;
        let store = self.store(&config.settings.database)?;
        let name = config.index_name();
        let settings = index::embedding_settings(store.as_ref(), &name, &config.settings, fresh)?;
        let embedder = match vectors {
            Vectors::Computed => self.embedder(&settings.embedding),
            Vectors::Deferred => None,
        };
        Ok(RunParts { store, name, settings, embedder })
    }
}

/// The store, index name, run settings and embedder of a run of the startup project.
struct RunParts {
    store: Arc<dyn Store>,
    name: String,
    settings: Settings,
    embedder: Option<Arc<dyn Embedder>>,
}

/// An index run's failure as every presenter reports it.
fn index_error(e: IndexError) -> Error {
    match e {
        IndexError::Store(e) => e.into(),
        other => Error::new(other.to_string()),
    }
}
