//! Tests for the chunk module: grammar loading, query compilation, language
//! detection, the chunker's behaviour through one `check` helper, the
//! expected symbols of every fixture, syntax errors, the fallback paths, and
//! the coverage invariant over fixtures, mutations and edge cases.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::queries;
use super::*;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Options with the given budget and defaults otherwise.
fn opts(budget: usize) -> ChunkOptions {
    ChunkOptions { max_chunk_bytes: budget, ..ChunkOptions::default() }
}

/// Removes the common indentation of an expected block and its blank
/// first and last lines.
fn dedent(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect::<Vec<_>>().join("\n").trim().to_string()
}

/// One line per chunk: `L3-9 ok function f, method A.g [ctx: class A]`.
fn render(file: &ChunkedFile) -> String {
    file.chunks
        .iter()
        .map(|c| {
            let mut line = format!("L{}-{} {}", c.line_start, c.line_end, c.parse_status);
            let symbols: Vec<String> = c.symbols.iter().map(|s| format!("{} {}", s.kind, s.qualified_name)).collect();
            if !symbols.is_empty() {
                line.push(' ');
                line.push_str(&symbols.join(", "));
            }
            if !c.context.is_empty() {
                line.push_str(&format!(" [ctx: {}]", c.context.join(" / ")));
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Chunks `source` with `budget`, checks the invariants, and compares the
/// rendering with `expect`.
#[track_caller]
pub(super) fn check(lang: Option<Language>, budget: usize, source: &str, expect: &str) {
    let file = chunk_source(lang, source, &opts(budget));
    assert_invariants(source, &file, budget, lang);
    let actual = render(&file);
    assert_eq!(actual, dedent(expect), "\nactual:\n{actual}\n");
}

/// The 1-based line of every byte, computed naively (a `'\n'` belongs to
/// the line it ends).
fn naive_lines(src: &str) -> Vec<u32> {
    let mut line = 1;
    src.bytes()
        .map(|b| {
            let this = line;
            if b == b'\n' {
                line += 1;
            }
            this
        })
        .collect()
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// Whether chunks of `lang` come from the text fallback (and may overlap).
fn is_fallback(file: &ChunkedFile) -> bool {
    matches!(file.parse_status, ParseStatus::Error | ParseStatus::Unsupported)
}

/// The chunk invariants: non-empty, on char boundaries, trimmed, ordered,
/// disjoint unless from the fallback, within budget unless one char, exact
/// lines, every non-whitespace byte covered, and a file status that is the
/// worst chunk status.
#[track_caller]
pub(super) fn assert_invariants(src: &str, file: &ChunkedFile, budget: usize, lang: Option<Language>) {
    let ctx = format!("lang {lang:?}, budget {budget}");
    let bytes = src.as_bytes();
    let fallback = is_fallback(file);
    let mut prev: Option<&Chunk> = None;
    let mut covered_to = 0;
    let lines = naive_lines(src);
    for c in &file.chunks {
        assert!(c.byte_start < c.byte_end, "empty chunk {c:?} ({ctx})");
        assert!(c.byte_end <= src.len(), "chunk past the end ({ctx})");
        assert!(
            src.is_char_boundary(c.byte_start) && src.is_char_boundary(c.byte_end),
            "chunk {}..{} not on char boundaries ({ctx})",
            c.byte_start,
            c.byte_end
        );
        assert!(
            !is_ws(bytes[c.byte_start]) && !is_ws(bytes[c.byte_end - 1]),
            "chunk {}..{} not trimmed ({ctx})",
            c.byte_start,
            c.byte_end
        );
        let text = &src[c.byte_start..c.byte_end];
        assert!(
            c.byte_end - c.byte_start <= budget.max(1) || text.chars().count() == 1,
            "chunk {}..{} of {} bytes exceeds the budget ({ctx})",
            c.byte_start,
            c.byte_end,
            c.byte_end - c.byte_start
        );
        assert_eq!(c.line_start, lines[c.byte_start], "line_start ({ctx})");
        assert_eq!(c.line_end, lines[c.byte_end - 1], "line_end ({ctx})");
        if let Some(p) = prev {
            assert!(p.byte_start < c.byte_start, "chunks out of order ({ctx})");
            assert!(p.byte_end < c.byte_end, "chunks out of order ({ctx})");
            if !fallback {
                assert!(p.byte_end <= c.byte_start, "parsed chunks overlap ({ctx})");
            }
        }
        assert!(
            bytes[covered_to..c.byte_start.max(covered_to)].iter().all(|b| is_ws(*b)),
            "non-whitespace byte between {covered_to} and {} is not covered ({ctx})",
            c.byte_start
        );
        covered_to = covered_to.max(c.byte_end);
        prev = Some(c);
    }
    assert!(
        bytes[covered_to..].iter().all(|b| is_ws(*b)),
        "non-whitespace after the last chunk is not covered ({ctx})"
    );
    let worst = file.chunks.iter().fold(ParseStatus::Ok, |acc, c| acc.worst(c.parse_status));
    if !file.chunks.is_empty() {
        assert_eq!(file.parse_status, worst, "file status is the worst chunk status ({ctx})");
    }
    assert!(file.errors.len() <= 10, "at most ten errors are reported ({ctx})");
    for pair in file.errors.windows(2) {
        assert!((pair[0].line, pair[0].column) <= (pair[1].line, pair[1].column), "errors in source order ({ctx})");
    }
    if !file.errors.is_empty() && !file.chunks.is_empty() {
        assert_ne!(file.parse_status, ParseStatus::Ok, "errors imply a partial file ({ctx})");
    }
}

fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// Every file of a fixture directory, sorted, with its detected language.
fn fixtures(name: &str) -> Vec<(PathBuf, Option<Language>, String)> {
    let dir = fixture_dir(name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("fixture directory {} must exist: {e}", dir.display()))
        .map(|entry| entry.expect("readable fixture entry").path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let src = std::fs::read_to_string(&path).expect("fixture is UTF-8 text");
            let lang = Language::detect(&path, &src);
            (path, lang, src)
        })
        .collect()
}

/// A tiny xorshift generator, so the mutation tests are deterministic
/// without extra crates.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Deletes or inserts a few random bytes (on char boundaries) to create
/// syntax errors.
fn mutate(src: &str, rng: &mut XorShift) -> String {
    const INSERTS: &[&str] = &[
        "{", "}", "(", ")", "[", "]", ";", ":", ",", "\"", "'", "`", "<", ">", "/*", "#", "\n", "\t", " ", "é", "€",
        "😀", "def ", "fn ", "class ", "=", "\\", "$$", "---\n", "<?php",
    ];
    let mut s = src.to_string();
    for _ in 0..1 + rng.below(4) {
        if s.is_empty() || rng.below(2) == 0 {
            let mut at = rng.below(s.len() + 1);
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            s.insert_str(at, INSERTS[rng.below(INSERTS.len())]);
        } else {
            let mut start = rng.below(s.len());
            while !s.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + 1 + rng.below(12)).min(s.len());
            while !s.is_char_boundary(end) {
                end += 1;
            }
            s.replace_range(start..end, "");
        }
    }
    s
}

// ---------------------------------------------------------------------------
// Grammars, queries, names
// ---------------------------------------------------------------------------

/// A small valid program for each grammar.
fn sample(lang: Language) -> Option<&'static str> {
    use Language::*;
    Some(match lang {
        Python => "def f():\n    return 1\n",
        JavaScript => "function f() { return 1; }\n",
        TypeScript => "let x: number = 1;\n",
        Tsx => "const a = <div>hi</div>;\n",
        Go => "package main\n\nfunc main() {}\n",
        Rust => "fn main() {}\n",
        Java => "class A { void f() {} }\n",
        C => "int main(void) { return 0; }\n",
        Cpp => "class A { public: int f(); };\n",
        CSharp => "class A { void F() {} }\n",
        Ruby => "def f\n  1\nend\n",
        Php => "<?php\nfunction f() { return 1; }\n",
        Kotlin => "fun main() {}\n",
        Scala => "object A { def f = 1 }\n",
        Swift => "func f() -> Int { return 1 }\n",
        Lua => "local function f() return 1 end\n",
        Elixir => "defmodule A do\n  def f, do: 1\nend\n",
        Haskell => "module A where\n\nf :: Int\nf = 1\n",
        Zig => "pub fn main() void {}\n",
        Bash => "f() { echo hi; }\n",
        Hcl => "a = 1\n",
        Dockerfile => "FROM alpine\nRUN echo hi\n",
        Sql => "SELECT 1;\n",
        Yaml => "a: 1\n",
        Json => "{\"a\": 1}\n",
        Toml => "a = 1\n",
        Markdown => "# Title\n\nText.\n",
        Html => "<p>hi</p>\n",
        Css => "a { color: red; }\n",
        Makefile | Groovy | Ini | Rst | Xml | Text => return None,
    })
}

#[test]
fn every_grammar_loads_and_parses_a_sample() {
    for &lang in Language::all() {
        let Some(grammar) = lang.grammar() else {
            assert!(sample(lang).is_none(), "{lang} has a sample but no grammar");
            continue;
        };
        let source = sample(lang).unwrap_or_else(|| panic!("{lang} needs a sample"));
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&grammar)
            .unwrap_or_else(|e| panic!("{lang}: grammar ABI {} rejected: {e}", grammar.abi_version()));
        let tree = parser.parse(source, None).expect("a parse without timeout succeeds");
        assert!(!tree.root_node().has_error(), "{lang}: sample has errors");
    }
}

#[test]
fn every_query_compiles() {
    for &lang in Language::all() {
        let has_query = queries::query_source(lang).is_some();
        assert_eq!(queries::compiled(lang).is_some(), has_query, "{lang}");
        assert_eq!(
            lang.has_symbols(),
            has_query || lang == Language::Dockerfile,
            "{lang}: has_symbols matches the extractors"
        );
    }
}

#[test]
fn language_names_round_trip() {
    let mut seen = std::collections::HashSet::new();
    for (i, &lang) in Language::all().iter().enumerate() {
        assert_eq!(lang.index(), i, "{lang}: index matches all()");
        assert!(seen.insert(lang.name()), "{lang}: duplicate name");
        assert_eq!(Language::from_name(lang.name()), Some(lang));
        assert_eq!(Language::from_name(&lang.name().to_uppercase()), Some(lang));
        assert_eq!(lang.name().parse::<Language>(), Ok(lang));
        assert_eq!(lang.to_string(), lang.name());
        for alias in lang.aliases() {
            assert_eq!(Language::from_name(alias), Some(lang), "alias {alias}");
            assert!(seen.insert(alias), "alias {alias} is used twice");
        }
        for ext in lang.extensions() {
            assert_eq!(ext, &ext.to_ascii_lowercase(), "extensions are lowercase");
        }
    }
    assert_eq!(Language::COUNT, Language::all().len());
}

#[test]
fn language_aliases() {
    use Language::*;
    let cases: &[(&str, Option<Language>)] = &[
        ("terraform", Some(Hcl)),
        ("tf", Some(Hcl)),
        ("shell", Some(Bash)),
        ("sh", Some(Bash)),
        ("zsh", Some(Bash)),
        ("ts", Some(TypeScript)),
        ("tsx", Some(Tsx)),
        ("js", Some(JavaScript)),
        ("py", Some(Python)),
        ("rs", Some(Rust)),
        ("golang", Some(Go)),
        ("c++", Some(Cpp)),
        ("cxx", Some(Cpp)),
        ("C#", Some(CSharp)),
        ("cs", Some(CSharp)),
        ("md", Some(Markdown)),
        ("yml", Some(Yaml)),
        ("kt", Some(Kotlin)),
        ("rb", Some(Ruby)),
        ("docker", Some(Dockerfile)),
        ("jenkinsfile", Some(Groovy)),
        (" Python ", Some(Python)),
        ("nope", None),
        ("", None),
    ];
    for (name, expected) in cases {
        assert_eq!(Language::from_name(name), *expected, "{name:?}");
    }
    let err = "nope".parse::<Language>().expect_err("unknown names are rejected");
    assert_eq!(err.to_string(), r#"unknown language "nope""#);
}

#[test]
fn detect_uses_file_name_extension_then_shebang() {
    use Language::*;
    let cases: &[(&str, &str, Option<Language>)] = &[
        ("src/main.rs", "", Some(Rust)),
        ("pkg/MODULE.PY", "", Some(Python)),
        ("typing.pyi", "", Some(Python)),
        ("x.mjs", "", Some(JavaScript)),
        ("x.cjs", "", Some(JavaScript)),
        ("App.tsx", "", Some(Tsx)),
        ("main.tf", "", Some(Hcl)),
        ("prod.tfvars", "", Some(Hcl)),
        ("job.hcl", "", Some(Hcl)),
        ("Dockerfile", "", Some(Dockerfile)),
        ("docker/Dockerfile.prod", "", Some(Dockerfile)),
        ("api.dockerfile", "", Some(Dockerfile)),
        ("Containerfile", "", Some(Dockerfile)),
        ("dockerfile", "", Some(Dockerfile)),
        ("Makefile", "", Some(Makefile)),
        ("GNUmakefile", "", Some(Makefile)),
        ("rules.mk", "", Some(Makefile)),
        ("Jenkinsfile", "", Some(Groovy)),
        ("Jenkinsfile.release", "", Some(Groovy)),
        (".bashrc", "", Some(Bash)),
        (".zshrc", "", Some(Bash)),
        (".profile", "", Some(Bash)),
        (".bash_profile", "", Some(Bash)),
        ("Rakefile", "", Some(Ruby)),
        ("Gemfile", "", Some(Ruby)),
        ("build.gradle.kts", "", Some(Kotlin)),
        ("config.yml", "", Some(Yaml)),
        ("Cargo.lock", "", Some(Toml)),
        ("x.hpp", "", Some(Cpp)),
        ("x.cc", "", Some(Cpp)),
        ("x.h", "int f(void);\n", Some(C)),
        ("x.H", "#pragma once\nnamespace a {}\n", Some(Cpp)),
        ("x.h", "class A {\npublic:\n  int f();\n};\n", Some(Cpp)),
        ("x.h", "#include <string>\nstd::string f();\n", Some(Cpp)),
        ("notes.txt", "", Some(Text)),
        ("tool", "#!/usr/bin/env python3\nprint(1)\n", Some(Python)),
        ("tool", "#!/usr/bin/python3.12 -u\n", Some(Python)),
        ("tool", "#!/bin/bash\n", Some(Bash)),
        ("tool", "#!/bin/sh -e\n", Some(Bash)),
        ("tool", "#!/usr/bin/zsh\n", Some(Bash)),
        ("tool", "#!/usr/bin/env -S node --harmony\n", Some(JavaScript)),
        ("tool", "#!/usr/bin/env -u HOME ruby\n", Some(Ruby)),
        ("tool", "#!/usr/bin/php\n", Some(Php)),
        ("tool", "#!/usr/bin/env lua5.4\n", Some(Lua)),
        ("tool", "#!/usr/bin/env perl\n", None),
        ("x.sh", "#!/usr/bin/env python\n", Some(Bash)),
        ("x.unknown", "", None),
        ("README", "hello\n", None),
        ("", "", None),
    ];
    for (path, head, expected) in cases {
        assert_eq!(Language::detect(Path::new(path), head), *expected, "{path} {head:?}");
    }
}

#[test]
fn a_header_is_cpp_when_its_first_cpp_line_comes_after_a_long_licence() {
    // abseil's headers open with a licence and a long comment: the C++ begins
    // past line 200, and all of the text is looked at.
    let header = format!("{}#include <cstddef>\n\nnamespace absl {{\n}}\n", "// Licensed under ...\n".repeat(300));
    assert_eq!(Language::detect(Path::new("absl/time/time.h"), &header), Some(Language::Cpp));
    let c_header = format!("{}int f(void);\n", "/* comment */\n".repeat(300));
    assert_eq!(Language::detect(Path::new("lib/x.h"), &c_header), Some(Language::C));
}

#[test]
fn status_and_kind_names_round_trip() {
    for &status in ParseStatus::all() {
        assert_eq!(status.as_str().parse::<ParseStatus>(), Ok(status));
        assert_eq!(status.to_string(), status.as_str());
        assert_eq!(status.worst(ParseStatus::Ok), status);
        assert_eq!(ParseStatus::Error.worst(status), ParseStatus::Error);
    }
    assert_eq!(ParseStatus::Ok.worst(ParseStatus::Partial), ParseStatus::Partial);
    for &kind in SymbolKind::all() {
        assert_eq!(kind.as_str().parse::<SymbolKind>(), Ok(kind));
        assert_eq!(kind.to_string(), kind.as_str());
    }
    let err = "lambda".parse::<SymbolKind>().expect_err("unknown kind");
    assert_eq!(err.to_string(), r#"unknown symbol kind "lambda""#);
    assert!("fine".parse::<ParseStatus>().is_err());
}

// ---------------------------------------------------------------------------
// Chunker behaviour
// ---------------------------------------------------------------------------

#[test]
fn small_file_is_one_chunk() {
    check(
        Some(Language::Python),
        1000,
        "import os\n\n\ndef f():\n    return 1\n\n\nclass A:\n    def g(self):\n        pass\n",
        "L1-10 ok function f, class A, method A.g",
    );
}

#[test]
fn empty_and_blank_sources_have_no_chunks() {
    for lang in [Some(Language::Python), Some(Language::Markdown), None] {
        for src in ["", "   \n\t\r\n  "] {
            let file = chunk_source(lang, src, &ChunkOptions::default());
            assert!(file.chunks.is_empty(), "{lang:?} {src:?}");
            let expected = if lang.is_some() { ParseStatus::Ok } else { ParseStatus::Unsupported };
            assert_eq!(file.parse_status, expected, "{lang:?} {src:?}");
            assert!(file.errors.is_empty());
        }
    }
}

const SPLIT_CLASS: &str = r#"import os


class Session(Base):
    """A session."""

    def __init__(self, headers=None):
        self.headers = headers or {}
        self.cookies = {}

    # Returns a header.
    @property
    def user_agent(self):
        return self.headers.get("User-Agent", "sample/1.0")

    def get(self, url, params=None, **kwargs):
        kwargs.setdefault("timeout", 30)
        return self.request("GET", url, params=params, **kwargs)


default = Session()


def main():
    print(default.get("https://example.com"))
"#;

/// The class is split at its methods, which get the class as context; the module-level
/// variable after the class is a definition of its own, and joins the next function.
#[test]
fn oversized_class_splits_at_methods_with_context() {
    check(
        Some(Language::Python),
        190,
        SPLIT_CLASS,
        "
        L1-9 ok class Session, method Session.__init__
        L11-14 ok method Session.user_agent [ctx: class Session(Base)]
        L16-18 ok method Session.get [ctx: class Session(Base)]
        L21-25 ok variable default, function main
        ",
    );
}

#[test]
fn rust_impl_methods_get_impl_context() {
    let src = r#"use std::fmt;

/// A wrapper.
pub struct Foo<T>(T);

impl<T: fmt::Debug> fmt::Display for Foo<T> {
    /// Formats the value.
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }

    fn helper(&self) -> usize {
        let x = 1;
        x + 1
    }
}
"#;
    check(
        Some(Language::Rust),
        160,
        src,
        "
        L1-6 ok struct Foo, impl Foo
        L7-11 ok method Foo::fmt [ctx: impl<T: fmt::Debug> fmt::Display for Foo<T>]
        L13-17 ok method Foo::helper [ctx: impl<T: fmt::Debug> fmt::Display for Foo<T>]
        ",
    );
}

#[test]
fn oversized_leaf_splits_at_lines_and_chars() {
    let src = format!(
        "X = \"\"\"\n{}\n\"\"\"\n\n\ndef f():\n    return 1\n",
        "é".repeat(40) + "\nsecond line of the string\n" + &"word ".repeat(30)
    );
    check(
        Some(Language::Python),
        64,
        &src,
        r#"
        L1-1 ok constant X
        L2-2 ok [ctx: X = """]
        L2-3 ok [ctx: X = """]
        L4-4 ok [ctx: X = """]
        L4-4 ok [ctx: X = """]
        L4-5 ok [ctx: X = """]
        L8-9 ok function f
        "#,
    );
}

#[test]
fn markdown_sections_get_parent_headings() {
    let src = "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer and wait for it to finish.\n\n### Linux\n\nUse the package manager.\n\n## Usage\n\nRun it.\n";
    check(
        Some(Language::Markdown),
        60,
        src,
        "
        L1-3 ok heading Guide
        L5-7 ok heading Guide > Install [ctx: # Guide]
        L9-11 ok heading Guide > Install > Linux [ctx: # Guide / ## Install]
        L13-15 ok heading Guide > Usage [ctx: # Guide]
        ",
    );
}

#[test]
fn data_files_split_at_top_level_keys() {
    let yaml = "# Settings.\nservice:\n  name: demo\n  port: 8080\ndatabase:\n  url: postgres://localhost/demo\n  pool: 4\nfeatures: [a, b]\n";
    check(
        Some(Language::Yaml),
        60,
        yaml,
        "
        L1-4 ok variable service
        L5-7 ok variable database
        L8-8 ok variable features
        ",
    );
    let json = "{\n  \"name\": \"demo\",\n  \"scripts\": {\n    \"build\": \"tsc -p .\",\n    \"test\": \"vitest run --coverage\"\n  },\n  \"private\": true\n}\n";
    check(
        Some(Language::Json),
        50,
        json,
        r#"
        L1-2 ok variable name
        L3-4 ok variable scripts
        L5-6 ok [ctx: "scripts":]
        L7-8 ok variable private
        "#,
    );
    let toml = "title = \"demo\"\n\n[server]\nhost = \"127.0.0.1\"\nport = 8080\n\n[database]\nurl = \"postgres://localhost/demo\"\n";
    check(
        Some(Language::Toml),
        50,
        toml,
        "
        L1-1 ok variable title
        L3-5 ok module server
        L7-8 ok module database
        ",
    );
}

#[test]
fn dockerfile_stages_and_instructions() {
    let src = "FROM rust:1.95 AS build\nWORKDIR /src\nCOPY . .\nRUN cargo build --release\n\nFROM debian:bookworm-slim\nCOPY --from=build /src/target/release/app /usr/local/bin/app\nENTRYPOINT [\"app\"]\n";
    check(
        Some(Language::Dockerfile),
        1000,
        src,
        "
        L1-4 ok stage build, instruction build.WORKDIR, instruction build.COPY, instruction build.RUN
        L6-8 ok stage debian:bookworm-slim, instruction debian:bookworm-slim.COPY, instruction debian:bookworm-slim.ENTRYPOINT
        ",
    );
    check(
        Some(Language::Dockerfile),
        60,
        src,
        "
        L1-3 ok stage build, instruction build.WORKDIR, instruction build.COPY
        L4-4 ok instruction build.RUN [ctx: FROM rust:1.95 AS build]
        L6-6 ok stage debian:bookworm-slim
        L7-7 ok instruction debian:bookworm-slim.COPY [ctx: FROM debian:bookworm-slim]
        L8-8 ok instruction debian:bookworm-slim.ENTRYPOINT [ctx: FROM debian:bookworm-slim]
        ",
    );
}

#[test]
fn hcl_blocks_are_one_chunk_each() {
    let src = "variable \"region\" {\n  default = \"eu\"\n}\n\nresource \"aws_s3_bucket\" \"logs\" {\n  bucket = \"logs\"\n}\n";
    check(
        Some(Language::Hcl),
        1000,
        src,
        "
        L1-3 ok variable variable.region
        L5-7 ok resource resource.aws_s3_bucket.logs
        ",
    );
}

#[test]
fn go_and_cpp_methods_are_qualified_by_their_type() {
    let go = "package s\n\ntype Store struct{ n int }\n\nfunc (s *Store) Get(k string) int { return s.n }\n\nfunc (p Pair[K, V]) Swap() {}\n";
    check(Some(Language::Go), 1000, go, "L1-7 ok struct Store, method Store.Get, method Pair.Swap");
    let cpp = "namespace geo {\nclass Circle {\n public:\n  double area() const;\n};\ndouble Circle::area() const { return 1.0; }\n}\n";
    check(Some(Language::Cpp), 1000, cpp, "L1-7 ok module geo, class Circle, method Circle::area, method Circle::area");
}

#[test]
fn text_fallback_overlaps_at_line_boundaries() {
    let src = "alpha line one\nalpha line two\n\nbeta line one\nbeta line two\nbeta line three\n\ngamma line one\n";
    let file =
        chunk_source(None, src, &ChunkOptions { max_chunk_bytes: 40, overlap_bytes: 16, ..ChunkOptions::default() });
    assert_invariants(src, &file, 40, None);
    let texts: Vec<&str> = file.chunks.iter().map(|c| c.text(src)).collect();
    assert_eq!(
        texts,
        vec![
            "alpha line one\nalpha line two",
            "alpha line two\n\nbeta line one",
            "beta line one\nbeta line two",
            "beta line two\nbeta line three",
            "beta line three\n\ngamma line one",
        ]
    );
}

#[test]
fn grammar_less_and_unknown_languages_are_unsupported() {
    let src = "build:\n\tcargo build\n\ntest: build\n\tcargo test\n";
    check(Some(Language::Makefile), 1000, src, "L1-5 unsupported");
    check(None, 1000, src, "L1-5 unsupported");
    check(
        None,
        20,
        src,
        "
        L1-2 unsupported
        L4-4 unsupported
        L5-5 unsupported
        ",
    );
}

#[test]
fn oversized_sources_fall_back_with_error_status() {
    let src = "def f():\n    return 1\n\n\ndef g():\n    return 2\n";
    let options = ChunkOptions { max_parse_bytes: 10, ..ChunkOptions::default() };
    let file = chunk_source(Some(Language::Python), src, &options);
    assert_invariants(src, &file, options.max_chunk_bytes, Some(Language::Python));
    assert_eq!(render(&file), "L1-6 error");
    assert_eq!(file.parse_status, ParseStatus::Error);
}

/// About 200 KB of valid Python.
fn big_python() -> String {
    (0..4000).map(|i| format!("def function_{i}(a, b):\n    return a * {i} + b\n\n\n")).collect()
}

#[test]
fn parse_timeout_falls_back_and_the_parser_recovers() {
    let src = big_python();
    let mut chunker = Chunker::new();
    let options = ChunkOptions { parse_timeout: Duration::ZERO, ..ChunkOptions::default() };
    let file = chunker.chunk(Some(Language::Python), &src, &options);
    assert_invariants(&src, &file, options.max_chunk_bytes, Some(Language::Python));
    assert_eq!(file.parse_status, ParseStatus::Error);
    assert!(file.chunks.iter().all(|c| c.parse_status == ParseStatus::Error && c.symbols.is_empty()));
    // The same chunker parses normally afterwards: the cancelled parse was
    // reset rather than resumed.
    let small = "def f():\n    return 1\n";
    let file = chunker.chunk(Some(Language::Python), small, &ChunkOptions::default());
    assert_eq!(render(&file), "L1-2 ok function f");
    let file = chunker.chunk(Some(Language::Python), &src, &ChunkOptions::default());
    assert_eq!(file.parse_status, ParseStatus::Ok);
    assert_eq!(file, chunk_source(Some(Language::Python), &src, &ChunkOptions::default()));
}

#[test]
fn deeply_nested_code_does_not_overflow_the_stack() {
    let parens = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let sums = format!("y = {}1\n", "a + ".repeat(20000));
    for src in [parens, sums] {
        for budget in [1000, 100] {
            let file = chunk_source(Some(Language::Python), &src, &opts(budget));
            assert_invariants(&src, &file, budget, Some(Language::Python));
        }
    }
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

/// The expected symbols (kind and qualified name) of every fixture in
/// `fixtures/languages`, chunked with the default options.
const FIXTURE_SYMBOLS: &[(&str, &str)] = &[
    (
        "Dockerfile",
        r"
            instruction ARG
            stage builder
            instruction builder.WORKDIR
            instruction builder.COPY
            instruction builder.RUN
            instruction builder.COPY
            stage runtime
            instruction runtime.ENV
            instruction runtime.WORKDIR
            instruction runtime.COPY
            instruction runtime.COPY
            instruction runtime.RUN
            instruction runtime.USER
            instruction runtime.EXPOSE
            instruction runtime.HEALTHCHECK
            instruction runtime.ENTRYPOINT
            instruction runtime.CMD
            ",
    ),
    ("Makefile", ""),
    (
        "README.md",
        r"
            heading Demo App
            heading Demo App > Installation
            heading Demo App > Installation > From source
            heading Demo App > Usage
            heading Demo App > License
            ",
    ),
    (
        "Sample.cs",
        r"
            module Demo.Inventory
            class Inventory
            method Inventory.Inventory
            method Inventory.Add
            method Inventory.Remove
            interface IAuditLog
            method IAuditLog.Record
            struct Money
            enum Unit
            class Product
            ",
    ),
    (
        "Sample.hs",
        r"
            enum Shape
            struct Name
            type Table
            interface Describe
            method Describe.describe
            method Describe.describe
            impl Describe Shape
            method Describe Shape.describe
            method Describe Shape.describe
            function area
            function area
            function total
            function total.helper
            ",
    ),
    (
        "Sample.java",
        r"
            class Order
            constant Order.MAX_ITEMS
            method Order.Order
            method Order.addItem
            method Order.total
            class Order.Item
            method Order.Item.Item
            method Order.Item.price
            interface Discount
            method Discount.apply
            enum Status
            method Status.isFinal
            class Point
            ",
    ),
    (
        "config.toml",
        r"
            variable title
            variable version
            module server
            module server.tls
            module database
            module workers
            module workers
            ",
    ),
    (
        "config.yaml",
        r"
            variable service
            variable database
            variable features
            variable logging
            ",
    ),
    (
        "deploy.sh",
        r"
            function log
            function build_image
            function deploy
            function cleanup
            ",
    ),
    ("index.html", ""),
    (
        "main.tf",
        r"
            block terraform
            provider provider.aws
            variable variable.region
            locals locals
            variable local.bucket_prefix
            resource resource.aws_s3_bucket.logs
            data data.aws_iam_policy_document.read
            module module.vpc
            output output.bucket_arn
            ",
    ),
    ("notes.txt", ""),
    (
        "package.json",
        r"
            variable name
            variable version
            variable description
            variable scripts
            variable dependencies
            variable devDependencies
            variable private
            ",
    ),
    (
        "sample.c",
        r"
            constant RING_CAPACITY
            type ring_t
            struct ring
            enum ring_status
            variable ring_count
            function ring_new
            function ring_push
            function ring_pop
            function ring_free
            ",
    ),
    (
        "sample.cpp",
        r"
            module geo
            variable kPi
            class Shape
            method Shape::area
            method Shape::name
            class Circle
            method Circle::Circle
            method Circle::area
            method Circle::area
            struct Point
            function max_of
            function main
            ",
    ),
    (
        "sample.ex",
        r"
            module MyApp.Accounts.User
            function MyApp.Accounts.User.changeset
            function MyApp.Accounts.User.normalize
            function MyApp.Accounts.User.admin?
            function MyApp.Accounts.User.count
            interface MyApp.Accounts.User.Greeter
            method MyApp.Accounts.User.Greeter.greet
            impl String.Chars
            method String.Chars.to_string
            ",
    ),
    (
        "sample.go",
        r"
            variable ErrNotFound
            constant defaultCapacity
            struct Store
            interface Getter
            function New
            method Store.Get
            method Store.Set
            struct Pair
            method Pair.Swap
            ",
    ),
    (
        "sample.js",
        r"
            constant MAX_LISTENERS
            class Emitter
            method Emitter.constructor
            method Emitter.on
            method Emitter.emit
            method Emitter.create
            function debounce
            function loadConfig
            function range
            ",
    ),
    (
        "sample.kt",
        r"
            constant MAX_TITLE
            class Todo
            interface TodoStore
            method TodoStore.all
            method TodoStore.add
            class MemoryStore
            method MemoryStore.all
            method MemoryStore.add
            class MemoryStore.Companion
            method MemoryStore.Companion.empty
            class Clock
            method Clock.now
            enum Priority
            function toggle
            function main
            ",
    ),
    (
        "sample.lua",
        r"
            method Stack.new
            method Stack:push
            method Stack:pop
            function is_empty
            function greet
            function helper
            ",
    ),
    (
        "sample.php",
        r"
            module App\Http
            constant VERSION
            interface Middleware
            method Middleware.handle
            trait Loggable
            method Loggable.log
            class UserController
            method UserController.__construct
            method UserController.show
            method UserController.handle
            enum Suit
            function helper
            ",
    ),
    (
        "sample.py",
        r"
            constant DEFAULT_TIMEOUT
            function build_url
            class SessionRedirectMixin
            method SessionRedirectMixin.get_redirect_target
            class Session
            class Session.Config
            method Session.Config.describe
            method Session.__init__
            method Session.user_agent
            method Session.get
            method Session.close
            function main
            ",
    ),
    (
        "sample.rb",
        r"
            module Banking
            class Banking.InsufficientFunds
            class Banking.Account
            method Banking.Account.initialize
            method Banking.Account.deposit
            method Banking.Account.withdraw
            method Banking.Account.open
            method Banking.Account.to_json
            function format_money
            ",
    ),
    (
        "sample.rs",
        r"
            constant MAX_TOKEN
            enum Token
            struct Lexer
            impl Lexer
            method Lexer::new
            method Lexer::parse
            impl Wrapper
            method Wrapper::fmt
            struct Wrapper
            trait Visitor
            method Visitor::visit
            type Tokens
            module helpers
            function helpers::is_punct
            function token
            ",
    ),
    (
        "sample.scala",
        r"
            trait Shape
            method Shape.area
            class Circle
            method Circle.area
            class Rect
            method Rect.area
            method Rect.scale
            class Shapes
            method Shapes.largest
            method Shapes.describe
            type Shapes2
            function total
            ",
    ),
    (
        "sample.swift",
        r"
            struct Vector2
            method Vector2.scaled
            interface Drawable
            method Drawable.draw
            class Sprite
            method Sprite.init
            method Sprite.draw
            enum Direction
            impl Vector2
            function move
            ",
    ),
    (
        "sample.ts",
        r"
            interface User
            type UserId
            enum Role
            class Repository
            method Repository.validate
            method Repository.save
            class UserRepository
            method UserRepository.validate
            method UserRepository.findByEmail
            module Util
            function Util.slug
            function greet
            function isAdmin
            ",
    ),
    (
        "sample.tsx",
        r"
            interface CounterProps
            function Counter
            type Item
            function ItemList
            class ErrorBoundary
            method ErrorBoundary.getDerivedStateFromError
            method ErrorBoundary.render
            ",
    ),
    (
        "sample.zig",
        r"
            constant Allocator
            struct Point
            method Point.add
            enum Color
            struct Value
            function main
            function helper
            variable counter
            function add points
            ",
    ),
    (
        "schema.sql",
        r"
            table customers
            table orders
            view big_orders
            function order_count
            ",
    ),
    ("style.css", ""),
];

#[test]
fn every_fixture_yields_its_expected_symbols() {
    let files = fixtures("languages");
    let names: Vec<String> =
        files.iter().map(|(p, _, _)| p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string()).collect();
    let expected_names: Vec<&str> = FIXTURE_SYMBOLS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, expected_names, "the table lists every fixture");
    let mut languages = std::collections::HashSet::new();
    for ((path, lang, src), (_, expected)) in files.iter().zip(FIXTURE_SYMBOLS) {
        let lang = lang.unwrap_or_else(|| panic!("{} is detected", path.display()));
        languages.insert(lang);
        let file = chunk_source(Some(lang), src, &ChunkOptions::default());
        assert_invariants(src, &file, 1000, Some(lang));
        let expected_status = if lang.grammar().is_some() { ParseStatus::Ok } else { ParseStatus::Unsupported };
        assert_eq!(file.parse_status, expected_status, "{}", path.display());
        assert!(file.errors.is_empty(), "{}: {:?}", path.display(), file.errors);
        let actual: Vec<String> =
            file.chunks.iter().flat_map(|c| &c.symbols).map(|s| format!("{} {}", s.kind, s.qualified_name)).collect();
        assert_eq!(actual.join("\n"), dedent(expected), "{}", path.display());
        assert_eq!(lang.has_symbols(), !actual.is_empty(), "{}", path.display());
    }
    for &lang in Language::all() {
        if lang.grammar().is_some() {
            assert!(languages.contains(&lang), "no fixture for {lang}");
        }
    }
}

/// Finds a symbol by qualified name in a chunked fixture.
fn symbol<'a>(file: &'a ChunkedFile, qualified: &str) -> &'a Symbol {
    file.chunks
        .iter()
        .flat_map(|c| &c.symbols)
        .find(|s| s.qualified_name == qualified)
        .unwrap_or_else(|| panic!("no symbol {qualified}"))
}

fn chunk_fixture(name: &str, budget: usize) -> (String, ChunkedFile) {
    let path = fixture_dir("languages").join(name);
    let src = std::fs::read_to_string(&path).expect("fixture exists");
    let lang = Language::detect(&path, &src);
    let file = chunk_source(lang, &src, &opts(budget));
    (src, file)
}

#[test]
fn signatures_and_parents() {
    let cases: &[(&str, &str, &str, Option<&str>)] = &[
        ("sample.py", "Session", "class Session(SessionRedirectMixin)", None),
        ("sample.py", "Session.get", "def get(self, url, params=None, **kwargs)", Some("Session")),
        ("sample.py", "Session.user_agent", "def user_agent(self)", Some("Session")),
        ("sample.py", "Session.Config.describe", "def describe(self)", Some("Session.Config")),
        ("sample.py", "build_url", "def build_url(base: str, path: str) -> str", None),
        ("sample.rs", "Lexer::parse", "pub fn parse(&self, src: &str) -> Result<Vec<Token>, String>", Some("Lexer")),
        ("sample.rs", "Wrapper", "impl<T: fmt::Debug> fmt::Display for Wrapper<T>", None),
        ("sample.rs", "helpers::is_punct", "pub fn is_punct(c: char) -> bool", Some("helpers")),
        ("sample.go", "Store.Get", "func (s *Store) Get(key string) (string, error)", Some("Store")),
        ("sample.go", "Store", "type Store struct", None),
        ("sample.cpp", "Circle::area", "double area() const override;", Some("Circle")),
        ("sample.ts", "Repository", "export abstract class Repository<T>", None),
        ("sample.js", "loadConfig", "const loadConfig = async (path) =>", None),
        ("Sample.java", "Order.addItem", "public void addItem(Item item)", Some("Order")),
        ("sample.rb", "Banking.Account.deposit", "def deposit(amount)", Some("Banking.Account")),
        ("sample.lua", "Stack:push", "function Stack:push(value)", Some("Stack")),
        ("main.tf", "resource.aws_s3_bucket.logs", r#"resource "aws_s3_bucket" "logs""#, None),
        ("main.tf", "local.bucket_prefix", r#"bucket_prefix = "demo-${var.region}""#, Some("locals")),
        ("Dockerfile", "builder", "FROM python:${PYTHON_VERSION}-slim AS builder", None),
        ("README.md", "Demo App > Installation > From source", "### From source", Some("Demo App > Installation")),
        ("schema.sql", "orders", "CREATE TABLE orders", None),
    ];
    for (fixture, qualified, signature, parent) in cases {
        let (_, file) = chunk_fixture(fixture, 1000);
        let s = symbol(&file, qualified);
        assert_eq!(s.signature, *signature, "{fixture} {qualified}");
        assert_eq!(s.parent.as_deref(), *parent, "{fixture} {qualified}");
    }
    let (_, file) = chunk_fixture("main.tf", 1000);
    let logs = symbol(&file, "resource.aws_s3_bucket.logs");
    assert_eq!((logs.kind, logs.name.as_str()), (SymbolKind::Resource, "aws_s3_bucket.logs"));
}

#[test]
fn symbols_sit_in_the_chunk_of_their_declaration() {
    for (path, lang, src) in fixtures("languages") {
        for budget in [1000, 200] {
            let file = chunk_source(lang, &src, &opts(budget));
            for chunk in &file.chunks {
                let text = chunk.text(&src).to_lowercase();
                for s in &chunk.symbols {
                    if lang == Some(Language::Hcl) {
                        continue;
                    }
                    assert!(
                        text.contains(&s.name.to_lowercase()),
                        "{}: {} not in its chunk {}..{}",
                        path.display(),
                        s.name,
                        chunk.byte_start,
                        chunk.byte_end
                    );
                }
            }
        }
    }
}

#[test]
fn decorators_and_comments_stay_with_their_definition() {
    let (src, file) = chunk_fixture("sample.py", 120);
    let chunk = file
        .chunks
        .iter()
        .find(|c| c.symbols.first().is_some_and(|s| s.name == "user_agent"))
        .expect("a chunk starts with user_agent");
    assert!(chunk.text(&src).starts_with("@property"), "{:?}", chunk.text(&src));
    assert_eq!(chunk.context, vec!["class Session(SessionRedirectMixin)"]);
    let (src, file) = chunk_fixture("sample.rs", 200);
    let chunk = file
        .chunks
        .iter()
        .find(|c| c.symbols.first().is_some_and(|s| s.name == "Token"))
        .expect("a chunk starts with Token");
    assert!(chunk.text(&src).starts_with("/// A lexical token.\n#[derive"), "{:?}", chunk.text(&src));
}

#[test]
fn broken_fixtures_yield_partial_chunks_and_located_errors() {
    type Located = (u32, u32, &'static str);
    let cases: &[(&str, &str, &[Located])] = &[
        (
            "broken.js",
            "
            L1-2 ok function good
            L3-4 ok [ctx: export function good(a)]
            L6-8 partial function broken
            L10-14 ok class Fine, method Fine.run
            ",
            &[(6, 22, "missing")],
        ),
        (
            "broken.json",
            "
            L1-3 ok variable name, variable version
            L4-8 partial variable scripts
            ",
            &[(5, 5, "error"), (8, 2, "missing")],
        ),
        (
            "broken.py",
            "
            L1-1 ok
            L4-5 ok function ok_function
            L8-10 partial function broken
            L13-15 ok class Fine, method Fine.method
            ",
            &[(9, 5, "error")],
        ),
        (
            "broken.rs",
            "
            L1-4 ok function add
            L6-9 partial function broken
            L11-14 ok struct Point
            ",
            &[(7, 16, "missing")],
        ),
    ];
    let files = fixtures("broken");
    assert_eq!(files.len(), cases.len(), "every broken fixture has a case");
    for ((path, lang, src), (name, expect, errors)) in files.iter().zip(cases) {
        assert!(path.ends_with(name), "{} is {name}", path.display());
        let file = chunk_source(*lang, src, &opts(80));
        assert_invariants(src, &file, 80, *lang);
        assert_eq!(file.parse_status, ParseStatus::Partial, "{name}");
        assert_eq!(render(&file), dedent(expect), "{name}\n{}", render(&file));
        let actual: Vec<(u32, u32, &str)> = file.errors.iter().map(|e| (e.line, e.column, e.kind)).collect();
        assert_eq!(actual, *errors, "{name}");
    }
}

// ---------------------------------------------------------------------------
// The coverage invariant
// ---------------------------------------------------------------------------

#[test]
fn invariants_hold_for_fixtures_at_many_budgets() {
    let mut files = fixtures("languages");
    files.extend(fixtures("broken"));
    for (path, lang, src) in &files {
        for budget in [1000, 300, 64, 17, 1] {
            let file = chunk_source(*lang, src, &opts(budget));
            assert_invariants(src, &file, budget, *lang);
            assert!(!file.chunks.is_empty(), "{}", path.display());
        }
        // The same text under every other grammar must not break anything.
        for &other in Language::all() {
            let file = chunk_source(Some(other), src, &opts(200));
            assert_invariants(src, &file, 200, Some(other));
        }
    }
}

#[test]
fn invariants_hold_for_mutated_fixtures() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut files = fixtures("languages");
    files.extend(fixtures("broken"));
    let mut partial = 0;
    for (_, lang, src) in &files {
        for _ in 0..12 {
            let mutated = mutate(src, &mut rng);
            for budget in [400, 50] {
                let file = chunk_source(*lang, &mutated, &opts(budget));
                assert_invariants(&mutated, &file, budget, *lang);
                if file.parse_status == ParseStatus::Partial {
                    partial += 1;
                }
            }
        }
    }
    assert!(partial > 100, "mutations produce syntax errors ({partial} partial files)");
}

/// A minified-looking JavaScript file of `len` chars on one line.
fn minified_js(len: usize) -> String {
    let mut s = String::with_capacity(len + 64);
    let mut i = 0;
    while s.len() < len {
        s.push_str(&format!("function a{i}(b){{return b+{i}}};var x{i}={{k:[1,2,3],s:\"é{i}\"}};"));
        i += 1;
    }
    s
}

#[test]
fn invariants_hold_for_edge_cases() {
    let python = std::fs::read_to_string(fixture_dir("languages").join("sample.py")).expect("fixture");
    let markdown = std::fs::read_to_string(fixture_dir("languages").join("README.md")).expect("fixture");
    let unicode =
        format!("# Ünïcödé\n\n{}\n\ndef f():\n    return \"{}\"\n", "日本語のテキスト😀".repeat(30), "€".repeat(50));
    let cases: Vec<(&str, String)> = vec![
        ("empty", String::new()),
        ("blank", " \n\t\n\r\n   ".to_string()),
        ("minified", minified_js(50_000)),
        ("crlf python", python.replace('\n', "\r\n")),
        ("crlf markdown", markdown.replace('\n', "\r\n")),
        ("no trailing newline", python.trim_end().to_string()),
        ("unicode", unicode),
        ("one long line", "x".repeat(3000)),
        ("nul and controls", "a\0b\x0b\x0cc\n\u{a0}\u{3000}d\n".to_string()),
    ];
    let languages = [
        Some(Language::Python),
        Some(Language::JavaScript),
        Some(Language::Markdown),
        Some(Language::Yaml),
        Some(Language::Html),
        Some(Language::Dockerfile),
        Some(Language::Text),
        None,
    ];
    for (name, src) in &cases {
        for lang in languages {
            for budget in [1000, 200, 7, 1] {
                let file = chunk_source(lang, src, &opts(budget));
                assert_invariants(src, &file, budget, lang);
                let _ = name;
            }
        }
    }
    let src = minified_js(50_000);
    let file = chunk_source(Some(Language::JavaScript), &src, &ChunkOptions::default());
    assert_eq!(file.parse_status, ParseStatus::Ok);
    assert!(file.chunks.len() >= 50, "{} chunks", file.chunks.len());
    assert!(file.chunks.iter().all(|c| c.line_start == 1 && c.line_end == 1));
}

#[test]
fn only_comments_directly_above_attach() {
    let src = "// License header.\n\n/// Doc for f.\nfn f() {}\n";
    check(
        Some(Language::Rust),
        30,
        src,
        "
        L1-1 ok
        L3-4 ok function f
        ",
    );
    // A same-line trailing comment stays with the statement before it.
    let src = "x = 1  # the answer\ny = 2\n";
    let file = chunk_source(Some(Language::Python), src, &opts(20));
    let texts: Vec<&str> = file.chunks.iter().map(|c| c.text(src)).collect();
    assert_eq!(texts, vec!["x = 1  # the answer", "y = 2"]);
}

#[test]
fn names_deserialize_from_lowercase_strings() {
    use serde::Deserialize;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, StrDeserializer};
    let de = |s: &'static str| -> StrDeserializer<'static, Error> { s.into_deserializer() };
    assert_eq!(ParseStatus::deserialize(de("partial")), Ok(ParseStatus::Partial));
    assert_eq!(SymbolKind::deserialize(de("heading")), Ok(SymbolKind::Heading));
    assert_eq!(Language::deserialize(de("terraform")), Ok(Language::Hcl));
    assert!(ParseStatus::deserialize(de("Partial")).is_err());
    assert!(Language::deserialize(de("cobol")).is_err());
}

#[test]
fn chunk_tree_survives_a_tree_of_another_source() {
    let mut parser = tree_sitter::Parser::new();
    let grammar = Language::Python.grammar().expect("python has a grammar");
    parser.set_language(&grammar).expect("python grammar loads");
    let (_, file) = chunk_fixture("sample.py", 1000);
    let src = std::fs::read_to_string(fixture_dir("languages").join("sample.py")).expect("fixture");
    let tree = parser.parse(&src, None).expect("parsed");
    let mut chunker = Chunker::new();
    assert_eq!(chunker.chunk_tree(Language::Python, &tree, &src, &opts(1000)), file);
    for other in ["", "short", "é€😀 multi-byte text\nover two lines\n"] {
        let other = other.to_string() + &"z".repeat(3);
        let file = chunker.chunk_tree(Language::Python, &tree, &other, &opts(50));
        assert_invariants(&other, &file, 50, Some(Language::Python));
    }
}

#[test]
fn chunker_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Chunker>();
    let handle = std::thread::spawn(|| {
        let mut chunker = Chunker::new();
        chunker.chunk(Some(Language::Go), "package a\n\nfunc F() {}\n", &ChunkOptions::default())
    });
    let file = handle.join().expect("the worker does not panic");
    assert_eq!(render(&file), "L1-3 ok function F");
}

/// A UTF-8 byte-order mark is not text: it never becomes (or starts) a chunk, byte offsets
/// stay those of the file as it is on disk (mark included), and a shebang behind it still
/// names the language.
#[test]
fn byte_order_mark_is_not_a_chunk() {
    let cases: [(Option<Language>, &str); 4] = [
        (Some(Language::Python), "\u{feff}import os\n\n\ndef f():\n    return 1\n"),
        (Some(Language::Markdown), "\u{feff}# Title\n\nSome text.\n"),
        (Some(Language::Json), "\u{feff}{\"a\": 1}\n"),
        (None, "\u{feff}plain text\nmore\n"),
    ];
    for (lang, src) in cases {
        let file = chunk_source(lang, src, &ChunkOptions::default());
        assert_eq!(file.chunks.len(), 1, "{lang:?}: {file:?}");
        let chunk = &file.chunks[0];
        assert_eq!(chunk.byte_start, 3, "{lang:?}: the chunk starts after the mark");
        assert_eq!(chunk.text(src), src[3..].trim_end(), "{lang:?}");
        assert_eq!((chunk.line_start, chunk.line_end), (1, src.trim_end().lines().count() as u32), "{lang:?}");
        assert!(file.errors.is_empty(), "{lang:?}: {:?}", file.errors);
        assert_eq!(chunk.parse_status, if lang.is_some() { ParseStatus::Ok } else { ParseStatus::Unsupported });
    }
    let python = chunk_source(Some(Language::Python), cases[0].1, &ChunkOptions::default());
    assert_eq!(python.chunks[0].symbols[0].qualified_name, "f");
    assert_eq!(python.chunks[0].symbols[0].line_start, 4);
    assert_eq!(Language::detect(Path::new("run"), "\u{feff}#!/usr/bin/env python3"), Some(Language::Python));
    // Only a mark at the very start is one; elsewhere U+FEFF is text like any other.
    let inner = chunk_source(None, "a\n\u{feff}b\n", &ChunkOptions::default());
    assert_eq!(inner.chunks[0].byte_start, 0);
}

/// Issue 25, item 2: qualified names and context grew with the nesting depth, and each
/// definition and chunk stored them, so storage grew with the square of the depth.
#[test]
fn deeply_nested_definitions_keep_names_and_context_bounded() {
    for (lang, src, depth) in [
        (Language::Rust, format!("{}fn f() {{}}\n{}", "mod m {\n".repeat(3000), "}\n".repeat(3000)), 3000),
        (Language::JavaScript, format!("{}return 1;\n{}", "function f() {\n".repeat(2000), "}\n".repeat(2000)), 2000),
    ] {
        let file = chunk_source(Some(lang), &src, &ChunkOptions::default());
        let symbols: Vec<&Symbol> = file.chunks.iter().flat_map(|c| &c.symbols).collect();
        assert!(symbols.len() > depth / 2, "{lang:?}: nested definitions are still found ({})", symbols.len());
        for s in &symbols {
            // The cap plus one last part and the marker.
            assert!(s.qualified_name.len() <= symbols::MAX_QUALIFIED_LEN + 16, "{lang:?}: {}", s.qualified_name);
            assert!(s.parent.as_ref().is_none_or(|p| p.len() <= symbols::MAX_QUALIFIED_LEN + 16));
        }
        let deepest = symbols.iter().max_by_key(|s| s.line_start).expect("symbols");
        assert!(deepest.qualified_name.starts_with('…'), "{lang:?}: {}", deepest.qualified_name);
        assert!(
            deepest.qualified_name.ends_with("f"),
            "{lang:?}: the innermost name stays: {}",
            deepest.qualified_name
        );
        let stored: usize = file
            .chunks
            .iter()
            .map(|c| {
                c.context.iter().map(String::len).sum::<usize>()
                    + c.symbols
                        .iter()
                        .map(|s| s.qualified_name.len() + s.parent.as_ref().map_or(0, String::len))
                        .sum::<usize>()
            })
            .sum();
        assert!(stored <= 20 * src.len(), "{lang:?}: names and context {stored} bytes for a {} byte file", src.len());
    }
}

/// Module-level values are definitions people look up by name: a Ruby constant in a module.
#[test]
fn ruby_constants_are_definitions() {
    check(
        Some(Language::Ruby),
        1000,
        "module Rack\n  VERSION = '3.1'\n\n  def self.release\n    VERSION\n  end\nend\n",
        "
        L1-7 ok module Rack, constant Rack.VERSION, method Rack.release
        ",
    );
}
