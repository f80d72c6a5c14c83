//! HCL and Terraform: detection, grammar, blocks named by type and labels, `locals`,
//! graph facts (module sources, value references) and module-source resolution.

use super::prelude::*;

/// What cocosearch knows about Hcl.
pub(crate) const SPEC: Spec = Spec {
    name: "hcl",
    aliases: &["terraform", "tf", "tfvars"],
    extensions: &["tf", "tfvars", "hcl"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: &[],
        root_only: true,
        name: Some(name_hcl),
    }),
    graph: GraphRules::Whole(hcl),
    resolve: Some(resolve),
    sections: Sections { kind: Some("block"), depth: Some(1), descend_root: Some("body") },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_hcl::LANGUAGE.into()
}

const QUERY: &str = r#"
(config_file (body (block (identifier) @name (block_start) @body) @block))
(config_file (body (block (identifier) @_type (body (attribute (identifier) @name) @variable)) (#eq? @_type "locals")))
"#;

/// Terraform: `module "x" { source = "…" }` imports its source; `var.x`, `local.x`,
/// `module.x`, `data.t.n` and `type.name` are references to the definitions named so.
fn hcl(root: Node<'_>, src: &str, f: &mut Found) {
    walk(
        root,
        |_| false,
        |node| match node.kind() {
            "block" => {
                let children = named_children(node);
                let Some(kind) = children.first().filter(|c| c.kind() == "identifier") else { return };
                if text(*kind, src) != "module" {
                    return;
                }
                let body = children.iter().find(|c| c.kind() == "body");
                let source = body
                    .into_iter()
                    .flat_map(|b| named_children(*b))
                    .find(|a| a.kind() == "attribute" && a.named_child(0).is_some_and(|k| text(k, src) == "source"));
                if let Some(value) = source.and_then(|a| a.named_child(1)) {
                    f.import(ImportKind::Module, unquote(text(value, src)), None, None, line_of(value));
                }
            }
            "expression" => hcl_traversal(node, src, f),
            _ => {}
        },
    );
}

/// One `root.attr.attr…` traversal, as a reference to what it names.
fn hcl_traversal(node: Node<'_>, src: &str, f: &mut Found) {
    let children = named_children(node);
    let Some(root) = children.first().filter(|c| c.kind() == "variable_expr") else { return };
    let attrs: Vec<&str> = children[1..]
        .iter()
        .take_while(|c| c.kind() == "get_attr")
        .filter_map(|c| c.named_child(0))
        .map(|c| text(c, src))
        .collect();
    let head = text(*root, src);
    let (name, qualifier) = match (head, attrs.as_slice()) {
        ("var" | "local" | "module", [name, ..]) => (name.to_string(), head),
        ("data", [kind, name, ..]) => (format!("{kind}.{name}"), "data"),
        ("each" | "count" | "self" | "path" | "terraform", _) | (_, []) => return,
        (kind, [name, ..]) => (format!("{kind}.{name}"), "resource"),
    };
    f.reference(RefKind::Use, &name, Some(qualifier.to_string()), *root);
}

/// HCL blocks are named by type and labels; `locals` attributes by
/// `local.<name>`.
fn name_hcl(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    if raw.kind == SymbolKind::Variable {
        named.fixed = Some((format!("local.{}", named.name), Some("locals".into())));
        named.first_line_signature = true;
        return Some(named);
    }
    let block_type = named.name.clone();
    let mut labels = Vec::new();
    let mut cursor = raw.node.walk();
    for child in raw.node.named_children(&mut cursor).skip(1) {
        match child.kind() {
            "string_lit" => labels.push(strip_quotes(node_text(child, src)).to_string()),
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

/// A directory relative to the importing file (a Terraform module source); sources that
/// are not local paths (registries, git) are external.
pub(super) fn relative_dir(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    if !(spec.starts_with("./") || spec.starts_with("../")) {
        return (None, Resolution::External);
    }
    match join_path(dir_of(from), spec) {
        Some(d) if !d.is_empty() && p.is_dir(&d) => (Some(format!("{d}/")), Resolution::Exact),
        _ => (None, Resolution::Missing),
    }
}

/// Resolves a Terraform module's `source`.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    match import.kind {
        ImportKind::Module => relative_dir(p, from, import.spec.trim()),
        _ => (None, Resolution::External),
    }
}
