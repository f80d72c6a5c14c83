//! Provides [`Language`]: the languages cocosearch recognises, their names and
//! aliases, file-name and extension rules, shebang detection, and the
//! tree-sitter grammar behind each one.
//!
//! Everything here is a pure function of a path and a few bytes of text, so the
//! discovery code can classify files before reading them in full and the chunker
//! can pick a grammar without any I/O.

use std::path::Path;

use super::UnknownName;

/// A language cocosearch can detect.
///
/// Most variants have a tree-sitter grammar and are chunked syntax-aware; the
/// grammar-less ones (`Makefile`, `Groovy`, `Ini`, `Rst`, `Xml`, `Text`) are
/// recognised so that search results can be filtered by language, and are
/// chunked by the text fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// Python (`.py`, `.pyi`).
    Python,
    /// JavaScript, including JSX (`.js`, `.mjs`, `.cjs`, `.jsx`).
    JavaScript,
    /// TypeScript without JSX (`.ts`, `.mts`, `.cts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// Go.
    Go,
    /// Rust.
    Rust,
    /// Java.
    Java,
    /// C, including `.h` headers that show no C++ features.
    C,
    /// C++.
    Cpp,
    /// C#.
    CSharp,
    /// Ruby.
    Ruby,
    /// PHP (the grammar that also accepts the surrounding HTML).
    Php,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
    /// Scala.
    Scala,
    /// Swift.
    Swift,
    /// Lua.
    Lua,
    /// Bash and other POSIX-like shells (sh, zsh, ksh).
    Bash,
    /// HCL, including Terraform (`.tf`, `.tfvars`, `.hcl`).
    Hcl,
    /// Dockerfile / Containerfile.
    Dockerfile,
    /// SQL.
    Sql,
    /// YAML.
    Yaml,
    /// JSON.
    Json,
    /// TOML.
    Toml,
    /// Markdown.
    Markdown,
    /// HTML.
    Html,
    /// CSS.
    Css,
    /// Makefiles (no grammar: text fallback).
    Makefile,
    /// Groovy, including Jenkinsfiles and Gradle scripts (no grammar).
    Groovy,
    /// INI-style configuration (no grammar).
    Ini,
    /// reStructuredText (no grammar).
    Rst,
    /// XML and its dialects (no grammar).
    Xml,
    /// Plain text (no grammar).
    Text,
}

/// Every variant, in declaration order.
const ALL: &[Language] = &[
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Rust,
    Language::Java,
    Language::C,
    Language::Cpp,
    Language::CSharp,
    Language::Ruby,
    Language::Php,
    Language::Kotlin,
    Language::Scala,
    Language::Swift,
    Language::Lua,
    Language::Bash,
    Language::Hcl,
    Language::Dockerfile,
    Language::Sql,
    Language::Yaml,
    Language::Json,
    Language::Toml,
    Language::Markdown,
    Language::Html,
    Language::Css,
    Language::Makefile,
    Language::Groovy,
    Language::Ini,
    Language::Rst,
    Language::Xml,
    Language::Text,
];

impl Language {
    /// The number of variants.
    pub(crate) const COUNT: usize = ALL.len();

