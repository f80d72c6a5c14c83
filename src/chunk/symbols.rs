//! Provides definition extraction: runs the language's query (or, for
//! Dockerfiles, walks the instructions), names each definition, computes its
//! signature and the range it occupies for chunking, and resolves nesting into
//! qualified names and parents.
//!
//! Qualified names join the names of the enclosing scopes with the language's
//! separator: `Outer.Inner.method` (Python, JS/TS, Java, C#, Kotlin, Scala,
//! Swift, Ruby, PHP, Lua), `Type::method` (Rust, C++), `Store.Get` (Go, from
//! the receiver), `resource.aws_s3_bucket.logs` (HCL), `Title > Section`
//! (Markdown). Namespaces (C#, C++) are symbols but do not qualify the names
//! inside them, so a C# method is `Class.Method` as in the other languages.

use std::cmp::Reverse;
use std::ops::Range;

use tree_sitter::{Node, QueryCursor, StreamingIterator};

use super::lang::Symbols;
use super::naming::{Named, Pending, Raw, Scoping, node_text, significant_children};
use super::queries::{self, Role};
use super::text;
use super::{Language, Symbol, SymbolKind};

/// The longest qualified name kept whole, in bytes. Every
/// definition stores its qualified name and its parent's, so names that grew with the nesting
/// depth made storage grow with its square (10,000 nested `mod`s: 3.9 GB for a 139 KB file). A
/// longer name keeps its innermost scopes behind `…`; no real code comes near either cap.
pub(crate) const MAX_QUALIFIED_LEN: usize = 200;
/// The most parts a qualified name keeps: the name and its three innermost scopes. See
/// [`MAX_QUALIFIED_LEN`].
pub(crate) const MAX_QUALIFIED_PARTS: usize = 4;

/// What stands for the outermost scopes a qualified name lost to the caps.
pub const CUT_MARK: char = '…';

/// A definition, ready to be attached to chunks.
#[derive(Debug, Clone)]
pub(crate) struct Def {
    /// The range the definition occupies when chunking: the node plus its
    /// wrappers (decorators, `export`, `template<>`).
    pub(crate) outer: Range<usize>,
    /// Where the declaration itself starts; the chunk holding this byte lists
    /// the symbol.
    pub(crate) decl_start: usize,
    /// The symbol reported to callers.
    pub(crate) symbol: Symbol,
}

/// Extracts the definitions of a parsed file, sorted by declaration start.
pub(crate) fn extract(lang: Language, root: Node<'_>, src: &str, cursor: &mut QueryCursor) -> Vec<Def> {
    let pending = match &lang.spec().symbols {
        Symbols::Walk(walk) => walk(root, src),
        Symbols::Query(_) => from_query(lang, root, src, cursor),
        Symbols::None => Vec::new(),
    };
    resolve(lang, pending)
}

