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
    for token in identifiers(text) {
        push_identifier_terms(token, &mut out);
    }
    out
}

/// The keyword text of a chunk: its content's terms, then its path's terms (so file and
/// directory names match too).
pub fn document_text(path: &str, content: &str) -> String {
    let mut out = terms(content);
    out.extend(terms(path));
    out.join(" ")
}

/// Identifier-like tokens: runs of ASCII letters, digits and underscores that contain a letter
/// (non-ASCII words are kept whole too, so prose in any language still matches).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty() && t.chars().any(char::is_alphabetic))
}

/// Adds the whole form and the sub-words of one identifier.
fn push_identifier_terms(token: &str, out: &mut Vec<String>) {
    let parts = split_identifier(token);
    let whole: String = parts.iter().map(|p| p.to_lowercase()).collect();
    if whole.chars().count() >= 2 {
        out.push(whole.clone());
    }
    if parts.len() > 1 {
        for part in parts {
            let lower = part.to_lowercase();
            if lower.chars().count() >= 2 && lower != whole {
                out.push(lower);
            }
        }
    }
}

/// Splits at underscores, lower→upper transitions (`getUser`), acronym ends (`HTTPServer` →
/// `HTTP`, `Server`) and letter/digit boundaries (`utf8Decode` → `utf`, `8`, `Decode`).
fn split_identifier(token: &str) -> Vec<&str> {
    let mut parts = Vec::new();
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
    parts
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
    fn documents_include_path_terms() {
        assert_eq!(document_text("src/_pytest/python.py", "def f(): pass"), "def pass src pytest python py");
    }
}
