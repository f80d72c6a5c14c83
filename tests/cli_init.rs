//! `cocosearch init`: the project's `cocosearch.yaml` and, per `--agent`, the MCP server merged
//! into the client's own configuration file and the note in its instructions — through the
//! real binary, on projects that already hold files of their own.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::cstest;
use crate::mcp_server::{root, scenario};
use crate::support::{Run, TestCtx, models, run};

const BEGIN: &str = "<!-- cocosearch:begin -->";
const END: &str = "<!-- cocosearch:end -->";

/// Every file under the project (`.git` aside) and its bytes; a symbolic link as its target.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir").flatten() {
            let path = entry.path();
            let name = path.strip_prefix(dir).expect("inside").display().to_string();
            let kind = entry.file_type().expect("file type");
            if name == ".git" {
                continue;
            } else if kind.is_symlink() {
                let target = std::fs::read_link(&path).expect("read link");
                out.insert(name, format!("-> {}", target.display()).into_bytes());
            } else if kind.is_dir() {
                stack.push(path);
            } else {
                out.insert(name, std::fs::read(&path).expect("read file"));
            }
        }
    }
    out
}

fn read(t: &TestCtx, path: &str) -> String {
    std::fs::read_to_string(t.path().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(t: &TestCtx, path: &str) -> Value {
    serde_json::from_str(&read(t, path)).unwrap_or_else(|e| panic!("{path} is not JSON ({e}):\n{}", read(t, path)))
}

fn init(t: &TestCtx, args: &[&str]) -> Run {
    let mut argv = vec!["init"];
    argv.extend_from_slice(args);
    run(t.cmd(), &argv)
}

/// The outcome word `init` printed for `path` (`created`, `updated`, `unchanged`).
fn outcome<'a>(out: &'a Run, path: &str) -> &'a str {
    out.stderr
        .lines()
        .find_map(|line| {
            let mut words = line.split_whitespace();
            let word = words.next()?;
            (words.next() == Some(path)).then_some(word)
        })
        .unwrap_or_else(|| panic!("no line for {path}: {out:?}"))
}

/// The outcome a dry run of `init` printed for `path` (`would create`, `would update`).
fn dry_outcome(out: &Run, path: &str) -> String {
    out.stderr
        .lines()
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            (words.len() > 2 && words[2] == path).then(|| words[..2].join(" "))
        })
        .unwrap_or_else(|| panic!("no line for {path}: {out:?}"))
}

/// The lines `init` printed about files.
fn file_lines(out: &Run) -> Vec<&str> {
    out.stderr.lines().filter(|l| ["created ", "updated ", "unchanged "].iter().any(|w| l.starts_with(w))).collect()
}

/// Runs `init` with `args` once, and again: the second run must change no byte and say
/// `unchanged` for every file it reports.
fn init_twice(t: &TestCtx, args: &[&str]) -> Run {
    let first = init(t, args);
    assert_eq!(first.code, 0, "{first:?}");
    let before = snapshot(t.path());
    let second = init(t, args);
    assert_eq!(second.code, 0, "{second:?}");
    assert_eq!(snapshot(t.path()), before, "the second run changed files: {second:?}");
    let lines = file_lines(&second);
    assert_eq!(lines.len(), file_lines(&first).len(), "{first:?}\n{second:?}");
    assert!(lines.iter().all(|l| l.starts_with("unchanged ")), "{second:?}");
    assert!(second.stderr.contains("nothing to change"), "{second:?}");
    first
}

/// The note is there once, between its markers, after the user's own text.
fn assert_note(text: &str, user_text: &str) {
    assert!(text.starts_with(user_text), "the user's text comes first, unchanged:\n{text}");
    assert_eq!(text.matches(BEGIN).count(), 1, "{text}");
    assert_eq!(text.matches(END).count(), 1, "{text}");
    let note = &text[text.find(BEGIN).expect("begin")..];
    assert!(note.contains("`search_code`") && note.contains("`find_symbol`"), "{note}");
}

