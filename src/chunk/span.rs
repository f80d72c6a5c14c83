//! Smart context for search hits: the enclosing definition of a line range.
//!
//! A hit that is one piece of a split class or function reads better as the whole definition,
//! when that is short enough. This parses the file and finds the smallest
//! function/method/class-like node containing the range. Search uses it only for languages
//! without symbol extraction; for the others the definition spans recorded at indexing answer
//! without a parse.

use std::path::Path;

use super::Language;

/// Words that mark a tree-sitter node kind as a definition in the grammars we ship
/// (`function_definition`, `method_declaration`, `impl_item`, `class_specifier`, ...).
const DEFINITION_WORDS: &[&str] = &[
    "function",
    "method",
    "class",
    "impl",
    "struct",
    "enum",
    "interface",
    "trait",
    "constructor",
    "definition",
    "declaration",
    "block",
    "module",
];

/// Kinds that contain a definition word but are not definitions.
const NOT_DEFINITIONS: &[&str] = &[
    "block",
    "statement_block",
    "declaration_list",
    "field_declaration",
    "variable_declaration",
    "lexical_declaration",
    "source_file",
    "program",
    "module",
    "translation_unit",
    "compilation_unit",
];

/// The 1-based line range of the smallest definition enclosing lines `start..=end` of
/// `source`, if it is larger than the range and at most `max_lines` long.
pub fn definition_span(path: &Path, source: &str, start: u32, end: u32, max_lines: usize) -> Option<(u32, u32)> {
    let head = source.lines().next().unwrap_or_default();
    let grammar = Language::detect(path, head)?.grammar()?;
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar).ok()?;
    let tree = parser.parse(source, None)?;
    // The range's text without the indentation before it and the newline after it, so the
    // smallest node containing it is the code itself, not its parent block.
    let line_start = line_offset(source, start)?;
    let line_end = line_offset(source, end + 1).unwrap_or(source.len());
    let text = source.get(line_start..line_end)?;
    let start_byte = line_start + (text.len() - text.trim_start().len());
    let end_byte = (line_start + text.trim_end().len()).max(start_byte);
    let mut node = tree.root_node().descendant_for_byte_range(start_byte, end_byte)?;
    loop {
        let (s, e) = (node.start_position().row as u32 + 1, node.end_position().row as u32 + 1);
        let kind = node.kind();
        let is_definition =
            DEFINITION_WORDS.iter().any(|w| kind.contains(w)) && !NOT_DEFINITIONS.contains(&kind) && node.is_named();
        if is_definition && s <= start && e >= end {
            if (e - s + 1) as usize > max_lines {
                return None;
            }
            return ((s, e) != (start, end)).then_some((s, e));
        }
        node = node.parent()?;
    }
}

/// Byte offset of the start of 1-based `line`, or `None` past the end.
fn line_offset(source: &str, line: u32) -> Option<usize> {
    if line <= 1 {
        return Some(0);
    }
    source.match_indices('\n').nth(line as usize - 2).map(|(i, _)| i + 1).filter(|&i| i <= source.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "class A:\n    def f(self):\n        x = 1\n        y = 2\n        return x + y\n\n    def g(self):\n        pass\n";

    #[test]
    fn expands_to_the_enclosing_method_within_the_cap() {
        let path = Path::new("a.py");
        assert_eq!(definition_span(path, SRC, 3, 4, 50), Some((2, 5)));
        assert_eq!(definition_span(path, SRC, 2, 5, 50), None, "a whole method is already a definition");
        assert_eq!(definition_span(path, SRC, 4, 7, 50), Some((1, 8)), "two methods' pieces: their class");
        assert_eq!(definition_span(path, SRC, 3, 4, 3), None, "the method is over the cap");
        assert_eq!(definition_span(Path::new("notes.txt"), SRC, 3, 4, 50), None);
    }
}
