//! What a file's path says to the ranking: whether the file is auxiliary (tests, examples,
//! fixtures, benchmarks, vendored or generated code), and whether its name is a name the query
//! asks for (`HashCodeBuilder.java` for `HashCodeBuilder`, `status.h` for `Status`).
//!
//! A question about code is rarely about its tests: of the files the multi-language benchmark
//! marks relevant, fewer than 1 in 100 are tests, yet tests share every word of the code they
//! test. Auxiliary files keep their place only when the query asks for them ("tests for the
//! router", "example of a middleware").

use std::path::Path;

use crate::chunk::{Language, Role};

/// Directory names that hold auxiliary code.
const AUXILIARY_DIRS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "example",
    "examples",
    "sample",
    "samples",
    "fixture",
    "fixtures",
    "testdata",
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "vendor",
    "third_party",
    "node_modules",
    "mock",
    "mocks",
    "generated",
    "doc",
    "docs",
];

/// Words of a query that ask for auxiliary files.
const ASKS_FOR_AUXILIARY: &[&str] = &[
    "test",
    "tests",
    "testing",
    "tested",
    "spec",
    "specs",
    "example",
    "examples",
    "sample",
    "fixture",
    "fixtures",
    "mock",
    "mocks",
    "bench",
    "benchmark",
    "benchmarks",
    "vendored",
    "generated",
    "doc",
    "docs",
    "documentation",
];

/// Whether the file at `path` (relative, `/`-separated) is auxiliary: under a directory of
/// [`AUXILIARY_DIRS`], or named like a test (`test_x.py`, `x_test.go`, `x.test.ts`,
/// `x.spec.js`, `XTest.java`, `x_spec.rb`, `.bats`).
pub fn is_auxiliary(path: &str) -> bool {
    let mut parts = path.split('/').rev();
    let Some(name) = parts.next() else { return false };
    // `_examples`, `_test`: a leading underscore keeps a directory out of a package, not its kind.
    if parts.any(|dir| {
        AUXILIARY_DIRS
            .iter()
            .any(|a| dir.eq_ignore_ascii_case(a) || dir.trim_start_matches('_').eq_ignore_ascii_case(a))
    }) {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    let stem_lower = stem.to_ascii_lowercase();
    stem_lower.starts_with("test_")
        || stem_lower.ends_with("_test")
        || stem_lower.ends_with("_tests")
        || stem_lower.ends_with("_spec")
        || stem_lower == "conftest"
        || lower.contains(".test.")
        || lower.contains(".spec.")
        || lower.ends_with(".bats")
        || ((stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("Spec")) && stem.len() > 4)
}

/// Whether the query asks for auxiliary files (tests, examples, …).
pub fn asks_for_auxiliary(query: &str) -> bool {
    query
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| ASKS_FOR_AUXILIARY.iter().any(|a| word.eq_ignore_ascii_case(a)))
}

/// Whether the query asks where or how something is done ("where are request hooks
/// registered") without asking for documentation: the code doing it is the answer.
pub fn asks_where_code_is(query: &str) -> bool {
    let first = query.split_whitespace().next().unwrap_or_default();
    ["where", "how", "which"].iter().any(|w| first.eq_ignore_ascii_case(w)) && !asks_for_auxiliary(query)
}

/// Words of a query that ask for configuration files: their formats and what they configure.
const ASKS_FOR_CONFIG: &[&str] = &[
    "yaml",
    "yml",
    "toml",
    "ini",
    "json",
    "xml",
    "cfg",
    "ci",
    "workflow",
    "workflows",
    "pipeline",
    "pipelines",
    "compose",
    "dockerfile",
    "helm",
    "manifest",
    "tox",
    "travis",
    "precommit",
];

/// Whether `path` holds configuration data (YAML, TOML, INI, JSON, XML).
pub fn is_config(path: &str) -> bool {
    Language::detect(Path::new(path), "").is_some_and(|language| language.role() == Role::Config)
}

/// Whether the query asks for configuration files by a format or a tool they configure
/// (`docker compose services`, `the CI workflow`); not for `config`, which code loads too.
pub fn asks_for_config(query: &str) -> bool {
    query.split(|c: char| !c.is_alphanumeric()).any(|word| ASKS_FOR_CONFIG.iter().any(|a| word.eq_ignore_ascii_case(a)))
}

/// Folded names ([`folded_stem`]) of release notes, a project's record of every change: it
/// shares the words of any question about one change, and is rarely what the question means.
const RELEASE_NOTES: &[&str] =
    &["changelog", "changes", "history", "news", "releases", "releasenotes", "whatsnew", "upgrading"];

