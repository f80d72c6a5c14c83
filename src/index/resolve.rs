//! Resolves imports to the project's files, once the whole file list of a run is known.
//!
//! A [`Resolver`] is built from every indexed path and the few files that change how a
//! language finds modules (`go.mod`, `Cargo.toml`, `tsconfig.json`/`jsconfig.json`,
//! `composer.json`). It is a pure function of those: the same files give the same
//! resolutions in any order, so an index updated incrementally resolves exactly as a fresh
//! one (`index` re-resolves every stored import whenever the file list changed).
//!
//! Each answer says how it was found ([`Resolution`]): by the language's own rule (a
//! relative path, the Python package root, `mod`, a Go module path, `tsconfig` paths) it is
//! exact; by a guess where the language leaves module lookup to build tools (a unique file
//! whose path ends with the module's, a C# namespace's directory, a shell path built from a
//! variable) it is heuristic. A package (Go, a Java wildcard import, a Terraform module) is
//! a directory, written with a trailing `/`.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::chunk::{Import, Language, ProjectFiles, Resolution, TsConfig, dir_of, join_path as join};

/// What a resolution found: a file or package directory, and how.
pub use crate::chunk::Resolved;

/// The file list and module configuration of a project.
#[derive(Debug, Default)]
pub struct Resolver {
    files: HashSet<String>,
    /// Every directory holding a file, directly or below (`a`, `a/b`; not the root).
    dirs: HashSet<String>,
    /// (directory, extension) of every file: the directories directly holding a kind of file.
    extension_dirs: HashSet<(String, String)>,
    /// Paths by file name, for suffix matches.
    by_name: HashMap<String, Vec<String>>,
    /// Go modules: module path, directory of its `go.mod`. Longest module first.
    go_modules: Vec<(String, String)>,
    /// Rust packages: crate name (with `_`), directory of its `Cargo.toml`.
    crates: Vec<(String, String)>,
    /// TypeScript/JavaScript configurations by directory.
    ts_configs: BTreeMap<String, TsConfig>,
    /// PSR-4 prefixes (`App\`) and their directories, from `composer.json` files.
    psr4: Vec<(String, String)>,
}

impl Resolver {
    /// A resolver for `paths`; `read` returns the text of a project file (configuration
    /// files are read through it, and only if they are in `paths`).
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>, read: &dyn Fn(&str) -> Option<String>) -> Resolver {
        let mut r = Resolver::default();
        for path in paths {
            r.files.insert(path.to_string());
            let name = path.rsplit('/').next().unwrap_or(path);
            r.by_name.entry(name.to_string()).or_default().push(path.to_string());
            let mut dir = dir_of(path);
            if let Some((_, ext)) = name.rsplit_once('.') {
                r.extension_dirs.insert((dir.to_string(), ext.to_string()));
            }
            while !dir.is_empty() && r.dirs.insert(dir.to_string()) {
                dir = dir_of(dir);
            }
        }
        for list in r.by_name.values_mut() {
            list.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        }
        let mut configs: Vec<&String> = r.files.iter().collect();
        configs.sort();
        let configs: Vec<String> = configs.into_iter().cloned().collect();
        for path in &configs {
            let name = path.rsplit('/').next().unwrap_or(path);
            match name {
                "go.mod" => {
                    if let Some(module) = read(path).as_deref().and_then(go_module) {
                        r.go_modules.push((module, dir_of(path).to_string()));
                    }
                }
                "Cargo.toml" => {
                    if let Some(name) = read(path).as_deref().and_then(cargo_package) {
                        r.crates.push((name.replace('-', "_"), dir_of(path).to_string()));
                    }
                }
                "tsconfig.json" | "jsconfig.json" => {
                    let dir = dir_of(path).to_string();
                    if r.ts_configs.contains_key(&dir) {
                        continue;
                    }
                    if let Some(config) = ts_config(path, read, &r.files, 0) {
                        r.ts_configs.insert(dir, config);
                    }
                }
                "composer.json" => {
                    if let Some(text) = read(path) {
                        r.psr4.extend(psr4(&text, dir_of(path)));
                    }
                }
                _ => {}
            }
        }
        r.go_modules.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
        r.psr4.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
        r
    }

    /// Whether the resolver depends on this file's content (a module configuration).
    pub fn is_config(path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        matches!(name, "go.mod" | "Cargo.toml" | "tsconfig.json" | "jsconfig.json" | "composer.json")
    }

    /// Resolves `import`, written in `from` (a file of `lang`), by the rule of the
    /// language's module.
    pub fn resolve(&self, from: &str, lang: Option<Language>, import: &Import) -> Resolved {
        let found = match lang.and_then(|l| l.spec().resolve) {
            Some(rule) => rule(self, from, import),
            None => (None, Resolution::External),
        };
        // A file never depends on itself.
        match found {
            (Some(target), _) if target == from => (None, Resolution::External),
            other => other,
        }
    }
}

