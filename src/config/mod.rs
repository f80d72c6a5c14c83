//! Configuration: one resolver for every command, with the source of every value.
//!
//! Precedence, for every setting: **command line > environment > the user's YAML file
//! (`yaml::user_file`) > the project's YAML file > default**. The user's file stands in for the
//! variables a person would otherwise export in every shell and every MCP client, so it ranks
//! where they do, just below the environment, and a cloned project's file cannot override it.
//! Resolution happens in two stages, as in ripgrep: [`Config::resolve`] merges and validates
//! (no network, no database), and the costly objects — the database pool, the embedder — are
//! built from the resulting [`Settings`] afterwards by the layers that own them.
//!
//! Architecture invariant: nothing outside this module reads environment variables
//! ([`env::Env`] is the one snapshot).

mod compat;
mod docs;
mod env;
mod error;
mod layers;
mod names;
mod project_dir;
mod redact;
pub mod registry;
mod root;
mod settings;
mod shown;
mod suggest;
mod trust;
mod yaml;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use figment::Figment;

pub use docs::{example_yaml, markdown_table, starter_yaml};
pub use env::{Env, working_directory};
pub use error::{ConfigError, Source};
pub use layers::Raw;
pub use names::{MAX_INDEX_NAME_LEN, sanitize_index_name, validate_index_name};
pub use project_dir::{ProjectDirRule, UnsafeProjectDir};
pub use redact::{redact_text, redact_url};
pub use root::{git_root, main_worktree, same_repository};
pub use settings::{
    BackendSetting, ControllerProvider, ControllerSettings, DatabaseSettings, EmbeddingSettings, IndexingSettings,
    LogLevel, McpSettings, Origin, Provider, SearchSettings, Settings, ToolGroup, Transport,
};
pub use shown::ShownWarnings;
pub use suggest::{closest, did_you_mean};
pub use trust::{Trust, TrustList};
pub use yaml::{FILE_NAMES, FileOrigin};

use layers::Layer;
use registry::{SETTINGS, Secret};

/// A value given on the command line, by a dedicated flag or `--set KEY=VALUE`.
#[derive(Debug, Clone)]
pub struct Override {
    /// The dotted key it sets.
    pub key: String,
    /// The value.
    pub value: Raw,
    /// The flag as the user wrote it, for messages (`--limit`, `--set search.resultLimit`).
    pub flag: String,
}

/// What resolution starts from.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// `--config FILE`, if given.
    pub config_file: Option<&'a Path>,
    /// The working directory (or the project directory an MCP client named).
    pub cwd: &'a Path,
    /// Command-line values.
    pub overrides: &'a [Override],
    /// The environment.
    pub env: &'a Env,
}

/// How a project root was found ([`Config::project_root`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootOrigin {
    /// Named: `projectPath`, or an explicit directory (an MCP client's root).
    Named,
    /// The git root above the working directory.
    GitRoot,
    /// The directory of the configuration file found.
    ConfigFile,
    /// Nothing else said where the project is: the working directory itself. A caller that
    /// knows the indexed roots may find the project above it (`cli`).
    WorkingDirectory,
}

/// The resolved configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The merged, validated settings.
    pub settings: Settings,
    /// Where each set key's value came from.
    pub sources: BTreeMap<&'static str, Source>,
    /// The config file in force and how it was chosen.
    pub file: Option<(PathBuf, FileOrigin)>,
    /// The user's configuration file, when there is one (above the project's file, below the
    /// environment).
    pub user_file: Option<PathBuf>,
    /// The project root: `projectPath` if set, else the git root above the working directory
    /// (unless that repository ignores the working directory),
    /// else the directory of the config file, else the working directory.
    pub project_root: PathBuf,
    /// How the project root was found.
    pub root_origin: RootOrigin,
    /// Non-fatal findings to show the user (e.g. unknown `COCOSEARCH_*` variables).
    pub warnings: Vec<String>,
    /// The keys of the project's file that were not applied because the file is not trusted
    /// (only with [`Untrusted::LeaveOut`]; otherwise resolution fails naming them).
    pub untrusted_keys: Vec<String>,
}

