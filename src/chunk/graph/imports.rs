//! Provides the import statements of the programming languages, recorded as written: one
//! [`super::Import`] per imported name, so `from . import models, sessions` is two imports
//! (each may be its own module) and `use a::{B, C}` is two.

use tree_sitter::Node;

use super::{Found, ImportKind, line_of, text, unquote};

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor).collect()
}

/// An import of the module a string literal names (`require('./x')`, `import('./x')`,
/// Lua's `require "a.b"`).
pub(super) fn import_at(spec: Node<'_>, alias: Option<&str>, src: &str, f: &mut Found) {
    let written = unquote(text(spec, src));
    if !written.contains("${") {
        f.import(ImportKind::Import, written, None, alias, line_of(spec));
    }
}

/// `import a.b as c, d` and `from ..m import x as y, z` / `from . import *`.
pub(super) fn python(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let split = |n: Node<'_>| -> (String, Option<String>) {
        match n.kind() {
            "aliased_import" => (
                n.child_by_field_name("name").map(|m| text(m, src).to_string()).unwrap_or_default(),
                n.child_by_field_name("alias").map(|a| text(a, src).to_string()),
            ),
            _ => (text(n, src).to_string(), None),
        }
    };
    if node.kind() == "import_statement" {
        for n in field_children(node, "name") {
            let (module, alias) = split(n);
            f.import(ImportKind::Import, &module, None, alias.as_deref(), line);
        }
        return;
    }
    let Some(module) = node.child_by_field_name("module_name") else { return };
    let module: String = text(module, src).split_whitespace().collect();
    let names = field_children(node, "name");
    if names.is_empty() {
        let wildcard = named_children(node).iter().any(|c| c.kind() == "wildcard_import");
        f.import(ImportKind::Import, &module, wildcard.then_some("*"), None, line);
        return;
    }
    for n in names {
        let (name, alias) = split(n);
        f.import(ImportKind::Import, &module, Some(&name), alias.as_deref(), line);
    }
}

/// `import d, {a, b as c} from './x'`, `import * as ns from 'x'`, `import './side-effect'`,
/// TypeScript's `import x = require('y')`.
pub(super) fn javascript(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let source = node.child_by_field_name("source").or_else(|| {
        named_children(node)
            .into_iter()
            .find(|c| c.kind() == "import_require_clause")
            .and_then(|c| c.child_by_field_name("source"))
    });
    let Some(source) = source else { return };
    let spec = unquote(text(source, src));
    let mut any = false;
    for clause in named_children(node).into_iter().filter(|c| c.kind() == "import_clause") {
        for part in named_children(clause) {
            match part.kind() {
                "identifier" => {
                    any = true;
                    f.import(ImportKind::Import, spec, Some("default"), Some(text(part, src)), line);
                }
                "namespace_import" => {
                    any = true;
                    let alias = part.named_child(0).map(|a| text(a, src));
                    f.import(ImportKind::Import, spec, Some("*"), alias, line);
                }
                "named_imports" => {
                    for s in named_children(part).into_iter().filter(|s| s.kind() == "import_specifier") {
                        any = true;
                        let name = s.child_by_field_name("name").map(|n| unquote(text(n, src)));
                        let alias = s.child_by_field_name("alias").map(|a| text(a, src));
                        f.import(ImportKind::Import, spec, name, alias, line);
                    }
                }
                _ => {}
            }
        }
    }
    if !any {
        f.import(ImportKind::Import, spec, None, None, line);
    }
}

/// `export {a, b as c} from './x'` and `export * from './x'`: the module is imported too.
pub(super) fn javascript_reexport(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(source) = node.child_by_field_name("source") else { return };
    let spec = unquote(text(source, src));
    let line = line_of(node);
    let mut any = false;
    for clause in named_children(node).into_iter().filter(|c| c.kind() == "export_clause") {
        for s in named_children(clause).into_iter().filter(|s| s.kind() == "export_specifier") {
            any = true;
            let name = s.child_by_field_name("name").map(|n| unquote(text(n, src)));
            let alias = s.child_by_field_name("alias").map(|a| text(a, src));
            f.import(ImportKind::Import, spec, name, alias, line);
        }
    }
    if !any {
        let alias =
            named_children(node).into_iter().find(|c| c.kind() == "namespace_export").and_then(|n| n.named_child(0));
        f.import(ImportKind::Import, spec, Some("*"), alias.map(|a| text(a, src)), line);
    }
}

