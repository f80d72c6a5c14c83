//! What a filter glob means: one dialect for every backend, defined here once.
//!
//! Users write path globs with .gitignore habits, so a glob is first normalised into
//! [`globset`] patterns (ripgrep's glob crate, `*` never crossing `/`):
//!
//! | given         | means                                   | globset patterns            |
//! |---------------|-----------------------------------------|-----------------------------|
//! | `*.py`        | a file name anywhere                    | `**/*.py`                   |
//! | `README.md`   | a file or directory of that name        | `**/README.md`, `**/README.md/**` |
//! | `src/api`     | that path, or anything under it         | `src/api`, `src/api/**`     |
//! | `tests/`      | the same, for a directory               | `tests`, `tests/**`         |
//! | `src/**/*.rs` | anchored at the root                    | `src/**/*.rs`               |
//!
//! A name glob (`get_*`, `Session.?et`) is matched case-insensitively against a symbol's own
//! name, with `*` matching any characters.
//!
//! [`PathGlob::is_match`] and [`NameGlob::is_match`] are the reference: the embedded store
//! calls them directly, and PostgreSQL gets an equivalent regular expression
//! ([`PathGlob::regex`], [`NameGlob::regex`]) so the filter runs inside the query, before the
//! top-k cut. The contract tests check that both backends agree.

use globset::{GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};

/// A glob that is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid glob {glob:?}: {reason}")]
pub struct GlobError {
    /// The glob as given.
    pub glob: String,
    /// What is wrong with it.
    pub reason: String,
}

/// A path filter (see the module documentation for what it matches).
#[derive(Debug, Clone)]
pub struct PathGlob {
    given: String,
    patterns: Vec<String>,
    set: GlobSet,
}

impl PartialEq for PathGlob {
    fn eq(&self, other: &PathGlob) -> bool {
        self.given == other.given
    }
}

impl Eq for PathGlob {}

impl PathGlob {
    /// Parses a path glob.
    pub fn new(glob: &str) -> Result<PathGlob, GlobError> {
        let given = glob.trim();
        let bare = given.trim_start_matches("./");
        let trimmed = bare.trim_end_matches('/');
        if trimmed.is_empty() {
            return Err(GlobError { glob: glob.to_string(), reason: "it matches nothing".into() });
        }
        let wildcard = trimmed.contains(['*', '?', '[', '{']);
        let rooted = trimmed.contains('/') || bare.ends_with('/');
        let patterns = match (rooted, wildcard) {
            (true, false) => vec![trimmed.to_string(), format!("{trimmed}/**")],
            (false, false) => vec![format!("**/{trimmed}"), format!("**/{trimmed}/**")],
            (false, true) => vec![format!("**/{trimmed}")],
            (true, true) => vec![trimmed.to_string()],
        };
        let mut builder = GlobSetBuilder::new();
        for pattern in &patterns {
            builder.add(compile(glob, pattern, Case::Sensitive)?.glob().clone());
        }
        let set = builder.build().map_err(|e| GlobError { glob: glob.to_string(), reason: e.kind().to_string() })?;
        Ok(PathGlob { given: given.to_string(), patterns, set })
    }

    /// The glob as the user gave it.
    pub fn as_str(&self) -> &str {
        &self.given
    }

    /// Whether `path` (relative to the index root, `/`-separated) matches.
    pub fn is_match(&self, path: &str) -> bool {
        self.set.is_match(path)
    }

    /// An anchored regular expression matching exactly the same paths, in the syntax shared
    /// by PostgreSQL's ARE and Rust's `regex`.
    pub fn regex(&self) -> String {
        let alternatives: Vec<String> = self.patterns.iter().map(|p| translate(p, Dialect::Path)).collect();
        format!("^(?:{})$", alternatives.join("|"))
    }
}

/// A case-insensitive symbol-name filter.
#[derive(Debug, Clone)]
pub struct NameGlob {
    given: String,
    matcher: GlobMatcher,
}

impl PartialEq for NameGlob {
    fn eq(&self, other: &NameGlob) -> bool {
        self.given == other.given
    }
}

impl Eq for NameGlob {}

impl NameGlob {
    /// Parses a name glob.
    pub fn new(glob: &str) -> Result<NameGlob, GlobError> {
        let given = glob.trim();
        if given.is_empty() {
            return Err(GlobError { glob: glob.to_string(), reason: "it is empty".into() });
        }
        let matcher = compile(glob, given, Case::Insensitive)?;
        Ok(NameGlob { given: given.to_string(), matcher })
    }

    /// The glob as the user gave it.
    pub fn as_str(&self) -> &str {
        &self.given
    }

    /// Whether a symbol's own name matches (case-insensitively).
    pub fn is_match(&self, name: &str) -> bool {
        self.matcher.is_match(name)
    }

    /// An anchored regular expression for the same names, to be matched case-insensitively.
    pub fn regex(&self) -> String {
        format!("^{}$", translate(&self.given, Dialect::Name))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    Sensitive,
    Insensitive,
}

fn compile(given: &str, pattern: &str, case: Case) -> Result<GlobMatcher, GlobError> {
    GlobBuilder::new(pattern)
        .literal_separator(case == Case::Sensitive)
        .case_insensitive(case == Case::Insensitive)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| GlobError { glob: given.to_string(), reason: e.kind().to_string() })
}

/// Paths: `*` and `?` stop at `/`, `**` spans directories. Names: no separators at all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Path,
    Name,
}

