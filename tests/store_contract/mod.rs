//! The store contract: every behaviour the `Store` trait promises, tested once and run
//! against each backend.
//!
//! A test is a plain function of a [`Fixture`] (a fresh store of one backend: this test's own
//! PostgreSQL database, or a fresh embedded store directory), and [`contract_tests!`]
//! instantiates each one as `postgres::name` and `sqlite::name`. Both stores are opened
//! through the public factory `cocosearch::store::open` and migrated, exactly as the CLI
//! opens them. Records come from the builders in [`records`], and expectations are computed
//! from those records, never read back from the store under test.
//!
//! `same_answers` fills a store of each backend with the same records and compares what they
//! answer.

mod cli;
mod files;
mod graph;
mod indexes;
mod keywords;
mod locks;
mod pending;
pub mod records;
mod same_answers;
mod search;
mod shared_texts;
mod snapshots;
mod stats;
mod symbols;
mod tasks;
mod terms;
mod unreadable;

use std::sync::Arc;

use cocosearch::store::{Backend, IndexMeta, NewIndex, Store};

use crate::support::TestCtx;

/// The model and dimension of test indexes: small hand-made vectors.
pub const DIMENSION: u32 = 3;

/// One contract test's world: a fresh, migrated store of one backend.
pub struct Fixture {
    /// The test's directory and services.
    pub t: TestCtx,
    /// Which backend.
    pub backend: Backend,
    /// The libtest name of the running test (`store_contract::locks::postgres::name`).
    pub test: String,
    /// The store.
    pub store: Arc<dyn Store>,
}

impl Fixture {
    /// Creates index `name` with the 3-dimensional test model.
    pub fn index(&self, name: &str) -> IndexMeta {
        self.store
            .create_index(&NewIndex {
                name: name.to_string(),
                root: self.t.path().to_path_buf(),
                provider: "ollama".into(),
                model: None,
                dimension: None,
                context_tokens: None,
            })
            .unwrap_or_else(|e| panic!("create index {name}: {e}"));
        self.store
            .writer(name)
            .expect("writer")
            .set_model("test-model", DIMENSION)
            .unwrap_or_else(|e| panic!("set model: {e}"));
        self.store.get_index(name).expect("read index").expect("index exists")
    }

    /// Another handle on the same store, opened again through the factory.
    pub fn reopen(&self) -> Arc<dyn Store> {
        self.t.store(self.backend)
    }
}

/// Runs a contract test body on a fresh store of `backend`. `test` is the libtest name of the
/// test, so a body can run itself again in a child process (see `locks`).
pub fn run(test: &str, backend: Backend, body: fn(&Fixture)) {
    locks::serve_as_lock_holder_if_asked();
    // `module_path!` starts with the crate; libtest names start after it.
    let test = test.split_once("::").map_or(test, |(_, rest)| rest).to_string();
    let short = test.rsplit("::").next().unwrap_or(&test);
    let t = TestCtx::new(&format!("{}_{short}", backend.as_str()));
    let store = t.store(backend);
    body(&Fixture { t, backend, test, store });
}

/// Instantiates contract test bodies (functions of `&Fixture` in the invoking module) once per
/// backend, as `postgres::name` and `sqlite::name`.
macro_rules! contract_tests {
    ($($name:ident),+ $(,)?) => {
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let test = concat!(module_path!(), "::", stringify!($name));
                    $crate::store_contract::run(test, cocosearch::store::Backend::Postgres, super::$name);
                }
            )+
        }
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    let test = concat!(module_path!(), "::", stringify!($name));
                    $crate::store_contract::run(test, cocosearch::store::Backend::Sqlite, super::$name);
                }
            )+
        }
    };
}
pub(crate) use contract_tests;
