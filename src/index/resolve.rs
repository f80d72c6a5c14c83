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

use crate::chunk::{Import, ImportKind, Language};
use crate::store::Resolution;

/// What a resolution found: a file or package directory, and how.
pub type Resolved = (Option<String>, Resolution);

/// The file list and module configuration of a project.
#[derive(Debug, Default)]
pub struct Resolver {
    files: HashSet<String>,
    /// Every directory holding a file, directly or below (`a`, `a/b`; not the root).
    dirs: HashSet<String>,
    /// Directories directly holding a `.go` file.
    go_dirs: HashSet<String>,
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

/// What a `tsconfig.json` says about module lookup.
#[derive(Debug, Default, Clone)]
struct TsConfig {
    /// `compilerOptions.baseUrl`, relative to the project root.
    base_url: Option<String>,
    /// `compilerOptions.paths`: pattern, and targets relative to the project root.
    paths: Vec<(String, Vec<String>)>,
}

/// The directory part of a path (`""` for a file at the root).
fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `dir/rel`, normalised (`.` and `..` applied); `None` if it leaves the project.
fn join(dir: &str, rel: &str) -> Option<String> {
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
            if path.ends_with(".go") {
                r.go_dirs.insert(dir.to_string());
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

    fn exists(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    /// The first of `candidates` that is a file.
    fn first(&self, candidates: impl IntoIterator<Item = String>) -> Option<String> {
        candidates.into_iter().find(|c| self.exists(c))
    }

    /// The shortest file whose path is `rel` or ends with `/rel` (ties: the first by name).
    fn suffix(&self, rel: &str) -> Option<String> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let slashed = format!("/{rel}");
        self.by_name.get(name)?.iter().find(|p| *p == rel || p.ends_with(&slashed)).cloned()
    }

    /// How many files have a path that is `rel` or ends with `/rel`.
    fn suffix_count(&self, rel: &str) -> usize {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let slashed = format!("/{rel}");
        self.by_name.get(name).map_or(0, |l| l.iter().filter(|p| *p == rel || p.ends_with(&slashed)).count())
    }

    /// The shortest directory that is `rel` or ends with `/rel`.
    fn dir_suffix(&self, rel: &str) -> Option<String> {
        if self.dirs.contains(rel) {
            return Some(rel.to_string());
        }
        let slashed = format!("/{rel}");
        let mut found: Vec<&String> = self.dirs.iter().filter(|d| d.ends_with(&slashed)).collect();
        found.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        found.first().map(|d| d.to_string())
    }

    /// Resolves `import`, written in `from` (a file of `lang`).
    pub fn resolve(&self, from: &str, lang: Option<Language>, import: &Import) -> Resolved {
        let spec = import.spec.trim();
        let name = import.name.as_deref();
        let found = match import.kind {
            ImportKind::Include => self.include(from, spec),
            ImportKind::Mod => self.rust_mod(from, spec),
            ImportKind::Source => self.shell(from, spec),
            ImportKind::Module => self.relative_dir(from, spec),
            ImportKind::Image => (None, Resolution::External),
            ImportKind::Extends => self.relative_file(from, spec),
            ImportKind::Uses => self.action(spec),
            ImportKind::Link => self.link(from, spec),
            ImportKind::Import => match lang {
                Some(Language::Python) => self.python(from, spec, name),
                Some(Language::JavaScript | Language::TypeScript | Language::Tsx) => self.javascript(from, spec),
                Some(Language::Go) => self.go(from, spec),
                Some(Language::Rust) => self.rust_use(from, spec, name),
                Some(Language::Java) => self.jvm(spec, name, &["java"]),
                Some(Language::Kotlin) => self.jvm(spec, name, &["kt", "kts", "java"]),
                Some(Language::Scala) => self.jvm(spec, name, &["scala", "java"]),
                Some(Language::CSharp) => self.csharp(spec),
                Some(Language::Ruby) => self.ruby(from, spec),
                Some(Language::Php) => self.php(from, spec),
                Some(Language::Lua) => self.lua(from, spec),
                _ => (None, Resolution::External),
            },
        };
        // A file never depends on itself.
        match found {
            (Some(target), _) if target == from => (None, Resolution::External),
            other => other,
        }
    }

    /// The directory of Python's `sys.path` entry for `from`: the parent of the topmost
    /// package (directory with `__init__.py`) holding it, or its own directory for a script.
    fn python_root(&self, from: &str) -> String {
        let mut dir = dir_of(from).to_string();
        while !dir.is_empty() && self.exists(&format!("{dir}/__init__.py")) {
            dir = dir_of(&dir).to_string();
        }
        dir
    }

    fn python(&self, from: &str, spec: &str, name: Option<&str>) -> Resolved {
        let module_files = |module: &str| -> Vec<String> {
            let prefix = if module.is_empty() { String::new() } else { format!("{module}/") };
            let mut c = Vec::new();
            if !module.is_empty() {
                c.push(format!("{module}.py"));
                c.push(format!("{module}.pyi"));
            }
            c.push(format!("{prefix}__init__.py"));
            c.push(format!("{prefix}__init__.pyi"));
            c
        };
        // `from m import name` imports the submodule `m.name` when there is one, else `m`.
        let candidates = |module: &str| -> Vec<String> {
            let mut c = Vec::new();
            if let Some(n) = name.filter(|n| *n != "*") {
                let sub = if module.is_empty() { n.to_string() } else { format!("{module}/{n}") };
                c.push(format!("{sub}.py"));
                c.push(format!("{sub}.pyi"));
                c.push(format!("{sub}/__init__.py"));
            }
            c.extend(module_files(module));
            c
        };
        if spec.starts_with('.') {
            let level = spec.chars().take_while(|c| *c == '.').count();
            let rest = spec[level..].replace('.', "/");
            let mut base = Some(dir_of(from).to_string());
            for _ in 1..level {
                base = base.and_then(|b| if b.is_empty() { None } else { Some(dir_of(&b).to_string()) });
            }
            let Some(base) = base else { return (None, Resolution::Missing) };
            let module = if rest.is_empty() { base } else { join(&base, &rest).unwrap_or_default() };
            return match self.first(candidates(&module)) {
                Some(found) => (Some(found), Resolution::Exact),
                None => (None, Resolution::Missing),
            };
        }
        let rel = spec.replace('.', "/");
        let mut roots = vec![self.python_root(from), String::new()];
        for extra in ["src", "lib"] {
            if self.dirs.contains(extra) {
                roots.push(extra.to_string());
            }
        }
        let mut seen = HashSet::new();
        for root in roots.into_iter().filter(|r| seen.insert(r.clone())) {
            let module = if root.is_empty() { rel.clone() } else { format!("{root}/{rel}") };
            if let Some(found) = self.first(candidates(&module)) {
                return (Some(found), Resolution::Exact);
            }
        }
        for file in [format!("{rel}.py"), format!("{rel}/__init__.py")] {
            if let Some(found) = self.suffix(&file) {
                return (Some(found), Resolution::Heuristic);
            }
        }
        (None, Resolution::External)
    }

    /// A JS/TS module path probed as TypeScript and Node do: as written, with each
    /// extension, as a directory's `index`, and `.js` written for a `.ts` source.
    fn probe_js(&self, base: &str) -> Option<String> {
        const EXTS: &[&str] = &["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts", "json", "vue", "svelte"];
        if self.exists(base) {
            return Some(base.to_string());
        }
        for (written, source) in [("js", "ts"), ("js", "tsx"), ("jsx", "tsx"), ("mjs", "mts"), ("cjs", "cts")] {
            if let Some(stem) = base.strip_suffix(&format!(".{written}")) {
                let candidate = format!("{stem}.{source}");
                if self.exists(&candidate) {
                    return Some(candidate);
                }
            }
        }
        let slash = if base.is_empty() { "" } else { "/" };
        self.first(EXTS.iter().map(|e| format!("{base}.{e}")))
            .or_else(|| self.first(EXTS.iter().map(|e| format!("{base}{slash}index.{e}"))))
    }

    fn javascript(&self, from: &str, spec: &str) -> Resolved {
        if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." || spec.starts_with('/') {
            let base =
                if let Some(rooted) = spec.strip_prefix('/') { join("", rooted) } else { join(dir_of(from), spec) };
            return match base.and_then(|b| self.probe_js(&b)) {
                Some(found) => (Some(found), Resolution::Exact),
                None => (None, Resolution::Missing),
            };
        }
        // The nearest tsconfig/jsconfig above the file decides bare specifiers.
        let mut dir = dir_of(from).to_string();
        let config = loop {
            if let Some(c) = self.ts_configs.get(&dir) {
                break Some(c);
            }
            if dir.is_empty() {
                break None;
            }
            dir = dir_of(&dir).to_string();
        };
        if let Some(config) = config {
            for (pattern, targets) in &config.paths {
                let star = match pattern.split_once('*') {
                    Some((prefix, suffix)) => {
                        spec.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(suffix)).map(|s| s.to_string())
                    }
                    None => (pattern == spec).then(String::new),
                };
                let Some(star) = star else { continue };
                for target in targets {
                    let path = target.replacen('*', &star, 1);
                    if let Some(found) = join("", &path).and_then(|b| self.probe_js(&b)) {
                        return (Some(found), Resolution::Exact);
                    }
                }
            }
            if let Some(base) = &config.base_url
                && let Some(found) = join(base, spec).and_then(|b| self.probe_js(&b))
            {
                return (Some(found), Resolution::Exact);
            }
        }
        (None, Resolution::External)
    }

