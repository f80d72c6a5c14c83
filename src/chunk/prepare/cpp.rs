//! Provides C++'s source preparation: blanking the macros that stand where
//! the grammar expects a declaration, an attribute or nothing — namespace
//! markers (`ABSL_NAMESPACE_BEGIN`), attributes (`ABSL_MUST_USE_RESULT`,
//! `ABSL_ATTRIBUTE_LIFETIME_BOUND`), thread-safety annotations
//! (`ABSL_GUARDED_BY(mu_)`), linkage and export markers (`ABSL_DLL`,
//! `CURL_EXTERN`), nullability qualifiers (`absl_nonnull`) — recognised by the words of their names, so other
//! projects' spellings of the same conventions are covered too.

use std::borrow::Cow;

use super::c_family;

/// Name words (between underscores) that mark a macro expanding to an
/// attribute, a specifier or nothing.
const ATTRIBUTE_WORDS: &[&str] = &[
    "ATTRIBUTE",
    "DEPRECATED",
    "DEPRECATE_AND_INLINE",
    "MUST_USE_RESULT",
    "WARN_UNUSED_RESULT",
    "NODISCARD",
    "CONST_INIT",
    "CONSTEXPR_SINCE_CXX17",
    "CONSTEXPR_SINCE_CXX20",
    "LIFETIME_BOUND",
    "GUARDED_BY",
    "PT_GUARDED_BY",
    "LOCKS_EXCLUDED",
    "LOCKS_REQUIRED",
    "LOCK_FUNCTION",
    "UNLOCK_FUNCTION",
    "TRYLOCK_FUNCTION",
    "ASSERT_EXCLUSIVE_LOCK",
    "ASSERT_SHARED_LOCK",
    "REINITIALIZES",
    "CONSTEXPR",
    "LOCK_RETURNED",
    "LOCKABLE",
    "SCOPED_LOCKABLE",
    "ACQUIRED_AFTER",
    "ACQUIRED_BEFORE",
    "NO_THREAD_SAFETY_ANALYSIS",
    "CAPTURED_BY",
    "DLL",
    "EXTERN",
    "EXPORT",
    "NORETURN",
    "NOINLINE",
    "ALWAYS_INLINE",
    "FORMAT_PRINTF",
    "TARGET_CRYPTO",
];

/// Whole names of macros of that kind whose words say nothing.
const ATTRIBUTE_NAMES: &[&str] = &["UNITTEST", "ALLOC_FUNC", "ALLOC_SIZE", "ALLOC_SIZE2", "CURL_PRINTF"];

/// Nullability qualifiers, written in lower case (`std::string* absl_nonnull
/// out`), which the grammar does not know.
const NULLABILITY_NAMES: &[&str] =
    &["absl_nonnull", "absl_nullable", "absl_nullability_unknown", "_Nonnull", "_Nullable", "_Null_unspecified"];

/// Whether `name` is a macro to blank before parsing C or C++: a
/// nullability qualifier ([`NULLABILITY_NAMES`]), or an upper-case name that is a namespace marker (`…_NAMESPACE_BEGIN`,
/// `…_NAMESPACE_END`) or holds one of [`ATTRIBUTE_WORDS`]. Feature tests
/// (`…_HAVE_…`) are never blanked; they belong to `#if` lines anyway.
pub(crate) fn is_attribute_macro(name: &str) -> bool {
    if NULLABILITY_NAMES.contains(&name) {
        return true;
    }
    if name.len() < 3 || !name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') {
        return false;
    }
    if ATTRIBUTE_NAMES.contains(&name) {
        return true;
    }
    let has_word = |word: &str| {
        name == word
            || name.ends_with(&format!("_{word}"))
            || name.starts_with(&format!("{word}_"))
            || name.contains(&format!("_{word}_"))
    };
    if has_word("HAVE") {
        return false;
    }
    is_namespace_marker(name) || ATTRIBUTE_WORDS.iter().any(|w| has_word(w))
}

/// Whether an upper-case `name` opens or closes a namespace by its words: `NAMESPACE` or `NS`
/// with `BEGIN`, `END`, `OPEN`, `CLOSE` or `START` (`ABSL_NAMESPACE_BEGIN`,
/// `FOLLY_NAMESPACE_STD_BEGIN`, `BEGIN_NAMESPACE(cv)`, `_LIBCPP_BEGIN_NAMESPACE_STD`,
/// `GOOGLE_PROTOBUF_NAMESPACE_OPEN`, `CV__DNN_INLINE_NS_BEGIN`).
fn is_namespace_marker(name: &str) -> bool {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let names_a_namespace = words.iter().any(|w| matches!(*w, "NAMESPACE" | "NS"));
    names_a_namespace && words.iter().any(|w| matches!(*w, "BEGIN" | "END" | "OPEN" | "CLOSE" | "START"))
}

/// Macros the file itself defines to open or close a namespace (`#define NS_BEGIN namespace
/// foo {`, `#define NS_END }`): whatever their names, the grammar sees braces it cannot pair.
fn namespace_macros_defined(source: &str) -> Vec<&str> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
            let rest = rest.strip_prefix([' ', '\t'])?.trim_start();
            let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let (name, body) = rest.split_at(name_end);
            let body = body.split("//").next().unwrap_or_default().trim();
            let opens = body.starts_with("namespace") && body.ends_with('{');
            let closes = !body.is_empty() && body.chars().all(|c| c == '}' || c.is_whitespace());
            (!name.is_empty() && (opens || closes)).then_some(name)
        })
        .collect()
}

/// The text to parse: `source` with attribute-like macros blanked, and the macros it defines
/// to open or close a namespace.
pub(crate) fn prepare(source: &str) -> Cow<'_, str> {
    let defined = if source.contains("#define") || source.contains("# define") {
        namespace_macros_defined(source)
    } else {
        Vec::new()
    };
    c_family::blank_macros(source, |name| is_attribute_macro(name) || defined.contains(&name))
}
