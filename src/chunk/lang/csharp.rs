//! C#: detection, grammar, definitions, graph facts and `using` resolution (a namespace
//! to a directory, by convention only).

use super::prelude::*;

/// What cocosearch knows about CSharp.
pub(crate) const SPEC: Spec = Spec {
    name: "csharp",
    aliases: &["c#", "cs", "c-sharp", "dotnet"],
    extensions: &["cs", "csx"],
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
    names: NameRules { bare_members: true, package_per_directory: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_c_sharp::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_declaration name: (identifier) @name body: (_) @body) @class
(record_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name body: (_) @body) @struct
(interface_declaration name: (identifier) @name body: (_) @body) @interface
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(method_declaration name: (identifier) @name body: (_)? @body) @method
(constructor_declaration name: (identifier) @name body: (_)? @body) @method
(delegate_declaration name: (identifier) @name) @type
(namespace_declaration name: (_) @name body: (_) @body) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace
"#;

const OPAQUE: &[&str] = &[
    "using_directive",
    "initializer_expression",
    "invocation_expression",
    "argument_list",
    "binary_expression",
    "member_access_expression",
    "parameter_list",
    "attribute_list",
    "local_declaration_statement",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "invocation_expression",
    "object_creation_expression",
    "using_directive",
    "base_list",
    "attribute",
    "identifier",
    "generic_name",
    "qualified_name",
    "method_declaration",
    "constructor_declaration",
    "local_function_statement",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "invocation_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "object_creation_expression" => {
            if let Some(t) = node.child_by_field_name("type") {
                callee(t, src, RefKind::Call, f);
            }
        }
        "using_directive" => csharp_imports(node, src, f),
        "base_list" => bases(named_children(node).into_iter(), node.start_byte(), src, f),
        "attribute" => {
            if let Some(name) = node.child_by_field_name("name") {
                callee(name, src, RefKind::Decorator, f);
            }
        }
        "identifier" | "generic_name" | "qualified_name" => {
            let typed = matches!(at.field, Some("type") | Some("returns"))
                && !matches!(at.up_kind(0), "object_creation_expression" | "qualified_name");
            if typed {
                callee(node, src, RefKind::Type, f);
            }
        }
        "method_declaration" | "constructor_declaration" | "local_function_statement" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// `using A.B;`, `using static A.B;`, `using X = A.B;`.
fn csharp_imports(node: Node<'_>, src: &str, f: &mut Found) {
    let alias = node.child_by_field_name("name");
    let target = named_children(node)
        .into_iter()
        .filter(|c| Some(c.id()) != alias.map(|a| a.id()))
        .find(|c| matches!(c.kind(), "qualified_name" | "identifier" | "generic_name"));
    if let Some(target) = target {
        f.import(ImportKind::Import, text(target, src), None, alias.map(|a| text(a, src)), line_of(node));
    }
}

/// Resolves an import of a CSharp file.
fn resolve(p: &dyn ProjectFiles, _from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => csharp(p, spec),
        _ => (None, Resolution::External),
    }
}

/// C#: a namespace is a directory by convention only, the root namespace often being the
/// project's name; the longest tail of the namespace that is a directory is a guess.
pub(super) fn csharp(p: &dyn ProjectFiles, spec: &str) -> Resolved {
    let parts: Vec<&str> = spec.split('.').collect();
    // At least two parts, unless the namespace has one: `Models` alone says little.
    let shortest = parts.len().min(2);
    for start in 0..=parts.len() - shortest {
        let rel = parts[start..].join("/");
        if let Some(dir) = p.dir_suffix(&rel) {
            return (Some(format!("{dir}/")), Resolution::Heuristic);
        }
    }
    (None, Resolution::External)
}
