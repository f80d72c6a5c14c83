//! CSS: detection and grammar (parse status); no symbols or graph facts.

use super::prelude::*;

/// What cocosearch knows about Css.
pub(crate) const SPEC: Spec = Spec { name: "css", extensions: &["css"], grammar: Some(grammar), ..Spec::PLAIN };

fn grammar() -> tree_sitter::Language {
    tree_sitter_css::LANGUAGE.into()
}
