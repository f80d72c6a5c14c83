//! YAML: detection, grammar, top-level keys, graph facts of docker-compose files and GitHub
//! workflows and actions, and resolution of compose `extends` and local `uses:`.

use super::prelude::*;

/// What cocosearch knows about Yaml.
pub(crate) const SPEC: Spec = Spec {
    name: "yaml",
    aliases: &["yml"],
    extensions: &["yaml", "yml"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: &[],
        root_only: true,
        name: Some(data_key),
    }),
    graph: GraphRules::Whole(yaml),
    resolve: Some(resolve),
    sections: Sections::of("document"),
    role: Role::Config,
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_yaml::LANGUAGE.into()
}

const QUERY: &str = r#"
(stream (document (block_node (block_mapping (block_mapping_pair key: (_) @name) @variable))))
(stream (document (flow_node (flow_mapping (flow_pair key: (_) @name) @variable))))
"#;

/// A YAML value, as much of it as the rules need.
enum Yaml {
    Map(Vec<Pair>),
    Seq(Vec<Yaml>),
    /// A scalar, its line and byte offset.
    Scalar(String, u32, usize),
    Other,
}

/// A mapping entry: the key, where the key is (line, byte offset), and the value.
struct Pair {
    key: String,
    line: u32,
    at: usize,
    value: Yaml,
}

impl Yaml {
    fn get(&self, key: &str) -> Option<&Yaml> {
        self.pairs().iter().find(|p| p.key == key).map(|p| &p.value)
    }

    fn pairs(&self) -> &[Pair] {
        match self {
            Yaml::Map(pairs) => pairs,
            _ => &[],
        }
    }

    /// The scalars of a scalar or a sequence of scalars, or the keys of a mapping (a
    /// `depends_on:` may be any of the three), with their lines and byte offsets.
    fn names(&self) -> Vec<(&str, u32, usize)> {
        match self {
            Yaml::Scalar(s, line, at) => vec![(s.as_str(), *line, *at)],
            Yaml::Seq(items) => items.iter().flat_map(Yaml::names).collect(),
            Yaml::Map(pairs) => pairs.iter().map(|p| (p.key.as_str(), p.line, p.at)).collect(),
            Yaml::Other => Vec::new(),
        }
    }
}

/// Converts a YAML node, to a bounded depth.
fn value(node: Node<'_>, src: &str, depth: usize) -> Yaml {
    if depth > 32 {
        return Yaml::Other;
    }
    match node.kind() {
        "block_node" | "flow_node" => named_children(node)
            .into_iter()
            .find(|c| !matches!(c.kind(), "anchor" | "tag" | "comment"))
            .map_or(Yaml::Other, |c| value(c, src, depth + 1)),
        "block_mapping" | "flow_mapping" => Yaml::Map(
            named_children(node)
                .into_iter()
                .filter(|p| matches!(p.kind(), "block_mapping_pair" | "flow_pair"))
                .filter_map(|p| {
                    let key = p.child_by_field_name("key")?;
                    let value = p.child_by_field_name("value").map_or(Yaml::Other, |v| value(v, src, depth + 1));
                    Some(Pair {
                        key: unquote(text(key, src)).to_string(),
                        line: line_of(key),
                        at: key.start_byte(),
                        value,
                    })
                })
                .collect(),
        ),
        "block_sequence" => Yaml::Seq(
            named_children(node)
                .into_iter()
                .filter_map(|item| item.named_child(0))
                .map(|v| value(v, src, depth + 1))
                .collect(),
        ),
        "flow_sequence" => Yaml::Seq(named_children(node).into_iter().map(|v| value(v, src, depth + 1)).collect()),
        "plain_scalar" | "double_quote_scalar" | "single_quote_scalar" => {
            Yaml::Scalar(unquote(text(node, src)).to_string(), line_of(node), node.start_byte())
        }
        _ => Yaml::Other,
    }
}

