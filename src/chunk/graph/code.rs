//! Provides the references of programming languages: one walk over the whole tree that
//! visits only the node kinds a language's rules name (calls, instantiations, types, base
//! lists, decorators, parameter lists, imports) and records what each one uses.
//!
//! The walk is a tree cursor with a stack of ancestors, so a rule can look at a node's
//! parent without `Node::parent` (which searches down from the root each time), and every
//! node costs one table lookup by kind id: a large file is walked in about the time of a
//! second query pass, well below the cost of parsing it.

use std::sync::OnceLock;

use tree_sitter::Node;

use super::imports;
use super::{Found, RefKind, is_path, qualifier, text, unquote};
use crate::chunk::Language;

/// Records the graph facts of a file in `lang`.
pub(super) fn extract(lang: Language, root: Node<'_>, src: &str, found: &mut Found) {
    let Some(table) = visited(lang) else { return };
    let mut cursor = root.walk();
    let mut ancestors: Vec<Node<'_>> = Vec::new();
    loop {
        let node = cursor.node();
        if table.get(usize::from(node.kind_id())).copied().unwrap_or(false) {
            let at = At { node, field: cursor.field_name(), ancestors: &ancestors, src };
            visit(lang, &at, found);
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

/// A node being visited, with what the rules may ask about it.
pub(super) struct At<'a, 't> {
    pub(super) node: Node<'t>,
    /// The field the node fills in its parent.
    pub(super) field: Option<&'t str>,
    /// Its ancestors, the root first.
    pub(super) ancestors: &'a [Node<'t>],
    pub(super) src: &'a str,
}

impl<'t> At<'_, 't> {
    /// The `n`th ancestor (0 is the parent).
    fn up(&self, n: usize) -> Option<Node<'t>> {
        self.ancestors.len().checked_sub(n + 1).and_then(|i| self.ancestors.get(i)).copied()
    }

    /// The kind of the `n`th ancestor, or `""`.
    fn up_kind(&self, n: usize) -> &'t str {
        self.up(n).map_or("", |p| p.kind())
    }

    fn text(&self) -> &str {
        text(self.node, self.src)
    }
}

/// The node kinds whose visit does something, per language.
fn kinds(lang: Language) -> Option<&'static [&'static str]> {
    Some(match lang {
        Language::Python => &[
            "call",
            "decorator",
            "class_definition",
            "function_definition",
            "lambda",
            "type",
            "import_statement",
            "import_from_statement",
        ],
        Language::JavaScript | Language::TypeScript | Language::Tsx => &[
            "call_expression",
            "new_expression",
            "decorator",
            "class_heritage",
            "extends_type_clause",
            "type_identifier",
            "nested_type_identifier",
            "function_declaration",
            "generator_function_declaration",
            "method_definition",
            "arrow_function",
            "function_expression",
            "function",
            "generator_function",
            "function_signature",
            "method_signature",
            "abstract_method_signature",
            "import_statement",
            "export_statement",
        ],
        Language::Go => &[
            "call_expression",
            "type_identifier",
            "qualified_type",
            "field_declaration_list",
            "function_declaration",
            "method_declaration",
            "import_spec",
        ],
        Language::Rust => &[
            "call_expression",
            "macro_invocation",
            "use_declaration",
            "mod_item",
            "impl_item",
            "trait_item",
            "type_identifier",
            "scoped_type_identifier",
            "function_item",
            "function_signature_item",
        ],
        Language::Java => &[
            "method_invocation",
            "object_creation_expression",
            "import_declaration",
            "class_declaration",
            "interface_declaration",
            "record_declaration",
            "enum_declaration",
            "marker_annotation",
            "annotation",
            "type_identifier",
            "scoped_type_identifier",
            "method_declaration",
            "constructor_declaration",
        ],
        Language::C | Language::Cpp => &[
            "call_expression",
            "new_expression",
            "preproc_include",
            "base_class_clause",
            "type_identifier",
            "qualified_identifier",
            "function_definition",
        ],
        Language::CSharp => &[
            "invocation_expression",
            "object_creation_expression",
            "using_directive",
            "base_list",
            "attribute",
            "identifier",
            "generic_name",
            "qualified_name",
            "method_declaration",
            "constructor_declaration",
            "local_function_statement",
        ],
        Language::Ruby => &["call", "class", "constant", "scope_resolution", "method", "singleton_method"],
        Language::Php => &[
            "function_call_expression",
            "member_call_expression",
            "nullsafe_member_call_expression",
            "scoped_call_expression",
            "object_creation_expression",
            "namespace_use_declaration",
            "include_expression",
            "include_once_expression",
            "require_expression",
            "require_once_expression",
            "class_declaration",
            "interface_declaration",
            "use_declaration",
            "named_type",
            "attribute",
            "method_declaration",
            "function_definition",
        ],
        Language::Kotlin => {
            &["call_expression", "import", "delegation_specifiers", "user_type", "annotation", "function_declaration"]
        }
        Language::Scala => &[
            "call_expression",
            "instance_expression",
            "import_declaration",
            "extends_clause",
            "type_identifier",
            "function_definition",
            "function_declaration",
        ],
        Language::Lua => &["function_call", "function_declaration", "function_definition"],
        Language::Bash => &["command"],
        _ => return None,
    })
}

