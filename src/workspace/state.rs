//! What every request of one process shares ([`Workspace`]): the startup configuration, the
//! database pools and embedders (built once per distinct setting, on first use, and handed
//! down as values), the query-vector cache, the index jobs, the freshness cache and resolved
//! project configurations.
//!
//! Architecture invariant: everything here that touches the store or an embedder is called on
//! blocking threads (`tokio::task::spawn_blocking`), never in an async task — the `postgres`
//! client and the embedders block on their own runtimes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::Options;
use super::jobs::Jobs;
use crate::config::{Config, DatabaseSettings, EmbeddingSettings, ProjectDirRule};
use crate::embed::{self, Embedder};
use crate::search::QueryCache;
use crate::stats::Freshness;
use crate::store::{BackendChoice, Store, StoreError};

/// Query vectors kept in memory: plenty for an agent's session, a few MB at most.
const QUERY_CACHE_SIZE: usize = 1024;
/// How long a freshness measurement is answered before it is measured again.
const FRESHNESS_TTL: Duration = Duration::from_secs(30);

/// How the project of a call was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The call named an index (`index_name`); its recorded root is the project.
    IndexName,
    /// The call named a directory (`index_codebase(path)`).
    Path,
    /// The first `file://` root the client listed.
    Roots,
    /// The HTTP session's `?project=` query parameter.
    QueryParam,
    /// `COCOSEARCH_PROJECT_PATH`.
    Env,
    /// `projectPath` from `cocosearch.yaml` or `--set`.
    Config,
    /// The server's working directory (`--project-from-cwd`), walked up to the git root.
    Cwd,
}

impl Source {
    /// The name results report (`index_name`, `roots`, `query_param`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::IndexName => "index_name",
            Source::Path => "path",
            Source::Roots => "roots",
            Source::QueryParam => "query_param",
            Source::Env => "env",
            Source::Config => "config",
            Source::Cwd => "cwd",
        }
    }
}

/// The configuration file a project's resolution depends on, with its size and time. The
/// server's flags and environment are fixed for its life, so this is all that can change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigStamp(Option<(PathBuf, u64, Option<std::time::SystemTime>)>);

impl ConfigStamp {
    pub fn of(options: &Options, root: &Path) -> ConfigStamp {
        let file = crate::config::locate_file(options.config_file.as_deref(), &options.env, root).ok().flatten();
        ConfigStamp(file.map(|path| {
            let meta = std::fs::metadata(&path).ok();
            let (size, modified) = meta.map_or((0, None), |m| (m.len(), m.modified().ok()));
            (path, size, modified)
        }))
    }
}

/// Process-wide state: what the presenters of one process share.
pub struct Workspace {
    /// How the server was started.
    pub options: Options,
    /// The project used when a call names none and the client gives no roots.
    pub default_project: Option<(PathBuf, Source)>,
    /// Which directories may be projects: the same for every session, from the server's own
    /// configuration (`mcp.allowedRoots` in a project's `cocosearch.yaml` cannot widen it).
    pub dir_rule: Confinement,
    /// The in-process LRU of query vectors, for the life of the server.
    pub cache: QueryCache,
    /// Index jobs started by this process.
    pub jobs: Jobs,
    /// Index counts kept while their index does not change (every dashboard page load lists
    /// every index).
    pub counts: crate::stats::CountsCache,
    stores: Mutex<HashMap<String, OpenStore>>,
    /// Teams' shared stores (`shared.url`), by URL, opened read-only.
    pub(super) bases: Mutex<HashMap<String, Arc<dyn Store>>>,
    embedders: Mutex<HashMap<String, Option<Arc<dyn Embedder>>>>,
    freshness: Mutex<HashMap<String, Measured>>,
    /// Resolved project configurations by root, with what they were resolved from.
    configs: Mutex<HashMap<PathBuf, (ConfigStamp, Config)>>,
    /// Slots for requests that do blocking work (store, embedder, files): `database.poolSize`
    /// of them run at once and the rest wait their turn, so concurrent clients cannot make the
    /// server hold a connection, a thread and their memory each.
    requests: tokio::sync::Semaphore,
    /// The indexes this process keeps fresh.
    pub(super) watchers: super::watchers::Watchers,
    /// The MCP sessions `/health` reports, when this process serves MCP.
    pub(super) sessions: std::sync::OnceLock<Arc<dyn super::health::LiveSessions>>,
}

