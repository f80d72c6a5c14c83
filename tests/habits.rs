//! The habits people bring from ripgrep, cargo and uv, and the bugs they met (issue 46), each
//! through the real binary on the embedded store: a task on a merge commit shows that task's
//! own changes, bounded; an error creates no index; scores stay within 0..1; a closed stream
//! never makes a command panic.

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

use serde_json::Value;

use crate::cstest;
use crate::dashboard::git;
use crate::support::{Run, TestCtx, run};

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

/// A repository on `main` whose last commit merges `feat` (30 new modules) after `main` got 40
/// files of its own; returns the merge commit's id.
fn merged_repository(t: &TestCtx) -> String {
    std::fs::remove_dir_all(t.path().join(".git")).expect("remove the marker .git");
    git(t.path(), &["init", "-q", "-b", "main"]);
    t.write("src/base.py", "def base():\n    return 0\n");
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "base"]);
    git(t.path(), &["checkout", "-q", "-b", "feat"]);
    for i in 0..30 {
        t.write(
            &format!("src/feat_{i:02}.py"),
            format!("from base import base\n\n\ndef feature_{i}():\n    return base()\n\n\ndef helper_{i}():\n    return {i}\n"),
        );
    }
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "feat"]);
    git(t.path(), &["checkout", "-q", "main"]);
    for i in 0..40 {
        t.write(&format!("other/main_{i:02}.py"), format!("def someone_elses_{i}():\n    return {i}\n"));
    }
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "someone else's work"]);
    git(t.path(), &["merge", "-q", "--no-ff", "-m", "merge feat", "feat"]);
    git(t.path(), &["rev-parse", "HEAD"]).trim().to_string()
}

fn task(t: &TestCtx, args: &[&str]) -> Run {
    run(t.cmd_db(), &[&["task"], args].concat())
}

cstest!(task_show_on_a_merge_commit_is_the_tasks_own_changes_bounded, |t| {
    let merge = merged_repository(&t);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let added = ok_json(&t, &["task", "add", "Ship the feature", "--commit", &merge, "--json"]);
    let id = added["id"].as_str().expect("id").to_string();

    // The merge's own change is its first-parent diff: the feature's 30 files, none of main's.
    let shown = ok_json(&t, &["task", "show", &id, "--json", "--full"]);
    let commit = &shown["code"]["commits"][0];
    let paths: Vec<&str> =
        commit["files"].as_array().expect("files").iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(paths.len(), 30, "{paths:?}");
    assert!(paths.iter().all(|p| p.starts_with("src/feat_")), "someone else's changes listed: {paths:?}");
    assert_eq!(commit["changes"]["added"], 30, "{commit}");

    // The default is a summary: the counts first, a few files, and how to see the rest.
    let text = task(&t, &["show", &id]);
    assert_eq!(text.code, 0, "{text:?}");
    assert!(text.stdout.lines().count() <= 25, "{} lines:\n{}", text.stdout.lines().count(), text.stdout);
    assert!(text.stdout.contains("30 files changed: 30 added"), "{text:?}");
    assert!(text.stdout.contains("--full"), "{text:?}");
    assert!(!text.stdout.contains("other/main_"), "{text:?}");
    let summary = ok_json(&t, &["task", "show", &id, "--json"]);
    let listed = summary["code"]["commits"][0]["files"].as_array().expect("files").len();
    assert!(listed <= 10, "{listed} files in the summary");
    assert_eq!(summary["code"]["commits"][0]["truncated"], true);
    assert!(summary.to_string().len() < 20_000, "{} bytes", summary.to_string().len());
    // --full lists every file with its definitions.
    let full = task(&t, &["show", &id, "--full"]);
    assert_eq!(full.code, 0, "{full:?}");
    assert!(full.stdout.contains("src/feat_29.py") && full.stdout.contains("helper_29"), "{full:?}");

    // `add --here` links the branch the task is on, not the commit it starts from: that commit
    // is someone else's change.
    let here = ok_json(&t, &["task", "add", "Next step", "--here", "--json"]);
    assert_eq!(here["branches"], serde_json::json!(["main"]), "{here}");
    assert_eq!(here["commits"], serde_json::json!([]), "{here}");
    let id = here["id"].as_str().expect("id");
    let shown = ok_json(&t, &["task", "show", id, "--json"]);
    assert_eq!(shown["code"]["commits"], serde_json::json!([]), "{shown}");
});

