//! Choosing the backend and opening the store: the one place that names backend types.
//!
//! `database.backend` decides, and `auto` (the default) decides in this order, first match
//! wins, so the choice is deterministic and shown, never a silent switch:
//!
//! 1. `database.url` is configured (command line, environment or `cocosearch.yaml`) →
//!    PostgreSQL, with errors as for an explicit choice;
//! 2. an embedded store already exists → the embedded store (sticky: starting a server later
//!    does not hide the indexes already built);
//! 3. a PostgreSQL server accepts cocosearch's default login within a short, bounded wait →
//!    PostgreSQL (the docker-compose setup keeps working unchanged);
//! 4. otherwise → the embedded store, created now, with a one-time notice for stderr.
//!
//! Configuration resolution does no network I/O; the probe of step 3 happens here.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::postgres::{self, PgStore};
use super::sqlite::{self, SqliteStore};
use super::{Backend, Store, StoreError, VectorSupport};
use crate::config::{BackendSetting, DatabaseSettings, Origin};

/// How long `auto` waits for a PostgreSQL server at the default URL to accept the login.
const PROBE_LOGIN: Duration = Duration::from_secs(2);

/// Which backend is in use, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendChoice {
    /// The backend.
    pub backend: Backend,
    /// Why it was chosen.
    pub reason: ChoiceReason,
}

/// Why a backend was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceReason {
    /// `database.backend` names it.
    Configured,
    /// `auto`: `database.url` is configured.
    UrlConfigured,
    /// `auto`: an embedded store exists at this directory.
    EmbeddedExists(PathBuf),
    /// `auto`: PostgreSQL accepted the default login at this address.
    ServerAnswered(String),
    /// `auto`: no usable PostgreSQL at the default URL; why not.
    NoServer(String),
}

impl std::fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let backend = self.backend;
        match &self.reason {
            ChoiceReason::Configured => write!(f, "{backend} (database.backend)"),
            ChoiceReason::UrlConfigured => write!(f, "{backend} (auto: database.url is set)"),
            ChoiceReason::EmbeddedExists(dir) => {
                write!(f, "{backend} (auto: the embedded store exists at {})", dir.display())
            }
            ChoiceReason::ServerAnswered(address) => write!(f, "{backend} (auto: a server answered at {address})"),
            ChoiceReason::NoServer(why) => write!(f, "{backend} (auto: {why})"),
        }
    }
}

/// An open store.
pub struct Opened {
    /// The store.
    pub store: Arc<dyn Store>,
    /// Which backend, and why.
    pub choice: BackendChoice,
    /// Something to tell the user once, on stderr (never on MCP stdout): the embedded store
    /// was just created, and how to use a server instead.
    pub notice: Option<String>,
}

/// Chooses the backend without opening or creating anything (but probing the default
/// PostgreSQL URL under `auto`, as [`open`] would).
pub fn choose(settings: &DatabaseSettings) -> Result<BackendChoice, StoreError> {
    choose_with(settings, &|s| postgres::accepts_login(s, PROBE_LOGIN))
}

/// Whether PostgreSQL accepts the login of the settings' URL: the server's address, or why
/// not.
type Probe<'a> = &'a dyn Fn(&DatabaseSettings) -> Result<String, String>;

/// [`choose`] with the PostgreSQL probe given.
fn choose_with(settings: &DatabaseSettings, probe: Probe<'_>) -> Result<BackendChoice, StoreError> {
    let choice = |backend, reason| Ok(BackendChoice { backend, reason });
    match settings.backend {
        BackendSetting::Sqlite => choice(Backend::Sqlite, ChoiceReason::Configured),
        BackendSetting::Postgres => choice(Backend::Postgres, ChoiceReason::Configured),
        BackendSetting::Auto if settings.url_origin == Origin::Configured => {
            choice(Backend::Postgres, ChoiceReason::UrlConfigured)
        }
        BackendSetting::Auto => {
            let dir = embedded_dir(settings)?;
            if sqlite::exists(&dir) {
                return choice(Backend::Sqlite, ChoiceReason::EmbeddedExists(dir));
            }
            match probe(settings) {
                Ok(address) => choice(Backend::Postgres, ChoiceReason::ServerAnswered(address)),
                Err(why) => choice(Backend::Sqlite, ChoiceReason::NoServer(why)),
            }
        }
    }
}

/// Chooses the backend and opens the store. PostgreSQL connects lazily (the first call
/// reports an unreachable server, with the fix); the embedded store is created if needed.
/// Neither migrates: callers run [`Store::migrate`] first.
pub fn open(settings: &DatabaseSettings) -> Result<Opened, StoreError> {
    open_chosen(settings, choose(settings)?)
}

/// The store of `settings` when it exists already (PostgreSQL, or an embedded store whose file
/// is there); `None` for an embedded store no index has created yet. Nothing is created or
/// written: for reading an existing index's record (which project, which embedder).
pub fn open_existing(settings: &DatabaseSettings) -> Result<Option<Opened>, StoreError> {
    let choice = choose(settings)?;
    if choice.backend == Backend::Sqlite && !sqlite::exists(&embedded_dir(settings)?) {
        return Ok(None);
    }
    open_chosen(settings, choice).map(Some)
}

