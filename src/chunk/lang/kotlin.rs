//! Kotlin: detection, grammar, definitions (classes, interfaces and enums told apart by
//! keyword), graph facts and import resolution (Java's rule).

use super::prelude::*;

/// What cocosearch knows about Kotlin.
pub(crate) const SPEC: Spec = Spec {
    parse: ParseHooks { prepare: Some(crate::chunk::prepare::kotlin::prepare), retry: None, tolerate: None },
    name: "kotlin",
    aliases: &["kt", "kts"],
    extensions: &["kt", "kts"],
    interpreters: &["kotlin", "kscript"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(kotlin_name),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { bare_members: true, package_per_directory: true, family: family::JVM, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_kotlin_ng::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_declaration name: (_) @name [(class_body) (enum_class_body)]? @body) @class
(object_declaration name: (_) @name (class_body)? @body) @class
(companion_object (class_body)? @body) @class
(function_declaration name: (_) @name (function_body)? @body) @function
(source_file (property_declaration (variable_declaration (identifier) @name)) @variable)
(type_alias type: (_) @name) @type
"#;

const OPAQUE: &[&str] = &[
    "import",
    "package_header",
    "additive_expression",
    "multiplicative_expression",
    "comparison_expression",
    "equality_expression",
    "conjunction_expression",
    "disjunction_expression",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] =
    &["call_expression", "import", "delegation_specifiers", "user_type", "annotation", "function_declaration"];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let in_annotation = (0..3).any(|n| at.up_kind(n) == "annotation");
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.named_child(0) {
                callee(function, src, RefKind::Call, f);
            }
        }
        "import" => kotlin_imports(node, src, f),
        "delegation_specifiers" => {
            let list: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter_map(|d| d.named_child(0))
                .map(|t| if t.kind() == "constructor_invocation" { t.named_child(0).unwrap_or(t) } else { t })
                .collect();
            bases(list.into_iter(), node.start_byte(), src, f);
        }
        "user_type" => {
            let counted = matches!(at.up_kind(0), "delegation_specifier" | "constructor_invocation") || in_annotation;
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "annotation" => {
            let target = named_children(node).into_iter().find_map(|c| match c.kind() {
                "user_type" => Some(c),
                "constructor_invocation" => c.named_child(0),
                _ => None,
            });
            if let Some(t) = target {
                callee(t, src, RefKind::Decorator, f);
            }
        }
        "function_declaration" => {
            if let Some(list) = named_children(node).into_iter().find(|c| c.kind() == "function_value_parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// Kotlin uses `class_declaration` for classes, interfaces and enums; the
/// keyword tells them apart.
fn kotlin_class_kind(node: Node<'_>) -> SymbolKind {
    let mut cursor = node.walk();
    let mut kind = SymbolKind::Class;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "interface" => kind = SymbolKind::Interface,
            "enum_class_body" => kind = SymbolKind::Enum,
            _ => {}
        }
    }
    kind
}

/// Companion objects without a name, and the kinds `class_declaration` and
/// `property_declaration` stand for.
fn kotlin_name(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    match raw.node.kind() {
        "companion_object" if named.name.is_empty() => named.name = "Companion".into(),
        "class_declaration" => named.kind = kotlin_class_kind(raw.node),
        "property_declaration" if node_text(raw.node, src).starts_with("const ") => {
            named.kind = SymbolKind::Constant;
        }
        _ => {}
    }
    Some(named)
}

/// `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
fn kotlin_imports(node: Node<'_>, src: &str, f: &mut Found) {
    let children = named_children(node);
    let Some(path) = children.iter().find(|c| c.kind() == "qualified_identifier") else { return };
    let alias = children.iter().find(|c| c.kind() == "identifier").map(|a| text(*a, src));
    let wildcard = text(node, src).trim_end().ends_with('*');
    f.import(ImportKind::Import, text(*path, src), wildcard.then_some("*"), alias, line_of(node));
}

/// Resolves an import of a Kotlin file.
fn resolve(p: &dyn ProjectFiles, _from: &str, import: &Import) -> Resolved {
    let (spec, name) = (import.spec.trim(), import.name.as_deref());
    match import.kind {
        ImportKind::Import => super::java::jvm(p, spec, name, &["kt", "kts", "java"]),
        _ => (None, Resolution::External),
    }
}
