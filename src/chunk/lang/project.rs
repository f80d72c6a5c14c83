//! Provides what a language's import rule may ask about the project ([`ProjectFiles`]),
//! what the rule answers ([`Resolution`], [`Resolved`]), and the one way project paths are
//! joined ([`join_path`]) and split ([`dir_of`]).
//!
//! Project paths are relative to the project root, with `/` separators and no leading `/`.
//! The file list and the module configuration files (`go.mod`, `Cargo.toml`, `tsconfig.json`,
//! `composer.json`) are read by `index::resolve`, which implements [`ProjectFiles`]; the
//! rules that apply them live in the language modules.

use serde::{Deserialize, Serialize};

/// How an import was resolved to a project file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// By the language's own rule (a relative path, a package root, `mod`, a Go module path,
    /// `tsconfig` paths): the file the language would load.
    Exact,
    /// By a guess where the language leaves it to build tools (a unique file whose path ends
    /// with the module's, a namespace's directory, a shell path built from a variable).
    Heuristic,
    /// Not a file of the project: a package, a standard library module, an image, a URL.
    External,
    /// Written as a project path that no file has (a relative import of a missing or
    /// deleted file).
    Missing,
}

impl Resolution {
    /// Every value.
    pub const ALL: &'static [Resolution] =
        &[Resolution::Exact, Resolution::Heuristic, Resolution::External, Resolution::Missing];

    /// The lowercase name used in storage and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Exact => "exact",
            Resolution::Heuristic => "heuristic",
            Resolution::External => "external",
            Resolution::Missing => "missing",
        }
    }

    /// Whether the import names a project file.
    pub fn is_resolved(self) -> bool {
        matches!(self, Resolution::Exact | Resolution::Heuristic)
    }
}

impl std::str::FromStr for Resolution {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Resolution::ALL.iter().copied().find(|r| r.as_str() == s).ok_or_else(|| format!("unknown resolution {s:?}"))
    }
}

/// What a resolution found: a file or package directory (ending in `/`), and how.
pub type Resolved = (Option<String>, Resolution);

/// A TypeScript/JavaScript `tsconfig.json` (or `jsconfig.json`), as module lookup uses it.
#[derive(Debug, Default, Clone)]
pub struct TsConfig {
    /// `compilerOptions.baseUrl`, relative to the project root.
    pub base_url: Option<String>,
    /// `compilerOptions.paths`: pattern, and targets relative to the project root, the
    /// longest prefix first.
    pub paths: Vec<(String, Vec<String>)>,
}

/// The project's files and module configuration, as import rules ask about them.
pub trait ProjectFiles {
    /// Whether `path` is a file of the project.
    fn exists(&self, path: &str) -> bool;
    /// Whether `dir` holds a file, directly or below (never true for the root, `""`).
    fn is_dir(&self, dir: &str) -> bool;
    /// Whether `dir` directly holds a file with extension `ext`.
    fn holds_extension(&self, dir: &str, ext: &str) -> bool;
    /// The shortest file whose path is `rel` or ends with `/rel` (ties: the first by name).
    fn suffix(&self, rel: &str) -> Option<String>;
    /// How many files have a path that is `rel` or ends with `/rel`.
    fn suffix_count(&self, rel: &str) -> usize;
    /// The shortest directory that is `rel` or ends with `/rel`.
    fn dir_suffix(&self, rel: &str) -> Option<String>;
    /// Go modules: module path and the directory of its `go.mod`, longest module first.
    fn go_modules(&self) -> &[(String, String)];
    /// Cargo packages: crate name (with `_`) and the directory of its `Cargo.toml`.
    fn crates(&self) -> &[(String, String)];
    /// The `tsconfig.json`/`jsconfig.json` of directory `dir`, if it has one.
    fn ts_config(&self, dir: &str) -> Option<&TsConfig>;
    /// PSR-4 prefixes (`App\`) and their directories, longest prefix first.
    fn psr4(&self) -> &[(String, String)];
}

impl dyn ProjectFiles + '_ {
    /// The first of `candidates` that is a file.
    pub fn first(&self, candidates: impl IntoIterator<Item = String>) -> Option<String> {
        candidates.into_iter().find(|c| self.exists(c))
    }

    /// `path` if it is a file, else `None`.
    pub fn existing(&self, path: Option<String>) -> Option<String> {
        path.filter(|p| self.exists(p))
    }
}

/// The directory part of a project path (`""` for a file at the root).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `dir/rel`, normalised (`.` and `..` applied); `None` if it climbs above the project
/// root. A `rel` starting with `/` is rooted at the project root, not at `dir`.
pub fn join_path(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> =
        if rel.starts_with('/') { Vec::new() } else { dir.split('/').filter(|p| !p.is_empty()).collect() };
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_path_applies_dots_and_roots_absolute_paths() {
        assert_eq!(join_path("a/b", "c.py").as_deref(), Some("a/b/c.py"));
        assert_eq!(join_path("a/b", "./c/../d.py").as_deref(), Some("a/b/d.py"));
        assert_eq!(join_path("a/b", "../../x").as_deref(), Some("x"));
        assert_eq!(join_path("a/b", "../../../x"), None);
        assert_eq!(join_path("", "x//y/").as_deref(), Some("x/y"));
        // An absolute path is rooted at the project, whatever the directory.
        assert_eq!(join_path("a/b", "/docs/guide.md").as_deref(), Some("docs/guide.md"));
        assert_eq!(join_path("a/b", "/../x"), None);
    }

    #[test]
    fn dir_of_splits_at_the_last_slash() {
        assert_eq!(dir_of("a/b/c.rs"), "a/b");
        assert_eq!(dir_of("c.rs"), "");
    }
}
