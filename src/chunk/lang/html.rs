//! HTML: detection and grammar (parse status); no symbols or graph facts.

use super::prelude::*;

/// What cocosearch knows about Html.
pub(crate) const SPEC: Spec = Spec {
    name: "html",
    aliases: &["htm", "xhtml"],
    extensions: &["html", "htm", "xhtml"],
    grammar: Some(grammar),
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_html::LANGUAGE.into()
}
