//! Provides the walk that finds the graph facts of programming languages, and the helpers
//! their rules share: one walk over the whole tree that visits only the node kinds a
//! language's rules name (calls, instantiations, types, base lists, decorators, parameter
//! lists, imports) and hands each to the language module's visit.
//!
//! The walk is a tree cursor with a stack of ancestors, so a rule can look at a node's
//! parent without `Node::parent` (which searches down from the root each time), and every
//! node costs one table lookup by kind id: a large file is walked in about the time of a
//! second query pass, well below the cost of parsing it.

use tree_sitter::Node;

use super::{Found, RefKind, qualifier, text};

/// The visit of one node: what a language module's rule records about it.
pub(crate) type Visit = fn(&At<'_, '_>, &mut Found);

/// A node being visited, with what the rules may ask about it.
pub(crate) struct At<'a, 't> {
    /// The node.
    pub(crate) node: Node<'t>,
    /// The field the node fills in its parent.
    pub(crate) field: Option<&'t str>,
    /// Its ancestors, the root first.
    pub(crate) ancestors: &'a [Node<'t>],
    /// The file's text.
    pub(crate) src: &'a str,
}

impl<'t> At<'_, 't> {
    /// The `n`th ancestor (0 is the parent).
    pub(crate) fn up(&self, n: usize) -> Option<Node<'t>> {
        self.ancestors.len().checked_sub(n + 1).and_then(|i| self.ancestors.get(i)).copied()
    }

    /// The kind of the `n`th ancestor, or `""`.
    pub(crate) fn up_kind(&self, n: usize) -> &'t str {
        self.up(n).map_or("", |p| p.kind())
    }

    /// The node's text.
    pub(crate) fn text(&self) -> &str {
        text(self.node, self.src)
    }
}

/// Kinds that are a bare name.
pub(crate) fn is_name(kind: &str) -> bool {
    matches!(
        kind,
        "identifier"
            | "property_identifier"
            | "field_identifier"
            | "type_identifier"
            | "name"
            | "constant"
            | "simple_identifier"
            | "word"
            | "namespace_identifier"
            | "package_identifier"
    )
}

/// A member access split into (receiver, member name): `a.b`, `a::b`, `a->b`, `$a->b`.
pub(crate) fn member<'t>(node: Node<'t>) -> Option<(Option<Node<'t>>, Node<'t>)> {
    let field = |names: &[&str]| names.iter().find_map(|n| node.child_by_field_name(n));
    match node.kind() {
        "navigation_expression" | "user_type" => {
            let count = node.named_child_count();
            let last = node.named_child(u32::try_from(count.checked_sub(1)?).ok()?)?;
            let first = (count > 1).then(|| node.named_child(0)).flatten();
            // A user type `a.b.C` keeps every part as a child: the receiver is the text
            // before the last part.
            Some((first.filter(|_| node.kind() == "navigation_expression" || count == 2), last))
        }
        "generic_name" => Some((None, node.named_child(0)?)),
        "qualified_name" if node.child_by_field_name("name").is_none() => {
            // PHP: a namespace prefix and a name.
            let count = node.named_child_count();
            let last = node.named_child(u32::try_from(count.checked_sub(1)?).ok()?)?;
            Some(((count > 1).then(|| node.named_child(0)).flatten(), last))
        }
        _ => {
            let name = field(&["attribute", "property", "field", "name", "method"])?;
            let receiver = field(&[
                "object",
                "value",
                "operand",
                "argument",
                "expression",
                "path",
                "scope",
                "table",
                "qualifier",
                "package",
                "module",
                "receiver",
            ]);
            Some((receiver, name))
        }
    }
}

