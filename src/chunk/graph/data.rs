//! Provides the graph facts of configuration and documentation files: Terraform module
//! sources and value references, Dockerfile images and stages, docker-compose
//! `depends_on`/`extends`, GitHub Actions `uses:`/`needs:` and Markdown links.
//!
//! YAML files are recognised by what they hold, not by their names (`chunk` never sees a
//! path): a top-level `services:` is a compose file, `jobs:` a workflow, `runs:` an action.

use tree_sitter::Node;

use super::{Found, ImportKind, RefKind, line_of, text, unquote};
use crate::chunk::Language;

/// Records the graph facts of a file in `lang` (HCL, Dockerfile, YAML or Markdown).
pub(super) fn extract(lang: Language, root: Node<'_>, src: &str, f: &mut Found) {
    match lang {
        Language::Hcl => hcl(root, src, f),
        Language::Dockerfile => dockerfile(root, src, f),
        Language::Yaml => yaml(root, src, f),
        Language::Markdown => markdown(root, src, f),
        _ => {}
    }
}

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// Every node under `root`, depth first, skipping the subtrees `skip` refuses.
fn walk<'t>(root: Node<'t>, skip: impl Fn(Node<'t>) -> bool, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        visit(node);
        if !skip(node) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

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

/// Dockerfile: `FROM image` and `COPY --from=image` import an image, unless they name a
/// stage defined above, which makes them a reference to that stage.
fn dockerfile(root: Node<'_>, src: &str, f: &mut Found) {
    let mut stages: Vec<String> = Vec::new();
    let use_image = |written: &str, node: Node<'_>, stages: &[String], f: &mut Found| {
        let written = written.trim();
        let bare = written.split([':', '@']).next().unwrap_or(written);
        if stages.iter().any(|s| s.eq_ignore_ascii_case(written)) {
            f.reference(RefKind::Stage, written, None, node);
        } else if !written.is_empty() && !bare.eq_ignore_ascii_case("scratch") && !written.contains('$') {
            f.import(ImportKind::Image, written, None, None, line_of(node));
        }
    };
    for node in named_children(root) {
        match node.kind() {
            "from_instruction" => {
                let children = named_children(node);
                if let Some(image) = children.iter().find(|c| c.kind() == "image_spec") {
                    use_image(text(*image, src), *image, &stages, f);
                }
                if let Some(alias) = children.iter().find(|c| c.kind() == "image_alias") {
                    stages.push(text(*alias, src).trim().to_string());
                }
            }
            "copy_instruction" => {
                for param in named_children(node).into_iter().filter(|c| c.kind() == "param") {
                    let written = text(param, src);
                    let Some(from) = written.strip_prefix("--from=") else { continue };
                    // A stage index (`--from=0`) names a stage by position.
                    if from.chars().all(|c| c.is_ascii_digit()) {
                        continue;
                    }
                    use_image(from, param, &stages, f);
                }
            }
            _ => {}
        }
    }
}

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

/// Markdown: links to files, inline (`[t](path)`, `![alt](img.png)`) or by reference
/// (`[t]: path`), outside code blocks. Web links, mail links and anchors are not files.
fn markdown(root: Node<'_>, src: &str, f: &mut Found) {
    let opaque = |n: Node<'_>| matches!(n.kind(), "fenced_code_block" | "indented_code_block" | "html_block");
    walk(root, opaque, |node| {
        if !matches!(node.kind(), "inline" | "link_reference_definition" | "pipe_table_cell") {
            return;
        }
        let base_line = line_of(node);
        let body = text(node, src);
        for (offset, target) in links(body) {
            if let Some(path) = file_target(target) {
                let line = base_line + body[..offset].matches('\n').count() as u32;
                f.import(ImportKind::Link, &path, None, None, line);
            }
        }
    });
}

/// The link targets in a piece of Markdown text, with the byte offset of each, outside
/// inline code spans.
fn links(body: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                // Skip a code span: up to the same run of backticks.
                let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
                let fence = &body[i..i + run];
                i += run;
                if let Some(end) = body[i..].find(fence) {
                    i += end + run;
                }
                line_start = false;
                continue;
            }
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                let start = i + 2;
                if let Some((target, end)) = inline_target(&body[start..]) {
                    out.push((start, target));
                    i = start + end;
                    continue;
                }
            }
            b'[' if line_start => {
                // A reference definition: `[label]: target`.
                if let Some(close) = body[i..].find("]:") {
                    let label = &body[i + 1..i + close];
                    if !label.contains('\n') && !label.is_empty() {
                        let rest = &body[i + close + 2..];
                        let trimmed = rest.trim_start_matches([' ', '\t']);
                        let skipped = rest.len() - trimmed.len();
                        let target = trimmed.split_whitespace().next().unwrap_or("");
                        let target = target.trim_start_matches('<').trim_end_matches('>');
                        if !target.is_empty() {
                            out.push((i + close + 2 + skipped, target));
                        }
                    }
                }
            }
            _ => {}
        }
        line_start = bytes[i] == b'\n' || (line_start && matches!(bytes[i], b' ' | b'\t'));
        i += 1;
    }
    out
}

/// The destination of an inline link starting right after `](`, and where the link ends.
fn inline_target(rest: &str) -> Option<(&str, usize)> {
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let lead = rest.len() - trimmed.len();
    if let Some(inner) = trimmed.strip_prefix('<') {
        let end = inner.find('>')?;
        return Some((&inner[..end], lead + end + 2));
    }
    let mut depth = 0usize;
    for (i, c) in trimmed.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some((&trimmed[..i], lead + i + 1)),
            ')' => depth -= 1,
            ' ' | '\t' | '\n' => {
                // A title follows; the destination ends here.
                let close = trimmed[i..].find(')')?;
                return Some((&trimmed[..i], lead + i + close + 1));
            }
            _ => {}
        }
    }
    None
}

/// The file a link destination names, without its fragment and query, or `None` for web
/// links, mail links, anchors and templates.
fn file_target(target: &str) -> Option<String> {
    let target = target.trim();
    if target.is_empty() || target.starts_with('#') || target.starts_with("//") || target.contains("{{") {
        return None;
    }
    let scheme = target.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    });
    if scheme {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() {
        return None;
    }
    Some(percent_decode(path))
}

/// Decodes `%20`-style escapes (as link destinations write spaces); anything malformed is
/// kept as written.
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}
