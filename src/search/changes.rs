//! Whether a short query describes a change to make or made ("Fix excessive CPU use on
//! decompressing small members", `fix(plugin): check that path is in root dir`): the shape of a
//! commit's subject or a task's title. It is read as a pasted issue is, however short: its
//! answer is the code to change, found by many weak words, before the tests, examples and prose
//! that share them.

/// Conventional-commit types that say the code changes (`fix:`, `feat(server):`).
const CHANGE_TYPES: &[&str] = &["fix", "feat", "perf", "refactor", "hotfix", "bugfix", "feature", "revert"];

/// Verbs a change's description starts with, as its author writes them: imperative, third
/// person or past (`Add`, `Adds`, `Added`).
const CHANGE_VERBS: &[&str] = &[
    "add",
    "allow",
    "apply",
    "avoid",
    "bump",
    "change",
    "clarify",
    "clean",
    "close",
    "comment",
    "convert",
    "correct",
    "deprecate",
    "disable",
    "drop",
    "enable",
    "ensure",
    "export",
    "expose",
    "extract",
    "finish",
    "fix",
    "forward",
    "handle",
    "honor",
    "ignore",
    "implement",
    "improve",
    "introduce",
    "keep",
    "make",
    "mark",
    "move",
    "normalize",
    "open",
    "optimize",
    "pass",
    "prefer",
    "preserve",
    "prevent",
    "propagate",
    "raise",
    "re-enable",
    "re-use",
    "reduce",
    "refactor",
    "reject",
    "relax",
    "release",
    "remove",
    "rename",
    "reorder",
    "replace",
    "resolve",
    "respect",
    "restore",
    "return",
    "reuse",
    "revert",
    "rewind",
    "set",
    "simplify",
    "skip",
    "sort",
    "speed",
    "split",
    "start",
    "stop",
    "support",
    "switch",
    "update",
    "use",
    "validate",
    "warn",
];

/// Whether `query` reads as the description of a change: its first word, past a
/// conventional-commit prefix (`fix:`, `feat(server):`, `http:`) and any emoji, is a change
/// verb (`Add`, `fixes`, `Don't`), or the prefix's type says the code changes. A lone word is
/// a name (`Validated`, `update`), never a description.
pub fn describes_a_change(query: &str) -> bool {
    if query.split_whitespace().nth(1).is_none() {
        return false;
    }
    let mut words = words(query);
    let Some(mut first) = words.next() else { return false };
    if let Some(prefix) = Prefix::of(first) {
        if prefix.changes_code {
            return true;
        }
        // A scope (`axum:`, `http:`): the description follows it.
        let Some(next) = words.next() else { return false };
        first = next;
    }
    // `Fix/prefer type handlers for enums`: the verb before the slash.
    let first = first.split('/').next().unwrap_or(first);
    let word = first.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-').to_ascii_lowercase();
    if matches!(word.as_str(), "don't" | "dont" | "do") {
        return true;
    }
    // "update and delete statement builders", "read or write locks": verbs naming a kind.
    let coordinated = words.next().is_some_and(|next| matches!(next.to_ascii_lowercase().as_str(), "and" | "or" | "&"));
    !coordinated && CHANGE_VERBS.iter().any(|verb| is_form_of(&word, verb))
}

/// The scope a change's description names before its colon (`fix(plugin): …` → `plugin`,
/// `ldap: base64-encode …` → `ldap`): the module it changes, by its author's name for it. None
/// for a query that does not describe a change, or a bare type (`fix: …`).
pub fn scope(query: &str) -> Option<&str> {
    if !describes_a_change(query) {
        return None;
    }
    Prefix::of(words(query).next()?)?.scope
}

/// A query's words from the first that holds a letter or digit (past a leading emoji).
fn words(query: &str) -> impl Iterator<Item = &str> {
    query.split_whitespace().skip_while(|word| !word.chars().any(char::is_alphanumeric))
}

