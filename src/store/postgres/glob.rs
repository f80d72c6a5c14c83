//! Globs as PostgreSQL regular expressions, so path and name filters run inside the query
//! (before the top-k cut) instead of on its results.
//!
//! Semantics follow .gitignore habits: a pattern without `/` matches a name anywhere
//! (`*.py`, `test_*`); a pattern with `/` is anchored at the root (`src/**/*.rs`); a pattern
//! without wildcards also matches everything below it as a directory (`src/api`).

/// The anchored PostgreSQL (ARE) regex for a path glob.
pub fn path_regex(glob: &str) -> String {
    let glob = glob.trim_start_matches("./");
    let has_wildcard = glob.contains(['*', '?', '[', '{']);
    let trimmed = glob.trim_end_matches('/');
    let body = translate(trimmed);
    let rooted = trimmed.contains('/') || glob.ends_with('/');
    match (rooted, has_wildcard) {
        // `src/api` or `src/`: that file, or anything under that directory.
        (true, false) => format!("^{body}(/.*)?$"),
        // `README.md`, `tests`: a name anywhere, file or directory.
        (false, false) => format!("(^|/){body}(/.*)?$"),
        // `*.py`, `test_*.go`: the last component anywhere.
        (false, true) => format!("(^|/){body}$"),
        // `src/**/*.rs`: anchored.
        (true, true) => format!("^{body}$"),
    }
}

/// The anchored regex for a name glob (symbol names; no path semantics).
pub fn name_regex(glob: &str) -> String {
    format!("^{}$", translate_with(glob, ".*", "."))
}

fn translate(glob: &str) -> String {
    translate_with(glob, "[^/]*", "[^/]")
}

fn translate_with(glob: &str, star: &str, question: &str) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut in_braces = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                // `**/` matches zero or more directories; a trailing `**` anything.
                if chars.get(i + 2) == Some(&'/') {
                    out.push_str("(.*/)?");
                    i += 3;
                } else {
                    out.push_str(".*");
                    i += 2;
                }
                continue;
            }
            '*' => out.push_str(star),
            '?' => out.push_str(question),
            '[' => {
                // Copy a character class through, turning `[!` into `[^`.
                let close = chars[i + 1..].iter().position(|&c| c == ']').map(|p| p + i + 1);
                match close {
                    Some(end) if end > i + 1 => {
                        out.push('[');
                        let mut j = i + 1;
                        if chars[j] == '!' {
                            out.push('^');
                            j += 1;
                        }
                        for &cc in &chars[j..end] {
                            if cc == '\\' {
                                out.push_str("\\\\");
                            } else {
                                out.push(cc);
                            }
                        }
                        out.push(']');
                        i = end + 1;
                        continue;
                    }
                    _ => out.push_str("\\["),
                }
            }
            '{' => {
                in_braces = true;
                out.push('(');
            }
            '}' if in_braces => {
                in_braces = false;
                out.push(')');
            }
            ',' if in_braces => out.push('|'),
            c if "\\.+()|^$}]".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        i += 1;
    }
    if in_braces {
        // An unclosed brace was literal after all.
        out = out.replacen('(', "\\{", 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_globs() {
        assert_eq!(path_regex("*.py"), "(^|/)[^/]*\\.py$");
        assert_eq!(path_regex("src/**/*.rs"), "^src/(.*/)?[^/]*\\.rs$");
        assert_eq!(path_regex("src/api"), "^src/api(/.*)?$");
        assert_eq!(path_regex("tests/"), "^tests(/.*)?$");
        assert_eq!(path_regex("README.md"), "(^|/)README\\.md(/.*)?$");
        assert_eq!(path_regex("*.{ts,tsx}"), "(^|/)[^/]*\\.(ts|tsx)$");
        assert_eq!(path_regex("[!a]*.c"), "(^|/)[^a][^/]*\\.c$");
    }

    #[test]
    fn name_globs() {
        assert_eq!(name_regex("get_*"), "^get_.*$");
        assert_eq!(name_regex("Session.?et"), "^Session\\..et$");
    }
}
