//! Index runs over an explicit set of changed paths (`index::Scope::Paths`, what a file
//! watcher hands over): after editing, adding and removing files and indexing only those
//! paths, the index equals a clean full index of the same tree — files, chunks, symbols and
//! import resolution — and paths outside the project or left out by the discovery rules are
//! counted as skips, never indexed. Run through the library API on the embedded store.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use cocosearch::config::{Config, Env, Request, Settings};
use cocosearch::discover::SkipReason;
use cocosearch::index::{self, IndexRequest, Progress, Scope, Summary};
use cocosearch::store::{Backend, Store};

use crate::support::{TestCtx, index_contents as contents};

/// The project's settings, without embeddings.
fn settings(t: &TestCtx) -> Settings {
    let env = Env::from_pairs([("COCOSEARCH_EMBEDDING_PROVIDER".to_string(), "none".to_string())]);
    Config::resolve(&Request { config_file: None, cwd: t.path(), overrides: &[], env: &env })
        .expect("configuration resolves")
        .settings
}

fn run(store: &dyn Store, t: &TestCtx, name: &str, scope: Scope) -> Summary {
    let settings = settings(t);
    index::run(
        store,
        &IndexRequest {
            name: name.to_string(),
            root: t.path().canonicalize().expect("root"),
            settings: &settings,
            fresh: false,
            embedder: None,
            progress: Arc::new(Progress::default()),
            cancel: Arc::new(AtomicBool::new(false)),
            scope,
            vectors: index::VectorPhase::InRun,
            snapshot: None,
            shared: None,
        },
    )
    .unwrap_or_else(|e| panic!("index {name}: {e}"))
}

fn write_project(t: &TestCtx) {
    t.write(".gitignore", "*.log\nbuild/\n");
    t.write("pkg/__init__.py", "");
    t.write("pkg/models.py", "class User:\n    def name(self):\n        return 'user'\n");
    t.write("pkg/views.py", "from pkg.models import User\n\ndef show(user: User):\n    return user.name()\n");
    t.write("pkg/helpers.py", "from pkg.gone import thing\n\ndef helper():\n    return thing()\n");
    t.write("docs/guide.md", "# Guide\n\nHow to use the package.\n");
    t.write("old/legacy.py", "def legacy():\n    return 1\n");
    t.write("old/more.py", "def more():\n    return 2\n");
}

#[test]
fn indexing_changed_paths_equals_a_clean_full_index() {
    let t = TestCtx::new("index_scope");
    let store = t.store(Backend::Sqlite);
    write_project(&t);
    run(store.as_ref(), &t, "scoped", Scope::FullWalk);

    // Edit, add, remove a file and a whole directory; touch an ignored and a sensitive file.
    let root = t.path().canonicalize().expect("root");
    t.write(
        "pkg/models.py",
        "class User:\n    def name(self):\n        return 'someone'\n\n    def age(self):\n        return 3\n",
    );
    t.write("pkg/gone.py", "def thing():\n    return 'now here'\n");
    std::fs::remove_file(t.path().join("pkg/views.py")).expect("remove");
    std::fs::remove_dir_all(t.path().join("old")).expect("remove dir");
    t.write("run.log", "a log line\n");
    t.write(".env", "SECRET=1\n");
    t.write("build/out.py", "def generated():\n    pass\n");
    let outside = tempfile::tempdir().expect("outside dir");
    std::fs::write(outside.path().join("elsewhere.py"), "def elsewhere(): pass\n").expect("write outside");

    let changed = vec![
        root.join("pkg/models.py"),
        PathBuf::from("pkg/gone.py"),
        root.join("pkg/views.py"),
        root.join("old"),
        root.join("run.log"),
        root.join(".env"),
        root.join("build/out.py"),
        outside.path().join("elsewhere.py"),
        PathBuf::from("../escape.py"),
    ];
    let summary = run(store.as_ref(), &t, "scoped", Scope::Paths(changed));
    let files = &summary.run.files;
    assert_eq!((files.discovered, files.added, files.modified, files.removed), (2, 1, 1, 3), "{files:?}");
    assert_eq!(files.unchanged, 0, "files outside the paths are not looked at: {files:?}");
    let skipped = &summary.run.skipped;
    assert_eq!(skipped.get(SkipReason::Ignored), 2, "run.log and build/out.py: {skipped:?}");
    assert_eq!(skipped.get(SkipReason::Sensitive), 1, ".env: {skipped:?}");
    assert_eq!(skipped.get(SkipReason::Excluded), 2, "the paths outside the project: {skipped:?}");

    run(store.as_ref(), &t, "clean", Scope::FullWalk);
    let (scoped, clean) = (contents(store.as_ref(), "scoped"), contents(store.as_ref(), "clean"));
    assert_eq!(scoped.keys().collect::<Vec<_>>(), clean.keys().collect::<Vec<_>>());
    assert_eq!(scoped, clean, "the scoped run left the index as a clean full run does");
    assert!(
        clean["pkg/helpers.py"].contains("pkg/gone.py"),
        "the new file resolves the import: {}",
        clean["pkg/helpers.py"]
    );

    // Nothing changed: the same paths again write nothing.
    let again = run(store.as_ref(), &t, "scoped", Scope::Paths(vec![root.join("pkg/models.py"), root.join("pkg")]));
    let files = &again.run.files;
    assert_eq!((files.added, files.modified, files.removed), (0, 0, 0), "{files:?}");
    assert_eq!(contents(store.as_ref(), "scoped"), clean);
}

#[test]
fn a_new_index_walks_the_whole_project_whatever_the_paths() {
    let t = TestCtx::new("index_scope_new");
    let store = t.store(Backend::Sqlite);
    write_project(&t);
    let summary = run(store.as_ref(), &t, "scoped", Scope::Paths(vec![PathBuf::from("pkg/models.py")]));
    assert_eq!(summary.run.files.added, 8, "every file and .gitignore: {:?}", summary.run.files);
    run(store.as_ref(), &t, "clean", Scope::FullWalk);
    assert_eq!(contents(store.as_ref(), "scoped"), contents(store.as_ref(), "clean"));
}
