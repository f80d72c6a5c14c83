//! The live index (issue 28): `cocosearch watch` follows edits, additions, renames, deletions
//! and branch switches; an index run makes every file searchable by keyword before it computes
//! a single vector, and keeps everything when killed then; one writer per index at a time.
//! The MCP side (a real client watching the index change) is in `mcp_server.rs`.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::fake_ollama::FakeOllama;
use crate::support::{TestCtx, all_chunks, git, index_contents, rev_parse, run, start_held_run, write_sample_project};

/// A `cocosearch watch --json` process and the events it printed.
struct Watch {
    child: Child,
    events: Receiver<Value>,
    seen: Vec<Value>,
}

impl Watch {
    /// Starts `cmd watch --json ARGS` and waits for its first run to end (the `started` event).
    fn start(mut cmd: Command, args: &[&str]) -> Watch {
        let mut child = cmd
            .args(["watch", "--json"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn cocosearch watch");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, events) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut watch = Watch { child, events, seen: Vec::new() };
        watch.wait_for("started", Duration::from_secs(120));
        watch
    }

    /// Waits for an event named `name`; returns it.
    fn wait_for(&mut self, name: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => {
                    self.seen.push(event.clone());
                    if event["event"] == name {
                        return event;
                    }
                }
                Err(_) => panic!("no {name} event within {limit:?}; seen: {:#?}", self.seen),
            }
        }
    }

    /// Every event printed so far.
    fn drain(&mut self) -> &[Value] {
        while let Ok(event) = self.events.try_recv() {
            self.seen.push(event);
        }
        &self.seen
    }

    /// Ctrl-C: the watcher finishes its step and exits 0.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status().expect("kill -INT");
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "the watcher exited with {status} on Ctrl-C");
                return;
            }
            assert!(Instant::now() < deadline, "the watcher did not stop on Ctrl-C");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `check` holds (polling), or fails with `what` and the last value seen.
