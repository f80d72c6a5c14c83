//! Files a query names: paths (`src/_pytest/capture.py`, `models.py`), traceback frames
//! (`File "/usr/lib/python3/site-packages/_pytest/capture.py", line 10`) and dotted module
//! names (`_pytest.capture`, `pylint.lint.run.Run`), matched against the index's own files.
//!
//! A pasted issue or traceback that names a file is strong evidence for it, much stronger than
//! the words it shares with a hundred other files. Matching is against real paths only, so a
//! word that merely looks like a file name (`e.g.`, `Session.send`) names nothing. A mention
//! matches a file when their trailing path components agree: at least two of them (the file
//! and its directory), or the file name alone when it is rare in the project (at most
//! [`MAX_BASENAME_FILES`] files carry it) and not a generic one like `__init__.py` (each
//! language names its own: [`Language::is_generic_file_name`]).

use std::collections::HashMap;

use crate::chunk::Language;

/// A bare file name matches only when this many files or fewer carry it.
const MAX_BASENAME_FILES: usize = 2;

/// Files of the index named by the query, most mentioned first (ties: first mentioned first).
pub fn mentioned_files<'a>(query: &str, files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let tokens = candidate_tokens(query);
    if tokens.is_empty() {
        return Vec::new();
    }
    let names = FileNames::new(files);
    // path -> (mentions, first position)
    let mut found: HashMap<&str, (usize, usize)> = HashMap::new();
    for (position, token) in tokens.iter().enumerate() {
        for path in names.named_by(token) {
            let entry = found.entry(path).or_insert((0, position));
            entry.0 += 1;
        }
    }
    let mut ranked: Vec<(&str, (usize, usize))> = found.into_iter().collect();
    ranked.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)).then(a.0.cmp(b.0)));
    ranked.into_iter().map(|(path, _)| path.to_string()).collect()
}

/// Files named by a change's scope (`plugin` → `lua/lazy/core/plugin.lua`): those whose name,
/// folded, is the scope's, when at most [`MAX_BASENAME_FILES`] carry it; a scope shared by more
/// files (`index`, `utils`) names none of them.
pub fn files_of_scope<'a>(scope: &str, files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let wanted = super::paths::folded_stem(scope);
    let mut named: Vec<String> =
        files.into_iter().filter(|path| super::paths::folded_stem(path) == wanted).map(str::to_string).collect();
    if named.len() > MAX_BASENAME_FILES {
        named.clear();
    }
    named.sort();
    named
}

/// Whether `path` lies in a directory a change's scope calls so (`openapi` →
/// `packages/openapi/src/cli.ts`; `axum` → `axum/src/lib.rs`, not `axum-core/src/lib.rs`), names
/// folded ([`fold_name`](super::paths::fold_name)).
pub fn in_scope_directory(path: &str, scope: &str) -> bool {
    let wanted = super::paths::fold_name(scope);
    let directories = path.rsplit_once('/').map_or("", |(directories, _)| directories);
    !wanted.is_empty() && directories.split('/').any(|directory| super::paths::fold_name(directory) == wanted)
}

/// Whether `path` is in the area a change's scope names: a directory called so, or a file
/// named so (`plugin` → `lua/lazy/core/plugin.lua`).
pub fn within_scope(path: &str, scope: &str) -> bool {
    in_scope_directory(path, scope) || super::paths::folded_stem(path) == super::paths::fold_name(scope)
}

/// An index's files by their names, to resolve what a question calls them.
pub struct FileNames<'a>(HashMap<&'a str, Vec<&'a str>>);

impl<'a> FileNames<'a> {
    /// The files, by name.
    pub fn new(files: impl IntoIterator<Item = &'a str>) -> FileNames<'a> {
        let mut by_name: HashMap<&str, Vec<&str>> = HashMap::new();
        for path in files {
            let name = path.rsplit('/').next().unwrap_or(path);
            by_name.entry(name).or_default().push(path);
        }
        FileNames(by_name)
    }

    /// The files a path, a traceback frame's file or a dotted module names (see the module's
    /// documentation); none when it names no file of the index.
    pub fn named_by(&self, token: &str) -> Vec<&'a str> {
        match_token(token, &self.0)
    }
}

/// Whether the query has any token that could name a file (cheap; saves reading the index's
/// file list for queries without one).
pub fn may_name_files(query: &str) -> bool {
    !candidate_tokens(query).is_empty()
}

/// Whitespace- and punctuation-separated tokens that could name a file: they contain a path
/// separator or a dot between identifier characters.
fn candidate_tokens(query: &str) -> Vec<&str> {
    query
        .split(|c: char| {
            c.is_whitespace()
                || matches!(c, '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | '<' | '>' | '=' | '|')
        })
        // A link's fragment or query (`models.py#L401`) is not part of the file's name.
        .map(|t| t.split(['#', '?']).next().unwrap_or(t))
        .map(|t| t.trim_matches(|c: char| matches!(c, ':' | '.' | '!' | '?' | '*')))
        .filter(|t| t.len() > 2 && (t.contains('/') || t.contains('\\') || t.contains('.')))
        .collect()
}

/// The files one token names: as a path, else as a dotted module name.
fn match_token<'a>(token: &str, by_name: &HashMap<&str, Vec<&'a str>>) -> Vec<&'a str> {
    let components: Vec<&str> = token.split(['/', '\\']).filter(|c| !c.is_empty() && *c != "." && *c != "..").collect();
    let as_path = match_components(&components, by_name);
    if !as_path.is_empty() || token.contains('/') || token.contains('\\') {
        return as_path;
    }
    // `a.b.c` may be module `a/b/c.py` (any indexed file named `c.` something), a package
    // `a/b/c/__init__.py` (a language's generic file in directory `c`), or an attribute of a
    // shorter module: try the longest module first.
    let parts: Vec<&str> = token.split('.').collect();
    if parts.len() < 2 || !parts.iter().all(|p| is_identifier(p)) {
        return Vec::new();
    }
    for len in (2..=parts.len()).rev() {
        let (dirs, stem) = (&parts[..len - 1], parts[len - 1]);
        // The module as a file: an indexed file named `stem.` and any extension.
        let mut names: Vec<String> = by_name
            .keys()
            .filter(|name| name.split_once('.').is_some_and(|(s, _)| s == stem))
            .map(|name| name.to_string())
            .collect();
        names.sort_unstable();
        for name in &names {
            let found = match_components(&[dirs, &[name.as_str()]].concat(), by_name);
            if !found.is_empty() {
                return found;
            }
        }
        // The module as a package: a language's generic file in directory `stem`.
        for name in Language::generic_file_names() {
            let found = match_components(&[dirs, &[stem, name]].concat(), by_name);
            if !found.is_empty() {
                return found;
            }
        }
    }
    Vec::new()
}

