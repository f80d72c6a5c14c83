//! Identifier-aware keyword analysis, shared by indexing (documents) and search (queries).
//!
//! Code search needs `getUserById`, `get_user_by_id` and "get user by id" to meet. Each
//! identifier yields its whole lowercase form without separators plus its sub-words:
//! `getUserById` → `getuserbyid get user by id`. The same function analyses queries, so both
//! sides always agree. The output is plain space-separated lowercase terms, ready for
//! PostgreSQL's `simple` text-search configuration (no stemming, no stop words).

/// Terms of `text`, in order, with repeats (term frequency matters for ranking).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, &mut |term| out.push(term.to_string()));
    out
}

/// The keyword text of a chunk: its content's terms, then its path's terms (so file and
/// directory names match too), separated by single spaces.
///
/// Written into one string, without a `String` per term: this runs for every chunk on the
/// parse threads, and the allocations were most of its cost.
pub fn document_text(path: &str, content: &str) -> String {
    let mut out = String::with_capacity(content.len() + path.len());
    let mut add = |term: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(term);
    };
    for_each_term(content, &mut add);
    for_each_term(path, &mut add);
    out
}

/// Calls `f` with each term of `text`, in order: per identifier, its whole lowercase form,
/// then its lowercase sub-words that differ from it (words of fewer than two characters are
/// left out).
fn for_each_term(text: &str, f: &mut impl FnMut(&str)) {
    let mut parts = Vec::new();
    let mut whole = String::new();
    let mut lower = String::new();
    for token in identifiers(text) {
        parts.clear();
        split_identifier(token, &mut parts);
        whole.clear();
        for part in &parts {
            push_lowercase(&mut whole, part);
        }
        if whole.chars().count() >= 2 {
            f(&whole);
        }
        if parts.len() > 1 {
            for part in &parts {
                lower.clear();
                push_lowercase(&mut lower, part);
                if lower.chars().count() >= 2 && lower != whole {
                    f(&lower);
                }
            }
        }
    }
}

/// Appends `part` in lowercase: byte by byte when it is ASCII, else as `str::to_lowercase`
/// has it (which knows, for one, a word-final capital sigma).
fn push_lowercase(out: &mut String, part: &str) {
    if part.is_ascii() {
        out.extend(part.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        out.push_str(&part.to_lowercase());
    }
}

/// Identifier-like tokens: runs of ASCII letters, digits and underscores that contain a letter
/// (non-ASCII words are kept whole too, so prose in any language still matches).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty() && t.chars().any(char::is_alphabetic))
}

/// Splits at underscores, lower→upper transitions (`getUser`), acronym ends (`HTTPServer` →
/// `HTTP`, `Server`) and letter/digit boundaries (`utf8Decode` → `utf`, `8`, `Decode`).
fn split_identifier<'a>(token: &'a str, parts: &mut Vec<&'a str>) {
    for piece in token.split('_').filter(|p| !p.is_empty()) {
        let chars: Vec<(usize, char)> = piece.char_indices().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (at, c) = chars[i];
            let prev = chars[i - 1].1;
            let next = chars.get(i + 1).map(|&(_, n)| n);
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() && c.is_ascii_digit())
                || (prev.is_ascii_digit() && c.is_alphabetic())
                || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase));
            if boundary {
                parts.push(&piece[start..at]);
                start = at;
            }
        }
        parts.push(&piece[start..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> String {
        terms(s).join(" ")
    }

    #[test]
    fn identifiers_split_every_way() {
        assert_eq!(t("getUserById"), "getuserbyid get user by id");
        assert_eq!(t("get_user_by_id"), "getuserbyid get user by id");
        assert_eq!(t("HTTPServer"), "httpserver http server");
        assert_eq!(t("utf8Decode"), "utf8decode utf decode");
        assert_eq!(t("__init__"), "init");
        assert_eq!(t("Foo::bar a.b.c"), "foo bar");
        assert_eq!(t("x = 1"), "");
        assert_eq!(t("naïveCafé"), "naïvecafé naïve café");
    }

    #[test]
    fn documents_are_the_terms_of_content_then_path() {
        let cases = [
            ("", "a/b.py"),
            ("x = 1", ""),
            ("class HTTPServer(BaseHTTPRequestHandler): ΟΔΟΣ naïveCafé utf8Decode __init__", "Lib/http/server.py"),
            ("  getUserById(get_user_by_id)  ", "src/ΣΟΦΙΑ_Σ/İstanbul.rs"),
        ];
        for (content, path) in cases {
            let expected: Vec<String> = terms(content).into_iter().chain(terms(path)).collect();
            assert_eq!(document_text(path, content), expected.join(" "), "{content:?} in {path:?}");
        }
        assert_eq!(t("ΟΔΟΣ"), "οδος");
    }

    #[test]
    fn documents_include_path_terms() {
        assert_eq!(document_text("src/_pytest/python.py", "def f(): pass"), "def pass src pytest python py");
    }
}
