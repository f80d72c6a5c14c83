//! What a file's path says to the ranking: whether the file is auxiliary (tests, examples,
//! fixtures, benchmarks, vendored or generated code), and whether its name is a name the query
//! asks for (`HashCodeBuilder.java` for `HashCodeBuilder`, `status.h` for `Status`).
//!
//! A question about code is rarely about its tests: of the files the multi-language benchmark
//! marks relevant, fewer than 1 in 100 are tests, yet tests share every word of the code they
//! test. Auxiliary files keep their place only when the query asks for their kind ("tests
//! for the router", "example of a middleware"; "Add doc on …" asks for docs, not tests).

use std::path::Path;

use crate::chunk::{Language, Role};

/// What an auxiliary file is for: a query asking for one kind ("Add doc on …") does not ask
/// for the others (the tests sharing the words of the code they test).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auxiliary {
    Tests,
    Examples,
    Docs,
    Benchmarks,
    /// Vendored, installed or generated code.
    Foreign,
}

/// A set of [`Auxiliary`] kinds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuxiliaryKinds(u8);

impl AuxiliaryKinds {
    fn with(self, kind: Auxiliary) -> AuxiliaryKinds {
        AuxiliaryKinds(self.0 | 1 << kind as u8)
    }

    /// Whether no kind is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a kind.
    pub fn meets(self, other: AuxiliaryKinds) -> bool {
        self.0 & other.0 != 0
    }
}

/// Directory names that hold auxiliary code, with its kind.
const AUXILIARY_DIRS: &[(&str, Auxiliary)] = &[
    ("test", Auxiliary::Tests),
    ("tests", Auxiliary::Tests),
    ("testing", Auxiliary::Tests),
    ("__tests__", Auxiliary::Tests),
    ("spec", Auxiliary::Tests),
    ("specs", Auxiliary::Tests),
    ("fixture", Auxiliary::Tests),
    ("fixtures", Auxiliary::Tests),
    ("testdata", Auxiliary::Tests),
    ("mock", Auxiliary::Tests),
    ("mocks", Auxiliary::Tests),
    ("example", Auxiliary::Examples),
    ("examples", Auxiliary::Examples),
    ("sample", Auxiliary::Examples),
    ("samples", Auxiliary::Examples),
    ("bench", Auxiliary::Benchmarks),
    ("benches", Auxiliary::Benchmarks),
    ("benchmark", Auxiliary::Benchmarks),
    ("benchmarks", Auxiliary::Benchmarks),
    ("vendor", Auxiliary::Foreign),
    ("third_party", Auxiliary::Foreign),
    ("node_modules", Auxiliary::Foreign),
    ("generated", Auxiliary::Foreign),
    ("doc", Auxiliary::Docs),
    ("docs", Auxiliary::Docs),
];

/// Words of a query that ask for auxiliary files, with the kind each asks for.
const ASKS_FOR_AUXILIARY: &[(&str, Auxiliary)] = &[
    ("test", Auxiliary::Tests),
    ("tests", Auxiliary::Tests),
    ("testing", Auxiliary::Tests),
    ("tested", Auxiliary::Tests),
    ("spec", Auxiliary::Tests),
    ("specs", Auxiliary::Tests),
    ("fixture", Auxiliary::Tests),
    ("fixtures", Auxiliary::Tests),
    ("mock", Auxiliary::Tests),
    ("mocks", Auxiliary::Tests),
    ("example", Auxiliary::Examples),
    ("examples", Auxiliary::Examples),
    ("sample", Auxiliary::Examples),
    ("bench", Auxiliary::Benchmarks),
    ("benchmark", Auxiliary::Benchmarks),
    ("benchmarks", Auxiliary::Benchmarks),
    ("vendored", Auxiliary::Foreign),
    ("generated", Auxiliary::Foreign),
    ("doc", Auxiliary::Docs),
    ("docs", Auxiliary::Docs),
    ("documentation", Auxiliary::Docs),
];

/// Whether the file at `path` (relative, `/`-separated) is auxiliary: under a directory named
/// by a word of [`AUXILIARY_DIRS`] (`tests/`, `docs_src/`), or named like a test.
pub fn is_auxiliary(path: &str) -> bool {
    !auxiliary_kinds(path).is_empty()
}

