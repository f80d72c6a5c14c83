//! Go: detection, grammar, definitions (methods scoped by their receiver), graph facts
//! and import resolution (the module path of `go.mod`; packages are directories).

use super::prelude::*;

/// What cocosearch knows about Go.
pub(crate) const SPEC: Spec = Spec {
    name: "go",
    generic_files: &["main.go"],
    aliases: &["golang"],
    extensions: &["go"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[
            wrap("type_declaration", true, true),
            wrap("const_declaration", true, true),
            wrap("var_declaration", true, true),
        ],
        opaque: OPAQUE,
        root_only: false,
        name: Some(go_name),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, package_per_directory: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_go::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_declaration name: (identifier) @name body: (block)? @body) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @receiver)) name: (field_identifier) @name body: (block)? @body) @method
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @struct
(type_spec name: (type_identifier) @name type: (interface_type) @body) @interface
(type_spec name: (type_identifier) @name) @type
(type_alias name: (type_identifier) @name) @type
(source_file (const_declaration (const_spec name: (identifier) @name) @constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @variable))
"#;

const OPAQUE: &[&str] = &[
    "import_declaration",
    "package_clause",
    "call_expression",
    "argument_list",
    "binary_expression",
    "selector_expression",
    "composite_literal",
    "expression_list",
    "parameter_list",
    "index_expression",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "call_expression",
    "type_identifier",
    "qualified_type",
    "field_declaration_list",
    "function_declaration",
    "method_declaration",
    "import_spec",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let embedded = |n: Node<'_>| n.kind() == "field_declaration" && n.child_by_field_name("name").is_none();
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "type_identifier" => {
            let declared = at.field == Some("name") && matches!(at.up_kind(0), "type_spec" | "type_alias");
            let counted = at.up_kind(0) == "qualified_type"
                || at.up(0).is_some_and(embedded)
                || (at.up_kind(0) == "pointer_type" && at.up(1).is_some_and(embedded));
            if !declared && !counted && at.up_kind(0) != "type_parameter_declaration" {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "qualified_type" => {
            let counted =
                at.up(0).is_some_and(embedded) || (at.up_kind(0) == "pointer_type" && at.up(1).is_some_and(embedded));
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "field_declaration_list" => {
            // Embedded fields are the Go way of extending a type.
            let embeds: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter(|c| embedded(*c))
                .filter_map(|c| c.child_by_field_name("type"))
                .map(|t| if t.kind() == "pointer_type" { t.named_child(0).unwrap_or(t) } else { t })
                .collect();
            if !embeds.is_empty() {
                bases(embeds.into_iter(), node.start_byte(), src, f);
            }
        }
        "function_declaration" | "method_declaration" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                let mut names = Vec::new();
                for p in named_children(list) {
                    let mut cursor = p.walk();
                    let mut any = false;
                    for name in p.children_by_field_name("name", &mut cursor) {
                        any = true;
                        let prefix = if p.kind() == "variadic_parameter_declaration" { "..." } else { "" };
                        names.push(format!("{prefix}{}", text(name, src)));
                    }
                    if !any && let Some(t) = p.child_by_field_name("type") {
                        names.push(text(t, src).to_string());
                    }
                }
                f.params.push((list.start_byte(), names));
            }
        }
        "import_spec" => go_import(node, src, f),
        _ => {}
    }
}

/// A method is scoped by its receiver's type (`Store.Get`).
fn go_name(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    if raw.kind == SymbolKind::Method {
        let receiver = bare_type(raw.receiver.map(|n| node_text(n, src)).unwrap_or(""));
        if !receiver.is_empty() {
            named.scope = Some((receiver, "."));
        }
    }
    Some(named)
}

/// One spec of a Go `import (...)`: the package path and its local name.
fn go_import(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(path) = node.child_by_field_name("path") else { return };
    let alias = node.child_by_field_name("name").map(|n| text(n, src));
    f.import(ImportKind::Import, unquote(text(path, src)), None, alias, line_of(node));
}

/// Resolves an import of a Go file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => go(p, from, spec),
        _ => (None, Resolution::External),
    }
}

pub(super) fn go(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    if spec.starts_with("./") || spec.starts_with("../") {
        return match join_path(dir_of(from), spec) {
            Some(d) if p.holds_extension(&d, "go") => (Some(format!("{d}/")), Resolution::Exact),
            _ => (None, Resolution::Missing),
        };
    }
    for (module, dir) in p.go_modules() {
        let rest = if spec == module {
            Some("")
        } else {
            spec.strip_prefix(module.as_str()).and_then(|r| r.strip_prefix('/'))
        };
        if let Some(rest) = rest {
            let d = join_path(dir, rest).unwrap_or_default();
            return if p.holds_extension(&d, "go") && !d.is_empty() {
                (Some(format!("{d}/")), Resolution::Exact)
            } else {
                (None, Resolution::Missing)
            };
        }
    }
    // Without a module that names it: a directory whose path ends with the import's
    // (vendored code, a repository without go.mod).
    if spec.split('/').next().is_some_and(|first| first.contains('.')) || p.go_modules().is_empty() {
        let mut parts: Vec<&str> = spec.split('/').collect();
        while parts.len() > 1 {
            let rel = parts.join("/");
            if let Some(d) = p.dir_suffix(&rel).filter(|d| p.holds_extension(d, "go")) {
                return (Some(format!("{d}/")), Resolution::Heuristic);
            }
            parts.remove(0);
        }
    }
    (None, Resolution::External)
}
