//! Lua: detection, grammar, definitions (`M.f` and `M:f` as methods of `M`), graph facts
//! (calls, `require`) and import resolution (`a.b` to `a/b.lua` or `a/b/init.lua`).

use super::prelude::*;

/// What cocosearch knows about Lua.
pub(crate) const SPEC: Spec = Spec {
    name: "lua",
    extensions: &["lua"],
    interpreters: &["lua", "luajit", "texlua"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(lua_name),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_lua::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_declaration name: (_) @name body: (_)? @body) @function
(variable_declaration (assignment_statement (variable_list name: (identifier) @name) (expression_list value: (function_definition body: (_)? @body)))) @function
(chunk (assignment_statement (variable_list name: (_) @name) (expression_list value: (function_definition body: (_)? @body))) @function)
"#;

const OPAQUE: &[&str] = &["binary_expression"];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["function_call", "function_declaration", "function_definition"];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "function_call" => {
            let Some(name) = node.child_by_field_name("name") else { return };
            let first_string = node
                .child_by_field_name("arguments")
                .and_then(|a| named_children(a).into_iter().next())
                .filter(|a| a.kind() == "string");
            match first_string {
                Some(spec) if text(name, src) == "require" => import_at(spec, None, src, f),
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

/// `function M.f` and `function M:f` are methods of the path they write.
fn lua_name(_raw: &Raw<'_>, _src: &str, mut named: Named) -> Option<Named> {
    let written = named.name.clone();
    if let Some(pos) = written.rfind(['.', ':']) {
        let (scope, name) = (&written[..pos], &written[pos + 1..]);
        named.name = name.to_string();
        named.kind = SymbolKind::Method;
        named.fixed = Some((written.to_string(), Some(scope.to_string())));
    }
    Some(named)
}

/// Resolves an import of a Lua file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => lua(p, from, spec),
        _ => (None, Resolution::External),
    }
}

pub(super) fn lua(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    let rel = spec.replace('.', "/");
    let candidates = |base: &str| {
        let prefix = if base.is_empty() { String::new() } else { format!("{base}/") };
        [format!("{prefix}{rel}.lua"), format!("{prefix}{rel}/init.lua")]
    };
    match p.first(candidates("").into_iter().chain(candidates(dir_of(from)))) {
        Some(found) => (Some(found), Resolution::Exact),
        None => (None, Resolution::External),
    }
}
