//! Provides the scan that C and C++ source preparation share: find the
//! identifiers of code (not of comments, string or character literals, or
//! preprocessor directives) that a language's rule names as a macro the
//! grammar cannot read, and blank each one with its argument list.
//!
//! Tree-sitter parses C and C++ before the preprocessor runs, so a macro that
//! expands to an attribute, a storage class or nothing at all
//! (`ABSL_MUST_USE_RESULT`, `CURL_EXTERN`, `ABSL_NAMESPACE_BEGIN`) reads as a
//! stray identifier, and the error recovery around it can swallow whole
//! namespaces. Blanked, the declaration around it parses as the compiler sees
//! it after expansion. Directives are left alone: `#define NAME` must keep its
//! name, and conditions are parsed as expressions anyway.

use std::borrow::Cow;

use super::blank::Blanked;

/// The text with every conditional flattened to its first branch: the
/// `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif` lines and the
/// `#elif`/`#else` branches are blanked, so the first branches read as plain
/// code; `None` when the source has no conditional.
///
/// Tree-sitter reads every branch, and wants each to hold whole statements,
/// which goes wrong when a brace opened in a branch closes after it
/// (`#ifdef A` `if(a) {` `#else` `if(b) {` `#endif` … `}`): the error
/// recovery can then swallow the rest of the file. The chunker tries this text
/// only when the first parse has errors, and keeps the better tree.
pub(crate) fn first_branches_only(source: &str) -> Option<Cow<'_, str>> {
    let mut out = Blanked::new(source);
    let mut found = false;
    // Per open conditional: where its blanked alternative started, if it has one.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut line_start = 0;
    // A directive line ending in a backslash continues on the next line.
    let mut continued = false;
    for line in source.split_inclusive('\n') {
        let next = line_start + line.len();
        let blank_line = if continued {
            true
        } else {
            match directive(line) {
                Some("if" | "ifdef" | "ifndef") => {
                    open.push(None);
                    true
                }
                Some("elif" | "elifdef" | "elifndef" | "else") => {
                    if let Some(top @ None) = open.last_mut() {
                        *top = Some(line_start);
                    }
                    true
                }
                Some("endif") => {
                    if let Some(Some(from)) = open.pop() {
                        out.blank(from..line_start);
                    }
                    true
                }
                _ => false,
            }
        };
        if blank_line {
            out.blank(line_start..next);
            found = true;
            continued = line.trim_end().ends_with('\\');
        }
        line_start = next;
    }
    found.then(|| out.finish())
}

/// The keyword of a directive line (`#  else` gives `else`), or `None`.
fn directive(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let end = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// An argument list longer than this is not treated as the macro's: the
/// closing parenthesis is too far for an attribute, so the text is left as is.
const MAX_ARGUMENTS_BYTES: usize = 2048;

/// Blanks every code identifier for which `is_blanked` holds, together with a
/// directly following parenthesised argument list.
pub(crate) fn blank_macros<'a>(source: &'a str, is_blanked: impl Fn(&str) -> bool) -> Cow<'a, str> {
    let bytes = source.as_bytes();
    let mut out = Blanked::new(source);
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0B | 0x0C => i += 1,
            b'#' if line_start => i = skip_directive(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line_comment(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_block_comment(bytes, i),
            b'"' => {
                line_start = false;
                i = skip_quoted(bytes, i, b'"');
            }
            b'\'' => {
                line_start = false;
                i = skip_quoted(bytes, i, b'\'');
            }
            b'0'..=b'9' => {
                line_start = false;
                i = skip_number(bytes, i);
            }
            _ if is_ident_start(b) => {
                line_start = false;
                let start = i;
                while i < bytes.len() && is_ident_continue(bytes[i]) {
                    i += 1;
                }
                let word = &source[start..i];
                if bytes.get(i) == Some(&b'"') && is_raw_string_prefix(word) {
                    i = skip_raw_string(bytes, i);
                } else if is_blanked(word) && !follows_member_access(bytes, start) {
                    let end = arguments_end(bytes, i).unwrap_or(i);
                    out.blank(start..end);
                    i = end;
                }
            }
            _ => {
                line_start = false;
                i += 1;
            }
        }
    }
    out.finish()
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `a.NAME`, `a->NAME` and `a::NAME` are members, never the macro. Only the
/// same line is looked at: the line before may end in a comment's full stop.
fn follows_member_access(bytes: &[u8], start: usize) -> bool {
    let mut end = start;
    while end > 0 && matches!(bytes[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    let before = &bytes[..end];
    before.ends_with(b".") || before.ends_with(b"->") || before.ends_with(b"::")
}

/// The end of a `( … )` that follows `at` after optional blanks, balanced and
/// within [`MAX_ARGUMENTS_BYTES`]; `None` when there is none.
fn arguments_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let limit = (i + MAX_ARGUMENTS_BYTES).min(bytes.len());
    let mut depth = 0usize;
    while i < limit {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i = skip_quoted(bytes, i, b'"');
                continue;
            }
            b'\'' => {
                i = skip_quoted(bytes, i, b'\'');
                continue;
            }
            b'{' | b'}' | b';' | b'#' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips a directive line and its backslash continuations.
fn skip_directive(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') => i += 3,
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_block_comment(bytes, i),
            b'\n' => return i,
            _ => i += 1,
        }
    }
    i
}

fn skip_line_comment(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' {
        // A backslash at the end of a `//` line continues the comment.
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
        }
        i += 1;
    }
    i
}

fn skip_block_comment(bytes: &[u8], i: usize) -> usize {
    match bytes[i + 2..].windows(2).position(|w| w == b"*/") {
        Some(p) => i + 2 + p + 2,
        None => bytes.len(),
    }
}

/// Skips a string or character literal opened at `i`; an unterminated one
/// ends at the line break.
fn skip_quoted(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Skips a number, with C++14 digit separators (`1'000`) and exponents.
fn skip_number(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let b = bytes[i];
        let sign_of_exponent = matches!(b, b'+' | b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
        let separator = b == b'\'' && bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric());
        if is_ident_continue(b) || b == b'.' || sign_of_exponent || separator {
            i += 1;
        } else {
            break;
        }
    }
    i
}

fn is_raw_string_prefix(word: &str) -> bool {
    matches!(word, "R" | "LR" | "uR" | "UR" | "u8R")
}

/// Skips a C++ raw string `R"delim( … )delim"` whose quote is at `i`.
fn skip_raw_string(bytes: &[u8], i: usize) -> usize {
    let Some(open) = bytes[i + 1..].iter().take(17).position(|b| *b == b'(') else {
        return skip_quoted(bytes, i, b'"');
    };
    let delimiter = &bytes[i + 1..i + 1 + open];
    let body = i + 1 + open + 1;
    let mut closing = Vec::with_capacity(delimiter.len() + 2);
    closing.push(b')');
    closing.extend_from_slice(delimiter);
    closing.push(b'"');
    match bytes[body..].windows(closing.len()).position(|w| w == closing.as_slice()) {
        Some(p) => body + p + closing.len(),
        None => bytes.len(),
    }
}