cstest!(a_project_configuration_is_shown_before_it_is_trusted_and_warns_once, |t| {
    t.write("src/a.py", "def retry_upload(path):\n    return path\n");
    // A key written without a value sets nothing, so it needs no trust.
    t.write("cocosearch.yaml", "embedding:\n  baseUrl: null\n");
    let out = run(t.cmd_db(), &["config", "show"]);
    assert_eq!(out.code, 0, "{out:?}");

    // Untrusted, the file stops every command that acts on it, and `config show`, which the
    // refusal tells the user to read it with, shows it with what is not applied.
    t.write(
        "cocosearch.yaml",
        "linkedIndexes: [not_indexed_yet]\nembedding:\n  baseUrl: http://127.0.0.1:9/v1\nlogging:\n  file: true\n",
    );
    let refused = run(t.cmd_db(), &["search", "--keyword", "retry_upload"]);
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(refused.stderr.contains("config trust"), "{refused:?}");
    let shown = run(t.cmd_db(), &["config", "show"]);
    assert_eq!(shown.code, 0, "{shown:?}");
    assert!(shown.stdout.contains("cocosearch.yaml"), "{shown:?}");
    assert!(shown.stdout.contains("not trusted, so not applied: linkedIndexes, embedding.baseUrl"), "{shown:?}");
    let json = ok_json(&t, &["config", "show", "--json"]);
    assert_eq!(
        json["config_file"]["untrusted_keys_left_out"],
        serde_json::json!(["linkedIndexes", "embedding.baseUrl"]),
        "{json:#}"
    );
    let path = run(t.cmd_db(), &["config", "path"]);
    assert_eq!((path.code, path.stdout.trim()), (0, t.path().join("cocosearch.yaml").display().to_string().as_str()));

    // Trusted: a linked index not indexed yet is left out of each search, which says so; the
    // configuration's own warning is told once.
    let out = run(t.cmd_db(), &["config", "trust"]);
    assert_eq!(out.code, 0, "{out:?}");
    let index = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(index.code, 0, "{index:?}");
    let first = run(t.cmd_db(), &["stats"]);
    assert_eq!(first.code, 0, "{first:?}");
    assert!(first.stderr.contains("logging.file"), "told the first time: {first:?}");
    let search = run(t.cmd_db(), &["search", "--keyword", "--compact", "retry_upload"]);
    assert_eq!(search.code, 0, "{search:?}");
    assert!(search.stdout.contains("src/a.py:1"), "{search:?}");
    assert!(search.stderr.contains("linked index not_indexed_yet does not exist yet"), "{search:?}");
    assert!(!search.stderr.contains("logging.file"), "told once, not on every command: {search:?}");
    let json = ok_json(&t, &["search", "--keyword", "--json", "retry_upload"]);
    assert_eq!(json["results"][0]["path"], "src/a.py", "{json:#}");
    assert!(json["warnings"][0].as_str().is_some_and(|w| w.contains("not_indexed_yet")), "{json:#}");
    // Where a person looks at the configuration, every time.
    let again = run(t.cmd_db(), &["config", "show"]);
    assert!(again.stderr.contains("logging.file"), "{again:?}");
});

cstest!(config_path_show_and_help_name_the_user_config, |t| {
    let user = t.user_config_dir().join("cocosearch").join("config.yaml");
    std::fs::create_dir_all(user.parent().expect("parent")).expect("mkdir");
    std::fs::write(&user, "search:\n  resultLimit: 7\n").expect("write the user config");
    let path = run(t.cmd_db(), &["config", "path"]);
    assert_eq!((path.code, path.stdout.trim()), (0, user.display().to_string().as_str()), "{path:?}");
    let json = ok_json(&t, &["config", "path", "--json"]);
    assert_eq!(json["user_config_file"], user.display().to_string(), "{json}");
    let shown = run(t.cmd_db(), &["config", "show"]);
    assert_eq!(shown.code, 0, "{shown:?}");
    assert!(!shown.stdout.contains("defaults only"), "{shown:?}");
    assert!(shown.stdout.contains("the user config, the environment and defaults apply"), "{shown:?}");
    let help = run(t.cmd(), &["--help"]);
    assert!(help.stdout.contains("config.yaml"), "the precedence names the user config: {help:?}");
});