/// What resolution does with the keys an untrusted project file may not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untrusted {
    /// Fails, naming each (every command that acts on the configuration).
    Refuse,
    /// Leaves them out and names them ([`Config::untrusted_keys`]): what `config show` and
    /// `config path` need, to show the file they tell the user to read before trusting it.
    LeaveOut,
}

impl Config {
    /// Merges the layers and validates the result.
    ///
    /// Every problem found — unknown keys, values of the wrong type, values out of range, keys an
    /// untrusted file may not set — is reported in one error ([`ConfigError::Several`]), so a
    /// file is fixed in one pass; only a file that cannot be read or parsed stops at once.
    pub fn resolve(req: &Request<'_>) -> Result<Config, ConfigError> {
        Config::resolve_with(req, Untrusted::Refuse)
    }

    /// [`Config::resolve`], doing with the keys an untrusted project file sets what
    /// `untrusted` says.
    pub fn resolve_with(req: &Request<'_>, untrusted: Untrusted) -> Result<Config, ConfigError> {
        let mut problems = Vec::new();
        let cli = cli_layer(req.overrides, &mut problems);
        let env_layer = env_layer(req.env, &mut problems);
        // projectPath decides where to look for the config file, so it comes from the
        // command line or the environment only.
        let explicit_root = [&cli, &env_layer].into_iter().find_map(|layer| {
            layer.values.iter().find(|(k, _)| *k == "projectPath").and_then(|(_, v)| v.as_str().map(PathBuf::from))
        });
        let start = match &explicit_root {
            Some(path) if path.is_relative() => req.cwd.join(path),
            Some(path) => path.clone(),
            None => req.cwd.to_path_buf(),
        };
        let located = yaml::locate(req.config_file, req.env, &start)?;
        let mut warnings = Vec::new();
        let mut left_out = Vec::new();
        let file = match &located {
            Some((path, origin)) => {
                let mut file = load_file(path, origin, req.env, &mut problems, untrusted)?;
                left_out = std::mem::take(&mut file.left_out);
                Some(file)
            }
            None => None,
        };
        let project_layer = match &file {
            Some(file) => {
                if !file.no_effect.is_empty() {
                    warnings.push(compat::no_effect_warning(&file.path, &file.no_effect));
                }
                file_layer(file, "file", &mut problems)
            }
            None => Layer::new("file"),
        };
        let user_file = yaml::user_file();
        let user_layer = match &user_file {
            Some(path) => {
                let file = load_file(path, &FileOrigin::User, req.env, &mut problems, untrusted)?;
                if !file.no_effect.is_empty() {
                    warnings.push(compat::no_effect_warning(&file.path, &file.no_effect));
                }
                file_layer(&file, "user", &mut problems)
            }
            None => Layer::new("user"),
        };
        let defaults = Layer::defaults(SETTINGS);

        let figment =
            Figment::new().merge(&defaults).merge(&project_layer).merge(&user_layer).merge(&env_layer).merge(&cli);
        let layers = [&cli, &env_layer, &user_layer, &project_layer, &defaults];
        let mut settings: Settings = match figment.extract() {
            Ok(settings) => settings,
            Err(e) => {
                problems.push(extraction_error(&e, &layers));
                return Err(ConfigError::joined(problems));
            }
        };

        let mut sources = BTreeMap::new();
        for def in SETTINGS {
            let Some(metadata) = figment.find_metadata(def.key) else { continue };
            let layer = layers.iter().find(|l| l.name == metadata.name);
            if let Some(source) = layer.and_then(|l| l.sources.get(def.key)) {
                sources.insert(def.key, source.clone());
            }
        }
        if sources.get("database.url").is_some_and(|s| *s != Source::Default) {
            settings.database.url_origin = Origin::Configured;
        }
        if sources.get("embedding.model").is_some_and(|s| *s != Source::Default) {
            settings.embedding.model_origin = Origin::Configured;
        }
        // The default model name is an Ollama model; the builtin provider has its own default
        // (a local model directory names itself), and so has OpenRouter (CocoSearch's). Under
        // auto, `embed::choose` decides.
        if settings.embedding.model_origin == Origin::Default {
            match settings.embedding.provider {
                Provider::Builtin if settings.embedding.model_path.is_none() => {
                    settings.embedding.model = registry::DEFAULT_BUILTIN_MODEL.to_string();
                }
                Provider::Openrouter => settings.embedding.model = registry::DEFAULT_OPENROUTER_MODEL.to_string(),
                _ => {}
            }
        }
        warnings.extend(settings.adopt_cocosearch_index_names());
        for (key, message) in settings.violations() {
            let source = sources.get(key).cloned().unwrap_or(Source::Default);
            problems.push(ConfigError::Invalid {
                location: ConfigError::location(&source),
                key: key.to_string(),
                message,
            });
        }
        if let Some(error) = ConfigError::all(problems) {
            return Err(error);
        }

        let (project_root, root_origin) = match (&explicit_root, &settings.project_path, &located) {
            (Some(_), _, _) => (start.clone(), RootOrigin::Named),
            (None, Some(path), Some((file, _))) => (file.parent().unwrap_or(req.cwd).join(path), RootOrigin::Named),
            (None, Some(path), None) => (req.cwd.join(path), RootOrigin::Named),
            (None, None, _) => match git_root(req.cwd) {
                Some(root) => (root, RootOrigin::GitRoot),
                None => match located.as_ref().and_then(|(file, _)| file.parent().map(Path::to_path_buf)) {
                    Some(dir) => (dir, RootOrigin::ConfigFile),
                    None => (req.cwd.to_path_buf(), RootOrigin::WorkingDirectory),
                },
            },
        };
        let project_root = project_root.canonicalize().unwrap_or(project_root);

        Ok(Config {
            settings,
            sources,
            file: located,
            user_file,
            project_root,
            root_origin,
            warnings: warnings.into_iter().chain(unknown_env_warnings(req.env)).collect(),
            untrusted_keys: left_out,
        })
    }