    fn go(&self, from: &str, spec: &str) -> Resolved {
        if spec.starts_with("./") || spec.starts_with("../") {
            return match join(dir_of(from), spec) {
                Some(d) if self.go_dirs.contains(&d) => (Some(format!("{d}/")), Resolution::Exact),
                _ => (None, Resolution::Missing),
            };
        }
        for (module, dir) in &self.go_modules {
            let rest = if spec == module {
                Some("")
            } else {
                spec.strip_prefix(module.as_str()).and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = join(dir, rest).unwrap_or_default();
                return if self.go_dirs.contains(&d) && !d.is_empty() {
                    (Some(format!("{d}/")), Resolution::Exact)
                } else {
                    (None, Resolution::Missing)
                };
            }
        }
        // Without a module that names it: a directory whose path ends with the import's
        // (vendored code, a repository without go.mod).
        if spec.split('/').next().is_some_and(|first| first.contains('.')) || self.go_modules.is_empty() {
            let mut parts: Vec<&str> = spec.split('/').collect();
            while parts.len() > 1 {
                let rel = parts.join("/");
                if let Some(d) = self.dir_suffix(&rel).filter(|d| self.go_dirs.contains(d)) {
                    return (Some(format!("{d}/")), Resolution::Heuristic);
                }
                parts.remove(0);
            }
        }
        (None, Resolution::External)
    }

