//! Query analysis: what kind of query this is, its keywords, and the symbol names it may
//! be asking for.
//!
//! Quoted phrases, identifiers (`camelCase`, `snake_case`, `Foo::bar`, `a.b.c`), paths and
//! error codes mean the user knows the exact text: keyword search leads. Questions in plain
//! language mean they know the idea, not the words: vector search leads.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use crate::chunk::keywords;

/// What a query looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// Mostly an identifier, phrase, path or error code.
    Exact,
    /// Plain language with some identifiers in it.
    Mixed,
    /// Plain language.
    Natural,
}

impl QueryKind {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            QueryKind::Exact => "exact",
            QueryKind::Mixed => "mixed",
            QueryKind::Natural => "natural",
        }
    }
}

/// An analysed query.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The text as typed.
    pub text: String,
    /// What it looks like.
    pub kind: QueryKind,
    /// Whitespace-separated words outside quoted phrases.
    pub words: usize,
    /// Quoted phrases, each as its analysed terms.
    pub phrases: Vec<Vec<String>>,
    /// Every analysed term with its count in the query (first occurrence order).
    pub terms: Vec<(String, u32)>,
    /// Lowercase names a symbol could have for this query to name it exactly
    /// (`getUserById`, `session.send`, `send`).
    pub symbol_names: Vec<String>,
}

/// Words too common to carry meaning in a code search, in English or in code.
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
    "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her",
    "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more",
    "most", "my", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "out", "over",
    "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
    "get", "got", "use", "used", "using", "like", "want", "way", "one", "two", "make", "makes", "made", "seems",
    "seem", "work", "works", "thing", "things", "code", "let", "lets", "please", "thanks", "hi", "hello", "would",
    "etc", "eg", "ie", "def", "self", "return", "import", "from", "none", "true", "false", "null", "var", "const",
    "fn", "pub", "func", "function", "class", "new", "int", "str", "string", "bool", "void", "public", "private",
    "static",
];

/// Whether `term` is a stop word.
pub fn is_stop_word(term: &str) -> bool {
    STOP_WORDS.contains(&term)
}

/// Analyses `text`.
pub fn analyze(text: &str) -> Query {
    let (phrases, rest) = split_phrases(text);
    let mut terms: Vec<(String, u32)> = Vec::new();
    for term in keywords::terms(text) {
        match terms.iter_mut().find(|(t, _)| *t == term) {
            Some((_, n)) => *n += 1,
            None => terms.push((term, 1)),
        }
    }
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let exact_tokens = tokens.iter().filter(|t| is_exact_token(t)).count();
    let words = tokens.len();
    let kind = if words == 0 && !phrases.is_empty() || words > 0 && words <= 2 && exact_tokens == words {
        QueryKind::Exact
    } else if exact_tokens > 0 || !phrases.is_empty() {
        QueryKind::Mixed
    } else {
        QueryKind::Natural
    };
    let mut symbol_names = Vec::new();
    for token in &tokens {
        for name in symbol_candidates(token) {
            if !symbol_names.contains(&name) {
                symbol_names.push(name);
            }
        }
    }
    // A query of one plain word (`jsonify`, `Status`, `g`) is most often a name looked up: its
    // definitions are candidates too, though the word does not look like code. So is a run of
    // two to four plain words that spells a name (`hash code builder` for `HashCodeBuilder` or
    // `hash_code_builder`).
    if symbol_names.is_empty() && phrases.is_empty() && (1..=MAX_SPELLED_WORDS).contains(&tokens.len()) {
        let words: Option<Vec<String>> = tokens.iter().map(|t| identifier_word(t)).collect();
        // Stop words may help spell a name (`get user`, `hash code builder`), never alone.
        if let Some(words) = words.filter(|w| w.iter().any(|w| !is_stop_word(w))) {
            symbol_names.push(words.concat());
            if words.len() > 1 {
                symbol_names.push(words.join("_"));
            }
        }
    }
    Query {
        text: text.to_string(),
        kind,
        words,
        phrases: phrases.iter().map(|p| keywords::terms(p)).filter(|t| t.len() > 1).collect(),
        terms,
        symbol_names,
    }
}

/// A long question as a reader takes it in: without its HTML comments
/// ([`without_comments`]) and without memory addresses ([`without_addresses`]).
pub fn as_read(text: &str) -> Cow<'_, str> {
    match without_comments(text) {
        Cow::Borrowed(visible) => without_addresses(visible),
        Cow::Owned(visible) => Cow::Owned(without_addresses(&visible).into_owned()),
    }
}

/// A memory address as a run prints it: `0x` and at least six hex digits.
static ADDRESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b0x[0-9a-fA-F]{6,}\b").unwrap_or_else(|e| unreachable!("{e}")));

