//! The typed settings every command receives, and the checks on their values.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// All settings, merged from every layer. Field names follow the YAML keys in snake case.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct Settings {
    #[serde(default)]
    pub index_name: Option<String>,
    pub linked_indexes: Vec<String>,
    #[serde(default)]
    pub index_groups: std::collections::BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub project_path: Option<PathBuf>,
    pub log_level: LogLevel,
    pub database: DatabaseSettings,
    #[serde(default)]
    pub shared: SharedSettings,
    pub indexing: IndexingSettings,
    pub search: SearchSettings,
    pub embedding: EmbeddingSettings,
    pub mcp: McpSettings,
    pub controller: ControllerSettings,
}

/// `database.*`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct DatabaseSettings {
    pub backend: BackendSetting,
    pub url: String,
    #[serde(default)]
    pub path: Option<PathBuf>,
    pub pool_size: u32,
    /// Seconds.
    pub connect_timeout: u64,
    /// Whether `url` was configured or is the default; `auto` only probes the default.
    #[serde(skip)]
    pub url_origin: Origin,
}

/// `shared.*`: a team's shared index this project's index overlays.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct SharedSettings {
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub index: Option<String>,
}

impl DatabaseSettings {
    /// The directory of the embedded store: `database.path`, or `cocosearch` in the platform
    /// data directory (from the `dirs` crate, which knows each platform's convention).
    pub fn embedded_dir(&self) -> Option<PathBuf> {
        self.path.clone().or_else(|| dirs::data_dir().map(|d| d.join("cocosearch")))
    }
}

/// `database.backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendSetting {
    /// PostgreSQL when a URL is configured or a server answers at the default one, else the
    /// embedded store.
    Auto,
    /// The embedded store.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// Whether a value was configured or is the built-in default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// The built-in default.
    #[default]
    Default,
    /// Given on the command line, in the environment or in a file.
    Configured,
}

/// `indexing.*`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct IndexingSettings {
    pub include_patterns: Vec<String>,
    pub exclude_patterns: Vec<String>,
    pub include_sensitive: Vec<String>,
    pub chunk_size: usize,
    pub chunk_overlap: usize,
    pub max_file_size: u64,
    pub respect_gitignore: bool,
    pub watch: bool,
    pub watch_debounce_ms: u64,
    pub keep_snapshots: u64,
}

/// `search.*`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct SearchSettings {
    pub result_limit: usize,
    pub min_score: f64,
    pub smart_context: bool,
    pub max_context_lines: usize,
}

/// `embedding.*`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct EmbeddingSettings {
    pub provider: Provider,
    pub model: String,
    #[serde(default)]
    pub output_dimension: Option<u32>,
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub api_key: Option<String>,
    pub batch_size: usize,
    pub concurrency: usize,
    /// Seconds an indexing request may take.
    pub timeout: u64,
    /// A local model directory for the builtin provider: the model of new indexes, used only
    /// for the model its files are.
    #[serde(default)]
    pub model_path: Option<PathBuf>,
    /// More local model directories, each used for the indexes of the model its files are.
    #[serde(default)]
    pub model_dirs: Vec<PathBuf>,
    /// The Hugging Face hub (or a mirror) built-in models are downloaded from.
    pub hub_url: String,
    /// Whether `model` was configured or is the default; a local model directory keeps its
    /// own name unless one is configured.
    #[serde(skip)]
    pub model_origin: Origin,
    /// Seconds a search waits for its query embedding.
    pub query_timeout: u64,
}

impl EmbeddingSettings {
    /// The configured base URL, or the provider's default.
    pub fn effective_base_url(&self) -> &str {
        match (&self.base_url, self.provider) {
            (Some(url), _) => url,
            (None, Provider::Openai) => super::registry::DEFAULT_OPENAI_URL,
            (None, Provider::Openrouter) => super::registry::DEFAULT_OPENROUTER_URL,
            (None, _) => super::registry::DEFAULT_OLLAMA_URL,
        }
    }
}

/// `controller.*`: CocoSearch's query rewrite — an LLM rewrites a search's query before the
/// search, within a time limit, falling back to the query as typed.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct ControllerSettings {
    pub enabled: bool,
    pub provider: ControllerProvider,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub api_key: Option<String>,
    /// Seconds.
    pub timeout: f64,
}

impl ControllerSettings {
    /// The configured base URL, or the provider's default.
    pub fn effective_base_url(&self) -> &str {
        match (&self.base_url, self.provider) {
            (Some(url), _) => url,
            (None, ControllerProvider::Ollama) => super::registry::DEFAULT_OLLAMA_URL,
            (None, ControllerProvider::Openai) => super::registry::DEFAULT_OPENAI_URL,
            (None, ControllerProvider::Openrouter) => super::registry::DEFAULT_OPENROUTER_URL,
        }
    }
}

