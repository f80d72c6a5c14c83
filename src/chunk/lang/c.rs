//! C: detection (and the `.h` rule that hands C++ headers to C++), grammar, definitions
//! named through declarators, graph facts and `#include` resolution; C++ shares the last
//! three.

use super::prelude::*;

/// What cocosearch knows about C.
pub(crate) const SPEC: Spec = Spec {
    parse: ParseHooks {
        prepare: Some(crate::chunk::prepare::c::prepare),
        retry: Some(crate::chunk::prepare::c_family::first_branches_only),
        tolerate: None,
    },
    name: "c",
    extensions: &["c", "h"],
    refine: Some(refine),
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(name_c),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { imports_bring_all_names: true, family: family::C, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_c::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_definition declarator: (_) @name body: (_) @body) @function
(translation_unit (declaration declarator: (_) @name) @function)
(struct_specifier name: (type_identifier) @name body: (_) @body) @struct
(union_specifier name: (type_identifier) @name body: (_) @body) @struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @enum
(type_definition type: (_ body: (_) @body) declarator: (_) @name) @type
(type_definition declarator: (_) @name) @type
(preproc_def name: (identifier) @name) @constant
(preproc_function_def name: (identifier) @name) @function
"#;

pub(super) const OPAQUE: &[&str] = &[
    "preproc_include",
    "call_expression",
    "argument_list",
    "binary_expression",
    "initializer_list",
    "parameter_list",
    "field_expression",
    "subscript_expression",
    "condition_clause",
    "template_argument_list",
    "concatenated_string",
];

/// Node kinds whose visit records something.
pub(super) const GRAPH_KINDS: &[&str] = &[
    "call_expression",
    "new_expression",
    "preproc_include",
    "base_class_clause",
    "type_identifier",
    "qualified_identifier",
    "function_definition",
];

/// Records what one visited node says.
pub(super) fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "new_expression" => {
            if let Some(t) = node.child_by_field_name("type") {
                callee(t, src, RefKind::Call, f);
            }
        }
        "preproc_include" => include_import(node, src, f),
        "base_class_clause" => bases(named_children(node).into_iter(), node.start_byte(), src, f),
        "type_identifier" => {
            let parent = at.up(0);
            let declared = at.field == Some("name") && parent.is_some_and(|p| p.child_by_field_name("body").is_some());
            let alias = at.up_kind(0) == "type_definition" && at.field == Some("declarator");
            let counted = matches!(at.up_kind(0), "base_class_clause" | "qualified_identifier" | "new_expression")
                || (at.up_kind(0) == "template_type" && at.up_kind(1) == "base_class_clause");
            if !declared && !alias && !counted && at.up_kind(0) != "alias_declaration" {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "qualified_identifier" => {
            // `ns::Type` in a type position; qualified calls are recorded by their call.
            let names_type = node.child_by_field_name("name").is_some_and(|n| n.kind() == "type_identifier");
            if names_type && !matches!(at.up_kind(0), "base_class_clause" | "qualified_identifier" | "new_expression") {
                callee(node, src, RefKind::Type, f);
            }
        }
        "function_definition" => {
            let mut d = node.child_by_field_name("declarator");
            for _ in 0..8 {
                match d {
                    Some(n) if n.kind() == "function_declarator" => {
                        if let Some(list) = n.child_by_field_name("parameters") {
                            params(list, src, f);
                        }
                        break;
                    }
                    Some(n) => d = n.child_by_field_name("declarator"),
                    None => break,
                }
            }
        }
        _ => {}
    }
}

/// `#include "x.h"` (spec `x.h`) and `#include <x.h>` (spec `<x.h>`: a system include).
fn include_import(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(path) = node.child_by_field_name("path") else { return };
    let written = text(path, src).trim();
    let spec = if path.kind() == "system_lib_string" { written } else { unquote(written) };
    f.import(ImportKind::Include, spec, None, None, line_of(node));
}

pub(super) fn include(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    if let Some(system) = spec.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        return match p.suffix(system) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::External),
        };
    }
    if let Some(found) = join_path(dir_of(from), spec).filter(|path| p.exists(path)) {
        return (Some(found), Resolution::Exact);
    }
    if let Some(found) = join_path("", spec).filter(|path| p.exists(path)) {
        return (Some(found), Resolution::Exact);
    }
    match p.suffix(spec.trim_start_matches("./")) {
        Some(found) => (Some(found), Resolution::Heuristic),
        None => (None, Resolution::Missing),
    }
}
/// C and C++ names hide inside declarators (`*f(void)`, `A::f() const`); prototypes and
/// variables share the `declaration` node.
pub(super) fn name_c(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    let Some(mut node) = raw.name else {
        return Some(named);
    };
    let mut is_function = false;
    for _ in 0..32 {
        if node.kind() == "function_declarator" {
            is_function = true;
        }
        let next = node.child_by_field_name("declarator").or_else(|| {
            matches!(node.kind(), "parenthesized_declarator" | "reference_declarator" | "attributed_declarator")
                .then(|| node.named_child(0))
                .flatten()
        });
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    if raw.kind.is_callable() && !is_function {
        // A `declaration` without a function declarator is a variable.
        if raw.node.kind() != "declaration" {
            return None;
        }
        named.kind = SymbolKind::Variable;
    }
    named.name = node_text(node, src).trim().to_string();
    Some(named)
}

/// A `.h` header is C unless it (as much of it as the caller passes: indexing passes the
/// whole text) uses C++-only syntax. The check is line-based, cheap on purpose and stops at
/// the first C++ line; a wrong guess only costs parse quality, since both grammars recover
/// from errors.
fn refine(ext: &str, head: &str) -> Language {
    if ext != "h" {
        return Language::C;
    }
    let cpp = head.lines().any(|line| {
        let t = line.trim_start();
        t.starts_with("class ")
            || t.starts_with("namespace ")
            || t.starts_with("template<")
            || t.starts_with("template <")
            || t.starts_with("public:")
            || t.starts_with("private:")
            || t.starts_with("protected:")
            || t.contains("std::")
    });
    if cpp { Language::Cpp } else { Language::C }
}

/// Resolves an `#include` of a C or C++ file.
pub(super) fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    match import.kind {
        ImportKind::Include => include(p, from, import.spec.trim()),
        _ => (None, Resolution::External),
    }
}
