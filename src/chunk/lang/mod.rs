//! Provides [`Language`] and the registry of everything cocosearch knows about each
//! language: one module per language (its [`Spec`]: detection by extension, file name and
//! shebang, the tree-sitter grammar, the definition query and naming rules, the graph-fact
//! rules, import resolution, test-file patterns and parse-health hooks) and one line per
//! language in the [`registry!`] below.
//!
//! Adding a language is one new module here and one registry line; nothing outside this
//! directory names a language's rules. The shared machinery the modules plug into stays
//! where it was: the definition walk in `chunk::symbols`, the graph walk and its helpers in
//! `chunk::graph`, the project file view in [`project`].
//!
//! Detection is a pure function of a path and a few bytes of text, so the discovery code
//! can classify files before reading them in full and the chunker can pick a grammar
//! without any I/O.

use std::borrow::Cow;
use std::path::Path;

use tree_sitter::Node;

use super::UnknownName;
use super::graph::{At, Found};
use super::naming::{Named, Pending, Raw};

pub mod project;

/// What the language modules share: the registry's types and the helpers of the
/// definition walk and the graph walk.
#[allow(unused_imports, reason = "each language module takes what it needs of the shared prelude")]
mod prelude {
    pub(super) use tree_sitter::Node;

    pub(super) use super::project::TsConfig;
    pub(super) use super::{
        DefinitionQuery, GraphRules, Language, NameRules, ParseHooks, ProjectFiles, Resolution, Resolved, Role,
        Sections, Spec, Symbols, dir_of, family, join_path, wrap,
    };
    pub(super) use crate::chunk::graph::{
        At, Found, bases, callee, import_at, is_path, line_of, member, named_children, params, qualifier, text,
        unquote, walk,
    };
    pub(super) use crate::chunk::graph::{field_children, innermost_declarator, is_name};
    pub(super) use crate::chunk::naming::{
        Named, Pending, Raw, bare_type, is_constant_case, node_text, significant_children, unquote as strip_quotes,
    };
    pub(super) use crate::chunk::{Import, ImportKind, RefKind, SymbolKind, text as chunk_text};
}

mod bash;
mod c;
mod cpp;
mod csharp;
mod css;
mod dockerfile;
mod elixir;
mod go;
mod groovy;
mod haskell;
mod hcl;
mod html;
mod ini;
mod java;
mod javascript;
mod json;
mod kotlin;
mod lua;
mod makefile;
mod markdown;
mod php;
mod python;
mod python_stdlib;
mod rst;
mod ruby;
mod rust;
mod scala;
mod sql;
mod swift;
mod text;
mod toml;
mod tsx;
mod typescript;
mod xml;
mod yaml;
mod zig;

pub use project::{ProjectFiles, Resolution, Resolved, TsConfig, dir_of, join_path};

/// Declares [`Language`] (one variant per registry line, in the order given: the order of
/// [`Language::all`], of detection ties and of `cocosearch languages`) and maps each variant
/// to its module's `SPEC`.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident => $module:ident,)*) => {
        /// A language cocosearch can detect.
        ///
        /// Most variants have a tree-sitter grammar and are chunked syntax-aware; the
        /// grammar-less ones (`Makefile`, `Groovy`, `Ini`, `Rst`, `Xml`, `Text`) are
        /// recognised so that search results can be filtered by language, and are chunked
        /// by the text fallback.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Language {
            $($(#[$doc])* $variant,)*
        }

        /// Every variant, in declaration order.
        const ALL: &[Language] = &[$(Language::$variant,)*];

        impl Language {
            /// Everything cocosearch knows about this language.
            pub(crate) fn spec(self) -> &'static Spec {
                match self {
                    $(Language::$variant => &$module::SPEC,)*
                }
            }
        }
    };
}