/// Who rewrites queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ControllerProvider {
    /// Ollama's `/api/chat`.
    Ollama,
    /// Any server speaking OpenAI's `/chat/completions`.
    Openai,
    /// OpenRouter (OpenAI's API at `https://openrouter.ai/api/v1`).
    Openrouter,
}

/// `mcp.*`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub struct McpSettings {
    pub transport: Transport,
    pub host: String,
    pub port: u16,
    #[serde(default)]
    pub token: Option<String>,
    pub allowed_origins: Vec<String>,
    pub allowed_roots: Vec<String>,
    /// Seconds.
    pub session_idle_timeout: u64,
    pub max_sessions: usize,
    /// Seconds.
    pub header_timeout: u64,
    #[serde(default)]
    pub tools: Vec<ToolGroup>,
}

/// A group of MCP tools that `tools/list` shows only when `mcp.tools` names it; the everyday
/// tools (search, grep, the code graph, indexing) are always listed, and every tool is callable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolGroup {
    /// The task tools (`create_task`, `list_tasks`, …).
    Tasks,
    /// `list_indexes` and `clear_index`.
    Admin,
    /// `analyze_query`.
    Debug,
    /// CocoSearch's and mcp-codebase-index's other names (`search_codebase`, `get_file_impact`).
    Aliases,
    /// Every group.
    All,
}

/// Who computes embeddings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// The default: an existing index keeps the provider and model it was built with; a new
    /// index uses the built-in default model (`embed::choose` holds the rule).
    Auto,
    /// A local or remote Ollama.
    Ollama,
    /// Any server speaking OpenAI's `/v1/embeddings` (OpenAI, LM Studio, vLLM, TEI, Infinity).
    Openai,
    /// OpenRouter: OpenAI's `/v1/embeddings` at `https://openrouter.ai/api/v1` with an API key
    /// (CocoSearch's provider of that name); the OpenAI-compatible embedder serves it.
    Openrouter,
    /// In-process models (static or transformer), downloaded once into the user cache.
    Builtin,
    /// No embeddings: keyword search only.
    None,
}

impl Provider {
    /// The name used in the configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Auto => "auto",
            Provider::Ollama => "ollama",
            Provider::Openai => "openai",
            Provider::Openrouter => "openrouter",
            Provider::Builtin => "builtin",
            Provider::None => "none",
        }
    }

    /// The provider named `name` as an index records it, if it is one.
    pub fn parse(name: &str) -> Option<Provider> {
        [Provider::Auto, Provider::Ollama, Provider::Openai, Provider::Openrouter, Provider::Builtin, Provider::None]
            .into_iter()
            .find(|p| p.as_str() == name)
    }
}

/// The MCP transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// JSON-RPC over stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// The log level on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs, reason = "each field is a registry key, documented once in config::registry")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    /// The level as a tracing filter directive.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

