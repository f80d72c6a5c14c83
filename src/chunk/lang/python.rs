//! Python: detection, grammar, definitions (module-level constants and variables), graph facts
//! (calls, decorators, bases, annotations, parameters, imports) and import resolution
//! (relative imports, the package root, `src/` and `lib/`).

use std::collections::HashSet;

use super::prelude::*;

/// What cocosearch knows about Python.
pub(crate) const SPEC: Spec = Spec {
    name: "python",
    generic_files: &["__init__.py", "__main__.py", "setup.py"],
    aliases: &["py", "python3"],
    extensions: &["py", "pyi", "pyw"],
    file_names: &["SConstruct", "SConscript"],
    interpreters: &["python", "pypy", "uv"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[wrap("decorated_definition", false, false)],
        opaque: OPAQUE,
        root_only: false,
        name: Some(constants_in_caps),
    }),
    graph: GraphRules::Walk { kinds: GRAPH_KINDS, visit },
    resolve: Some(resolve),
    names: NameRules { functions_are_values: true, ..NameRules::PLAIN },
    test_files: &["test_*.py", "*_test.py", "conftest.py"],
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_python::LANGUAGE.into()
}

const QUERY: &str = r#"
(class_definition name: (identifier) @name body: (block) @body) @class
(function_definition name: (identifier) @name body: (block) @body) @function
(module (expression_statement (assignment left: (identifier) @name)) @constant)
"#;

const OPAQUE: &[&str] = &[
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

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &[
    "call",
    "decorator",
    "class_definition",
    "function_definition",
    "lambda",
    "type",
    "import_statement",
    "import_from_statement",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    match node.kind() {
        "call" => {
            // A decorator's call is recorded as the decorator.
            if at.up_kind(0) == "decorator" {
                return;
            }
            if let Some(function) = node.child_by_field_name("function") {
                callee(function, src, RefKind::Call, f);
            }
        }
        "decorator" => {
            if let Some(inner) = node.named_child(0) {
                let target = if inner.kind() == "call" { inner.child_by_field_name("function") } else { Some(inner) };
                if let Some(target) = target {
                    callee(target, src, RefKind::Decorator, f);
                }
            }
        }
        "class_definition" => {
            if let Some(list) = node.child_by_field_name("superclasses") {
                bases(named_children(list).into_iter(), list.start_byte(), src, f);
            }
        }
        "function_definition" | "lambda" => {
            if let Some(list) = node.child_by_field_name("parameters") {
                params(list, src, f);
            }
        }
        "type" => type_names(node, src, f),
        "import_statement" | "import_from_statement" => python_imports(node, src, f),
        _ => {}
    }
}

/// Every name in a type annotation (Python `type` nodes): `Optional[Session]` uses
/// `Optional` and `Session`; string annotations are left alone.
fn type_names(node: Node<'_>, src: &str, f: &mut Found) {
    let mut stack = vec![node];
    let mut budget = 256;
    while let Some(n) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return;
        }
        match n.kind() {
            "identifier" => f.reference(RefKind::Type, text(n, src), None, n),
            "attribute" => callee(n, src, RefKind::Type, f),
            "string" => {}
            _ => stack.extend(named_children(n).into_iter().rev()),
        }
    }
}

/// Top-level assignments are constants when named in capitals (`MAX_SIZE`), else module-level
/// variables (`g = LocalProxy(...)`): both are definitions people look up by name.
pub(super) fn constants_in_caps(raw: &Raw<'_>, _src: &str, named: Named) -> Option<Named> {
    if raw.kind == SymbolKind::Constant && !is_constant_case(&named.name) {
        return Some(Named { kind: SymbolKind::Variable, ..named });
    }
    Some(named)
}

