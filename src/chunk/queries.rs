//! Provides the per-language tables the chunker needs: the tree-sitter query
//! that finds definitions, the scope separator for qualified names, the
//! wrapper nodes that belong to a definition (decorators, `export`,
//! `template<>`), and the compiled queries, built once per process.
//!
//! Query conventions: a capture named after a definition kind (`@function`,
//! `@class`, `@namespace`, `@key`, ...) marks the definition node, `@name` its
//! name, `@body` the node where the signature ends, and `@receiver` a Go
//! method receiver. Captures starting with `_` only serve predicates. The
//! queries were written for cocosearch after reading each grammar's
//! `node-types.json` and `tags.scm`.

use std::sync::OnceLock;

use tree_sitter::Query;

use super::Language;

/// What a query capture stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The definition node, with the kind the capture name gives.
    Def(CapKind),
    /// The node holding the definition's name.
    Name,
    /// The node where the signature ends (usually the body).
    Body,
    /// A Go method receiver type.
    Receiver,
    /// A capture used only by predicates.
    Ignore,
}

/// Definition kinds as written in queries. Most map one-to-one to a
/// `SymbolKind`; the others are refined by language-specific naming code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CapKind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Interface,
    Trait,
    Impl,
    Module,
    /// A namespace: a `Module` that does not qualify the names inside it.
    Namespace,
    Type,
    Constant,
    Variable,
    /// A top-level HCL block; the kind comes from the block type.
    Block,
    /// A YAML/JSON/TOML key.
    Key,
    /// A TOML table or array-of-tables element.
    Table,
    /// A SQL table.
    SqlTable,
    /// A SQL view.
    View,
    /// A Markdown section.
    Heading,
}

impl CapKind {
    fn from_capture(name: &str) -> Option<CapKind> {
        use CapKind::*;
        Some(match name {
            "function" => Function,
            "method" => Method,
            "class" => Class,
            "struct" => Struct,
            "enum" => Enum,
            "interface" => Interface,
            "trait" => Trait,
            "impl" => Impl,
            "module" => Module,
            "namespace" => Namespace,
            "type" => Type,
            "constant" => Constant,
            "variable" => Variable,
            "block" => Block,
            "key" => Key,
            "table" => Table,
            "sqltable" => SqlTable,
            "view" => View,
            "heading" => Heading,
            _ => return None,
        })
    }
}

/// A node kind that wraps a definition and belongs to it when chunking.
pub(crate) struct Wrapper {
    /// The wrapper's node kind.
    pub(crate) kind: &'static str,
    /// Whether the wrapper's own text starts the signature (`export class A`,
    /// `template <class T> T f()`); decorators do not.
    pub(crate) in_signature: bool,
    /// Whether the wrapper only counts when the definition is its sole named
    /// child (Go `type X struct{}` versus a `type (...)` group).
    pub(crate) single_only: bool,
}

const fn wrap(kind: &'static str, in_signature: bool, single_only: bool) -> Wrapper {
    Wrapper { kind, in_signature, single_only }
}

const PY_WRAPPERS: &[Wrapper] = &[wrap("decorated_definition", false, false)];
const JS_WRAPPERS: &[Wrapper] = &[wrap("export_statement", true, false)];
const TS_WRAPPERS: &[Wrapper] = &[wrap("export_statement", true, false), wrap("ambient_declaration", true, true)];
const GO_WRAPPERS: &[Wrapper] =
    &[wrap("type_declaration", true, true), wrap("const_declaration", true, true), wrap("var_declaration", true, true)];
const CPP_WRAPPERS: &[Wrapper] = &[wrap("template_declaration", true, false)];
const SQL_WRAPPERS: &[Wrapper] = &[wrap("statement", true, true)];

/// The wrappers of `lang`.
pub(crate) fn wrappers(lang: Language) -> &'static [Wrapper] {
    match lang {
        Language::Python => PY_WRAPPERS,
        Language::JavaScript => JS_WRAPPERS,
        Language::TypeScript | Language::Tsx => TS_WRAPPERS,
        Language::Go => GO_WRAPPERS,
        Language::Cpp => CPP_WRAPPERS,
        Language::Sql => SQL_WRAPPERS,
        _ => &[],
    }
}

/// The separator between scopes in qualified names.
pub(crate) fn separator(lang: Language) -> &'static str {
    match lang {
        Language::Rust | Language::Cpp => "::",
        Language::Markdown => " > ",
        _ => ".",
    }
}

