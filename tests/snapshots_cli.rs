//! Snapshots end to end: branches switched and switched back, versions kept and let go,
//! searching one snapshot.

use cocosearch::store::At;
use cocosearch::store::SnapshotCounts;
use serde_json::Value;

use crate::cstest;
use crate::support::fake_ollama::FakeOllama;
use crate::support::{TestCtx, git, index_contents_at, rev_parse, run, start_held_run};

fn module(i: usize, flavour: &str) -> String {
    format!(
        "def work_{i}_{flavour}(items):\n    \"\"\"Batch {i} of {flavour}.\"\"\"\n    return [x * {i} for x in items]\n"
    )
}

fn index(t: &TestCtx, extra: &[&str]) -> Value {
    let mut args = vec!["index", "--json"];
    args.extend_from_slice(extra);
    let out = run(t.cmd_db(), &args);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()
}

fn keyword_paths(t: &TestCtx, query: &str, at: Option<&str>) -> Vec<String> {
    crate::support::keyword_paths_at(t, query, at)
}

/// A clean index of the project as it is checked out now, in a store of its own.
fn clean_contents(t: &TestCtx, label: &str) -> std::collections::BTreeMap<String, String> {
    let clean = TestCtx::on(label, t.backend());
    let mut cmd = clean.cmd_db();
    cmd.current_dir(t.path());
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    index_contents_at(clean.db_store().as_ref(), &t.index_name(), At::Current)
}

