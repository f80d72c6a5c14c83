//! A team's shared index (`shared.url`): opened read-only, compared with the working tree by
//! the index runs (`index::shared`), and read with the local overlay as one index by every
//! request ([`Workspace::overlaid`]). A base that cannot be used is never an error: the run
//! indexes every file locally and a search reads the local index, each with a message saying
//! why and what follows.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, PoisonError};

use super::Workspace;
use crate::config::{DatabaseSettings, Settings};
use crate::embed::Embedder;
use crate::index::shared::SharedBase;
use crate::store::overlay::{self, Base, Ledger, Overlaid, SharedUse, ledger_path};
use crate::store::{IndexMeta, Store, StoreError};

impl Workspace {
    /// The shared base configured for index `index` of the project at `root` with `settings`,
    /// checked to be usable by an index whose vectors come from model `mine` (`None`: keyword
    /// search only): `None` when none is configured; `Err` says why the one configured cannot
    /// be used (unreachable, missing, another model).
    pub(super) fn shared_base(
        &self,
        settings: &Settings,
        index: &str,
        root: &Path,
        mine: Option<&str>,
    ) -> Result<Option<SharedBase>, String> {
        let Some(url) = settings.shared.url.as_deref().filter(|u| !u.trim().is_empty()) else { return Ok(None) };
        let base_index = settings.shared.index.clone().unwrap_or_else(|| index.to_string());
        let place = crate::config::redact_url(url);
        let unusable = |why: String| format!("the shared index {base_index} at {place} cannot be used: {why}");
        let store = self.base_store(url, &settings.database).map_err(|e| match e {
            StoreError::Unreachable { reason, .. } | StoreError::Auth { reason, .. } => format!(
                "the shared index {base_index} at {place} is unreachable ({reason}) — check shared.url (COCOSEARCH_SHARED_URL) and that its server is up"
            ),
            other => unusable(other.to_string()),
        })?;
        let meta = store.get_index(&base_index).map_err(|e| unusable(e.to_string()))?.ok_or_else(|| {
            unusable(format!(
                "the database holds no index named {base_index} — check shared.index (COCOSEARCH_SHARED_INDEX)"
            ))
        })?;
        check_model(&meta, mine).map_err(unusable)?;
        let dir = crate::store::open::embedded_dir(&settings.database).map_err(|e| unusable(e.to_string()))?;
        let ledger = ledger_path(&dir, index, root);
        Ok(Some(SharedBase { store, index: base_index, ledger, context_tokens: meta.context_tokens }))
    }

    /// The shared base of a run of index `name` with `settings` (embedding with `embedder`),
    /// if one is configured; one that cannot be used is left out with a message, and the run
    /// indexes every file here.
    pub(super) fn run_base(
        &self,
        settings: &Settings,
        name: &str,
        root: &std::path::Path,
        embedder: Option<&dyn Embedder>,
    ) -> Option<SharedBase> {
        let model = embedder.map(|e| e.info().model);
        match self.shared_base(settings, name, root, model.as_deref()) {
            Ok(base) => base,
            Err(why) => {
                self.options.notices.tell(&format!(
                    "{why}; indexing every file into the local index instead (a later run with the shared index back leaves the unchanged files to it again)"
                ));
                None
            }
        }
    }

    /// `local` with index `index` (`meta`, the overlay's record) read over the project's shared
    /// base, when one is configured and usable; else `local` itself, after telling why the
    /// base is left out.
    pub(super) fn overlaid(
        &self,
        local: Arc<dyn Store>,
        settings: &Settings,
        meta: &IndexMeta,
        root: &Path,
    ) -> (Arc<dyn Store>, Option<SharedUse>) {
        let index = meta.name.as_str();
        let base = match self.shared_base(settings, index, root, meta.model.as_deref()) {
            Ok(None) => return (local, None),
            Ok(Some(base)) => base,
            Err(why) => {
                self.options.notices.tell(&format!(
                    "{why}; searching the local index alone (only the files that differ from the shared index, unless `cocosearch index` indexed every file while it was away)"
                ));
                return (local, None);
            }
        };
        match view(local.as_ref(), &base, index, root) {
            Ok(view) => {
                let base = Base { store: base.store, index: base.index, view: Arc::new(view) };
                let used = base.used();
                (Arc::new(Overlaid::new(local, index, base)), Some(used))
            }
            Err(e) => {
                self.options
                    .notices
                    .tell(&format!("the shared index cannot be read ({e}); reading the local index alone"));
                (local, None)
            }
        }
    }

    /// The shared store at `url`, opened once per process and kept while it answers.
    fn base_store(&self, url: &str, local: &DatabaseSettings) -> Result<Arc<dyn Store>, StoreError> {
        let mut bases = self.bases.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(store) = bases.get(url) {
            return Ok(Arc::clone(store));
        }
        let settings = DatabaseSettings {
            backend: crate::config::BackendSetting::Postgres,
            url: url.to_string(),
            path: None,
            pool_size: local.pool_size,
            connect_timeout: local.connect_timeout,
            url_origin: crate::config::Origin::Configured,
        };
        let store = overlay::open_base(&settings)?;
        bases.insert(url.to_string(), Arc::clone(&store));
        Ok(store)
    }
}

/// What of the base the working tree at `root` can use, given the ledger of the last run and
/// the files the local index (the overlay) holds.
fn view(local: &dyn Store, base: &SharedBase, index: &str, root: &Path) -> Result<overlay::BaseView, StoreError> {
    let base_files = base.store.reader(&base.index)?.file_states(None)?;
    let overlay_files: HashSet<String> = match local.get_index(index)? {
        Some(_) => local.reader(index)?.file_states(None)?.into_keys().collect(),
        None => HashSet::new(),
    };
    Ok(crate::index::shared::base_view(root, base_files, &Ledger::load(&base.ledger), &overlay_files))
}

/// Fails when the base's vectors cannot be compared with those of model `mine` (`None`:
/// keyword search only, which reads any base).
fn check_model(meta: &IndexMeta, mine: Option<&str>) -> Result<(), String> {
    match (mine, meta.model.as_deref()) {
        (None, _) => Ok(()),
        (Some(mine), Some(theirs)) if theirs == mine => Ok(()),
        (Some(mine), theirs) => Err(format!(
            "it was embedded with {}, this index with {mine} — set embedding.model to the shared index's model",
            theirs.unwrap_or("no model")
        )),
    }
}
