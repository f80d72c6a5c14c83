//! Tests for source preparation: each rule on the construct that made a
//! chunk partial (the raw grammar reports an error, the prepared text
//! parses clean, and chunks keep the original text with exact lines), what
//! must stay untouched (comments, strings, directives, members), and other
//! languages left as they are.

use super::super::tests::check;
use super::super::{ChunkOptions, Language, ParseStatus, chunk_source};
use std::borrow::Cow;

use super::cpp;

/// The text the chunker parses for `source`: the language module's preparation.
fn for_parsing(lang: Language, source: &str) -> Cow<'_, str> {
    lang.spec().parse.prepare.map_or(Cow::Borrowed(source), |prepare| prepare(source))
}

/// The second text the chunker tries: the language module's retry.
fn retry(lang: Language, prepared: &str) -> Option<Cow<'_, str>> {
    lang.spec().parse.retry.and_then(|retry| retry(prepared))
}

/// Whether the grammar of `lang` reports a syntax error in `source` as is.
fn raw_has_error(lang: Language, source: &str) -> bool {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang.grammar().expect("grammar")).expect("language loads");
    parser.parse(source, None).expect("parse").root_node().has_error()
}

/// Asserts that the preparation keeps length and line breaks, that the raw
/// text had errors and the chunked file has none.
fn assert_fixed(lang: Language, source: &str) {
    let prepared = for_parsing(lang, source);
    assert_eq!(prepared.len(), source.len());
    let breaks = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
    assert_eq!(breaks(&prepared), breaks(source));
    assert!(raw_has_error(lang, source), "the raw text should show the cause:\n{source}");
    let file = chunk_source(Some(lang), source, &ChunkOptions::default());
    assert_eq!(file.parse_status, ParseStatus::Ok, "{:?}\n{prepared}", file.errors);
}

#[test]
fn cpp_namespace_markers_and_attribute_macros_no_longer_make_chunks_partial() {
    let source = "\
namespace absl {
ABSL_NAMESPACE_BEGIN

class ABSL_DLL Status final {
 public:
  ABSL_MUST_USE_RESULT bool ok() const ABSL_ATTRIBUTE_LIFETIME_BOUND;
  int code_ ABSL_GUARDED_BY(mu_);
};

// A comment that ends in a full stop.
ABSL_CONST_INIT extern int counter;
void Copy(const Status& src, int* absl_nonnull dst);

ABSL_NAMESPACE_END
}  // namespace absl
";
    assert_fixed(Language::Cpp, source);
    check(
        Some(Language::Cpp),
        1000,
        source,
        "
        L1-15 ok module absl, class Status, method Status::ok, variable counter, function Copy
        ",
    );
    // Chunks are cut from the original text, macros included.
    let file = chunk_source(Some(Language::Cpp), source, &ChunkOptions::default());
    assert_eq!(file.chunks[0].text(source), source.trim_end());
}

#[test]
fn c_attribute_macros_no_longer_make_chunks_partial() {
    let source = "\
CURLcode Curl_open(struct Curl_easy **curl) WARN_UNUSED_RESULT;

UNITTEST CURLcode parse_port(struct Curl_URL *u)
{
  return CURLE_OK;
}

CURL_EXTERN void curl_mfprintf(FILE *fd, const char *format, ...)
  CURL_PRINTF(2, 3);
";
    assert_fixed(Language::C, source);
    check(
        Some(Language::C),
        80,
        source,
        "
        L1-3 ok function Curl_open
        L3-8 ok function parse_port
        L8-9 ok function curl_mfprintf
        ",
    );
}