cstest!(switching_back_to_a_branch_parses_and_embeds_nothing, both_backends, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    for i in 0..60 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "main"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    let first = index(&t, &[]);
    assert_eq!(first["snapshot"], "main");
    assert_eq!(first["files"]["added"], 60);
    let at_main = clean_contents(&t, "snap_clean_main");

    // Branch `other`: 25 files changed, 5 removed, 10 added.
    git(&t, &["checkout", "-qb", "other"]);
    for i in 0..25 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "other"));
    }
    for i in 55..60 {
        std::fs::remove_file(t.path().join(format!("pkg/m{i:02}.py"))).expect("remove");
    }
    for i in 60..70 {
        t.write(&format!("extra/m{i:02}.py"), module(i, "other"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "other"]);
    let second = index(&t, &[]);
    assert_eq!(second["snapshot"], "other");
    assert_eq!((second["files"]["modified"].as_u64(), second["files"]["added"].as_u64()), (Some(25), Some(10)));
    assert_eq!(second["files"]["removed"], 5);
    let at_other = clean_contents(&t, "snap_clean_other");

    // Back to main: until it is indexed, stats never calls the index fresh.
    git(&t, &["checkout", "-q", "main"]);
    let before = run(t.cmd_db(), &["stats", "--json"]);
    assert_eq!(before.json()["freshness"]["stale"], true, "{before:?}");
    // Every file was seen before.
    let third = index(&t, &[]);
    assert_eq!(third["snapshot"], "main");
    assert_eq!(third["chunks"]["written"], 0, "{third:#}");
    assert_eq!(third["embeddings"]["computed"], 0, "{third:#}");
    let files = &third["files"];
    assert_eq!((files["added"].as_u64(), files["modified"].as_u64()), (Some(0), Some(0)), "{third:#}");

    // Each snapshot reads as a clean index of its branch, through the store.
    let store = t.db_store();
    let snapshots =
        store.reader(&t.index_name()).expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    let id = |name: &str| snapshots.iter().find(|s| s.name == name).map(|s| s.id).expect(name);
    assert_eq!(index_contents_at(store.as_ref(), &t.index_name(), At::Snapshot(id("main"))), at_main);
    assert_eq!(index_contents_at(store.as_ref(), &t.index_name(), At::Snapshot(id("other"))), at_other);
    assert_eq!(index_contents_at(store.as_ref(), &t.index_name(), At::Current), at_main);

    // Searching: the working tree's snapshot by default, another by branch name or commit.
    assert_eq!(keyword_paths(&t, "work_3_other", None), Vec::<String>::new());
    assert_eq!(keyword_paths(&t, "work_3_other", Some("other")), ["pkg/m03.py"]);
    let commit = snapshots.iter().find(|s| s.name == "other").and_then(|s| s.git_commit.clone()).expect("commit");
    assert_eq!(keyword_paths(&t, "work_65_other", Some(&commit[..8])), ["extra/m65.py"]);
    let unknown = run(t.cmd_db(), &["search", "--keyword", "work", "--at", "nowhere"]);
    assert_ne!(unknown.code, 0);
    assert!(unknown.stderr.contains("no snapshot") && unknown.stderr.contains("other"), "{unknown:?}");

    // Stats and the code graph read a snapshot too.
    let stats = run(t.cmd_db(), &["stats", "--json", "--at", "other"]);
    assert_eq!(stats.code, 0, "{stats:?}");
    assert_eq!(stats.json()["files"], 65, "{stats:?}");
    let now = run(t.cmd_db(), &["stats", "--json"]).json();
    assert_eq!((now["files"].as_u64(), now["freshness"]["stale"].as_bool()), (Some(60), Some(false)), "{now}");
    // The 30 files the branches share hold the same texts: stored once for both snapshots.
    let chunks = |stats: &serde_json::Value| stats["chunks"].as_u64().expect("chunks");
    let (main_chunks, other_chunks) = (chunks(&now), chunks(&stats.json()));
    let stored = now["stored_texts"].as_u64().expect("stored texts");
    assert!(
        main_chunks < stored && stored < main_chunks + other_chunks,
        "{stored} texts for {main_chunks} + {other_chunks}"
    );
    let text = run(t.cmd_db(), &["stats"]);
    assert!(text.stdout.contains(&format!("{stored} chunk texts, each stored once")), "{text:?}");
    let symbol = |at: Option<&str>| {
        let mut args = vec!["symbol", "work_65_other", "--json"];
        args.extend(at.map(|a| ["--at", a]).into_iter().flatten());
        let out = run(t.cmd_db(), &args);
        assert_eq!(out.code, 0, "{out:?}");
        out.json()["results"].as_array().map_or(0, Vec::len)
    };
    assert_eq!((symbol(None), symbol(Some("other"))), (0, 1));

    let listed = run(t.cmd_db(), &["snapshots", "--json"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    let names: Vec<(String, bool)> = listed.json()["snapshots"]
        .as_array()
        .expect("snapshots")
        .iter()
        .map(|s| (s["name"].as_str().unwrap_or_default().to_string(), s["current"] == true))
        .collect();
    assert_eq!(names, [("main".to_string(), true), ("other".to_string(), false)]);
});

cstest!(keep_snapshots_lets_the_oldest_version_go_with_what_only_it_stored, |t| {
    let version = |v: usize| {
        t.write("core.py", "def core():\n    return 'same in every version'\n");
        t.write("version.py", format!("def release_{v}():\n    return {v}\n"));
    };
    for v in 1..=3 {
        version(v);
        let out = run(
            {
                let mut cmd = t.cmd_db();
                cmd.env("COCOSEARCH_INDEXING_KEEP_SNAPSHOTS", "1");
                cmd
            },
            &["index", "--json", "--snapshot", &format!("v{v}")],
        );
        assert_eq!(out.code, 0, "{out:?}");
        let summary = out.json();
        // Only v3's run has two older snapshots, of which one is kept.
        assert_eq!(summary["snapshots_deleted"], if v == 3 { 1 } else { 0 }, "{summary:#}");
        assert_eq!(summary["files_collected"], if v == 3 { 1 } else { 0 }, "{summary:#}");
    }
    let store = t.db_store();
    let reader = store.reader(&t.index_name()).expect("reader");
    let names: Vec<String> =
        reader.snapshots(SnapshotCounts::Counted).expect("snapshots").into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["v2", "v3"]);
    let versions = reader.stored_versions(None).expect("versions");
    assert_eq!(versions["core.py"].len(), 1, "unchanged content is stored once");
    assert_eq!(versions["version.py"].len(), 2, "v1's version.py went with v1");
    assert_eq!(keyword_paths(&t, "release_1", Some("v2")), Vec::<String>::new());
    assert_eq!(keyword_paths(&t, "release_2", Some("v2")), ["version.py"]);
    let gone = run(t.cmd_db(), &["search", "--keyword", "release_1", "--at", "v1"]);
    assert_ne!(gone.code, 0, "{gone:?}");
});