/// By node kind id: whether the walk of `lang` visits that kind. Built once per language.
fn visited(lang: Language) -> Option<&'static [bool]> {
    static TABLES: [OnceLock<Option<Vec<bool>>>; Language::COUNT] = [const { OnceLock::new() }; Language::COUNT];
    TABLES
        .get(lang.index())?
        .get_or_init(|| {
            let names = kinds(lang)?;
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

fn visit(lang: Language, at: &At<'_, '_>, f: &mut Found) {
    match lang {
        Language::Python => python(at, f),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(at, f),
        Language::Go => go(at, f),
        Language::Rust => rust(at, f),
        Language::Java => java(at, f),
        Language::C | Language::Cpp => c_like(at, f),
        Language::CSharp => csharp(at, f),
        Language::Ruby => ruby(at, f),
        Language::Php => php(at, f),
        Language::Kotlin => kotlin(at, f),
        Language::Scala => scala(at, f),
        Language::Lua => lua(at, f),
        Language::Bash => bash(at, f),
        _ => {}
    }
}

/// Kinds that are a bare name.
fn is_name(kind: &str) -> bool {
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
fn member<'t>(node: Node<'t>) -> Option<(Option<Node<'t>>, Node<'t>)> {
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
fn callee(node: Node<'_>, src: &str, kind: RefKind, f: &mut Found) {
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
fn bases<'t>(list: impl Iterator<Item = Node<'t>>, at: usize, src: &str, f: &mut Found) {
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

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The names of a parameter list: `self`, `x`, `*args`, `**kw`, `...rest`, `$a`→`a`.
fn params(list: Node<'_>, src: &str, f: &mut Found) {
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

fn param_name(p: Node<'_>, src: &str) -> Option<String> {
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
fn innermost_declarator(node: Node<'_>) -> Node<'_> {
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

/// Every name in a type annotation (Python `type` nodes): `Optional[Session]` uses
/// `Optional` and `Session`; string annotations are left alone.
fn type_names(node: Node<'_>, src: &str, f: &mut Found) {
    let mut stack = vec![node];
    let mut budget = 256;
    while let Some(n) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return;
        }
        match n.kind() {
            "identifier" => f.reference(RefKind::Type, text(n, src), None, n),
            "attribute" => callee(n, src, RefKind::Type, f),
            "string" => {}
            _ => stack.extend(named_children(n).into_iter().rev()),
        }
    }
}

fn python(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call" => {
            // A decorator's call is recorded as the decorator.
            if at.up_kind(0) == "decorator" {
                return;
            }
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "decorator" => {
            if let Some(inner) = node.named_child(0) {
                let target = if inner.kind() == "call" { inner.child_by_field_name("function") } else { Some(inner) };
                if let Some(target) = target {
                    callee(target, src, RefKind::Decorator, f);
                }
            }
        }
        "class_definition" => {
            if let Some(list) = node.child_by_field_name("superclasses") {
                bases(named_children(list).into_iter(), list.start_byte(), src, f);
            }
        }
        "function_definition" | "lambda" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        "type" => type_names(node, src, f),
        "import_statement" | "import_from_statement" => imports::python(node, src, f),
        _ => {}
    }
}

fn javascript(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call_expression" => {
            let Some(function) = node.child_by_field_name("function") else { return };
            let first_string = node
                .child_by_field_name("arguments")
                .and_then(|a| named_children(a).into_iter().next())
                .filter(|a| a.kind() == "string" || a.kind() == "template_string");
            match (function.kind(), first_string) {
                // `import('./x')` and `require('./x')` are imports, not calls.
                ("import", Some(spec)) => imports::import_at(spec, None, src, f),
                ("identifier", Some(spec)) if text(function, src) == "require" => {
                    // `const x = require('./x')` binds the module to `x`.
                    let alias = at
                        .up(0)
                        .filter(|p| p.kind() == "variable_declarator")
                        .and_then(|p| p.child_by_field_name("name"))
                        .filter(|n| n.kind() == "identifier");
                    imports::import_at(spec, alias.map(|a| text(a, src)), src, f)
                }
                _ if at.up_kind(0) == "decorator" => {}
                _ => callee(function, src, RefKind::Call, f),
            }
        }
        "new_expression" => {
            if let Some(constructor) = node.child_by_field_name("constructor") {
                callee(constructor, src, RefKind::Call, f);
            }
        }
        "decorator" => {
            if let Some(inner) = node.named_child(0) {
                let target =
                    if inner.kind() == "call_expression" { inner.child_by_field_name("function") } else { Some(inner) };
                if let Some(target) = target {
                    callee(target, src, RefKind::Decorator, f);
                }
            }
        }
        "class_heritage" => {
            // JavaScript puts the base expression right here; TypeScript wraps it in
            // `extends_clause` and lists interfaces in `implements_clause`.
            let mut list = Vec::new();
            for child in named_children(node) {
                match child.kind() {
                    "extends_clause" => list.extend(child.child_by_field_name("value")),
                    "implements_clause" => list.extend(named_children(child)),
                    _ => list.push(child),
                }
            }
            bases(list.into_iter(), node.start_byte(), src, f);
        }
        "extends_type_clause" => bases(named_children(node).into_iter(), node.start_byte(), src, f),
        "type_identifier" => {
            let declared = at.field == Some("name")
                && matches!(
                    at.up_kind(0),
                    "class_declaration"
                        | "abstract_class_declaration"
                        | "interface_declaration"
                        | "type_alias_declaration"
                        | "type_parameter"
                        | "class"
                );
            let in_heritage = |k: &str| matches!(k, "implements_clause" | "extends_type_clause" | "extends_clause");
            let counted = in_heritage(at.up_kind(0))
                || (at.up_kind(0) == "generic_type" && in_heritage(at.up_kind(1)))
                || at.up_kind(0) == "nested_type_identifier";
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "nested_type_identifier" => {
            if !matches!(at.up_kind(0), "implements_clause" | "extends_type_clause" | "nested_type_identifier") {
                callee(node, src, RefKind::Type, f);
            }
        }
        "import_statement" => imports::javascript(node, src, f),
        "export_statement" => imports::javascript_reexport(node, src, f),
        _ => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            } else if let Some(single) = node.child_by_field_name("parameter") {
                f.params.push((single.start_byte(), vec![text(single, src).to_string()]));
            }
        }
    }
}

fn go(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let embedded = |n: Node<'_>| n.kind() == "field_declaration" && n.child_by_field_name("name").is_none();
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "type_identifier" => {
            let declared = at.field == Some("name") && matches!(at.up_kind(0), "type_spec" | "type_alias");
            let counted = at.up_kind(0) == "qualified_type"
                || at.up(0).is_some_and(embedded)
                || (at.up_kind(0) == "pointer_type" && at.up(1).is_some_and(embedded));
            if !declared && !counted && at.up_kind(0) != "type_parameter_declaration" {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "qualified_type" => {
            let counted =
                at.up(0).is_some_and(embedded) || (at.up_kind(0) == "pointer_type" && at.up(1).is_some_and(embedded));
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "field_declaration_list" => {
            // Embedded fields are the Go way of extending a type.
            let embeds: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter(|c| embedded(*c))
                .filter_map(|c| c.child_by_field_name("type"))
                .map(|t| if t.kind() == "pointer_type" { t.named_child(0).unwrap_or(t) } else { t })
                .collect();
            if !embeds.is_empty() {
                bases(embeds.into_iter(), node.start_byte(), src, f);
            }
        }
        "function_declaration" | "method_declaration" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                let mut names = Vec::new();
                for p in named_children(list) {
                    let mut cursor = p.walk();
                    let mut any = false;
                    for name in p.children_by_field_name("name", &mut cursor) {
                        any = true;
                        let prefix = if p.kind() == "variadic_parameter_declaration" { "..." } else { "" };
                        names.push(format!("{prefix}{}", text(name, src)));
                    }
                    if !any && let Some(t) = p.child_by_field_name("type") {
                        names.push(text(t, src).to_string());
                    }
                }
                f.params.push((list.start_byte(), names));
            }
        }
        "import_spec" => imports::go(node, src, f),
        _ => {}
    }
}

/// Macros of the standard library: calls to them say nothing about the project.
const RUST_STD_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "matches",
    "concat",
    "stringify",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "cfg",
    "dbg",
    "line",
    "file",
    "column",
    "module_path",
];

fn rust(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let in_supertraits = at.up_kind(0) == "trait_bounds" && at.up_kind(1) == "trait_item";
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "macro_invocation" => {
            if let Some(m) = node.child_by_field_name("macro") {
                let name = member(m).map_or(m, |(_, n)| if m.kind() == "identifier" { m } else { n });
                if !RUST_STD_MACROS.contains(&text(name, src)) {
                    callee(m, src, RefKind::Call, f);
                }
            }
        }
        "use_declaration" => imports::rust(node, src, f),
        "mod_item" => {
            if node.child_by_field_name("body").is_none()
                && let Some(name) = node.child_by_field_name("name")
            {
                f.import(super::ImportKind::Mod, text(name, src), None, None, super::line_of(node));
            }
        }
        "impl_item" => {
            if let Some(t) = node.child_by_field_name("trait") {
                callee(t, src, RefKind::Impl, f);
                f.bases.push((t.start_byte(), vec![text(t, src).to_string()]));
            }
        }
        "trait_item" => {
            if let Some(list) = node.child_by_field_name("bounds") {
                bases(named_children(list).into_iter().filter(|b| b.kind() != "lifetime"), list.start_byte(), src, f);
            }
        }
        "type_identifier" => {
            let declared = at.field == Some("name")
                && matches!(
                    at.up_kind(0),
                    "struct_item" | "enum_item" | "union_item" | "trait_item" | "type_item" | "associated_type"
                );
            let counted = at.field == Some("trait")
                || in_supertraits
                || at.up_kind(0) == "scoped_type_identifier"
                || matches!(at.up_kind(0), "type_parameter" | "type_parameters" | "constrained_type_parameter")
                    && at.field == Some("name")
                || (at.up_kind(0) == "generic_type" && at.up(1).is_some_and(|g| g.kind() == "impl_item") && {
                    at.up(1).and_then(|i| i.child_by_field_name("trait")).map(|t| t.id()) == at.up(0).map(|g| g.id())
                });
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "scoped_type_identifier"
            if at.field != Some("trait") && !in_supertraits && at.up_kind(0) != "scoped_type_identifier" =>
        {
            callee(node, src, RefKind::Type, f);
        }
        "function_item" | "function_signature_item" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn java(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "method_invocation" => {
            if let Some(name) = node.child_by_field_name("name") {
                let qualifier = node.child_by_field_name("object").and_then(|o| qualifier(o, src));
                f.reference(RefKind::Call, text(name, src), qualifier, name);
            }
        }
        "object_creation_expression" => {
            if let Some(t) = node.child_by_field_name("type") {
                callee(t, src, RefKind::Call, f);
            }
        }
        "import_declaration" => imports::java(node, src, f),
        "class_declaration" | "interface_declaration" | "record_declaration" | "enum_declaration" => {
            let mut list = Vec::new();
            if let Some(s) = node.child_by_field_name("superclass") {
                list.extend(named_children(s));
            }
            let lists = named_children(node)
                .into_iter()
                .filter(|c| matches!(c.kind(), "super_interfaces" | "extends_interfaces"))
                .chain(node.child_by_field_name("interfaces"));
            let mut seen = Vec::new();
            for l in lists {
                if seen.contains(&l.id()) {
                    continue;
                }
                seen.push(l.id());
                for t in named_children(l) {
                    if t.kind() == "type_list" { list.extend(named_children(t)) } else { list.push(t) }
                }
            }
            if let Some(first) = list.first() {
                let at = first.start_byte();
                bases(list.into_iter(), at, src, f);
            }
        }
        "marker_annotation" | "annotation" => {
            if let Some(name) = node.child_by_field_name("name") {
                callee(name, src, RefKind::Decorator, f);
            }
        }
        "type_identifier" | "scoped_type_identifier" => {
            let heritage =
                |k: &str| matches!(k, "superclass" | "type_list" | "super_interfaces" | "extends_interfaces");
            let counted = heritage(at.up_kind(0))
                || (at.up_kind(0) == "generic_type" && heritage(at.up_kind(1)))
                || at.up_kind(0) == "scoped_type_identifier"
                || at.up_kind(0) == "object_creation_expression"
                || (at.up_kind(0) == "generic_type" && at.up_kind(1) == "object_creation_expression")
                || (at.up_kind(0) == "type_parameter");
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "method_declaration" | "constructor_declaration" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn c_like(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "new_expression" => {
            if let Some(t) = node.child_by_field_name("type") {
                callee(t, src, RefKind::Call, f);
            }
        }
        "preproc_include" => imports::c(node, src, f),
        "base_class_clause" => bases(named_children(node).into_iter(), node.start_byte(), src, f),
        "type_identifier" => {
            let parent = at.up(0);
            let declared = at.field == Some("name") && parent.is_some_and(|p| p.child_by_field_name("body").is_some());
            let alias = at.up_kind(0) == "type_definition" && at.field == Some("declarator");
            let counted = matches!(at.up_kind(0), "base_class_clause" | "qualified_identifier" | "new_expression")
                || (at.up_kind(0) == "template_type" && at.up_kind(1) == "base_class_clause");
            if !declared && !alias && !counted && at.up_kind(0) != "alias_declaration" {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "qualified_identifier" => {
            // `ns::Type` in a type position; qualified calls are recorded by their call.
            let names_type = node.child_by_field_name("name").is_some_and(|n| n.kind() == "type_identifier");
            if names_type && !matches!(at.up_kind(0), "base_class_clause" | "qualified_identifier" | "new_expression") {
                callee(node, src, RefKind::Type, f);
            }
        }
        "function_definition" => {
            let mut d = node.child_by_field_name("declarator");
            for _ in 0..8 {
                match d {
                    Some(n) if n.kind() == "function_declarator" => {
                        if let Some(list) = n.child_by_field_name("parameters") {
                            params(list, src, f);
                        }
                        break;
                    }
                    Some(n) => d = n.child_by_field_name("declarator"),
                    None => break,
                }
            }
        }
        _ => {}
    }
}

fn csharp(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "invocation_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "object_creation_expression" => {
            if let Some(t) = node.child_by_field_name("type") {
                callee(t, src, RefKind::Call, f);
            }
        }
        "using_directive" => imports::csharp(node, src, f),
        "base_list" => bases(named_children(node).into_iter(), node.start_byte(), src, f),
        "attribute" => {
            if let Some(name) = node.child_by_field_name("name") {
                callee(name, src, RefKind::Decorator, f);
            }
        }
        "identifier" | "generic_name" | "qualified_name" => {
            let typed = matches!(at.field, Some("type") | Some("returns"))
                && !matches!(at.up_kind(0), "object_creation_expression" | "qualified_name");
            if typed {
                callee(node, src, RefKind::Type, f);
            }
        }
        "method_declaration" | "constructor_declaration" | "local_function_statement" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// Ruby calls that declare rather than call.
const RUBY_DECLARATIONS: &[&str] = &[
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "private",
    "public",
    "protected",
    "module_function",
    "private_constant",
    "private_class_method",
    "public_class_method",
];

fn ruby(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call" => {
            let Some(method) = node.child_by_field_name("method") else { return };
            let name = text(method, src);
            let receiver = node.child_by_field_name("receiver");
            let args: Vec<Node<'_>> = node.child_by_field_name("arguments").map(named_children).unwrap_or_default();
            if receiver.is_none() {
                match name {
                    "require" | "require_relative" | "load" => {
                        if let Some(spec) = args.first().filter(|a| a.kind() == "string") {
                            let written = unquote(text(*spec, src));
                            let spec = if name == "require_relative" && !written.starts_with('.') {
                                format!("./{written}")
                            } else {
                                written.to_string()
                            };
                            f.import(super::ImportKind::Import, &spec, None, None, super::line_of(node));
                        }
                        return;
                    }
                    "include" | "extend" | "prepend" => {
                        for arg in args.iter().filter(|a| matches!(a.kind(), "constant" | "scope_resolution")) {
                            callee(*arg, src, RefKind::Inherit, f);
                        }
                        return;
                    }
                    _ if RUBY_DECLARATIONS.contains(&name) => return,
                    _ => {}
                }
            }
            f.reference(RefKind::Call, name, receiver.and_then(|r| qualifier(r, src)), method);
        }
        "class" => {
            if let Some(s) = node.child_by_field_name("superclass") {
                bases(named_children(s).into_iter(), s.start_byte(), src, f);
            }
        }
        "constant" => {
            let declared = at.field == Some("name") && matches!(at.up_kind(0), "class" | "module");
            let counted = matches!(at.up_kind(0), "superclass" | "scope_resolution")
                || (at.up_kind(0) == "argument_list"
                    && at
                        .up(1)
                        .and_then(|c| c.child_by_field_name("method"))
                        .is_some_and(|m| matches!(text(m, src), "include" | "extend" | "prepend")));
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "scope_resolution" => {
            let counted = matches!(at.up_kind(0), "superclass" | "scope_resolution")
                || (at.field == Some("name") && matches!(at.up_kind(0), "class" | "module"));
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "method" | "singleton_method" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn php(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "function_call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "member_call_expression" | "nullsafe_member_call_expression" | "scoped_call_expression" => {
            if let Some(name) = node.child_by_field_name("name") {
                let receiver = node.child_by_field_name("object").or_else(|| node.child_by_field_name("scope"));
                f.reference(RefKind::Call, text(name, src), receiver.and_then(|r| qualifier(r, src)), name);
            }
        }
        "object_creation_expression" => {
            if let Some(class) =
                named_children(node).into_iter().find(|c| matches!(c.kind(), "name" | "qualified_name"))
            {
                callee(class, src, RefKind::Call, f);
            }
        }
        "namespace_use_declaration" => imports::php_use(node, src, f),
        "include_expression" | "include_once_expression" | "require_expression" | "require_once_expression" => {
            imports::php_include(node, src, f)
        }
        "class_declaration" | "interface_declaration" => {
            let list: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter(|c| matches!(c.kind(), "base_clause" | "class_interface_clause"))
                .flat_map(named_children)
                .collect();
            if let Some(first) = list.first() {
                let at = first.start_byte();
                bases(list.into_iter(), at, src, f);
            }
        }
        "use_declaration" => {
            // A trait used inside a class body.
            for t in named_children(node).into_iter().filter(|c| matches!(c.kind(), "name" | "qualified_name")) {
                callee(t, src, RefKind::Inherit, f);
            }
        }
        "named_type" => {
            if let Some(t) = node.named_child(0) {
                callee(t, src, RefKind::Type, f);
            }
        }
        "attribute" => {
            if let Some(name) = named_children(node).into_iter().find(|c| matches!(c.kind(), "name" | "qualified_name"))
            {
                callee(name, src, RefKind::Decorator, f);
            }
        }
        "method_declaration" | "function_definition" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn kotlin(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let in_annotation = (0..3).any(|n| at.up_kind(n) == "annotation");
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.named_child(0) {
                callee(function, src, RefKind::Call, f);
            }
        }
        "import" => imports::kotlin(node, src, f),
        "delegation_specifiers" => {
            let list: Vec<Node<'_>> = named_children(node)
                .into_iter()
                .filter_map(|d| d.named_child(0))
                .map(|t| if t.kind() == "constructor_invocation" { t.named_child(0).unwrap_or(t) } else { t })
                .collect();
            bases(list.into_iter(), node.start_byte(), src, f);
        }
        "user_type" => {
            let counted = matches!(at.up_kind(0), "delegation_specifier" | "constructor_invocation") || in_annotation;
            if !counted {
                callee(node, src, RefKind::Type, f);
            }
        }
        "annotation" => {
            let target = named_children(node).into_iter().find_map(|c| match c.kind() {
                "user_type" => Some(c),
                "constructor_invocation" => c.named_child(0),
                _ => None,
            });
            if let Some(t) = target {
                callee(t, src, RefKind::Decorator, f);
            }
        }
        "function_declaration" => {
            if let Some(list) = named_children(node).into_iter().find(|c| c.kind() == "function_value_parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn scala(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "instance_expression" => {
            if let Some(t) = node.named_child(0) {
                callee(t, src, RefKind::Call, f);
            }
        }
        "import_declaration" => imports::scala(node, src, f),
        "extends_clause" => {
            let mut cursor = node.walk();
            let list: Vec<Node<'_>> =
                node.children_by_field_name("type", &mut cursor).filter(|n| n.is_named()).collect();
            bases(list.into_iter(), node.start_byte(), src, f);
        }
        "type_identifier" => {
            let declared = at.field == Some("name");
            let counted = at.up_kind(0) == "extends_clause"
                || (at.up_kind(0) == "generic_type" && at.up_kind(1) == "extends_clause")
                || at.up_kind(0) == "instance_expression";
            if !declared && !counted {
                f.reference(RefKind::Type, at.text(), None, node);
            }
        }
        "function_definition" | "function_declaration" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

fn lua(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "function_call" => {
            let Some(name) = node.child_by_field_name("name") else { return };
            let first_string = node
                .child_by_field_name("arguments")
                .and_then(|a| named_children(a).into_iter().next())
                .filter(|a| a.kind() == "string");
            match first_string {
                Some(spec) if text(name, src) == "require" => imports::import_at(spec, None, src, f),
                _ => callee(name, src, RefKind::Call, f),
            }
        }
        _ => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
    }
}

/// Shell builtins and ubiquitous tools: calling them says nothing about the project.
const SHELL_COMMON: &[&str] = &[
    "echo", "printf", "cd", "test", "[", "[[", "exit", "return", "export", "local", "declare", "readonly", "set",
    "unset", "shift", "read", "true", "false", "eval", "exec", "trap", "wait", "cat", "grep", "sed", "awk", "cut",
    "tr", "sort", "uniq", "head", "tail", "ls", "mkdir", "rm", "cp", "mv", "chmod", "chown", "ln", "touch", "find",
    "xargs", "dirname", "basename", "pwd", "sleep", "command", "type", "which", "env", "getopts", "let", "wc",
];

fn bash(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let Some(name) = node.child_by_field_name("name") else { return };
    let command = text(name, src).trim();
    if command == "source" || command == "." {
        if let Some(arg) = node.child_by_field_name("argument") {
            let written = unquote(text(arg, src));
            f.import(super::ImportKind::Source, written, None, None, super::line_of(node));
        }
        return;
    }
    if !SHELL_COMMON.contains(&command) && is_path(command) {
        f.reference(RefKind::Call, command, None, name);
    }
}
