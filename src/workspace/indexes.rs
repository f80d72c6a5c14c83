//! What the presenters do to indexes: start a background index job, delete an index under its
//! write lock, and every index's statistics.
//!
//! A job's store and embedder are chosen here, once, and handed to the job as values: the
//! store from the project's database settings, the embedder by the rule of
//! `embedding.provider: auto` applied to the index's record ([`crate::index::embedding_settings`]).
//!
//! Every function here blocks (store, file system): call it from a blocking thread.

use std::sync::Arc;

pub use crate::index::{Fresh, Phase, Progress, Summary, human_duration};
pub use crate::store::{IndexMeta, RunRecord, RunStatus};

use super::jobs::{Job, Work};
use super::project::Project;
use super::{Error, Workspace};
use crate::config::{Config, Request};
use crate::stats::{self, IndexStats, StatsOptions};
use crate::store::{Store, StoreError};

/// What an index job does.
pub struct JobSpec {
    /// The index written.
    pub index: String,
    /// Whether the index is rebuilt from nothing.
    pub fresh: crate::index::Fresh,
}

/// Starts (or finds) the job indexing `project` as `spec.index`: an index built for another
/// directory is refused unless rebuilt fresh, and the write lock is taken before the job
/// exists. Returns the job and whether it was started now.
pub fn start_job(shared: &Arc<Workspace>, project: &Project, spec: JobSpec) -> Result<(Arc<Job>, bool), Error> {
    let JobSpec { index: name, fresh } = spec;
    let rebuild = fresh == crate::index::Fresh::Rebuild;
    let store = shared.store(&project.config.settings.database)?;
    if let Some(meta) = store.get_index(&name)?
        && meta.root != project.root
        && meta.root.canonicalize().ok().as_ref() != Some(&project.root)
        && !rebuild
    {
        return Err(Error::new(format!(
            "index {name} already belongs to {}, not {} — pass another index_name for this directory, or fresh=true to re-point it",
            meta.root.display(),
            project.root.display()
        )));
    }
    let settings = crate::index::embedding_settings(store.as_ref(), &name, &project.config.settings, fresh)?;
    let embedder = shared.embedder(&settings.embedding);
    let work = Work {
        shared: shared.run_base(&settings, &name, &project.root, embedder.as_deref()),
        index: name,
        root: project.root.clone(),
        settings,
        fresh: rebuild,
        store: store as Arc<dyn Store>,
        embedder,
    };
    let (shared_after, project_after) = (Arc::clone(shared), project.clone());
    shared.jobs.start(work, move |index| {
        shared_after.forget_freshness(index);
        // An index an agent just built is kept fresh from now on (indexing.watch).
        shared_after.keep_fresh(&project_after, index);
    })
}

/// Deletes the index `name` (a valid name) under its write lock: refused while a job of this
/// process or a run of another process writes it.
pub fn delete_index(shared: &Workspace, name: &str) -> Result<(), Error> {
    if let Some(job) = shared.jobs.latest(name).filter(|j| j.is_running()) {
        return Err(Error::of_kind(
            super::ErrorKind::Busy,
            format!(
                "index {name} is being indexed by {} — wait for it (index_status) before deleting the index",
                job.id
            ),
        ));
    }
    let store = shared.default_store()?;
    // A watcher of this process would build it again at the next change.
    shared.stop_watching_index(&store.location(), name);
    // Under the index's write lock: a run of another process writing it is not cut short (a
    // watcher's short steps are waited for).
    let writer = crate::store::writer_when_free(
        store.as_ref(),
        name,
        crate::store::Patience::Within(std::time::Duration::from_secs(5)),
        &mut || {},
    )?;
    if !writer.drop_index()? {
        return Err(shared.no_index(name, None));
    }
    shared.forget_freshness(name);
    Ok(())
}

