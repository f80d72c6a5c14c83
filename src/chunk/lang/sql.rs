//! SQL: detection, grammar and definitions (tables, views, functions, types, schemas).

use super::prelude::*;

/// What cocosearch knows about Sql.
pub(crate) const SPEC: Spec = Spec {
    name: "sql",
    aliases: &["postgres", "postgresql", "psql"],
    extensions: &["sql", "psql", "pgsql"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[wrap("statement", true, true)],
        opaque: OPAQUE,
        root_only: false,
        name: None,
    }),
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_sequel::LANGUAGE.into()
}

const QUERY: &str = r#"
(create_table (object_reference) @name (column_definitions)? @body) @table
(create_view (object_reference) @name (create_query)? @body) @view
(create_materialized_view (object_reference) @name (create_query)? @body) @view
(create_function (keyword_function) . (object_reference) @name (function_body)? @body) @function
(create_type (object_reference) @name) @type
(create_schema (identifier) @name) @module
"#;

const OPAQUE: &[&str] = &[
    "select",
    "from",
    "where",
    "insert",
    "update",
    "delete",
    "column_definitions",
    "create_query",
    "function_body",
    "list",
    "subquery",
    "binary_expression",
    "invocation",
];
