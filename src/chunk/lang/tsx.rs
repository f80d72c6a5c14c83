//! TypeScript with JSX: TypeScript's rules with the TSX grammar.

use super::prelude::*;

/// What cocosearch knows about TSX.
pub(crate) const SPEC: Spec = Spec {
    name: "tsx",
    extensions: &["tsx"],
    grammar: Some(grammar),
    symbols: Symbols::Query(super::typescript::DEFINITIONS),
    graph: GraphRules::Walk { kinds: super::javascript::GRAPH_KINDS, visit: super::javascript::visit },
    resolve: Some(super::javascript::resolve),
    names: NameRules { functions_are_values: true, family: family::JAVASCRIPT, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_typescript::LANGUAGE_TSX.into()
}