    /// The position of this variant in [`Language::all`], for per-language
    /// tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// All languages, in a stable order.
    pub fn all() -> &'static [Language] {
        ALL
    }

    /// The canonical lowercase identifier, as stored in the index and accepted
    /// by `--lang` filters.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Php => "php",
            Language::Kotlin => "kotlin",
            Language::Scala => "scala",
            Language::Swift => "swift",
            Language::Lua => "lua",
            Language::Bash => "bash",
            Language::Hcl => "hcl",
            Language::Dockerfile => "dockerfile",
            Language::Sql => "sql",
            Language::Yaml => "yaml",
            Language::Json => "json",
            Language::Toml => "toml",
            Language::Markdown => "markdown",
            Language::Html => "html",
            Language::Css => "css",
            Language::Makefile => "makefile",
            Language::Groovy => "groovy",
            Language::Ini => "ini",
            Language::Rst => "rst",
            Language::Xml => "xml",
            Language::Text => "text",
        }
    }

    /// Other names users type for this language; [`Language::from_name`]
    /// accepts them case-insensitively.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["py", "python3"],
            Language::JavaScript => &["js", "jsx", "node", "ecmascript"],
            Language::TypeScript => &["ts"],
            Language::Tsx => &[],
            Language::Go => &["golang"],
            Language::Rust => &["rs"],
            Language::Java => &[],
            Language::C => &[],
            Language::Cpp => &["c++", "cxx", "cc", "hpp"],
            Language::CSharp => &["c#", "cs", "c-sharp", "dotnet"],
            Language::Ruby => &["rb"],
            Language::Php => &[],
            Language::Kotlin => &["kt", "kts"],
            Language::Scala => &["sc"],
            Language::Swift => &[],
            Language::Lua => &[],
            Language::Bash => &["shell", "sh", "zsh", "ksh"],
            Language::Hcl => &["terraform", "tf", "tfvars"],
            Language::Dockerfile => &["docker", "containerfile"],
            Language::Sql => &["postgres", "postgresql", "psql"],
            Language::Yaml => &["yml"],
            Language::Json => &["jsonc"],
            Language::Toml => &[],
            Language::Markdown => &["md"],
            Language::Html => &["htm", "xhtml"],
            Language::Css => &[],
            Language::Makefile => &["make", "mk", "gnumakefile"],
            Language::Groovy => &["jenkinsfile", "gradle", "jenkins"],
            Language::Ini => &["cfg", "conf", "editorconfig"],
            Language::Rst => &["restructuredtext"],
            Language::Xml => &["svg", "xsd"],
            Language::Text => &["txt", "plain", "plaintext"],
        }
    }

    /// Parses a canonical name or alias, ignoring ASCII case and surrounding
    /// whitespace. Returns `None` for unknown names.
    pub fn from_name(s: &str) -> Option<Language> {
        let s = s.trim();
        ALL.iter().copied().find(|lang| {
            lang.name().eq_ignore_ascii_case(s) || lang.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
        })
    }

    /// File extensions (without the dot, lowercase) that select this language.
    /// Matching is case-insensitive.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &["py", "pyi", "pyw"],
            Language::JavaScript => &["js", "mjs", "cjs", "jsx"],
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::Go => &["go"],
            Language::Rust => &["rs"],
            Language::Java => &["java"],
            Language::C => &["c", "h"],
            Language::Cpp => &["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "tpp", "inl"],
            Language::CSharp => &["cs", "csx"],
            Language::Ruby => &["rb", "rake", "gemspec", "ru"],
            Language::Php => &["php", "phtml"],
            Language::Kotlin => &["kt", "kts"],
            Language::Scala => &["scala", "sc", "sbt"],
            Language::Swift => &["swift"],
            Language::Lua => &["lua"],
            Language::Bash => &["sh", "bash", "zsh", "ksh", "bats"],
            Language::Hcl => &["tf", "tfvars", "hcl"],
            Language::Dockerfile => &["dockerfile", "containerfile"],
            Language::Sql => &["sql", "psql", "pgsql"],
            Language::Yaml => &["yaml", "yml"],
            Language::Json => &["json", "jsonc", "geojson", "webmanifest"],
            Language::Toml => &["toml"],
            Language::Markdown => &["md", "markdown", "mkd", "mdown"],
            Language::Html => &["html", "htm", "xhtml"],
            Language::Css => &["css"],
            Language::Makefile => &["mk", "mak", "make"],
            Language::Groovy => &["groovy", "gradle", "gvy"],
            Language::Ini => &["ini", "cfg"],
            Language::Rst => &["rst"],
            Language::Xml => &["xml", "xsd", "xsl", "xslt", "svg", "plist", "csproj", "fsproj", "vbproj"],
            Language::Text => &["txt", "text"],
        }
    }

    /// Exact file names (compared case-insensitively) that select this
    /// language regardless of extension. Variants such as `Dockerfile.prod`
    /// or `Jenkinsfile.release` are handled by [`Language::detect`].
    pub fn file_names(self) -> &'static [&'static str] {
        match self {
            Language::Dockerfile => &["Dockerfile", "Containerfile"],
            Language::Makefile => &["Makefile", "GNUmakefile", "makefile"],
            Language::Groovy => &["Jenkinsfile"],
            Language::Ruby => {
                &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile", "Podfile", "Brewfile", "Fastfile", ".irbrc"]
            }
            Language::Bash => &[
                ".bashrc",
                ".bash_profile",
                ".bash_login",
                ".bash_logout",
                ".bash_aliases",
                ".zshrc",
                ".zshenv",
                ".zprofile",
                ".zlogin",
                ".profile",
                ".envrc",
                "PKGBUILD",
            ],
            Language::Toml => &["Cargo.lock", "Pipfile", "poetry.lock", "uv.lock"],
            Language::Json => &[".babelrc", ".prettierrc"],
            Language::Python => &["SConstruct", "SConscript"],
            Language::Ini => &[".editorconfig", ".gitconfig", ".gitmodules", ".flake8"],
            Language::Text => &["LICENSE", "COPYING", "NOTICE", "AUTHORS"],
            _ => &[],
        }
    }

    /// The tree-sitter grammar, or `None` for grammar-less languages.
    pub fn grammar(self) -> Option<tree_sitter::Language> {
        let lang: tree_sitter::Language = match self {
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Language::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Language::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Language::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
            Language::Scala => tree_sitter_scala::LANGUAGE.into(),
            Language::Swift => tree_sitter_swift::LANGUAGE.into(),
            Language::Lua => tree_sitter_lua::LANGUAGE.into(),
            Language::Bash => tree_sitter_bash::LANGUAGE.into(),
            Language::Hcl => tree_sitter_hcl::LANGUAGE.into(),
            // The arborium crate exposes a function rather than a constant.
            Language::Dockerfile => arborium_dockerfile::language().into(),
            Language::Sql => tree_sitter_sequel::LANGUAGE.into(),
            Language::Yaml => tree_sitter_yaml::LANGUAGE.into(),
            Language::Json => tree_sitter_json::LANGUAGE.into(),
            Language::Toml => tree_sitter_toml_ng::LANGUAGE.into(),
            // Only the block grammar is needed: sections and blocks are
            // block-level structure, and the inline grammar would cost a
            // second parse per block for nothing the chunker uses.
            Language::Markdown => tree_sitter_md::LANGUAGE.into(),
            Language::Html => tree_sitter_html::LANGUAGE.into(),
            Language::Css => tree_sitter_css::LANGUAGE.into(),
            Language::Makefile | Language::Groovy | Language::Ini | Language::Rst | Language::Xml | Language::Text => {
                return None;
            }
        };
        Some(lang)
    }

    /// Whether [`crate::chunk::chunk_source`] extracts symbols for this
    /// language. HTML, CSS and the grammar-less languages have none.
    pub fn has_symbols(self) -> bool {
        self.grammar().is_some() && !matches!(self, Language::Html | Language::Css)
    }

    /// Guesses the language of a file from its path and the beginning of its
    /// contents (`head`; only the first line and, for `.h`, all of `head`
    /// up to its first C++ line are looked at).
    ///
    /// Rules, first match wins:
    /// 1. the exact file name ([`Language::file_names`], case-insensitive);
    /// 2. name patterns: `Dockerfile.*` / `Containerfile.*` / `*.dockerfile`
    ///    are Dockerfiles, `Makefile.*` Makefiles, `Jenkinsfile.*` Groovy;
    /// 3. the extension, case-insensitively ([`Language::extensions`]); a
    ///    `.h` header is C unless its head shows C++ (a line starting with
    ///    `class`, `namespace`, `template`, `public:`/`private:`/`protected:`,
    ///    or any `std::`), in which case it is C++;
    /// 4. a `#!` shebang on the first line, including `#!/usr/bin/env -S node`
    ///    and versioned interpreters such as `python3.12`.
    ///
    /// Returns `None` when nothing matches; callers index such text as
    /// `text`.
    pub fn detect(path: &Path, head: &str) -> Option<Language> {
        // A byte-order mark before `#!` does not hide the shebang.
        let head = head.strip_prefix(super::BYTE_ORDER_MARK).unwrap_or(head);
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(lang) = detect_by_file_name(file_name) {
            return Some(lang);
        }
        if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
            let ext = ext.to_ascii_lowercase();
            if ext == "h" {
                return Some(if looks_like_cpp(head) { Language::Cpp } else { Language::C });
            }
            if let Some(lang) = ALL.iter().copied().find(|l| l.extensions().contains(&ext.as_str())) {
                return Some(lang);
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

/// Matches exact file names and the name patterns of rule 2 in
/// [`Language::detect`].
fn detect_by_file_name(file_name: &str) -> Option<Language> {
    if file_name.is_empty() {
        return None;
    }
    if let Some(lang) = ALL.iter().copied().find(|l| l.file_names().iter().any(|n| n.eq_ignore_ascii_case(file_name))) {
        return Some(lang);
    }
    let lower = file_name.to_ascii_lowercase();
    let prefixed = |prefix: &str| lower.strip_prefix(prefix).is_some_and(|rest| rest.starts_with(['.', '-', '_']));
    if prefixed("dockerfile") || prefixed("containerfile") {
        return Some(Language::Dockerfile);
    }
    if prefixed("makefile") || prefixed("gnumakefile") {
        return Some(Language::Makefile);
    }
    if prefixed("jenkinsfile") {
        return Some(Language::Groovy);
    }
    None
}

/// Whether a `.h` header (as much of it as the caller passes) uses C++-only
/// syntax. The check is line-based and cheap on purpose and stops at the first
/// C++ line; a wrong guess only costs parse quality, since both grammars
/// recover from errors.
fn looks_like_cpp(head: &str) -> bool {
    head.lines().any(|line| {
        let t = line.trim_start();
        t.starts_with("class ")
            || t.starts_with("namespace ")
            || t.starts_with("template<")
            || t.starts_with("template <")
            || t.starts_with("public:")
            || t.starts_with("private:")
            || t.starts_with("protected:")
            || t.contains("std::")
    })
}

/// Reads the interpreter from a `#!` line and maps it to a language.
fn detect_shebang(head: &str) -> Option<Language> {
    let first = head.lines().next()?.strip_prefix("#!")?;
    let mut words = first.split_whitespace();
    let program = words.next()?;
    let mut name = program.rsplit('/').next().unwrap_or(program);
    if name == "env" {
        // `env` may take options (`-S` splits the rest, `-i`, `-u NAME`) and
        // `VAR=value` assignments before the interpreter.
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
    // Versioned interpreters (`python3.12`, `lua5.4`) share a language with
    // the unversioned name.
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    let lang = match base {
        "python" | "pypy" | "uv" => Language::Python,
        "bash" | "sh" | "zsh" | "ksh" | "dash" | "ash" | "mksh" | "bats" => Language::Bash,
        "node" | "nodejs" | "deno" | "bun" | "qjs" => Language::JavaScript,
        "ts-node" | "tsx" => Language::TypeScript,
        "ruby" | "jruby" => Language::Ruby,
        "php" => Language::Php,
        "lua" | "luajit" | "texlua" => Language::Lua,
        "make" | "gmake" => Language::Makefile,
        "groovy" => Language::Groovy,
        "swift" => Language::Swift,
        "scala" => Language::Scala,
        "kotlin" | "kscript" => Language::Kotlin,
        _ => return None,
    };
    Some(lang)
}