    /// Where `key`'s value came from (`Default` for unset keys).
    pub fn source(&self, key: &str) -> Source {
        self.sources.get(key).cloned().unwrap_or(Source::Default)
    }

    /// The index name: `indexName` if set, else the project directory's name, sanitized. A
    /// linked worktree of a repository is named after the repository's main worktree, so every
    /// worktree finds the repository's one index (each worktree is a snapshot of it).
    pub fn index_name(&self) -> String {
        match &self.settings.index_name {
            Some(name) => name.clone(),
            None => {
                let named = root::main_worktree(&self.project_root).unwrap_or_else(|| self.project_root.clone());
                sanitize_index_name(&named.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
            }
        }
    }

    /// Every setting as it should be shown: redacted, with its source.
    pub fn entries(&self) -> Vec<Entry> {
        let json = serde_json::to_value(&self.settings).unwrap_or_default();
        SETTINGS
            .iter()
            .map(|def| {
                let raw = def.key.split('.').try_fold(&json, |v, part| v.get(part));
                let value = match (def.key, raw) {
                    ("indexName", Some(serde_json::Value::Null) | None) => {
                        Some(serde_json::Value::String(self.index_name()))
                    }
                    ("projectPath", Some(serde_json::Value::Null) | None) => {
                        Some(serde_json::Value::String(self.project_root.display().to_string()))
                    }
                    ("embedding.baseUrl", Some(serde_json::Value::Null) | None) => {
                        Some(serde_json::Value::String(self.settings.embedding.effective_base_url().to_string()))
                    }
                    (_, Some(serde_json::Value::Null) | None) => None,
                    (_, Some(value)) => Some(value.clone()),
                };
                let value = value.map(|value| match (def.secret, value) {
                    (Secret::No, value) => value,
                    (Secret::UrlPassword, serde_json::Value::String(url)) => {
                        serde_json::Value::String(redact_url(&url))
                    }
                    (_, _) => serde_json::Value::String("***".into()),
                });
                Entry { key: def.key, env: def.env_var(), value, source: self.source(def.key) }
            })
            .collect()
    }
}

/// One row of `config show`.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The dotted key.
    pub key: &'static str,
    /// Its environment variable.
    pub env: String,
    /// The value, redacted; `None` when unset.
    pub value: Option<serde_json::Value>,
    /// Where it came from.
    pub source: Source,
}