    /// The Cargo package holding `from`: its name and directory (the innermost one).
    fn crate_of(&self, from: &str) -> Option<&(String, String)> {
        self.crates
            .iter()
            .filter(|(_, dir)| dir.is_empty() || from.starts_with(&format!("{dir}/")))
            .max_by_key(|(_, dir)| dir.len())
    }

    /// The file of module `path` (segments below the crate root) in the package at `dir`.
    fn rust_module_file(&self, dir: &str, path: &[&str]) -> Option<String> {
        let src = if dir.is_empty() { "src".to_string() } else { format!("{dir}/src") };
        if path.is_empty() {
            return self.first([format!("{src}/lib.rs"), format!("{src}/main.rs")]);
        }
        let joined = path.join("/");
        self.first([format!("{src}/{joined}.rs"), format!("{src}/{joined}/mod.rs")])
    }

    /// The module path of a file of a crate (`src/a/b.rs` → `[a, b]`), `None` outside `src`.
    fn rust_module_path<'p>(&self, from: &'p str, dir: &str) -> Option<Vec<&'p str>> {
        let src = if dir.is_empty() { "src/".to_string() } else { format!("{dir}/src/") };
        let rel = from.strip_prefix(&src)?.strip_suffix(".rs")?;
        let mut parts: Vec<&str> = rel.split('/').collect();
        if parts.len() == 1 && matches!(parts[0], "lib" | "main") {
            return Some(Vec::new());
        }
        if parts.last() == Some(&"mod") {
            parts.pop();
        }
        if parts.first() == Some(&"bin") {
            return Some(Vec::new());
        }
        Some(parts)
    }

    /// Whether `from` is the root file of a crate (its `mod` declarations name files beside
    /// it): `lib.rs`, `main.rs`, `build.rs`, and the files of `tests/`, `benches/`,
    /// `examples/` and `src/bin/`.
    fn is_crate_root(&self, from: &str) -> bool {
        let dir = self.crate_of(from).map_or("", |(_, d)| d.as_str());
        let rel = if dir.is_empty() { from } else { from.strip_prefix(&format!("{dir}/")).unwrap_or(from) };
        let in_dir = |d: &str| rel.strip_prefix(d).is_some_and(|rest| !rest.contains('/'));
        matches!(rel, "src/lib.rs" | "src/main.rs" | "build.rs")
            || ["tests/", "benches/", "examples/", "src/bin/"].iter().any(|d| in_dir(d))
    }

    fn rust_mod(&self, from: &str, name: &str) -> Resolved {
        let file_name = from.rsplit('/').next().unwrap_or(from);
        let dir = dir_of(from);
        let children = if file_name == "mod.rs" || self.is_crate_root(from) {
            dir.to_string()
        } else {
            let stem = from.strip_suffix(".rs").unwrap_or(from);
            stem.to_string()
        };
        let base = if children.is_empty() { name.to_string() } else { format!("{children}/{name}") };
        match self.first([format!("{base}.rs"), format!("{base}/mod.rs")]) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        }
    }

    fn rust_use(&self, from: &str, spec: &str, name: Option<&str>) -> Resolved {
        let mut segments: Vec<&str> = spec.split("::").map(str::trim).filter(|s| !s.is_empty()).collect();
        if let Some(n) = name.filter(|n| *n != "*" && *n != "self") {
            segments.push(n);
        }
        let Some(first) = segments.first().copied() else { return (None, Resolution::External) };
        if matches!(first, "std" | "core" | "alloc") {
            return (None, Resolution::External);
        }
        let own = self.crate_of(from);
        let own_dir = own.map_or("", |(_, d)| d.as_str());
        let here: Vec<&str> = self.rust_module_path(from, own_dir).unwrap_or_default();
        // (package directory, module path the rest is relative to, the rest)
        let (dir, base, rest): (&str, Vec<&str>, &[&str]) = match first {
            "crate" => (own_dir, Vec::new(), &segments[1..]),
            "self" => (own_dir, here.clone(), &segments[1..]),
            "super" => {
                let ups = segments.iter().take_while(|s| **s == "super").count();
                let mut base = here.clone();
                for _ in 0..ups {
                    base.pop();
                }
                (own_dir, base, &segments[ups..])
            }
            other => match self.crates.iter().find(|(n, _)| n == other) {
                Some((_, dir)) => (dir.as_str(), Vec::new(), &segments[1..]),
                // A name in scope: a child module of this one, else one of the crate root.
                None => {
                    let mut child = here.clone();
                    child.push(other);
                    if self.rust_module_file(own_dir, &child).is_some() {
                        (own_dir, here.clone(), &segments[..])
                    } else if self.rust_module_file(own_dir, &[other]).is_some() {
                        (own_dir, Vec::new(), &segments[..])
                    } else {
                        return (None, Resolution::External);
                    }
                }
            },
        };
        // The longest prefix of the path that is a module file: the rest names items in it.
        for k in (0..=rest.len()).rev() {
            let mut path = base.clone();
            path.extend_from_slice(&rest[..k]);
            if let Some(found) = self.rust_module_file(dir, &path) {
                return (Some(found), Resolution::Exact);
            }
        }
        (None, Resolution::Missing)
    }

    /// Java, Kotlin and Scala: `a.b.C` is the file `a/b/C.<ext>` under some source root; a
    /// wildcard or an unknown class names the package directory.
    fn jvm(&self, spec: &str, name: Option<&str>, exts: &[&str]) -> Resolved {
        let mut parts: Vec<&str> = spec.split('.').filter(|p| !p.is_empty()).collect();
        let wildcard = name == Some("*");
        if let Some(n) = name.filter(|n| *n != "*") {
            // Scala's `import a.b.{C, D}` names the class in `name`; Java's static import
            // names a member of the class in `spec`, which the loop below drops.
            parts.push(n);
        }
        if !wildcard {
            for (dropped, k) in (1..=parts.len()).rev().enumerate() {
                let rel = parts[..k].join("/");
                for ext in exts {
                    let file = format!("{rel}.{ext}");
                    if let Some(found) = self.suffix(&file) {
                        let unique = self.suffix_count(&file) == 1;
                        let how = if unique && dropped <= 1 { Resolution::Exact } else { Resolution::Heuristic };
                        return (Some(found), how);
                    }
                }
                if k <= 2 {
                    break;
                }
            }
        }
        // The package: for a wildcard, the whole path; else the class's parent.
        let package = if wildcard { parts.len() } else { parts.len().saturating_sub(1) };
        if package >= 2
            && let Some(dir) = self.dir_suffix(&parts[..package].join("/"))
        {
            return (Some(format!("{dir}/")), Resolution::Heuristic);
        }
        (None, Resolution::External)
    }

    /// C#: a namespace is a directory by convention only, the root namespace often being the
    /// project's name; the longest tail of the namespace that is a directory is a guess.
    fn csharp(&self, spec: &str) -> Resolved {
        let parts: Vec<&str> = spec.split('.').collect();
        // At least two parts, unless the namespace has one: `Models` alone says little.
        let shortest = parts.len().min(2);
        for start in 0..=parts.len() - shortest {
            let rel = parts[start..].join("/");
            if let Some(dir) = self.dir_suffix(&rel) {
                return (Some(format!("{dir}/")), Resolution::Heuristic);
            }
        }
        (None, Resolution::External)
    }

    fn include(&self, from: &str, spec: &str) -> Resolved {
        if let Some(system) = spec.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            return match self.suffix(system) {
                Some(found) => (Some(found), Resolution::Heuristic),
                None => (None, Resolution::External),
            };
        }
        if let Some(found) = join(dir_of(from), spec).filter(|p| self.exists(p)) {
            return (Some(found), Resolution::Exact);
        }
        if let Some(found) = join("", spec).filter(|p| self.exists(p)) {
            return (Some(found), Resolution::Exact);
        }
        match self.suffix(spec.trim_start_matches("./")) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::Missing),
        }
    }

    fn ruby(&self, from: &str, spec: &str) -> Resolved {
        let with_ext = |s: &str| if s.ends_with(".rb") { s.to_string() } else { format!("{s}.rb") };
        if spec.starts_with("./") || spec.starts_with("../") {
            return match join(dir_of(from), &with_ext(spec)).filter(|p| self.exists(p)) {
                Some(found) => (Some(found), Resolution::Exact),
                None => (None, Resolution::Missing),
            };
        }
        let file = with_ext(spec);
        if let Some(found) = self.first([format!("lib/{file}")]) {
            return (Some(found), Resolution::Exact);
        }
        if let Some(found) = self.first([file.clone()]) {
            return (Some(found), Resolution::Heuristic);
        }
        match self.suffix(&format!("lib/{file}")) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::External),
        }
    }

    fn php(&self, from: &str, spec: &str) -> Resolved {
        if spec.contains('/') || spec.ends_with(".php") || spec.ends_with(".inc") {
            if let Some(found) = join(dir_of(from), spec).filter(|p| self.exists(p)) {
                return (Some(found), Resolution::Exact);
            }
            return match join("", spec).filter(|p| self.exists(p)) {
                Some(found) => (Some(found), Resolution::Heuristic),
                None => (None, Resolution::Missing),
            };
        }
        let class = spec.trim_start_matches('\\');
        for (prefix, dir) in &self.psr4 {
            if let Some(rest) = class.strip_prefix(prefix.as_str()) {
                let rel = format!("{}.php", rest.replace('\\', "/"));
                if let Some(found) = join(dir, &rel).filter(|p| self.exists(p)) {
                    return (Some(found), Resolution::Exact);
                }
            }
        }
        let parts: Vec<&str> = class.split('\\').collect();
        for start in 0..parts.len().saturating_sub(1) {
            let rel = format!("{}.php", parts[start..].join("/"));
            if let Some(found) = self.suffix(&rel) {
                return (Some(found), Resolution::Heuristic);
            }
        }
        (None, Resolution::External)
    }

    fn lua(&self, from: &str, spec: &str) -> Resolved {
        let rel = spec.replace('.', "/");
        let candidates = |base: &str| {
            let prefix = if base.is_empty() { String::new() } else { format!("{base}/") };
            [format!("{prefix}{rel}.lua"), format!("{prefix}{rel}/init.lua")]
        };
        match self.first(candidates("").into_iter().chain(candidates(dir_of(from)))) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::External),
        }
    }

    fn shell(&self, from: &str, spec: &str) -> Resolved {
        // `"$(dirname "$0")/lib.sh"`, `"${BASH_SOURCE%/*}/lib.sh"`, `"$DIR/lib.sh"`: a path
        // relative to the script, most likely.
        if spec.starts_with('$') {
            let rest = spec
                .rfind(")/")
                .or_else(|| spec.rfind("}/"))
                .map(|i| &spec[i + 2..])
                .or_else(|| spec.split_once('/').map(|(_, r)| r));
            return match rest.and_then(|r| join(dir_of(from), r)).filter(|p| self.exists(p)) {
                Some(found) => (Some(found), Resolution::Heuristic),
                None => (None, Resolution::Missing),
            };
        }
        if spec.starts_with('/') || spec.starts_with('~') {
            return (None, Resolution::External);
        }
        if let Some(found) = join(dir_of(from), spec).filter(|p| self.exists(p)) {
            return (Some(found), Resolution::Exact);
        }
        match join("", spec).filter(|p| self.exists(p)) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::Missing),
        }
    }

    /// A path relative to the importing file (a compose `extends` file).
    fn relative_file(&self, from: &str, spec: &str) -> Resolved {
        match join(dir_of(from), spec).filter(|p| self.exists(p)) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        }
    }

    /// A directory relative to the importing file (a Terraform module source); sources that
    /// are not local paths (registries, git) are external.
    fn relative_dir(&self, from: &str, spec: &str) -> Resolved {
        if !(spec.starts_with("./") || spec.starts_with("../")) {
            return (None, Resolution::External);
        }
        match join(dir_of(from), spec) {
            Some(d) if !d.is_empty() && self.dirs.contains(&d) => (Some(format!("{d}/")), Resolution::Exact),
            _ => (None, Resolution::Missing),
        }
    }

    /// A GitHub Actions `uses:`: `./path` is relative to the repository root (a reusable
    /// workflow file, or an action's directory with its `action.yml`).
    fn action(&self, spec: &str) -> Resolved {
        let Some(local) = spec.strip_prefix("./") else { return (None, Resolution::External) };
        let Some(path) = join("", local) else { return (None, Resolution::Missing) };
        let slash = if path.is_empty() { "" } else { "/" };
        match self.first([path.clone(), format!("{path}{slash}action.yml"), format!("{path}{slash}action.yaml")]) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        }
    }

    /// A Markdown link: a file or directory, relative to the document (or the root for
    /// `/path`).
    fn link(&self, from: &str, spec: &str) -> Resolved {
        let path = match spec.strip_prefix('/') {
            Some(rooted) => join("", rooted),
            None => join(dir_of(from), spec),
        };
        match path {
            Some(p) if self.exists(&p) => (Some(p), Resolution::Exact),
            Some(p) if !p.is_empty() && self.dirs.contains(p.trim_end_matches('/')) => {
                (Some(format!("{}/", p.trim_end_matches('/'))), Resolution::Exact)
            }
            _ => (None, Resolution::Missing),
        }
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
