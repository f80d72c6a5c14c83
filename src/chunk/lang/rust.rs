//! Rust: detection, grammar, definitions (`impl` blocks named by their type), graph facts
//! (calls, macros but the standard ones, `use` trees, `mod name;`, supertraits, impls) and
//! import resolution (crate, `self`, `super`, the workspace's crates, `mod` files).

use super::prelude::*;

/// What cocosearch knows about Rust.
pub(crate) const SPEC: Spec = Spec {
    name: "rust",
    generic_files: &["mod.rs", "lib.rs", "main.rs"],
    aliases: &["rs"],
    extensions: &["rs"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(rust_name),
    }),
    separator: "::",
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_rust::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_item name: (identifier) @name body: (block) @body) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name body: (_)? @body) @struct
(union_item name: (type_identifier) @name body: (_)? @body) @struct
(enum_item name: (type_identifier) @name body: (_) @body) @enum
(trait_item name: (type_identifier) @name body: (_) @body) @trait
(impl_item type: (_) @name body: (_)? @body) @impl
(mod_item name: (identifier) @name body: (_)? @body) @module
(type_item name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @constant
(static_item name: (identifier) @name) @constant
(macro_definition name: (identifier) @name (macro_rule)? @body) @function
"#;

const OPAQUE: &[&str] = &[
    "use_declaration",
    "const_item",
    "static_item",
    "array_expression",
    "tuple_expression",
    "struct_expression",
    "attribute_item",
    "inner_attribute_item",
    "token_tree",
    "macro_invocation",
    "call_expression",
    "arguments",
    "binary_expression",
    "field_expression",
    "parameters",
    "let_declaration",
    "type_arguments",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "call_expression",
    "macro_invocation",
    "use_declaration",
    "mod_item",
    "impl_item",
    "trait_item",
    "type_identifier",
    "scoped_type_identifier",
    "function_item",
    "function_signature_item",
];

/// Macros of the standard library: calls to them say nothing about the project.
const RUST_STD_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "matches",
    "concat",
    "stringify",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "cfg",
    "dbg",
    "line",
    "file",
    "column",
    "module_path",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let in_supertraits = at.up_kind(0) == "trait_bounds" && at.up_kind(1) == "trait_item";
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "macro_invocation" => {
            if let Some(m) = node.child_by_field_name("macro") {
                let name = member(m).map_or(m, |(_, n)| if m.kind() == "identifier" { m } else { n });
                if !RUST_STD_MACROS.contains(&text(name, src)) {
                    callee(m, src, RefKind::Call, f);
                }
            }
        }
        "use_declaration" => rust_imports(node, src, f),
        "mod_item" => {
            if node.child_by_field_name("body").is_none()
                && let Some(name) = node.child_by_field_name("name")
            {
                f.import(ImportKind::Mod, text(name, src), None, None, line_of(node));
            }
        }
        "impl_item" => {
            if let Some(t) = node.child_by_field_name("trait") {
                callee(t, src, RefKind::Impl, f);
                f.bases.push((t.start_byte(), vec![text(t, src).to_string()]));
            }
        }
        "trait_item" => {
            if let Some(list) = node.child_by_field_name("bounds") {
                bases(named_children(list).into_iter().filter(|b| b.kind() != "lifetime"), list.start_byte(), src, f);
            }
        }
        "type_identifier" => {
            let declared = at.field == Some("name")
                && matches!(
                    at.up_kind(0),
                    "struct_item" | "enum_item" | "union_item" | "trait_item" | "type_item" | "associated_type"
                );
            let counted = at.field == Some("trait")
                || in_supertraits
                || at.up_kind(0) == "scoped_type_identifier"
                || matches!(at.up_kind(0), "type_parameter" | "type_parameters" | "constrained_type_parameter")
                    && at.field == Some("name")
                || (at.up_kind(0) == "generic_type" && at.up(1).is_some_and(|g| g.kind() == "impl_item") && {
                    at.up(1).and_then(|i| i.child_by_field_name("trait")).map(|t| t.id()) == at.up(0).map(|g| g.id())
                });
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "scoped_type_identifier"
            if at.field != Some("trait") && !in_supertraits && at.up_kind(0) != "scoped_type_identifier" =>
        {
            callee(node, src, RefKind::Type, f);
        }
        "function_item" | "function_signature_item" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// An `impl` block is named by its type, without generic arguments.
fn rust_name(raw: &Raw<'_>, _src: &str, mut named: Named) -> Option<Named> {
    if raw.kind == SymbolKind::Impl {
        named.name = bare_type(&named.name);
    }
    Some(named)
}

/// A Rust `use` tree, flattened: `use crate::a::{B, c::D as E, self}` gives
/// (`crate::a`, `B`), (`crate::a::c`, `D` as `E`) and (`crate`, `a`).
fn rust_imports(node: Node<'_>, src: &str, f: &mut Found) {
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

/// The Cargo package holding `from`: its name and directory (the innermost one).
fn crate_of<'p>(p: &'p dyn ProjectFiles, from: &str) -> Option<&'p (String, String)> {
    p.crates()
        .iter()
        .filter(|(_, dir)| dir.is_empty() || from.starts_with(&format!("{dir}/")))
        .max_by_key(|(_, dir)| dir.len())
}

/// The file of module `path` (segments below the crate root) in the package at `dir`.
pub(super) fn rust_module_file(p: &dyn ProjectFiles, dir: &str, path: &[&str]) -> Option<String> {
    let src = if dir.is_empty() { "src".to_string() } else { format!("{dir}/src") };
    if path.is_empty() {
        return p.first([format!("{src}/lib.rs"), format!("{src}/main.rs")]);
    }
    let joined = path.join("/");
    p.first([format!("{src}/{joined}.rs"), format!("{src}/{joined}/mod.rs")])
}

/// The module path of a file of a crate (`src/a/b.rs` → `[a, b]`), `None` outside `src`.
fn rust_module_path<'p>(from: &'p str, dir: &str) -> Option<Vec<&'p str>> {
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
pub(super) fn is_crate_root(p: &dyn ProjectFiles, from: &str) -> bool {
    let dir = crate_of(p, from).map_or("", |(_, d)| d.as_str());
    let rel = if dir.is_empty() { from } else { from.strip_prefix(&format!("{dir}/")).unwrap_or(from) };
    let in_dir = |d: &str| rel.strip_prefix(d).is_some_and(|rest| !rest.contains('/'));
    matches!(rel, "src/lib.rs" | "src/main.rs" | "build.rs")
        || ["tests/", "benches/", "examples/", "src/bin/"].iter().any(|d| in_dir(d))
}