cstest!(a_deeply_nested_configuration_is_refused_before_it_is_parsed, |t| {
    t.write("cocosearch.yaml", format!("indexName: {}\n", "[".repeat(200_000)));
    // The parser would take minutes (48 s of CPU in a release build); refused first, it takes
    // milliseconds. The bound is generous: it only tells the two apart.
    let mut cmd = t.cmd_db();
    cmd.args(["config", "show"]);
    let (code, _, stderr) = crate::support::bytes_within(cmd, std::time::Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&stderr);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("nested 200000 deep"), "{stderr}");
    // A file far larger than any settings file is refused for its size.
    t.write("cocosearch.yaml", format!("# {}\nindexName: x\n", "x".repeat(2 << 20)));
    let out = run(t.cmd_db(), &["stats"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("larger than 1024 KiB"), "{out:?}");
});

cstest!(terminal_controls_and_bidi_are_escaped_in_every_human_output_and_exact_in_json, |t| {
    t.write("esc.py", "# \x1b]0;PWNED\x07 needle\n");
    t.write("name\x1b[2Jclear.py", "needle = 1\n");
    t.write("bidi.py", "access = 'user\u{202e} \u{2066}// admin\u{2069} \u{2066}' # needle\u{200b}\n");
    let raw = |text: &str| text.contains('\x1b') && !text.contains("\\x1b") || text.contains('\x07');
    let hidden = |text: &str| text.chars().any(|c| matches!(c, '\u{202e}' | '\u{2066}' | '\u{2069}' | '\u{200b}'));
    for args in [&["grep", "needle"][..], &["grep", "--color", "always", "needle"], &["grep", "--heading", "needle"]] {
        let out = run(t.cmd(), args);
        assert_eq!(out.code, 0, "{out:?}");
        // With --color always, colour codes are ours; the file's OSC and BEL are not.
        let text = console::strip_ansi_codes(&out.stdout);
        assert!(!raw(&text) && !hidden(&text), "{args:?} wrote raw controls: {:?}", out.stdout);
        assert!(text.contains("\\x1b]0;PWNED\\x07 needle"), "{args:?}: {text:?}");
        assert!(text.contains("name\\x1b[2Jclear.py"), "{args:?}: {text:?}");
        assert!(text.contains("\\u{202e}"), "{args:?}: {text:?}");
    }
    let files = run(t.cmd(), &["grep", "--files"]);
    assert!(!raw(&files.stdout) && files.stdout.contains("name\\x1b[2Jclear.py"), "{files:?}");
    // JSON keeps the text exact.
    let json = run(t.cmd(), &["grep", "--json", "PWNED"]).json();
    assert_eq!(json["results"][0]["content"], "# \x1b]0;PWNED\x07 needle", "{json}");

    // Indexed, then searched: the same in search's text.
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(t.cmd_db(), &["search", "--keyword", "--color", "always", "admin access"]);
    assert_eq!(out.code, 0, "{out:?}");
    let text = console::strip_ansi_codes(&out.stdout);
    assert!(text.contains("bidi.py") && !hidden(&text), "{text:?}");

    // A task's title with a right-to-left override and a zero-width space.
    let title = "Fix \u{202e}nimda\u{202c} login\u{200b}";
    let added = ok_json(&t, &["task", "add", title, "--json"]);
    assert_eq!(added["title"], title, "JSON keeps the title exact");
    let list = run(t.cmd_db(), &["task", "list"]);
    assert!(!hidden(&list.stdout) && list.stdout.contains("Fix \\u{202e}nimda\\u{202c} login\\u{200b}"), "{list:?}");
});