/// Runs the definition query and names every match.
fn from_query(lang: Language, root: Node<'_>, src: &str, cursor: &mut QueryCursor) -> Vec<Pending> {
    let (Some(compiled), Some(definitions)) = (queries::compiled(lang), queries::definitions(lang)) else {
        return Vec::new();
    };
    let mut raws: Vec<Raw<'_>> = Vec::new();
    if compiled.root_only {
        cursor.set_max_start_depth(None);
        run_query(compiled, cursor, root, src, &mut raws);
    } else {
        // Walk the statement-level structure and run the query only where a
        // pattern can start. Matching the whole tree costs almost as much as
        // parsing it; skipping expressions and strings makes it cheap.
        // The walk keeps its ancestors, so that the parent of a definition
        // (a possible wrapper) is known without `Node::parent`, which
        // searches down from the root each time.
        cursor.set_max_start_depth(Some(0));
        let mut walk = root.walk();
        let mut ancestors: Vec<Node<'_>> = Vec::new();
        'walk: loop {
            let node = walk.node();
            let kind = usize::from(node.kind_id());
            if compiled.candidate.get(kind).copied().unwrap_or(false) {
                let first = raws.len();
                run_query(compiled, cursor, node, src, &mut raws);
                for raw in &mut raws[first..] {
                    if raw.node.id() == node.id() {
                        raw.parent = ancestors.last().copied();
                    }
                }
            }
            if !compiled.opaque.get(kind).copied().unwrap_or(false) && walk.goto_first_child() {
                ancestors.push(node);
                continue;
            }
            while !walk.goto_next_sibling() {
                if !walk.goto_parent() {
                    break 'walk;
                }
                ancestors.pop();
            }
        }
        cursor.set_max_start_depth(None);
    }
    // A node matched by several patterns keeps the earliest pattern, which
    // the queries order from most to least specific.
    raws.sort_by_key(|r| (r.node.start_byte(), r.node.id(), r.pattern));
    raws.dedup_by_key(|r| r.node.id());

    let wrappers = definitions.wrappers;
    let mut out = Vec::with_capacity(raws.len());
    for raw in &raws {
        let name_text = raw.name.map(|n| node_text(n, src).trim()).unwrap_or("");
        let named = Named::new(raw.kind, name_text);
        let named = match definitions.name {
            Some(rule) => rule(raw, src, named),
            None => Some(named),
        };
        let Some(named) = named else {
            continue;
        };
        if named.name.is_empty() {
            continue;
        }
        // Climb wrappers such as decorators and `export` so that they stay in
        // the definition's chunk.
        let mut outer = raw.node;
        let mut sig_start = raw.node.start_byte();
        let mut parent = if wrappers.is_empty() { None } else { raw.parent.or_else(|| raw.node.parent()) };
        while let Some(node) = parent {
            let Some(w) = wrappers.iter().find(|w| w.kind == node.kind()) else {
                break;
            };
            if w.single_only && significant_children(node) != 1 {
                break;
            }
            if w.in_signature {
                sig_start = node.start_byte();
            }
            outer = node;
            parent = node.parent();
        }
        let signature = named.signature.clone().unwrap_or_else(|| {
            let end = match raw.body {
                Some(body) if body.start_byte() > sig_start => body.start_byte(),
                _ if named.first_line_signature || named.kind.is_value() => {
                    let node_end = raw.node.end_byte();
                    src.get(sig_start..node_end).and_then(|t| t.find('\n')).map_or(node_end, |p| sig_start + p)
                }
                _ => raw.node.end_byte(),
            };
            text::signature(src.get(sig_start..end).unwrap_or(""))
        });
        let qualifies = raw.scoping != Scoping::Namespace && !named.kind.is_value() && named.kind != SymbolKind::Type;
        out.push(Pending {
            outer: outer.start_byte()..outer.end_byte(),
            decl_start: raw.node.start_byte(),
            kind: named.kind,
            name: named.name,
            signature,
            scope: named.scope,
            fixed: named.fixed,
            qualifies,
        });
    }
    out
}

/// Runs the definition query at `node` and records its matches.
fn run_query<'t>(
    compiled: &queries::Compiled,
    cursor: &mut QueryCursor,
    node: Node<'t>,
    src: &str,
    raws: &mut Vec<Raw<'t>>,
) {
    let mut matches = cursor.matches(&compiled.query, node, src.as_bytes());
    while let Some(m) = matches.next() {
        let mut raw: Option<Raw<'t>> = None;
        let (mut name, mut body, mut receiver) = (None, None, None);
        for capture in m.captures() {
            match compiled.roles.get(capture.index as usize) {
                Some(Role::Def(kind, scoping)) => {
                    raw = Some(Raw {
                        node: capture.node,
                        parent: None,
                        kind: *kind,
                        scoping: *scoping,
                        name: None,
                        body: None,
                        receiver: None,
                        pattern: m.pattern_index,
                    })
                }
                Some(Role::Name) => name = Some(capture.node),
                Some(Role::Body) => body = Some(capture.node),
                Some(Role::Receiver) => receiver = Some(capture.node),
                Some(Role::Ignore) | None => {}
            }
        }
        if let Some(mut raw) = raw {
            raw.name = name;
            raw.body = body;
            raw.receiver = receiver;
            raws.push(raw);
        }
    }
}

/// Joins a scope prefix and a name with the language's separator, within
/// [`MAX_QUALIFIED_LEN`].
fn join_scope(prefix: Option<&str>, name: &str, sep: &str, depth: usize) -> String {
    match prefix {
        Some(p) if !p.is_empty() => bounded(format!("{p}{sep}{name}"), sep, depth),
        _ => name.to_string(),
    }
}

