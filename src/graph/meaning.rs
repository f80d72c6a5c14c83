//! What a reference means: whether a use of a name refers to a given definition, and how
//! sure that is, decided by each language's scoping rules as far as the index knows them.
//!
//! Exact: the name is used bare in the defining file (a function, a class; a method only
//! where bare names reach members: Java, C#, C++, Kotlin, Scala, Ruby, Swift); through
//! `self`/`this` inside the method's own class; qualified by the class (`Foo::new`,
//! `Request.send`); imported from the defining file by name (`from .models import Request`,
//! `import {send} from './x'`, `use crate::a::f`), through one re-export, or by a wildcard;
//! qualified by a module imported from the defining file (`sessions.Session`, `fmt.Println`,
//! `Helper.run` after `import com.x.Helper`); in a file that includes or sources the defining
//! file (C, C++, Ruby, PHP, shell); in the same package directory (Go, Java, Kotlin, Scala,
//! C#); a Terraform reference in the same module directory; a compose or Dockerfile name in
//! the same file.
//!
//! Other: certainly another definition — a bare name that the file imports from a package,
//! a bare call that cannot reach a method (Python, JS, Rust, Go), a Terraform reference in
//! another module.
//!
//! Heuristic: everything else that shares the name — above all a method called on a value
//! whose type the index does not know (`session.send()`).

use std::collections::HashMap;

use super::{Graph, GraphError, dir_of, last_part, separator};
use crate::chunk::{EXPRESSION_QUALIFIER, Language, RefKind, SymbolKind};
use crate::store::{ImportQuery, ImportRecord, StoredDef, StoredRef};

/// How a reference relates to one definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Meaning {
    /// It refers to this definition.
    Exact,
    /// It may refer to it: the name matches and nothing rules it out.
    Heuristic,
    /// It refers to something else.
    Other,
}

/// The imports of the files whose references are being read, and of the files they import
/// names from (for one level of re-exports).
#[derive(Default)]
pub(crate) struct Imports {
    by_file: HashMap<String, Vec<ImportRecord>>,
}

impl Imports {
    /// The imports of `files`, and of the files those import from.
    pub(crate) fn load<'p>(graph: &Graph, files: impl IntoIterator<Item = &'p str>) -> Result<Imports, GraphError> {
        let mut imports = Imports::default();
        let wanted: Vec<String> = files.into_iter().map(str::to_string).collect();
        imports.add(graph, wanted)?;
        let next: Vec<String> = imports
            .by_file
            .values()
            .flatten()
            .filter(|i| i.name.is_some())
            .filter_map(|i| i.target.clone())
            .filter(|t| !t.ends_with('/') && !imports.by_file.contains_key(t))
            .collect();
        imports.add(graph, next)?;
        Ok(imports)
    }

    fn add(&mut self, graph: &Graph, mut files: Vec<String>) -> Result<(), GraphError> {
        files.sort();
        files.dedup();
        files.retain(|f| !self.by_file.contains_key(f));
        if files.is_empty() {
            return Ok(());
        }
        for f in &files {
            self.by_file.entry(f.clone()).or_default();
        }
        let query = ImportQuery { from: Some(files), targets: None };
        for stored in graph.reader().imports(&query)? {
            self.by_file.entry(stored.path).or_default().push(stored.import);
        }
        Ok(())
    }

    pub(crate) fn of(&self, path: &str) -> &[ImportRecord] {
        self.by_file.get(path).map_or(&[], Vec::as_slice)
    }

    /// The name a file imported under the alias `name` (`is_prepared` for `_is_prepared`
    /// after `from ._types import is_prepared as _is_prepared`), when it did.
    pub(crate) fn original<'s>(&'s self, path: &str, name: &str) -> Option<&'s str> {
        self.of(path).iter().find_map(|i| match (i.alias.as_deref(), i.name.as_deref()) {
            (Some(alias), Some(original)) if alias == name && original != name && original != "*" => Some(original),
            _ => None,
        })
    }
}

/// Whether an import resolves to `file` or to its package directory.
pub(crate) fn reaches(import: &ImportRecord, file: &str) -> bool {
    match &import.target {
        Some(t) if t == file => true,
        Some(t) => t.strip_suffix('/').is_some_and(|d| d == dir_of(file)),
        None => false,
    }
}