registry! {
    /// Python (`.py`, `.pyi`).
    Python => python,
    /// JavaScript, including JSX (`.js`, `.mjs`, `.cjs`, `.jsx`).
    JavaScript => javascript,
    /// TypeScript without JSX (`.ts`, `.mts`, `.cts`).
    TypeScript => typescript,
    /// TypeScript with JSX (`.tsx`).
    Tsx => tsx,
    /// Go.
    Go => go,
    /// Rust.
    Rust => rust,
    /// Java.
    Java => java,
    /// C, including `.h` headers that show no C++ features.
    C => c,
    /// C++.
    Cpp => cpp,
    /// C#.
    CSharp => csharp,
    /// Ruby.
    Ruby => ruby,
    /// PHP (the grammar that also accepts the surrounding HTML).
    Php => php,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin => kotlin,
    /// Scala.
    Scala => scala,
    /// Swift.
    Swift => swift,
    /// Lua.
    Lua => lua,
    /// Elixir (`.ex`, `.exs`).
    Elixir => elixir,
    /// Haskell (`.hs`).
    Haskell => haskell,
    /// Zig (`.zig`, `.zon`).
    Zig => zig,
    /// Bash and other POSIX-like shells (sh, zsh, ksh).
    Bash => bash,
    /// HCL, including Terraform (`.tf`, `.tfvars`, `.hcl`).
    Hcl => hcl,
    /// Dockerfile / Containerfile.
    Dockerfile => dockerfile,
    /// SQL.
    Sql => sql,
    /// YAML.
    Yaml => yaml,
    /// JSON.
    Json => json,
    /// TOML.
    Toml => toml,
    /// Markdown.
    Markdown => markdown,
    /// HTML.
    Html => html,
    /// CSS.
    Css => css,
    /// Makefiles (no grammar: text fallback).
    Makefile => makefile,
    /// Groovy, including Jenkinsfiles and Gradle scripts (no grammar).
    Groovy => groovy,
    /// INI-style configuration (no grammar).
    Ini => ini,
    /// reStructuredText (no grammar).
    Rst => rst,
    /// XML and its dialects (no grammar).
    Xml => xml,
    /// Plain text (no grammar).
    Text => text,
}

/// What a language's files hold, for a ranking that puts code before the rest unless asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Source code (and build scripts, stylesheets, markup: what a change edits).
    Code,
    /// Documentation: Markdown, reStructuredText, plain text.
    Prose,
    /// Configuration data: YAML, TOML, INI, JSON, XML.
    Config,
}

/// Everything cocosearch knows about one language. Each language module defines one as
/// `SPEC`, starting from [`Spec::PLAIN`] and setting what applies.
pub(crate) struct Spec {
    /// The canonical lowercase identifier, as stored in the index and accepted by `--lang`.
    pub(crate) name: &'static str,
    /// Other names users type for it.
    pub(crate) aliases: &'static [&'static str],
    /// File extensions (lowercase, without the dot).
    pub(crate) extensions: &'static [&'static str],
    /// Exact file names (compared case-insensitively).
    pub(crate) file_names: &'static [&'static str],
    /// File-name prefixes followed by `.`, `-` or `_` (`Dockerfile.prod`), case-insensitive.
    pub(crate) name_prefixes: &'static [&'static str],
    /// Interpreters of a `#!` line (`python`, `node`), version suffixes ignored.
    pub(crate) interpreters: &'static [&'static str],
    /// Decides, from the extension and head of a file with one of [`Spec::extensions`], which language it
    /// really is (a `.h` header written in C++).
    pub(crate) refine: Option<fn(&str, &str) -> Language>,
    /// The tree-sitter grammar; `None` for languages chunked as text.
    pub(crate) grammar: Option<fn() -> tree_sitter::Language>,
    /// How definitions are found.
    pub(crate) symbols: Symbols,
    /// The separator between scopes in qualified names.
    pub(crate) separator: &'static str,
    /// Whether functions directly inside a module are methods (Ruby).
    pub(crate) modules_hold_methods: bool,
    /// How the code graph's facts are found.
    pub(crate) graph: GraphRules,
    /// How an import of this language finds a project file; `None`: never one.
    pub(crate) resolve: Option<ResolveFn>,
    /// How names reach definitions, for the graph engine.
    pub(crate) names: NameRules,
    /// What files of the language hold: code, prose or configuration.
    pub(crate) role: Role,
    /// Globs (file names) of test files.
    pub(crate) test_files: &'static [&'static str],
    /// File names many files of the language carry, one per directory (a package's
    /// `__init__.py`, a module's `mod.rs`, a folder's `index.js`): a name alone does not tell
    /// one from another, and a directory's module may live in one.
    pub(crate) generic_files: &'static [&'static str],
    /// Parse-health hooks.
    pub(crate) parse: ParseHooks,
    /// Where the splitter must start a new chunk whatever the budget.
    pub(crate) sections: Sections,
}

