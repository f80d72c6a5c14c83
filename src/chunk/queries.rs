//! Provides the compiled definition queries: each language's query (from its module in
//! `lang`), the role of each capture, and the node kinds that drive the definition walk,
//! built once per process.
//!
//! Query conventions are described at [`super::lang::DefinitionQuery`].

use std::sync::OnceLock;

use tree_sitter::Query;

use super::lang::{DefinitionQuery, Symbols};
use super::naming::Scoping;
use super::{Language, SymbolKind};

/// What a query capture stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The definition node, with the kind the capture name gives.
    Def(SymbolKind, Scoping),
    /// The node holding the definition's name.
    Name,
    /// The node where the signature ends (usually the body).
    Body,
    /// A Go method receiver type.
    Receiver,
    /// A capture used only by predicates.
    Ignore,
}

/// The definition query of `lang`, or `None` where symbols are not extracted by query
/// (Dockerfile has its own code; HTML, CSS and the grammar-less languages have no symbols).
pub(crate) fn definitions(lang: Language) -> Option<&'static DefinitionQuery> {
    match &lang.spec().symbols {
        Symbols::Query(query) => Some(query),
        Symbols::None | Symbols::Walk(_) => None,
    }
}

/// The source of the definition query of `lang`, if it has one.
#[cfg(test)]
pub(crate) fn query_source(lang: Language) -> Option<&'static str> {
    definitions(lang).map(|d| d.source)
}

/// Node kinds that never contain a definition the queries capture, in every
/// language; the definition walk does not descend into them.
const COMMON_OPAQUE: &[&str] = &[
    "comment",
    "line_comment",
    "block_comment",
    "string",
    "string_literal",
    "string_content",
    "interpreted_string_literal",
    "raw_string_literal",
    "template_string",
    "heredoc_body",
    "regex",
];

/// A compiled definition query, the role of each of its captures, and the
/// node kinds that drive the definition walk.
pub(crate) struct Compiled {
    pub(crate) query: Query,
    pub(crate) roles: Vec<Role>,
    /// Run the query once from the root instead of walking.
    pub(crate) root_only: bool,
    /// By node kind id: a pattern is rooted at this kind.
    pub(crate) candidate: Vec<bool>,
    /// By node kind id: the walk does not descend into this kind.
    pub(crate) opaque: Vec<bool>,
}

/// One lazily compiled query per language, indexed like [`Language::all`].
static COMPILED: [OnceLock<Option<Compiled>>; Language::COUNT] = [const { OnceLock::new() }; Language::COUNT];

/// The compiled definition query of `lang`, built on first use and shared by
/// all threads afterwards.
pub(crate) fn compiled(lang: Language) -> Option<&'static Compiled> {
    COMPILED.get(lang.index())?.get_or_init(|| compile(lang)).as_ref()
}

/// The root node kind of every pattern: each pattern is one line starting
/// with `(kind`.
fn root_kinds(source: &str) -> Vec<&str> {
    source.lines().filter_map(|line| line.strip_prefix('(')).filter_map(|rest| rest.split([' ', ')']).next()).collect()
}

/// Compiles the query of `lang`.
///
/// # Panics
///
/// Panics if a language module's query does not compile against its grammar. The
/// queries are constants, and `every_query_compiles` in the tests checks each
/// one, so this cannot be triggered by input.
fn compile(lang: Language) -> Option<Compiled> {
    let definitions = definitions(lang)?;
    let source = definitions.source;
    let grammar = lang.grammar()?;
    let query =
        Query::new(&grammar, source).unwrap_or_else(|e| panic!("the {lang} definition query must compile: {e}"));
    let roles = query
        .capture_names()
        .iter()
        .map(|name| match *name {
            "name" => Role::Name,
            "body" => Role::Body,
            "receiver" => Role::Receiver,
            "namespace" => Role::Def(SymbolKind::Module, Scoping::Namespace),
            other if other.starts_with('_') => Role::Ignore,
            other => other.parse().map_or(Role::Ignore, |kind| Role::Def(kind, Scoping::ByKind)),
        })
        .collect();
    let roots = root_kinds(source);
    let opaque_kinds = definitions.opaque;
    let count = grammar.node_kind_count();
    let mut candidate = vec![false; count];
    let mut opaque_ids = vec![false; count];
    // Node kind ids fit in u16 by construction of tree-sitter grammars.
    for id in 0..u16::try_from(count).unwrap_or(u16::MAX) {
        let Some(kind) = grammar.node_kind_for_id(id) else {
            continue;
        };
        let named = grammar.node_kind_is_named(id);
        candidate[usize::from(id)] = named && roots.contains(&kind);
        opaque_ids[usize::from(id)] = named && (COMMON_OPAQUE.contains(&kind) || opaque_kinds.contains(&kind));
    }
    Some(Compiled { query, roles, root_only: definitions.root_only, candidate, opaque: opaque_ids })
}
