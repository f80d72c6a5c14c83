//! Swift: detection, grammar and definitions (structs, enums and extensions declared by
//! `class_declaration`); no graph facts yet.

use super::prelude::*;

/// What cocosearch knows about Swift.
pub(crate) const SPEC: Spec = Spec {
    name: "swift",
    extensions: &["swift"],
    interpreters: &["swift"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(swift_name),
    }),
    names: NameRules { bare_members: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_swift::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_declaration name: (_) @name body: (_)? @body) @class
(protocol_declaration name: (_) @name body: (_)? @body) @interface
(function_declaration name: (simple_identifier) @name body: (_)? @body) @function
(protocol_function_declaration name: (simple_identifier) @name) @method
(init_declaration "init" @name body: (_)? @body) @method
(typealias_declaration name: (_) @name) @type
(source_file (property_declaration name: (pattern (simple_identifier) @name)) @variable)
"#;

const OPAQUE: &[&str] = &[
    "import_declaration",
    "line_string_literal",
    "multi_line_string_literal",
    "additive_expression",
    "multiplicative_expression",
    "comparison_expression",
    "equality_expression",
    "conjunction_expression",
    "disjunction_expression",
];

/// Swift's `class_declaration` also declares structs, enums and extensions.
fn swift_name(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    if raw.node.kind() == "class_declaration" {
        let decl = raw.node.child_by_field_name("declaration_kind").map(|n| node_text(n, src));
        named.kind = match decl {
            Some("struct") => SymbolKind::Struct,
            Some("enum") => SymbolKind::Enum,
            Some("extension") => SymbolKind::Impl,
            _ => SymbolKind::Class,
        };
        named.name = bare_type(&named.name);
    }
    Some(named)
}
