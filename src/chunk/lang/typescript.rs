//! TypeScript without JSX: its own definition query; graph facts and import resolution
//! are JavaScript's.

use super::prelude::*;

/// What cocosearch knows about TypeScript.
pub(crate) const SPEC: Spec = Spec {
    name: "typescript",
    generic_files: &["index.ts"],
    aliases: &["ts"],
    extensions: &["ts", "mts", "cts"],
    interpreters: &["ts-node", "tsx"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DEFINITIONS),
    graph: GraphRules::Walk { kinds: super::javascript::GRAPH_KINDS, visit: super::javascript::visit },
    resolve: Some(super::javascript::resolve),
    names: NameRules { functions_are_values: true, family: family::JAVASCRIPT, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

/// The definitions of TypeScript and TSX.
pub(super) const DEFINITIONS: DefinitionQuery = DefinitionQuery {
    source: QUERY,
    wrappers: &[wrap("export_statement", true, false), wrap("ambient_declaration", true, true)],
    opaque: super::javascript::OPAQUE,
    root_only: false,
    name: Some(super::python::constants_in_caps),
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
}

const QUERY: &str = r#"
(class_declaration name: (type_identifier) @name body: (class_body) @body) @class
(abstract_class_declaration name: (type_identifier) @name body: (class_body) @body) @class
(interface_declaration name: (type_identifier) @name body: (_) @body) @interface
(type_alias_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(internal_module name: (_) @name body: (_) @body) @module
(module name: (_) @name body: (_) @body) @module
(function_declaration name: (identifier) @name body: (statement_block) @body) @function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @function
(function_signature name: (identifier) @name) @function
(method_definition name: (_) @name body: (statement_block) @body) @method
(abstract_method_signature name: (_) @name) @method
(method_signature name: (_) @name) @method
(public_field_definition name: (_) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @method
(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @constant))
"#;
