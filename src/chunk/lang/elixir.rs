//! Elixir: detection, grammar, definitions (`defmodule`, `defprotocol`, `defimpl`, `def`,
//! `defp`, `defmacro`, `defguard`, `defdelegate`, ...), graph facts (`alias`, `import`,
//! `require`, `use`; local and remote calls) and import resolution (a module to its file
//! under `lib/`, by Elixir's naming convention).
//!
//! Everything in Elixir is a call: a definition is a call of `def` and friends whose first
//! argument is the head, so the query names the keyword and the rules below skip the
//! definition keywords and heads when they record calls.

use super::prelude::*;

/// What cocosearch knows about Elixir.
pub(crate) const SPEC: Spec = Spec {
    name: "elixir",
    aliases: &["ex", "exs"],
    extensions: &["ex", "exs"],
    interpreters: &["elixir"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery { opaque: OPAQUE, name: Some(name), ..DefinitionQuery::new(QUERY) }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    test_files: &["*_test.exs"],
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_elixir::LANGUAGE.into()
}

const QUERY: &str = r#"
(call target: (identifier) @_kw (arguments . (alias) @name) (do_block)? @body (#eq? @_kw "defmodule")) @module
(call target: (identifier) @_kw (arguments . (alias) @name) (do_block)? @body (#eq? @_kw "defprotocol")) @interface
(call target: (identifier) @_kw (arguments . (alias) @name) (do_block)? @body (#eq? @_kw "defimpl")) @impl
(call target: (identifier) @_kw (arguments . [(identifier) @name (call target: (identifier) @name) (binary_operator left: (call target: (identifier) @name) operator: "when")]) (do_block)? @body (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp")) @function
"#;

/// Kinds that hold no definition: the walk does not descend into them (a definition's
/// head is in `arguments`, matched by the query on the call itself).
const OPAQUE: &[&str] = &[
    "arguments",
    "binary_operator",
    "unary_operator",
    "list",
    "tuple",
    "map",
    "keywords",
    "sigil",
    "charlist",
    "anonymous_function",
];

/// Calls that define, import or control rather than call project code.
const KEYWORDS: &[&str] = &[
    "def",
    "defp",
    "defmacro",
    "defmacrop",
    "defguard",
    "defguardp",
    "defdelegate",
    "defn",
    "defnp",
    "defmodule",
    "defprotocol",
    "defimpl",
    "defstruct",
    "defexception",
    "defoverridable",
    "alias",
    "import",
    "require",
    "use",
    "case",
    "cond",
    "if",
    "unless",
    "with",
    "for",
    "try",
    "receive",
    "quote",
    "unquote",
    "unquote_splicing",
    "raise",
    "reraise",
    "throw",
    "super",
    "fn",
];

/// Definition keywords whose first argument is a function head.
const FUNCTION_KEYWORDS: &[&str] =
    &["def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp"];

/// The signature of a definition is its head: up to `do`, or its first line for the
/// keyword form (`def count, do: 42`).
fn name(_raw: &Raw<'_>, _src: &str, mut named: Named) -> Option<Named> {
    named.first_line_signature = true;
    Some(named)
}

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["call"];

/// The keyword a call is made with (`def`, `alias`, `foo`), when its target is a bare name.
fn keyword<'s>(call: Node<'_>, src: &'s str) -> Option<&'s str> {
    call.child_by_field_name("target").filter(|t| t.kind() == "identifier").map(|t| text(t, src))
}

/// The arguments node of a call.
fn arguments(call: Node<'_>) -> Option<Node<'_>> {
    named_children(call).into_iter().find(|c| c.kind() == "arguments")
}

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    // A module attribute (`@doc "..."`) is not a call.
    if at.up_kind(0) == "unary_operator" {
        return;
    }
    let keyword = keyword(node, src);
    if let Some(keyword) = keyword {
        match keyword {
            "alias" | "import" | "require" | "use" => {
                imports(node, keyword, src, f);
                return;
            }
            _ if FUNCTION_KEYWORDS.contains(&keyword) => {
                head_params(node, src, f);
                return;
            }
            _ if KEYWORDS.contains(&keyword) => return,
            _ => {}
        }
    }
    if is_head(at) {
        return;
    }
    let Some(target) = node.child_by_field_name("target") else { return };
    match target.kind() {
        "identifier" => f.reference(RefKind::Call, text(target, src), None, target),
        "dot" => {
            let (Some(left), Some(right)) = (target.child_by_field_name("left"), target.child_by_field_name("right"))
            else {
                return;
            };
            if right.kind() == "identifier" {
                f.reference(RefKind::Call, text(right, src), qualifier(left, src), right);
            }
        }
        _ => {}
    }
}

/// Whether the call is the head of a definition (`changeset(user, attrs)` in `def
/// changeset(user, attrs) do`).
fn is_head(at: &At<'_, '_>) -> bool {
    let defined_by =
        |call: Option<Node<'_>>| call.and_then(|c| keyword(c, at.src)).is_some_and(|k| FUNCTION_KEYWORDS.contains(&k));
    (at.up_kind(0) == "arguments" && defined_by(at.up(1)))
        || (at.up_kind(0) == "binary_operator" && at.up_kind(1) == "arguments" && defined_by(at.up(2)))
}

/// The parameters of a definition's head.
fn head_params(def: Node<'_>, src: &str, f: &mut Found) {
    let Some(head) = arguments(def).and_then(|a| a.named_child(0)) else { return };
    let head = if head.kind() == "binary_operator" { head.child_by_field_name("left").unwrap_or(head) } else { head };
    if head.kind() != "call" {
        return;
    }
    let Some(list) = arguments(head) else { return };
    let names: Vec<String> = named_children(list)
        .into_iter()
        .filter(|p| !p.kind().contains("comment"))
        .take(64)
        .map(|p| text(p, src).split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty() && p.len() <= 60)
        .collect();
    f.params.push((list.start_byte(), names));
}

/// `alias A.B`, `alias A.B, as: C`, `alias A.{B, C}`, `import A`, `require A`, `use A`.
fn imports(node: Node<'_>, keyword: &str, src: &str, f: &mut Found) {
    let Some(args) = arguments(node) else { return };
    let line = line_of(node);
    let Some(first) = args.named_child(0) else { return };
    let alias = (keyword == "alias")
        .then(|| {
            named_children(args)
                .into_iter()
                .filter(|c| c.kind() == "keywords")
                .flat_map(named_children)
                .find(|pair| pair.child_by_field_name("key").is_some_and(|k| text(k, src).trim().starts_with("as")))
                .and_then(|pair| pair.child_by_field_name("value"))
                .map(|v| text(v, src))
        })
        .flatten();
    match first.kind() {
        "alias" => f.import(ImportKind::Import, text(first, src), None, alias, line),
        // `alias A.{B, C}`: one import per module.
        "dot" => {
            let (Some(left), Some(right)) = (first.child_by_field_name("left"), first.child_by_field_name("right"))
            else {
                return;
            };
            if right.kind() != "tuple" {
                return;
            }
            let base = text(left, src);
            for part in named_children(right).into_iter().filter(|p| p.kind() == "alias") {
                f.import(ImportKind::Import, &format!("{base}.{}", text(part, src)), None, None, line);
            }
        }
        _ => {}
    }
}

/// `HTTPClient` → `http_client`, as `Macro.underscore` names a module's file.
fn underscore(segment: &str) -> String {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = String::with_capacity(segment.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).and_then(|p| chars.get(p));
            let after_lower = prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            let ends_acronym =
                prev.is_some_and(|p| p.is_uppercase()) && chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if after_lower || ends_acronym {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Resolves an `alias`/`import`/`require`/`use`: `MyApp.Accounts.User` is
/// `lib/my_app/accounts/user.ex` by convention (exact), or a unique file whose path ends
/// with `my_app/accounts/user.ex` (an umbrella app's `apps/*/lib`: heuristic).
fn resolve(p: &dyn ProjectFiles, _from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    if import.kind != ImportKind::Import
        || spec.starts_with("__MODULE__")
        || !spec.split('.').all(|s| s.chars().next().is_some_and(char::is_uppercase))
    {
        return (None, Resolution::External);
    }
    let rel: Vec<String> = spec.split('.').map(underscore).collect();
    let rel = rel.join("/");
    for ext in ["ex", "exs"] {
        if let Some(found) = p.first([format!("lib/{rel}.{ext}")]) {
            return (Some(found), Resolution::Exact);
        }
    }
    for ext in ["ex", "exs"] {
        let file = format!("{rel}.{ext}");
        if p.suffix_count(&file) == 1
            && let Some(found) = p.suffix(&file)
        {
            return (Some(found), Resolution::Heuristic);
        }
    }
    (None, Resolution::External)
}

#[cfg(test)]
mod tests {
    use super::underscore;

    #[test]
    fn module_segments_become_file_names() {
        assert_eq!(underscore("MyApp"), "my_app");
        assert_eq!(underscore("HTTPClient"), "http_client");
        assert_eq!(underscore("User"), "user");
        assert_eq!(underscore("V2Api"), "v2_api");
    }
}
