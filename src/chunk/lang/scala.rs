//! Scala: detection, grammar, definitions, graph facts and import resolution (Java's rule).

use super::prelude::*;

/// What cocosearch knows about Scala.
pub(crate) const SPEC: Spec = Spec {
    name: "scala",
    aliases: &["sc"],
    extensions: &["scala", "sc", "sbt"],
    interpreters: &["scala"],
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
    names: NameRules { bare_members: true, package_per_directory: true, family: family::JVM, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_scala::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_definition name: (_) @name body: (_)? @body) @class
(object_definition name: (_) @name body: (_)? @body) @class
(trait_definition name: (_) @name body: (_)? @body) @trait
(enum_definition name: (_) @name body: (_)? @body) @enum
(function_definition name: (_) @name body: (_)? @body) @function
(function_declaration name: (_) @name) @function
(type_definition name: (_) @name) @type
(compilation_unit (val_definition pattern: (identifier) @name) @constant)
"#;

const OPAQUE: &[&str] = &["import_declaration", "package_clause", "interpolated_string_expression"];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "call_expression",
    "instance_expression",
    "import_declaration",
    "extends_clause",
    "type_identifier",
    "function_definition",
    "function_declaration",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "instance_expression" => {
            if let Some(t) = node.named_child(0) {
                callee(t, src, RefKind::Call, f);
            }
        }
        "import_declaration" => scala_imports(node, src, f),
        "extends_clause" => {
            let mut cursor = node.walk();
            let list: Vec<Node<'_>> =
                node.children_by_field_name("type", &mut cursor).filter(|n| n.is_named()).collect();
            bases(list.into_iter(), node.start_byte(), src, f);
        }
        "type_identifier" => {
            let declared = at.field == Some("name");
            let counted = at.up_kind(0) == "extends_clause"
                || (at.up_kind(0) == "generic_type" && at.up_kind(1) == "extends_clause")
                || at.up_kind(0) == "instance_expression";
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "function_definition" | "function_declaration" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// `import a.b.C`, `import a.b.{C, D => E}`, `import a.b._`.
fn scala_imports(node: Node<'_>, src: &str, f: &mut Found) {
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

/// Resolves an import of a Scala file.
fn resolve(p: &dyn ProjectFiles, _from: &str, import: &Import) -> Resolved {
    let (spec, name) = (import.spec.trim(), import.name.as_deref());
    match import.kind {
        ImportKind::Import => super::java::jvm(p, spec, name, &["scala", "java"]),
        _ => (None, Resolution::External),
    }
}