/// How long a request waits for a free slot before it is refused.
const REQUEST_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Which directories a process reads projects in.
#[derive(Debug, Clone)]
pub enum Confinement {
    /// Any: the command line serves whatever its user names (`index --allow-any-dir` built it).
    Unconfined,
    /// Those the rule allows: a server reads only project directories.
    Rule(ProjectDirRule),
}

impl Confinement {
    /// Whether `dir` may be read as a project; `Err` says why not.
    pub fn check(&self, dir: &Path) -> Result<(), crate::config::UnsafeProjectDir> {
        match self {
            Confinement::Unconfined => Ok(()),
            Confinement::Rule(rule) => rule.check(dir),
        }
    }
}

/// A store opened for some database settings, with the backend choice that opened it.
type OpenStore = (Arc<dyn Store>, BackendChoice);

/// A freshness measurement of one index.
struct Measured {
    value: Freshness,
    measured: Instant,
    /// A new measurement is under way.
    refreshing: bool,
}

impl Workspace {
    /// The state for a server started with `options`.
    pub fn new(options: Options) -> Workspace {
        let config = &options.config;
        let default_project = match config.source("projectPath") {
            crate::config::Source::Env(_) => Some((config.project_root.clone(), Source::Env)),
            crate::config::Source::Default if options.project_from_cwd => {
                Some((config.project_root.clone(), Source::Cwd))
            }
            crate::config::Source::Default => None,
            _ => Some((config.project_root.clone(), Source::Config)),
        };
        let dir_rule = match options.front {
            super::Front::Command => Confinement::Unconfined,
            super::Front::Mcp | super::Front::Dashboard => {
                Confinement::Rule(ProjectDirRule::from_env(&options.env, &config.settings.mcp.allowed_roots))
            }
        };
        let slots = usize::try_from(config.settings.database.pool_size).unwrap_or(1).max(1);
        Workspace {
            options,
            default_project,
            dir_rule,
            cache: QueryCache::new(QUERY_CACHE_SIZE),
            jobs: Jobs::default(),
            counts: crate::stats::CountsCache::default(),
            stores: Mutex::new(HashMap::new()),
            bases: Mutex::new(HashMap::new()),
            embedders: Mutex::new(HashMap::new()),
            freshness: Mutex::new(HashMap::new()),
            configs: Mutex::new(HashMap::new()),
            requests: tokio::sync::Semaphore::new(slots),
            watchers: super::watchers::Watchers::default(),
            sessions: std::sync::OnceLock::new(),
        }
    }

    /// Runs `work` on a blocking thread once a request slot is free (see `requests`); a request
    /// that waited [`REQUEST_WAIT`] for one is refused, saying so.
    pub async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, super::Error> {
        let _slot = match tokio::time::timeout(REQUEST_WAIT, self.requests.acquire()).await {
            Ok(Ok(slot)) => slot,
            Ok(Err(_)) | Err(_) => {
                return Err(super::Error::new(format!(
                    "the server is busy: every request slot (database.poolSize) stayed taken for {} s — try again, or raise database.poolSize",
                    REQUEST_WAIT.as_secs()
                )));
            }
        };
        tokio::task::spawn_blocking(work).await.map_err(|e| super::Error::new(format!("internal error: {e}")))
    }

    /// The configuration resolved for `root` before, if `stamp` says it still holds.
    pub fn resolved_config(&self, root: &Path, stamp: &ConfigStamp) -> Option<Config> {
        let configs = self.configs.lock().unwrap_or_else(PoisonError::into_inner);
        configs.get(root).filter(|(known, _)| known == stamp).map(|(_, config)| config.clone())
    }

    /// Keeps `config`, resolved for `root` from what `stamp` describes.
    pub fn remember_config(&self, root: &Path, stamp: ConfigStamp, config: Config) {
        self.configs.lock().unwrap_or_else(PoisonError::into_inner).insert(root.to_path_buf(), (stamp, config));
    }

    /// The store for these database settings, opened and migrated on first use (the backend
    /// is chosen then, once for the life of the server). Blocking: call from a blocking thread.
    pub fn store(&self, settings: &DatabaseSettings) -> Result<Arc<dyn Store>, StoreError> {
        self.store_and_choice(settings).map(|(store, _)| store)
    }

