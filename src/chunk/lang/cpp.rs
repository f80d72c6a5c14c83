//! C++: grammar, definitions (`A::f` scoped by `A`, namespaces that do not qualify) and
//! `template<>` wrappers; graph facts and `#include` resolution are C's.

use super::prelude::*;

/// What cocosearch knows about Cpp.
pub(crate) const SPEC: Spec = Spec {
    parse: ParseHooks {
        prepare: Some(crate::chunk::prepare::cpp::prepare),
        retry: Some(crate::chunk::prepare::c_family::first_branches_only),
        tolerate: None,
    },
    name: "cpp",
    aliases: &["c++", "cxx", "cc", "hpp"],
    extensions: &["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "tpp", "inl"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[wrap("template_declaration", true, false)],
        opaque: super::c::OPAQUE,
        root_only: false,
        name: Some(name_cpp),
    }),
    separator: "::",
    graph: GraphRules::Walk { kinds: super::c::GRAPH_KINDS, visit: super::c::visit },
    resolve: Some(super::c::resolve),
    names: NameRules { bare_members: true, imports_bring_all_names: true, family: family::C, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_cpp::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_definition declarator: (_) @name body: (_) @body) @function
(translation_unit (declaration declarator: (_) @name) @function)
(namespace_definition body: (declaration_list (declaration declarator: (_) @name) @function))
(field_declaration declarator: (function_declarator) @name) @method
(class_specifier name: (_) @name body: (_) @body) @class
(struct_specifier name: (_) @name body: (_) @body) @struct
(union_specifier name: (_) @name body: (_) @body) @struct
(enum_specifier name: (_) @name body: (_) @body) @enum
(namespace_definition name: (_) @name body: (_) @body) @namespace
(type_definition type: (_ body: (_) @body) declarator: (_) @name) @type
(type_definition declarator: (_) @name) @type
(alias_declaration name: (type_identifier) @name) @type
(preproc_def name: (identifier) @name) @constant
(preproc_function_def name: (identifier) @name) @function
"#;

/// C's declarator naming, and `A::f` is scoped by `A`.
fn name_cpp(raw: &Raw<'_>, src: &str, named: Named) -> Option<Named> {
    let mut named = super::c::name_c(raw, src, named)?;
    if let Some((scope, name)) = named.name.rsplit_once("::") {
        let scope = bare_type(scope);
        named.name = name.to_string();
        if !scope.is_empty() {
            named.scope = Some((scope, "::"));
        }
    }
    Some(named)
}