fn lang(name: &str) -> Option<Language> {
    Language::from_name(name)
}

/// Whether bare names inside a class reach its members (no `self.`/`this.` needed).
fn bare_members(language: &str) -> bool {
    lang(language).is_some_and(|l| l.name_rules().bare_members)
}

/// Whether an import brings every name of the imported file into scope (C includes, shell
/// `source`, Ruby `require`, PHP `include`).
fn brings_all_names(language: &str) -> bool {
    lang(language).is_some_and(|l| l.name_rules().imports_bring_all_names)
}

/// Whether files of one directory share a package (their names need no import).
fn shares_package(language: &str) -> bool {
    lang(language).is_some_and(|l| l.name_rules().package_per_directory)
}

/// Languages whose code can name each other's definitions: one family each, the JVM
/// languages together, C with C++, JavaScript with TypeScript.
fn family(language: &str) -> u8 {
    match lang(language) {
        Some(l) if l.name_rules().family != 0 => l.name_rules().family,
        Some(other) => 10 + other.index() as u8,
        None => 0,
    }
}

/// Whether an import of the JVM (`import a.b.C`) binds its last part.
fn binds_last_part(language: &str) -> bool {
    family(language) == 2
}

/// The receiver words for the current object.
fn is_own(qualifier: &str) -> bool {
    matches!(qualifier, "self" | "this" | "cls" | "Self" | "$this" | "@" | "static")
}

/// The receiver words for a base class's members.
fn is_inherited(qualifier: &str) -> bool {
    matches!(qualifier, "super" | "base" | "parent" | "Super")
}

/// Whether `caller` lies inside `parent` (the class of a method).
fn inside(caller: Option<&str>, parent: Option<&str>, sep: &str) -> bool {
    match (caller, parent) {
        (Some(c), Some(p)) => c == p || c.starts_with(&format!("{p}{sep}")) || c.starts_with(&format!("{p}.")),
        _ => false,
    }
}

/// Whether `qualifier` names what `import` binds: its alias, its name, its module as
/// written, or the module's last part (a Go package, a Java class).
fn names_import(import: &ImportRecord, qualifier: &str) -> bool {
    let spec = import.spec.trim_start_matches('.');
    let spec_last = spec.rsplit(['.', '/', ':', '\\']).next().unwrap_or(spec);
    let bound = import.alias.as_deref().or(import.name.as_deref().filter(|n| *n != "*" && *n != "default"));
    match bound {
        Some(b) => qualifier == b || qualifier.starts_with(&format!("{b}.")),
        None => qualifier == spec || qualifier == spec_last || qualifier.starts_with(&format!("{spec}.")),
    }
}

