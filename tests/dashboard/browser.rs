//! The dashboard in a real browser: `e2e.py` drives Debian's Chromium with Playwright for
//! Python (both installed by `scripts/testenv.py browser` when missing, so this test fails
//! rather than skips without them) against `cocosearch dashboard` serving a
//! real embedded store, real MiniLM vectors and a token; it reports what it saw, and the
//! assertions are here. Its screenshots stay in `target/dashboard-screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use super::{Server, git};
use crate::cstest;
use crate::support::{run, write_sample_project};

/// How long the browser pass may take before the test gives up on it.
const PASS_TIMEOUT: Duration = Duration::from_secs(300);
/// Files written after the first index, so the re-index has work whose progress shows.
const NEW_FILES: usize = 24;

/// `testenv.py browser`: Chromium and Playwright, installed on first use.
fn browser_env() -> &'static Value {
    static ENV: OnceLock<Value> = OnceLock::new();
    ENV.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/testenv.py");
        let out = Command::new("python3")
            .arg(&script)
            .args(["browser", "--json"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(
            out.status.success(),
            "installing the browser test tools failed (python3 scripts/testenv.py browser):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("testenv.py browser printed JSON")
    })
}

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dashboard-screenshots")
}

cstest!(the_dashboard_works_in_a_real_browser, |t| {
    write_sample_project(&t);
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("secret.txt"), "OUTSIDE-SECRET\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), t.path().join("src/leak.py")).expect("symlink");
    // A long file whose hit lies far down, so the viewer has to scroll to it.
    let mut long = String::from("\"\"\"Archive helpers.\"\"\"\n\n");
    for i in 0..40 {
        long.push_str(&format!(
            "def helper_{i}(value):\n    \"\"\"Return value plus {i}.\"\"\"\n    return value + {i}\n\n\n"
        ));
    }
    let target_line = long.lines().count() + 1;
    long.push_str("def verify_archive_checksum(path, expected):\n    \"\"\"Compute the SHA-256 checksum of a downloaded archive and compare it.\"\"\"\n    digest = hashlib.sha256(open(path, 'rb').read()).hexdigest()\n    return digest == expected\n");
    // A caller, so the symbol's code graph has a reference to show.
    long.push_str("\n\ndef fetch_archive(path, expected):\n    return verify_archive_checksum(path, expected)\n");
    t.write("src/archives.py", &long);
    // A git checkout, so the index records its commit and the page can show HEAD moving on. An
    // older version, kept as the snapshot `v1`, has a file the working tree no longer has.
    git(t.path(), &["init", "-q", "-b", "main"]);
    t.write("src/legacy.py", "def legacy_digest(path):\n    \"\"\"Hash a file the old way, with MD5.\"\"\"\n    return hashlib.md5(open(path, 'rb').read()).hexdigest()\n");
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "old"]);
    let out = run(t.cmd_embedded(), &["index", "-q", "--snapshot", "v1"]);
    assert_eq!(out.code, 0, "{out:?}");
    git(t.path(), &["rm", "-q", "src/legacy.py"]);
    git(t.path(), &["commit", "-q", "-m", "first"]);
    let out = run(t.cmd_embedded(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    git(t.path(), &["commit", "-q", "--allow-empty", "-m", "second"]);
    let scratch = tempfile::tempdir().expect("scratch project");
    std::fs::write(scratch.path().join("notes.md"), "# Scratch\n\nNotes to throw away.\n").expect("write");
    let out = run(t.cmd_embedded(), &["index", &scratch.path().display().to_string(), "--index", "scratch", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let index = t.index_name();
    let cli = run(t.cmd_embedded(), &["stats", "--json"]).json();
    // New since the index: the page shows the index behind, and the re-index has work. The
    // text names the test's directory, so the embedding server's cache cannot answer it.
    let nonce = t.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for i in 0..NEW_FILES {
        t.write(
            &format!("reports/report_{i:02}.py"),
            format!("def summarise_report_{i}(rows):\n    \"\"\"Total report {i} of {nonce}.\"\"\"\n    return sum(row.value for row in rows)\n"),
        );
    }

    let token = "browser test token";
    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_MCP_TOKEN", token);
    // The scenario shows a stale index: nothing may keep it fresh behind the page's back.
    let server = Server::dashboard(cmd, &["--no-watch"]);
    let outside_name = outside.path().file_name().expect("name").to_string_lossy().into_owned();
    let env = browser_env();
    let var = |k: &str| env[k].as_str().unwrap_or_else(|| panic!("testenv.py browser did not print {k}")).to_string();
    let mut driver = Command::new(var("COCOSEARCH_TEST_PLAYWRIGHT_PYTHON"));
    driver
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dashboard/e2e.py"))
        .env("DASHBOARD_URL", server.base_url())
        .env("TOKEN", token)
        .env("INDEX", &index)
        .env("SCRATCH", "scratch")
        .env("QUERY", "verify the checksum of a downloaded archive")
        .env("EXPECT_PATH", "src/archives.py")
        .env("OUTSIDE_PATH", format!("../{outside_name}/secret.txt"))
        .env("SCREENSHOTS", screenshots())
        .env("CHROMIUM", var("COCOSEARCH_TEST_CHROMIUM"));
    let (code, stdout, stderr) = crate::mcp_server::output_within(driver, PASS_TIMEOUT);
    let r: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("e2e.py printed no JSON ({e}), exit {code:?}:\n{stdout}\n{stderr}\n{}", server.log())
    });
    assert_eq!(code, Some(0), "e2e.py failed: {}\n{stderr}\n{}", r["error"], server.log());
    assert_eq!(r["console_errors"], serde_json::json!([]), "{r:#}");

    // The token link lands on the page, without the token in the address.
    assert_eq!(r["landing"]["url"].as_str(), Some(format!("{}/dashboard", server.base_url()).as_str()), "{r:#}");
    assert_eq!(r["landing"]["status"], 200, "{r:#}");

    // The right counts, on the overview and the index's page.
    let cards: Vec<&str> = r["overview"]["cards"].as_array().expect("cards").iter().filter_map(Value::as_str).collect();
    assert!(cards.contains(&index.as_str()) && cards.contains(&"scratch"), "{r:#}");
    assert_eq!(r["overview"]["files"], cli["files"], "{r:#}");
    assert_eq!(r["overview"]["chunks"], cli["chunks"], "{r:#}");
    assert_eq!(r["overview"]["badge"], "Behind", "{r:#}");
    let warnings = r["overview"]["warnings"].as_str().unwrap_or_default();
    assert!(warnings.contains(&format!("{NEW_FILES} added")) && warnings.contains("HEAD moved"), "{r:#}");
    assert_eq!(r["detail"]["files"], cli["files"], "{r:#}");
    let panels = r["detail"]["panels"].to_string();
    for panel in ["Languages", "Symbols", "Parse health", "Freshness", "Most failing files", "Skipped files"] {
        assert!(panels.contains(panel), "{panel}: {r:#}");
    }

    // A search shows the expected file, highlighted; the viewer opens at the hit's line.
    assert_eq!(r["slash_focuses_search"], true);
    assert_eq!(r["search"]["paths"][0], "src/archives.py", "{r:#}");
    assert!(r["search"]["highlighted"].as_u64().is_some_and(|n| n > 0), "{r:#}");
    // The long hit (its chunk spans well over the preview's lines) is clamped, then expands.
    let more = &r["search"]["more"];
    assert!(more["label"].as_str().is_some_and(|l| l.starts_with("Show all ")), "{r:#}");
    assert_eq!(more["clamped"], 1, "{r:#}");
    assert_eq!(
        (more["expanded"]["clamped"].as_u64(), more["expanded"]["grew"].as_bool()),
        (Some(0), Some(true)),
        "{r:#}"
    );
    assert_eq!(more["expanded"]["label"], "Show fewer lines", "{r:#}");
    let viewer = &r["viewer"];
    assert_eq!(viewer["title"], "src/archives.py", "{r:#}");
    let line = viewer["hit_line"].as_u64().expect("hit line");
    assert!(line as usize <= target_line && target_line > 150, "{line} {target_line}: {r:#}");
    assert_eq!(viewer["marked"][0].as_u64(), Some(line), "{r:#}");
    assert!(viewer["scrolled"].as_f64().is_some_and(|s| s > 1000.0), "the viewer scrolled to the hit: {r:#}");
    let source = std::fs::read_to_string(t.path().join("src/archives.py")).expect("read");
    let expected_text = source.lines().nth(line as usize - 1).expect("the hit's line");
    assert_eq!(viewer["text"].as_str(), Some(expected_text), "{r:#}");
    assert_eq!((viewer["visible"].as_bool(), viewer["focus"].as_str()), (Some(true), Some("viewer-code")), "{r:#}");
    assert_eq!((viewer["closed_by_escape"].as_bool(), viewer["focus_back_on_hit"].as_bool()), (Some(true), Some(true)));

    // A search at the older snapshot finds the file only it holds; the working tree's does not.
    let old = &r["snapshot_search"];
    assert!(old["options"].to_string().contains("\"v1\""), "the snapshot is offered: {r:#}");
    assert_eq!(old["at"], "at v1", "{r:#}");
    assert_eq!(old["paths"][0], "src/legacy.py", "{r:#}");
    assert!(!r["search"]["paths"].to_string().contains("src/legacy.py"), "{r:#}");

    // A symbol's code graph, opened from its hit: its definition and the reference of its caller.
    let graph = &r["graph"];
    assert_eq!(graph["title"], "verify_archive_checksum", "{r:#}");
    assert_eq!(graph["definitions"], serde_json::json!(["src/archives.py"]), "{r:#}");
    assert_eq!(graph["references"], serde_json::json!([["src/archives.py", "fetch_archive"]]), "{r:#}");

    // A search of one name: resolved, with the definition and why.
    assert_eq!(r["resolution"]["state"], "resolved", "{r:#}");
    let text = r["resolution"]["text"].as_str().unwrap_or_default();
    assert!(text.contains("src/archives.py:") && text.contains("named verify_archive_checksum"), "{r:#}");

    // Two indexes ticked: the URL names both, the scratch index's note ranks first, and hits
    // of both indexes come back in one list.
    let several = &r["several_indexes"];
    assert_eq!(several["picker"], "All 2 indexes", "{r:#}");
    assert!(several["hash"].as_str().is_some_and(|h| h.contains(&format!("indexes={index},scratch"))), "{r:#}");
    assert_eq!(several["hits"][0], serde_json::json!(["scratch", "notes.md"]), "{r:#}");
    assert!(several["hits"].to_string().contains(&format!("[\"{index}\",")), "{r:#}");
    assert_eq!(several["snapshot_field_disabled"], true, "{r:#}");
    let grep = several["grep"].to_string();
    assert!(grep.contains("[\"scratch\",\"notes.md\"]"), "{r:#}");
    assert!(grep.contains(&format!("[\"{index}\",\"src/archives.py\"]")), "{r:#}");

    // Paths out of the root are refused.
    for what in ["outside", "symlink"] {
        let answer = &r["refused"][what];
        assert_eq!(answer["status"], 403, "{what}: {r:#}");
        assert!(!answer["body"].as_str().unwrap_or_default().contains("OUTSIDE-SECRET"), "{what}: {r:#}");
    }

    // A re-index shows its progress, then the new counts.
    let reindex = &r["reindex"];
    assert_eq!(reindex["badge_before"], "Behind", "{r:#}");
    assert_eq!(reindex["button_disabled_while_running"], true, "{r:#}");
    let progress = reindex["progress"].as_array().expect("progress");
    assert!(progress.iter().any(|p| !p["cls"].as_str().unwrap_or_default().contains("done")), "{r:#}");
    assert!(progress.last().is_some_and(|p| p["cls"].as_str().unwrap_or_default().contains("done")), "{r:#}");
    let files_after = cli["files"].as_u64().expect("files") + NEW_FILES as u64;
    assert_eq!(reindex["files_after"].as_u64(), Some(files_after), "{r:#}");
    assert!(reindex["chunks_after"].as_u64() > cli["chunks"].as_u64(), "{r:#}");
    assert_eq!(reindex["badge_after"], "Up to date", "{r:#}");
    assert!(reindex["toast"].as_str().is_some_and(|s| s.contains(&format!("Re-indexed {index}"))), "{r:#}");
    let after = run(t.cmd_embedded(), &["stats", "--json"]).json();
    assert_eq!(after["files"].as_u64(), Some(files_after));

    // Delete asks first; Cancel keeps the index, confirming deletes it.
    let delete = &r["delete"];
    assert!(delete["dialog"].as_str().is_some_and(|d| d.contains("Delete index scratch?")), "{r:#}");
    assert_eq!(delete["focused"], "Cancel", "{r:#}");
    assert!(delete["after_cancel"].to_string().contains("\"scratch\""), "{r:#}");
    assert!(!delete["after_confirm"].to_string().contains("\"scratch\""), "{r:#}");
    assert!(delete["after_confirm"].to_string().contains(&format!("\"{index}\"")), "{r:#}");
    assert!(!delete["cards_after"].to_string().contains("\"scratch\""), "{r:#}");

    // A foreign origin and a rebinding host name are refused; they started nothing.
    let foreign = &r["foreign"];
    for request in ["get", "post"] {
        assert!(foreign[request]["outcome"].as_str().is_some_and(|o| o.starts_with("failed")), "{request}: {r:#}");
    }
    // The server refused both by the Origin the browser sent (the page could not have read an
    // answer anyway: Chromium does not report that header of a request CORS failed).
    let log = server.log();
    assert_eq!(
        log.matches("rejected a request from a foreign origin origin=\"http://evil.example:").count(),
        2,
        "{log}"
    );
    assert_eq!(foreign["rebinding"], 403, "{r:#}");
    assert_eq!(r["jobs_after_foreign"], 1, "{r:#}");

    for path in r["screenshots"].as_array().expect("screenshots") {
        let path = PathBuf::from(path.as_str().expect("path"));
        assert!(std::fs::metadata(&path).is_ok_and(|m| m.len() > 10_000), "{}", path.display());
    }
});
