//! Provides Kotlin's source preparation for constructs newer than the
//! grammar (tree-sitter-kotlin-ng 1.1) or that its recovery cannot place:
//!
//! * guard conditions in `when`, `is X if cond ->` (Kotlin 2.1): the guard
//!   `if cond` is blanked, leaving the branch `is X ->` (a guard in
//!   parentheses may span lines);
//! * the soft keyword `where` used as a name (`where?.let {…}`,
//!   `val where: Op<Boolean>?`): it is parsed as the identifier `_here`;
//! * `get` or `set` called infix (`insert { … } get Table.id`): parsed as
//!   the identifier `_et`;
//! * annotation lines before a property accessor (`@OptIn(X::class)` on the
//!   line before `get() = …`) or before a `return`: they are blanked.
//!
//! Comments and string literals are never touched.

use std::borrow::Cow;

use super::blank::Blanked;

/// The text to parse: `source` with the constructs above rewritten.
pub(crate) fn prepare(source: &str) -> Cow<'_, str> {
    let bytes = source.as_bytes();
    let code = code_mask(bytes);
    let mut out = Blanked::new(source);
    rename_where_names(bytes, &code, &mut out);
    rename_infix_accessor_names(bytes, &code, &mut out);
    // Annotation lines waiting for the line they annotate.
    let mut annotations: Vec<std::ops::Range<usize>> = Vec::new();
    let mut line_start = 0;
    for line in source.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        let at = line_start + indent;
        if trimmed.starts_with("is ") || trimmed.starts_with("!is ") {
            blank_when_guard(bytes, &code, at, &mut out);
        }
        if trimmed.starts_with('@') && code[at] && !trimmed.contains("//") && !trimmed.contains("/*") {
            annotations.push(at..at + trimmed.len());
        } else if !trimmed.is_empty() {
            if takes_no_annotation(trimmed) {
                annotations.iter().for_each(|a| out.blank(a.clone()));
            }
            annotations.clear();
        }
        line_start += line.len();
    }
    out.finish()
}

/// `where` followed by `?.`, `.`, `:`, `)`, `,` or `=` is a name, not the
/// start of type constraints (which a type parameter's name follows).
fn rename_where_names(bytes: &[u8], code: &[bool], out: &mut Blanked<'_>) {
    let word = b"where";
    let mut i = 0;
    while let Some(p) = bytes[i..].windows(word.len()).position(|w| w == word) {
        let start = i + p;
        let end = start + word.len();
        i = end;
        if !code[start]
            || (start > 0 && is_ident_byte(bytes[start - 1]))
            || bytes.get(end).is_some_and(|b| is_ident_byte(*b))
        {
            continue;
        }
        let next = bytes[end..].iter().find(|b| !matches!(b, b' ' | b'\t'));
        if matches!(next, Some(b'?' | b'.' | b':' | b')' | b',' | b'=')) {
            out.overwrite(start, b"_here");
        }
    }
}

/// Words before `get` or `set` that make it a property accessor (`private set`).
const ACCESSOR_MODIFIERS: &[&[u8]] = &[
    b"private",
    b"protected",
    b"internal",
    b"public",
    b"override",
    b"open",
    b"final",
    b"abstract",
    b"inline",
    b"external",
    b"lateinit",
    b"var",
    b"val",
];

/// `get` or `set` called infix (`insert { … } get Table.id`, Exposed's idiom): after an
/// expression on the same line and before a name, it is no accessor; it is parsed as `_et`.
fn rename_infix_accessor_names(bytes: &[u8], code: &[bool], out: &mut Blanked<'_>) {
    for word in [b"get", b"set"] {
        let mut i = 0;
        while let Some(p) = bytes[i..].windows(word.len()).position(|w| w == word) {
            let start = i + p;
            let end = start + word.len();
            i = end;
            let whole =
                (start == 0 || !is_ident_byte(bytes[start - 1])) && bytes.get(end).is_none_or(|b| !is_ident_byte(*b));
            if !code[start] || !whole {
                continue;
            }
            let before = bytes[..start].iter().rposition(|b| !matches!(b, b' ' | b'\t'));
            let gap = before.is_some_and(|b| b + 1 < start);
            let after_expression =
                before.is_some_and(|b| matches!(bytes[b], b'}' | b')' | b']') || is_ident_byte(bytes[b]));
            let modifier = before.is_some_and(|b| {
                let from = bytes[..=b].iter().rposition(|c| !is_ident_byte(*c)).map_or(0, |p| p + 1);
                ACCESSOR_MODIFIERS.contains(&&bytes[from..=b])
            });
            let next = bytes[end..].iter().position(|b| !matches!(b, b' ' | b'\t')).map(|p| end + p);
            let spaced = next.is_some_and(|n| n > end);
            let names_next = next.is_some_and(|n| bytes[n].is_ascii_alphabetic() || matches!(bytes[n], b'_' | b'`'));
            if gap && after_expression && !modifier && spaced && names_next {
                out.overwrite(start, b"_et");
            }
        }
    }
}