/// Every index's statistics, as `cocosearch stats --json --all` prints them (`staleness_days`
/// and `failing_files` as [`super::Target::stats`] takes them).
pub fn all_stats(shared: &Workspace, staleness_days: u64, failing_files: usize) -> Result<Vec<IndexStats>, Error> {
    let store = shared.default_store()?;
    let mut all = Vec::new();
    for meta in store.list_indexes()? {
        match stats_of_meta(shared, store.as_ref(), &meta, staleness_days, failing_files) {
            Ok(s) => all.push(s),
            // Deleted between the listing and now.
            Err(e) if e.kind == super::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(all)
}

/// One index's statistics, listed or not servable alike: an index whose root this process
/// may not read (built from the command line of a home or system directory) has the counts of
/// the store, without a walk of its tree.
pub fn index_stats(shared: &Workspace, name: &str, failing_files: usize) -> Result<IndexStats, Error> {
    let store = shared.default_store()?;
    let meta = store.get_index(name)?.ok_or_else(|| shared.no_index(name, None))?;
    stats_of_meta(shared, store.as_ref(), &meta, 7, failing_files)
}

/// The latest runs of index `name`, newest first.
pub fn runs(shared: &Workspace, name: &str, limit: usize) -> Result<Vec<RunRecord>, Error> {
    Ok(shared.default_store()?.reader(name)?.runs(limit)?)
}

/// One index's statistics, collected with the indexing settings of its own project, so the
/// freshness scan walks the tree the way `cocosearch index` there would.
fn stats_of_meta(
    shared: &Workspace,
    store: &dyn Store,
    meta: &crate::store::IndexMeta,
    staleness_days: u64,
    failing_files: usize,
) -> Result<IndexStats, Error> {
    // The tree of an index the project rule refuses is neither walked nor searched for a
    // configuration: its counts come from the database.
    let scan = shared.dir_rule.check(&meta.root).is_ok();
    let options = StatsOptions { staleness_days, failing_files, scan, at: crate::store::At::Current };
    let base = &shared.options.config;
    let indexing = if meta.root == base.project_root || !scan {
        base.settings.indexing.clone()
    } else {
        Config::resolve(&Request { config_file: None, cwd: &meta.root, overrides: &[], env: &shared.options.env })
            .map(|c| c.settings.indexing)
            .unwrap_or_else(|_| base.settings.indexing.clone())
    };
    stats::collect_cached(store, &meta.name, &indexing, options, &shared.counts).map_err(|e| match e {
        stats::StatsError::Store(StoreError::IndexNotFound(_)) => shared.no_index(&meta.name, None),
        stats::StatsError::Store(other) => other.into(),
    })
}

/// Every index of the store of the startup configuration, by name.
pub fn list(shared: &Workspace) -> Result<Vec<IndexMeta>, Error> {
    Ok(shared.default_store()?.list_indexes()?)
}

/// Whether deleting an index deletes its project's tasks too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tasks {
    /// Keep them (they are the project's, not the index's).
    Keep,
    /// Delete them with the index.
    Delete,
}

/// What [`clear`] did.
#[derive(Debug, Default)]
pub struct Cleared {
    /// The indexes deleted.
    pub deleted: Vec<String>,
    /// The indexes left alone because another run was writing them.
    pub busy: Vec<String>,
    /// The tasks deleted with them.
    pub tasks_deleted: u64,
}

/// Deletes the indexes `names` of the store of the startup configuration, each under its write
/// lock, so a run writing one is never cut short: that index is left alone and reported busy.
/// One at a time, because each held lock keeps a pooled connection.
pub fn clear(shared: &Workspace, names: &[String], tasks: Tasks) -> Result<Cleared, Error> {
    let store = shared.default_store()?;
    let mut cleared = Cleared::default();
    for name in names {
        let writer = match store.writer(name) {
            Ok(writer) => writer,
            Err(StoreError::Busy(_)) => {
                cleared.busy.push(name.clone());
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if writer.drop_index()? {
            shared.forget_freshness(name);
            cleared.deleted.push(name.clone());
        }
    }
    if tasks == Tasks::Delete {
        for name in &cleared.deleted {
            cleared.tasks_deleted += store.tasks(name)?.delete_all()?;
        }
    }
    Ok(cleared)
}

/// Replaces the damaged embedded store of the startup configuration with an empty one; returns
/// its file.
pub fn recreate_damaged(shared: &Workspace) -> Result<std::path::PathBuf, Error> {
    Ok(crate::store::open::recreate_damaged(&shared.options.config.settings.database)?)
}
