//! Markdown: detection, grammar (block level only), sections named by heading, links to
//! files as graph facts, and their resolution.

use super::prelude::*;

/// What cocosearch knows about Markdown.
pub(crate) const SPEC: Spec = Spec {
    name: "markdown",
    aliases: &["md"],
    extensions: &["md", "markdown", "mkd", "mdown"],
    grammar: Some(grammar),
    symbols: Symbols::Query(DefinitionQuery {
        source: QUERY,
        wrappers: &[],
        opaque: OPAQUE,
        root_only: false,
        name: Some(name_heading),
    }),
    separator: " > ",
    graph: GraphRules::Whole(markdown),
    resolve: Some(resolve),
    role: Role::Prose,
    sections: Sections::of("section"),
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    tree_sitter_md::LANGUAGE.into()
}

const QUERY: &str = r#"
(section [(atx_heading) (setext_heading)] @name) @heading
"#;

const OPAQUE: &[&str] = &[
    "paragraph",
    "fenced_code_block",
    "indented_code_block",
    "list",
    "block_quote",
    "html_block",
    "pipe_table",
    "link_reference_definition",
];

/// Markdown sections are named by their heading text; the signature is the
/// heading in ATX form (`## Usage`), also for setext headings.
fn name_heading(raw: &Raw<'_>, src: &str, mut named: Named) -> Option<Named> {
    let heading = raw.name?;
    let content = heading.child_by_field_name("heading_content").map(|n| node_text(n, src)).unwrap_or("");
    let mut level = 1;
    let mut cursor = heading.walk();
    for child in heading.children(&mut cursor) {
        let kind = child.kind();
        if let Some(n) = kind
            .strip_prefix("atx_h")
            .and_then(|rest| rest.strip_suffix("_marker"))
            .and_then(|n| n.parse::<usize>().ok())
        {
            level = n;
        } else if kind == "setext_h2_underline" {
            level = 2;
        }
    }
    let name = content.trim().trim_end_matches('#').split_whitespace().collect::<Vec<_>>().join(" ");
    named.signature = Some(chunk_text::signature(&format!("{} {name}", "#".repeat(level))));
    named.name = name;
    Some(named)
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

/// A Markdown link: a file or directory, relative to the document (or the root for
/// `/path`).
pub(super) fn link(p: &dyn ProjectFiles, from: &str, spec: &str) -> Resolved {
    let path = match spec.strip_prefix('/') {
        Some(rooted) => join_path("", rooted),
        None => join_path(dir_of(from), spec),
    };
    match path {
        Some(path) if p.exists(&path) => (Some(path), Resolution::Exact),
        Some(path) if !path.is_empty() && p.is_dir(path.trim_end_matches('/')) => {
            (Some(format!("{}/", path.trim_end_matches('/'))), Resolution::Exact)
        }
        _ => (None, Resolution::Missing),
    }
}

/// Resolves a link to a file.
fn resolve(p: &dyn ProjectFiles, from: &str, import: &Import) -> Resolved {
    match import.kind {
        ImportKind::Link => link(p, from, import.spec.trim()),
        _ => (None, Resolution::External),
    }
}
