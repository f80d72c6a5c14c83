//! The vocabulary that a language's naming and definition rules speak (`chunk::lang`) and the
//! definition walk (`symbols`) reads: a query match ([`Raw`]), what a naming rule decides of it
//! ([`Named`]), a definition before nesting is resolved ([`Pending`]), and the text helpers the
//! rules share. It sits below both, so the language modules and the engines that run their
//! rules never import each other in a circle.

use std::ops::Range;

use tree_sitter::Node;

use super::SymbolKind;

/// Whether a definition qualifies the names of the definitions inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scoping {
    /// As its kind says (types, constants and variables do not; the others do).
    ByKind,
    /// A namespace (`@namespace`): a module that never qualifies what it holds.
    Namespace,
}

/// A definition before nesting is resolved.
pub(crate) struct Pending {
    pub(crate) outer: Range<usize>,
    pub(crate) decl_start: usize,
    pub(crate) kind: SymbolKind,
    pub(crate) name: String,
    pub(crate) signature: String,
    /// A scope written in the definition itself (`A::f` in C++, the receiver
    /// of a Go method, `M.f` in Lua), with its separator.
    pub(crate) scope: Option<(String, &'static str)>,
    /// A fixed qualified name and parent (HCL addresses, Lua paths).
    pub(crate) fixed: Option<(String, Option<String>)>,
    /// Whether names nested inside are qualified by this one.
    pub(crate) qualifies: bool,
}

/// What the naming step decided for one query match; a language's naming rule
/// ([`super::lang::NameFn`]) refines it.
pub(crate) struct Named {
    /// The kind (the capture's, unless the rule knows better).
    pub(crate) kind: SymbolKind,
    /// The bare name (the `@name` capture's text, trimmed, unless the rule knows better).
    pub(crate) name: String,
    /// A scope written in the definition itself, with its separator.
    pub(crate) scope: Option<(String, &'static str)>,
    /// A fixed qualified name and parent.
    pub(crate) fixed: Option<(String, Option<String>)>,
    /// A signature the rule wrote itself.
    pub(crate) signature: Option<String>,
    /// Whether the signature is the first line of the definition.
    pub(crate) first_line_signature: bool,
}

impl Named {
    pub(crate) fn new(kind: SymbolKind, name: impl Into<String>) -> Named {
        Named { kind, name: name.into(), scope: None, fixed: None, signature: None, first_line_signature: false }
    }
}

/// One query match: the definition node and its named captures.
pub(crate) struct Raw<'t> {
    /// The definition node.
    pub(crate) node: Node<'t>,
    /// The definition node's parent, when the walk knows it.
    pub(crate) parent: Option<Node<'t>>,
    /// The kind the capture names.
    pub(crate) kind: SymbolKind,
    /// Whether it qualifies the names inside it.
    pub(crate) scoping: Scoping,
    /// The `@name` capture.
    pub(crate) name: Option<Node<'t>>,
    /// The `@body` capture.
    pub(crate) body: Option<Node<'t>>,
    /// The `@receiver` capture.
    pub(crate) receiver: Option<Node<'t>>,
    /// The query pattern that matched (ties between matches of one node go by it).
    pub(crate) pattern: usize,
}

/// The text of a node, or `""` if its range is not valid in `src`.
pub(crate) fn node_text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// Named children that are not comments.
pub(crate) fn significant_children(node: Node<'_>) -> usize {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| !c.kind().contains("comment")).count()
}

/// Whether `name` looks like a constant (`MAX_SIZE`, `DEFAULT_TIMEOUT`).
pub(crate) fn is_constant_case(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Cuts generic arguments and pointer markers off a type name:
/// `*Store` → `Store`, `Pair[K, V]` → `Pair`, `Lexer<'a>` → `Lexer`.
pub(crate) fn bare_type(text: &str) -> String {
    let t = text.trim().trim_start_matches(['*', '&']).trim_start();
    let t = t.strip_prefix("mut ").unwrap_or(t);
    let end = t.find(['<', '[', '(']).unwrap_or(t.len());
    t[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Strips one pair of matching quotes.
pub(crate) fn unquote(text: &str) -> &str {
    let t = text.trim();
    for q in ['"', '\''] {
        if let Some(inner) = t.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner;
        }
    }
    t
}
