//! PHP: detection, grammar, definitions, graph facts (calls, `use`, includes, traits,
//! attributes) and import resolution (PSR-4 of `composer.json`, includes).

use super::prelude::*;

/// What cocosearch knows about Php.
pub(crate) const SPEC: Spec = Spec {
    name: "php",
    extensions: &["php", "phtml"],
    interpreters: &["php"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: None,
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { imports_bring_all_names: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_php::LANGUAGE_PHP.into()
}

const QUERY: &str = r#"
(class_declaration name: (name) @name body: (_) @body) @class
(interface_declaration name: (name) @name body: (_) @body) @interface
(trait_declaration name: (name) @name body: (_) @body) @trait
(enum_declaration name: (name) @name body: (_) @body) @enum
(method_declaration name: (name) @name body: (_)? @body) @method
(function_definition name: (name) @name body: (_) @body) @function
(const_declaration (const_element (name) @name)) @constant
(namespace_definition name: (_) @name body: (_)? @body) @namespace
"#;

const OPAQUE: &[&str] = &[
    "namespace_use_declaration",
    "function_call_expression",
    "arguments",
    "binary_expression",
    "formal_parameters",
    "attribute_list",
    "encapsed_string",
    "text",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "function_call_expression",
    "member_call_expression",
    "nullsafe_member_call_expression",
    "scoped_call_expression",
    "object_creation_expression",
    "namespace_use_declaration",
    "include_expression",
    "include_once_expression",
    "require_expression",
    "require_once_expression",
    "class_declaration",
    "interface_declaration",
    "use_declaration",
    "named_type",
    "attribute",
    "method_declaration",
    "function_definition",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "function_call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "member_call_expression" | "nullsafe_member_call_expression" | "scoped_call_expression" => {
            if let Some(name) = node.child_by_field_name("name") {
                let receiver = node.child_by_field_name("object").or_else(|| node.child_by_field_name("scope"));
                f.reference(RefKind::Call, text(name, src), receiver.and_then(|r| qualifier(r, src)), name);
            }
        }
        "object_creation_expression" => {
            if let Some(class) =
                named_children(node).into_iter().find(|c| matches!(c.kind(), "name" | "qualified_name"))
            {
                callee(class, src, RefKind::Call, f);
            }
        }
        "namespace_use_declaration" => php_use(node, src, f),
        "include_expression" | "include_once_expression" | "require_expression" | "require_once_expression" => {
            php_include(node, src, f)
        }
        "class_declaration" | "interface_declaration" => {
            let list: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter(|c| matches!(c.kind(), "base_clause" | "class_interface_clause"))
                .flat_map(named_children)
                .collect();
            if let Some(first) = list.first() {
                let at = first.start_byte();
                bases(list.into_iter(), at, src, f);
            }
        }
        "use_declaration" => {
            // A trait used inside a class body.
            for t in named_children(node).into_iter().filter(|c| matches!(c.kind(), "name" | "qualified_name")) {
                callee(t, src, RefKind::Inherit, f);
            }
        }
        "named_type" => {
            if let Some(t) = node.named_child(0) {
                callee(t, src, RefKind::Type, f);
            }
        }
        "attribute" => {
            if let Some(name) = named_children(node).into_iter().find(|c| matches!(c.kind(), "name" | "qualified_name"))
            {
                callee(name, src, RefKind::Decorator, f);
            }
        }
        "method_declaration" | "function_definition" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// `use App\Models\User;`, `use App\Other as O;`, `use App\{A, B};`.
fn php_use(node: Node<'_>, src: &str, f: &mut Found) {
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
fn php_include(node: Node<'_>, src: &str, f: &mut Found) {
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

/// Resolves an import of a Php file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => php(p, from, spec),
        _ => (None, Resolution::External),
    }
}

pub(super) fn php(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    if spec.contains('/') || spec.ends_with(".php") || spec.ends_with(".inc") {
        if let Some(found) = join_path(dir_of(from), spec).filter(|path| p.exists(path)) {
            return (Some(found), Resolution::Exact);
        }
        return match join_path("", spec).filter(|path| p.exists(path)) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::Missing),
        };
    }
    let class = spec.trim_start_matches('\\');
    for (prefix, dir) in p.psr4() {
        if let Some(rest) = class.strip_prefix(prefix.as_str()) {
            let rel = format!("{}.php", rest.replace('\\', "/"));
            if let Some(found) = join_path(dir, &rel).filter(|path| p.exists(path)) {
                return (Some(found), Resolution::Exact);
            }
        }
    }
    let parts: Vec<&str> = class.split('\\').collect();
    for start in 0..parts.len().saturating_sub(1) {
        let rel = format!("{}.php", parts[start..].join("/"));
        if let Some(found) = p.suffix(&rel) {
            return (Some(found), Resolution::Heuristic);
        }
    }
    (None, Resolution::External)
}