/// Directories of release-note fragments (towncrier's `changelog/1234.bugfix.rst`,
/// `CHANGES/3310.bugfix`).
const RELEASE_NOTE_DIRS: &[&str] = &["changelog", "changes", "changelog.d", "newsfragments", "fragments", "whatsnew"];

/// Words of a query that ask for release notes.
const ASKS_FOR_RELEASE_NOTES: &[&str] = &[
    "changelog",
    "changes",
    "changed",
    "release",
    "released",
    "releases",
    "news",
    "history",
    "version",
    "versions",
    "upgrading",
];

/// Whether `path` is release notes: a changelog (`CHANGES.rst`, `CHANGELOG.md`, `changes.xml`,
/// `NEWS`) or a fragment of one, in prose or data, never code (`history.py` is code).
pub fn is_release_notes(path: &str) -> bool {
    let prose_or_data = Language::detect(Path::new(path), "")
        .is_none_or(|language| language.is_prose() || language.role() == Role::Config);
    if !prose_or_data {
        return false;
    }
    let mut parts = path.rsplit('/');
    let named = parts.next().is_some_and(|name| RELEASE_NOTES.contains(&folded_stem(name).as_str()));
    named || parts.any(|dir| RELEASE_NOTE_DIRS.iter().any(|d| dir.eq_ignore_ascii_case(d)))
}

/// Whether the query asks for release notes (`what changed in 2.0`, `release history`).
pub fn asks_for_release_notes(query: &str) -> bool {
    query
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| ASKS_FOR_RELEASE_NOTES.iter().any(|a| word.eq_ignore_ascii_case(a)))
}

/// A name folded for comparison: lowercase, without `_`, `-` and `.` (so `hash_code_builder`,
/// `HashCodeBuilder` and `hash-code-builder` agree).
pub fn fold_name(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, '_' | '-' | '.' | ' ')).flat_map(char::to_lowercase).collect()
}

/// The file's name without its extensions, folded ([`fold_name`]): `SqlMapper.cs` →
/// `sqlmapper`, `SqlMapper.Async.cs` → `sqlmapperasync`, `status.h` → `status`.
pub fn folded_stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    };
    fold_name(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_notes_are_changelogs_and_their_fragments_never_code() {
        for notes in [
            "CHANGES.rst",
            "CHANGELOG.md",
            "src/changes/changes.xml",
            "NEWS",
            "CHANGES/3310.bugfix",
            "changelog/1234.bugfix.rst",
            "doc/whatsnew/fragments/8000.false_positive",
        ] {
            assert!(is_release_notes(notes), "{notes}");
        }
        for other in ["history.py", "src/changes/models.py", "README.md", "docs/guide.md", "lib/news.rb"] {
            assert!(!is_release_notes(other), "{other}");
        }
        assert!(asks_for_release_notes("what changed in version 2"));
        assert!(!asks_for_release_notes("fix pipelining a rejected upgrade request"));
    }

    #[test]
    fn auxiliary_files_are_told_by_their_directories_and_names() {
        for path in [
            "tests/test_api.py",
            "src/foo/testing/util.py",
            "status/status_test.cc",
            "lib/x.test.ts",
            "src/Foo.spec.js",
            "src/test/java/org/x/FooTest.java",
            "spec/rack/request_spec.rb",
            "test/lib/helpers.bats",
            "examples/hello/main.go",
            "vendor/github.com/x/y.go",
            "routing/tests/mod.rs",
            "_examples/custom-method/main.go",
            "src/__tests__/client.ts",
        ] {
            assert!(is_auxiliary(path), "{path}");
        }
        for path in ["src/click/testing.py", "lib/rack/request.rb", "Latest.java", "contest.py", "absl/status/status.h"]
        {
            assert!(!is_auxiliary(path), "{path}");
        }
    }

    #[test]
    fn a_query_asks_for_auxiliary_files_by_its_words() {
        assert!(asks_for_auxiliary("tests for the router"));
        assert!(asks_for_auxiliary("example middleware"));
        assert!(!asks_for_auxiliary("latest request contest"));
    }

    #[test]
    fn stems_fold_case_and_separators() {
        assert_eq!(folded_stem("Dapper/SqlMapper.cs"), "sqlmapper");
        assert_eq!(folded_stem("Dapper/SqlMapper.Async.cs"), "sqlmapperasync");
        assert_eq!(folded_stem("lib/hash_code_builder.rb"), "hashcodebuilder");
        assert_eq!(folded_stem("Makefile"), "makefile");
        assert_eq!(fold_name("HashCodeBuilder"), "hashcodebuilder");
    }
}