/// What a commit subject's first word says before its colon: `fix(plugin):`, `feat!:`, `ldap:`.
struct Prefix<'q> {
    /// Its type says the code changes (`fix`, `feat`), whatever follows.
    changes_code: bool,
    /// The module it names: `plugin` in `fix(plugin):`, `ldap` in `ldap:`; none for a bare type.
    scope: Option<&'q str>,
}

impl<'q> Prefix<'q> {
    /// The prefix `word` is, if it ends with a colon.
    fn of(word: &'q str) -> Option<Self> {
        let prefix = word.strip_suffix(':')?.trim_end_matches('!');
        let (kind, scope) = match prefix.split_once('(') {
            Some((kind, rest)) => (kind, rest.strip_suffix(')')),
            None => (prefix, Some(prefix)),
        };
        let changes_code = CHANGE_TYPES.iter().any(|t| kind.trim_end_matches('!').eq_ignore_ascii_case(t));
        let bare_type = changes_code && kind == prefix;
        let scope = scope.filter(|_| !bare_type).map(|scope| scope.trim_matches('`')).filter(|scope| !scope.is_empty());
        Some(Self { changes_code, scope })
    }
}

/// Whether `word` is `verb` or its third-person or past form (`adds`, `added`, `fixes`,
/// `simplified`, `dropped`, `made`, `kept`); not its `-ing` form, which starts noun phrases
/// ("caching of responses", "warning messages").
fn is_form_of(word: &str, verb: &str) -> bool {
    if word == verb {
        return true;
    }
    let irregular = match verb {
        "make" => &["made"][..],
        "keep" => &["kept"],
        "clarify" => &["clarified", "clarifies"],
        "simplify" => &["simplified", "simplifies"],
        _ => &[],
    };
    if irregular.contains(&word) {
        return true;
    }
    let Some(rest) = word.strip_prefix(verb.trim_end_matches('e')) else { return false };
    let last = verb.chars().last().unwrap_or_default();
    matches!(rest, "s" | "es" | "ed" | "d") || rest.len() == 3 && rest.starts_with(last) && rest.ends_with("ed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_subjects_describe_changes() {
        for subject in [
            "Fix excessive CPU use on decompressing small members",
            "fix(plugin): check that path is actually in root dir",
            "feat: Add subscription inference helpers",
            "axum: add suggested `must_use`",
            "Don't duplicate methods in Allow: header for 405 responses",
            "added doctest for forall and exists",
            "Adds retries to uploads",
            "🐛 Fixed the redirect loop",
            "Dropped support for Python 2",
            "Simplified the parser",
            "made the cache thread-safe",
            "Fix/prefer type handlers for enums",
            "middleware: Close the pager temp file before unlinking it",
        ] {
            assert!(describes_a_change(subject), "{subject}");
        }
    }

    #[test]
    fn a_scope_names_the_module_changed() {
        assert_eq!(scope("fix(plugin): check that path is actually in root dir"), Some("plugin"));
        assert_eq!(scope("ldap: base64-encode LDIF values beginning with colon"), None, "no change verb");
        assert_eq!(scope("ldap: encode LDIF values beginning with colon"), None, "encode is no change verb");
        assert_eq!(scope("tool_msgs: fix the warning's prefix"), Some("tool_msgs"));
        assert_eq!(scope("`cord_internal`: finish removing asan manual poisoning code."), Some("cord_internal"));
        assert_eq!(scope("feat!: drop Python 2"), None);
        assert_eq!(scope("fix: the retry loop"), None);
        assert_eq!(scope("user: the current user"), None);
        assert_eq!(scope("Add retries to uploads"), None);
    }

    #[test]
    fn questions_and_names_do_not() {
        for question in [
            "how are request hooks registered",
            "where do we retry failed uploads",
            "absl::StrCat and StrAppend for efficient string concatenation",
            "jsonify",
            "Validated",
            "update and delete statement builders",
            "update",
            "address parsing",
            "user: the current user",
            "usage of the session",
            "warning messages of the logger",
            "",
        ] {
            assert!(!describes_a_change(question), "{question}");
        }
    }
}