cstest!(a_snapshot_deleted_by_name_takes_only_what_it_alone_stored, |t| {
    for v in 1..=3 {
        t.write("core.py", "def core():\n    return 'same in every version'\n");
        t.write("version.py", format!("def release_{v}():\n    return {v}\n"));
        let out = run(t.cmd_db(), &["index", "--json", "--no-embed", "--snapshot", &format!("v{v}")]);
        assert_eq!(out.code, 0, "{out:?}");
    }
    let out = run(t.cmd_db(), &["snapshots", "--json", "--delete", "v1", "--delete", "v2"]);
    assert_eq!(out.code, 0, "{out:?}");
    let deleted = out.json();
    assert_eq!(deleted["deleted"], serde_json::json!(["v1", "v2"]), "{deleted}");
    assert_eq!(deleted["files_collected"], 2, "v1's and v2's version.py; core.py stays: {deleted}");
    let names: Vec<String> = t
        .db_store()
        .reader(&t.index_name())
        .expect("reader")
        .snapshots(SnapshotCounts::Counted)
        .expect("snapshots")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["v3"]);
    assert_eq!(keyword_paths(&t, "release_3", None), ["version.py"]);
    assert_eq!(keyword_paths(&t, "core", None), ["core.py"]);

    // The current snapshot, and one that does not exist, are refused; nothing is deleted.
    let current = run(t.cmd_db(), &["snapshots", "--delete", "v3"]);
    assert_eq!(current.code, 2, "{current:?}");
    assert!(current.stderr.contains("v3 is the current snapshot"), "{current:?}");
    let unknown = run(t.cmd_db(), &["snapshots", "--delete", "v1"]);
    assert_ne!(unknown.code, 0, "{unknown:?}");
    assert!(unknown.stderr.contains("no snapshot") && unknown.stderr.contains("v3"), "{unknown:?}");
    assert_eq!(keyword_paths(&t, "release_3", None), ["version.py"]);
});

/// What the store holds is exactly what its snapshots hold: every stored version of a path is
/// some snapshot's, and no snapshot holds a version the store lacks.
fn assert_consistent(t: &TestCtx) {
    let store = t.db_store();
    let name = t.index_name();
    let reader = store.reader(&name).expect("reader");
    let mut stored: Vec<(String, [u8; 32])> = reader
        .stored_versions(None)
        .expect("versions")
        .into_iter()
        .flat_map(|(path, versions)| versions.into_iter().map(move |v| (path.clone(), v.hash)))
        .collect();
    stored.sort();
    let mut held: Vec<(String, [u8; 32])> = Vec::new();
    for snapshot in reader.snapshots(SnapshotCounts::Counted).expect("snapshots") {
        let states =
            store.reader_at(&name, At::Snapshot(snapshot.id)).expect("reader").file_states(None).expect("states");
        assert_eq!(states.len() as u64, snapshot.files, "snapshot {} counts what it holds", snapshot.name);
        held.extend(states.into_iter().map(|(path, s)| (path, s.hash)));
    }
    held.sort();
    held.dedup();
    assert_eq!(stored, held, "every stored version is held by a snapshot, and only those");
}