pub(super) fn rust_mod(p: &dyn ProjectFiles, from: &str, name: &str) -> Resolved {
    let file_name = from.rsplit('/').next().unwrap_or(from);
    let dir = dir_of(from);
    let children = if file_name == "mod.rs" || is_crate_root(p, from) {
        dir.to_string()
    } else {
        let stem = from.strip_suffix(".rs").unwrap_or(from);
        stem.to_string()
    };
    let base = if children.is_empty() { name.to_string() } else { format!("{children}/{name}") };
    match p.first([format!("{base}.rs"), format!("{base}/mod.rs")]) {
        Some(found) => (Some(found), Resolution::Exact),
        None => (None, Resolution::Missing),
    }
}

pub(super) fn rust_use(p: &dyn ProjectFiles, from: &str, spec: &str, name: Option<&str>) -> Resolved {
    let mut segments: Vec<&str> = spec.split("::").map(str::trim).filter(|s| !s.is_empty()).collect();
    if let Some(n) = name.filter(|n| *n != "*" && *n != "self") {
        segments.push(n);
    }
    let Some(first) = segments.first().copied() else { return (None, Resolution::External) };
    if matches!(first, "std" | "core" | "alloc") {
        return (None, Resolution::External);
    }
    let own = crate_of(p, from);
    let own_dir = own.map_or("", |(_, d)| d.as_str());
    let here: Vec<&str> = rust_module_path(from, own_dir).unwrap_or_default();
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
        other => match p.crates().iter().find(|(n, _)| n == other) {
            Some((_, dir)) => (dir.as_str(), Vec::new(), &segments[1..]),
            // A name in scope: a child module of this one, else one of the crate root.
            None => {
                let mut child = here.clone();
                child.push(other);
                if rust_module_file(p, own_dir, &child).is_some() {
                    (own_dir, here.clone(), &segments[..])
                } else if rust_module_file(p, own_dir, &[other]).is_some() {
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
        if let Some(found) = rust_module_file(p, dir, &path) {
            return (Some(found), Resolution::Exact);
        }
    }
    (None, Resolution::Missing)
}

/// Resolves a `use` or a `mod name;` of a Rust file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let (spec, name) = (import.spec.trim(), import.name.as_deref());
    match import.kind {
        ImportKind::Mod => rust_mod(p, from, spec),
        ImportKind::Import => rust_use(p, from, spec, name),
        _ => (None, Resolution::External),
    }
}
