//! Java: detection, grammar, definitions, graph facts and import resolution (a class to
//! its file under some source root; Kotlin and Scala use the same rule).

use super::prelude::*;

/// What cocosearch knows about Java.
pub(crate) const SPEC: Spec = Spec {
    name: "java",
    extensions: &["java"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: None,
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { bare_members: true, package_per_directory: true, family: family::JVM, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_java::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_declaration name: (identifier) @name body: (_) @body) @class
(record_declaration name: (identifier) @name body: (_) @body) @class
(interface_declaration name: (identifier) @name body: (_) @body) @interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @interface
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(method_declaration name: (identifier) @name body: (_)? @body) @method
(constructor_declaration name: (identifier) @name body: (_) @body) @method
(field_declaration (modifiers "static" "final") declarator: (variable_declarator name: (identifier) @name)) @constant
"#;

const OPAQUE: &[&str] = &[
    "import_declaration",
    "array_initializer",
    "package_declaration",
    "modifiers",
    "method_invocation",
    "argument_list",
    "binary_expression",
    "formal_parameters",
    "local_variable_declaration",
    "field_access",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
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
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
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
        "import_declaration" => java_imports(node, src, f),
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

/// `import a.b.C;` (the class), `import a.b.*;` (a package), `import static a.b.C.m;`.
fn java_imports(node: Node<'_>, src: &str, f: &mut Found) {
    let children = named_children(node);
    let Some(path) = children.iter().find(|c| matches!(c.kind(), "scoped_identifier" | "identifier")) else { return };
    let wildcard = children.iter().any(|c| c.kind() == "asterisk");
    let is_static = {
        let mut cursor = node.walk();
        node.children(&mut cursor).any(|c| c.kind() == "static")
    };
    let full = text(*path, src);
    let line = line_of(node);
    match (is_static, wildcard) {
        (_, true) => f.import(ImportKind::Import, full, Some("*"), None, line),
        (true, false) => match full.rsplit_once('.') {
            Some((class, member)) => f.import(ImportKind::Import, class, Some(member), None, line),
            None => f.import(ImportKind::Import, full, None, None, line),
        },
        (false, false) => f.import(ImportKind::Import, full, None, None, line),
    }
}

/// Resolves an import of a Java file.
fn resolve(p: &dyn ProjectFiles, _from: &str, import: &Import) -> Resolved {
    let (spec, name) = (import.spec.trim(), import.name.as_deref());
    match import.kind {
        ImportKind::Import => jvm(p, spec, name, &["java"]),
        _ => (None, Resolution::External),
    }
}

/// Java, Kotlin and Scala: `a.b.C` is the file `a/b/C.<ext>` under some source root; a
/// wildcard or an unknown class names the package directory.
pub(super) fn jvm(p: &dyn ProjectFiles, spec: &str, name: Option<&str>, exts: &[&str]) -> Resolved {
    let mut parts: Vec<&str> = spec.split('.').filter(|p| !p.is_empty()).collect();
    let wildcard = name == Some("*");
    if let Some(n) = name.filter(|n| *n != "*") {
        // Scala's `import a.b.{C, D}` names the class in `name`; Java's static import
        // names a member of the class in `spec`, which the loop below drops.
        parts.push(n);
    }
    if !wildcard {
        for (dropped, k) in (1..=parts.len()).rev().enumerate() {
            let rel = parts[..k].join("/");
            for ext in exts {
                let file = format!("{rel}.{ext}");
                if let Some(found) = p.suffix(&file) {
                    let unique = p.suffix_count(&file) == 1;
                    let how = if unique && dropped <= 1 { Resolution::Exact } else { Resolution::Heuristic };
                    return (Some(found), how);
                }
            }
            if k <= 2 {
                break;
            }
        }
    }
    // The package: for a wildcard, the whole path; else the class's parent.
    let package = if wildcard { parts.len() } else { parts.len().saturating_sub(1) };
    if package >= 2
        && let Some(dir) = p.dir_suffix(&parts[..package].join("/"))
    {
        return (Some(format!("{dir}/")), Resolution::Heuristic);
    }
    (None, Resolution::External)
}
