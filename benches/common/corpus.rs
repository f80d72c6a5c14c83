//! Corpora of real code for the benchmarks, as real files: discovery does not follow symbolic
//! links, so a corpus of links to the standard library would index nothing.
//!
//! A linked corpus is built once under `target/bench-corpora/<name>/` from hard links to the
//! source files (the same filesystem: no copying, no extra space), falling back to copies where
//! a link is refused, and reused while its sources are the same. Its files share their inode
//! with the originals, so **nothing may write into a linked corpus**: a bench that edits files
//! uses [`copy_tree`] instead.

use std::path::{Path, PathBuf};

use super::root;

/// What a corpus is made of: (source directory, its name inside the corpus).
pub type Parts = Vec<(PathBuf, String)>;

/// How a tree was reproduced.
#[derive(Debug, Default, Clone, Copy)]
struct Made {
    linked: u64,
    copied: u64,
}

/// The corpus `name` made of `parts`, marked as a project (an empty `.git`), built from hard
/// links when missing or made of other parts, else reused.
pub fn linked_corpus(name: &str, parts: &Parts) -> PathBuf {
    let base = root().join("target/bench-corpora");
    let corpus = base.join(name);
    let marker = base.join(format!("{name}.done"));
    let recipe: String = parts.iter().map(|(from, to)| format!("{to} <- {}\n", from.display())).collect();
    if corpus.is_dir() && std::fs::read_to_string(&marker).ok().as_deref() == Some(recipe.as_str()) {
        return corpus;
    }
    let _ = std::fs::remove_file(&marker);
    match std::fs::remove_dir_all(&corpus) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("cannot delete {}: {e}", corpus.display()),
    }
    std::fs::create_dir_all(corpus.join(".git")).expect("create the corpus");
    let mut made = Made::default();
    for (from, to) in parts {
        reproduce(from, &corpus.join(to), Reproduce::Link, &mut made);
    }
    println!("built corpus {} ({} files hard-linked, {} copied)", corpus.display(), made.linked, made.copied);
    std::fs::write(&marker, recipe).expect("mark the corpus complete");
    corpus
}

/// The large corpus (the search and indexes benchmarks): the standard library with its
/// site-packages and the crate sources of this machine, hard-linked once under
/// `target/bench-corpora/big`.
pub fn big_corpus() -> PathBuf {
    let mut parts: Parts = vec![(stdlib(), "python-stdlib".to_string())];
    parts.extend(crate_sources());
    linked_corpus("big", &parts)
}

/// Copies a directory tree (regular files only, no `__pycache__`): for a corpus a bench edits.
pub fn copy_tree(from: &Path, to: &Path) {
    reproduce(from, to, Reproduce::Copy, &mut Made::default());
}

/// Whether files are linked or copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reproduce {
    Link,
    Copy,
}

/// Reproduces the regular files under `from` at `to`, leaving out `__pycache__` and symbolic
/// links (which discovery would not follow either).
fn reproduce(from: &Path, to: &Path, how: Reproduce, made: &mut Made) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("cannot create {}: {e}", to.display()));
    let entries = std::fs::read_dir(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    for entry in entries.flatten() {
        if entry.file_name() == "__pycache__" {
            continue;
        }
        let Ok(kind) = entry.file_type() else { continue };
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if kind.is_dir() {
            reproduce(&source, &target, how, made);
        } else if kind.is_file() {
            if how == Reproduce::Link && std::fs::hard_link(&source, &target).is_ok() {
                made.linked += 1;
            } else {
                std::fs::copy(&source, &target)
                    .unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", source.display(), target.display()));
                made.copied += 1;
            }
        }
    }
}

/// The Python standard library directory of this machine.
pub fn stdlib() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"])
        .output()
        .expect("python3");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// The unpacked crate sources of this machine (`~/.cargo/registry/src/*`), one part each.
pub fn crate_sources() -> Parts {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let registry = Path::new(&home).join(".cargo/registry/src");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&registry)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", registry.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter().enumerate().map(|(i, dir)| (dir, format!("crates-{i}"))).collect()
}
