//! Dockerfile: detection (also `Dockerfile.*`), grammar, stages and instructions (found by
//! walking the instructions, not by query), and graph facts (images, stage references).

use super::prelude::*;

/// What cocosearch knows about Dockerfile.
pub(crate) const SPEC: Spec = Spec {
    name: "dockerfile",
    aliases: &["docker", "containerfile"],
    extensions: &["dockerfile", "containerfile"],
    file_names: &["Dockerfile", "Containerfile"],
    name_prefixes: &["dockerfile", "containerfile"],
    grammar: Some(grammar),
    symbols: Symbols::Walk(dockerfile),
    graph: GraphRules::Whole(dockerfile_graph),
    sections: Sections::of("from_instruction"),
    ..Spec::PLAIN
};

fn grammar() -> tree_sitter::Language {
    arborium_dockerfile::language().into()
}

/// Dockerfile stages run from one `FROM` to the next; every other
/// instruction is an `instruction` symbol inside its stage.
fn dockerfile(root: Node<'_>, src: &str) -> Vec<Pending> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let instructions: Vec<Node<'_>> =
        root.named_children(&mut cursor).filter(|n| n.kind().ends_with("_instruction")).collect();
    for (i, node) in instructions.iter().enumerate() {
        let first_line = node_text(*node, src).lines().next().unwrap_or("");
        let signature = chunk_text::signature(first_line.trim_end_matches('\\'));
        if node.kind() == "from_instruction" {
            let name = node
                .child_by_field_name("as")
                .or_else(|| {
                    let mut c = node.walk();
                    node.named_children(&mut c).find(|n| n.kind() == "image_alias")
                })
                .or_else(|| {
                    let mut c = node.walk();
                    node.named_children(&mut c).find(|n| n.kind() == "image_spec")
                })
                .map(|n| node_text(n, src).trim().to_string())
                .unwrap_or_default();
            let end = instructions[i + 1..]
                .iter()
                .take_while(|n| n.kind() != "from_instruction")
                .last()
                .map_or(node.end_byte(), |n| n.end_byte());
            out.push(Pending {
                outer: node.start_byte()..end,
                decl_start: node.start_byte(),
                kind: SymbolKind::Stage,
                name,
                signature,
                scope: None,
                fixed: None,
                qualifies: true,
            });
            continue;
        }
        let keyword = first_line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        if keyword.is_empty() {
            continue;
        }
        out.push(Pending {
            outer: node.start_byte()..node.end_byte(),
            decl_start: node.start_byte(),
            kind: SymbolKind::Instruction,
            name: keyword,
            signature,
            scope: None,
            fixed: None,
            qualifies: false,
        });
    }
    out
}

/// Dockerfile: `FROM image` and `COPY --from=image` import an image, unless they name a
/// stage defined above, which makes them a reference to that stage.
fn dockerfile_graph(root: Node<'_>, src: &str, f: &mut Found) {
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