cstest!(kill_9_while_a_snapshot_is_made_or_collected_leaves_a_consistent_store, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    // Enough files that a run outlasts several kills even on a fast machine (about 140 ms for
    // the branch switch in a debug build); the kills come every 15–40 ms at first.
    for i in 0..600 {
        t.write(&format!("pkg/m{i:03}.py"), module(i, "main"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    let keep_none = |t: &TestCtx| {
        let mut cmd = t.cmd_db();
        cmd.env("COCOSEARCH_INDEXING_KEEP_SNAPSHOTS", "0");
        cmd
    };
    assert_eq!(run(keep_none(&t), &["index", "--no-embed", "--json"]).code, 0);
    git(&t, &["checkout", "-qb", "other"]);
    for i in 0..450 {
        t.write(&format!("pkg/m{i:03}.py"), module(i, "other"));
    }
    git(&t, &["commit", "-qam", "other"]);
    // Runs killed earlier and later: in the snapshot's creation, its writes, and the collection
    // of main's snapshot (keepSnapshots 0) with the 450 versions only it held.
    let (mut finished, mut killed) = (false, 0);
    for millis in [15u64, 30, 45, 60, 80, 100, 130, 170, 250, 400, 600, 900, 1400, 2000] {
        let (code, _, stderr) = crate::support::bytes_within(
            with_args(keep_none(&t), &["index", "--no-embed"]),
            std::time::Duration::from_millis(millis),
        );
        assert_consistent(&t);
        killed += usize::from(code.is_none());
        if code.is_some() {
            assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&stderr));
            finished = true;
            break;
        }
    }
    assert!(killed >= 2, "the runs were killed {killed} times: the kills must land inside runs");
    assert!(finished || run(keep_none(&t), &["index", "--no-embed"]).code == 0);
    let last = run(keep_none(&t), &["index", "--no-embed", "--json"]);
    assert_eq!(last.code, 0, "{last:?}");
    assert_consistent(&t);
    let store = t.db_store();
    let snapshots =
        store.reader(&t.index_name()).expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!(snapshots.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["other"], "main was let go");
    let versions = store.reader(&t.index_name()).expect("reader").stored_versions(None).expect("versions");
    assert_eq!(versions.values().map(Vec::len).sum::<usize>(), 600, "only other's versions are stored");
    let clean_ctx = TestCtx::new("snap_kill_clean_store");
    let mut clean_cmd = clean_ctx.cmd_db();
    clean_cmd.current_dir(t.path());
    assert_eq!(run(clean_cmd, &["index", "--no-embed"]).code, 0);
    assert_eq!(
        index_contents_at(store.as_ref(), &t.index_name(), At::Current),
        index_contents_at(clean_ctx.db_store().as_ref(), &t.index_name(), At::Current),
        "after the kills, the index equals a clean index of the branch"
    );
});

fn with_args(mut cmd: std::process::Command, args: &[&str]) -> std::process::Command {
    cmd.args(args);
    cmd
}

cstest!(mcp_tools_read_the_snapshot_at_names, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    t.write("core.py", "def shared_core():\n    return 1\n");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);
    git(&t, &["checkout", "-qb", "other"]);
    t.write("feature.py", "def only_on_other_branch():\n    return shared_core()\n");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "other"]);
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);
    git(&t, &["checkout", "-q", "main"]);
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);

    let project = crate::mcp_server::root(&t);
    let calls = serde_json::json!([
        {"tool": "search_code", "args": {"query": "only_on_other_branch", "limit": 5}},
        {"tool": "search_code", "args": {"query": "only_on_other_branch", "limit": 5, "at": "other"}},
        {"tool": "find_symbol", "args": {"name": "only_on_other_branch"}},
        {"tool": "find_symbol", "args": {"name": "only_on_other_branch", "at": "other"}},
        {"tool": "search_code", "args": {"query": "shared_core", "at": "nowhere"}},
        {"tool": "grep_code", "args": {"pattern": "only_on_other_branch"}},
        {"tool": "grep_code", "args": {"pattern": "only_on_other_branch", "at": "other"}},
    ])
    .to_string();
    let report = crate::mcp_server::scenario(
        &t.cmd_db(),
        "calls",
        &["--project", &project, "--cwd", &project, "--calls", &calls],
    );
    let results = report["results"].as_array().expect("results");
    let found = |i: usize| crate::mcp_server::paths(&results[i]).contains(&"feature.py".to_string());
    assert!(!found(0), "the working tree (main) has no feature.py: {}", results[0]);
    assert!(found(1), "at other it is found: {}", results[1]);
    let symbol = |i: usize| crate::mcp_server::text(&results[i]).contains("feature.py");
    assert!(!symbol(2), "{}", results[2]);
    assert!(symbol(3), "{}", results[3]);
    assert_eq!(results[4]["is_error"], true, "{}", results[4]);
    let message = crate::mcp_server::text(&results[4]);
    assert!(message.contains("no snapshot") && message.contains("other"), "{message}");
    let grepped = |i: usize| crate::mcp_server::paths(&results[i]);
    assert_eq!(grepped(5), Vec::<String>::new(), "{}", results[5]);
    assert_eq!(grepped(6), ["feature.py"], "{}", results[6]);
});