const PYTHON: &str = r#"
(class_definition name: (identifier) @name body: (block) @body) @class
(function_definition name: (identifier) @name body: (block) @body) @function
(module (expression_statement (assignment left: (identifier) @name)) @constant)
"#;

const JAVASCRIPT: &str = r#"
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

const TYPESCRIPT: &str = r#"
(class_declaration name: (type_identifier) @name body: (class_body) @body) @class
(abstract_class_declaration name: (type_identifier) @name body: (class_body) @body) @class
(interface_declaration name: (type_identifier) @name body: (_) @body) @interface
(type_alias_declaration name: (type_identifier) @name) @type
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(internal_module name: (_) @name body: (_) @body) @module
(module name: (_) @name body: (_) @body) @module
(function_declaration name: (identifier) @name body: (statement_block) @body) @function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @function
(function_signature name: (identifier) @name) @function
(method_definition name: (_) @name body: (statement_block) @body) @method
(abstract_method_signature name: (_) @name) @method
(method_signature name: (_) @name) @method
(public_field_definition name: (_) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @method
(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @function
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @constant))
"#;

const GO: &str = r#"
(function_declaration name: (identifier) @name body: (block)? @body) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @receiver)) name: (field_identifier) @name body: (block)? @body) @method
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @struct
(type_spec name: (type_identifier) @name type: (interface_type) @body) @interface
(type_spec name: (type_identifier) @name) @type
(type_alias name: (type_identifier) @name) @type
(source_file (const_declaration (const_spec name: (identifier) @name) @constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @variable))
"#;