impl ProjectFiles for Resolver {
    fn exists(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    fn is_dir(&self, dir: &str) -> bool {
        self.dirs.contains(dir)
    }

    fn holds_extension(&self, dir: &str, ext: &str) -> bool {
        self.extension_dirs.contains(&(dir.to_string(), ext.to_string()))
    }

    fn suffix(&self, rel: &str) -> Option<String> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let slashed = format!("/{rel}");
        self.by_name.get(name)?.iter().find(|p| *p == rel || p.ends_with(&slashed)).cloned()
    }

    fn suffix_count(&self, rel: &str) -> usize {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let slashed = format!("/{rel}");
        self.by_name.get(name).map_or(0, |l| l.iter().filter(|p| *p == rel || p.ends_with(&slashed)).count())
    }

    fn dir_suffix(&self, rel: &str) -> Option<String> {
        if self.dirs.contains(rel) {
            return Some(rel.to_string());
        }
        let slashed = format!("/{rel}");
        let mut found: Vec<&String> = self.dirs.iter().filter(|d| d.ends_with(&slashed)).collect();
        found.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        found.first().map(|d| d.to_string())
    }

    fn go_modules(&self) -> &[(String, String)] {
        &self.go_modules
    }

    fn crates(&self) -> &[(String, String)] {
        &self.crates
    }

    fn ts_config(&self, dir: &str) -> Option<&TsConfig> {
        self.ts_configs.get(dir)
    }

    fn psr4(&self) -> &[(String, String)] {
        &self.psr4
    }
}

/// The module path of a `go.mod`.
fn go_module(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
}

/// The `[package] name` of a `Cargo.toml`.
fn cargo_package(text: &str) -> Option<String> {
    let mut in_package = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
            continue;
        }
        if in_package
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "name"
        {
            return Some(value.trim().trim_matches('"').to_string()).filter(|n| !n.is_empty());
        }
    }
    None
}

/// JSON with comments and trailing commas (as `tsconfig.json` allows) made plain JSON.
fn plain_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            _ => out.push(c),
        }
    }
    // Trailing commas: a comma followed only by whitespace before a closing bracket.
    let mut cleaned = String::with_capacity(out.len());
    let bytes: Vec<char> = out.chars().collect();
    let mut in_string = false;
    for (i, &c) in bytes.iter().enumerate() {
        if c == '"' && (i == 0 || bytes[i - 1] != '\\') {
            in_string = !in_string;
        }
        if c == ',' && !in_string {
            let next = bytes[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        cleaned.push(c);
    }
    cleaned
}

/// The module lookup of a `tsconfig.json`, following a relative `extends` (three levels).
fn ts_config(
    path: &str,
    read: &dyn Fn(&str) -> Option<String>,
    files: &HashSet<String>,
    depth: usize,
) -> Option<TsConfig> {
    let value: serde_json::Value = serde_json::from_str(&plain_json(&read(path)?)).ok()?;
    let dir = dir_of(path);
    let mut config = match value.get("extends").and_then(|e| e.as_str()) {
        Some(parent) if depth < 3 && (parent.starts_with("./") || parent.starts_with("../")) => {
            let parent = join(dir, parent)?;
            let parent = if parent.ends_with(".json") { parent } else { format!("{parent}.json") };
            if files.contains(&parent) {
                ts_config(&parent, read, files, depth + 1).unwrap_or_default()
            } else {
                TsConfig::default()
            }
        }
        _ => TsConfig::default(),
    };
    let options = value.get("compilerOptions");
    if let Some(base) = options.and_then(|o| o.get("baseUrl")).and_then(|b| b.as_str()) {
        config.base_url = join(dir, base);
    }
    if let Some(paths) = options.and_then(|o| o.get("paths")).and_then(|p| p.as_object()) {
        let root = config.base_url.clone().unwrap_or_else(|| dir.to_string());
        config.paths = paths
            .iter()
            .map(|(pattern, targets)| {
                let targets = targets
                    .as_array()
                    .map(|t| t.iter().filter_map(|x| x.as_str()).filter_map(|x| join(&root, x)).collect())
                    .unwrap_or_default();
                (pattern.clone(), targets)
            })
            .collect();
        // The longest prefix wins, as in TypeScript.
        config.paths.sort_by(|a, b| {
            let len = |p: &str| p.split('*').next().map_or(0, str::len);
            len(&b.0).cmp(&len(&a.0)).then_with(|| a.0.cmp(&b.0))
        });
    }
    Some(config)
}

/// The PSR-4 prefixes of a `composer.json` and their directories.
fn psr4(text: &str, dir: &str) -> Vec<(String, String)> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let mut out = Vec::new();
    for section in ["autoload", "autoload-dev"] {
        let Some(map) = value.get(section).and_then(|a| a.get("psr-4")).and_then(|p| p.as_object()) else { continue };
        for (prefix, dirs) in map {
            let dirs: Vec<&str> = match dirs {
                serde_json::Value::String(s) => vec![s.as_str()],
                serde_json::Value::Array(a) => a.iter().filter_map(|d| d.as_str()).collect(),
                _ => Vec::new(),
            };
            for d in dirs {
                if let Some(joined) = join(dir, d) {
                    out.push((prefix.clone(), joined));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