cstest!(grep_at_a_snapshot_reads_the_files_it_stored_line_for_line, both_backends, |t| {
    // Blank lines, tab indentation and a trailing blank line: what no chunk holds.
    let on_main =
        "import os\n\n\nclass Store:\n\tdef needle(self):\n\t\treturn os.sep\n\n\n\tdef other(self):\n\t\tpass\n\n";
    git(&t, &["init", "-q", "-b", "main"]);
    t.write("pkg/store.py", on_main);
    t.write("docs/notes.md", "# Notes\n\nThe needle is here.\n");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    assert_eq!(index(&t, &["--no-embed"])["snapshot"], "main");
    git(&t, &["checkout", "-qb", "other"]);
    t.write("pkg/store.py", format!("# moved down\n# by three\n# lines\n{on_main}"));
    std::fs::remove_file(t.path().join("docs/notes.md")).expect("remove");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "other"]);
    assert_eq!(index(&t, &["--no-embed"])["snapshot"], "other");

    let grep = |args: &[&str]| {
        let mut all = vec!["grep", "--no-heading"];
        all.extend_from_slice(args);
        let out = run(t.cmd_db(), &all);
        assert!(out.code <= 1, "{out:?}");
        out.stdout
    };
    // On disk (other): the definition three lines down, and no notes.
    assert_eq!(grep(&["needle"]), "pkg/store.py:8:6:\tdef needle(self):\n");
    assert_eq!(
        grep(&["--at", "main", "needle"]),
        "docs/notes.md:3:5:The needle is here.\npkg/store.py:5:6:\tdef needle(self):\n"
    );
    // Every line of the stored file, on its own number, byte for byte.
    let whole: String =
        on_main.lines().enumerate().map(|(i, line)| format!("pkg/store.py:{}:1:{line}\n", i + 1)).collect();
    assert_eq!(grep(&["", "--at", "main", "pkg/store.py"]), whole);
    assert_eq!(grep(&["--files", "--at", "main"]), "docs/notes.md\npkg/store.py\n");
    assert_eq!(grep(&["--files"]), "pkg/store.py\n");

    // Matches name the definition the snapshot recorded.
    let out = run(t.cmd_db(), &["grep", "--json", "--at", "main", "return os.sep"]);
    assert_eq!(out.code, 0, "{out:?}");
    let hit = &out.json()["results"][0];
    assert_eq!((hit["start_line"].as_u64(), hit["symbol"]["name"].as_str()), (Some(6), Some("needle")), "{hit:#}");

    let unknown = run(t.cmd_db(), &["grep", "needle", "--at", "nowhere"]);
    assert_ne!(unknown.code, 0);
    assert!(unknown.stderr.contains("no snapshot") && unknown.stderr.contains("main"), "{unknown:?}");
});

