//! The two store backends a benchmark runs against, side by side: where each keeps a bench's
//! data, how the `cocosearch` binary is pointed at it, and the store itself for direct calls.
//!
//! PostgreSQL keeps each bench in a database of the test server (`bench_<name>`); the embedded
//! store keeps it in `target/bench-stores/<name>/`, so a fresh start is deleting a directory.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use cocosearch::config::{BackendSetting, DatabaseSettings, Origin};
use cocosearch::store::{Backend, Store};

use super::{Services, root};

/// Where a benchmark's indexes live.
#[derive(Debug, Clone)]
pub enum Target {
    /// A PostgreSQL database.
    Postgres { url: String },
    /// An embedded store directory.
    Sqlite { dir: PathBuf },
}

/// Whether a target starts empty or keeps what an earlier run built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Everything of the bench deleted first.
    Fresh,
    /// Whatever is there is kept (created when missing).
    Reuse,
}

impl Target {
    /// The bench's PostgreSQL database `bench_<name>` on the test server.
    pub fn postgres(services: &Services, name: &str, start: Start) -> Target {
        let db = format!("bench_{}", name.replace('-', "_"));
        Target::Postgres { url: super::database(&services.admin_url, &db, start) }
    }

    /// The bench's embedded store, `target/bench-stores/<name>/`.
    pub fn sqlite(name: &str, start: Start) -> Target {
        let dir = root().join("target/bench-stores").join(name);
        if start == Start::Fresh {
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("cannot delete {}: {e}", dir.display()),
            }
        }
        std::fs::create_dir_all(&dir).expect("create the bench store directory");
        Target::Sqlite { dir }
    }

    /// The bench's target on `backend`.
    pub fn on(backend: Backend, services: &Services, name: &str, start: Start) -> Target {
        match backend {
            Backend::Sqlite => Target::sqlite(name, start),
            Backend::Postgres => Target::postgres(services, name, start),
        }
    }

    /// Which backend.
    pub fn backend(&self) -> Backend {
        match self {
            Target::Postgres { .. } => Backend::Postgres,
            Target::Sqlite { .. } => Backend::Sqlite,
        }
    }

    /// The backend's name, as in `database.backend`.
    pub fn label(&self) -> &'static str {
        self.backend().as_str()
    }

    /// The database settings naming this target explicitly (no `auto` probing).
    pub fn settings(&self, pool_size: u32) -> DatabaseSettings {
        let (backend, url, path) = match self {
            Target::Postgres { url } => (BackendSetting::Postgres, url.clone(), None),
            Target::Sqlite { dir } => (
                BackendSetting::Sqlite,
                cocosearch::config::registry::DEFAULT_DATABASE_URL.to_string(),
                Some(dir.clone()),
            ),
        };
        DatabaseSettings { backend, url, path, pool_size, connect_timeout: 5, url_origin: Origin::Configured }
    }

    /// The store, opened through the one factory and migrated.
    pub fn store(&self, pool_size: u32) -> Arc<dyn Store> {
        let store = cocosearch::store::open(&self.settings(pool_size)).expect("open the store").store;
        store.migrate().expect("migrate the store");
        store
    }

    /// The environment that points the binary at this target.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        match self {
            Target::Postgres { url } => {
                vec![("COCOSEARCH_DATABASE_BACKEND", "postgres".into()), ("COCOSEARCH_DATABASE_URL", url.clone())]
            }
            Target::Sqlite { dir } => vec![
                ("COCOSEARCH_DATABASE_BACKEND", "sqlite".into()),
                ("COCOSEARCH_DATABASE_PATH", dir.display().to_string()),
            ],
        }
    }

    /// Points `cmd` at this target.
    pub fn configure(&self, cmd: &mut Command) {
        for (key, value) in self.env() {
            cmd.env(key, value);
        }
    }
}

/// The backends a run measures: both (embedded first, the default of a new user), or the one
/// named by `--only sqlite|postgres`.
pub fn backends() -> Vec<Backend> {
    match arg_value("--only").as_deref() {
        None => vec![Backend::Sqlite, Backend::Postgres],
        Some("sqlite") => vec![Backend::Sqlite],
        Some("postgres") => vec![Backend::Postgres],
        Some(other) => panic!("--only takes sqlite or postgres, not {other:?}"),
    }
}

/// The value after `flag` on the command line (`cargo bench` adds its own `--bench`, which
/// is ignored).
pub fn arg_value(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned()
}

/// `name` as a backend.
pub fn parse_backend(name: &str) -> Backend {
    match name {
        "sqlite" => Backend::Sqlite,
        "postgres" => Backend::Postgres,
        other => panic!("unknown backend {other:?}: sqlite or postgres"),
    }
}