#[test]
fn c_branches_that_balance_braces_only_together_parse_their_first_branch() {
    let source = "\
int f(int a)
{
#ifdef USE_A
  if(a) {
#else
  if(!a) {
#endif
    return 1;
  }
  return 0;
}

int g(void) { return 2; }
";
    assert!(raw_has_error(Language::C, source));
    let file = chunk_source(Some(Language::C), source, &ChunkOptions::default());
    assert_eq!(file.parse_status, ParseStatus::Ok, "{:?}", file.errors);
    check(
        Some(Language::C),
        120,
        source,
        "
        L1-13 ok function f, function g
        ",
    );
    // Balanced branches parse as they are: the retry is never needed for them.
    let balanced = "#ifdef A\nint a(void) { return 1; }\n#else\nint b(void) { return 2; }\n#endif\n";
    let file = chunk_source(Some(Language::C), balanced, &ChunkOptions::default());
    let names: Vec<&str> = file.chunks.iter().flat_map(|c| c.symbols.iter().map(|s| s.name.as_str())).collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn first_branches_only_blanks_the_conditionals_directives_and_alternatives() {
    let source = "#if A\na\n#elif B\nb\n#else\nc\n#endif\nd\n";
    let prepared = retry(Language::C, source).expect("has alternatives");
    assert_eq!(prepared, "     \na\n       \n \n     \n \n      \nd\n");
    assert!(retry(Language::C, "#define H 1\nint h;\n").is_none());
    assert!(retry(Language::Kotlin, source).is_none());
}

#[test]
fn c_family_blanking_leaves_comments_strings_directives_and_members_alone() {
    let source = "\
#define ABSL_MUST_USE_RESULT [[nodiscard]]
// ABSL_MUST_USE_RESULT in a comment
/* ABSL_DLL */ const char *s = \"ABSL_DLL\";
char c = 'A'; int n = 1'000;
auto r = R\"x(ABSL_DLL)x\";
int v = obj.ABSL_DLL + p->ABSL_DLL + ns::ABSL_DLL;
ABSL_DLL int x;
";
    let prepared = for_parsing(Language::Cpp, source);
    let expected = source.replace("ABSL_DLL int x;", "         int x;");
    assert_eq!(prepared, expected);
}

#[test]
fn other_projects_namespace_macros_no_longer_make_chunks_partial() {
    let spelled = "\
#pragma once
#include <vector>

FOLLY_NAMESPACE_STD_BEGIN
template <class T> class allocator;
FOLLY_NAMESPACE_STD_END

BEGIN_NAMESPACE(cv)

int scale(int x) { return x * 2; }

END_NAMESPACE(cv)
";
    assert_fixed(Language::Cpp, spelled);
    // Markers the file defines itself, whatever their names.
    let defined = "\
#define NS_BEGIN namespace foo {
#define NS_END }
NS_BEGIN
int Inner(int x) { return x + 1; }
NS_END
";
    assert_fixed(Language::Cpp, defined);
    check(Some(Language::Cpp), 1000, defined, "L1-5 ok constant NS_BEGIN, constant NS_END, function Inner");
}

#[test]
fn attribute_macro_names_are_recognised_by_their_words() {
    for name in [
        "ABSL_NAMESPACE_BEGIN",
        "ABSL_NAMESPACE_END",
        "FOLLY_NAMESPACE_STD_BEGIN",
        "BEGIN_NAMESPACE",
        "_LIBCPP_BEGIN_NAMESPACE_STD",
        "GOOGLE_PROTOBUF_NAMESPACE_OPEN",
        "CV__DNN_INLINE_NS_BEGIN",
        "ABSL_ATTRIBUTE_LIFETIME_BOUND",
        "ABSL_MUST_USE_RESULT",
        "ABSL_GUARDED_BY",
        "ABSL_LOCKS_EXCLUDED",
        "ABSL_DEPRECATED",
        "ABSL_INTERNAL_CONSTEXPR_SINCE_CXX20",
        "PROTOBUF_EXPORT",
        "CURL_EXTERN",
        "WARN_UNUSED_RESULT",
        "UNITTEST",
        "ABSL_UNLOCK_FUNCTION",
        "absl_nonnull",
    ] {
        assert!(cpp::is_attribute_macro(name), "{name}");
    }
    for name in [
        "ABSL_HAVE_ATTRIBUTE",
        "EXPECT_EQ",
        "ABSL_PREDICT_FALSE",
        "Abc_DLL",
        "NULL",
        "DLLIST",
        "X",
        "NS_PER_SEC",
        "BEGIN_TEST",
    ] {
        assert!(!cpp::is_attribute_macro(name), "{name}");
    }
}

#[test]
fn kotlin_when_guards_no_longer_make_chunks_partial() {
    let source = "\
fun kind(e: Any, big: Boolean): String = when (e) {
    is Int if big -> \"big\"
    !is String if (
        big
        ) -> \"other\"
    is Long -> if (big) \"a\" else \"b\"
    else -> \"small\"
}
";
    assert_fixed(Language::Kotlin, source);
    let prepared = for_parsing(Language::Kotlin, source);
    assert!(prepared.contains("is Long -> if (big)"), "{prepared}");
}

#[test]
fn kotlin_where_as_a_name_no_longer_makes_chunks_partial() {
    let source = "\
class Query(val where: String?) {
    fun text(): String {
        val out = StringBuilder()

        where?.let { out.append(it) }
        return out.toString()
    }

    fun <T> first(list: List<T>): T where T : Comparable<T> = list.first()
}
";
    assert_fixed(Language::Kotlin, source);
    let file = chunk_source(Some(Language::Kotlin), source, &ChunkOptions::default());
    // Chunks and names come from the original text, not the parser's copy.
    assert!(file.chunks[0].text(source).contains("where?.let"));
}

#[test]
fn kotlin_annotations_before_accessors_and_returns_no_longer_make_chunks_partial() {
    let source = "\
class Schema(val name: String) {
    val identifier
        @OptIn(InternalApi::class)
        get() = name.uppercase()

    fun create(): String {
        @OptIn(InternalApi::class)
        return \"CREATE \" + identifier
    }
}
";
    assert_fixed(Language::Kotlin, source);
    assert!(for_parsing(Language::Kotlin, source).contains("@Suppress") == source.contains("@Suppress"));
}

#[test]
fn kotlin_infix_get_no_longer_makes_chunks_partial() {
    let source = "\
class UserRepository {
    private var count: Int = 0
        private set

    val size: Int get() = count

    fun save(user: User): Int {
        val id = Users.insert {
            it[Users.name] = user.name
        } get Users.id
        return id
    }
}
";
    assert_fixed(Language::Kotlin, source);
    let prepared = for_parsing(Language::Kotlin, source);
    assert!(prepared.contains("private set") && prepared.contains("get() = count"), "accessors stay: {prepared}");
}

#[test]
fn kotlin_strings_and_comments_are_untouched() {
    let source = "val s = \"T & Any where?.x\" // is A if b -> c\nval t = \"\"\"where.\"\"\"\n";
    assert_eq!(for_parsing(Language::Kotlin, source), source);
}

#[test]
fn other_languages_parse_their_source_as_is() {
    let source = "ABSL_NAMESPACE_BEGIN\nfn f() {}\n";
    for lang in [Language::Rust, Language::Java, Language::Python, Language::Go] {
        assert!(matches!(for_parsing(lang, source), std::borrow::Cow::Borrowed(_)), "{lang}");
        assert!(retry(lang, source).is_none(), "{lang}");
    }
}