/// The kinds of auxiliary file the file at `path` is (`docs/examples/x.py`: docs and
/// examples); empty for the project's own code.
pub fn auxiliary_kinds(path: &str) -> AuxiliaryKinds {
    let mut parts = path.split('/').rev();
    let Some(name) = parts.next() else { return AuxiliaryKinds::default() };
    let mut kinds = AuxiliaryKinds::default();
    for dir in parts {
        // A name made of words counts by each (`docs_src`, `exposed-tests`, `integration_test`);
        // `_examples`, `_test`: a leading underscore keeps a directory out of a package, not its kind.
        let words = std::iter::once(dir).chain(dir.split(['_', '-', '.']).filter(|w| !w.is_empty()));
        for word in words {
            for (_, kind) in AUXILIARY_DIRS.iter().filter(|(a, _)| word.eq_ignore_ascii_case(a)) {
                kinds = kinds.with(*kind);
            }
        }
    }
    if named_like_a_test(name) { kinds.with(Auxiliary::Tests) } else { kinds }
}

/// Whether a file's name says it is a test (`test_x.py`, `x_test.go`, `x.test.ts`,
/// `x.spec.js`, `XTest.java`, `x_spec.rb`, `.bats`).
fn named_like_a_test(name: &str) -> bool {
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
    !asked_auxiliary(query).is_empty()
}

/// The kinds of auxiliary file the query asks for by its words ("tests for the router":
/// tests; "Add doc on Complex instances": docs, not tests).
pub fn asked_auxiliary(query: &str) -> AuxiliaryKinds {
    query.split(|c: char| !c.is_alphanumeric()).fold(AuxiliaryKinds::default(), |kinds, word| {
        ASKS_FOR_AUXILIARY
            .iter()
            .filter(|(a, _)| word.eq_ignore_ascii_case(a))
            .fold(kinds, |k, (_, kind)| k.with(*kind))
    })
}

/// Whether `name` is a file's name (`sessions.py`): its last dotted part is a source file's
/// extension. A list of its own, narrower than the language registry's: `response.text` and
/// `app.make` are attributes, though `text` and `make` name languages' files.
pub fn is_file_name(name: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        "py", "pyi", "js", "jsx", "mjs", "ts", "tsx", "go", "rs", "rb", "php", "java", "kt", "kts", "scala", "c", "h",
        "cc", "cpp", "hpp", "cs", "swift", "ex", "exs", "hs", "lua", "zig", "sh", "bash", "toml", "yaml", "yml",
        "json", "cfg", "ini", "txt", "md", "rst", "html", "css", "xml", "lock",
    ];
    name.rsplit_once('.').is_some_and(|(_, extension)| EXTENSIONS.contains(&extension))
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
            "docs_src/request_files/tutorial002.py",
            "exposed-tests/src/test/kotlin/Sql.kt",
            "integration_test/cases/repo.exs",
        ] {
            assert!(is_auxiliary(path), "{path}");
        }
        for path in [
            "src/click/testing.py",
            "lib/rack/request.rb",
            "Latest.java",
            "contest.py",
            "absl/status/status.h",
            "src/_pytest/python.py",
            "pylint/testutils/checker_test_case.py",
        ] {
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
    fn a_query_asking_for_one_kind_of_auxiliary_file_does_not_ask_for_the_others() {
        let docs = asked_auxiliary("Add doc on Complex instances");
        assert!(docs.meets(auxiliary_kinds("docs/instances.md")));
        assert!(!docs.meets(auxiliary_kinds("tests/Instances.hs")), "asking for docs is not asking for tests");
        assert!(docs.meets(auxiliary_kinds("docs/examples/complex.hs")), "a path may be of two kinds");
        let tests = asked_auxiliary("tests for the router");
        assert!(tests.meets(auxiliary_kinds("src/router_test.go")));
        assert!(!tests.meets(auxiliary_kinds("examples/router/main.go")));
        assert!(auxiliary_kinds("src/router.go").is_empty());
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
