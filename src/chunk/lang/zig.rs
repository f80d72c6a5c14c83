//! Zig: detection, grammar, definitions (functions, `const` containers: structs, unions,
//! enums, opaque types and error sets; top-level constants and variables; `test`
//! blocks), graph facts (`@import`; calls; parameters) and import resolution (a relative
//! `.zig` path).

use super::prelude::*;

/// What cocosearch knows about Zig.
pub(crate) const SPEC: Spec = Spec {
    name: "zig",
    extensions: &["zig", "zon"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery { opaque: OPAQUE, name: Some(name), ..DefinitionQuery::new(QUERY) }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_zig::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_declaration name: (identifier) @name body: (block)? @body) @function
(variable_declaration (identifier) @name (struct_declaration) @body) @struct
(variable_declaration (identifier) @name (union_declaration) @body) @struct
(variable_declaration (identifier) @name (opaque_declaration) @body) @struct
(variable_declaration (identifier) @name (enum_declaration) @body) @enum
(variable_declaration (identifier) @name (error_set_declaration) @body) @enum
(test_declaration [(string) (identifier)]? @name (block) @body) @function
(source_file (variable_declaration (identifier) @name) @constant)
"#;

/// Kinds that hold no definition the query captures.
const OPAQUE: &[&str] = &[
    "call_expression",
    "builtin_function",
    "binary_expression",
    "field_expression",
    "initializer_list",
    "anonymous_struct_initializer",
    "struct_initializer",
    "parameters",
    "arguments",
    "multiline_string",
];

/// `var` makes a variable; a constant bound to `@import(...)` is an import, not a
/// definition; a test is named by its string (`test` when it has none).
fn name(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    match raw.node.kind() {
        "test_declaration" => {
            let written = strip_quotes(&named.name).to_string();
            named.name = if written.is_empty() { "test".to_string() } else { written };
        }
        "variable_declaration" if named.kind.is_value() => {
            let written = node_text(raw.node, src);
            if written.contains("@import(") {
                return None;
            }
            let declared = written.trim_start().trim_start_matches("pub ").trim_start_matches("export ");
            if declared.starts_with("var ") || declared.starts_with("threadlocal ") {
                named.kind = SymbolKind::Variable;
            }
        }
        _ => {}
    }
    Some(named)
}

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["builtin_function", "call_expression", "function_declaration"];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "builtin_function" => {
            let children = named_children(node);
            let is_import = children.iter().any(|c| c.kind() == "builtin_identifier" && text(*c, src) == "@import");
            let spec = children
                .iter()
                .find(|c| c.kind() == "arguments")
                .and_then(|a| a.named_child(0))
                .filter(|s| s.kind() == "string");
            if is_import && let Some(spec) = spec {
                let alias = at
                    .up(0)
                    .filter(|p| p.kind() == "variable_declaration")
                    .and_then(|p| named_children(p).into_iter().find(|c| c.kind() == "identifier"))
                    .map(|n| text(n, src));
                f.import(ImportKind::Import, unquote(text(spec, src)), None, alias, line_of(node));
            }
        }
        "call_expression" => {
            let Some(function) = node.child_by_field_name("function") else { return };
            match function.kind() {
                "identifier" => f.reference(RefKind::Call, text(function, src), None, function),
                "field_expression" => {
                    let (Some(object), Some(member)) =
                        (function.child_by_field_name("object"), function.child_by_field_name("member"))
                    else {
                        return;
                    };
                    f.reference(RefKind::Call, text(member, src), qualifier(object, src), member);
                }
                _ => {}
            }
        }
        "function_declaration" => {
            if let Some(list) = named_children(node).into_iter().find(|c| c.kind() == "parameters") {
                params(list, src, f);
            }
        }
        _ => {}
    }
}

/// Resolves an `@import`: a path ending in `.zig` (or `.zon`) is relative to the importing
/// file; a name (`std`, a package of `build.zig`) is external.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    if import.kind != ImportKind::Import || !(spec.ends_with(".zig") || spec.ends_with(".zon")) {
        return (None, Resolution::External);
    }
    match p.existing(join_path(dir_of(from), spec)) {
        Some(found) => (Some(found), Resolution::Exact),
        None => (None, Resolution::Missing),
    }
}
