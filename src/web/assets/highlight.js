// A small syntax highlighter for the dashboard: one regular expression per language family
// (comments, strings, numbers, words), keywords by set, and a word followed by "(" as a call.
// It colours; it does not parse. Output is escaped HTML, one string per line, so the page can
// number lines and mark the hit's lines. Text never reaches the page unescaped.
"use strict";

(function () {
  const words = (s) => new Set(s.split(/\s+/).filter(Boolean));

  const C_KEYWORDS =
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false NULL nullptr";
  const CPP_KEYWORDS =
    C_KEYWORDS +
    " alignas alignof and asm catch class constexpr consteval const_cast decltype delete dynamic_cast explicit export friend mutable namespace new noexcept not operator or override final private protected public reinterpret_cast static_assert static_cast template this throw try typeid typename using virtual wchar_t co_await co_return co_yield concept requires";
  const JS_KEYWORDS =
    "async await break case catch class const continue debugger default delete do else export extends false finally for from function get if import in instanceof let new null of return set static super switch this throw true try typeof undefined var void while with yield";
  const TS_KEYWORDS =
    JS_KEYWORDS +
    " abstract any as asserts boolean declare enum implements infer interface is keyof module namespace never number object private protected public readonly satisfies string symbol type unique unknown override";

  const C_LIKE = { line: ["//"], block: [["/*", "*/"]], strings: ['"', "'"] };

  // Each spec: line comment starts, block comment pairs, string delimiters (longest first),
  // keywords, whether keywords ignore case, and extra [pattern, class] rules tried first.
  const SPECS = {
    python: {
      line: ["#"],
      strings: ['"""', "'''", '"', "'"],
      prefix: "[rRbBuUfF]{0,2}",
      keywords: words(
        "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda match case nonlocal not or pass raise return try type while with yield self cls"
      ),
      extra: [["@[A-Za-z_][\\w.]*", "meta"]],
    },
    javascript: { ...C_LIKE, strings: ['"', "'", "`"], keywords: words(JS_KEYWORDS) },
    typescript: {
      ...C_LIKE,
      strings: ['"', "'", "`"],
      keywords: words(TS_KEYWORDS),
      extra: [["@[A-Za-z_][\\w.]*", "meta"]],
    },
    rust: {
      line: ["//"],
      block: [["/*", "*/"]],
      strings: ['"'],
      keywords: words(
        "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while union macro_rules"
      ),
      extra: [
        ["'(?:\\\\.|[^\\\\'\\n])'", "str"],
        ["#!?\\[[^\\]\\n]*\\]", "meta"],
        ["[A-Za-z_][\\w]*!", "fn"],
        ["r#*\"", "rawstr"],
      ],
    },
    go: {
      ...C_LIKE,
      strings: ['"', "`", "'"],
      keywords: words(
        "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota"
      ),
    },
    java: {
      ...C_LIKE,
      keywords: words(
        "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public record return short static strictfp super switch synchronized this throw throws transient try var void volatile while true false null yield sealed permits"
      ),
      extra: [["@[A-Za-z_][\\w.]*", "meta"]],
    },
    c: { ...C_LIKE, keywords: words(C_KEYWORDS), extra: [["#\\s*[a-z]+", "meta"]] },
    cpp: { ...C_LIKE, keywords: words(CPP_KEYWORDS), extra: [["#\\s*[a-z]+", "meta"]] },
    csharp: {
      ...C_LIKE,
      strings: ['"', "'"],
      keywords: words(
        "abstract as async await base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach get goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly record ref return sbyte sealed set short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using var virtual void volatile while yield"
      ),
      extra: [["\\[[A-Z][\\w.]*(?:\\([^)\\n]*\\))?\\]", "meta"]],
    },
    kotlin: {
      ...C_LIKE,
      strings: ['"""', '"', "'"],
      keywords: words(
        "as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while by catch constructor data enum finally get import init internal lateinit open override private protected public sealed set suspend companion inline reified"
      ),
      extra: [["@[A-Za-z_][\\w.]*", "meta"]],
    },
    scala: {
      ...C_LIKE,
      strings: ['"""', '"', "'"],
      keywords: words(
        "abstract case catch class def do else enum extends false final finally for forSome given if implicit import lazy match new null object override package private protected return sealed super then this throw trait true try type using val var while with yield"
      ),
    },
    swift: {
      ...C_LIKE,
      strings: ['"""', '"'],
      keywords: words(
        "associatedtype class deinit enum extension fileprivate func import init inout internal let open operator private protocol public rethrows static struct subscript typealias var break case continue default defer do else fallthrough for guard if in repeat return switch where while as Any catch false is nil super self Self throw throws true try async await actor"
      ),
      extra: [["@[A-Za-z_]\\w*", "meta"]],
    },
    ruby: {
      line: ["#"],
      strings: ['"', "'"],
      keywords: words(
        "BEGIN END alias and begin break case class def defined? do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield require attr_accessor attr_reader private protected public"
      ),
      extra: [
        [":[A-Za-z_]\\w*", "key"],
        ["@{1,2}[A-Za-z_]\\w*", "var"],
      ],
    },
    php: {
      line: ["//", "#"],
      block: [["/*", "*/"]],
      strings: ['"', "'"],
      keywords: words(
        "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield true false null"
      ),
      extra: [
        ["\\$[A-Za-z_]\\w*", "var"],
        ["<\\?php|\\?>", "meta"],
      ],
    },
    lua: {
      line: ["--"],
      block: [["--[[", "]]"]],
      strings: ['"', "'"],
      keywords: words(
        "and break do else elseif end false for function goto if in local nil not or repeat return then true until while"
      ),
    },
    bash: {
      line: ["#"],
      strings: ['"', "'"],
      keywords: words(
        "if then else elif fi case esac for while until do done in function select time return exit local export readonly declare set unset shift source echo"
      ),
      extra: [
        ["\\$\\{[^}\\n]*\\}|\\$[A-Za-z_]\\w*|\\$[0-9@#?*$!-]", "var"],
        ["^#!.*", "meta"],
      ],
      commentNeedsSpace: true,
    },
    sql: {
      line: ["--"],
      block: [["/*", "*/"]],
      strings: ["'", '"'],
      ignoreCase: true,
      keywords: words(
        "add all alter and any as asc begin between by case check column commit constraint create cross database default delete desc distinct drop else end exists foreign from full function group having if in index inner insert into is join key left like limit not null on or order outer primary procedure references replace returning returns right rollback schema select set table then to transaction trigger truncate union unique update using values view when where with integer int bigint smallint text varchar char boolean date timestamp serial numeric real double precision language"
      ),
    },
    json: {
      strings: ['"'],
      keywords: words("true false null"),
      keyStrings: true,
    },
    yaml: {
      line: ["#"],
      strings: ['"', "'"],
      keywords: words("true false null yes no on off"),
      extra: [
        ["(?<=^[ \\t]*(?:-[ \\t]+)?)[A-Za-z0-9_.$/-]+(?=[ \\t]*:(?:\\s|$))", "key"],
        ["&[A-Za-z_]\\w*|\\*[A-Za-z_]\\w*", "var"],
      ],
      commentNeedsSpace: true,
    },
    toml: {
      line: ["#"],
      strings: ['"""', "'''", '"', "'"],
      keywords: words("true false"),
      extra: [
        ["^[ \\t]*\\[\\[?[^\\]\\n]*\\]\\]?", "meta"],
        ["^[ \\t]*[A-Za-z0-9_.\"'-]+(?=[ \\t]*=)", "key"],
      ],
    },
    hcl: {
      line: ["#", "//"],
      block: [["/*", "*/"]],
      strings: ['"'],
      keywords: words(
        "resource data variable output locals module provider terraform backend required_providers for_each count depends_on lifecycle dynamic content true false null for in if"
      ),
    },
    dockerfile: {
      line: ["#"],
      strings: ['"', "'"],
      ignoreCase: true,
      keywords: words(
        "from as run cmd label maintainer expose env add copy entrypoint volume user workdir arg onbuild stopsignal healthcheck shell"
      ),
      extra: [["\\$\\{[^}\\n]*\\}|\\$[A-Za-z_]\\w*", "var"]],
    },
    makefile: {
      line: ["#"],
      strings: ['"', "'"],
      keywords: words("ifeq ifneq ifdef ifndef else endif include define endef export override"),
      extra: [
        ["^[A-Za-z0-9_./%-]+(?=\\s*:(?!=))", "fn"],
        ["\\$\\([^)\\n]*\\)|\\$[@<^*?]", "var"],
      ],
    },
    css: {
      block: [["/*", "*/"]],
      strings: ['"', "'"],
      keywords: words("important inherit initial unset none auto"),
      extra: [
        ["#[0-9a-fA-F]{3,8}\\b", "num"],
        ["[A-Za-z-]+(?=\\s*:[^:])", "key"],
        ["@[A-Za-z-]+", "meta"],
        ["[.#][A-Za-z_-][\\w-]*", "ty"],
      ],
    },
    html: {
      block: [["<!--", "-->"]],
      strings: ['"', "'"],
      keywords: new Set(),
      extra: [
        ["</?[A-Za-z][\\w-]*|/?>", "kw"],
        ["[A-Za-z-:]+(?==)", "key"],
        ["&[#\\w]+;", "meta"],
      ],
      plainWords: true,
    },
    markdown: {
      strings: [],
      keywords: new Set(),
      extra: [
        ["^#{1,6} .*", "kw"],
        ["^```.*|^~~~.*", "meta"],
        ["`[^`\\n]+`", "str"],
        ["\\*\\*[^*\\n]+\\*\\*|__[^_\\n]+__", "ty"],
        ["\\[[^\\]\\n]+\\]\\([^)\\n]+\\)", "fn"],
        ["^\\s*(?:[-*+]|\\d+\\.)\\s", "meta"],
      ],
      plainWords: true,
    },
  };
  SPECS.tsx = SPECS.typescript;
  SPECS.jsx = SPECS.javascript;
  SPECS.scss = SPECS.css;
  SPECS.terraform = SPECS.hcl;
  SPECS.shell = SPECS.bash;

  const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const reEsc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

  // The compiled tokenizer of each spec: one sticky regular expression whose groups are the
  // token classes, in the order they are tried.
  const compiled = new Map();
  function compile(spec) {
    if (compiled.has(spec)) return compiled.get(spec);
    const parts = [];
    const classes = [];
    const add = (pattern, cls) => {
      parts.push("(" + pattern + ")");
      classes.push(cls);
    };
    for (const [pattern, cls] of spec.extra || []) add(pattern, cls);
    for (const [open, close] of spec.block || []) add(reEsc(open) + "[\\s\\S]*?(?:" + reEsc(close) + "|$(?![\\s\\S]))", "com");
    for (const start of spec.line || []) {
      add((spec.commentNeedsSpace ? "(?:^|(?<=\\s))" : "") + reEsc(start) + ".*", "com");
    }
    for (const d of spec.strings || []) {
      const q = reEsc(d);
      // Triple quotes and backticks span lines, up to the end of the text; others end at
      // the end of their line when unterminated.
      const multiline = d.length === 3 || d === "`";
      const body = multiline ? "(?:\\\\[\\s\\S]|[\\s\\S])*?" : "(?:\\\\.|[^\\\\\\n])*?";
      add((spec.prefix || "") + q + body + "(?:" + q + (multiline ? "|$(?![\\s\\S]))" : "|$)"), "str");
    }
    add("\\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?)[A-Za-z0-9_]*", "num");
    add("[A-Za-z_$][\\w$]*", "word");
    add("\\s+", null);
    add("[\\s\\S]", null);
    const re = new RegExp(parts.join("|"), "ym");
    const result = { re, classes };
    compiled.set(spec, result);
    return result;
  }

  // Tokens of `code`: [text, class or null].
  function tokens(code, spec) {
    const { re, classes } = compile(spec);
    const out = [];
    re.lastIndex = 0;
    let m;
    while (re.lastIndex < code.length && (m = re.exec(code))) {
      let i = 1;
      while (m[i] === undefined) i++;
      let cls = classes[i - 1];
      const text = m[0];
      if (cls === "rawstr") {
        // A Rust raw string: r#"…"# with as many hashes.
        const hashes = text.length - 2;
        const close = '"' + "#".repeat(hashes);
        const end = code.indexOf(close, re.lastIndex);
        const stop = end < 0 ? code.length : end + close.length;
        out.push([code.slice(m.index, stop), "str"]);
        re.lastIndex = stop;
        continue;
      }
      if (cls === "str" && spec.keyStrings && /^\s*:/.test(code.slice(re.lastIndex, re.lastIndex + 40))) cls = "key";
      if (cls === "word") {
        const key = spec.ignoreCase ? text.toLowerCase() : text;
        if (spec.keywords.has(key)) cls = "kw";
        else if (spec.plainWords) cls = null;
        else if (/^\s*\(/.test(code.slice(re.lastIndex, re.lastIndex + 20))) cls = "fn";
        else if (/^[A-Z]/.test(text) && !spec.ignoreCase) cls = "ty";
        else cls = null;
      }
      out.push([text, cls]);
    }
    return out;
  }

  // One escaped HTML string per line of `code`, coloured for `language` (a cocosearch
  // language id such as "python" or "tsx"); unknown languages come back plain.
  function lines(code, language) {
    const spec = SPECS[language];
    const result = [];
    let current = "";
    const emit = (text, cls) => {
      const pieces = text.split("\n");
      pieces.forEach((piece, i) => {
        if (i > 0) {
          result.push(current);
          current = "";
        }
        if (piece) current += cls ? '<span class="tk-' + cls + '">' + esc(piece) + "</span>" : esc(piece);
      });
    };
    if (!spec || code.length > 2000000) emit(code, null);
    else for (const [text, cls] of tokens(code, spec)) emit(text, cls);
    result.push(current);
    // A final newline ends the last line; it does not start another.
    if (code.endsWith("\n")) result.pop();
    return result;
  }

  window.Highlight = { lines, escape: esc, languages: Object.keys(SPECS) };
})();
