//! `cocosearch grep` against ripgrep (not a test), release build, in the same run:
//!
//!   cargo bench --bench grep
//!
//! Corpora: the Python standard library of this machine and the unpacked crate sources under
//! `~/.cargo/registry/src` (a large public code base: hundreds of crates). Each corpus is the
//! file set `cocosearch grep --files` lists, hard-linked into `target/bench-corpora/`, so rg's
//! own walk there finds exactly the files cocosearch searches (no `__pycache__`, nothing over
//! the size cap). Both print `path:line:column:text` to a pipe (`rg -n --column
//! --no-heading`), with ripgrep's usual thread count.
//!
//! Warm: the median of five runs after one unmeasured run. Cold: before each of three runs,
//! every file of the corpus is dropped from the page cache with `posix_fadvise(DONTNEED)`
//! (only these files: the rest of the shared machine keeps its cache). Peak memory is the
//! largest `ru_maxrss` of the runs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;

const WARM_RUNS: usize = 5;
const COLD_RUNS: usize = 3;
/// Which rg: `COCOSEARCH_TEST_RG`, else `rg` on PATH.
fn rg() -> String {
    std::env::var("COCOSEARCH_TEST_RG").unwrap_or_else(|_| "rg".into())
}

fn main() {
    rusage_helper();
    banner("grep");
    let rg_version =
        Command::new(rg()).arg("--version").output().expect("ripgrep must be installed (scripts/testenv.py ripgrep)");
    println!("{}", String::from_utf8_lossy(&rg_version.stdout).lines().next().unwrap_or("rg"));
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let registry = std::fs::read_dir(Path::new(&home).join(".cargo/registry/src"))
        .expect("the cargo registry sources")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("an unpacked registry");
    let corpora = [
        (
            "stdlib",
            stdlib(),
            vec![
                ("literal", vec!["-F", "NotImplementedError"]),
                ("regex", vec![r"def \w+_\w+\(self, \w+"]),
                ("-i word", vec!["-iw", "timeout"]),
            ],
        ),
        (
            "crates",
            registry,
            vec![
                ("literal", vec!["-F", "unsafe impl"]),
                ("regex", vec![r"fn \w+<T: \w+"]),
                ("-i word", vec!["-iw", "timeout"]),
            ],
        ),
    ];
    let mut table =
        Table::new("corpus · pattern · cache", &["cocosearch ms", "rg ms", "ratio", "cocosearch MB", "rg MB", "lines"]);
    for (name, source, patterns) in corpora {
        let (corpus, files, bytes) = same_files(name, &source);
        println!("{name}: {files} files, {:.0} MB at {}", bytes as f64 / 1e6, corpus.display());
        for (label, args) in &patterns {
            for cold in [false, true] {
                let ours = runs(&corpus, cold, || {
                    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cocosearch"));
                    clean_env(&mut cmd);
                    cmd.arg("grep").args(args);
                    cmd
                });
                let theirs = runs(&corpus, cold, || {
                    let mut cmd = Command::new(rg());
                    // Hidden files are in the file set (the index searches them); rg skips them unless told.
                    cmd.args(["-n", "--column", "--no-heading", "--hidden"]).args(args);
                    cmd
                });
                if ours.lines != theirs.lines {
                    println!("warning: {name} {label}: cocosearch printed {} lines, rg {}", ours.lines, theirs.lines);
                }
                let cache = if cold { "cold" } else { "warm" };
                table.row(
                    &format!("{name} · {label} · {cache}"),
                    vec![
                        format!("{:.0}", ms(ours.wall)),
                        format!("{:.0}", ms(theirs.wall)),
                        format!("{:.2}×", ms(ours.wall) / ms(theirs.wall)),
                        format!("{:.1}", ours.peak_mb),
                        format!("{:.1}", theirs.peak_mb),
                        ours.lines.to_string(),
                    ],
                );
            }
        }
    }
    table.print("cocosearch grep vs ripgrep (median wall time; peak RSS)");
}

/// What several runs of one command cost.
struct Runs {
    wall: Duration,
    peak_mb: f64,
    lines: usize,
}

fn runs(corpus: &Path, cold: bool, command: impl Fn() -> Command) -> Runs {
    let n = if cold { COLD_RUNS } else { WARM_RUNS };
    if !cold {
        measure(command().current_dir(corpus));
    }
    let mut walls = Vec::new();
    let (mut peak_mb, mut lines) = (0.0f64, 0);
    for _ in 0..n {
        if cold {
            drop_from_page_cache(corpus);
        }
        let m = measure(command().current_dir(corpus));
        assert!(m.code == 0, "{:?} failed ({}): {}", command().get_program(), m.code, m.stderr);
        walls.push(m.wall);
        peak_mb = peak_mb.max(m.peak_rss_mb);
        lines = m.stdout.lines().count();
    }
    walls.sort();
    Runs { wall: walls[walls.len() / 2], peak_mb, lines }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The environment of a run: no configuration of the user's, and an embedded store directory
/// of its own (the command opens no store, but nothing may depend on the machine's).
fn clean_env(cmd: &mut Command) {
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    let data = root().join("target/bench-corpora/grep-store");
    std::fs::create_dir_all(&data).expect("store dir");
    cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite").env("COCOSEARCH_DATABASE_PATH", data);
}

/// The files `cocosearch grep --files` lists in `source`, hard-linked (or copied) into a corpus
/// of their own under `target/bench-corpora/grep-<name>`, marked as a project; with the
/// number of files and their bytes.
fn same_files(name: &str, source: &Path) -> (PathBuf, usize, u64) {
    let corpus = root().join(format!("target/bench-corpora/grep-{name}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cocosearch"));
    clean_env(&mut cmd);
    let listed = cmd.args(["grep", "--files"]).current_dir(source).output().expect("cocosearch grep --files");
    assert!(listed.status.success(), "grep --files failed: {}", String::from_utf8_lossy(&listed.stderr));
    let files: Vec<String> = String::from_utf8_lossy(&listed.stdout).lines().map(str::to_string).collect();
    let recipe = format!("{}\n{}", source.display(), files.join("\n"));
    let marker = corpus.with_extension("done");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(recipe.as_str()) {
        let _ = std::fs::remove_dir_all(&corpus);
        std::fs::create_dir_all(corpus.join(".git")).expect("corpus");
        for file in &files {
            let to = corpus.join(file);
            std::fs::create_dir_all(to.parent().expect("parent")).expect("dirs");
            if std::fs::hard_link(source.join(file), &to).is_err() {
                std::fs::copy(source.join(file), &to).expect("copy");
            }
        }
        std::fs::write(&marker, &recipe).expect("marker");
    }
    let bytes = files.iter().map(|f| std::fs::metadata(corpus.join(f)).map_or(0, |m| m.len())).sum();
    (corpus, files.len(), bytes)
}

/// Drops every file of `dir` from the page cache (clean pages only; these are never written).
fn drop_from_page_cache(dir: &Path) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else if let Ok(file) = std::fs::File::open(&path) {
                use std::os::fd::AsRawFd;
                // SAFETY: a plain advisory call on a file descriptor we own.
                unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
            }
        }
    }
}