/// One failed check: the key and what is wrong with its value.
pub(crate) type Violation = (&'static str, String);

impl Settings {
    /// Turns `indexName` and `linkedIndexes` written as CocoSearch accepts them (`my-app`) into
    /// index names ([`super::names::adopt_index_name`]); one warning per name that changed.
    pub(crate) fn adopt_cocosearch_index_names(&mut self) -> Vec<String> {
        let mut warnings = Vec::new();
        let mut adopt = |key: &str, name: &mut String| {
            if let Some(adopted) = super::names::adopt_index_name(name) {
                warnings.push(format!(
                    "{key}: index name `{name}` is used as `{adopted}` (index names are lowercase letters, digits and underscores)"
                ));
                *name = adopted;
            }
        };
        if let Some(name) = &mut self.index_name {
            adopt("indexName", name);
        }
        for name in &mut self.linked_indexes {
            adopt("linkedIndexes", name);
        }
        warnings
    }

    /// The range and format checks serde cannot express; every violation names its key.
    pub(crate) fn violations(&self) -> Vec<Violation> {
        let mut out: Vec<Violation> = Vec::new();
        let mut range = |key: &'static str, value: u64, min: u64, max: u64| {
            if value < min || value > max {
                out.push((key, format!("must be between {min} and {max}, found {value}")));
            }
        };
        range("database.poolSize", self.database.pool_size.into(), 1, 64);
        range("database.connectTimeout", self.database.connect_timeout, 1, 300);
        range("indexing.chunkSize", self.indexing.chunk_size as u64, 64, 100_000);
        range("indexing.maxFileSize", self.indexing.max_file_size, 1, 1 << 32);
        range("indexing.watchDebounceMs", self.indexing.watch_debounce_ms, 10, 60_000);
        range("indexing.keepSnapshots", self.indexing.keep_snapshots, 0, 10_000);
        range("search.resultLimit", self.search.result_limit as u64, 1, 1000);
        range("search.maxContextLines", self.search.max_context_lines as u64, 1, 10_000);
        range("embedding.batchSize", self.embedding.batch_size as u64, 1, 2048);
        range("embedding.concurrency", self.embedding.concurrency as u64, 1, 64);
        range("embedding.timeout", self.embedding.timeout, 1, 3600);
        range("embedding.queryTimeout", self.embedding.query_timeout, 1, 3600);
        if let Some(dim) = self.embedding.output_dimension {
            range("embedding.outputDimension", dim.into(), 1, 16_000);
        }
        range("mcp.sessionIdleTimeout", self.mcp.session_idle_timeout, 1, 7 * 24 * 3600);
        range("mcp.maxSessions", self.mcp.max_sessions as u64, 1, 100_000);
        range("mcp.headerTimeout", self.mcp.header_timeout, 1, 3600);
        if self.mcp.port == 0 {
            out.push(("mcp.port", "must be between 1 and 65535, found 0".into()));
        }
        if self.indexing.chunk_overlap >= self.indexing.chunk_size {
            out.push((
                "indexing.chunkOverlap",
                format!(
                    "must be smaller than indexing.chunkSize ({}), found {}",
                    self.indexing.chunk_size, self.indexing.chunk_overlap
                ),
            ));
        }
        if !(0.0..=1.0).contains(&self.search.min_score) {
            out.push(("search.minScore", format!("must be between 0 and 1, found {}", self.search.min_score)));
        }
        if let Some(relative) = self.mcp.allowed_roots.iter().find(|r| !std::path::Path::new(r).is_absolute()) {
            out.push(("mcp.allowedRoots", format!("must list absolute directories, found {relative:?}")));
        }
        if self.embedding.model.trim().is_empty() {
            out.push(("embedding.model", "must not be empty".into()));
        }
        if let Some(name) = &self.index_name
            && let Err(message) = super::names::validate_index_name(name)
        {
            out.push(("indexName", message));
        }
        for name in &self.linked_indexes {
            if let Err(message) = super::names::validate_index_name(name) {
                out.push(("linkedIndexes", message));
            }
        }
        for (group, members) in &self.index_groups {
            for name in std::iter::once(group).chain(members) {
                if let Err(message) = super::names::validate_index_name(name) {
                    out.push(("indexGroups", format!("group {group}: {message}")));
                }
            }
            if members.is_empty() {
                out.push(("indexGroups", format!("group {group} names no index")));
            }
            if group == "all" {
                out.push(("indexGroups", "the group name all is taken: @all searches every index".into()));
            }
        }
        match url::Url::parse(&self.database.url) {
            Ok(url) if matches!(url.scheme(), "postgres" | "postgresql") => {}
            Ok(url) => {
                out.push(("database.url", format!("expected a postgresql:// URL, found scheme `{}`", url.scheme())))
            }
            Err(e) => out.push((
                "database.url",
                format!("not a valid URL ({e}); expected postgresql://user:password@host:5432/database"),
            )),
        }
        match url::Url::parse(&self.embedding.hub_url) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            Ok(url) => out.push((
                "embedding.hubUrl",
                format!("expected an http:// or https:// URL, found scheme `{}`", url.scheme()),
            )),
            Err(e) => out.push((
                "embedding.hubUrl",
                format!("not a valid URL ({e}); expected e.g. {}", super::registry::DEFAULT_HUB_URL),
            )),
        }
        if let Some(base) = &self.embedding.base_url {
            match url::Url::parse(base) {
                Ok(url) if matches!(url.scheme(), "http" | "https") => {}
                Ok(url) => out.push((
                    "embedding.baseUrl",
                    format!("expected an http:// or https:// URL, found scheme `{}`", url.scheme()),
                )),
                Err(e) => out.push((
                    "embedding.baseUrl",
                    format!("not a valid URL ({e}); expected e.g. http://localhost:11434"),
                )),
            }
        }
        for (key, patterns) in [
            ("indexing.includePatterns", &self.indexing.include_patterns),
            ("indexing.excludePatterns", &self.indexing.exclude_patterns),
            ("indexing.includeSensitive", &self.indexing.include_sensitive),
        ] {
            for pattern in patterns {
                if let Err(e) = globset::Glob::new(pattern) {
                    out.push((key, format!("invalid glob {pattern:?}: {}", e.kind())));
                }
            }
        }
        out
    }
}