/// Files whose trailing components agree best with `components` (see the module docs).
fn match_components<'a>(components: &[&str], by_name: &HashMap<&str, Vec<&'a str>>) -> Vec<&'a str> {
    let Some(name) = components.last() else { return Vec::new() };
    let Some(paths) = by_name.get(name) else { return Vec::new() };
    let agreement = |path: &str| {
        path.rsplit('/').zip(components.iter().rev()).take_while(|(a, b)| a.eq_ignore_ascii_case(b)).count()
    };
    let best = paths.iter().map(|p| agreement(p)).max().unwrap_or(0);
    let basename_only_ok =
        name.contains('.') && paths.len() <= MAX_BASENAME_FILES && !Language::is_generic_file_name(name);
    if best >= 2 || (best == 1 && basename_only_ok) {
        paths.iter().copied().filter(|p| agreement(p) == best).collect()
    } else {
        Vec::new()
    }
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        && s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_names_the_files_of_its_name_when_few_carry_it() {
        let files = ["lua/lazy/core/plugin.lua", "lua/lazy/manage/task/plugin.lua", "lua/lazy/core/util.lua"];
        assert_eq!(files_of_scope("plugin", files), ["lua/lazy/core/plugin.lua", "lua/lazy/manage/task/plugin.lua"]);
        assert_eq!(files_of_scope("tool_msgs", ["src/tool_msgs.c", "src/tool_msgs.h", "src/tool_main.c"]).len(), 2);
        let many = ["a/utils.py", "b/utils.py", "c/utils.py"];
        assert!(files_of_scope("utils", many).is_empty(), "a common name names nothing");
    }

    #[test]
    fn a_scope_names_the_directories_called_so() {
        assert!(in_scope_directory("packages/openapi/src/cli.ts", "openapi"));
        assert!(in_scope_directory("axum/src/extract/path/mod.rs", "axum"));
        assert!(!in_scope_directory("axum-core/src/macros.rs", "axum"), "another crate of the workspace");
        assert!(in_scope_directory("packages/tanstack-react-query/src/index.ts", "tanstack-react-query"));
        assert!(!in_scope_directory("src/openapi.ts", "openapi"), "a file is no directory");
        assert!(within_scope("src/openapi.ts", "openapi"), "but a file named so is within the scope");
        assert!(!within_scope("www/src/pages/pricing.tsx", "openapi"));
    }

    const FILES: &[&str] = &[
        "src/_pytest/capture.py",
        "src/_pytest/python.py",
        "src/_pytest/config/__init__.py",
        "src/_pytest/mark/__init__.py",
        "src/_pytest/mark/structures.py",
        "requests/models.py",
        "docs/models.py",
        "other/models.py",
        "pylint/lint/run.py",
        "README.md",
    ];

    fn mentioned(query: &str) -> Vec<String> {
        mentioned_files(query, FILES.iter().copied())
    }

    #[test]
    fn traceback_frames_match_by_their_trailing_components() {
        let q = r#"File "/usr/lib/python3.7/site-packages/_pytest/capture.py", line 10, in write
        File "/usr/lib/python3.7/site-packages/_pytest/python.py", line 3
        File "/usr/lib/python3.7/site-packages/_pytest/capture.py", line 12"#;
        assert_eq!(mentioned(q), vec!["src/_pytest/capture.py", "src/_pytest/python.py"]);
    }

    #[test]
    fn dotted_modules_and_attributes_find_their_module() {
        assert_eq!(mentioned("see _pytest.capture for details"), vec!["src/_pytest/capture.py"]);
        assert_eq!(mentioned("pylint.lint.run.Run fails"), vec!["pylint/lint/run.py"]);
        assert_eq!(mentioned("the _pytest.config package"), vec!["src/_pytest/config/__init__.py"]);
        assert!(mentioned("why does Session.send drop it, e.g. here").is_empty());
    }

    #[test]
    fn a_link_to_a_line_names_its_file() {
        let q = "see [this line](https://github.com/psf/requests/blob/ca6f9af/requests/models.py#L401)";
        assert_eq!(mentioned(q), vec!["requests/models.py"]);
    }

    #[test]
    fn a_bare_name_must_be_rare_and_specific() {
        assert_eq!(mentioned("structures.py breaks"), vec!["src/_pytest/mark/structures.py"]);
        // Three files are called models.py: the bare name names none of them…
        assert!(mentioned("in models.py").is_empty());
        // …but a directory picks one.
        assert_eq!(mentioned("in requests/models.py"), vec!["requests/models.py"]);
        assert!(mentioned("an __init__.py somewhere").is_empty());
    }
}