/// The configuration file [`Config::resolve`] would read for a project at `start`: `--config`,
/// `COCOSEARCH_CONFIG`, or the nearest `cocosearch.yaml` up to the git root. A long-lived
/// process compares it (and the file's size and time) to tell whether a resolved configuration
/// still holds.
pub fn locate_file(config_file: Option<&Path>, env: &Env, start: &Path) -> Result<Option<PathBuf>, ConfigError> {
    Ok(yaml::locate(config_file, env, start)?.map(|(path, _)| path))
}

/// Reads the file in force; a project's own file the user has not trusted may neither set a
/// key that decides where data goes nor expand a secret variable (`trust.rs`): each is a
/// problem, or with [`Untrusted::LeaveOut`] left out and listed in [`yaml::YamlFile::left_out`].
/// What is wrong with the file joins `problems`; only a file that cannot be read or parsed is
/// an error here.
fn load_file(
    path: &Path,
    origin: &FileOrigin,
    env: &Env,
    problems: &mut Vec<ConfigError>,
    untrusted: Untrusted,
) -> Result<yaml::YamlFile, ConfigError> {
    let text = yaml::read(path)?;
    let expansion = origin.expansion();
    let trusted =
        expansion == yaml::Expansion::AnyVariable || TrustList::user(env).check(path, &text) == Trust::Trusted;
    let mut file = yaml::parse(path, &text, env, if trusted { expansion } else { yaml::Expansion::CocosearchPublic })?;
    if trusted {
        problems.append(&mut file.problems);
        return Ok(file);
    }
    match untrusted {
        Untrusted::Refuse => {
            problems.append(&mut file.problems);
            problems.extend(trust::refusals(&file));
        }
        Untrusted::LeaveOut => {
            let (secrets, others): (Vec<ConfigError>, Vec<ConfigError>) =
                std::mem::take(&mut file.problems).into_iter().partition(|p| p.needs_trust());
            problems.extend(others);
            let mut left_out: Vec<String> = trust::untrusted_keys(&file).map(str::to_string).collect();
            left_out.extend(secrets.iter().filter_map(|p| p.key().map(str::to_string)));
            file.values.retain(|(key, _)| !left_out.contains(key));
            file.left_out = left_out;
        }
    }
    Ok(file)
}

/// What `cocosearch config trust` did.
#[derive(Debug, Clone)]
pub enum Trusted {
    /// The project's own file is now trusted as it is; the record is at `record`.
    Recorded {
        /// The project's `cocosearch.yaml`.
        file: PathBuf,
        /// The user's record of trusted files.
        record: PathBuf,
    },
    /// The file in force was named by the user (`--config`, `COCOSEARCH_CONFIG`): always trusted.
    Named(PathBuf),
    /// No `cocosearch.yaml` was found for the project.
    NoFile,
}

