//! Opening what a request reads, once for every presenter: [`Workspace::open`] takes who asks
//! ([`Caller`]) and which index they name ([`IndexRef`]), and returns the [`Target`] — the
//! project whose configuration applies, its store, the index, and the snapshot read — after
//! the one name check, the one project detection, the one root check, the one index lookup
//! (with one not-found error) and the one snapshot resolution.
//!
//! The [`Target`]'s methods (search, grep, the code graph, stats, snapshots, tasks) are what
//! `cli`, `mcp` and `web` call; none of them opens an index or resolves a snapshot itself.
//!
//! Which project an index is read with: the caller's own project when the request names no
//! index or names the project's own; otherwise the named index's project (its recorded root,
//! with that directory's configuration), so `--index other` reads `other` as a command run in
//! its project would.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::project::{self, Hints, Project};
use super::state::Source;
use super::{Error, ErrorKind, Front, Workspace};
use crate::config::validate_index_name;
use crate::stats::{self, IndexStats, StatsError, StatsOptions};
use crate::store::overlay::SharedUse;
use crate::store::{At, IndexMeta, RunRecord, SnapshotRecord, Store, StoreError};
use crate::tasks::Tasks;

/// Which index a request names: declared once, flattened into the inputs of every front end
/// that reads an index (with [`IndexRef`]) or a project (tasks, a definition's source).
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct IndexName {
    /// Read this index instead of the project's own (`cocosearch list` shows them).
    #[arg(short = 'n', long = "index", value_name = "NAME")]
    #[serde(default)]
    pub index_name: Option<String>,
}

/// Which index a request reads, and at which snapshot: declared once, flattened into the
/// command line's flags, the MCP tools' arguments and the dashboard's query strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct IndexRef {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub name: IndexName,
    /// Read a snapshot instead of the working tree: a snapshot's name, or a branch, tag or
    /// commit that was indexed (`cocosearch snapshots` lists them).
    #[arg(long, value_name = "REF")]
    #[serde(default)]
    pub at: Option<String>,
}

impl IndexName {
    /// The index named, trimmed; `None` when none (or only blanks) was given.
    pub fn name(&self) -> Option<&str> {
        self.index_name.as_deref().map(str::trim).filter(|n| !n.is_empty())
    }
}

impl IndexRef {
    /// The index named, trimmed; `None` when none (or only blanks) was given.
    pub fn name(&self) -> Option<&str> {
        self.name.name()
    }

    /// The snapshot named, trimmed; `None` reads the working tree's.
    pub fn reference(&self) -> Option<&str> {
        self.at.as_deref().map(str::trim).filter(|r| !r.is_empty())
    }

    /// A reference to the index `name`, at its working tree.
    pub fn named(name: impl Into<String>) -> IndexRef {
        IndexRef { name: IndexName { index_name: Some(name.into()) }, at: None }
    }
}

impl From<IndexName> for IndexRef {
    fn from(name: IndexName) -> Self {
        IndexRef { name, at: None }
    }
}

/// Who asks: how the project of a request is found when it names no index.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// The command line: the project it was started in.
    Command,
    /// An MCP call, with what its transport and client said about where it comes from.
    Client(&'a Hints),
    /// The dashboard: every request names its index.
    Browser,
}

/// Whether the request needs the index to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// It reads the index: a missing one is the not-found error.
    Index,
    /// It reads the project (grep, tasks): the index is used when it exists.
    Project,
}

/// Whether statistics measure freshness by walking the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// Walk it (a tree this process may read).
    Tree,
    /// Count from the store alone.
    StoreOnly,
}

/// What a request reads, opened by [`Workspace::open`].
pub struct Target {
    /// The process state the target's methods use (embedders, caches, jobs).
    pub workspace: Arc<Workspace>,
    /// The project whose configuration applies.
    pub project: Project,
    /// The store holding the index.
    pub store: Arc<dyn Store>,
    /// The index read.
    pub index: String,
    /// The index's record; `None` when it does not exist (only with [`Need::Project`]).
    pub meta: Option<IndexMeta>,
    /// The snapshot read.
    pub at: At,
    /// The snapshot a reference named (`None`: the working tree's).
    pub snapshot: Option<SnapshotRecord>,
    /// The team's shared index read with it (`shared.url`), when one is.
    pub shared: Option<SharedUse>,
}

