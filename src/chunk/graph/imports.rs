//! Provides what the import rules of the language modules share: one
//! [`super::Import`] is recorded per imported name, so `from . import models, sessions` is
//! two imports (each may be its own module) and `use a::{B, C}` is two.

use tree_sitter::Node;

use super::{Found, ImportKind, line_of, text, unquote};

/// The children of `node` in `field`.
pub(crate) fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor).collect()
}

/// An import of the module a string literal names (`require('./x')`, `import('./x')`,
/// Lua's `require "a.b"`).
pub(crate) fn import_at(spec: Node<'_>, alias: Option<&str>, src: &str, f: &mut Found) {
    let written = unquote(text(spec, src));
    if !written.contains("${") {
        f.import(ImportKind::Import, written, None, alias, line_of(spec));
    }
}
