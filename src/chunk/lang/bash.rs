//! Bash and POSIX shells: detection (names, rc files, shebangs), grammar, functions, graph
//! facts (commands but the common ones, `source`) and `source` resolution.

use super::prelude::*;

/// What cocosearch knows about Bash.
pub(crate) const SPEC: Spec = Spec {
    name: "bash",
    aliases: &["shell", "sh", "zsh", "ksh"],
    extensions: &["sh", "bash", "zsh", "ksh", "bats"],
    file_names: &[
        ".bashrc",
        ".bash_profile",
        ".bash_login",
        ".bash_logout",
        ".bash_aliases",
        ".zshrc",
        ".zshenv",
        ".zprofile",
        ".zlogin",
        ".profile",
        ".envrc",
        "PKGBUILD",
    ],
    interpreters: &["bash", "sh", "zsh", "ksh", "dash", "ash", "mksh", "bats"],
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
    names: NameRules { imports_bring_all_names: true, ..NameRules::PLAIN },
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_bash::LANGUAGE.into()
}

const QUERY: &str = r#"
(function_definition name: (word) @name body: (_) @body) @function
"#;

const OPAQUE: &[&str] = &[
    "command",
    "pipeline",
    "raw_string",
    "variable_assignment",
    "test_command",
    "expansion",
    "simple_expansion",
    "command_substitution",
];

/// Node kinds whose visit records something.
const GRAPH_KINDS: &[&str] = &["command"];

/// Shell builtins and ubiquitous tools: calling them says nothing about the project.
const SHELL_COMMON: &[&str] = &[
    "echo", "printf", "cd", "test", "[", "[[", "exit", "return", "export", "local", "declare", "readonly", "set",
    "unset", "shift", "read", "true", "false", "eval", "exec", "trap", "wait", "cat", "grep", "sed", "awk", "cut",
    "tr", "sort", "uniq", "head", "tail", "ls", "mkdir", "rm", "cp", "mv", "chmod", "chown", "ln", "touch", "find",
    "xargs", "dirname", "basename", "pwd", "sleep", "command", "type", "which", "env", "getopts", "let", "wc",
];

/// Records what one visited node says.
fn visit(at: &At<'_, '_>, f: &mut Found) {
    let (node, src) = (at.node, at.src);
    let Some(name) = node.child_by_field_name("name") else { return };
    let command = text(name, src).trim();
    if command == "source" || command == "." {
        if let Some(arg) = node.child_by_field_name("argument") {
            let written = unquote(text(arg, src));
            f.import(ImportKind::Source, written, None, None, line_of(node));
        }
        return;
    }
    if !SHELL_COMMON.contains(&command) && is_path(command) {
        f.reference(RefKind::Call, command, None, name);
    }
}

pub(super) fn shell(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    // `"$(dirname "$0")/lib.sh"`, `"${BASH_SOURCE%/*}/lib.sh"`, `"$DIR/lib.sh"`: a path
    // relative to the script, most likely.
    if spec.starts_with('$') {
        let rest = spec
            .rfind(")/")
            .or_else(|| spec.rfind("}/"))
            .map(|i| &spec[i + 2..])
            .or_else(|| spec.split_once('/').map(|(_, r)| r));
        return match rest.and_then(|r| join_path(dir_of(from), r)).filter(|path| p.exists(path)) {
            Some(found) => (Some(found), Resolution::Heuristic),
            None => (None, Resolution::Missing),
        };
    }
    if spec.starts_with('/') || spec.starts_with('~') {
        return (None, Resolution::External);
    }
    if let Some(found) = join_path(dir_of(from), spec).filter(|path| p.exists(path)) {
        return (Some(found), Resolution::Exact);
    }
    match join_path("", spec).filter(|path| p.exists(path)) {
        Some(found) => (Some(found), Resolution::Heuristic),
        None => (None, Resolution::Missing),
    }
}

/// Resolves a `source` of a shell script.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    match import.kind {
        ImportKind::Source => shell(p, from, import.spec.trim()),
        _ => (None, Resolution::External),
    }
}