/// A `when` branch `is X if cond ->` (or `!is X`) starting at `at`: blanks
/// the guard `if cond`, which may span lines inside parentheses.
fn blank_when_guard(bytes: &[u8], code: &[bool], at: usize, out: &mut Blanked<'_>) {
    let line_end = bytes[at..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |p| at + p);
    // The guard comes before the branch's arrow: `is X -> if (c) a else b` has none.
    let head_end = bytes[at..line_end].windows(2).position(|w| w == b"->").map_or(line_end, |p| at + p);
    let Some(guard) = bytes[at..head_end].windows(4).position(|w| w == b" if ").map(|p| at + p + 1) else {
        return;
    };
    if !code[guard] {
        return;
    }
    let limit = (guard + MAX_GUARD_BYTES).min(bytes.len());
    let mut depth = 0usize;
    let mut i = guard + 2;
    while i < limit {
        if code[i] {
            match bytes[i] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth = depth.saturating_sub(1),
                b'{' | b'}' if depth == 0 => return,
                b'-' if depth == 0 && bytes.get(i + 1) == Some(&b'>') => {
                    out.blank(guard..i);
                    return;
                }
                _ => {}
            }
        }
        i += 1;
    }
}

/// A guard longer than this is left alone.
const MAX_GUARD_BYTES: usize = 2048;

/// Whether a line starts a construct before which the grammar rejects
/// annotations: a property accessor (`get() = …`, `set(v) {…}`) or a
/// `return`.
fn takes_no_annotation(line: &str) -> bool {
    let accessor = |kw: &str| line.strip_prefix(kw).is_some_and(|rest| rest.trim_start().starts_with(['(', '=']));
    accessor("get") || accessor("set") || line == "return" || line.starts_with("return ")
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Which bytes are code: not inside a comment (`//`, nested `/* */`), a
/// string (`"…"`, `"""…"""`) or a character literal. String templates'
/// expressions count as string: nothing inside a literal is rewritten.
fn code_mask(bytes: &[u8]) -> Vec<bool> {
    let mut code = vec![true; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        i = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                bytes[i..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |p| i + p)
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => skip_block_comment(bytes, i),
            b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                let body = i + 3;
                bytes[body..].windows(3).position(|w| w == b"\"\"\"").map_or(bytes.len(), |p| {
                    // A raw string may end in more quotes: `""""` closes after the last.
                    let mut end = body + p + 3;
                    while bytes.get(end) == Some(&b'"') {
                        end += 1;
                    }
                    end
                })
            }
            b'"' => skip_quoted(bytes, i, b'"'),
            b'\'' => skip_quoted(bytes, i, b'\''),
            _ => {
                i += 1;
                continue;
            }
        };
        code[start..i].iter_mut().for_each(|c| *c = false);
    }
    code
}

/// Skips a nested block comment opened at `i`.
fn skip_block_comment(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// Skips a string or character literal opened at `i`, with escapes and
/// `${…}` templates (nested braces counted); an unterminated one ends at the
/// line break.
fn skip_quoted(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    let mut braces = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'$' if bytes.get(i + 1) == Some(&b'{') => {
                braces += 1;
                i += 2;
            }
            b'}' if braces > 0 => {
                braces -= 1;
                i += 1;
            }
            b'\n' if braces == 0 => return i,
            b if b == quote && braces == 0 => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}