/// A qualified name within [`MAX_QUALIFIED_LEN`] and [`MAX_QUALIFIED_PARTS`]: past them, the
/// outermost scopes give way to `…` at a separator (`…::m9997::m9998::m9999::f`). A last part longer
/// than the cap is kept whole: the bare name is stored anyway, so that stays linear in the file.
///
/// `depth` is how many definitions the name is nested in. Only past the parts cap are parts
/// counted by separators, so a name that holds the separator itself (the Elixir module
/// `MyApp.Accounts.User`) is never cut at ordinary depths.
fn bounded(qualified: String, sep: &str, depth: usize) -> String {
    if sep.is_empty() {
        return qualified;
    }
    let mut from = qualified.len().saturating_sub(MAX_QUALIFIED_LEN);
    // The separator before the innermost parts, if the name is nested deeper than the cap.
    if depth >= MAX_QUALIFIED_PARTS
        && let Some((at, _)) = qualified.rmatch_indices(sep).nth(MAX_QUALIFIED_PARTS - 1)
    {
        from = from.max(at);
    }
    while !qualified.is_char_boundary(from) {
        from += 1;
    }
    if from == 0 {
        return qualified;
    }
    let cut = match qualified[from..].find(sep) {
        Some(at) => from + at,
        None => match qualified.rfind(sep) {
            Some(at) if at > 0 => at,
            _ => return qualified,
        },
    };
    format!("{CUT_MARK}{}", &qualified[cut..])
}

/// Resolves nesting: qualified names, parents, and methods versus functions.
/// Variables, constants and type aliases inside functions are dropped: they
/// are locals, and generated code can have thousands of them.
fn resolve(lang: Language, mut pending: Vec<Pending>) -> Vec<Def> {
    pending.sort_by_key(|p| (p.outer.start, Reverse(p.outer.end), p.decl_start));
    let sep = lang.separator();
    let modules_hold_methods = lang.spec().modules_hold_methods;
    // Each resolved definition with whether it qualifies nested names.
    let mut out: Vec<(Def, bool)> = Vec::with_capacity(pending.len());
    // How many qualifying definitions each one is nested in.
    let mut depths: Vec<usize> = Vec::with_capacity(pending.len());
    let mut stack: Vec<usize> = Vec::new();
    for p in pending {
        while let Some(&top) = stack.last() {
            let outer = &out[top].0.outer;
            if outer.start <= p.outer.start && p.outer.end <= outer.end {
                break;
            }
            stack.pop();
        }
        let in_function = stack.iter().any(|&i| out[i].0.symbol.kind.is_callable());
        if in_function && (p.kind.is_value() || p.kind == SymbolKind::Type) {
            continue;
        }
        let scope = stack.iter().rev().copied().find(|&i| out[i].1);
        let depth = scope.map_or(0, |i| depths[i] + 1);
        let prefix = scope.map(|i| out[i].0.symbol.qualified_name.clone());
        let mut kind = p.kind;
        if kind.is_callable() {
            // Definitions directly inside a class-like scope are methods.
            let in_class = scope.is_some_and(|i| {
                let outer = out[i].0.symbol.kind;
                outer.is_type() || (modules_hold_methods && outer == SymbolKind::Module)
            });
            let scoped = p.scope.is_some() || p.fixed.as_ref().is_some_and(|f| f.1.is_some());
            kind = if in_class || scoped { SymbolKind::Method } else { SymbolKind::Function };
        }
        let (qualified_name, parent) = match (p.fixed, p.scope) {
            (Some((qualified, parent)), _) => (qualified, parent),
            (None, Some((scope, scope_sep))) => {
                let scope = join_scope(prefix.as_deref(), &scope, sep, depth);
                (join_scope(Some(&scope), &p.name, scope_sep, depth + 1), Some(scope))
            }
            (None, None) => (join_scope(prefix.as_deref(), &p.name, sep, depth), prefix),
        };
        let def = Def {
            outer: p.outer,
            decl_start: p.decl_start,
            symbol: Symbol {
                kind,
                name: p.name,
                qualified_name,
                signature: p.signature,
                parent,
                params: Vec::new(),
                bases: Vec::new(),
                // Filled in by `assemble`, which knows the lines.
                line_start: 0,
                line_end: 0,
            },
        };
        out.push((def, p.qualifies));
        depths.push(depth);
        stack.push(out.len() - 1);
    }
    let mut defs: Vec<Def> = out.into_iter().map(|(d, _)| d).collect();
    defs.sort_by_key(|d| (d.decl_start, Reverse(d.outer.end)));
    defs
}