impl Workspace {
    /// Opens what `caller` asks for with `index`: see the module's documentation. Blocking.
    pub fn open(self: &Arc<Self>, caller: Caller<'_>, index: &IndexRef, need: Need) -> Result<Target, Error> {
        if let Some(name) = index.name.index_name.as_deref() {
            self.check_index_name(name)?;
        }
        let (project, name) = self.project_and_index(caller, index.name(), need)?;
        let store = self.store(&project.config.settings.database)?;
        let meta = store.get_index(&name)?;
        match &meta {
            Some(meta) => self.servable(&name, &meta.root)?,
            None if need == Need::Index => return Err(self.no_index(&name, Some(&project.root))),
            None => {}
        }
        let (at, snapshot) = match &meta {
            Some(_) => super::snapshots::resolve(store.as_ref(), &name, &project.root, index.reference())?,
            None if index.reference().is_some() => return Err(self.no_index(&name, Some(&project.root))),
            None => (At::Current, None),
        };
        if meta.is_some() && self.options.front != Front::Command {
            // From its first request on, a project's index follows its files (indexing.watch).
            self.keep_fresh(&project, &name);
        }
        // The working tree's index over a team's shared one (`shared.url`) reads both as one.
        let (store, shared) = match (&meta, at) {
            (Some(meta), At::Current) => self.overlaid(store, &project.config.settings, meta, &project.root),
            _ => (store, None),
        };
        Ok(Target { workspace: Arc::clone(self), project, store, index: name, meta, at, snapshot, shared })
    }

    /// `name` when it is a valid index name; the refusal names the option as this front end
    /// spells it.
    pub fn check_index_name<'n>(&self, name: &'n str) -> Result<&'n str, Error> {
        let name = name.trim();
        validate_index_name(name).map_err(|m| {
            Error::usage(format!("{}: {m}", super::inputs::spelled::<IndexName>(self.options.front, "index_name")))
        })?;
        Ok(name)
    }

    /// The project and the index a request is about. An index named that does not exist is
    /// read, when the request needs only a project, in the caller's own project.
    pub(super) fn project_and_index(
        &self,
        caller: Caller<'_>,
        named: Option<&str>,
        need: Need,
    ) -> Result<(Project, String), Error> {
        // An index the command line names is one the user typed: a missing one is an error
        // (with the name it was probably meant to be), never silently the project's own.
        let typed = matches!(caller, Caller::Command);
        let own = match caller {
            Caller::Command => self.startup_project(),
            Caller::Client(hints) => match named {
                // An explicit index needs no project of the client's.
                Some(_) => project::detect(self, hints).ok(),
                None => Some(project::detect(self, hints)?),
            },
            Caller::Browser => None,
        };
        match (named, own) {
            (Some(name), Some(own)) if own.config.index_name() == name => Ok((own, name.to_string())),
            (Some(name), own) => match (self.index_project(name), own) {
                (Err(e), Some(own)) if e.kind == ErrorKind::NotFound && need == Need::Project && !typed => {
                    Ok((own, name.to_string()))
                }
                (project, _) => Ok((project?, name.to_string())),
            },
            (None, Some(own)) => {
                let name = own.config.index_name();
                Ok((own, name))
            }
            (None, None) => Err(Error::usage("name the index: ?index=NAME (GET /api/indexes lists them)")),
        }
    }

    /// The project of the command line's working directory, as resolved at startup.
    fn startup_project(&self) -> Option<Project> {
        let config = self.options.config.clone();
        Some(Project { root: config.project_root.clone(), source: Source::Cwd, config })
    }

    /// The project of an existing index: its recorded root, with that project's
    /// configuration. An index whose directory is gone or whose configuration is broken is
    /// read with the startup configuration.
    pub fn index_project(&self, name: &str) -> Result<Project, Error> {
        let store = self.default_store()?;
        let meta = store.get_index(name)?.ok_or_else(|| self.no_index(name, None))?;
        self.servable(name, &meta.root)?;
        if self.options.front == Front::Command && meta.root == self.options.config.project_root {
            return Ok(Project { root: meta.root, source: Source::IndexName, config: self.options.config.clone() });
        }
        match project::resolve(self, &meta.root, Source::IndexName) {
            Ok(project) => Ok(project),
            Err(_) => {
                let mut config = self.options.config.clone();
                config.project_root = meta.root.clone();
                config.settings.index_name = Some(name.to_string());
                Ok(Project { root: meta.root, source: Source::IndexName, config })
            }
        }
    }

    /// Refuses an index whose recorded root this process does not serve (an index of `/etc`
    /// built from the command line, read by a server).
    pub fn servable(&self, name: &str, root: &std::path::Path) -> Result<(), Error> {
        self.dir_rule.check(root).map_err(|reason| {
            let refusal = project::refused(root, Source::IndexName, &reason);
            Error::of_kind(ErrorKind::Refused, format!("index {name}: {}", refusal.message))
        })
    }

    /// The one error for an index that does not exist (looked for in the project at `root`),
    /// with the fix of this front end.
    pub fn no_index(&self, name: &str, root: Option<&std::path::Path>) -> Error {
        let fix = match self.options.front {
            Front::Command => "run `cocosearch index` in its project (`cocosearch list` shows the existing ones)",
            Front::Mcp => "call index_codebase to index it (list_indexes shows the existing indexes)",
            Front::Dashboard => "GET /api/indexes lists the existing ones",
        };
        let place = root.map(|root| format!(" for {}", root.display())).unwrap_or_default();
        let message = match self.index_like(name) {
            Some(mean) => format!("no index named {name}{place} — {mean} Else {fix}"),
            None => format!("no index named {name}{place} — {fix}"),
        };
        Error::of_kind(ErrorKind::NotFound, message)
    }

    /// `did you mean `flask`?` when an index of the default store is named much like `name`
    /// (nothing when the store cannot be read: the refusal it is part of says enough).
    pub fn index_like(&self, name: &str) -> Option<String> {
        let listed = self.default_store().ok()?.list_indexes().ok()?;
        crate::config::did_you_mean(name, listed.iter().map(|m| m.name.as_str()))
    }
}