fn eventually<T: std::fmt::Debug>(what: &str, limit: Duration, mut probe: impl FnMut() -> (bool, T)) -> T {
    let deadline = Instant::now() + limit;
    loop {
        let (ok, last) = probe();
        if ok {
            return last;
        }
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}; last: {last:#?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The paths of the hits of a keyword search for `token` whose content holds it.
fn keyword_paths(t: &TestCtx, token: &str) -> Vec<String> {
    crate::support::keyword_paths_at(t, token, None)
}

/// No file is held twice and no chunk position is taken twice.
fn assert_no_duplicates(t: &TestCtx) {
    let store = t.db_store();
    let chunks = all_chunks(store.as_ref(), &t.index_name());
    let mut positions: Vec<(String, u32)> = chunks.iter().map(|c| (c.path.clone(), c.ordinal)).collect();
    let before = positions.len();
    positions.sort();
    positions.dedup();
    assert_eq!(positions.len(), before, "a chunk position is held twice");
}

#[test]
fn the_watcher_shows_every_edit_addition_rename_and_deletion_in_search() {
    let t = TestCtx::new("live_cli");
    write_sample_project(&t);
    let watch = Watch::start(t.cmd_db(), &[]);

    t.write("live/added.py", "def zebra_added_token(a):\n    return a * 2\n");
    eventually("an added file is found by keyword", Duration::from_secs(30), || {
        let paths = keyword_paths(&t, "zebra_added_token");
        (paths == ["live/added.py"], paths)
    });

    t.write("live/added.py", "def zebra_edited_token(a):\n    return a * 3\n");
    eventually("an edit is found, and the old text is gone", Duration::from_secs(30), || {
        let (new, old) = (keyword_paths(&t, "zebra_edited_token"), keyword_paths(&t, "zebra_added_token"));
        (new == ["live/added.py"] && old.is_empty(), (new, old))
    });

    std::fs::rename(t.path().join("live/added.py"), t.path().join("live/renamed.py")).expect("rename");
    eventually("a renamed file is found under its new name only", Duration::from_secs(30), || {
        let paths = keyword_paths(&t, "zebra_edited_token");
        (paths == ["live/renamed.py"], paths)
    });

    std::fs::remove_file(t.path().join("live/renamed.py")).expect("remove");
    eventually("a deleted file is gone", Duration::from_secs(30), || {
        let paths = keyword_paths(&t, "zebra_edited_token");
        (paths.is_empty(), paths)
    });

    // Vectors follow in the background; then the new code is found by meaning too, and the
    // answer says the index is live with nothing waiting.
    t.write(
        "live/archive.py",
        "def compress_folder(folder):\n    \"\"\"Pack every file of the folder into one zip archive.\"\"\"\n    return make_zip(folder)\n",
    );
    let answer = eventually("the new file is found by meaning", Duration::from_secs(60), || {
        let out = run(t.cmd_db(), &["search", "pack a folder into a zip archive", "--json"]);
        let json = out.json();
        let by_meaning = json["results"]
            .as_array()
            .is_some_and(|r| r.iter().any(|h| h["path"] == "live/archive.py" && h["vector_score"].is_number()));
        (by_meaning && json["freshness"]["pending_embeddings"] == 0, json)
    });
    assert_eq!(answer["freshness"]["state"], "live", "{answer:#}");
    assert!(
        answer["freshness"]["watched_by"]["process"].as_str().is_some_and(|p| p.starts_with("cocosearch watch")),
        "{answer:#}"
    );

    // `stats` says who watches; the index holds exactly the files on disk.
    let stats = run(t.cmd_db(), &["stats", "--json"]);
    assert!(stats.json()["watched_by"]["pid"].is_number(), "{stats:?}");
    let store = t.db_store();
    let held: Vec<String> =
        store.reader(&t.index_name()).expect("reader").file_states(None).expect("states").into_keys().collect();
    let held: Vec<String> = {
        let mut held = held;
        held.sort();
        held
    };
    assert_eq!(held, ["live/archive.py", "src/uploads.py", "src/users.py", "web/app.js"]);
    assert_no_duplicates(&t);
    watch.stop();
    // Stopped: nobody keeps it fresh any more.
    let stats = run(t.cmd_db(), &["stats", "--json"]);
    assert!(stats.json()["watched_by"].is_null(), "{stats:?}");
}

fn module(i: usize, flavour: &str) -> String {
    format!(
        "\"\"\"Module {i} ({flavour}).\"\"\"\n\n\ndef work_{i}(items):\n    \"\"\"Process the items of batch {i} ({flavour}).\"\"\"\n    return [item * {i} for item in items]\n\n\nclass Holder{i}:\n    def value(self):\n        return work_{i}([{i}])\n"
    )
}

#[test]
fn a_branch_switch_under_the_watcher_ends_like_a_clean_index_of_the_new_branch() {
    let t = TestCtx::new("live_checkout");
    git(&t, &["init", "-q", "-b", "main"]);
    for i in 0..300 {
        t.write(&format!("pkg/m{i:03}.py"), module(i, "main"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    git(&t, &["checkout", "-qb", "other"]);
    // The other branch: 100 files changed, 50 removed, 20 renamed, 60 added.
    for i in 0..100 {
        t.write(&format!("pkg/m{i:03}.py"), module(i, "other"));
    }
    for i in 100..150 {
        std::fs::remove_file(t.path().join(format!("pkg/m{i:03}.py"))).expect("remove");
    }
    std::fs::create_dir_all(t.path().join("moved")).expect("mkdir");
    for i in 150..170 {
        std::fs::rename(t.path().join(format!("pkg/m{i:03}.py")), t.path().join(format!("moved/m{i:03}.py")))
            .expect("rename");
    }
    for i in 300..360 {
        t.write(&format!("extra/m{i:03}.py"), module(i, "other"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "other"]);
    git(&t, &["checkout", "-q", "main"]);

    let mut watch = Watch::start(t.cmd_db(), &["--no-embed"]);
    git(&t, &["checkout", "-q", "other"]);

    // A clean index of the new branch, in a store of its own.
    let clean = TestCtx::new("live_checkout_clean");
    let mut index = clean.cmd_db();
    index.current_dir(t.path());
    let out = run(index, &["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let (watched, fresh) = (t.db_store(), clean.db_store());
    let expected = index_contents(fresh.as_ref(), &t.index_name());
    assert_eq!(expected.len(), 310, "the clean index holds the branch's 310 files");
    eventually("the watched index equals a clean index of the branch", Duration::from_secs(60), || {
        let held = index_contents(watched.as_ref(), &t.index_name());
        let differing: Vec<&String> =
            expected.keys().chain(held.keys()).filter(|k| expected.get(*k) != held.get(*k)).collect();
        (differing.is_empty(), differing.len())
    });
    assert_no_duplicates(&t);
    // The checkout came as a burst: a few batches at most, not one per file.
    let batches = watch.drain().iter().filter(|e| e["event"] == "indexed").count();
    assert!((1..=3).contains(&batches), "{batches} batches for one checkout: {:#?}", watch.seen);
    watch.stop();
}

#[test]
fn during_the_vector_phase_every_file_is_found_by_keyword_and_kill_9_loses_nothing() {
    let t = TestCtx::new("live_vector_phase");
    for i in 0..40 {
        t.write(&format!("pkg/f{i:02}.py"), format!("def unique_token_{i:02}(x):\n    return x + {i}\n"));
    }
    let fake = FakeOllama::start(8);
    // The run is held at its first embedding request: by then every file is written.
    let mut held = start_held_run(&t, &fake);
    for i in [0, 17, 39] {
        let token = format!("unique_token_{i:02}");
        assert_eq!(keyword_paths(&t, &token), [format!("pkg/f{i:02}.py")], "{token} during the vector phase");
    }
    let mut search = t.cmd_db();
    search.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let during = run(search, &["search", "unique_token_05", "--keyword", "--json"]);
    assert_eq!(during.json()["freshness"]["pending_embeddings"], 40, "{during:?}");

    held.kill().expect("kill -9 the run");
    let _ = held.wait();
    let store = t.db_store();
    let before = index_contents(store.as_ref(), &t.index_name());
    assert_eq!(before.len(), 40, "every file written in the first phase is kept");

    fake.behaviour.open();
    let mut again = t.cmd_db();
    again.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let out = run(again, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["files"]["unchanged"], 40, "nothing is parsed again: {summary:#}");
    assert_eq!(summary["chunks"]["written"], 0, "{summary:#}");
    assert_eq!(summary["embeddings"]["computed"], 40, "{summary:#}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary:#}");
    assert_eq!(index_contents(store.as_ref(), &t.index_name()), before, "the killed run's work is all there");
}

#[test]
fn a_watcher_waits_for_an_index_run_that_holds_the_index_and_says_so() {
    let t = TestCtx::new("live_one_writer");
    write_sample_project(&t);
    let fake = FakeOllama::start(8);
    let held = start_held_run(&t, &fake);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    // `Watch::start` would wait for `started`; this one must not get there while the run holds
    // the lock.
    let mut child = cmd
        .args(["watch", "--json", "--no-embed"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn cocosearch watch");
    std::thread::sleep(Duration::from_secs(2));
    assert!(child.try_wait().expect("wait").is_none(), "the watcher gave up instead of waiting");
    fake.behaviour.open();
    let first = held.wait_with_output().expect("the held run");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufReader::new(stdout).lines().map_while(Result::ok);
    let waited: Value = serde_json::from_str(&lines.next().expect("a first event")).expect("JSON");
    let started: Value = serde_json::from_str(&lines.next().expect("a second event")).expect("JSON");
    assert_eq!(waited["event"], "waited_for_writer", "{waited}");
    assert_eq!(started["event"], "started", "{started}");
    // The run had written everything: the watcher's first comparison found nothing to do.
    assert_eq!(started["summary"]["files"]["unchanged"], 3, "{started}");
    let _ = child.kill();
    let _ = child.wait();
}

/// A `cocosearch watch` for people (no `--json`): its lines go to a file, read as they come.
struct WatchLines {
    child: Child,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl WatchLines {
    /// Starts `cmd watch ARGS` and waits for its first line (`watching …`).
    fn start(mut cmd: Command, args: &[&str]) -> WatchLines {
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("watch.log");
        let child = cmd
            .arg("watch")
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("spawn cocosearch watch");
        let watch = WatchLines { child, log, _dir: dir };
        eventually("the watcher starts", Duration::from_secs(120), || {
            let text = watch.text();
            (text.contains(" watching "), text)
        });
        watch
    }

    /// Everything it printed so far.
    fn text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Ctrl-C; returns everything it printed.
    fn stop(mut self) -> String {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().expect("kill -INT").success());
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "the watcher exited with {status}");
        self.text()
    }
}

impl Drop for WatchLines {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// Issue 46, item 4. In a clone under `watch`, after checking out stable, main, two tags and main
// again, `stats` said "Live" and "11 modified" at once and `grep` marked hits stale, although
// the index held the files' current content; the batch lines said "0 added · 0 modified · 0
// removed" for checkouts that changed dozens of paths. A file that the last checkout did not
// touch kept the time another checkout gave it, unknown to the snapshot switched back to.
#[test]
fn checkouts_under_the_watcher_keep_freshness_and_each_snapshot_its_commit() {
    let t = TestCtx::new("live_checkouts");
    git(&t, &["init", "-q", "-b", "main"]);
    for i in 0..20 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "one"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "one"]);
    git(&t, &["tag", "v1"]);
    // v2 changes five files that main keeps as they are from then on.
    for i in 0..5 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "two"));
    }
    git(&t, &["commit", "-qam", "two"]);
    git(&t, &["tag", "v2"]);
    for i in 5..8 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "three"));
    }
    git(&t, &["commit", "-qam", "three"]);
    git(&t, &["checkout", "-qb", "stable", "v1"]);
    for i in 10..14 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "stable"));
    }
    git(&t, &["rm", "-q", "pkg/m19.py"]);
    git(&t, &["commit", "-qam", "stable"]);
    git(&t, &["checkout", "-q", "main"]);

    let watch = WatchLines::start(t.cmd_db(), &["--no-embed"]);
    let clean = TestCtx::new("live_checkouts_clean");
    let mut snapshots_seen = Vec::new();
    for rev in ["stable", "main", "v1", "v2", "main"] {
        git(&t, &["checkout", "-q", rev]);
        let head = rev_parse(&t, "HEAD");
        let mut index = clean.cmd_db();
        index.current_dir(t.path());
        let out = run(index, &["index", "--no-embed", "--fresh", "--json"]);
        assert_eq!(out.code, 0, "{out:?}");
        let expected = index_contents(clean.db_store().as_ref(), &t.index_name());
        let watched = t.db_store();
        eventually(&format!("after checking out {rev}, the index equals a clean one"), Duration::from_secs(60), || {
            let held = index_contents(watched.as_ref(), &t.index_name());
            let differing: Vec<String> =
                expected.keys().chain(held.keys()).filter(|k| expected.get(*k) != held.get(*k)).cloned().collect();
            (differing.is_empty(), differing)
        });
        // What the index holds is current, and everything that reports on it says so.
        eventually(&format!("after checking out {rev}, freshness agrees"), Duration::from_secs(30), || {
            let stats = run(t.cmd_db(), &["stats", "--json"]).json();
            let fresh = &stats["freshness"];
            let grep = run(t.cmd_db(), &["grep", "def work_", "--json"]).json();
            let stale: Vec<Value> =
                grep["results"].as_array().into_iter().flatten().filter(|h| h["stale"] != false).cloned().collect();
            let ok = fresh["modified"]["count"] == 0
                && fresh["added"]["count"] == 0
                && fresh["removed"]["count"] == 0
                && fresh["stale"] == false
                && stale.is_empty();
            (ok, (fresh.clone(), stale))
        });
        let listed = run(t.cmd_db(), &["snapshots", "--json"]).json();
        let current = listed["snapshots"].as_array().and_then(|s| s.iter().find(|s| s["current"] == true)).cloned();
        let current = current.unwrap_or_else(|| panic!("no current snapshot: {listed}"));
        assert_eq!(current["commit"], head.as_str(), "the snapshot of {rev} has its commit: {listed}");
        snapshots_seen.push(current["name"].as_str().unwrap_or_default().to_string());
    }
    // Every snapshot kept has the commit it is named after.
    let listed = run(t.cmd_db(), &["snapshots", "--json"]).json();
    for snapshot in listed["snapshots"].as_array().into_iter().flatten() {
        let name = snapshot["name"].as_str().unwrap_or_default();
        assert_eq!(snapshot["commit"], rev_parse(&t, name).as_str(), "{listed}");
    }
    let log = watch.stop();
    // Each checkout's batch names the snapshot it switched to, so a checkout whose files all
    // were as that snapshot held them does not read as a change that was lost.
    let batches = log.lines().filter(|l| l.contains(" added · ") && !l.contains(" watching "));
    let named: Vec<&str> = batches
        .filter_map(|l| l.split("snapshot ").nth(1).and_then(|rest| rest.split([' ', ',', ':', ')']).next()))
        .collect();
    assert_eq!(named, snapshots_seen, "{log}");
}

// Issue 46, item 17. `rm -rf` of 20 watched directories printed 21 lines `WARN … Unable to
// remove the path from the watches … WatchNotFound` (the file-event library's own log): a
// deleted directory's watch is gone with it, which is no news to anyone.
#[test]
fn deleting_watched_directories_prints_no_warning_per_directory() {
    let t = TestCtx::new("live_rm_dirs");
    write_sample_project(&t);
    for i in 0..20 {
        t.write(&format!("gone/d{i:02}/f.py"), format!("def doomed_{i:02}():\n    return {i}\n"));
    }
    let watch = WatchLines::start(t.cmd_db(), &["--no-embed"]);
    std::fs::remove_dir_all(t.path().join("gone")).expect("rm -rf");
    eventually("the deleted files are gone from the index", Duration::from_secs(60), || {
        let paths = keyword_paths(&t, "doomed_07");
        (paths.is_empty(), paths)
    });
    let log = watch.stop();
    assert!(!log.contains("WatchNotFound") && !log.contains("WARN"), "{log}");
    assert!(log.contains(" removed"), "the batch was reported: {log}");
}