/// `text` without memory addresses (`<generator object f at 0x101f82ed0>`): a run's output
/// prints them, different each run, and their pieces (`101`, `ed`) are no word of the code.
pub fn without_addresses(text: &str) -> Cow<'_, str> {
    ADDRESS.replace_all(text, " ")
}

/// `text` without its HTML comments (`<!-- … -->`, an unclosed one to the end), which a
/// rendered issue or pull request does not show: an issue template's instructions to its
/// author, not what the author says.
pub fn without_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let mut visible = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        visible.push_str(&rest[..open]);
        rest = match rest[open + 4..].find("-->") {
            Some(close) => &rest[open + 4 + close + 3..],
            None => "",
        };
    }
    visible.push_str(rest);
    Cow::Owned(visible)
}

/// Most words a description's first line may have to be read as its summary (an issue's
/// title, a commit's subject line).
const SUMMARY_MAX_WORDS: usize = 25;

/// Counts each term of `query`'s summary line `extra` more times, as if the line were
/// repeated: a description's first line (an issue's title, a commit's subject) says in a few
/// words what the rest elaborates with logs, code and context. A text of one line has no
/// summary apart from itself, and is left as it is.
pub fn emphasize_summary(query: &mut Query, extra: u32) {
    let text = query.text.trim_start();
    let Some((first, rest)) = text.split_once('\n') else { return };
    let words = first.split_whitespace().count();
    if extra == 0 || words == 0 || words > SUMMARY_MAX_WORDS || rest.trim().is_empty() {
        return;
    }
    for term in keywords::terms(first) {
        if let Some((_, n)) = query.terms.iter_mut().find(|(t, _)| *t == term) {
            *n += extra;
        }
    }
}

/// The fusion weights (vector, keyword) for a query of this kind.
pub fn weights(kind: QueryKind) -> (f64, f64) {
    match kind {
        QueryKind::Exact => (0.4, 1.0),
        QueryKind::Mixed => (0.8, 1.0),
        QueryKind::Natural => (1.0, 0.6),
    }
}

/// The quoted phrases and the text outside them.
fn split_phrases(text: &str) -> (Vec<String>, String) {
    let mut phrases = Vec::new();
    let mut rest = String::new();
    let mut parts = text.split('"');
    if let Some(first) = parts.next() {
        rest.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        if i % 2 == 0 {
            if !part.trim().is_empty() {
                phrases.push(part.trim().to_string());
            }
        } else {
            rest.push(' ');
            rest.push_str(part);
        }
    }
    (phrases, rest)
}

/// Whether a whitespace-separated token looks like code rather than a word.
fn is_exact_token(token: &str) -> bool {
    let t = token.trim_matches(|c: char| matches!(c, ',' | ';' | '?' | '!' | '(' | ')' | '`' | '\''));
    if t.is_empty() {
        return false;
    }
    let has_lower_upper = t.chars().zip(t.chars().skip(1)).any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    let inner_underscore = t.trim_matches('_').contains('_');
    let qualified =
        t.contains("::") || t.contains("->") || (t.contains('.') && t.split('.').filter(|p| !p.is_empty()).count() > 1);
    let path = t.contains('/') || t.contains('\\');
    let call = t.ends_with("()");
    let error_code = t.len() >= 4
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-')
        && t.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let all_caps_word = t.len() > 2 && t.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    has_lower_upper || inner_underscore || qualified || path || call || error_code || all_caps_word
}

/// The most plain words a query may spell a name with.
pub(super) const MAX_SPELLED_WORDS: usize = 4;

/// The lowercase word `word` is when it could be part of a name: letters, digits and `_`,
/// starting with a letter or `_`.
fn identifier_word(word: &str) -> Option<String> {
    let w = word.trim_matches(|c: char| matches!(c, ',' | ';' | '?' | '!' | '`' | '\''));
    let identifier = w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && w.chars().all(|c| c.is_alphanumeric() || c == '_');
    identifier.then(|| w.to_lowercase())
}