const RUST: &str = r#"
(function_item name: (identifier) @name body: (block) @body) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name body: (_)? @body) @struct
(union_item name: (type_identifier) @name body: (_)? @body) @struct
(enum_item name: (type_identifier) @name body: (_) @body) @enum
(trait_item name: (type_identifier) @name body: (_) @body) @trait
(impl_item type: (_) @name body: (_)? @body) @impl
(mod_item name: (identifier) @name body: (_)? @body) @module
(type_item name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @constant
(static_item name: (identifier) @name) @constant
(macro_definition name: (identifier) @name (macro_rule)? @body) @function
"#;

const JAVA: &str = r#"
(class_declaration name: (identifier) @name body: (_) @body) @class
(record_declaration name: (identifier) @name body: (_) @body) @class
(interface_declaration name: (identifier) @name body: (_) @body) @interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @interface
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(method_declaration name: (identifier) @name body: (_)? @body) @method
(constructor_declaration name: (identifier) @name body: (_) @body) @method
(field_declaration (modifiers "static" "final") declarator: (variable_declarator name: (identifier) @name)) @constant
"#;

const C: &str = r#"
(function_definition declarator: (_) @name body: (_) @body) @function
(translation_unit (declaration declarator: (_) @name) @function)
(struct_specifier name: (type_identifier) @name body: (_) @body) @struct
(union_specifier name: (type_identifier) @name body: (_) @body) @struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @enum
(type_definition type: (_ body: (_) @body) declarator: (_) @name) @type
(type_definition declarator: (_) @name) @type
(preproc_def name: (identifier) @name) @constant
(preproc_function_def name: (identifier) @name) @function
"#;

const CPP: &str = r#"
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

const CSHARP: &str = r#"
(class_declaration name: (identifier) @name body: (_) @body) @class
(record_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name body: (_) @body) @struct
(interface_declaration name: (identifier) @name body: (_) @body) @interface
(enum_declaration name: (identifier) @name body: (_) @body) @enum
(method_declaration name: (identifier) @name body: (_)? @body) @method
(constructor_declaration name: (identifier) @name body: (_)? @body) @method
(delegate_declaration name: (identifier) @name) @type
(namespace_declaration name: (_) @name body: (_) @body) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace
"#;

const RUBY: &str = r#"
(class name: (_) @name body: (_)? @body) @class
(module name: (_) @name body: (_)? @body) @module
(method name: (_) @name body: (_)? @body) @method
(singleton_method name: (_) @name body: (_)? @body) @method
"#;

const PHP: &str = r#"
(class_declaration name: (name) @name body: (_) @body) @class
(interface_declaration name: (name) @name body: (_) @body) @interface
(trait_declaration name: (name) @name body: (_) @body) @trait
(enum_declaration name: (name) @name body: (_) @body) @enum
(method_declaration name: (name) @name body: (_)? @body) @method
(function_definition name: (name) @name body: (_) @body) @function
(const_declaration (const_element (name) @name)) @constant
(namespace_definition name: (_) @name body: (_)? @body) @namespace
"#;

const KOTLIN: &str = r#"
(class_declaration name: (_) @name [(class_body) (enum_class_body)]? @body) @class
(object_declaration name: (_) @name (class_body)? @body) @class
(companion_object (class_body)? @body) @class
(function_declaration name: (_) @name (function_body)? @body) @function
(source_file (property_declaration (variable_declaration (identifier) @name)) @variable)
(type_alias type: (_) @name) @type
"#;

const SCALA: &str = r#"
(class_definition name: (_) @name body: (_)? @body) @class
(object_definition name: (_) @name body: (_)? @body) @class
(trait_definition name: (_) @name body: (_)? @body) @trait
(enum_definition name: (_) @name body: (_)? @body) @enum
(function_definition name: (_) @name body: (_)? @body) @function
(function_declaration name: (_) @name) @function
(type_definition name: (_) @name) @type
(compilation_unit (val_definition pattern: (identifier) @name) @constant)
"#;

const SWIFT: &str = r#"
(class_declaration name: (_) @name body: (_)? @body) @class
(protocol_declaration name: (_) @name body: (_)? @body) @interface
(function_declaration name: (simple_identifier) @name body: (_)? @body) @function
(protocol_function_declaration name: (simple_identifier) @name) @method
(init_declaration "init" @name body: (_)? @body) @method
(typealias_declaration name: (_) @name) @type
(source_file (property_declaration name: (pattern (simple_identifier) @name)) @variable)
"#;

const LUA: &str = r#"
(function_declaration name: (_) @name body: (_)? @body) @function
(variable_declaration (assignment_statement (variable_list name: (identifier) @name) (expression_list value: (function_definition body: (_)? @body)))) @function
(chunk (assignment_statement (variable_list name: (_) @name) (expression_list value: (function_definition body: (_)? @body))) @function)
"#;

const BASH: &str = r#"
(function_definition name: (word) @name body: (_) @body) @function
"#;

const HCL: &str = r#"
(config_file (body (block (identifier) @name (block_start) @body) @block))
(config_file (body (block (identifier) @_type (body (attribute (identifier) @name) @variable)) (#eq? @_type "locals")))
"#;

const SQL: &str = r#"
(create_table (object_reference) @name (column_definitions)? @body) @sqltable
(create_view (object_reference) @name (create_query)? @body) @view
(create_materialized_view (object_reference) @name (create_query)? @body) @view
(create_function (keyword_function) . (object_reference) @name (function_body)? @body) @function
(create_type (object_reference) @name) @type
(create_schema (identifier) @name) @module
"#;

const YAML: &str = r#"
(stream (document (block_node (block_mapping (block_mapping_pair key: (_) @name) @key))))
(stream (document (flow_node (flow_mapping (flow_pair key: (_) @name) @key))))
"#;

const JSON: &str = r#"
(document (object (pair key: (_) @name) @key))
"#;

const TOML: &str = r#"
(document (pair . (_) @name) @key)
(document (table . (_) @name) @table)
(document (table_array_element . (_) @name) @table)
"#;

const MARKDOWN: &str = r#"
(section [(atx_heading) (setext_heading)] @name) @heading
"#;

/// The definition query of `lang`, or `None` where symbols are not
/// extracted by query (Dockerfile has its own code; HTML, CSS and the
/// grammar-less languages have no symbols).
pub(crate) fn query_source(lang: Language) -> Option<&'static str> {
    Some(match lang {
        Language::Python => PYTHON,
        Language::JavaScript => JAVASCRIPT,
        Language::TypeScript | Language::Tsx => TYPESCRIPT,
        Language::Go => GO,
        Language::Rust => RUST,
        Language::Java => JAVA,
        Language::C => C,
        Language::Cpp => CPP,
        Language::CSharp => CSHARP,
        Language::Ruby => RUBY,
        Language::Php => PHP,
        Language::Kotlin => KOTLIN,
        Language::Scala => SCALA,
        Language::Swift => SWIFT,
        Language::Lua => LUA,
        Language::Bash => BASH,
        Language::Hcl => HCL,
        Language::Sql => SQL,
        Language::Yaml => YAML,
        Language::Json => JSON,
        Language::Toml => TOML,
        Language::Markdown => MARKDOWN,
        _ => return None,
    })
}

/// Node kinds that never contain a definition the queries capture, in every
/// language; the definition walk does not descend into them.
const COMMON_OPAQUE: &[&str] = &[
    "comment",
    "line_comment",
    "block_comment",
    "string",
    "string_literal",
    "string_content",
    "interpreted_string_literal",
    "raw_string_literal",
    "template_string",
    "heredoc_body",
    "regex",
];

const PY_OPAQUE: &[&str] = &[
    "expression_statement",
    "return_statement",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "assert_statement",
    "raise_statement",
    "delete_statement",
    "global_statement",
    "nonlocal_statement",
    "print_statement",
    "exec_statement",
    "type_alias_statement",
    "decorator",
    "parameters",
    "argument_list",
    "call",
    "lambda",
    "attribute",
    "subscript",
    "binary_operator",
    "boolean_operator",
    "comparison_operator",
    "conditional_expression",
    "not_operator",
    "unary_operator",
    "list",
    "tuple",
    "dictionary",
    "set",
    "list_comprehension",
    "dictionary_comprehension",
    "set_comprehension",
    "generator_expression",
    "parenthesized_expression",
    "concatenated_string",
];

const JS_OPAQUE: &[&str] = &[
    "import_statement",
    "jsx_element",
    "jsx_self_closing_element",
    "binary_expression",
    "type_annotation",
    "type_arguments",
    "formal_parameters",
];

const GO_OPAQUE: &[&str] = &[
    "import_declaration",
    "package_clause",
    "call_expression",
    "argument_list",
    "binary_expression",
    "selector_expression",
    "composite_literal",
    "expression_list",
    "parameter_list",
    "index_expression",
];

const RUST_OPAQUE: &[&str] = &[
    "use_declaration",
    "const_item",
    "static_item",
    "array_expression",
    "tuple_expression",
    "struct_expression",
    "attribute_item",
    "inner_attribute_item",
    "token_tree",
    "macro_invocation",
    "call_expression",
    "arguments",
    "binary_expression",
    "field_expression",
    "parameters",
    "let_declaration",
    "type_arguments",
];

const JAVA_OPAQUE: &[&str] = &[
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

const C_OPAQUE: &[&str] = &[
    "preproc_include",
    "call_expression",
    "argument_list",
    "binary_expression",
    "initializer_list",
    "parameter_list",
    "field_expression",
    "subscript_expression",
    "condition_clause",
    "template_argument_list",
    "concatenated_string",
];

const CSHARP_OPAQUE: &[&str] = &[
    "using_directive",
    "initializer_expression",
    "invocation_expression",
    "argument_list",
    "binary_expression",
    "member_access_expression",
    "parameter_list",
    "attribute_list",
    "local_declaration_statement",
];

const RUBY_OPAQUE: &[&str] = &["argument_list", "binary", "heredoc_beginning"];

const PHP_OPAQUE: &[&str] = &[
    "namespace_use_declaration",
    "function_call_expression",
    "arguments",
    "binary_expression",
    "formal_parameters",
    "attribute_list",
    "encapsed_string",
    "text",
];

const KOTLIN_OPAQUE: &[&str] = &[
    "import",
    "package_header",
    "additive_expression",
    "multiplicative_expression",
    "comparison_expression",
    "equality_expression",
    "conjunction_expression",
    "disjunction_expression",
];

const SCALA_OPAQUE: &[&str] = &["import_declaration", "package_clause", "interpolated_string_expression"];

const SWIFT_OPAQUE: &[&str] = &[
    "import_declaration",
    "line_string_literal",
    "multi_line_string_literal",
    "additive_expression",
    "multiplicative_expression",
    "comparison_expression",
    "equality_expression",
    "conjunction_expression",
    "disjunction_expression",
];

const LUA_OPAQUE: &[&str] = &["binary_expression"];

const BASH_OPAQUE: &[&str] = &[
    "command",
    "pipeline",
    "raw_string",
    "variable_assignment",
    "test_command",
    "expansion",
    "simple_expansion",
    "command_substitution",
];

const SQL_OPAQUE: &[&str] = &[
    "select",
    "from",
    "where",
    "insert",
    "update",
    "delete",
    "column_definitions",
    "create_query",
    "function_body",
    "list",
    "subquery",
    "binary_expression",
    "invocation",
];

const MARKDOWN_OPAQUE: &[&str] = &[
    "paragraph",
    "fenced_code_block",
    "indented_code_block",
    "list",
    "block_quote",
    "html_block",
    "pipe_table",
    "link_reference_definition",
];

/// Kinds the definition walk of `lang` does not descend into, on top of
/// [`COMMON_OPAQUE`]. Listing a kind here is only an optimisation: a kind
/// that can hold a definition must not be listed, and the fixture tests
/// check that every expected definition is still found.
fn opaque(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Python => PY_OPAQUE,
        Language::JavaScript | Language::TypeScript | Language::Tsx => JS_OPAQUE,
        Language::Go => GO_OPAQUE,
        Language::Rust => RUST_OPAQUE,
        Language::Java => JAVA_OPAQUE,
        Language::C | Language::Cpp => C_OPAQUE,
        Language::CSharp => CSHARP_OPAQUE,
        Language::Ruby => RUBY_OPAQUE,
        Language::Php => PHP_OPAQUE,
        Language::Kotlin => KOTLIN_OPAQUE,
        Language::Scala => SCALA_OPAQUE,
        Language::Swift => SWIFT_OPAQUE,
        Language::Lua => LUA_OPAQUE,
        Language::Bash => BASH_OPAQUE,
        Language::Sql => SQL_OPAQUE,
        Language::Markdown => MARKDOWN_OPAQUE,
        _ => &[],
    }
}

/// Whether every pattern of `lang` is rooted at the root node, so that one
/// query run from the root finds everything (data files and HCL).
fn root_only(lang: Language) -> bool {
    matches!(lang, Language::Hcl | Language::Yaml | Language::Json | Language::Toml)
}

/// A compiled definition query, the role of each of its captures, and the
/// node kinds that drive the definition walk.
pub(crate) struct Compiled {
    pub(crate) query: Query,
    pub(crate) roles: Vec<Role>,
    /// Run the query once from the root instead of walking.
    pub(crate) root_only: bool,
    /// By node kind id: a pattern is rooted at this kind.
    pub(crate) candidate: Vec<bool>,
    /// By node kind id: the walk does not descend into this kind.
    pub(crate) opaque: Vec<bool>,
}

/// One lazily compiled query per language, indexed like [`Language::all`].
static COMPILED: [OnceLock<Option<Compiled>>; Language::COUNT] = [const { OnceLock::new() }; Language::COUNT];

/// The compiled definition query of `lang`, built on first use and shared by
/// all threads afterwards.
pub(crate) fn compiled(lang: Language) -> Option<&'static Compiled> {
    COMPILED.get(lang.index())?.get_or_init(|| compile(lang)).as_ref()
}

/// The root node kind of every pattern: each pattern is one line starting
/// with `(kind`.
fn root_kinds(source: &str) -> Vec<&str> {
    source.lines().filter_map(|line| line.strip_prefix('(')).filter_map(|rest| rest.split([' ', ')']).next()).collect()
}

/// Compiles the query of `lang`.
///
/// # Panics
///
/// Panics if a query in this file does not compile against its grammar. The
/// queries are constants, and `every_query_compiles` in the tests checks each
/// one, so this cannot be triggered by input.
fn compile(lang: Language) -> Option<Compiled> {
    let source = query_source(lang)?;
    let grammar = lang.grammar()?;
    let query =
        Query::new(&grammar, source).unwrap_or_else(|e| panic!("the {lang} definition query must compile: {e}"));
    let roles = query
        .capture_names()
        .iter()
        .map(|name| match *name {
            "name" => Role::Name,
            "body" => Role::Body,
            "receiver" => Role::Receiver,
            other => CapKind::from_capture(other).map_or(Role::Ignore, Role::Def),
        })
        .collect();
    let roots = root_kinds(source);
    let opaque_kinds = opaque(lang);
    let count = grammar.node_kind_count();
    let mut candidate = vec![false; count];
    let mut opaque_ids = vec![false; count];
    // Node kind ids fit in u16 by construction of tree-sitter grammars.
    for id in 0..u16::try_from(count).unwrap_or(u16::MAX) {
        let Some(kind) = grammar.node_kind_for_id(id) else {
            continue;
        };
        let named = grammar.node_kind_is_named(id);
        candidate[usize::from(id)] = named && roots.contains(&kind);
        opaque_ids[usize::from(id)] = named && (COMMON_OPAQUE.contains(&kind) || opaque_kinds.contains(&kind));
    }
    Some(Compiled { query, roles, root_only: root_only(lang), candidate, opaque: opaque_ids })
}
