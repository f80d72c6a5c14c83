//! The per-index write lock: exclusive across handles and processes, released when its guard
//! is dropped and when its process dies (`kill -9`, no chance to clean up).
//!
//! The dying process is this test binary itself: the test runs itself again with
//! [`HOLD_LOCK`] set, and [`serve_as_lock_holder_if_asked`] turns that child into a process that
//! takes the lock, says so, and waits to be killed.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cocosearch::config::{BackendSetting, DatabaseSettings, Origin};
use cocosearch::store::{Backend, IndexWriter, RunKind, RunStatus, Store, StoreError};

use super::{Fixture, contract_tests};

contract_tests!(the_write_lock_is_exclusive_until_dropped, the_write_lock_dies_with_its_process);

/// Set in a child run of a lock test: `backend`, URL or directory, and index, tab-separated.
const HOLD_LOCK: &str = "CSTEST_HOLD_LOCK";

/// What the lock holder prints once it holds the lock.
const LOCKED: &str = "CSTEST-LOCK-HELD";

/// A child process killed when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn busy(store: &dyn Store, name: &str) {
    match store.writer(name) {
        Err(StoreError::Busy(index)) => assert_eq!(index, name),
        Err(e) => panic!("locking {name} a second time failed otherwise: {e}"),
        Ok(_) => panic!("index {name} was locked twice"),
    }
}

fn the_write_lock_is_exclusive_until_dropped(f: &Fixture) {
    let s = &f.store;
    f.index("a");
    let other = f.reopen();
    let held: Box<dyn IndexWriter> = s.writer("a").expect("lock a");
    busy(s.as_ref(), "a");
    busy(other.as_ref(), "a");
    let b = other.writer("b").expect("another index locks independently");
    let ghost = s.writer("not_created_yet").expect("an index that does not exist yet locks");
    busy(other.as_ref(), "not_created_yet");
    let err = s.writer("a").err().expect("busy");
    assert!(err.to_string().contains("index a is being written by another"), "{err}");

    drop(held);
    let again = other.writer("a").expect("released when the guard is dropped");
    busy(s.as_ref(), "a");
    drop(again);
    drop((b, ghost));
    for name in ["a", "b", "not_created_yet"] {
        drop(s.writer(name).expect("all released"));
    }
}

fn the_write_lock_dies_with_its_process(f: &Fixture) {
    f.index("held");
    let location = match f.backend {
        Backend::Postgres => f.t.db_url(),
        Backend::Sqlite => f.t.embedded_dir().display().to_string(),
    };
    let test = f.test.as_str();
    let child = Command::new(std::env::current_exe().expect("test binary"))
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(HOLD_LOCK, format!("{}\t{location}\theld", f.backend))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the lock holder");
    let mut child = KillOnDrop(child);
    let stdout = child.0.stdout.take().expect("stdout");
    // libtest prints the test's name first, on the same line.
    let mut said = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        if line.ends_with(LOCKED) {
            said.clear();
            break;
        }
        said.push(line);
    }
    assert!(said.is_empty(), "the lock holder did not say it holds the lock: {said:?}");
    busy(f.store.as_ref(), "held");

    child.0.kill().expect("kill -9 the lock holder");
    child.0.wait().expect("reap the lock holder");
    // The server (or the OS) notices the death on its own schedule: wait for it, boundedly.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match f.store.writer("held") {
            Ok(lock) => {
                drop(lock);
                break;
            }
            Err(StoreError::Busy(_)) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("the lock outlived its process by 30 s: {e}"),
        }
    }
    // And the run it left `running` is marked interrupted by the next one.
    let run = f.store.writer("held").expect("writer").start_run(RunKind::Incremental).expect("start");
    let runs = f.store.reader("held").expect("reader").runs(5).expect("runs");
    let seen: Vec<(i64, RunStatus)> = runs.iter().map(|r| (r.id, r.status)).collect();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0], (run, RunStatus::Running));
    assert_eq!(seen[1].1, RunStatus::Interrupted);
}

/// In a child started by [`the_write_lock_dies_with_its_process`]: takes the lock, prints
/// [`LOCKED`], and sleeps until killed. Anywhere else: returns at once.
pub fn serve_as_lock_holder_if_asked() {
    let Ok(spec) = std::env::var(HOLD_LOCK) else { return };
    let fail = |what: String| -> ! {
        println!("failed: {what}");
        std::process::exit(1)
    };
    let mut parts = spec.split('\t');
    let (Some(backend), Some(location), Some(index)) = (parts.next(), parts.next(), parts.next()) else {
        fail(format!("bad {HOLD_LOCK}: {spec:?}"))
    };
    let (backend, url, path) = match backend {
        "postgres" => (BackendSetting::Postgres, location.to_string(), None),
        "sqlite" => (BackendSetting::Sqlite, String::new(), Some(location.into())),
        other => fail(format!("unknown backend {other}")),
    };
    let settings =
        DatabaseSettings { backend, url, path, pool_size: 2, connect_timeout: 5, url_origin: Origin::Configured };
    let opened = cocosearch::store::open(&settings).unwrap_or_else(|e| fail(e.to_string()));
    let lock = opened.store.writer(index).unwrap_or_else(|e| fail(e.to_string()));
    // A run left behind as a dead `cocosearch index` would leave it.
    lock.start_run(RunKind::Full).unwrap_or_else(|e| fail(e.to_string()));
    println!("{LOCKED}");
    loop {
        std::thread::sleep(Duration::from_secs(60));
        let _ = &lock;
    }
}