/// Nodes that always start a chunk of their own (a Markdown section, a Dockerfile stage, a
/// top-level HCL block, a YAML document): the units a reader looks for, kept apart even when
/// small neighbours would fit together.
#[derive(Clone, Copy)]
pub(crate) struct Sections {
    /// The node kind that starts a section.
    pub(crate) kind: Option<&'static str>,
    /// Only at this depth below the root (`None`: at any depth).
    pub(crate) depth: Option<usize>,
    /// A node kind at the root that is always split into its children, so that sections
    /// inside it are found (the `body` of an HCL file).
    pub(crate) descend_root: Option<&'static str>,
}

impl Sections {
    /// No sections: the budget alone decides.
    pub(crate) const NONE: Sections = Sections { kind: None, depth: None, descend_root: None };

    /// Sections of one node kind at any depth.
    pub(crate) const fn of(kind: &'static str) -> Sections {
        Sections { kind: Some(kind), depth: None, descend_root: None }
    }

    /// Whether `kind` at `depth` starts a new chunk.
    pub(crate) fn starts(&self, kind: &str, depth: usize) -> bool {
        self.kind == Some(kind) && self.depth.is_none_or(|d| d == depth)
    }

    /// Whether `kind` at `depth` must be split into its children even when it fits.
    pub(crate) fn descends(&self, kind: &str, depth: usize) -> bool {
        depth == 0 && self.descend_root == Some(kind)
    }
}

impl Spec {
    /// A language with no grammar and no rules: every field at its neutral value.
    pub(crate) const PLAIN: Spec = Spec {
        name: "",
        aliases: &[],
        extensions: &[],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &[],
        refine: None,
        grammar: None,
        symbols: Symbols::None,
        separator: ".",
        modules_hold_methods: false,
        graph: GraphRules::None,
        resolve: None,
        names: NameRules::PLAIN,
        role: Role::Code,
        test_files: &[],
        generic_files: &[],
        parse: ParseHooks::NONE,
        sections: Sections::NONE,
    };
}

