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

use super::queries::{self, CapKind, Role};
use super::text;
use super::{Language, Symbol, SymbolKind};

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

/// A definition before nesting is resolved.
struct Pending {
    outer: Range<usize>,
    decl_start: usize,
    kind: SymbolKind,
    name: String,
    signature: String,
    /// A scope written in the definition itself (`A::f` in C++, the receiver
    /// of a Go method, `M.f` in Lua), with its separator.
    scope: Option<(String, &'static str)>,
    /// A fixed qualified name and parent (HCL addresses, Lua paths).
    fixed: Option<(String, Option<String>)>,
    /// Whether names nested inside are qualified by this one.
    qualifies: bool,
}

/// What the naming step decided for one query match.
struct Named {
    kind: SymbolKind,
    name: String,
    scope: Option<(String, &'static str)>,
    fixed: Option<(String, Option<String>)>,
    signature: Option<String>,
    first_line_signature: bool,
}

impl Named {
    fn new(kind: SymbolKind, name: impl Into<String>) -> Named {
        Named { kind, name: name.into(), scope: None, fixed: None, signature: None, first_line_signature: false }
    }
}

/// One query match: the definition node and its named captures.
struct Raw<'t> {
    node: Node<'t>,
    /// The definition node's parent, when the walk knows it.
    parent: Option<Node<'t>>,
    cap: CapKind,
    name: Option<Node<'t>>,
    body: Option<Node<'t>>,
    receiver: Option<Node<'t>>,
    pattern: usize,
}

/// Extracts the definitions of a parsed file, sorted by declaration start.
pub(crate) fn extract(lang: Language, root: Node<'_>, src: &str, cursor: &mut QueryCursor) -> Vec<Def> {
    let pending =
        if lang == Language::Dockerfile { dockerfile(root, src) } else { from_query(lang, root, src, cursor) };
    resolve(lang, pending)
}

/// The text of a node, or `""` if its range is not valid in `src`.
fn node_text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// Runs the definition query and names every match.
fn from_query(lang: Language, root: Node<'_>, src: &str, cursor: &mut QueryCursor) -> Vec<Pending> {
    let Some(compiled) = queries::compiled(lang) else {
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

    let wrappers = queries::wrappers(lang);
    let mut out = Vec::with_capacity(raws.len());
    for raw in &raws {
        let Some(named) = name_def(lang, raw, src) else {
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
                _ if named.first_line_signature
                    || matches!(named.kind, SymbolKind::Constant | SymbolKind::Variable) =>
                {
                    let node_end = raw.node.end_byte();
                    src.get(sig_start..node_end).and_then(|t| t.find('\n')).map_or(node_end, |p| sig_start + p)
                }
                _ => raw.node.end_byte(),
            };
            text::signature(src.get(sig_start..end).unwrap_or(""))
        });
        let qualifies = raw.cap != CapKind::Namespace
            && !matches!(named.kind, SymbolKind::Type | SymbolKind::Constant | SymbolKind::Variable);
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
                Some(Role::Def(cap)) => {
                    raw = Some(Raw {
                        node: capture.node,
                        parent: None,
                        cap: *cap,
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

/// Named children that are not comments.
fn significant_children(node: Node<'_>) -> usize {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| !c.kind().contains("comment")).count()
}

/// Whether `name` looks like a constant (`MAX_SIZE`, `DEFAULT_TIMEOUT`).
fn is_constant_case(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Cuts generic arguments and pointer markers off a type name:
/// `*Store` → `Store`, `Pair[K, V]` → `Pair`, `Lexer<'a>` → `Lexer`.
fn bare_type(text: &str) -> String {
    let t = text.trim().trim_start_matches(['*', '&']).trim_start();
    let t = t.strip_prefix("mut ").unwrap_or(t);
    let end = t.find(['<', '[', '(']).unwrap_or(t.len());
    t[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Strips one pair of matching quotes.
fn unquote(text: &str) -> &str {
    let t = text.trim();
    for q in ['"', '\''] {
        if let Some(inner) = t.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner;
        }
    }
    t
}

/// Decides the kind and name of one match, or `None` to drop it.
fn name_def(lang: Language, raw: &Raw<'_>, src: &str) -> Option<Named> {
    let name_text = raw.name.map(|n| node_text(n, src).trim()).unwrap_or("");
    let base_kind = match raw.cap {
        CapKind::Function => SymbolKind::Function,
        CapKind::Method => SymbolKind::Method,
        CapKind::Class => SymbolKind::Class,
        CapKind::Struct => SymbolKind::Struct,
        CapKind::Enum => SymbolKind::Enum,
        CapKind::Interface => SymbolKind::Interface,
        CapKind::Trait => SymbolKind::Trait,
        CapKind::Impl => SymbolKind::Impl,
        CapKind::Module | CapKind::Namespace | CapKind::Table => SymbolKind::Module,
        CapKind::Type => SymbolKind::Type,
        CapKind::Constant => SymbolKind::Constant,
        CapKind::Variable | CapKind::Key => SymbolKind::Variable,
        CapKind::Block => SymbolKind::Block,
        CapKind::SqlTable => SymbolKind::Table,
        CapKind::View => SymbolKind::View,
        CapKind::Heading => SymbolKind::Heading,
    };
    let mut named = Named::new(base_kind, name_text);
    match lang {
        Language::Python | Language::JavaScript | Language::TypeScript | Language::Tsx
            if raw.cap == CapKind::Constant && !is_constant_case(name_text) =>
        {
            return None;
        }
        Language::C | Language::Cpp => return name_c_like(lang, raw, src, named),
        Language::Rust if raw.cap == CapKind::Impl => named.name = bare_type(name_text),
        Language::Go if raw.cap == CapKind::Method => {
            let receiver = bare_type(raw.receiver.map(|n| node_text(n, src)).unwrap_or(""));
            if !receiver.is_empty() {
                named.scope = Some((receiver, "."));
            }
        }
        Language::Ruby => {
            if let Some((scope, name)) = name_text.rsplit_once("::") {
                named.scope = Some((scope.to_string(), "."));
                named.name = name.to_string();
            }
        }
        Language::Kotlin => match raw.node.kind() {
            "companion_object" if named.name.is_empty() => named.name = "Companion".into(),
            "class_declaration" => named.kind = kotlin_class_kind(raw.node),
            "property_declaration" if node_text(raw.node, src).starts_with("const ") => {
                named.kind = SymbolKind::Constant;
            }
            _ => {}
        },
        Language::Swift if raw.node.kind() == "class_declaration" => {
            let decl = raw.node.child_by_field_name("declaration_kind").map(|n| node_text(n, src));
            named.kind = match decl {
                Some("struct") => SymbolKind::Struct,
                Some("enum") => SymbolKind::Enum,
                Some("extension") => SymbolKind::Impl,
                _ => SymbolKind::Class,
            };
            named.name = bare_type(name_text);
        }
        Language::Lua => {
            if let Some(pos) = name_text.rfind(['.', ':']) {
                let (scope, name) = (&name_text[..pos], &name_text[pos + 1..]);
                named.name = name.to_string();
                named.kind = SymbolKind::Method;
                named.fixed = Some((name_text.to_string(), Some(scope.to_string())));
            }
        }
        Language::Hcl => return name_hcl(raw, src, named),
        Language::Yaml | Language::Json | Language::Toml => {
            named.name = unquote(name_text).to_string();
            named.first_line_signature = true;
        }
        Language::Markdown => return name_heading(raw, src, named),
        _ => {}
    }
    Some(named)
}

/// Kotlin uses `class_declaration` for classes, interfaces and enums; the
/// keyword tells them apart.
fn kotlin_class_kind(node: Node<'_>) -> SymbolKind {
    let mut cursor = node.walk();
    let mut kind = SymbolKind::Class;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "interface" => kind = SymbolKind::Interface,
            "enum_class_body" => kind = SymbolKind::Enum,
            _ => {}
        }
    }
    kind
}

/// C and C++ names hide inside declarators (`*f(void)`, `A::f() const`);
/// prototypes and variables share the `declaration` node.
fn name_c_like(lang: Language, raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    let Some(mut node) = raw.name else {
        return Some(named);
    };
    let mut is_function = false;
    for _ in 0..32 {
        if node.kind() == "function_declarator" {
            is_function = true;
        }
        let next = node.child_by_field_name("declarator").or_else(|| {
            matches!(node.kind(), "parenthesized_declarator" | "reference_declarator" | "attributed_declarator")
                .then(|| node.named_child(0))
                .flatten()
        });
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    let text = node_text(node, src).trim();
    match raw.cap {
        CapKind::Function | CapKind::Method if !is_function => {
            // A `declaration` without a function declarator is a variable.
            if raw.node.kind() != "declaration" {
                return None;
            }
            named.kind = SymbolKind::Variable;
        }
        _ => {}
    }
    named.name = text.to_string();
    if lang == Language::Cpp
        && let Some((scope, name)) = text.rsplit_once("::")
    {
        named.name = name.to_string();
        let scope = bare_type(scope);
        if !scope.is_empty() {
            named.scope = Some((scope, "::"));
        }
    }
    Some(named)
}

/// HCL blocks are named by type and labels; `locals` attributes by
/// `local.<name>`.
fn name_hcl(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    if raw.cap == CapKind::Variable {
        named.fixed = Some((format!("local.{}", named.name), Some("locals".into())));
        named.first_line_signature = true;
        return Some(named);
    }
    let block_type = named.name.clone();
    let mut labels = Vec::new();
    let mut cursor = raw.node.walk();
    for child in raw.node.named_children(&mut cursor).skip(1) {
        match child.kind() {
            "string_lit" => labels.push(unquote(node_text(child, src)).to_string()),
            "identifier" => labels.push(node_text(child, src).to_string()),
            _ => break,
        }
    }
    named.kind = match block_type.as_str() {
        "resource" => SymbolKind::Resource,
        "data" => SymbolKind::Data,
        "module" => SymbolKind::Module,
        "variable" => SymbolKind::Variable,
        "output" => SymbolKind::Output,
        "provider" => SymbolKind::Provider,
        "locals" => SymbolKind::Locals,
        _ => SymbolKind::Block,
    };
    named.name = if labels.is_empty() { block_type.clone() } else { labels.join(".") };
    let qualified = if labels.is_empty() { block_type } else { format!("{block_type}.{}", named.name) };
    named.fixed = Some((qualified, None));
    Some(named)
}

/// Markdown sections are named by their heading text; the signature is the
/// heading in ATX form (`## Usage`), also for setext headings.
fn name_heading(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    let heading = raw.name?;
    let content = heading.child_by_field_name("heading_content").map(|n| node_text(n, src)).unwrap_or("");
    let mut level = 1;
    let mut cursor = heading.walk();
    for child in heading.children(&mut cursor) {
        let kind = child.kind();
        if let Some(n) = kind
            .strip_prefix("atx_h")
            .and_then(|rest| rest.strip_suffix("_marker"))
            .and_then(|n| n.parse::<usize>().ok())
        {
            level = n;
        } else if kind == "setext_h2_underline" {
            level = 2;
        }
    }
    let name = content.trim().trim_end_matches('#').split_whitespace().collect::<Vec<_>>().join(" ");
    named.signature = Some(text::signature(&format!("{} {name}", "#".repeat(level))));
    named.name = name;
    Some(named)
}

/// Dockerfile stages run from one `FROM` to the next; every other
/// instruction is an `instruction` symbol inside its stage.
fn dockerfile(root: Node<'_>, src: &str) -> Vec<Pending> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let instructions: Vec<Node<'_>> =
        root.named_children(&mut cursor).filter(|n| n.kind().ends_with("_instruction")).collect();
    for (i, node) in instructions.iter().enumerate() {
        let first_line = node_text(*node, src).lines().next().unwrap_or("");
        let signature = text::signature(first_line.trim_end_matches('\\'));
        if node.kind() == "from_instruction" {
            let name = node
                .child_by_field_name("as")
                .or_else(|| {
                    let mut c = node.walk();
                    node.named_children(&mut c).find(|n| n.kind() == "image_alias")
                })
                .or_else(|| {
                    let mut c = node.walk();
                    node.named_children(&mut c).find(|n| n.kind() == "image_spec")
                })
                .map(|n| node_text(n, src).trim().to_string())
                .unwrap_or_default();
            let end = instructions[i + 1..]
                .iter()
                .take_while(|n| n.kind() != "from_instruction")
                .last()
                .map_or(node.end_byte(), |n| n.end_byte());
            out.push(Pending {
                outer: node.start_byte()..end,
                decl_start: node.start_byte(),
                kind: SymbolKind::Stage,
                name,
                signature,
                scope: None,
                fixed: None,
                qualifies: true,
            });
            continue;
        }
        let keyword = first_line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        if keyword.is_empty() {
            continue;
        }
        out.push(Pending {
            outer: node.start_byte()..node.end_byte(),
            decl_start: node.start_byte(),
            kind: SymbolKind::Instruction,
            name: keyword,
            signature,
            scope: None,
            fixed: None,
            qualifies: false,
        });
    }
    out
}

/// Whether definitions directly inside a `kind` are methods.
fn class_like(lang: Language, kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Interface
            | SymbolKind::Trait
            | SymbolKind::Impl
    ) || (lang == Language::Ruby && kind == SymbolKind::Module)
}

/// Joins a scope prefix and a name.
fn join(prefix: Option<&str>, name: &str, sep: &str) -> String {
    match prefix {
        Some(p) if !p.is_empty() => format!("{p}{sep}{name}"),
        _ => name.to_string(),
    }
}

/// Resolves nesting: qualified names, parents, and methods versus functions.
/// Variables, constants and type aliases inside functions are dropped: they
/// are locals, and generated code can have thousands of them.
fn resolve(lang: Language, mut pending: Vec<Pending>) -> Vec<Def> {
    pending.sort_by_key(|p| (p.outer.start, Reverse(p.outer.end), p.decl_start));
    let sep = queries::separator(lang);
    // Each resolved definition with whether it qualifies nested names.
    let mut out: Vec<(Def, bool)> = Vec::with_capacity(pending.len());
    let mut stack: Vec<usize> = Vec::new();
    for p in pending {
        while let Some(&top) = stack.last() {
            let outer = &out[top].0.outer;
            if outer.start <= p.outer.start && p.outer.end <= outer.end {
                break;
            }
            stack.pop();
        }
        let in_function =
            stack.iter().any(|&i| matches!(out[i].0.symbol.kind, SymbolKind::Function | SymbolKind::Method));
        if in_function && matches!(p.kind, SymbolKind::Constant | SymbolKind::Variable | SymbolKind::Type) {
            continue;
        }
        let scope = stack.iter().rev().copied().find(|&i| out[i].1);
        let prefix = scope.map(|i| out[i].0.symbol.qualified_name.clone());
        let mut kind = p.kind;
        if matches!(kind, SymbolKind::Function | SymbolKind::Method) {
            let in_class = scope.is_some_and(|i| class_like(lang, out[i].0.symbol.kind));
            let scoped = p.scope.is_some() || p.fixed.as_ref().is_some_and(|f| f.1.is_some());
            kind = if in_class || scoped { SymbolKind::Method } else { SymbolKind::Function };
        }
        let (qualified_name, parent) = match (p.fixed, p.scope) {
            (Some((qualified, parent)), _) => (qualified, parent),
            (None, Some((scope, scope_sep))) => {
                let scope = join(prefix.as_deref(), &scope, sep);
                (join(Some(&scope), &p.name, scope_sep), Some(scope))
            }
            (None, None) => (join(prefix.as_deref(), &p.name, sep), prefix),
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
        stack.push(out.len() - 1);
    }
    let mut defs: Vec<Def> = out.into_iter().map(|(d, _)| d).collect();
    defs.sort_by_key(|d| (d.decl_start, Reverse(d.outer.end)));
    defs
}
