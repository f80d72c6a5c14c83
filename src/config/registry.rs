//! The table of every setting: its YAML key, environment variable, type, default and help.
//!
//! One table drives everything that lists settings — validation of YAML keys (with "did you
//! mean" suggestions), the environment mapping, `config show`, the generated example file
//! `config/cocosearch.example.yaml` and the README table — so they cannot drift apart.
//! The environment variable of a key is derived, never hand-written: `search.resultLimit`
//! becomes `COCOSEARCH_SEARCH_RESULT_LIMIT`.

/// The value type of a setting; it decides how environment and `--set` strings are parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    Str,
    /// A non-negative integer.
    Int,
    /// A floating-point number.
    Float,
    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off` from the environment).
    Bool,
    /// A list of strings; comma-separated in the environment and on the command line.
    List,
    /// Named lists of index names: a mapping in YAML, `name=a,b;other=c` in the environment.
    Groups,
}

/// How a setting's value must be shown to humans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secret {
    /// Shown as is.
    No,
    /// A URL whose password and credential-like query values are replaced by `***`.
    UrlPassword,
    /// Never shown; `***` when set.
    Whole,
}

/// Whether a setting decides where code, queries or credentials go.
///
/// A project's own `cocosearch.yaml` may be a file someone else wrote (a cloned repository),
/// so it may set an [`Reach::Elsewhere`] key only once the user trusts the project
/// (`cocosearch config trust`); see `config::trust`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Changes what happens on this machine only.
    Here,
    /// Names an endpoint, a credential, a store, another index, a directory outside the
    /// project, or how the MCP server is exposed.
    Elsewhere,
}

/// The built-in default of a setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    /// No default: the setting is unset unless configured.
    None,
    /// Derived at run time; the text says from what.
    Derived(&'static str),
    /// A string default.
    Str(&'static str),
    /// An integer default.
    Int(i64),
    /// A float default.
    Float(f64),
    /// A boolean default.
    Bool(bool),
    /// An empty list.
    EmptyList,
}

/// One setting of the configuration.
#[derive(Debug, Clone, Copy)]
pub struct SettingDef {
    /// The dotted YAML key, in CocoSearch's camelCase spelling (`search.resultLimit`).
    pub key: &'static str,
    /// The value type.
    pub kind: Kind,
    /// The built-in default.
    pub default: Default,
    /// Whether and how the value is redacted when shown.
    pub secret: Secret,
    /// Older or shorter environment variables that also set this key, with lower precedence
    /// than the derived one (e.g. `COCOSEARCH_OLLAMA_URL` for `embedding.baseUrl`).
    pub env_aliases: &'static [&'static str],
    /// Whether a project's own file needs the user's trust to set it.
    pub reach: Reach,
    /// One line of help.
    pub doc: &'static str,
}

impl SettingDef {
    /// The environment variable derived from the key: `COCOSEARCH_` + upper snake case.
    pub fn env_var(&self) -> String {
        let mut out = String::from("COCOSEARCH_");
        let mut prev_lower = false;
        for c in self.key.chars() {
            if c == '.' {
                out.push('_');
                prev_lower = false;
            } else if c.is_ascii_uppercase() {
                if prev_lower {
                    out.push('_');
                }
                out.push(c);
                prev_lower = false;
            } else {
                out.push(c.to_ascii_uppercase());
                prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            }
        }
        out
    }

    /// The YAML section the key lives in (`search`), or `None` for a top-level key.
    pub fn section(&self) -> Option<&'static str> {
        self.key.split_once('.').map(|(section, _)| section)
    }

    /// The key's last component (`resultLimit`).
    pub fn leaf(&self) -> &'static str {
        self.key.rsplit('.').next().unwrap_or(self.key)
    }
}

const fn def(key: &'static str, kind: Kind, default: Default, doc: &'static str) -> SettingDef {
    SettingDef { key, kind, default, secret: Secret::No, env_aliases: &[], reach: Reach::Here, doc }
}

/// The default database URL; it matches the credentials of the shipped `docker-compose.yml`.
pub const DEFAULT_DATABASE_URL: &str = "postgresql://cocosearch:cocosearch@localhost:5432/cocosearch";
/// The default Ollama address.
pub const DEFAULT_OLLAMA_URL: &str = "http://localhost:11434";
/// The default base URL of the OpenAI-compatible provider.
pub const DEFAULT_OPENAI_URL: &str = "https://api.openai.com/v1";
/// The default base URL of the `openrouter` provider (OpenRouter's OpenAI-compatible API).
pub const DEFAULT_OPENROUTER_URL: &str = "https://openrouter.ai/api/v1";
/// The model of `embedding.provider: openrouter` when `embedding.model` is not configured
/// (CocoSearch's default for that provider).
pub const DEFAULT_OPENROUTER_MODEL: &str = "openai/text-embedding-3-small";
/// Where built-in models are downloaded from (huggingface_hub's default `HF_ENDPOINT`).
pub const DEFAULT_HUB_URL: &str = "https://huggingface.co";
/// The model of `embedding.provider: builtin` when `embedding.model` is not configured; its
/// files and pinned revision are in `embed::builtin::models`.
pub const DEFAULT_BUILTIN_MODEL: &str = "all-minilm-l6-v2";

/// Every setting, in the order `config show` and the example file list them.
pub static SETTINGS: &[SettingDef] = &[
    def(
        "indexName",
        Kind::Str,
        Default::Derived("the project directory's name, sanitized"),
        "Name of this project's index (lowercase letters, digits, underscores; a name such as my-app, which CocoSearch accepts, becomes my_app).",
    ),
    SettingDef {
        reach: Reach::Elsewhere,
        ..def("linkedIndexes", Kind::List, Default::EmptyList, "Other indexes searched together with this one.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "indexGroups",
            Kind::Groups,
            Default::None,
            "Named sets of indexes searched together with `--indexes @NAME` (`name=a,b;other=c` in the environment).",
        )
    },
    def(
        "projectPath",
        Kind::Str,
        Default::Derived("the git root above the working directory, unless that repository ignores it"),
        "The project root to index and search.",
    ),
    def("logLevel", Kind::Str, Default::Str("warn"), "Log level on stderr: error, warn, info, debug or trace."),
    def(
        "database.backend",
        Kind::Str,
        Default::Str("auto"),
        "Where indexes live: sqlite (the embedded store), postgres, or auto (PostgreSQL when database.url is set or a server answers at the default URL, else the embedded store).",
    ),
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::UrlPassword,
        ..def(
            "database.url",
            Kind::Str,
            Default::Str(DEFAULT_DATABASE_URL),
            "PostgreSQL (with pgvector) connection URL; setting it selects PostgreSQL under database.backend auto.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "database.path",
            Kind::Str,
            Default::Derived(
                "the platform data directory: $XDG_DATA_HOME/cocosearch or ~/.local/share/cocosearch (Linux), ~/Library/Application Support/cocosearch (macOS), %APPDATA%\\cocosearch (Windows)",
            ),
            "Directory of the embedded store (database.backend sqlite).",
        )
    },
    def(
        "database.poolSize",
        Kind::Int,
        Default::Int(4),
        "Maximum number of pooled PostgreSQL connections, and of requests an MCP or dashboard server serves at once (the rest wait their turn).",
    ),
    def("database.connectTimeout", Kind::Int, Default::Int(5), "Seconds to wait for a database connection."),
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::UrlPassword,
        ..def(
            "shared.url",
            Kind::Str,
            Default::None,
            "A team's shared index: the PostgreSQL URL (a read-only role) of the database a CI job indexes the default branch into. When set, `cocosearch index` indexes only the files that differ from it into the local store, and searches read both as one index.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "shared.index",
            Kind::Str,
            Default::Derived("this project's index name"),
            "The shared index's name in that database.",
        )
    },
    def(
        "indexing.includePatterns",
        Kind::List,
        Default::EmptyList,
        "Globs of files to index; empty means every supported text file.",
    ),
    def(
        "indexing.excludePatterns",
        Kind::List,
        Default::EmptyList,
        "Globs of files to leave out, on top of .gitignore and the built-in exclusions.",
    ),
    def(
        "indexing.includeSensitive",
        Kind::List,
        Default::EmptyList,
        "Globs of sensitive-looking files (.env*, *.pem, ...) to index anyway.",
    ),
    def(
        "indexing.chunkSize",
        Kind::Int,
        Default::Int(648),
        "Chunk budget in bytes of source, whatever the embedder (648 = 256 tokens x 3 bytes - 120 for path and context: a 256-token model like all-MiniLM-L6-v2 embeds a chunk whole).",
    ),
    def(
        "indexing.chunkOverlap",
        Kind::Int,
        Default::Int(200),
        "Bytes of overlap between chunks of files without a grammar.",
    ),
    def("indexing.maxFileSize", Kind::Int, Default::Int(1024 * 1024), "Files larger than this many bytes are skipped."),
    def(
        "indexing.respectGitignore",
        Kind::Bool,
        Default::Bool(true),
        "Honour .gitignore, .git/info/exclude and the global gitignore.",
    ),
    def(
        "indexing.watch",
        Kind::Bool,
        Default::Bool(true),
        "Keep indexes fresh while `cocosearch mcp` and `cocosearch dashboard` serve them: re-index changed files as they are saved (`--no-watch` turns it off for one server; `cocosearch watch` always watches).",
    ),
    def(
        "indexing.watchDebounceMs",
        Kind::Int,
        Default::Int(200),
        "Milliseconds of quiet a watcher waits for after a change before re-indexing, so a burst (a save, a branch switch) is one batch.",
    ),
    def(
        "indexing.keepSnapshots",
        Kind::Int,
        Default::Int(3),
        "Snapshots an index keeps besides the current one and the branches checked out in a worktree: older ones are deleted with whatever only they stored (`cocosearch snapshots`).",
    ),
    def("search.resultLimit", Kind::Int, Default::Int(10), "Number of results returned by a search."),
    def("search.minScore", Kind::Float, Default::Float(0.0), "Results scoring below this (0..1) are dropped."),
    def("search.smartContext", Kind::Bool, Default::Bool(true), "Expand hits to their enclosing function or class."),
    def("search.maxContextLines", Kind::Int, Default::Int(50), "Cap on the lines of an expanded hit."),
    def(
        "embedding.provider",
        Kind::Str,
        Default::Str("auto"),
        "auto (an index keeps the embedder it was built with; a new one uses the built-in default model), builtin (in-process models, downloaded once), ollama, openai (any OpenAI-compatible server), openrouter (OpenRouter's OpenAI-compatible API, with embedding.apiKey) or none (keyword search only).",
    ),
    def(
        "embedding.model",
        Kind::Str,
        Default::Str("nomic-embed-text"),
        "Embedding model name: a built-in model (all-minilm-l6-v2, the default of builtin and of new indexes under auto; potion-code-16m, static and much faster; `cocosearch model list`) or a server's model (nomic-embed-text is the default of ollama and openai, openai/text-embedding-3-small of openrouter; under auto, a server model name means ollama).",
    ),
    def(
        "embedding.outputDimension",
        Kind::Int,
        Default::None,
        "Requested vector dimension, for models that can shorten their output.",
    ),
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::UrlPassword,
        env_aliases: &["COCOSEARCH_OLLAMA_URL"],
        ..def(
            "embedding.baseUrl",
            Kind::Str,
            Default::Derived(
                "http://localhost:11434 (ollama), https://api.openai.com/v1 (openai), https://openrouter.ai/api/v1 (openrouter)",
            ),
            "Address of the embedding server.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::Whole,
        ..def("embedding.apiKey", Kind::Str, Default::None, "API key for the openai and openrouter providers.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "embedding.modelPath",
            Kind::Str,
            Default::None,
            "A local model directory (config.json, tokenizer.json, model.safetensors): the model of new indexes, named by its files (a copy of a built-in model by that model's name, another by embedding.model or the directory's name). An index of another model keeps its own.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "embedding.modelDirs",
            Kind::List,
            Default::EmptyList,
            "More local model directories, each used for the indexes of the model it holds (named as for modelPath, without embedding.model), so indexes of several models work side by side offline.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        // A mirror's address may carry a password or a `?token=`.
        secret: Secret::UrlPassword,
        env_aliases: &["HF_ENDPOINT"],
        ..def(
            "embedding.hubUrl",
            Kind::Str,
            Default::Str(DEFAULT_HUB_URL),
            "The Hugging Face hub, or a mirror, that built-in models are downloaded from.",
        )
    },
    def("embedding.batchSize", Kind::Int, Default::Int(32), "Chunks sent per embedding request."),
    def("embedding.concurrency", Kind::Int, Default::Int(2), "Embedding requests in flight at once."),
    def(
        "embedding.timeout",
        Kind::Int,
        Default::Int(120),
        "Seconds before an indexing embedding request is abandoned and retried.",
    ),
    // Its own key, because a search and an index run wait differently: a batch may take
    // minutes on a slow machine, while a search does better with keyword results than with a
    // long wait. The default is long enough for a local server busy with an index run to
    // answer after the batch in front of the query; a dead host fails at connect anyway.
    def(
        "embedding.queryTimeout",
        Kind::Int,
        Default::Int(30),
        "Seconds a search waits for its query embedding before answering from keywords alone.",
    ),
    SettingDef {
        reach: Reach::Elsewhere,
        ..def("mcp.transport", Kind::Str, Default::Str("stdio"), "MCP transport: stdio or http.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def("mcp.host", Kind::Str, Default::Str("127.0.0.1"), "Address the HTTP transport binds to.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def("mcp.port", Kind::Int, Default::Int(3000), "Port of the HTTP transport.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::Whole,
        ..def("mcp.token", Kind::Str, Default::None, "Bearer token the HTTP transport requires, if set.")
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "mcp.allowedOrigins",
            Kind::List,
            Default::EmptyList,
            "Extra Origin values the HTTP transport accepts besides loopback ones.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "mcp.allowedRoots",
            Kind::List,
            Default::EmptyList,
            "Absolute directories MCP projects must lie in (empty: any project directory).",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "mcp.sessionIdleTimeout",
            Kind::Int,
            Default::Int(1800),
            "Seconds without a message after which an HTTP session expires (its client must initialize again).",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "mcp.maxSessions",
            Kind::Int,
            Default::Int(256),
            "Most HTTP sessions alive at once; past it, initialize is refused with 503.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        ..def(
            "mcp.headerTimeout",
            Kind::Int,
            Default::Int(30),
            "Seconds an HTTP client has to send a request's headers before the connection is closed.",
        )
    },
    def(
        "mcp.tools",
        Kind::List,
        Default::EmptyList,
        "Tool groups the MCP server lists besides the everyday ones: tasks, admin, debug, aliases, or all. Every tool stays callable.",
    ),
    def(
        "controller.enabled",
        Kind::Bool,
        Default::Bool(false),
        "Rewrite each search query with an LLM before searching (CocoSearch's controller); off by default. `search --no-rewrite` and search_code's rewrite_query: false skip it.",
    ),
    def(
        "controller.provider",
        Kind::Str,
        Default::Str("ollama"),
        "Who rewrites queries: ollama (/api/chat), openai (any OpenAI-compatible /chat/completions) or openrouter.",
    ),
    def("controller.model", Kind::Str, Default::None, "The chat model that rewrites queries (needed when enabled)."),
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::UrlPassword,
        ..def(
            "controller.baseUrl",
            Kind::Str,
            Default::Derived(
                "the provider's: http://localhost:11434, https://api.openai.com/v1 or https://openrouter.ai/api/v1",
            ),
            "Where the rewriting model is served.",
        )
    },
    SettingDef {
        reach: Reach::Elsewhere,
        secret: Secret::Whole,
        ..def(
            "controller.apiKey",
            Kind::Str,
            Default::None,
            "API key for the openai and openrouter providers of the controller.",
        )
    },
    def(
        "controller.timeout",
        Kind::Float,
        Default::Float(5.0),
        "Seconds a rewrite may take; past that, or on any error, the query is searched as typed, with a warning.",
    ),
];

/// The YAML sections (keys that hold other keys).
pub const SECTIONS: &[&str] = &["database", "shared", "indexing", "search", "embedding", "mcp", "controller"];

/// The setting with this dotted key.
pub fn lookup(key: &str) -> Option<&'static SettingDef> {
    SETTINGS.iter().find(|s| s.key == key)
}

/// The valid keys at the level of `key`: top-level keys and sections (CocoSearch's too), or the
/// keys of its section.
pub fn siblings(key: &str) -> Vec<&'static str> {
    match key.split_once('.') {
        None => SETTINGS
            .iter()
            .filter(|s| s.section().is_none())
            .map(|s| s.key)
            .chain(SECTIONS.iter().copied())
            .chain(super::compat::COCOSEARCH_ONLY_SECTIONS.iter().copied())
            .collect(),
        Some((section, _)) if super::compat::COCOSEARCH_ONLY_SECTIONS.contains(&section) => {
            super::compat::section_keys(section).collect()
        }
        Some((section, _)) => SETTINGS.iter().filter(|s| s.section() == Some(section)).map(|s| s.leaf()).collect(),
    }
}

/// The valid key an unknown `key` most likely means: the one setting whose last component is
/// `key`'s (a flat `includePatterns` means `indexing.includePatterns`, `search.chunkSize` means
/// `indexing.chunkSize`), else the closest spelling at its own level, if one is close enough.
pub fn suggest(key: &str) -> Option<String> {
    let leaf = key.rsplit('.').next().unwrap_or(key);
    let lower = leaf.to_ascii_lowercase();
    let mut same_leaf = SETTINGS.iter().filter(|s| s.key != key && s.leaf().eq_ignore_ascii_case(leaf));
    if let (Some(only), None) = (same_leaf.next(), same_leaf.next()) {
        return Some(only.key.to_string());
    }
    let prefix = key.rsplit_once('.').map(|(p, _)| format!("{p}.")).unwrap_or_default();
    let siblings = siblings(key);
    super::closest(&lower, siblings.iter().map(|s| &s[..]), 0.8).map(|candidate| format!("{prefix}{candidate}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names_follow_the_documented_rule() {
        let env = |k: &str| lookup(k).map(|s| s.env_var());
        assert_eq!(env("search.resultLimit").as_deref(), Some("COCOSEARCH_SEARCH_RESULT_LIMIT"));
        assert_eq!(env("database.url").as_deref(), Some("COCOSEARCH_DATABASE_URL"));
        assert_eq!(env("embedding.baseUrl").as_deref(), Some("COCOSEARCH_EMBEDDING_BASE_URL"));
        assert_eq!(env("embedding.apiKey").as_deref(), Some("COCOSEARCH_EMBEDDING_API_KEY"));
        assert_eq!(env("embedding.outputDimension").as_deref(), Some("COCOSEARCH_EMBEDDING_OUTPUT_DIMENSION"));
        assert_eq!(env("indexName").as_deref(), Some("COCOSEARCH_INDEX_NAME"));
        assert_eq!(env("projectPath").as_deref(), Some("COCOSEARCH_PROJECT_PATH"));
        assert_eq!(env("mcp.port").as_deref(), Some("COCOSEARCH_MCP_PORT"));
        assert_eq!(env("logLevel").as_deref(), Some("COCOSEARCH_LOG_LEVEL"));
        assert_eq!(env("mcp.token").as_deref(), Some("COCOSEARCH_MCP_TOKEN"));
    }

    #[test]
    fn keys_are_unique_and_sections_known() {
        let mut keys: Vec<_> = SETTINGS.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), SETTINGS.len());
        for s in SETTINGS {
            if let Some(section) = s.section() {
                assert!(SECTIONS.contains(&section), "{} is in an unknown section", s.key);
            }
        }
    }

    #[test]
    fn suggestions_find_near_misses() {
        assert_eq!(suggest("search.resultLimt").as_deref(), Some("search.resultLimit"));
        assert_eq!(suggest("search.result_limit").as_deref(), Some("search.resultLimit"));
        assert_eq!(suggest("indexname").as_deref(), Some("indexName"));
        assert_eq!(suggest("embeding").as_deref(), Some("embedding"));
        assert_eq!(suggest("search.zzzzzz"), None);
    }

    #[test]
    fn a_key_out_of_its_section_is_pointed_to_it() {
        assert_eq!(suggest("includePatterns").as_deref(), Some("indexing.includePatterns"));
        assert_eq!(suggest("resultLimit").as_deref(), Some("search.resultLimit"));
        assert_eq!(suggest("search.chunkSize").as_deref(), Some("indexing.chunkSize"));
        assert_eq!(suggest("excludepatterns").as_deref(), Some("indexing.excludePatterns"));
        // CocoSearch's own sections are known levels too.
        assert_eq!(suggest("controler").as_deref(), Some("controller"));
        assert_eq!(suggest("logging.fiel").as_deref(), Some("logging.file"));
    }
}