/// Records a reference to what `node` names: a bare name, or a member of a receiver.
/// Wrappers that only add generic arguments are looked through.
pub(crate) fn callee(node: Node<'_>, src: &str, kind: RefKind, f: &mut Found) {
    let mut node = node;
    for _ in 0..4 {
        match node.kind() {
            "generic_function"
            | "generic_type"
            | "template_function"
            | "template_type"
            | "parenthesized_expression" => {
                let inner = node
                    .child_by_field_name("function")
                    .or_else(|| node.child_by_field_name("name"))
                    .or_else(|| node.child_by_field_name("type"))
                    .or_else(|| node.named_child(0));
                match inner {
                    Some(inner) => node = inner,
                    None => return,
                }
            }
            _ => break,
        }
    }
    if is_name(node.kind()) {
        f.reference(kind, text(node, src).trim_start_matches('$'), None, node);
        return;
    }
    if let Some((receiver, name)) = member(node)
        && is_name(name.kind())
    {
        let qualifier = receiver.and_then(|r| qualifier(r, src));
        f.reference(kind, text(name, src).trim_start_matches('$'), qualifier, name);
    }
}

/// Records references for each base in a list and the list itself as the enclosing
/// definition's bases.
pub(crate) fn bases<'t>(list: impl Iterator<Item = Node<'t>>, at: usize, src: &str, f: &mut Found) {
    let mut names = Vec::new();
    for base in list {
        if base.kind().contains("comment") || base.kind() == "access_specifier" || base.kind() == "keyword_argument" {
            continue;
        }
        let written = text(base, src).trim();
        if written.is_empty() {
            continue;
        }
        names.push(written.split_whitespace().collect::<Vec<_>>().join(" "));
        callee(base, src, RefKind::Inherit, f);
    }
    if !names.is_empty() {
        f.bases.push((at, names));
    }
}

pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The names of a parameter list: `self`, `x`, `*args`, `**kw`, `...rest`, `$a`→`a`.
pub(crate) fn params(list: Node<'_>, src: &str, f: &mut Found) {
    let mut names = Vec::new();
    for p in named_children(list) {
        if p.kind().contains("comment") || names.len() >= 64 {
            continue;
        }
        if let Some(name) = param_name(p, src) {
            names.push(name);
        }
    }
    f.params.push((list.start_byte(), names));
}

pub(crate) fn param_name(p: Node<'_>, src: &str) -> Option<String> {
    let kind = p.kind();
    let prefix = match kind {
        "list_splat_pattern" | "splat_parameter" => "*",
        "dictionary_splat_pattern" | "hash_splat_parameter" => "**",
        "rest_pattern" | "variadic_parameter_declaration" | "variadic_parameter" | "spread_parameter" => "...",
        "block_parameter" => "&",
        _ => "",
    };
    if kind == "self_parameter" {
        return Some("self".into());
    }
    let name = if is_name(kind) || kind == "self" {
        Some(p)
    } else {
        p.child_by_field_name("name")
            .or_else(|| p.child_by_field_name("pattern"))
            .or_else(|| p.child_by_field_name("declarator").map(innermost_declarator))
            .or_else(|| p.child_by_field_name("left"))
            .or_else(|| named_children(p).into_iter().find(|c| is_name(c.kind()) || c.kind().ends_with("pattern")))
    }?;
    let name = if name.kind().ends_with("_pattern") && name.kind() != "tuple_pattern" {
        // `*args` and `...rest` patterns hold the name inside.
        named_children(name).into_iter().find(|c| is_name(c.kind())).unwrap_or(name)
    } else {
        name
    };
    let written = text(name, src).trim().trim_start_matches(['$', '&', '*']);
    let written = written.strip_prefix("...").unwrap_or(written);
    if written.is_empty() || written.len() > 60 {
        return None;
    }
    Some(format!("{prefix}{}", written.split_whitespace().collect::<Vec<_>>().join(" ")))
}

/// The name inside a C declarator: `*f`, `f[3]`, `(*f)(int)` → `f`.
pub(crate) fn innermost_declarator(node: Node<'_>) -> Node<'_> {
    let mut node = node;
    for _ in 0..16 {
        match node.child_by_field_name("declarator").or_else(|| {
            matches!(node.kind(), "parenthesized_declarator" | "reference_declarator")
                .then(|| node.named_child(0))
                .flatten()
        }) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// Every node under `root`, depth first, skipping the subtrees `skip` refuses.
pub(crate) fn walk<'t>(root: Node<'t>, skip: impl Fn(Node<'t>) -> bool, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        visit(node);
        if !skip(node) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