/// Lowercase symbol names a token could refer to: the token itself and, for qualified
/// tokens, the last component and the dotted form.
fn symbol_candidates(token: &str) -> Vec<String> {
    let t = token.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '.'));
    let t = t.trim_end_matches("()").trim_matches('.');
    if t.is_empty() || !t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') || !is_exact_token(t) {
        return Vec::new();
    }
    // A path (`src/lib.rs`) names a file: its extension is no symbol (`rs` found the
    // `docs.rs` sections of every `Cargo.toml`). A dotted name is not a path: `response.text`
    // and `response.json()` name attributes.
    if t.contains(['/', '\\']) {
        return Vec::new();
    }
    let lower = t.to_lowercase();
    let mut out = vec![lower.clone()];
    let normalized = lower.replace("::", ".");
    // So does a file's name (`a.py`: `py` is no symbol); a call is code (`response.json()`).
    let file_name = !token.trim_end().ends_with("()") && super::paths::is_file_name(&lower);
    if let Some(last) = normalized.rsplit('.').next()
        && last != lower
        && !last.is_empty()
        && !file_name
    {
        out.push(last.to_string());
    }
    if normalized != lower {
        out.push(normalized);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(analyze("getUserById").kind, QueryKind::Exact);
        assert_eq!(analyze("\"connection reset by peer\"").kind, QueryKind::Exact);
        assert_eq!(analyze("src/api/users.py").kind, QueryKind::Exact);
        assert_eq!(analyze("E0382").kind, QueryKind::Exact);
        assert_eq!(analyze("where do we retry failed uploads").kind, QueryKind::Natural);
        assert_eq!(analyze("why does Session.send drop the timeout").kind, QueryKind::Mixed);
    }

    #[test]
    fn symbol_names_and_terms() {
        let q = analyze("why does Session.send() drop the timeout");
        assert_eq!(q.symbol_names, vec!["session.send", "send"]);
        assert!(q.terms.iter().any(|(t, _)| t == "timeout"));
        let q = analyze("Foo::bar");
        assert_eq!(q.symbol_names, vec!["foo::bar", "bar", "foo.bar"]);
        assert_eq!(analyze("\"retry failed uploads\" now").phrases, vec![vec!["retry", "failed", "uploads"]]);
    }

    #[test]
    fn plain_words_may_spell_a_name() {
        assert_eq!(analyze("jsonify").symbol_names, vec!["jsonify"]);
        // A path names a file, not symbols; a dotted name is no path.
        assert!(analyze("src/lib.rs").symbol_names.is_empty());
        // A file's name is no symbol's either; a call is code.
        assert_eq!(analyze("a.py").symbol_names, vec!["a.py"]);
        assert_eq!(analyze("response.json()").symbol_names, vec!["response.json", "json"]);
        assert_eq!(analyze("response.text").symbol_names, vec!["response.text", "text"]);
        assert_eq!(analyze("requests.models").symbol_names, vec!["requests.models", "models"]);
        assert_eq!(analyze("Status").symbol_names, vec!["status"]);
        assert_eq!(analyze("g").symbol_names, vec!["g"]);
        assert_eq!(analyze("hash code builder").symbol_names, vec!["hashcodebuilder", "hash_code_builder"]);
        assert_eq!(analyze("get user").symbol_names, vec!["getuser", "get_user"]);
        // Stop words alone, punctuation inside a word, or more than four words spell nothing.
        assert!(analyze("the").symbol_names.is_empty());
        assert!(analyze("how it works").symbol_names.is_empty());
        assert!(analyze("help text formatting and usage rendering").symbol_names.is_empty());
        assert!(analyze("what's new").symbol_names.is_empty());
    }

    #[test]
    fn a_summary_line_counts_more() {
        let count = |q: &Query, term: &str| q.terms.iter().find(|(t, _)| t == term).map(|(_, n)| *n);
        let mut q =
            analyze("Proxy auth fails on redirect\nWhen a session follows a redirect, the proxy header is lost.");
        emphasize_summary(&mut q, 2);
        assert_eq!(count(&q, "proxy"), Some(4));
        assert_eq!(count(&q, "redirect"), Some(4));
        assert_eq!(count(&q, "session"), Some(1));
        // One line is its own summary; a long first line is a paragraph, not a title.
        let mut one = analyze("proxy auth fails on redirect");
        emphasize_summary(&mut one, 2);
        assert_eq!(count(&one, "proxy"), Some(1));
        let paragraph = format!("{}\nproxy", "word ".repeat(SUMMARY_MAX_WORDS + 1));
        let mut q = analyze(&paragraph);
        emphasize_summary(&mut q, 2);
        assert_eq!(count(&q, "word"), Some(SUMMARY_MAX_WORDS as u32 + 1));
    }

    #[test]
    fn html_comments_are_not_read() {
        assert_eq!(without_comments("a <!-- template\nhint --> b <!-- c --> d"), "a  b  d");
        assert_eq!(without_comments("a <!-- never closed"), "a ");
        assert!(matches!(without_comments("no comment"), Cow::Borrowed("no comment")));
    }

    #[test]
    fn memory_addresses_are_not_read() {
        let output = "where False = all(<generator object test_all_even.<locals>.<genexpr> at 0x101f82ed0>)";
        let terms = analyze(&without_addresses(output)).terms;
        assert!(terms.iter().all(|(t, _)| !["101", "82", "ed"].contains(&t.as_str())), "{terms:?}");
        assert!(terms.iter().any(|(t, _)| t == "genexpr"), "{terms:?}");
        // A short hex constant (`0xff`, `0x1234`) is code, not an address.
        assert_eq!(without_addresses("mask = 0xff; 0x1234"), "mask = 0xff; 0x1234");
        assert_eq!(as_read("<!-- hint --> at 0xdeadbeef1"), " at  ");
    }
}
