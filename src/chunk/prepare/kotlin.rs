//! Provides Kotlin's source preparation for constructs newer than the
//! grammar (tree-sitter-kotlin-ng 1.1) or that its recovery cannot place:
//!
//! * definitely non-nullable types, `T & Any` (Kotlin 1.7): `& Any` is
//!   blanked, leaving the type `T`;
//! * guard conditions in `when`, `is X if cond ->` (Kotlin 2.1): the guard
//!   `if cond` is blanked, leaving the branch `is X ->`;
//! * the soft keyword `where` used as a name (`where?.let {…}`,
//!   `val where: Op<Boolean>?`): it is parsed as the identifier `_here`;
//! * annotations on a property accessor (`@OptIn(X::class)` on the line
//!   before `get() = …`): the annotation is blanked.
//!
//! Comments and string literals are never touched.

use std::borrow::Cow;

use super::blank::Blanked;

/// The text to parse: `source` with the constructs above rewritten.
pub(crate) fn prepare(source: &str) -> Cow<'_, str> {
    let bytes = source.as_bytes();
    let code = code_mask(bytes);
    let mut out = Blanked::new(source);
    blank_definitely_non_nullable(bytes, &code, &mut out);
    rename_where_names(bytes, &code, &mut out);
    let mut line_start = 0;
    let mut previous: Option<(usize, &str)> = None;
    for line in source.split_inclusive('\n') {
        blank_when_guard(line, line_start, &code, &mut out);
        let trimmed = line.trim_start();
        if let Some((start, annotation)) = previous
            && is_accessor(trimmed)
        {
            out.blank(start..start + annotation.len());
        }
        previous = trimmed
            .starts_with('@')
            .then(|| (line_start + (line.len() - trimmed.len()), trimmed.trim_end()))
            .filter(|(start, annotation)| code[*start] && !annotation.contains("//") && !annotation.contains("/*"));
        line_start += line.len();
    }
    out.finish()
}

/// `& Any` after a type (a single `&` is no operator in Kotlin).
fn blank_definitely_non_nullable(bytes: &[u8], code: &[bool], out: &mut Blanked<'_>) {
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'&' && code[i] && bytes.get(i + 1) != Some(&b'&') && (i == 0 || bytes[i - 1] != b'&') {
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                j += 1;
            }
            if bytes[j..].starts_with(b"Any") && !bytes.get(j + 3).is_some_and(|b| is_ident_byte(*b)) {
                out.blank(i..j + 3);
                i = j + 3;
                continue;
            }
        }
        i += 1;
    }
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

/// `is X if cond ->` and `!is X if cond ->` on one line: blanks `if cond`.
fn blank_when_guard(line: &str, line_start: usize, code: &[bool], out: &mut Blanked<'_>) {
    let trimmed = line.trim_start();
    if !(trimmed.starts_with("is ") || trimmed.starts_with("!is ")) {
        return;
    }
    let Some(guard) = line.find(" if ") else {
        return;
    };
    let Some(arrow) = line[guard..].find("->").map(|p| guard + p) else {
        return;
    };
    let (from, to) = (line_start + guard + 1, line_start + arrow);
    if code[from] && code[to] {
        out.blank(from..to);
    }
}

/// Whether a line starts a property accessor: `get()`, `get() =`, `set(v)`.
fn is_accessor(line: &str) -> bool {
    ["get", "set"].iter().any(|kw| {
        line.strip_prefix(kw)
            .is_some_and(|rest| rest.trim_start().starts_with('(') || rest.trim_start().starts_with('='))
    })
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