/// How reference `r` relates to definition `d`.
pub(crate) fn meaning(r: &StoredRef, d: &StoredDef, imports: &Imports) -> Meaning {
    let reference = &r.reference;
    let (f, g) = (r.path.as_str(), d.path.as_str());
    let name = reference.name.as_str();
    let d_name = d.symbol.name.as_str();
    match reference.kind {
        RefKind::Stage | RefKind::DependsOn | RefKind::Extends => {
            return if f == g { Meaning::Exact } else { Meaning::Other };
        }
        RefKind::Use => return terraform(r, d),
        _ => {}
    }
    if family(&r.language) != family(&d.language) {
        return Meaning::Other;
    }
    let method = d.symbol.kind == SymbolKind::Method;
    let sep = separator(&d.language);
    let parent_own = d.symbol.parent.as_deref().map(last_part);
    let qualifier = reference.qualifier.as_deref();
    let language = r.language.as_str();
    let caller_in_class = inside(reference.caller.as_deref(), d.symbol.parent.as_deref(), sep);
    let imps = imports.of(f);
    if f == g {
        return match qualifier {
            None if method && !bare_members(language) => Meaning::Other,
            None if method => {
                if caller_in_class {
                    Meaning::Exact
                } else {
                    Meaning::Heuristic
                }
            }
            None => Meaning::Exact,
            Some(q) if is_own(q) => match (method, caller_in_class) {
                (true, true) => Meaning::Exact,
                (true, false) => Meaning::Heuristic,
                (false, _) => Meaning::Other,
            },
            Some(q) if is_inherited(q) => {
                if method {
                    Meaning::Heuristic
                } else {
                    Meaning::Other
                }
            }
            Some(q) if Some(last_part(q)) == parent_own || Some(q) == d.symbol.parent.as_deref() => Meaning::Exact,
            // A function of this file is not reached through a value or another module.
            Some(_) if !method => Meaning::Other,
            Some(_) => Meaning::Heuristic,
        };
    }
    let to_def: Vec<&ImportRecord> = imps.iter().filter(|i| reaches(i, g)).collect();
    let same_package = shares_package(language) && dir_of(f) == dir_of(g) && r.language == d.language;
    match qualifier {
        None => {
            // An import binds the used name to the definition's: under its own name, or
            // under an alias (`from .x import f as g`, then `g()`).
            let binds = |i: &ImportRecord| {
                (i.alias.as_deref() == Some(name) && (name == d_name || i.name.as_deref() == Some(d_name)))
                    || (i.alias.is_none() && name == d_name && i.name.as_deref() == Some(name))
                    || (i.alias.is_none()
                        && i.name.is_none()
                        && binds_last_part(language)
                        && i.spec.rsplit('.').next() == Some(name))
            };
            if to_def.iter().any(|i| binds(i) || (i.name.as_deref() == Some("*") && i.alias.is_none())) {
                return Meaning::Exact;
            }
            if !to_def.is_empty() && brings_all_names(language) {
                return Meaning::Exact;
            }
            if same_package && !method {
                return Meaning::Exact;
            }
            let named: Vec<&ImportRecord> = imps.iter().filter(|i| binds(i)).collect();
            if !named.is_empty() {
                // Imported from another file, which may itself import it from the definition's.
                let reexported = named.iter().filter_map(|i| i.target.as_deref()).any(|h| {
                    imports.of(h).iter().any(|j| {
                        reaches(j, g)
                            && (j.name.as_deref() == Some(d_name)
                                || j.alias.as_deref() == Some(d_name)
                                || j.name.as_deref() == Some("*"))
                    })
                });
                if reexported {
                    return Meaning::Exact;
                }
                if named.iter().all(|i| i.target.is_none()) {
                    // From a package: not a project definition.
                    return Meaning::Other;
                }
                return Meaning::Heuristic;
            }
            if method && !bare_members(language) {
                return Meaning::Other;
            }
            Meaning::Heuristic
        }
        Some(q) => {
            if is_own(q) || is_inherited(q) {
                return if method { Meaning::Heuristic } else { Meaning::Other };
            }
            let by_class = Some(last_part(q)) == parent_own;
            if to_def.iter().any(|i| names_import(i, q)) {
                return if !method || by_class { Meaning::Exact } else { Meaning::Heuristic };
            }
            if by_class && (same_package || (!to_def.is_empty() && brings_all_names(language))) {
                return Meaning::Exact;
            }
            if !method && !to_def.is_empty() && brings_all_names(language) {
                return Meaning::Exact;
            }
            if !method && !by_class && q != EXPRESSION_QUALIFIER && imps.iter().any(|i| names_import(i, q)) {
                // A module-qualified name from another module.
                return Meaning::Other;
            }
            Meaning::Heuristic
        }
    }
}

/// Terraform: `var.x`, `local.x`, `module.x`, `data.t.n` and `type.name` refer to the
/// definition of that kind in the same module (directory).
fn terraform(r: &StoredRef, d: &StoredDef) -> Meaning {
    let kind = d.symbol.kind;
    let fits = match r.reference.qualifier.as_deref() {
        Some("var") => kind == SymbolKind::Variable && d.symbol.parent.is_none(),
        Some("local") => kind == SymbolKind::Variable && d.symbol.parent.as_deref() == Some("locals"),
        Some("module") => kind == SymbolKind::Module,
        Some("data") => kind == SymbolKind::Data,
        Some("resource") => kind == SymbolKind::Resource,
        _ => false,
    };
    if fits && dir_of(&r.path) == dir_of(&d.path) { Meaning::Exact } else { Meaning::Other }
}