/// How the definitions of a language are found.
pub(crate) enum Symbols {
    /// None are extracted.
    None,
    /// By a tree-sitter query, see [`DefinitionQuery`].
    Query(DefinitionQuery),
    /// By a function of the tree (Dockerfile stages and instructions).
    Walk(fn(Node<'_>, &str) -> Vec<Pending>),
}

/// A definition query and what the definition walk needs to run it.
///
/// Query conventions: a capture named after a [`super::SymbolKind`] (`@function`,
/// `@class`, `@module`, ...) marks the definition node with that kind, `@namespace` a
/// module that does not qualify the names inside it, `@name` its name, `@body` the node
/// where the signature ends, and `@receiver` a Go method receiver. Captures starting with
/// `_` only serve predicates. Each pattern is one line starting with `(kind`.
pub(crate) struct DefinitionQuery {
    /// The query text.
    pub(crate) source: &'static str,
    /// Node kinds that wrap a definition and belong to it when chunking.
    pub(crate) wrappers: &'static [Wrapper],
    /// Kinds the walk does not descend into, on top of the common ones. Only an
    /// optimisation: a kind that can hold a definition must not be listed.
    pub(crate) opaque: &'static [&'static str],
    /// Every pattern is rooted at the root node: run the query once from the root.
    pub(crate) root_only: bool,
    /// The language's naming rule: refines or drops what the capture says.
    pub(crate) name: Option<NameFn>,
}

impl DefinitionQuery {
    /// A query with no wrappers, no opaque kinds and no naming rule.
    pub(crate) const fn new(source: &'static str) -> DefinitionQuery {
        DefinitionQuery { source, wrappers: &[], opaque: &[], root_only: false, name: None }
    }
}

/// Refines a query match's kind and name (`None` drops the match).
pub(crate) type NameFn = fn(&Raw<'_>, &str, Named) -> Option<Named>;

/// A node kind that wraps a definition and belongs to it when chunking.
pub(crate) struct Wrapper {
    /// The wrapper's node kind.
    pub(crate) kind: &'static str,
    /// Whether the wrapper's own text starts the signature (`export class A`,
    /// `template <class T> T f()`); decorators do not.
    pub(crate) in_signature: bool,
    /// Whether the wrapper only counts when the definition is its sole named child (Go
    /// `type X struct{}` versus a `type (...)` group).
    pub(crate) single_only: bool,
}

/// A [`Wrapper`], in one line.
pub(crate) const fn wrap(kind: &'static str, in_signature: bool, single_only: bool) -> Wrapper {
    Wrapper { kind, in_signature, single_only }
}

/// How the graph facts of a language are found.
pub(crate) enum GraphRules {
    /// It has none.
    None,
    /// One walk over the tree that visits the listed node kinds.
    Walk {
        /// Kinds whose visit does something.
        kinds: &'static [&'static str],
        /// The visit.
        visit: fn(&At<'_, '_>, &mut Found),
    },
    /// A function of the whole tree (configuration and documentation files).
    Whole(fn(Node<'_>, &str, &mut Found)),
}

/// Resolves one import written in `from`.
pub(crate) type ResolveFn = fn(&dyn ProjectFiles, &str, &super::Import) -> Resolved;

/// How the names of a language reach definitions, for the graph engine.
#[derive(Clone, Copy)]
pub(crate) struct NameRules {
    /// A parameter can hold a function and hide one of the same name.
    pub(crate) functions_are_values: bool,
    /// Bare names inside a class reach its members (no `self.`/`this.`).
    pub(crate) bare_members: bool,
    /// An import brings every name of the imported file into scope (C includes).
    pub(crate) imports_bring_all_names: bool,
    /// Files of one directory share a package (their names need no import).
    pub(crate) package_per_directory: bool,
    /// Languages of one family can name each other's definitions (0: its own family).
    pub(crate) family: u8,
}

impl NameRules {
    /// No rule applies.
    pub(crate) const PLAIN: NameRules = NameRules {
        functions_are_values: false,
        bare_members: false,
        imports_bring_all_names: false,
        package_per_directory: false,
        family: 0,
    };
}

/// Families of languages that name each other's definitions ([`NameRules::family`]).
pub(crate) mod family {
    /// JavaScript and TypeScript.
    pub(crate) const JAVASCRIPT: u8 = 1;
    /// The JVM languages.
    pub(crate) const JVM: u8 = 2;
    /// C and C++.
    pub(crate) const C: u8 = 3;
}

/// A same-length rewrite of a source before parsing (see [`ParseHooks::prepare`]).
pub(crate) type PrepareFn = for<'a> fn(&'a str) -> Cow<'a, str>;

/// A second text to parse when the prepared one has errors (see [`ParseHooks::retry`]).
pub(crate) type RetryFn = for<'a> fn(&'a str) -> Option<Cow<'a, str>>;

/// Where a language module adjusts parsing, for parse health: the source the grammar
/// sees, and which syntax errors count.
#[derive(Clone, Copy)]
pub(crate) struct ParseHooks {
    /// Rewrites the source before parsing, keeping every byte offset (replace text with
    /// text of the same length, for example blanks over a macro line); `None` keeps it.
    /// The rules live in `chunk::prepare`, one file per language.
    pub(crate) prepare: Option<PrepareFn>,
    /// A second text to try when the prepared one parses with errors; the chunker keeps
    /// whichever tree has fewer bytes under errors.
    pub(crate) retry: Option<RetryFn>,
    /// Whether a syntax error (its node) is only a grammar limitation that should not mark
    /// chunks `partial`.
    pub(crate) tolerate: Option<fn(Node<'_>, &str) -> bool>,
}

impl ParseHooks {
    /// No adjustment.
    pub(crate) const NONE: ParseHooks = ParseHooks { prepare: None, retry: None, tolerate: None };
}

impl Language {
    /// The number of variants.
    pub(crate) const COUNT: usize = ALL.len();

