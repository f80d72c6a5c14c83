//! JavaScript: detection, grammar, definitions, graph facts (calls, `new`, decorators,
//! heritage, types, parameters, `import`/`require`/re-exports) and import resolution (Node
//! and TypeScript module lookup, `tsconfig` paths); TypeScript and TSX share the last two.

use super::prelude::*;

/// What cocosearch knows about JavaScript.
pub(crate) const SPEC: Spec = Spec {
    name: "javascript",
    generic_files: &["index.js"],
    aliases: &["js", "jsx", "node", "ecmascript"],
    extensions: &["js", "mjs", "cjs", "jsx"],
    interpreters: &["node", "nodejs", "deno", "bun", "qjs"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[wrap("export_statement", true, false)],
        opaque: OPAQUE,
        root_only: false,
        name: Some(super::python::constants_in_caps),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, family: family::JAVASCRIPT, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_javascript::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_declaration name: (identifier) @name body: (class_body) @body) @class
(function_declaration name: (identifier) @name body: (statement_block) @body) @function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @function
(method_definition name: (_) @name body: (statement_block) @body) @method
(field_definition property: (_) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @method
(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @constant))
"#;

pub(super) const OPAQUE: &[&str] = &[
    "import_statement",
    "jsx_element",
    "jsx_self_closing_element",
    "binary_expression",
    "type_annotation",
    "type_arguments",
    "formal_parameters",
];

/// Node kinds whose visit records something.
pub(super) const GRAPH_KINDS: &[&str] = &[
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
];

/// Records what one visited node says.
pub(super) fn visit(at: &At<'_, '_>, f: &mut Found) {
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
                ("import", Some(spec)) => import_at(spec, None, src, f),
                ("identifier", Some(spec)) if text(function, src) == "require" => {
                    // `const x = require('./x')` binds the module to `x`.
                    let alias = at
                        .up(0)
                        .filter(|p| p.kind() == "variable_declarator")
                        .and_then(|p| p.child_by_field_name("name"))
                        .filter(|n| n.kind() == "identifier");
                    import_at(spec, alias.map(|a| text(a, src)), src, f)
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
        "import_statement" => javascript_imports(node, src, f),
        "export_statement" => javascript_reexport(node, src, f),
        _ => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            } else if let Some(single) = node.child_by_field_name("parameter") {
                f.params.push((single.start_byte(), vec![text(single, src).to_string()]));
            }
        }
    }
}

/// `import d, {a, b as c} from './x'`, `import * as ns from 'x'`, `import './side-effect'`,
/// TypeScript's `import x = require('y')`.
fn javascript_imports(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let source = node.child_by_field_name("source").or_else(|| {
        named_children(node)
            .into_iter()
            .find(|c| c.kind() == "import_require_clause")
            .and_then(|c| c.child_by_field_name("source"))
    });
    let Some(source) = source else { return };
    let spec = unquote(text(source, src));
    let mut any = false;
    for clause in named_children(node).into_iter().filter(|c| c.kind() == "import_clause") {
        for part in named_children(clause) {
            match part.kind() {
                "identifier" => {
                    any = true;
                    f.import(ImportKind::Import, spec, Some("default"), Some(text(part, src)), line);
                }
                "namespace_import" => {
                    any = true;
                    let alias = part.named_child(0).map(|a| text(a, src));
                    f.import(ImportKind::Import, spec, Some("*"), alias, line);
                }
                "named_imports" => {
                    for s in named_children(part).into_iter().filter(|s| s.kind() == "import_specifier") {
                        any = true;
                        let name = s.child_by_field_name("name").map(|n| unquote(text(n, src)));
                        let alias = s.child_by_field_name("alias").map(|a| text(a, src));
                        f.import(ImportKind::Import, spec, name, alias, line);
                    }
                }
                _ => {}
            }
        }
    }
    if !any {
        f.import(ImportKind::Import, spec, None, None, line);
    }
}

/// `export {a, b as c} from './x'` and `export * from './x'`: the module is imported too.
fn javascript_reexport(node: Node<'_>, src: &str, f: &mut Found) {
    let Some(source) = node.child_by_field_name("source") else { return };
    let spec = unquote(text(source, src));
    let line = line_of(node);
    let mut any = false;
    for clause in named_children(node).into_iter().filter(|c| c.kind() == "export_clause") {
        for s in named_children(clause).into_iter().filter(|s| s.kind() == "export_specifier") {
            any = true;
            let name = s.child_by_field_name("name").map(|n| unquote(text(n, src)));
            let alias = s.child_by_field_name("alias").map(|a| text(a, src));
            f.import(ImportKind::Import, spec, name, alias, line);
        }
    }
    if !any {
        let alias =
            named_children(node).into_iter().find(|c| c.kind() == "namespace_export").and_then(|n| n.named_child(0));
        f.import(ImportKind::Import, spec, Some("*"), alias.map(|a| text(a, src)), line);
    }
}

/// Resolves an import of a JavaScript file.
pub(super) fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => javascript(p, from, spec),
        _ => (None, Resolution::External),
    }
}

/// A JS/TS module path probed as TypeScript and Node do: as written, with each
/// extension, as a directory's `index`, and `.js` written for a `.ts` source.
pub(super) fn probe_js(p: &dyn ProjectFiles, base: &str) -> Option<String> {
    const EXTS: &[&str] = &["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts", "json", "vue", "svelte"];
    if p.exists(base) {
        return Some(base.to_string());
    }
    for (written, source) in [("js", "ts"), ("js", "tsx"), ("jsx", "tsx"), ("mjs", "mts"), ("cjs", "cts")] {
        if let Some(stem) = base.strip_suffix(&format!(".{written}")) {
            let candidate = format!("{stem}.{source}");
            if p.exists(&candidate) {
                return Some(candidate);
            }
        }
    }
    let slash = if base.is_empty() { "" } else { "/" };
    p.first(EXTS.iter().map(|e| format!("{base}.{e}")))
        .or_else(|| p.first(EXTS.iter().map(|e| format!("{base}{slash}index.{e}"))))
}

pub(super) fn javascript(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." || spec.starts_with('/') {
        let base = if let Some(rooted) = spec.strip_prefix('/') {
            join_path("", rooted)
        } else {
            join_path(dir_of(from), spec)
        };
        return match base.and_then(|b| probe_js(p, &b)) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        };
    }
    // The nearest tsconfig/jsconfig above the file decides bare specifiers.
    let mut dir = dir_of(from).to_string();
    let config = loop {
        if let Some(c) = p.ts_config(&dir) {
            break Some(c);
        }
        if dir.is_empty() {
            break None;
        }
        dir = dir_of(&dir).to_string();
    };
    if let Some(config) = config {
        for (pattern, targets) in &config.paths {
            let star = match pattern.split_once('*') {
                Some((prefix, suffix)) => {
                    spec.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(suffix)).map(|s| s.to_string())
                }
                None => (pattern == spec).then(String::new),
            };
            let Some(star) = star else { continue };
            for target in targets {
                let path = target.replacen('*', &star, 1);
                if let Some(found) = join_path("", &path).and_then(|b| probe_js(p, &b)) {
                    return (Some(found), Resolution::Exact);
                }
            }
        }
        if let Some(base) = &config.base_url
            && let Some(found) = join_path(base, spec).and_then(|b| probe_js(p, &b))
        {
            return (Some(found), Resolution::Exact);
        }
    }
    (None, Resolution::External)
}