    /// [`Self::store`], with the backend choice that opened it.
    pub fn store_and_choice(&self, settings: &DatabaseSettings) -> Result<OpenStore, StoreError> {
        let key = format!("{:?}\0{}\0{:?}", settings.backend, settings.url, settings.embedded_dir());
        let mut stores = self.stores.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((store, choice)) = stores.get(&key) {
            return Ok((Arc::clone(store), choice.clone()));
        }
        let (store, choice) = super::open_store(settings, |notice| self.options.notices.tell(notice))?;
        tracing::info!(backend = %choice, "store opened");
        stores.insert(key, (Arc::clone(&store), choice.clone()));
        Ok((store, choice))
    }

    /// The store of the startup configuration.
    pub fn default_store(&self) -> Result<Arc<dyn Store>, StoreError> {
        self.store(&self.options.config.settings.database)
    }

    /// The embedder for these settings (`None` when embeddings are off), built on first use.
    pub fn embedder(&self, settings: &EmbeddingSettings) -> Option<Arc<dyn Embedder>> {
        let key = serde_json::to_string(settings).unwrap_or_default();
        let mut embedders = self.embedders.lock().unwrap_or_else(PoisonError::into_inner);
        embedders
            .entry(key)
            .or_insert_with(|| embed::from_settings(settings, self.options.progress).map(Arc::from))
            .clone()
    }

    /// How far `index` is behind its files. Measured inline the first time (it scans the
    /// tree); after that the last measurement is answered at once and, when older than
    /// [`FRESHNESS_TTL`], measured again on a thread of its own for the next call.
    pub fn freshness(
        self: &Arc<Self>,
        store: Arc<dyn Store>,
        index: &str,
        indexing: &crate::config::IndexingSettings,
    ) -> Option<Freshness> {
        let measure = {
            let (index, indexing) = (index.to_string(), indexing.clone());
            move || {
                let options = crate::stats::StatsOptions {
                    staleness_days: 7,
                    failing_files: 0,
                    scan: true,
                    at: crate::store::At::Current,
                };
                crate::stats::index_freshness(store.as_ref(), &index, &indexing, options).ok()
            }
        };
        {
            let mut cache = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(entry) = cache.get_mut(index) {
                if entry.measured.elapsed() >= FRESHNESS_TTL && !entry.refreshing {
                    entry.refreshing = true;
                    let shared = Arc::clone(self);
                    let index = index.to_string();
                    let _ = std::thread::Builder::new().name("cocosearch-freshness".into()).spawn(move || {
                        let value = measure();
                        shared.remember_freshness(&index, value);
                    });
                }
                return Some(entry.value.clone());
            }
        }
        let value = measure();
        self.remember_freshness(index, value.clone());
        value
    }

    /// How fresh `index` is, as a search answer says it: a watched index from a few small
    /// queries, another from the measured freshness above (scanned at most every
    /// [`FRESHNESS_TTL`]), each with its count of chunks awaiting vectors.
    pub fn search_freshness(
        self: &Arc<Self>,
        store: Arc<dyn Store>,
        index: &str,
        indexing: &crate::config::IndexingSettings,
    ) -> Option<crate::stats::SearchFreshness> {
        let watcher = crate::index::lease::watcher_of(&store.location(), index);
        if watcher.as_ref().is_some_and(|w| w.following == crate::index::lease::Following::Live) {
            return crate::stats::search_freshness(store.as_ref(), index, indexing).ok();
        }
        let pending = store.reader(index).and_then(|r| r.count_pending()).ok()?;
        let freshness = self.freshness(store, index, indexing)?;
        Some(crate::stats::SearchFreshness {
            index: index.to_string(),
            watcher,
            pending_embeddings: pending,
            freshness,
        })
    }

    fn remember_freshness(&self, index: &str, value: Option<Freshness>) {
        let mut cache = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        match value {
            Some(value) => {
                cache.insert(index.to_string(), Measured { value, measured: Instant::now(), refreshing: false });
            }
            None => {
                cache.remove(index);
            }
        }
    }

    /// Forgets the measured freshness of `index` (after it was re-indexed).
    pub fn forget_freshness(&self, index: &str) {
        self.freshness.lock().unwrap_or_else(PoisonError::into_inner).remove(index);
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        // Closing a `postgres` connection blocks on the client's own runtime, which panics
        // when the last reference goes away inside an async task: close them on a plain thread.
        let stores = std::mem::take(self.stores.get_mut().unwrap_or_else(PoisonError::into_inner));
        if !stores.is_empty() {
            let _ = std::thread::spawn(move || drop(stores)).join();
        }
    }
}