    /// The position of this variant in [`Language::all`], for per-language tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// All languages, in a stable order.
    pub fn all() -> &'static [Language] {
        ALL
    }

    /// The canonical lowercase identifier, as stored in the index and accepted by `--lang`
    /// filters.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Other names users type for this language; [`Language::from_name`] accepts them
    /// case-insensitively.
    pub fn aliases(self) -> &'static [&'static str] {
        self.spec().aliases
    }

    /// Parses a canonical name or alias, ignoring ASCII case and surrounding whitespace.
    /// Returns `None` for unknown names.
    pub fn from_name(s: &str) -> Option<Language> {
        let s = s.trim();
        ALL.iter().copied().find(|lang| {
            lang.name().eq_ignore_ascii_case(s) || lang.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
        })
    }

    /// Why `typed` names no language: the closest name (or alias) when it looks like a typo,
    /// and the names there are (`unknown language "pyton" — did you mean `python`? …`).
    pub fn unknown(typed: &str) -> String {
        let names = ALL.iter().flat_map(|l| std::iter::once(l.name()).chain(l.aliases().iter().copied()));
        let known: Vec<&str> = ALL.iter().map(|l| l.name()).collect();
        match crate::config::did_you_mean(typed.trim(), names) {
            Some(mean) => format!("unknown language {typed:?} — {mean} (one of: {})", known.join(", ")),
            None => format!("unknown language {typed:?} — use one of: {}", known.join(", ")),
        }
    }

    /// File extensions (without the dot, lowercase) that select this language. Matching is
    /// case-insensitive.
    pub fn extensions(self) -> &'static [&'static str] {
        self.spec().extensions
    }

    /// Exact file names (compared case-insensitively) that select this language regardless
    /// of extension. Variants such as `Dockerfile.prod` or `Jenkinsfile.release` are
    /// handled by [`Language::detect`].
    pub fn file_names(self) -> &'static [&'static str] {
        self.spec().file_names
    }

    /// The tree-sitter grammar, or `None` for grammar-less languages.
    pub fn grammar(self) -> Option<tree_sitter::Language> {
        self.spec().grammar.map(|grammar| grammar())
    }

    /// Whether [`crate::chunk::chunk_source`] extracts symbols for this language. HTML, CSS
    /// and the grammar-less languages have none.
    pub fn has_symbols(self) -> bool {
        self.grammar().is_some() && !matches!(self.spec().symbols, Symbols::None)
    }

    /// The separator between scopes in qualified names (`::` in Rust and C++, ` > ` between
    /// Markdown headings, `.` elsewhere).
    pub fn separator(self) -> &'static str {
        self.spec().separator
    }

    /// Whether files of this language are prose (Markdown, reStructuredText, plain text).
    pub fn is_prose(self) -> bool {
        self.spec().role == Role::Prose
    }

    /// What files of the language hold.
    pub fn role(self) -> Role {
        self.spec().role
    }

    /// Globs of file names that are tests in this language (`test_*.py`).
    pub fn test_file_patterns(self) -> &'static [&'static str] {
        self.spec().test_files
    }

    /// Whether `name` is a file name some language gives many files, one per directory
    /// (`__init__.py`, `mod.rs`, `index.js`).
    pub fn is_generic_file_name(name: &str) -> bool {
        ALL.iter().any(|l| l.spec().generic_files.iter().any(|g| g.eq_ignore_ascii_case(name)))
    }

    /// The generic file names of every language (see [`Language::is_generic_file_name`]).
    pub fn generic_file_names() -> impl Iterator<Item = &'static str> {
        ALL.iter().flat_map(|l| l.spec().generic_files.iter().copied())
    }

    /// How names reach definitions in this language.
    pub(crate) fn name_rules(self) -> NameRules {
        self.spec().names
    }

    /// Guesses the language of a file from its path and the beginning of its contents
    /// (`head`; only the first line and, for `.h`, all of `head` up to its first C++ line are
    /// looked at).
    ///
    /// Rules, first match wins:
    /// 1. the exact file name ([`Language::file_names`], case-insensitive);
    /// 2. name patterns: `Dockerfile.*` / `Containerfile.*` are Dockerfiles, `Makefile.*`
    ///    Makefiles, `Jenkinsfile.*` Groovy;
    /// 3. the extension, case-insensitively ([`Language::extensions`]); a `.h` header is C
    ///    unless its head shows C++ (a line starting with `class`, `namespace`, `template`,
    ///    `public:`/`private:`/`protected:`, or any `std::`), in which case it is C++;
    /// 4. a `#!` shebang on the first line, including `#!/usr/bin/env -S node` and
    ///    versioned interpreters such as `python3.12`.
    ///
    /// Returns `None` when nothing matches; callers index such text as `text`.
    pub fn detect(path: &Path, head: &str) -> Option<Language> {
        // A byte-order mark before `#!` does not hide the shebang.
        let head = head.strip_prefix(super::BYTE_ORDER_MARK).unwrap_or(head);
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(lang) = detect_by_file_name(file_name) {
            return Some(lang);
        }
        if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
            let ext = ext.to_ascii_lowercase();
            if let Some(lang) = ALL.iter().copied().find(|l| l.extensions().contains(&ext.as_str())) {
                return Some(lang.spec().refine.map_or(lang, |refine| refine(&ext, head)));
            }
        }
        detect_shebang(head)
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Language {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Language::from_name(s).ok_or_else(|| UnknownName::new("language", s))
    }
}

