//! The pattern as ripgrep compiles it: `grep-regex`'s matcher with rg's defaults, bounded.

use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use super::{Case, GrepError, Pattern, Syntax};

/// Most bytes a compiled pattern may take (the regex crate's program), and its lazy DFA's
/// cache: a pattern that would need more is refused with a clear error instead of eating
/// memory (`(a{100}){100}{100}`). The regex crate matches in linear time, so time is bounded
/// already.
pub const SIZE_LIMIT: usize = 10 << 20;
/// See [`SIZE_LIMIT`].
pub const DFA_SIZE_LIMIT: usize = 10 << 20;

/// Compiles `pattern` as rg does: `(?m)` always (`^`/`$` at line boundaries), `\n` excluded
/// unless the search is multi-line, Unicode on.
pub fn build(pattern: &Pattern) -> Result<RegexMatcher, GrepError> {
    if pattern.patterns.is_empty() {
        return Err(GrepError::Pattern("no pattern given".into()));
    }
    let mut builder = RegexMatcherBuilder::new();
    builder
        .multi_line(true)
        .unicode(true)
        .octal(false)
        .word(pattern.word)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT);
    match pattern.case {
        Case::Sensitive => {}
        Case::Insensitive => {
            builder.case_insensitive(true);
        }
        Case::Smart => {
            builder.case_smart(true);
        }
    }
    if !pattern.multiline {
        builder.line_terminator(Some(b'\n'));
    }
    builder.fixed_strings(pattern.syntax == Syntax::Fixed);
    let built = builder.build_many(&pattern.patterns);
    built.map_err(|e| {
        let text = e.to_string();
        if text.contains("exceeds size limit") || text.contains("too big") {
            GrepError::TooBig(SIZE_LIMIT >> 20)
        } else {
            GrepError::Pattern(text)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grep_matcher::Matcher;

    fn pattern(p: &str) -> Pattern {
        Pattern {
            patterns: vec![p.to_string()],
            syntax: Syntax::Regex,
            case: Case::Sensitive,
            word: false,
            multiline: false,
        }
    }

    #[test]
    fn a_pattern_too_big_is_refused_with_the_limit() {
        let err = build(&pattern("(a{100}){100}{100}")).expect_err("too big");
        assert!(matches!(err, GrepError::TooBig(10)), "{err}");
        assert!(err.to_string().contains("10 MiB"), "{err}");
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = build(&pattern("foo(")).expect_err("syntax");
        assert!(matches!(err, GrepError::Pattern(_)), "{err}");
    }

    #[test]
    fn smart_case_and_literals() {
        let smart = Pattern { case: Case::Smart, ..pattern("hello") };
        assert!(build(&smart).expect("build").is_match(b"HeLLo").expect("match"));
        let smart = Pattern { case: Case::Smart, ..pattern("Hello") };
        assert!(!build(&smart).expect("build").is_match(b"hello").expect("match"));
        let fixed = Pattern { syntax: Syntax::Fixed, ..pattern("a.b(") };
        let m = build(&fixed).expect("build");
        assert!(m.is_match(b"x a.b( y").expect("match") && !m.is_match(b"axb(").expect("match"));
    }
}