/// Translates a valid globset pattern into a regular expression body.
fn translate(glob: &str, dialect: Dialect) -> String {
    let (star, question) = match dialect {
        Dialect::Path => ("[^/]*", "[^/]"),
        Dialect::Name => (".*", "."),
    };
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut braces = 0usize;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                let at_start = i == 0 || chars[i - 1] == '/';
                let whole_segment = at_start && matches!(chars.get(i + 2), None | Some('/'));
                match (dialect, whole_segment, chars.get(i + 2)) {
                    // `**/` at a segment start: zero or more directories.
                    (Dialect::Path, true, Some('/')) => {
                        out.push_str("(?:.*/)?");
                        i += 3;
                    }
                    // A whole-segment `**` at the end: anything (below the `/` already in `out`).
                    (Dialect::Path, true, _) | (Dialect::Name, _, _) => {
                        out.push_str(".*");
                        i += 2;
                    }
                    // `a**b`: globset reads two plain stars.
                    (Dialect::Path, false, _) => {
                        out.push_str(star);
                        out.push_str(star);
                        i += 2;
                    }
                }
                continue;
            }
            '*' => out.push_str(star),
            '?' => out.push_str(question),
            '\\' if i + 1 < chars.len() => {
                push_literal(&mut out, chars[i + 1]);
                i += 2;
                continue;
            }
            '[' => {
                if let Some(end) = class_end(&chars, i) {
                    out.push('[');
                    let mut j = i + 1;
                    if matches!(chars[j], '!' | '^') {
                        out.push('^');
                        j += 1;
                    }
                    for &cc in &chars[j..end] {
                        if matches!(cc, '\\' | '[') {
                            out.push('\\');
                        }
                        out.push(cc);
                    }
                    out.push(']');
                    i = end + 1;
                    continue;
                }
                push_literal(&mut out, c);
            }
            '{' => {
                braces += 1;
                out.push_str("(?:");
            }
            '}' if braces > 0 => {
                braces -= 1;
                out.push(')');
            }
            ',' if braces > 0 => out.push('|'),
            c => push_literal(&mut out, c),
        }
        i += 1;
    }
    out
}

/// The index of the `]` closing the class that opens at `open`, as globset reads it: a `]`
/// right after `[` or `[!` is a member, not the end.
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    let mut j = open + 1;
    if matches!(chars.get(j), Some('!' | '^')) {
        j += 1;
    }
    if chars.get(j) == Some(&']') {
        j += 1;
    }
    chars[j.min(chars.len())..].iter().position(|&c| c == ']').map(|p| p + j)
}

fn push_literal(out: &mut String, c: char) {
    if "\\.+*?()|[]{}^$".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATHS: &[&str] = &[
        "README.md",
        "docs/README.md",
        "docs/README.md/x",
        "src/api",
        "src/api/mod.rs",
        "src/apis/x.rs",
        "src/lib.rs",
        "src/a/b/c.rs",
        "a/src/lib.rs",
        "tests",
        "tests/x.py",
        "pkg/tests/x.py",
        "x.py",
        "a/b.py",
        "a.pyc",
        "web/app.ts",
        "web/app.tsx",
        "test_x.go",
        "a/test_y.go",
        "b.c",
        "ab.c",
        "weird[1].txt",
        "dot.dir/x",
        "a+b/c",
    ];

    const GLOBS: &[&str] = &[
        "*.py",
        "README.md",
        "src/api",
        "tests/",
        "./tests",
        "src/**/*.rs",
        "src/*.rs",
        "**/*.rs",
        "*.{ts,tsx}",
        "[!a]*.c",
        "test_*",
        "a/**",
        "?.py",
        "weird\\[1\\].txt",
        "dot.dir",
        "a+b/**",
        "**/tests/**",
        "a**b.c",
        "**",
    ];

    #[test]
    fn the_regex_matches_exactly_what_globset_matches() {
        for glob in GLOBS {
            let g = PathGlob::new(glob).expect(glob);
            let pattern = g.regex();
            let re = regex_lite(&pattern);
            for path in PATHS {
                assert_eq!(g.is_match(path), re(path), "glob {glob:?} regex {} path {path:?}", g.regex());
            }
        }
    }

    #[test]
    fn gitignore_habits() {
        let m = |glob: &str, path: &str| PathGlob::new(glob).expect(glob).is_match(path);
        assert!(m("*.py", "a/b.py") && m("*.py", "x.py") && !m("*.py", "a.pyc"));
        assert!(m("src/api", "src/api/mod.rs") && m("src/api", "src/api") && !m("src/api", "src/apis/x.rs"));
        assert!(m("README.md", "docs/README.md") && m("tests/", "tests/x.py") && !m("tests/", "pkg/tests/x.py"));
        assert!(m("src/**/*.rs", "src/lib.rs") && m("src/**/*.rs", "src/a/b/c.rs") && !m("src/*.rs", "src/a/b/c.rs"));
        assert!(m("a**b", "axyb") && !m("a**b", "ax/yb"), "`**` inside a segment is two stars");
        assert!(PathGlob::new("/").is_err());
    }

    #[test]
    fn name_globs_ignore_case_and_span_dots() {
        let g = NameGlob::new("get_*").expect("glob");
        assert!(g.is_match("GET_user") && !g.is_match("forget_user"));
        let pattern = format!("(?i){}", g.regex());
        let re = regex_lite(&pattern);
        assert!(re("get_User") && !re("forget_user"));
        let g = NameGlob::new("Session.?et").expect("glob");
        assert!(g.is_match("session.get") && !g.is_match("sessionXget"));
    }

    /// The regex, checked with Rust's `regex` engine (PostgreSQL's is checked by the store
    /// contract tests).
    fn regex_lite(pattern: &str) -> impl Fn(&str) -> bool + use<> {
        let re = regex::Regex::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        move |s| re.is_match(s)
    }
}