impl serde::Serialize for Language {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Language {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Language::from_name(&name).ok_or_else(|| serde::de::Error::custom(UnknownName::new("language", &name)))
    }
}

/// Matches exact file names and the name patterns of rule 2 in [`Language::detect`].
fn detect_by_file_name(file_name: &str) -> Option<Language> {
    if file_name.is_empty() {
        return None;
    }
    if let Some(lang) = ALL.iter().copied().find(|l| l.file_names().iter().any(|n| n.eq_ignore_ascii_case(file_name))) {
        return Some(lang);
    }
    let lower = file_name.to_ascii_lowercase();
    let prefixed = |prefix: &str| lower.strip_prefix(prefix).is_some_and(|rest| rest.starts_with(['.', '-', '_']));
    ALL.iter().copied().find(|l| l.spec().name_prefixes.iter().any(|p| prefixed(p)))
}

/// Reads the interpreter from a `#!` line and maps it to a language.
fn detect_shebang(head: &str) -> Option<Language> {
    let first = head.lines().next()?.strip_prefix("#!")?;
    let mut words = first.split_whitespace();
    let program = words.next()?;
    let mut name = program.rsplit('/').next().unwrap_or(program);
    if name == "env" {
        // `env` may take options (`-S` splits the rest, `-i`, `-u NAME`) and `VAR=value`
        // assignments before the interpreter.
        let mut found = None;
        let mut skip_next = false;
        for word in words {
            if skip_next {
                skip_next = false;
                continue;
            }
            if word == "-u" || word == "--unset" || word == "-C" || word == "--chdir" {
                skip_next = true;
                continue;
            }
            if word.starts_with('-') || word.contains('=') {
                continue;
            }
            found = Some(word);
            break;
        }
        let word = found?;
        name = word.rsplit('/').next().unwrap_or(word);
    }
    // Versioned interpreters (`python3.12`, `lua5.4`) share a language with the
    // unversioned name.
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    ALL.iter().copied().find(|l| l.spec().interpreters.contains(&base))
}

#[cfg(test)]
mod tests;