/// Trusts the project's own `cocosearch.yaml` as it is now (see `trust.rs`). It needs no
/// resolved configuration, since an untrusted file is what stops resolution.
pub fn trust_project(config_file: Option<&Path>, env: &Env, cwd: &Path) -> Result<Trusted, ConfigError> {
    match yaml::locate(config_file, env, cwd)? {
        None => Ok(Trusted::NoFile),
        Some((file, FileOrigin::Discovered)) => {
            let record = TrustList::user(env).trust(&file)?;
            Ok(Trusted::Recorded { file, record })
        }
        Some((file, _)) => Ok(Trusted::Named(file)),
    }
}

fn cli_layer(overrides: &[Override], problems: &mut Vec<ConfigError>) -> Layer {
    let mut layer = Layer::new("cli");
    for o in overrides {
        let Some(def) = registry::lookup(&o.key) else {
            problems.push(ConfigError::UnknownKey {
                location: o.flag.clone(),
                key: o.key.clone(),
                suggestion: registry::suggest(&o.key),
            });
            continue;
        };
        if let Err(problem) = layer.insert(def, o.value.clone(), Source::Cli(o.flag.clone())) {
            problems.push(problem);
        }
    }
    layer
}

fn env_layer(env: &Env, problems: &mut Vec<ConfigError>) -> Layer {
    let mut layer = Layer::new("env");
    for def in SETTINGS {
        // Aliases first, so the canonical variable wins when both are set.
        let names = def.env_aliases.iter().map(|s| s.to_string()).chain([def.env_var()]);
        for name in names {
            if let Some(value) = env.get(&name)
                && let Err(problem) = layer.insert(def, Raw::Text(value.to_string()), Source::Env(name))
            {
                problems.push(problem);
            }
        }
    }
    layer
}

fn file_layer(file: &yaml::YamlFile, name: &'static str, problems: &mut Vec<ConfigError>) -> Layer {
    let mut layer = Layer::new(name);
    for (key, value) in &file.values {
        if let Some(def) = registry::lookup(key)
            && let Err(problem) = layer.insert(def, Raw::Yaml(value.clone()), file.source(key))
        {
            problems.push(problem);
        }
    }
    layer
}

fn extraction_error(e: &figment::Error, layers: &[&Layer]) -> ConfigError {
    let key = e.path.join(".");
    let source = e
        .metadata
        .as_ref()
        .and_then(|m| layers.iter().find(|l| l.name == m.name))
        .and_then(|l| l.sources.get(key.as_str()))
        .cloned()
        .unwrap_or(Source::Default);
    let message = match &e.kind {
        figment::error::Kind::UnknownVariant(found, allowed) => {
            let suggestion = closest(found, allowed.iter().copied(), 0.7)
                .map(|a| format!(" — did you mean `{a}`?"))
                .unwrap_or_default();
            format!(
                "unknown value `{found}`, expected one of {}{suggestion}",
                allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
            )
        }
        kind => kind.to_string(),
    };
    ConfigError::Invalid { location: ConfigError::location(&source), key, message }
}

/// Warnings for `COCOSEARCH_*` variables that set nothing, with the closest real one (or saying
/// that CocoSearch has the setting but it does nothing here).
fn unknown_env_warnings(env: &Env) -> Vec<String> {
    let known: Vec<String> = SETTINGS
        .iter()
        .flat_map(|d| d.env_aliases.iter().map(|s| s.to_string()).chain([d.env_var()]))
        .chain(["COCOSEARCH_CONFIG".to_string()])
        .collect();
    env.names_with_prefix("COCOSEARCH_")
        .into_iter()
        .filter(|name| !known.iter().any(|k| k == name) && !name.starts_with("COCOSEARCH_TEST_"))
        .map(|name| {
            if compat::COCOSEARCH_ONLY_ENV.contains(&name) {
                return format!("a CocoSearch setting with no effect here: environment variable {name}");
            }
            let suggestion = closest(name, known.iter().map(String::as_str), 0.9)
                .map(|k| format!(" (did you mean {k}?)"))
                .unwrap_or_default();
            format!("ignoring unknown environment variable {name}{suggestion}")
        })
        .collect()
}

#[cfg(test)]
mod tests;