fn open_chosen(settings: &DatabaseSettings, choice: BackendChoice) -> Result<Opened, StoreError> {
    let (store, notice): (Arc<dyn Store>, Option<String>) = match choice.backend {
        Backend::Postgres => (Arc::new(PgStore::connect_lazy(settings)?), None),
        Backend::Sqlite => {
            let dir = embedded_dir(settings)?;
            let notice = match &choice.reason {
                ChoiceReason::NoServer(why) if !sqlite::exists(&dir) => Some(format!(
                    "{why}: keeping indexes in the embedded store at {} (set database.backend: postgres to use a PostgreSQL server)",
                    dir.display()
                )),
                _ => None,
            };
            (SqliteStore::open(&dir, settings)?, notice)
        }
    };
    Ok(Opened { store, choice, notice })
}

/// Replaces a damaged embedded store with an empty one (`cocosearch clear --all` on a store
/// that reports [`StoreError::Damaged`]): the file and its WAL are deleted, with every index in
/// them, and a new store is created. Refused while any index's write lock is held, and on
/// PostgreSQL, whose pages are the server's to repair. Returns the file replaced.
pub fn recreate_damaged(settings: &DatabaseSettings) -> Result<PathBuf, StoreError> {
    let choice = choose(settings)?;
    if choice.backend != Backend::Sqlite {
        return Err(StoreError::Query {
            context: "recreating the store".into(),
            message: "only the embedded store can be recreated; a PostgreSQL server repairs its own pages".into(),
        });
    }
    sqlite::recreate(&embedded_dir(settings)?, settings)
}

/// A store that is not there yet: the embedded store of `choice` when its file does not exist
/// (the first index creates it), with where it will be and the vector search it will have;
/// `None` when there is a store to open and ask (`Store::health`). For `config check`, which
/// creates nothing.
///
/// A store that could not be created there is an error naming the path and the fix: a
/// `database.path` that is a file, a `cocosearch.db` that is a directory, a directory nobody
/// may write (a read-only mount). Finding that out writes and removes one empty probe file in
/// the nearest existing directory, since permissions alone do not tell (root, mounts).
pub fn not_yet_created(
    settings: &DatabaseSettings,
    choice: &BackendChoice,
) -> Result<Option<(PathBuf, VectorSupport)>, StoreError> {
    if choice.backend != Backend::Sqlite {
        return Ok(None);
    }
    let dir = embedded_dir(settings)?;
    if sqlite::exists(&dir) {
        return Ok(None);
    }
    let unusable = |reason: String| sqlite::open_error(&dir, &reason);
    let file = dir.join(sqlite::FILE_NAME);
    if file.exists() {
        return Err(unusable(format!("{} is not a file", file.display())));
    }
    let Some(existing) = dir.ancestors().find(|a| a.exists()) else {
        return Err(unusable("none of its parent directories exists".into()));
    };
    if !existing.is_dir() {
        return Err(unusable(format!("{} is not a directory", existing.display())));
    }
    let probe = existing.join(format!(".cocosearch-probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(Some((dir, sqlite::vector_support())))
        }
        Err(e) => Err(unusable(format!("{} cannot be written: {e}", existing.display()))),
    }
}

/// The embedded store's directory, or an error saying how to name one.
pub fn embedded_dir(settings: &DatabaseSettings) -> Result<PathBuf, StoreError> {
    settings.embedded_dir().ok_or_else(|| StoreError::Config {
        backend: Backend::Sqlite,
        key: "database.path",
        reason: "there is no home or data directory to keep the embedded store in".into(),
        fix: "set database.path (COCOSEARCH_DATABASE_PATH) to a directory".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(dir: &std::path::Path, backend: BackendSetting, url_origin: Origin) -> DatabaseSettings {
        DatabaseSettings {
            backend,
            url: crate::config::registry::DEFAULT_DATABASE_URL.into(),
            path: Some(dir.to_path_buf()),
            pool_size: 1,
            connect_timeout: 1,
            url_origin,
        }
    }

    #[test]
    fn auto_decides_in_order_and_an_existing_embedded_store_is_sticky() {
        let dir = tempfile::tempdir().expect("tempdir");
        let answers: Probe<'_> = &|_| Ok("localhost:5432".into());
        let silent: Probe<'_> = &|_| Err("no server at localhost:5432".into());
        let choose =
            |backend, origin, probe| choose_with(&settings(dir.path(), backend, origin), probe).expect("choice");

        // An explicit backend wins, whatever answers.
        assert_eq!(choose(BackendSetting::Sqlite, Origin::Configured, answers).backend, Backend::Sqlite);
        assert_eq!(choose(BackendSetting::Postgres, Origin::Default, silent).backend, Backend::Postgres);
        // A configured URL means PostgreSQL.
        let c = choose(BackendSetting::Auto, Origin::Configured, silent);
        assert_eq!((c.backend, c.reason), (Backend::Postgres, ChoiceReason::UrlConfigured));
        // Nothing configured, no embedded store: the probe decides.
        let c = choose(BackendSetting::Auto, Origin::Default, answers);
        assert_eq!(
            (c.backend, c.to_string()),
            (Backend::Postgres, "postgres (auto: a server answered at localhost:5432)".into())
        );
        let c = choose(BackendSetting::Auto, Origin::Default, silent);
        assert_eq!((c.backend, c.to_string()), (Backend::Sqlite, "sqlite (auto: no server at localhost:5432)".into()));
        // Once the embedded store exists, a server that answers does not hide it.
        let opened = open(&settings(dir.path(), BackendSetting::Sqlite, Origin::Default)).expect("create");
        opened.store.migrate().expect("migrate");
        let c = choose(BackendSetting::Auto, Origin::Default, answers);
        assert_eq!((c.backend, c.reason), (Backend::Sqlite, ChoiceReason::EmbeddedExists(dir.path().to_path_buf())));
    }
}