/// One spec of a Go `import (...)`: the package path and its local name.
pub(super) fn go(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(path) = node.child_by_field_name("path") else { return };
    let alias = node.child_by_field_name("name").map(|n| text(n, src));
    f.import(ImportKind::Import, unquote(text(path, src)), None, alias, line_of(node));
}

/// A Rust `use` tree, flattened: `use crate::a::{B, c::D as E, self}` gives
/// (`crate::a`, `B`), (`crate::a::c`, `D` as `E`) and (`crate`, `a`).
pub(super) fn rust(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let Some(argument) = node.child_by_field_name("argument") else { return };
    let mut stack: Vec<(Node<'_>, String)> = vec![(argument, String::new())];
    let join =
        |prefix: &str, part: &str| if prefix.is_empty() { part.to_string() } else { format!("{prefix}::{part}") };
    let mut budget = 512;
    while let Some((n, prefix)) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return;
        }
        match n.kind() {
            "use_list" => stack.extend(named_children(n).into_iter().rev().map(|c| (c, prefix.clone()))),
            "scoped_use_list" => {
                let path = n.child_by_field_name("path").map(|p| text(p, src)).unwrap_or("");
                let inner = join(&prefix, path);
                if let Some(list) = n.child_by_field_name("list") {
                    stack.push((list, inner));
                }
            }
            "use_wildcard" => {
                let written: String = text(n, src).split_whitespace().collect();
                let path = written.strip_suffix("::*").unwrap_or(&written);
                f.import(ImportKind::Import, &join(&prefix, path), Some("*"), None, line);
            }
            "use_as_clause" => {
                let path = n.child_by_field_name("path").map(|p| text(p, src)).unwrap_or("");
                let alias = n.child_by_field_name("alias").map(|a| text(a, src));
                rust_path(&join(&prefix, path), alias, line, f);
            }
            _ => rust_path(&join(&prefix, text(n, src)), None, line, f),
        }
    }
}

/// Records `a::b::c` as (`a::b`, `c`); `a::self` as (`a`'s parent, `a`).
fn rust_path(full: &str, alias: Option<&str>, line: u32, f: &mut Found) {
    let full: String = full.split_whitespace().collect();
    let full = full.strip_suffix("::self").unwrap_or(&full);
    match full.rsplit_once("::") {
        Some((spec, name)) => f.import(ImportKind::Import, spec, Some(name), alias, line),
        None => f.import(ImportKind::Import, full, None, alias, line),
    }
}

/// `import a.b.C;` (the class), `import a.b.*;` (a package), `import static a.b.C.m;`.
pub(super) fn java(node: Node<'_>, src: &str, f: &mut Found) {
    let children = named_children(node);
    let Some(path) = children.iter().find(|c| matches!(c.kind(), "scoped_identifier" | "identifier")) else { return };
    let wildcard = children.iter().any(|c| c.kind() == "asterisk");
    let is_static = {
        let mut cursor = node.walk();
        node.children(&mut cursor).any(|c| c.kind() == "static")
    };
    let full = text(*path, src);
    let line = line_of(node);
    match (is_static, wildcard) {
        (_, true) => f.import(ImportKind::Import, full, Some("*"), None, line),
        (true, false) => match full.rsplit_once('.') {
            Some((class, member)) => f.import(ImportKind::Import, class, Some(member), None, line),
            None => f.import(ImportKind::Import, full, None, None, line),
        },
        (false, false) => f.import(ImportKind::Import, full, None, None, line),
    }
}

/// `#include "x.h"` (spec `x.h`) and `#include <x.h>` (spec `<x.h>`: a system include).
pub(super) fn c(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(path) = node.child_by_field_name("path") else { return };
    let written = text(path, src).trim();
    let spec = if path.kind() == "system_lib_string" { written } else { unquote(written) };
    f.import(ImportKind::Include, spec, None, None, line_of(node));
}

