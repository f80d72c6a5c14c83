//! Discovery on a tree with one example of every skip reason.

use super::*;

fn write(root: &Path, relative: &str, bytes: &[u8]) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn options(root: &Path) -> Options {
    Options {
        root: root.to_path_buf(),
        respect_gitignore: true,
        include: vec![],
        exclude: vec![],
        include_sensitive: vec![],
        max_file_size: 1000,
    }
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "src/main.py", b"print('hi')\n");
    write(root, "src/util/helpers.rs", b"fn main() {}\n");
    write(root, "README.md", b"# hi\n");
    write(root, ".github/workflows/ci.yml", b"on: push\n");
    write(root, ".gitignore", b"*.log\nignored_dir/\n");
    write(root, "debug.log", b"noise\n");
    write(root, "ignored_dir/a.txt", b"a\n");
    write(root, "ignored_dir/b.txt", b"b\n");
    write(root, ".cocosearchignore", b"generated/\n");
    write(root, "generated/out.py", b"x = 1\n");
    write(root, "node_modules/lib/index.js", b"module.exports = 1\n");
    write(root, "venv_named_oddly/pyvenv.cfg", b"home = /usr\n");
    write(root, "venv_named_oddly/lib/site.py", b"x = 1\n");
    write(root, "logo.png", b"\x89PNG");
    write(root, "Cargo.lock", b"# lock\n");
    write(root, ".env", b"SECRET=1\n");
    write(root, "config/id_rsa", b"-----BEGIN\n");
    write(root, ".aws/credentials", b"[default]\n");
    write(root, "big.txt", &[b'a'; 2000]);
    std::os::unix::fs::symlink(root, root.join("src/loop")).expect("symlink loop");
    std::os::unix::fs::symlink(root.join("nowhere"), root.join("dangling.py")).expect("dangling symlink");
    dir
}

#[test]
fn every_skipped_path_is_counted_by_reason() {
    let dir = tree();
    let found = discover(&options(dir.path())).expect("discover");
    let files: Vec<&str> = found.files.iter().map(|c| c.relative.as_str()).collect();
    assert_eq!(
        files,
        vec![
            ".cocosearchignore",
            ".github/workflows/ci.yml",
            ".gitignore",
            "README.md",
            "src/main.py",
            "src/util/helpers.rs"
        ]
    );
    let s = &found.skipped;
    // debug.log, ignored_dir/ (once), generated/ (once)
    assert_eq!(s.get(SkipReason::Ignored), 3, "{s:?}");
    // node_modules/, the virtualenv, logo.png, Cargo.lock
    assert_eq!(s.get(SkipReason::Excluded), 4, "{s:?}");
    // .env, config/id_rsa, .aws/
    assert_eq!(s.get(SkipReason::Sensitive), 3, "{s:?}");
    assert_eq!(s.get(SkipReason::TooLarge), 1, "{s:?}");
    // src/loop leads to the root above it; dangling.py to nothing.
    assert_eq!(s.get(SkipReason::SymlinkLoop), 1, "{s:?}");
    assert_eq!(s.get(SkipReason::SymlinkBroken), 1, "{s:?}");
    assert_eq!(s.get(SkipReason::Unreadable), 0, "{s:?}");
}

#[test]
fn symlinks_are_counted_by_where_they_lead_and_never_followed() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().expect("tempdir");
    for i in 0..50 {
        write(outside.path(), &format!("secrets/file_{i}.py"), b"x = 1\n");
    }
    write(outside.path(), "leak.py", b"password = 'hunter2'\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "src/main.py", b"print('hi')\n");
    symlink(outside.path().join("secrets"), root.join("home")).expect("symlink");
    symlink(outside.path().join("leak.py"), root.join("src/leak.py")).expect("symlink");
    symlink("..", root.join("up")).expect("symlink");
    symlink("loop_b", root.join("loop_a")).expect("symlink");
    symlink("loop_a", root.join("loop_b")).expect("symlink");
    symlink("src/main.py", root.join("alias.py")).expect("symlink");
    symlink("src", root.join("srcdir")).expect("symlink");
    symlink("nowhere/at/all", root.join("broken")).expect("symlink");

    let found = discover(&options(root)).expect("discover");
    let files: Vec<&str> = found.files.iter().map(|c| c.relative.as_str()).collect();
    assert_eq!(files, vec!["src/main.py"]);
    let s = &found.skipped;
    assert_eq!(s.get(SkipReason::Symlink), 2, "alias.py, srcdir: {s:?}");
    assert_eq!(s.get(SkipReason::SymlinkOutside), 3, "home, src/leak.py, up: {s:?}");
    assert_eq!(s.get(SkipReason::SymlinkLoop), 2, "loop_a, loop_b: {s:?}");
    assert_eq!(s.get(SkipReason::SymlinkBroken), 1, "{s:?}");
    // The walk that counts what ignore files hid does not follow links either: nothing behind
    // `home` or `up` is counted, let alone read.
    assert_eq!(s.total(), 8, "{s:?}");
    let mut listed: Vec<(&str, SkipReason)> = found.skipped_files.iter().map(|(p, r)| (p.as_str(), *r)).collect();
    listed.sort();
    assert_eq!(
        listed,
        vec![
            ("alias.py", SkipReason::Symlink),
            ("broken", SkipReason::SymlinkBroken),
            ("home", SkipReason::SymlinkOutside),
            ("loop_a", SkipReason::SymlinkLoop),
            ("loop_b", SkipReason::SymlinkLoop),
            ("src/leak.py", SkipReason::SymlinkOutside),
            ("srcdir", SkipReason::Symlink),
            ("up", SkipReason::SymlinkOutside),
        ]
    );
}

