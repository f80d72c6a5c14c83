//! The committed completions and man pages match the command definition, and the help shows
//! the whole command tree.
//!
//! Like rust-analyzer's `ensure_file_contents`, a stale file is rewritten and the test fails:
//! run the tests again (and commit) to accept the change.

use std::path::Path;

use crate::cstest;
use crate::support::run;

fn ensure_files(dir: &str, files: Vec<(String, String)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut stale = Vec::new();
    for (name, contents) in files {
        let path = dir.join(&name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(contents.as_str()) {
            std::fs::create_dir_all(&dir).expect("create dir");
            std::fs::write(&path, contents).expect("write generated file");
            stale.push(name);
        }
    }
    assert!(stale.is_empty(), "{} was stale and has been regenerated: {stale:?} — review and commit it", dir.display());
}

#[test]
fn completions_are_current() {
    ensure_files("completions", cocosearch::cli::completion_files());
}

#[test]
fn man_pages_are_current() {
    let pages = cocosearch::cli::man_pages();
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for expected in
        ["cocosearch.1", "cocosearch-index.1", "cocosearch-search.1", "cocosearch-config-check.1", "cocosearch-mcp.1"]
    {
        assert!(names.contains(&expected), "{expected} not generated: {names:?}");
    }
    ensure_files("man", pages);
}

cstest!(help_shows_the_command_tree, |t| {
    let out = run(t.cmd(), &["--help"]);
    assert_eq!(out.code, 0, "{out:?}");
    for command in
        ["init", "index", "search", "stats", "list", "clear", "languages", "config", "mcp", "completions", "man"]
    {
        assert!(out.stdout.lines().any(|l| l.trim_start().starts_with(command)), "{command} missing: {out:?}");
    }
    let out = run(t.cmd(), &["config", "--help"]);
    for command in ["check", "show", "path", "init"] {
        assert!(out.stdout.lines().any(|l| l.trim_start().starts_with(command)), "config {command} missing: {out:?}");
    }
    let out = run(t.cmd(), &["--version"]);
    assert!(out.stdout.starts_with(&format!("cocosearch {} (", env!("CARGO_PKG_VERSION"))), "{out:?}");
});

cstest!(completions_command_prints_a_script, |t| {
    let out = run(t.cmd(), &["completions", "bash"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("_cocosearch()"), "{}", &out.stdout[..200.min(out.stdout.len())]);
    let out = run(t.cmd(), &["completions", "tcsh"]);
    assert_eq!(out.code, 2, "{out:?}");
});

#[test]
fn example_config_is_current() {
    ensure_files("config", vec![("cocosearch.example.yaml".to_string(), cocosearch::config::example_yaml())]);
}

cstest!(example_config_is_valid_when_uncommented, |t| {
    // Each entry is `# doc`, `# env: …`, then the commented key (and `#   - item` lines for
    // lists): uncommenting what follows each `# env:` line must give valid configuration.
    let mut yaml = String::new();
    let mut after_env = false;
    for line in cocosearch::config::example_yaml().lines() {
        let indent = &line[..line.len() - line.trim_start().len()];
        match line.trim_start().strip_prefix("# ") {
            Some(body) if body.starts_with("env: ") => after_env = true,
            Some(body) if after_env && (!body.starts_with("  -") || yaml.ends_with(":\n")) => {
                yaml.push_str(&format!("{indent}{body}\n"));
                after_env = body.ends_with(':');
            }
            Some(_) => after_env = false,
            None if !line.trim().is_empty() => yaml.push_str(&format!("{line}\n")),
            None => {}
        }
    }
    t.write("cocosearch.yaml", &yaml);
    // The hub address the tests set in the environment would override the file's.
    let trust = tempfile::tempdir().expect("config dir");
    let cmd = || {
        let mut cmd = t.cmd();
        cmd.env_remove("HF_ENDPOINT").env("XDG_CONFIG_HOME", trust.path());
        cmd
    };
    // The example sets keys that decide where data goes, which a project's own file may only
    // do once trusted: until then, config show leaves them out and names them.
    let untrusted = run(cmd(), &["config", "show", "--json"]);
    assert_eq!(untrusted.code, 0, "{untrusted:?}");
    let left_out = &untrusted.json()["config_file"]["untrusted_keys_left_out"];
    assert!(left_out.as_array().is_some_and(|keys| !keys.is_empty()), "{untrusted:?}");
    assert_eq!(run(cmd(), &["config", "trust"]).code, 0);
    let out = run(cmd(), &["config", "show", "--json"]);
    assert_eq!(out.code, 0, "uncommented example must be valid:\n{yaml}\n{out:?}");
    let from_file =
        out.json()["settings"].as_array().expect("settings").iter().filter(|s| s["source_kind"] == "file").count();
    assert_eq!(from_file, cocosearch::config::registry::SETTINGS.len(), "every key is in the example:\n{yaml}");
});

#[test]
fn readme_config_table_is_current() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md");
    let start = "<!-- config-table:start -->\n";
    let end = "<!-- config-table:end -->";
    let (Some(a), Some(b)) = (readme.find(start), readme.find(end)) else {
        panic!("README.md lacks the {start:?} … {end:?} markers");
    };
    assert_eq!(
        &readme[a + start.len()..b],
        cocosearch::config::markdown_table(),
        "README's configuration table is stale; paste cocosearch::config::markdown_table()"
    );
}