cstest!(two_worktrees_share_one_index_each_reading_its_own_snapshot, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    for i in 0..30 {
        t.write(&format!("pkg/m{i:02}.py"), module(i, "main"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    assert_eq!(index(&t, &["--no-embed"])["files"]["added"], 30);

    // A second worktree, on a branch changing one file and adding another.
    let worktree = t.path().with_file_name(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
    git(&t, &["worktree", "add", "-q", "-b", "feature", &worktree.display().to_string()]);
    std::fs::write(worktree.join("pkg/m03.py"), module(3, "feature")).expect("write");
    std::fs::write(worktree.join("pkg/new.py"), module(99, "feature")).expect("write");
    let in_worktree = |args: &[&str]| {
        let mut cmd = t.cmd_db();
        cmd.current_dir(&worktree);
        run(cmd, args)
    };
    let out = in_worktree(&["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["index"], t.index_name(), "the worktree finds the repository's index");
    assert_eq!(summary["snapshot"], "feature");
    let files = &summary["files"];
    assert_eq!((files["added"].as_u64(), files["modified"].as_u64()), (Some(1), Some(1)), "{summary:#}");
    assert_eq!(summary["chunks"]["written"], 2, "only the two changed files are parsed: {summary:#}");
    let listed = run(t.cmd_db(), &["list", "--json"]);
    assert_eq!(listed.json().as_array().map(Vec::len), Some(1), "{listed:?}");

    // Each worktree reads its own snapshot, whichever ran last.
    let search = |out: crate::support::Run| -> Vec<String> {
        assert_eq!(out.code, 0, "{out:?}");
        let mut paths: Vec<String> = out.json()["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter(|h| h["content"].as_str().is_some_and(|c| c.contains("work_99_feature")))
            .filter_map(|h| h["path"].as_str().map(str::to_string))
            .collect();
        paths.dedup();
        paths
    };
    let query = ["search", "--keyword", "--json", "work_99_feature"];
    assert_eq!(search(in_worktree(&query)), ["pkg/new.py"]);
    assert_eq!(search(run(t.cmd_db(), &query)), Vec::<String>::new(), "the main worktree does not have it");
    let _ = std::fs::remove_dir_all(&worktree);
});

// A hit of another snapshot is that snapshot's stored text: it is never "changed since
// indexed" because the working tree no longer has (or has another) file at its path, and the
// answer says nothing of the working tree's freshness.
cstest!(a_search_at_an_old_snapshot_is_not_stale_by_the_working_tree, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    t.write("legacy.py", "def legacy_digest(path):\n    \"\"\"The old way, with MD5.\"\"\"\n    return md5(path)\n");
    t.write("kept.py", "def kept(x):\n    return x\n");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "old"]);
    index(&t, &["--snapshot", "v1"]);
    git(&t, &["rm", "-q", "legacy.py"]);
    git(&t, &["commit", "-qm", "new"]);
    index(&t, &[]);
    let out = run(t.cmd_db(), &["search", "--json", "--keyword", "--at", "v1", "legacy_digest"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let hits = json["results"].as_array().expect("results");
    let legacy: Vec<&Value> = hits.iter().filter(|h| h["path"] == "legacy.py").collect();
    assert_eq!(legacy.len(), 1, "{json}");
    assert_eq!(legacy[0]["stale"], false, "{json}");
    assert!(legacy[0]["content"].as_str().is_some_and(|c| c.contains("def legacy_digest")), "{json}");
    assert_eq!(json["freshness"], Value::Null, "{json}");
});

// Issue 46, item 4. A snapshot of `stable` was once stored with main's commit, so `search --at`
// stable's commit failed: a run read HEAD again when it ended and gave its snapshot whatever
// was checked out by then. A run's snapshot keeps the commit it began with.
cstest!(a_checkout_during_a_run_does_not_rename_its_snapshot_commit, |t| {
    git(&t, &["init", "-q", "-b", "main"]);
    for i in 0..5 {
        t.write(&format!("pkg/m{i}.py"), module(i, "main"));
    }
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "main"]);
    git(&t, &["checkout", "-qb", "other"]);
    t.write("pkg/m0.py", module(0, "other"));
    git(&t, &["commit", "-qam", "other"]);
    git(&t, &["checkout", "-q", "main"]);

    let fake = FakeOllama::start(8);
    let held = start_held_run(&t, &fake);
    // The run has read main's files and waits for its vectors; HEAD moves meanwhile.
    git(&t, &["checkout", "-q", "other"]);
    fake.behaviour.open();
    let out = held.wait_with_output().expect("the held run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["snapshot"], "main", "{summary}");
    assert_eq!(summary["git_commit"], rev_parse(&t, "main"), "{summary}");

    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let listed = run(cmd, &["snapshots", "--json"]).json();
    let main = listed["snapshots"].as_array().and_then(|s| s.iter().find(|s| s["name"] == "main")).cloned();
    assert_eq!(main.map(|s| s["commit"].clone()), Some(rev_parse(&t, "main").into()), "{listed}");
    let out = run(t.cmd_db(), &["search", "work_0_main", "--keyword", "--json", "--at", &rev_parse(&t, "main")]);
    assert_eq!(out.code, 0, "main's commit names the snapshot taken at it: {out:?}");
});