/// `using A.B;`, `using static A.B;`, `using X = A.B;`.
pub(super) fn csharp(node: Node<'_>, src: &str, f: &mut Found) {
    let alias = node.child_by_field_name("name");
    let target = named_children(node)
        .into_iter()
        .filter(|c| Some(c.id()) != alias.map(|a| a.id()))
        .find(|c| matches!(c.kind(), "qualified_name" | "identifier" | "generic_name"));
    if let Some(target) = target {
        f.import(ImportKind::Import, text(target, src), None, alias.map(|a| text(a, src)), line_of(node));
    }
}

/// `use App\Models\User;`, `use App\Other as O;`, `use App\{A, B};`.
pub(super) fn php_use(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let prefix = named_children(node)
        .into_iter()
        .find(|c| c.kind() == "namespace_name")
        .map(|p| format!("{}\\", text(p, src)))
        .unwrap_or_default();
    let mut clauses = Vec::new();
    for child in named_children(node) {
        match child.kind() {
            "namespace_use_clause" => clauses.push(child),
            "namespace_use_group" => {
                clauses.extend(named_children(child).into_iter().filter(|c| c.kind() == "namespace_use_clause"))
            }
            _ => {}
        }
    }
    for clause in clauses {
        let alias = clause.child_by_field_name("alias");
        let Some(name) = named_children(clause)
            .into_iter()
            .filter(|c| Some(c.id()) != alias.map(|a| a.id()))
            .find(|c| matches!(c.kind(), "qualified_name" | "name"))
        else {
            continue;
        };
        let spec = format!("{prefix}{}", text(name, src).trim_start_matches('\\'));
        f.import(ImportKind::Import, &spec, None, alias.map(|a| text(a, src)), line);
    }
}

/// `require_once __DIR__ . '/lib.php'` (spec `./lib.php`: relative to the file) and
/// `include 'x.php'` (spec `x.php`).
pub(super) fn php_include(node: Node<'_>, src: &str, f: &mut Found) {
    let written = text(node, src);
    let mut parts = String::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "string" | "encapsed_string") {
            parts.push_str(unquote(text(n, src)));
            continue;
        }
        stack.extend(named_children(n).into_iter().rev());
    }
    if parts.is_empty() {
        return;
    }
    let relative = written.contains("__DIR__") || written.contains("dirname(__FILE__)");
    let spec = if relative { format!("./{}", parts.trim_start_matches('/')) } else { parts };
    f.import(ImportKind::Import, &spec, None, None, line_of(node));
}

/// `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
pub(super) fn kotlin(node: Node<'_>, src: &str, f: &mut Found) {
    let children = named_children(node);
    let Some(path) = children.iter().find(|c| c.kind() == "qualified_identifier") else { return };
    let alias = children.iter().find(|c| c.kind() == "identifier").map(|a| text(*a, src));
    let wildcard = text(node, src).trim_end().ends_with('*');
    f.import(ImportKind::Import, text(*path, src), wildcard.then_some("*"), alias, line_of(node));
}

/// `import a.b.C`, `import a.b.{C, D => E}`, `import a.b._`.
pub(super) fn scala(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let path: Vec<&str> =
        field_children(node, "path").into_iter().filter(|p| p.is_named()).map(|p| text(p, src)).collect();
    let path = path.join(".");
    let selectors = named_children(node).into_iter().find(|c| c.kind() == "namespace_selectors");
    let wildcard = named_children(node).into_iter().any(|c| c.kind() == "namespace_wildcard");
    match (selectors, wildcard) {
        (Some(list), _) => {
            for s in named_children(list) {
                match s.kind() {
                    "arrow_renamed_identifier" | "as_renamed_identifier" => {
                        let name = s.child_by_field_name("name").map(|n| text(n, src));
                        let alias = s.child_by_field_name("alias").map(|a| text(a, src));
                        f.import(ImportKind::Import, &path, name, alias, line);
                    }
                    "namespace_wildcard" => f.import(ImportKind::Import, &path, Some("*"), None, line),
                    _ => f.import(ImportKind::Import, &path, Some(text(s, src)), None, line),
                }
            }
        }
        (None, true) => f.import(ImportKind::Import, &path, Some("*"), None, line),
        (None, false) => f.import(ImportKind::Import, &path, None, None, line),
    }
}
