//! TOML: detection, grammar, top-level keys and tables (YAML's naming rule).

use super::prelude::*;

/// What cocosearch knows about Toml.
pub(crate) const SPEC: Spec = Spec {
    name: "toml",
    extensions: &["toml"],
    file_names: &["Cargo.lock", "Pipfile", "poetry.lock", "uv.lock"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: &[],
        root_only: true,
        name: Some(super::yaml::data_key),
    }),
    role: Role::Config,
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_toml_ng::LANGUAGE.into()
}

const QUERY: &str = r#"
(document (pair . (_) @name) @variable)
(document (table . (_) @name) @module)
(document (table_array_element . (_) @name) @module)
"#;
