//! Ruby: detection, grammar, definitions (`A::B` scopes; methods inside modules), graph
//! facts (calls, mixins, `require`) and import resolution (`lib/` and relative requires).

use super::prelude::*;

/// What cocosearch knows about Ruby.
pub(crate) const SPEC: Spec = Spec {
    name: "ruby",
    aliases: &["rb"],
    extensions: &["rb", "rake", "gemspec", "ru"],
    file_names: &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile", "Podfile", "Brewfile", "Fastfile", ".irbrc"],
    interpreters: &["ruby", "jruby"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(ruby_name),
    }),
    modules_hold_methods: true,
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { bare_members: true, imports_bring_all_names: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_ruby::LANGUAGE.into()
}

const QUERY: &str = r#"
(class name: (_) @name body: (_)? @body) @class
(module name: (_) @name body: (_)? @body) @module
(method name: (_) @name body: (_)? @body) @method
(singleton_method name: (_) @name body: (_)? @body) @method
(assignment left: (constant) @name) @constant
"#;

const OPAQUE: &[&str] = &["argument_list", "binary", "heredoc_beginning"];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["call", "class", "constant", "scope_resolution", "method", "singleton_method"];

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

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
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
                            f.import(ImportKind::Import, &spec, None, None, line_of(node));
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

/// `def A::B.m` and `class A::B` are scoped by the path they write.
fn ruby_name(_raw: &Raw<'_>, _src: &str, mut named: Named) -> Option<Named> {
    if let Some((scope, name)) = named.name.rsplit_once("::") {
        let (scope, name) = (scope.to_string(), name.to_string());
        named.scope = Some((scope, "."));
        named.name = name;
    }
    Some(named)
}

/// Resolves an import of a Ruby file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let spec = import.spec.trim();
    match import.kind {
        ImportKind::Import => ruby(p, from, spec),
        _ => (None, Resolution::External),
    }
}

pub(super) fn ruby(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    let with_ext = |s: &str| if s.ends_with(".rb") { s.to_string() } else { format!("{s}.rb") };
    if spec.starts_with("./") || spec.starts_with("../") {
        return match join_path(dir_of(from), &with_ext(spec)).filter(|path| p.exists(path)) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        };
    }
    let file = with_ext(spec);
    if let Some(found) = p.first([format!("lib/{file}")]) {
        return (Some(found), Resolution::Exact);
    }
    if let Some(found) = p.first([file.clone()]) {
        return (Some(found), Resolution::Heuristic);
    }
    match p.suffix(&format!("lib/{file}")) {
        Some(found) => (Some(found), Resolution::Heuristic),
        None => (None, Resolution::External),
    }
}