// The `ignore` crate follows links when it reads ignore files: a repository's
// `.gitignore -> /some/outside/file` made the walk read that file (its lines hid project files).
// A directory holding such a link is not entered; a root holding one is refused, naming it.
#[test]
fn ignore_files_linked_outside_the_project_are_never_read() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "patterns", b"*.py\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "main.py", b"x = 1\n");
    write(root, "plugins/lib.py", b"y = 2\n");
    write(root, "docs/.gitignore", b"*.tmp\n");
    write(root, "docs/guide.py", b"z = 3\n");
    symlink(outside.path().join("patterns"), root.join("plugins/.gitignore")).expect("symlink");
    symlink("../docs/.gitignore", root.join("docs/.ignore")).expect("a link inside the project is fine");
    let found = discover(&options(root)).expect("discover");
    let files: Vec<&str> = found.files.iter().map(|c| c.relative.as_str()).collect();
    assert_eq!(files, vec!["docs/.gitignore", "docs/guide.py", "main.py"]);
    // Read, the outside patterns would have hidden plugins/lib.py (counted as ignored).
    assert_eq!(found.skipped.get(SkipReason::Ignored), 0, "{:?}", found.skipped);
    assert_eq!(found.skipped.get(SkipReason::SymlinkOutside), 1, "plugins/: {:?}", found.skipped);

    for name in [".gitignore", ".ignore", IGNORE_FILE] {
        let project = tempfile::tempdir().expect("tempdir");
        write(project.path(), "main.py", b"x = 1\n");
        symlink(outside.path().join("patterns"), project.path().join(name)).expect("symlink");
        let err = discover(&options(project.path())).expect_err(name).to_string();
        assert!(err.contains(name) && err.contains("outside the project") && err.contains("copy"), "{err}");
    }
    let project = tempfile::tempdir().expect("tempdir");
    write(project.path(), "main.py", b"x = 1\n");
    write(outside.path(), "git/info/exclude", b"*.py\n");
    symlink(outside.path().join("git"), project.path().join(".git")).expect("symlink");
    let err = discover(&options(project.path())).expect_err(".git").to_string();
    assert!(err.contains("exclude"), "{err}");
}

#[test]
fn a_root_reached_through_a_link_is_walked_as_its_real_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("real"), "a.py", b"x = 1\n");
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("via")).expect("symlink");
    let found = discover(&options(&dir.path().join("via"))).expect("discover");
    let files: Vec<(&str, &Path)> = found.files.iter().map(|c| (c.relative.as_str(), c.path.as_path())).collect();
    let real = dir.path().join("real").canonicalize().expect("canonical");
    assert_eq!(files, vec![("a.py", real.join("a.py").as_path())]);
    assert_eq!(found.skipped.total(), 0);
}

#[test]
fn user_globs_and_gitignore_switch() {
    let dir = tree();
    let mut opts = options(dir.path());
    opts.include = vec!["*.py".into(), "*.log".into()];
    opts.exclude = vec!["util".into()];
    opts.include_sensitive = vec![".env".into()];
    opts.respect_gitignore = false;
    let found = discover(&opts).expect("discover");
    let files: Vec<&str> = found.files.iter().map(|c| c.relative.as_str()).collect();
    // .env is not *.py, so the include list still leaves it out; debug.log is back without git rules.
    assert_eq!(files, vec!["debug.log", "src/main.py"]);
    assert_eq!(found.skipped.get(SkipReason::Ignored), 1, "only .cocosearchignore's generated/ is ignored now");

    opts.include = vec![];
    let found = discover(&opts).expect("discover");
    assert!(found.files.iter().any(|c| c.relative == ".env"), "re-included sensitive file");
}

#[test]
fn bad_roots_are_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nope");
    assert!(matches!(discover(&options(&missing)), Err(DiscoverError::NotFound(_))));
    write(dir.path(), "file.txt", b"x");
    assert!(matches!(discover(&options(&dir.path().join("file.txt"))), Err(DiscoverError::NotADirectory(_))));
}

#[test]
fn the_directories_a_watcher_watches_are_those_the_index_walk_enters() {
    let dir = tree();
    let opts = options(dir.path());
    let walked = discover(&opts).expect("discover").directories;
    assert!(walked.len() > 1, "the tree has subdirectories: {walked:?}");
    assert_eq!(directories(&opts).expect("directories"), walked);
}

#[test]
fn the_parallel_walk_finds_the_same_files_and_names_the_same_sensitive_ones() {
    let dir = tree();
    let opts = options(dir.path());
    let full = discover(&opts).expect("discover");
    let found = Mutex::new(Vec::new());
    let walked = each_file(&opts, &[], |c| lock(&found).push(c.relative)).expect("walk");
    let mut files = found.into_inner().expect("files");
    files.sort();
    let expected: Vec<String> = full.files.iter().map(|c| c.relative.clone()).collect();
    assert_eq!(files, expected);
    let sensitive: Vec<String> = full
        .skipped_files
        .iter()
        .filter(|(_, reason)| *reason == SkipReason::Sensitive)
        .map(|(path, _)| path.clone())
        .collect();
    assert_eq!(walked.sensitive, vec![".env".to_string(), "config/id_rsa".to_string()]);
    assert_eq!(walked.sensitive, sensitive);
}