/// `import a.b as c, d` and `from ..m import x as y, z` / `from . import *`.
fn python_imports(node: Node<'_>, src: &str, f: &mut Found) {
    let line = line_of(node);
    let split = |n: Node<'_>| -> (String, Option<String>) {
        match n.kind() {
            "aliased_import" => (
                n.child_by_field_name("name").map(|m| text(m, src).to_string()).unwrap_or_default(),
                n.child_by_field_name("alias").map(|a| text(a, src).to_string()),
            ),
            _ => (text(n, src).to_string(), None),
        }
    };
    if node.kind() == "import_statement" {
        for n in field_children(node, "name") {
            let (module, alias) = split(n);
            f.import(ImportKind::Import, &module, None, alias.as_deref(), line);
        }
        return;
    }
    let Some(module) = node.child_by_field_name("module_name") else { return };
    let module: String = text(module, src).split_whitespace().collect();
    let names = field_children(node, "name");
    if names.is_empty() {
        let wildcard = named_children(node).iter().any(|c| c.kind() == "wildcard_import");
        f.import(ImportKind::Import, &module, wildcard.then_some("*"), None, line);
        return;
    }
    for n in names {
        let (name, alias) = split(n);
        f.import(ImportKind::Import, &module, Some(&name), alias.as_deref(), line);
    }
}

/// Resolves an import of a Python file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    let (spec, name) = (import.spec.trim(), import.name.as_deref());
    match import.kind {
        ImportKind::Import => python(p, from, spec, name),
        _ => (None, Resolution::External),
    }
}

/// The directory of Python's `sys.path` entry for `from`: the parent of the topmost
/// package (directory with `__init__.py`) holding it, or its own directory for a script.
pub(super) fn python_root(p: &dyn ProjectFiles, from: &str) -> String {
    let mut dir = dir_of(from).to_string();
    while !dir.is_empty() && p.exists(&format!("{dir}/__init__.py")) {
        dir = dir_of(&dir).to_string();
    }
    dir
}

pub(super) fn python(p: &dyn ProjectFiles, from: &str, spec: &str, name: Option<&str>) -> Resolved {
    let module_files = |module: &str| -> Vec<String> {
        let prefix = if module.is_empty() { String::new() } else { format!("{module}/") };
        let mut c = Vec::new();
        if !module.is_empty() {
            c.push(format!("{module}.py"));
            c.push(format!("{module}.pyi"));
        }
        c.push(format!("{prefix}__init__.py"));
        c.push(format!("{prefix}__init__.pyi"));
        c
    };
    // `from m import name` imports the submodule `m.name` when there is one, else `m`.
    let candidates = |module: &str| -> Vec<String> {
        let mut c = Vec::new();
        if let Some(n) = name.filter(|n| *n != "*") {
            let sub = if module.is_empty() { n.to_string() } else { format!("{module}/{n}") };
            c.push(format!("{sub}.py"));
            c.push(format!("{sub}.pyi"));
            c.push(format!("{sub}/__init__.py"));
        }
        c.extend(module_files(module));
        c
    };
    if spec.starts_with('.') {
        let level = spec.chars().take_while(|c| *c == '.').count();
        let rest = spec[level..].replace('.', "/");
        let mut base = Some(dir_of(from).to_string());
        for _ in 1..level {
            base = base.and_then(|b| if b.is_empty() { None } else { Some(dir_of(&b).to_string()) });
        }
        let Some(base) = base else { return (None, Resolution::Missing) };
        let module = if rest.is_empty() { base } else { join_path(&base, &rest).unwrap_or_default() };
        return match p.first(candidates(&module)) {
            Some(found) => (Some(found), Resolution::Exact),
            None => (None, Resolution::Missing),
        };
    }
    let rel = spec.replace('.', "/");
    let mut roots = vec![python_root(p, from)];
    // A standard library name (`typing`) is the standard library unless the importing file's
    // own package root holds it (a project that is the standard library, CPython's `Lib/`): a
    // `typing.py` elsewhere in the project is another module that happens to share the name.
    let stdlib = super::python_stdlib::is_stdlib(spec.split('.').next().unwrap_or(spec));
    if !stdlib {
        roots.push(String::new());
        for extra in ["src", "lib"] {
            if p.is_dir(extra) {
                roots.push(extra.to_string());
            }
        }
    }
    let mut seen = HashSet::new();
    for root in roots.into_iter().filter(|r| seen.insert(r.clone())) {
        let module = if root.is_empty() { rel.clone() } else { format!("{root}/{rel}") };
        if let Some(found) = p.first(candidates(&module)) {
            return (Some(found), Resolution::Exact);
        }
    }
    if stdlib {
        return (None, Resolution::External);
    }
    for file in [format!("{rel}.py"), format!("{rel}/__init__.py")] {
        if let Some(found) = p.suffix(&file) {
            return (Some(found), Resolution::Heuristic);
        }
    }
    (None, Resolution::External)
}
