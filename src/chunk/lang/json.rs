//! JSON: detection, grammar and top-level keys (YAML's naming rule).

use super::prelude::*;

/// What cocosearch knows about Json.
pub(crate) const SPEC: Spec = Spec {
    name: "json",
    aliases: &["jsonc"],
    extensions: &["json", "jsonc", "geojson", "webmanifest"],
    file_names: &[".babelrc", ".prettierrc"],
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
    tree_sitter_json::LANGUAGE.into()
}

const QUERY: &str = r#"
(document (object (pair key: (_) @name) @variable))
"#;
