//! Runs a language's graph rules over a parsed file (`chunk::lang` holds the rules, `graph`
//! the records and the helpers the rules share): one walk that hands the nodes a language
//! names to its visit, or the language's whole-tree rule, then the callers, parameters and
//! bases attached to the file's definitions. It sits above both, so the language modules and
//! the records they fill never import each other in a circle.

use std::ops::Range;
use std::sync::OnceLock;

use tree_sitter::Node;

use super::graph::code::Visit;
use super::graph::{At, FileGraph, Found, Reference};
use super::lang::GraphRules;
use super::symbols::Def;
use super::{Language, SymbolKind};

/// Extracts the graph facts of a parsed file and attaches them to its definitions: the
/// returned graph's references carry their callers, and each definition's symbol gets its
/// parameters and bases.
pub(crate) fn extract(lang: Language, root: Node<'_>, src: &str, defs: &mut [Def]) -> FileGraph {
    let mut found = Found::default();
    match &lang.spec().graph {
        GraphRules::Walk { kinds, visit } => walk_rules(lang, kinds, *visit, root, src, &mut found),
        GraphRules::Whole(rules) => rules(root, src, &mut found),
        GraphRules::None => {}
    }
    // Rules record references in the order they visit nodes; the file's order is by place.
    let mut order: Vec<usize> = (0..found.ref_at.len()).collect();
    order.sort_by_key(|&i| found.ref_at[i]);
    let mut refs: Vec<Option<Reference>> = std::mem::take(&mut found.graph.refs).into_iter().map(Some).collect();
    found.graph.refs = order.iter().filter_map(|&i| refs[i].take()).collect();
    found.ref_at = order.iter().map(|&i| found.ref_at[i]).collect();
    attach(&mut found, defs);
    found.graph
}

/// Fills in each reference's caller (the innermost definition around it, Dockerfile
/// instructions aside: the stage is the caller) and gives each definition the first
/// parameter and base lists that lie directly inside it.
fn attach(found: &mut Found, defs: &mut [Def]) {
    let callers = innermost(defs, &found.ref_at);
    for (reference, def) in found.graph.refs.iter_mut().zip(callers) {
        if reference.caller.is_none() {
            reference.caller = def.map(|d| defs[d].symbol.qualified_name.clone());
        }
    }
    let positions: Vec<usize> = found.params.iter().map(|(at, _)| *at).collect();
    let owners = innermost(defs, &positions);
    for ((_, params), owner) in found.params.drain(..).zip(owners) {
        if let Some(d) = owner
            && defs[d].symbol.kind.is_callable()
            && defs[d].symbol.params.is_empty()
        {
            defs[d].symbol.params = params;
        }
    }
    let positions: Vec<usize> = found.bases.iter().map(|(at, _)| *at).collect();
    let owners = innermost(defs, &positions);
    for ((_, bases), owner) in found.bases.drain(..).zip(owners) {
        if let Some(d) = owner
            && defs[d].symbol.bases.is_empty()
        {
            defs[d].symbol.bases = bases;
        }
    }
}

/// For each position, the index of the innermost definition holding it (Dockerfile
/// instructions aside), in one sweep over both sorted lists.
fn innermost(defs: &[Def], positions: &[usize]) -> Vec<Option<usize>> {
    // Definitions by start, outer ones first, so the innermost one holding a position is the
    // last one on the stack that still holds it.
    let mut order: Vec<usize> = (0..defs.len()).filter(|&i| defs[i].symbol.kind != SymbolKind::Instruction).collect();
    order.sort_by_key(|&i| (defs[i].outer.start, std::cmp::Reverse(defs[i].outer.end)));
    let mut by_position: Vec<usize> = (0..positions.len()).collect();
    by_position.sort_by_key(|&p| positions[p]);
    let mut out = vec![None; positions.len()];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0;
    for p in by_position {
        let at = positions[p];
        while let Some(&d) = order.get(next)
            && defs[d].outer.start <= at
        {
            while stack.last().is_some_and(|&top| defs[top].outer.end <= defs[d].outer.start) {
                stack.pop();
            }
            stack.push(d);
            next += 1;
        }
        while stack.last().is_some_and(|&top| !contains(&defs[top].outer, at)) {
            stack.pop();
        }
        out[p] = stack.last().copied();
    }
    out
}

fn contains(range: &Range<usize>, at: usize) -> bool {
    range.start <= at && at < range.end
}

/// Records the graph facts of a file in `lang`, visiting the nodes of `kinds`.
fn walk_rules(
    lang: Language,
    kinds: &'static [&'static str],
    visit: Visit,
    root: Node<'_>,
    src: &str,
    found: &mut Found,
) {
    let Some(table) = visited(lang, kinds) else { return };
    let mut cursor = root.walk();
    let mut ancestors: Vec<Node<'_>> = Vec::new();
    loop {
        let node = cursor.node();
        if table.get(usize::from(node.kind_id())).copied().unwrap_or(false) {
            let at = At { node, field: cursor.field_name(), ancestors: &ancestors, src };
            visit(&at, found);
        }
        if cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
            ancestors.pop();
        }
    }
}

/// By node kind id: whether the walk of `lang` visits that kind. Built once per language.
fn visited(lang: Language, kinds: &'static [&'static str]) -> Option<&'static [bool]> {
    static TABLES: [OnceLock<Option<Vec<bool>>>; Language::COUNT] = [const { OnceLock::new() }; Language::COUNT];
    TABLES
        .get(lang.index())?
        .get_or_init(|| {
            let names = kinds;
            let grammar = lang.grammar()?;
            let count = grammar.node_kind_count();
            let mut table = vec![false; count];
            // A kind name can have several ids (aliases); every one of them is visited.
            for id in 0..u16::try_from(count).unwrap_or(u16::MAX) {
                if let Some(kind) = grammar.node_kind_for_id(id) {
                    table[usize::from(id)] = grammar.node_kind_is_named(id) && names.contains(&kind);
                }
            }
            Some(table)
        })
        .as_deref()
}