cstest!(files_whose_names_are_not_utf8_are_indexed_and_grepped, |t| {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.py");
    std::fs::write(t.path().join(name), "def latin_named_function():\n    return 1\n").expect("write");
    t.write("plain.py", "def plain_function():\n    return latin_named_function()\n");
    // grep opens the real file and names it lossily, as rg does.
    let out = run(t.cmd(), &["grep", "-F", "def latin_named_function"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "caf\u{fffd}.py:1:1:def latin_named_function():\n", "{out:?}");
    assert!(!out.stderr.contains("unreadable"), "{out:?}");
    let files = run(t.cmd(), &["grep", "--files"]);
    assert!(files.stdout.contains("caf\u{fffd}.py"), "{files:?}");
    // The index holds it too.
    let summary = ok_json(&t, &["index", "--no-embed", "--json"]);
    assert_eq!(summary["skipped"].get("unreadable"), None, "{summary:#}");
    let json = ok_json(&t, &["search", "--keyword", "--json", "latin_named_function"]);
    let paths: Vec<&str> =
        json["results"].as_array().expect("results").iter().filter_map(|h| h["path"].as_str()).collect();
    assert!(paths.contains(&"caf\u{fffd}.py"), "{json:#}");
});

/// `cocosearch grep ours` and `rg theirs` (colourless, in path order) in the project.
fn ours_and_rgs(t: &TestCtx, ours: &[&str], theirs: &[&str]) -> (Run, String) {
    let out = run(t.cmd(), &[&["grep"], ours].concat());
    let rg = std::process::Command::new(crate::grep_cli::rg())
        .current_dir(t.path())
        .args(["--color", "never", "--sort", "path"])
        .args(theirs)
        .output()
        .expect("run rg");
    (out, String::from_utf8_lossy(&rg.stdout).into_owned())
}

cstest!(grep_takes_ripgreps_flags_and_reports_what_it_cannot_read, |t| {
    t.write("src/app.py", "def foo(x):\n    return foo(x) + foo(1)\n");
    t.write("src/other.py", "# foo bar\nbar = 'foo'\n");
    let cases: [(&[&str], &[&str]); 7] = [
        (&["-n", "-H", "--column", "foo"], &["-n", "-H", "--column", "--no-heading", "foo"]),
        (&["-o", "foo"], &["-n", "--column", "--no-heading", "-o", "foo"]),
        (&["--vimgrep", "foo"], &["--vimgrep", "foo"]),
        (&["-N", "foo"], &["-N", "-H", "--no-heading", "foo"]),
        (&["--no-column", "foo"], &["-n", "-H", "--no-heading", "foo"]),
        (&["-r", "bar($1)", r"foo\((\w)\)"], &["-n", "--column", "--no-heading", "-r", "bar($1)", r"foo\((\w)\)"]),
        (&["--sortr", "path", "--hidden", "foo"], &["-n", "--column", "--no-heading", "--sortr", "path", "foo"]),
    ];
    for (ours, theirs) in cases {
        let (out, rg) = ours_and_rgs(&t, ours, theirs);
        assert_eq!(out.code, 0, "{ours:?}: {out:?}");
        assert!(!rg.is_empty(), "{theirs:?}: rg found nothing");
        assert_eq!(out.stdout, rg, "{ours:?} against rg {theirs:?}");
    }
    // The index grep reads definitions from is --index alone: -n is rg's, and takes no value.
    let named = run(t.cmd_db(), &["grep", "--index", &t.index_name(), "-n", "foo", "src/app.py"]);
    assert_eq!((named.code, named.stdout.lines().count()), (0, 2), "{named:?}");

    // A missing path is rg's error and exit code 2; the paths that exist are still searched.
    let (out, _) = ours_and_rgs(&t, &["foo", "nosuch", "src/other.py"], &[]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("cocosearch: nosuch: No such file or directory (os error 2)"), "{out:?}");
    assert_eq!(out.stdout, "src/other.py:1:3:# foo bar\nsrc/other.py:2:8:bar = 'foo'\n", "{out:?}");
    let listed = run(t.cmd(), &["grep", "--files", "nosuch"]);
    assert_eq!(listed.code, 2, "{listed:?}");
    // -P is refused with the reason and what to do.
    let pcre = run(t.cmd(), &["grep", "-P", r"foo(?=\()"]);
    assert_eq!(pcre.code, 2, "{pcre:?}");
    assert!(pcre.stderr.contains("no look-around") && pcre.stderr.contains("rg -P"), "{pcre:?}");

    // A file that cannot be read is reported by name, and the exit code says so.
    let locked = t.write("src/locked.py", "foo = 1\n");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let mut cmd = t.cmd();
    as_someone_else(&t, &mut cmd);
    let out = run(cmd, &["grep", "foo"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("cocosearch: src/locked.py: Permission denied (os error 13)"), "{out:?}");
    assert!(out.stdout.contains("src/app.py:1:5:def foo(x):"), "{out:?}");
});

/// Runs `cmd` as `nobody` when the tests run as root (root reads any file, whatever its mode),
/// with the project readable by others.
fn as_someone_else(t: &TestCtx, cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let open = |path: &std::path::Path, mode| std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
    open(t.path(), 0o755).expect("chmod the project");
    for entry in walk(t.path()) {
        let mode = if entry.is_dir() { 0o755 } else { 0o644 };
        if entry.file_name().is_some_and(|n| n != "locked.py") {
            open(&entry, mode).expect("chmod");
        }
    }
    cmd.uid(65534).gid(65534).env("HOME", "/nonexistent");
}

/// Every path under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

cstest!(one_spelling_names_an_index_in_every_command_and_the_old_ones_say_so, |t| {
    t.write("src/app.py", "def alpha():\n    return 1\n");
    let name = t.index_name();
    // -n/--index names an index everywhere an index is named (grep: --index, its -n is rg's).
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed", "--index", &name]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{out:?}");
    for args in [
        vec!["stats", "--index", &name, "--json"],
        vec!["stats", "-n", &name, "--json"],
        vec!["search", "-n", &name, "alpha", "--json"],
        vec!["symbol", "-n", &name, "alpha", "--json"],
        vec!["snapshots", "-n", &name, "--json"],
        vec!["task", "list", "-n", &name, "--json"],
    ] {
        let out = run(t.cmd_db(), &args);
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert!(!out.stderr.contains("deprecated"), "{args:?}: {out:?}");
    }
    for command in ["index", "watch", "search", "stats", "snapshots", "clear", "symbol", "task list"] {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.push("--help");
        let help = run(t.cmd(), &args).stdout;
        assert!(help.contains("-n, --index <NAME>"), "{command}: {help}");
        assert!(!help.contains("--name") && !help.contains("-i, --interactive"), "{command}: {help}");
        assert!(!help.contains("-i, --include") && !help.contains("-e, --exclude"), "{command}: {help}");
    }

    // The old spellings still work, each with a note naming the new one.
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed", "--name", &name, "-i", "src/**", "-e", "*.md"]);
    assert_eq!(out.code, 0, "{out:?}");
    for note in [
        "--name is deprecated: use --index (-n)",
        "-i is deprecated in index: use --include",
        "-e is deprecated in index: use --exclude",
    ] {
        assert!(out.stderr.contains(note), "{note}: {out:?}");
    }
    let mut cmd = t.cmd_db();
    cmd.stdin(Stdio::null());
    let out = run(cmd, &["search", "-i"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("-i is deprecated in search: use --interactive"), "{out:?}");

    // An index not found suggests the flag the command has.
    let out = run(t.cmd_db(), &["search", "-n", "nosuch", "alpha"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("no index named nosuch") && !out.stderr.contains("--name"), "{out:?}");
    // clear takes it too.
    let out = run(t.cmd_db(), &["clear", "-n", &name, "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ok_json(&t, &["list", "--json"]), serde_json::json!([]));
});

cstest!(a_mistyped_name_gets_a_did_you_mean, |t| {
    std::fs::remove_dir_all(t.path().join(".git")).expect("remove the marker .git");
    git(t.path(), &["init", "-q", "-b", "main"]);
    t.write("src/app.py", "def alpha():\n    return 1\n");
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "base"]);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let name = t.index_name();
    // The last character replaced by another (the name is random: it can end in `x`).
    let typo = format!("{}{}", &name[..name.len() - 1], if name.ends_with('x') { 'y' } else { 'x' });
    let mean = |args: &[&str], wanted: &str| {
        let out = run(t.cmd_db(), args);
        assert_ne!(out.code, 0, "{args:?}: {out:?}");
        assert!(out.stderr.contains(&format!("did you mean `{wanted}`?")), "{args:?}: {out:?}");
    };
    // Index names, wherever one is typed.
    mean(&["stats", &typo], &name);
    mean(&["search", "-n", &typo, "alpha"], &name);
    mean(&["symbol", "-n", &typo, "alpha"], &name);
    mean(&["grep", "--index", &typo, "--symbols", "alpha"], &name);
    mean(&["clear", &typo, "--force"], &name);
    // Languages.
    mean(&["search", "alpha", "--lang", "pyton"], "python");
    mean(&["grep", "-t", "pyton", "alpha"], "python");
    mean(&["symbol", "alpha", "--lang", "pyton"], "python");
    // Snapshots.
    mean(&["search", "alpha", "--at", "mian"], "main");
    mean(&["snapshots", "--delete", "mian"], "main");
    // Task ids: a prefix one character off.
    let id = ok_json(&t, &["task", "add", "Ship it", "--json"])["id"].as_str().expect("id").to_string();
    let last = if id.as_bytes()[7] == b'0' { '1' } else { '0' };
    let wrong = format!("{}{last}", &id[..7]);
    mean(&["task", "show", &wrong], &id[..8]);
    // Configuration keys.
    mean(&["config", "show", "--set", "search.resultLimt=3"], "search.resultLimit");
});

/// `cocosearch ARGS` on a terminal (`tests/terminal.py` gives it one), with `env` set; what
/// the terminal showed.
fn on_a_terminal(t: &TestCtx, args: &[&str], env: &[(&str, &str)]) -> String {
    let helper = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/terminal.py");
    let mut terminal = std::process::Command::new("python3");
    terminal.current_dir(t.path()).arg(helper).arg(env!("CARGO_BIN_EXE_cocosearch")).args(args).stdin(Stdio::null());
    // The environment of t.cmd(), then `env`.
    for (key, value) in t.cmd().get_envs() {
        match value {
            Some(value) => terminal.env(key, value),
            None => terminal.env_remove(key),
        };
    }
    terminal.envs(env.iter().copied());
    let out = terminal.output().expect("run python3 tests/terminal.py");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

cstest!(small_things_say_what_is_true, |t| {
    t.write("src/app.py", "def alpha():\n    return 1\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);
    // One file, one chunk: no "1 files", "1 chunks".
    let stats = run(t.cmd_db(), &["stats"]);
    assert!(stats.stdout.contains("1 file · 1 chunk · 2 lines"), "{stats:?}");
    // The README gives embedding.model's default as config show reports it.
    let shown = run(t.cmd(), &["config", "show", "--json"]).json();
    let model = shown["settings"].as_array().expect("settings").iter().find(|s| s["key"] == "embedding.model").cloned();
    let model = model.expect("embedding.model")["value"].as_str().expect("a model").to_string();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let row = readme.lines().find(|l| l.starts_with("| `embedding.model` |")).expect("the row");
    assert!(row.contains(&format!("| `{model}`")), "{model}: {row}");
    // --lang completes language names, not file names.
    let bash = run(t.cmd(), &["completions", "bash"]).stdout;
    let lang = bash.split("--lang)").nth(1).expect("a --lang case");
    let lang = lang.split(";;").next().expect("its body");
    assert!(lang.contains("python") && !lang.contains("compgen -f"), "{lang}");
    // A port in use is told once.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port().to_string();
    let out = run(t.cmd_db(), &["dashboard", "--port", &port, "--no-open"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stderr.matches("Address already in use").count(), 1, "{out:?}");
    // man on a terminal is a page to read, not roff.
    let man = on_a_terminal(&t, &["man"], &[("MANPAGER", "cat"), ("PAGER", "cat")]);
    assert!(!man.contains(".TH") && !man.contains(".SH") && man.contains("cocosearch(1)"), "{man}");
    // A download that fails before a byte arrives draws no 0 B bar.
    let failed = on_a_terminal(&t, &["model", "download"], &[]);
    assert!(failed.contains("not downloaded") && !failed.contains("0 B/0 B"), "{failed}");
});