fn yaml(root: Node<'_>, src: &str, f: &mut Found) {
    for document in named_children(root).into_iter().filter(|d| d.kind() == "document") {
        let Some(top) = named_children(document).into_iter().find(|c| matches!(c.kind(), "block_node" | "flow_node"))
        else {
            continue;
        };
        let top = value(top, src, 0);
        if let Some(services) = top.get("services") {
            compose(services, f);
        }
        if let Some(jobs) = top.get("jobs") {
            for Pair { key: job, value: body, .. } in jobs.pairs() {
                uses(body.get("uses"), f);
                for step in steps(body) {
                    uses(step.get("uses"), f);
                }
                if let Some(needs) = body.get("needs") {
                    for (name, line, at) in needs.names() {
                        f.reference_by(RefKind::DependsOn, name, job, line, at);
                    }
                }
            }
        }
        if let Some(runs) = top.get("runs") {
            for step in steps(runs) {
                uses(step.get("uses"), f);
            }
        }
    }
}

fn steps(body: &Yaml) -> &[Yaml] {
    match body.get("steps") {
        Some(Yaml::Seq(items)) => items,
        _ => &[],
    }
}

/// A workflow or step `uses:` value.
fn uses(value: Option<&Yaml>, f: &mut Found) {
    if let Some(Yaml::Scalar(spec, line, _)) = value {
        f.import(ImportKind::Uses, spec, None, None, *line);
    }
}

/// docker-compose services: `depends_on` and `extends`.
fn compose(services: &Yaml, f: &mut Found) {
    for Pair { key: service, value: body, .. } in services.pairs() {
        if let Some(deps) = body.get("depends_on") {
            for (name, line, at) in deps.names() {
                f.reference_by(RefKind::DependsOn, name, service, line, at);
            }
        }
        match body.get("extends") {
            Some(Yaml::Scalar(base, line, at)) => f.reference_by(RefKind::Extends, base, service, *line, *at),
            Some(map @ Yaml::Map(_)) => {
                let base = match map.get("service") {
                    Some(Yaml::Scalar(s, line, at)) => Some((s.as_str(), *line, *at)),
                    _ => None,
                };
                match (map.get("file"), base) {
                    (Some(Yaml::Scalar(file, line, _)), base) => {
                        f.import(ImportKind::Extends, file, base.map(|b| b.0), None, *line)
                    }
                    (_, Some((base, line, at))) => f.reference_by(RefKind::Extends, base, service, line, at),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// Keys are named without their quotes; the signature is the key's first line.
pub(super) fn data_key(_raw: &Raw<'_>, _src: &str, mut named: Named) -> Option<Named> {
    named.name = strip_quotes(&named.name).to_string();
    named.first_line_signature = true;
    Some(named)
}

/// A path relative to the importing file (a compose `extends` file).
pub(super) fn relative_file(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    match join_path(dir_of(from), spec).filter(|path| p.exists(path)) {
        Some(found) => (Some(found), Resolution::Exact),
        None => (None, Resolution::Missing),
    }
}

/// A GitHub Actions `uses:`: `./path` is relative to the repository root (a reusable
/// workflow file, or an action's directory with its `action.yml`).
pub(super) fn action(p: &dyn ProjectFiles, spec: &str) -> Resolved {
    let Some(local) = spec.strip_prefix("./") else { return (None, Resolution::External) };
    let Some(path) = join_path("", local) else { return (None, Resolution::Missing) };
    let slash = if path.is_empty() { "" } else { "/" };
    match p.first([path.clone(), format!("{path}{slash}action.yml"), format!("{path}{slash}action.yaml")]) {
        Some(found) => (Some(found), Resolution::Exact),
        None => (None, Resolution::Missing),
    }
}

/// Resolves a compose `extends` file or a workflow's `uses:`.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    match import.kind {
        ImportKind::Extends => relative_file(p, from, import.spec.trim()),
        ImportKind::Uses => action(p, import.spec.trim()),
        _ => (None, Resolution::External),
    }
}