cstest!(init_claude_merges_into_mcp_json_and_claude_md, |t| {
    t.write(
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]}\n  },\n  \"note\": \"keep me\"\n}\n",
    );
    t.write("CLAUDE.md", "# House rules\n\nRun `make test` before committing.\n");
    let out = init_twice(&t, &["--agent", "claude"]);
    assert_eq!(outcome(&out, ".mcp.json"), "updated");
    assert_eq!(outcome(&out, "CLAUDE.md"), "updated");
    assert_eq!(outcome(&out, "cocosearch.yaml"), "created");

    let mcp = json(&t, ".mcp.json");
    assert_eq!(mcp["mcpServers"]["github"]["command"], "npx", "{mcp}");
    assert_eq!(mcp["mcpServers"]["github"]["args"][1], "@modelcontextprotocol/server-github", "{mcp}");
    assert_eq!(mcp["note"], "keep me", "{mcp}");
    assert_eq!(
        mcp["mcpServers"]["cocosearch"],
        serde_json::json!({"command": "cocosearch", "args": ["mcp", "--project-from-cwd"]}),
        "{mcp}"
    );
    assert_note(&read(&t, "CLAUDE.md"), "# House rules\n\nRun `make test` before committing.\n");
});

cstest!(init_cursor_merges_into_cursor_mcp_json_and_writes_a_rule, |t| {
    t.write(".cursor/mcp.json", r#"{"mcpServers": {"postgres": {"command": "pg-mcp", "env": {"PGHOST": "db"}}}}"#);
    let out = init_twice(&t, &["--agent", "cursor"]);
    assert_eq!(outcome(&out, ".cursor/mcp.json"), "updated");
    assert_eq!(outcome(&out, ".cursor/rules/cocosearch.mdc"), "created");

    let mcp = json(&t, ".cursor/mcp.json");
    assert_eq!(mcp["mcpServers"]["postgres"]["env"]["PGHOST"], "db", "{mcp}");
    assert_eq!(mcp["mcpServers"]["cocosearch"]["args"], serde_json::json!(["mcp", "--project-from-cwd"]), "{mcp}");
    let rule = read(&t, ".cursor/rules/cocosearch.mdc");
    assert!(rule.starts_with("---\ndescription: ") && rule.contains("\nalwaysApply: true\n---\n"), "{rule}");
    assert_note(&rule, "---\n");
});

cstest!(init_codex_merges_into_codex_config_toml_keeping_its_formatting, |t| {
    let user = "# Codex settings for this repository\nmodel = \"o3\"  # fast enough\n\n[mcp_servers.docs]\ncommand = \"docs-server\"\nargs = [ \"--stdio\" ]\n";
    t.write(".codex/config.toml", user);
    t.write("AGENTS.md", "Be brief.\n");
    let out = init_twice(&t, &["--agent", "codex"]);
    assert_eq!(outcome(&out, ".codex/config.toml"), "updated");
    assert_eq!(outcome(&out, "AGENTS.md"), "updated");

    let toml = read(&t, ".codex/config.toml");
    assert!(toml.starts_with(user), "the user's lines stay as written:\n{toml}");
    assert!(
        toml.contains(
            "\n[mcp_servers.cocosearch]\ncommand = \"cocosearch\"\nargs = [\"mcp\", \"--project-from-cwd\"]\n"
        ),
        "{toml}"
    );
    assert_note(&read(&t, "AGENTS.md"), "Be brief.\n");
});

cstest!(init_opencode_and_gemini_merge_and_share_agents_md_with_codex, |t| {
    t.write("opencode.json", r#"{"$schema": "https://opencode.ai/config.json", "model": "x/y", "mcp": {"other": {"type": "remote", "url": "https://example.com/mcp"}}}"#);
    t.write(".gemini/settings.json", r#"{"theme": "GitHub", "mcpServers": {"other": {"command": "other"}}}"#);
    let out = init_twice(&t, &["--agent", "opencode", "--agent", "gemini", "--agent", "codex", "--agent", "opencode"]);
    assert_eq!(out.stderr.matches(" AGENTS.md ").count(), 1, "one line per file: {out:?}");
    assert!(out.stderr.contains("AGENTS.md (instructions for opencode, Codex)"), "{out:?}");

    let opencode = json(&t, "opencode.json");
    assert_eq!(opencode["model"], "x/y");
    assert_eq!(opencode["mcp"]["other"]["type"], "remote");
    assert_eq!(
        opencode["mcp"]["cocosearch"],
        serde_json::json!({"type": "local", "command": ["cocosearch", "mcp", "--project-from-cwd"], "enabled": true})
    );
    let gemini = json(&t, ".gemini/settings.json");
    assert_eq!(gemini["theme"], "GitHub");
    assert_eq!(gemini["mcpServers"]["other"]["command"], "other");
    assert_eq!(gemini["mcpServers"]["cocosearch"]["command"], "cocosearch");
    assert_note(&read(&t, "GEMINI.md"), "");
    assert_note(&read(&t, "AGENTS.md"), "");
});

cstest!(init_writes_the_same_cocosearch_yaml_as_config_init, |t| {
    let out = init(&t, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("--agent"), "without agents it says how to add one: {out:?}");
    let from_init = read(&t, "cocosearch.yaml");
    std::fs::remove_file(t.path().join("cocosearch.yaml")).expect("remove");
    assert_eq!(run(t.cmd(), &["config", "init"]).code, 0);
    assert_eq!(read(&t, "cocosearch.yaml"), from_init);
});

cstest!(init_dry_run_prints_the_plan_and_writes_nothing, |t| {
    t.write(".mcp.json", r#"{"mcpServers": {"github": {"command": "npx"}}}"#);
    t.write("CLAUDE.md", "Hello.\n");
    let before = snapshot(t.path());
    let out = init(&t, &["--dry-run", "--agent", "claude", "--agent", "codex", "--agent", "cursor"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(snapshot(t.path()), before, "a dry run wrote files: {out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let plan = [
        ("cocosearch.yaml", "created"),
        (".mcp.json", "updated"),
        ("CLAUDE.md", "updated"),
        (".codex/config.toml", "created"),
        ("AGENTS.md", "created"),
        (".cursor/mcp.json", "created"),
        (".cursor/rules/cocosearch.mdc", "created"),
    ];
    for (path, word) in plan {
        let would = format!("would {}", word.trim_end_matches('d'));
        assert_eq!(dry_outcome(&out, path), would, "{path}: {out:?}");
    }
    assert!(out.stderr.contains("dry run: nothing was written"), "{out:?}");
    // The real run then does what the dry run said.
    let real = init(&t, &["--agent", "claude", "--agent", "codex", "--agent", "cursor"]);
    assert_eq!(real.code, 0, "{real:?}");
    for (path, word) in plan {
        assert_eq!(outcome(&real, path), word, "{path}: {real:?}");
    }
    assert_eq!(file_lines(&real).len(), plan.len(), "{real:?}");
});

cstest!(init_refuses_malformed_files_and_writes_nothing, |t| {
    // Codex comes first, so its files would be written before Claude's if checking did not
    // come before writing.
    t.write(".mcp.json", "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"npx\",}\n  }\n}\n");
    let before = snapshot(t.path());
    let out = init(&t, &["--agent", "codex", "--agent", "claude"]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains(".mcp.json is not valid JSON (line 3"), "{out:?}");
    assert!(out.stderr.contains("fix it or move it away") && out.stderr.contains("nothing was written"), "{out:?}");
    assert_eq!(snapshot(t.path()), before, "files were written: {out:?}");

    std::fs::remove_file(t.path().join(".mcp.json")).expect("remove");
    t.write(".codex/config.toml", "[mcp_servers.docs\ncommand = \"x\"\n");
    let before = snapshot(t.path());
    let out = init(&t, &["--agent", "claude", "--agent", "codex"]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains(".codex/config.toml is not valid TOML (line 1"), "{out:?}");
    assert_eq!(snapshot(t.path()), before, "files were written: {out:?}");

    // A value of the wrong type, and a marker without its pair.
    t.write(".codex/config.toml", "mcp_servers = \"none\"\n");
    let out = init(&t, &["--agent", "codex"]);
    assert!(out.code != 0 && out.stderr.contains("`mcp_servers` is not a table"), "{out:?}");
    std::fs::remove_dir_all(t.path().join(".codex")).expect("remove");
    t.write("CLAUDE.md", format!("mine\n{BEGIN}\nhalf a block\n"));
    let before = snapshot(t.path());
    let out = init(&t, &["--agent", "claude"]);
    assert!(out.code != 0 && out.stderr.contains("CLAUDE.md has a `<!-- cocosearch:begin -->` line"), "{out:?}");
    assert_eq!(snapshot(t.path()), before, "files were written: {out:?}");
});

#[cfg(unix)]
cstest!(init_refuses_a_link_leading_out_of_the_project, |t| {
    let outside = tempfile::tempdir().expect("outside");
    let theirs = outside.path().join("claude.json");
    std::fs::write(&theirs, "{}\n").expect("write");
    std::os::unix::fs::symlink(&theirs, t.path().join(".mcp.json")).expect("link");
    std::os::unix::fs::symlink(outside.path(), t.path().join(".cursor")).expect("link");
    let before = snapshot(t.path());
    for agent in ["claude", "cursor"] {
        let out = init(&t, &["--agent", agent]);
        assert_ne!(out.code, 0, "{out:?}");
        assert!(out.stderr.contains("leads outside the project through a symbolic link"), "{out:?}");
        assert_eq!(snapshot(t.path()), before, "files were written: {out:?}");
    }
    assert_eq!(std::fs::read_to_string(&theirs).expect("read"), "{}\n", "the file outside was written");
    assert_eq!(std::fs::read_dir(outside.path()).expect("ls").count(), 1, "something was created outside");

    // A link that stays inside the project is followed: both names are one file.
    std::fs::remove_file(t.path().join(".mcp.json")).expect("remove");
    t.write("CLAUDE.md", "Shared notes.\n");
    std::os::unix::fs::symlink("CLAUDE.md", t.path().join("AGENTS.md")).expect("link");
    let out = init(&t, &["--agent", "claude", "--agent", "codex"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(std::fs::symlink_metadata(t.path().join("AGENTS.md")).expect("meta").file_type().is_symlink());
    assert_note(&read(&t, "CLAUDE.md"), "Shared notes.\n");
});

cstest!(init_keeps_an_existing_config_and_a_different_server_unless_forced, |t| {
    t.write("cocosearch.yaml", "indexName: mine\n");
    t.write(
        ".mcp.json",
        r#"{"mcpServers": {"cocosearch": {"command": "/opt/bin/cocosearch", "args": ["mcp"], "env": {"COCOSEARCH_LOG_LEVEL": "debug"}}}}"#,
    );
    let before = snapshot(t.path());
    let out = init(&t, &["--agent", "claude"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(outcome(&out, "cocosearch.yaml"), "unchanged");
    assert_eq!(outcome(&out, ".mcp.json"), "unchanged");
    assert!(out.stderr.contains("another command is registered and stays; --force replaces it"), "{out:?}");
    assert_eq!(snapshot(t.path()).get(".mcp.json"), before.get(".mcp.json"));
    assert_eq!(read(&t, "cocosearch.yaml"), "indexName: mine\n");

    let out = init(&t, &["--agent", "claude", "--force"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(outcome(&out, "cocosearch.yaml"), "updated");
    assert_eq!(outcome(&out, ".mcp.json"), "updated");
    assert!(read(&t, "cocosearch.yaml").starts_with("# cocosearch.yaml, written by"));
    let entry = &json(&t, ".mcp.json")["mcpServers"]["cocosearch"];
    assert_eq!(entry["command"], "cocosearch", "{entry}");
    assert_eq!(entry["args"], serde_json::json!(["mcp", "--project-from-cwd"]), "{entry}");
    assert_eq!(entry["env"]["COCOSEARCH_LOG_LEVEL"], "debug", "its own keys stay: {entry}");
});

cstest!(init_refuses_the_home_directory, |t| {
    let mut cmd = t.cmd();
    cmd.env("HOME", t.path());
    let out = run(cmd, &["init", "--agent", "claude"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("is your home directory"), "{out:?}");
    assert!(!t.path().join(".mcp.json").exists());
});

cstest!(init_registers_a_server_that_the_client_can_start, |t| {
    let out = init(&t, &["--agent", "claude"]);
    assert_eq!(out.code, 0, "{out:?}");
    // Start the server the way Claude Code does: `command` and `args` from .mcp.json, in the
    // project directory; the test binary stands in for `cocosearch` on the PATH.
    let server = &json(&t, ".mcp.json")["mcpServers"]["cocosearch"];
    assert_eq!(server["command"], "cocosearch", "{server}");
    let mut command = vec![Value::from(env!("CARGO_BIN_EXE_cocosearch"))];
    command.extend(server["args"].as_array().expect("args").iter().cloned());
    let command = Value::from(command).to_string();

    let mut env = t.cmd();
    env.env("COCOSEARCH_DATABASE_BACKEND", "sqlite").env("COCOSEARCH_DATABASE_PATH", t.embedded_dir());
    let project = root(&t);
    let r = scenario(&env, "tools", &["--project", &project, "--cwd", &project, "--command", &command]);
    assert_eq!(r["server_info"]["name"], "cocosearch", "{r}");
    assert!(r["protocol_version"].as_str().is_some_and(|v| !v.is_empty()), "{r}");

    // Every tool the note names is one the server offers.
    let tools: Vec<&str> = r["tools"].as_array().expect("tools").iter().filter_map(Value::as_str).collect();
    let claude_md = read(&t, "CLAUDE.md");
    let note = &claude_md[claude_md.find(BEGIN).expect("begin")..];
    let named: Vec<&str> = note
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '_') && word.contains('_'))
        .collect();
    assert!(named.len() >= 8, "{named:?}");
    for tool in named {
        assert!(tools.contains(&tool), "the note names {tool}, which the server does not offer: {tools:?}");
    }
});

// Issue 46, item 12. `init` wrote the absolute model directory twice into a file meant to be
// committed, `--dry-run` said "created" for files it did not create, and the embedder it named
// was the configuration's, not the one the index is built with.
cstest!(init_writes_nothing_personal_and_a_dry_run_says_what_it_would_do, |t| {
    t.write("upload.py", "def upload(path):\n    return path\n");
    let user = |dir: &Path| {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
            .env("COCOSEARCH_EMBEDDING_MODEL_PATH", dir);
        cmd
    };
    // The index is built with the static model; the user's default is MiniLM since.
    let out = run(user(&models().static_model), &["index"]);
    assert_eq!(out.code, 0, "{out:?}");

    let out = run(user(&models().minilm), &["init", "--dry-run", "--agent", "claude"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!t.path().join("cocosearch.yaml").exists(), "a dry run wrote the file: {out:?}");
    for path in ["cocosearch.yaml", ".mcp.json", "CLAUDE.md"] {
        assert!(out.stderr.lines().any(|l| l.starts_with("would create ") && l.contains(path)), "{path}: {out:?}");
    }
    assert!(!out.stderr.contains("created "), "{out:?}");

    let out = run(user(&models().minilm), &["init", "--agent", "claude"]);
    assert_eq!(out.code, 0, "{out:?}");
    for file in ["cocosearch.yaml", ".mcp.json", "CLAUDE.md"] {
        let text = read(&t, file);
        for personal in [
            models().minilm.display().to_string(),
            models().static_model.display().to_string(),
            t.embedded_dir().display().to_string(),
            crate::support::UNREACHABLE_HUB.to_string(),
        ] {
            assert!(!text.contains(&personal), "{file} holds {personal}:\n{text}");
        }
    }
    let yaml = read(&t, "cocosearch.yaml");
    let embedder = yaml.lines().find(|l| l.starts_with("# Embedder in force:")).unwrap_or_default();
    assert!(embedder.contains("minilm-static") && !embedder.contains("all-minilm"), "the index's: {embedder}");
    assert!(yaml.contains("#   model: \"minilm-static\""), "{yaml}");
});