impl Target {
    /// The index's statistics at the snapshot read (`failing_files` of them listed; the tree
    /// scanned for freshness unless `scan` says not to), with the counts the workspace keeps.
    pub fn stats(&self, staleness_days: u64, failing_files: usize, scan: Scan) -> Result<IndexStats, Error> {
        let options = StatsOptions {
            staleness_days,
            failing_files,
            scan: scan == Scan::Tree && self.workspace.dir_rule.check(&self.project.root).is_ok(),
            at: self.at,
        };
        let indexing = &self.project.config.settings.indexing;
        let collected =
            stats::collect_cached(self.store.as_ref(), &self.index, indexing, options, &self.workspace.counts);
        collected.map(|stats| IndexStats { shared: self.shared.clone(), ..stats }).map_err(|e| match e {
            StatsError::Store(StoreError::IndexNotFound(_)) => {
                self.workspace.no_index(&self.index, Some(&self.project.root))
            }
            StatsError::Store(other) => other.into(),
        })
    }

    /// The project's tasks (whether or not its index exists).
    pub fn tasks(&self) -> Result<Tasks<'_>, Error> {
        Ok(Tasks::open(self.store.as_ref(), &self.index, &self.project.root)?)
    }

    /// The branch and commit checked out in the project, when it is a git repository.
    pub fn head(&self) -> Option<crate::discover::git::GitHead> {
        crate::discover::git::head(&self.project.root)
    }

    /// The index's latest runs, newest first.
    pub fn runs(&self, limit: usize) -> Result<Vec<RunRecord>, Error> {
        Ok(self.store.reader(&self.index)?.runs(limit)?)
    }

    /// The index's record; the not-found error when it does not exist.
    pub fn meta(&self) -> Result<&IndexMeta, Error> {
        self.meta.as_ref().ok_or_else(|| self.workspace.no_index(&self.index, Some(&self.project.root)))
    }

    /// The reader of the index at the snapshot read.
    pub fn reader(&self) -> Result<Box<dyn crate::store::IndexReader>, Error> {
        Ok(self.store.reader_at(&self.index, self.at)?)
    }
}
