//! Haskell: detection, grammar, definitions (functions and pattern bindings, `data`,
//! `newtype`, `type`, `type family`, `class` with its method signatures, `instance`),
//! graph facts (`import`s with their name lists; calls, types in signatures, the class of
//! an instance) and import resolution (a module to its file under a source root).

use super::prelude::*;

/// What cocosearch knows about Haskell.
pub(crate) const SPEC: Spec = Spec {
    name: "haskell",
    aliases: &["hs"],
    extensions: &["hs"],
    interpreters: &["runhaskell", "runghc", "stack"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery { opaque: OPAQUE, name: Some(name), ..DefinitionQuery::new(QUERY) }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, ..NameRules::PLAIN },
    test_files: &["*Spec.hs", "*Test.hs"],
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_haskell::LANGUAGE.into()
}

const QUERY: &str = r#"
(function name: (_) @name match: (_)? @body) @function
(bind name: (_) @name match: (_)? @body) @function
(data_type name: (_) @name) @enum
(newtype name: (_) @name) @struct
(type_synonym name: (_) @name) @type
(type_family name: (_) @name) @type
(data_family name: (_) @name) @type
(class name: (_) @name declarations: (_)? @body) @interface
(instance name: (_) @name declarations: (_)? @body) @impl
(class_declarations (signature name: (_) @name) @function)
"#;

/// Kinds that hold no definition the query captures.
const OPAQUE: &[&str] = &[
    "imports",
    "header",
    "signature",
    "apply",
    "infix",
    "list",
    "tuple",
    "string",
    "literal",
    "deriving",
    "data_constructors",
    "patterns",
];

/// Instances are named by the class and the types (`Describe Shape`), so that two
/// instances of one class stay apart; the signature of a definition is its first line.
fn name(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    if raw.kind == SymbolKind::Impl
        && let Some(patterns) = raw.node.child_by_field_name("patterns")
    {
        let types = node_text(patterns, src).split_whitespace().collect::<Vec<_>>().join(" ");
        named.name = format!("{} {types}", named.name);
    }
    named.first_line_signature = true;
    Some(named)
}

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["import", "apply", "name", "qualified", "instance", "function"];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "import" => imports(node, src, f),
        "apply" => {
            // `f x y` is `(f x) y`: the callee is the innermost function.
            if at.field == Some("function") && at.up_kind(0) == "apply" {
                return;
            }
            let mut function = node.child_by_field_name("function");
            while let Some(inner) = function.filter(|n| n.kind() == "apply") {
                function = inner.child_by_field_name("function");
            }
            match function {
                Some(name) if name.kind() == "variable" => f.reference(RefKind::Call, text(name, src), None, name),
                Some(q) if q.kind() == "qualified" => qualified(q, RefKind::Call, src, f),
                _ => {}
            }
        }
        "name" if in_signature(at) => f.reference(RefKind::Type, text(node, src), None, node),
        "qualified" if in_signature(at) && at.up_kind(0) != "apply" => qualified(node, RefKind::Type, src, f),
        "instance" => {
            if let Some(class) = node.child_by_field_name("name") {
                f.reference(RefKind::Impl, text(class, src), None, class);
                f.bases.push((class.start_byte(), vec![text(class, src).to_string()]));
            }
        }
        "function" => {
            if let Some(patterns) = node.child_by_field_name("patterns") {
                let names = named_children(patterns)
                    .into_iter()
                    .take(64)
                    .map(|p| text(p, src).split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|p| !p.is_empty() && p.len() <= 60)
                    .collect();
                f.params.push((patterns.start_byte(), names));
            }
        }
        _ => {}
    }
}

/// Whether the node lies in a type signature.
fn in_signature(at: &At<'_, '_>) -> bool {
    at.ancestors.iter().rev().take(12).any(|a| a.kind() == "signature")
}

/// `Map.lookup` as a reference to `lookup` through `Map`.
fn qualified(node: Node<'_>, kind: RefKind, src: &str, f: &mut Found) {
    let (Some(module), Some(id)) = (node.child_by_field_name("module"), node.child_by_field_name("id")) else {
        return;
    };
    f.reference(kind, text(id, src), Some(text(module, src).to_string()), id);
}

/// `import qualified Data.Map as Map`, `import Data.List (sortBy, foldl')`: one import per
/// listed name.
fn imports(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(module) = node.child_by_field_name("module") else { return };
    let module = text(module, src);
    let alias = node.child_by_field_name("alias").map(|a| text(a, src));
    let line = line_of(node);
    let names: Vec<&str> = node
        .child_by_field_name("names")
        .map(|list| {
            named_children(list).into_iter().filter(|n| n.kind() == "import_name").map(|n| text(n, src)).collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        f.import(ImportKind::Import, module, None, alias, line);
    }
    for name in names {
        f.import(ImportKind::Import, module, Some(name), alias, line);
    }
}

/// Resolves an import: `Data.Sample.Internal` is `Data/Sample/Internal.hs` under the
/// project root, `src/`, `lib/` or the importing file's source root (exact), or a unique
/// file whose path ends so (heuristic).
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    if import.kind != ImportKind::Import || spec.is_empty() {
        return (None, Resolution::External);
    }
    let rel = format!("{}.hs", spec.replace('.', "/"));
    // The source root of `from`: its directory with one level per module segment removed
    // is unknown here, so the usual roots are tried, then the directories above `from`.
    let mut roots: Vec<String> = vec![String::new(), "src".into(), "lib".into()];
    let mut dir = dir_of(from);
    while !dir.is_empty() {
        roots.push(dir.to_string());
        dir = dir_of(dir);
    }
    for root in roots {
        let candidate = if root.is_empty() { rel.clone() } else { format!("{root}/{rel}") };
        if p.exists(&candidate) {
            return (Some(candidate), Resolution::Exact);
        }
    }
    if p.suffix_count(&rel) == 1
        && let Some(found) = p.suffix(&rel)
    {
        return (Some(found), Resolution::Heuristic);
    }
    (None, Resolution::External)
}
