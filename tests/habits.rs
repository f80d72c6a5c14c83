//! The habits people bring from ripgrep, cargo and uv, and the bugs they met (issue 46), each
//! through the real binary on the embedded store: a task on a merge commit shows that task's
//! own changes, bounded; an error creates no index; scores stay within 0..1; a closed stream
//! never makes a command panic.

use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use serde_json::Value;

use crate::cstest;
use crate::support::{TestCtx, run};

/// `cocosearch ARGS` on the test's store, asserting it succeeds; its JSON.
fn ok_json(t: &TestCtx, args: &[&str]) -> Value {
    let out = run(t.cmd_db(), args);
    assert_eq!(out.code, 0, "{args:?}: {out:?}");
    out.json()
}

/// A pipe whose reading end is already closed: the writing end, for a child's stdout or
/// stderr, where every write fails with a broken pipe.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: `pipe` fills two new file descriptors, which are owned here from then on.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    // SAFETY: both descriptors were just created by `pipe` and nothing else owns them.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

cstest!(no_command_panics_on_a_closed_stdout_or_stderr, |t| {
    t.write("src/a.py", "def alpha():\n    return 1\n");
    for round in ["stderr", "stdout"] {
        let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
        assert_eq!(out.code, 0, "{out:?}");
        let mut cmd = t.cmd_db();
        cmd.args(["clear", "--all", "--force"]).stdin(Stdio::null());
        if round == "stdout" {
            cmd.arg("--json");
        }
        if round == "stderr" {
            cmd.stderr(closed_pipe()).stdout(Stdio::piped());
        } else {
            cmd.stdout(closed_pipe()).stderr(Stdio::piped());
        }
        let output = cmd.output().expect("run cocosearch");
        assert_ne!(output.status.code(), Some(101), "{round} closed: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(0), "{round} closed: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(ok_json(&t, &["list", "--json"]), serde_json::json!([]), "{round}: cleared");
    }
    // A command with much to say on stderr, a grep of nothing in a missing directory, too.
    let mut cmd = t.cmd_db();
    cmd.args(["grep", "-v", "needle", "nowhere"]).stdin(Stdio::null()).stderr(closed_pipe()).stdout(Stdio::piped());
    let output = cmd.output().expect("run cocosearch");
    assert_ne!(output.status.code(), Some(101), "{}", String::from_utf8_lossy(&output.stdout));
});

cstest!(an_index_run_that_fails_creates_no_index, |t| {
    let missing = t.path().join("nonexistent").join("dir");
    let out = run(t.cmd_db(), &["index", &missing.display().to_string()]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("does not exist"), "{out:?}");
    assert_eq!(ok_json(&t, &["list", "--json"]), serde_json::json!([]), "an error creates nothing");
    // A file is no directory to index either.
    let file = t.write("file.txt", "text\n");
    let out = run(t.cmd_db(), &["index", &file.display().to_string()]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(ok_json(&t, &["list", "--json"]), serde_json::json!([]), "an error creates nothing");
});

cstest!(definition_scores_stay_within_0_and_1, |t| {
    t.write(
        "src/transfer.py",
        "class Transfer:\n    def resume(self, offset):\n        \"\"\"Continue a partial download from the byte offset.\"\"\"\n        return self.read(offset)\n\n    def close(self):\n        self.connection.close()\n",
    );
    t.write("src/resume.py", "def resume_download(offset):\n    return partial_download(offset)\n");
    let out = run(t.cmd_db(), &["index", "--no-embed", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = ok_json(&t, &["search", "--json", "--keyword", "--definitions", "5", "resume partial download offset"]);
    let definitions = json["definitions"].as_array().expect("definitions");
    assert!(!definitions.is_empty(), "{json}");
    for d in definitions {
        let score = d["score"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&score), "a score out of 0..1: {json:#}");
    }
    for hit in json["results"].as_array().expect("results") {
        let score = hit["score"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&score), "a score out of 0..1: {hit}");
    }
});
