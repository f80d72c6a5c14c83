//! The watchers of a server process: `cocosearch mcp` and `cocosearch dashboard` keep the
//! indexes they serve fresh (unless `indexing.watch: false` or `--no-watch`).
//!
//! A project's index is watched from the first time the server serves it: at startup for the
//! default project, then whenever a request reads or indexes a project's index. Only an index
//! that exists is watched (an agent creates one with `index_codebase`), and only one watcher
//! per index runs across processes (`index::lease`): when `cocosearch watch` or another server
//! already keeps it fresh, this server leaves it to them.

use std::sync::{Arc, PoisonError};

use super::Workspace;
use super::project::Project;
use super::watch::{self, Update, WatchError, WatchTarget, Watching};
use super::watchers::Slot;

impl Workspace {
    /// Starts keeping `index` of `project` fresh on a thread of its own, unless watching is
    /// off, the index does not exist, or it is watched already. Returns at once.
    pub fn keep_fresh(self: &Arc<Self>, project: &Project, index: &str) {
        let settings = &project.config.settings;
        if !settings.indexing.watch {
            return;
        }
        let Ok(store) = self.store(&settings.database) else { return };
        let key = (store.location(), index.to_string());
        {
            let mut slots = self.watchers.slots.lock().unwrap_or_else(PoisonError::into_inner);
            if slots.contains_key(&key) {
                return;
            }
            slots.insert(key.clone(), Slot::Starting);
        }
        let (shared, project, index) = (Arc::clone(self), project.clone(), index.to_string());
        let started = std::thread::Builder::new().name("cocosearch-watch-start".into()).spawn(move || {
            let slot = shared.start_watching(&project, &index).map_or(Slot::Declined, Slot::Running);
            shared.watchers.slots.lock().unwrap_or_else(PoisonError::into_inner).insert(key, slot);
        });
        if started.is_err() {
            tracing::warn!("cannot start a thread to watch an index");
        }
    }

    fn start_watching(self: &Arc<Self>, project: &Project, index: &str) -> Option<Watching> {
        let settings = &project.config.settings;
        let store = self.store(&settings.database).ok()?;
        store.get_index(index).ok()??;
        let settings =
            crate::index::embedding_settings(store.as_ref(), index, settings, crate::index::Fresh::Keep).ok()?;
        let embedder = self.embedder(&settings.embedding);
        let shared = self.run_base(&settings, index, &project.root, embedder.as_deref());
        let target = WatchTarget {
            index: index.to_string(),
            root: project.root.clone(),
            settings,
            store,
            shared,
            embedder,
            process: format!("{} (pid {})", self.options.front.command(), std::process::id()),
        };
        let (shared, name) = (Arc::downgrade(self), index.to_string());
        let report = Arc::new(move |update: Update| {
            if let Update::Indexed { .. } | Update::Started { .. } = update
                && let Some(shared) = shared.upgrade()
            {
                // The next freshness answer measures again instead of repeating the old one.
                shared.forget_freshness(&name);
            }
            match update {
                Update::Failed(message) => tracing::warn!(index = %name, "watcher: {message}"),
                other => tracing::debug!(index = %name, "watcher: {other:?}"),
            }
        });
        match watch::start(target, report) {
            Ok(watching) => {
                tracing::info!(index, root = %project.root.display(), "keeping the index fresh (indexing.watch)");
                Some(watching)
            }
            Err(e @ WatchError::AlreadyWatched { .. }) => {
                tracing::info!("{e}");
                None
            }
            Err(e) => {
                tracing::warn!(index, "cannot watch the index: {e}");
                None
            }
        }
    }

    /// Starts the watchers a server has from the start: `cocosearch mcp` its default project's
    /// index, `cocosearch dashboard` every index whose project is on this machine (and may be
    /// served: the same directory rule as every request).
    pub fn watch_served(self: &Arc<Self>) {
        if !self.options.config.settings.indexing.watch {
            return;
        }
        match self.options.front {
            super::Front::Command => {}
            super::Front::Mcp => {
                if let Some((root, source)) = self.default_project.clone()
                    && let Ok(project) = super::project::resolve(self, &root, source)
                {
                    let index = project.config.index_name();
                    self.keep_fresh(&project, &index);
                }
            }
            super::Front::Dashboard => {
                let Ok(store) = self.default_store() else { return };
                for meta in store.list_indexes().unwrap_or_default() {
                    let Ok(root) = meta.root.canonicalize() else { continue };
                    if let Ok(project) = super::project::resolve(self, &root, super::Source::IndexName) {
                        self.keep_fresh(&project, &meta.name);
                    }
                }
            }
        }
    }

    /// Stops this process's watcher of `index` in the store at `location` (it finishes its
    /// current step), and lets a later request start it again.
    pub fn stop_watching_index(&self, location: &str, index: &str) {
        let slot = self
            .watchers
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(location.to_string(), index.to_string()));
        drop(slot);
    }
}
