//! Configuration errors: each names where the bad value came from and how to fix it.

use std::path::PathBuf;

/// Where a configuration value came from, for error messages and `config show`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag or `--set`.
    Cli(String),
    /// An environment variable.
    Env(String),
    /// A YAML file, with the line of the key when known.
    File {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the key.
        line: Option<usize>,
    },
    /// The built-in default (or a value derived at run time).
    Default,
}

impl Source {
    /// The short kind: `cli`, `env`, `file` or `default`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Cli(_) => "cli",
            Source::Env(_) => "env",
            Source::File { .. } => "file",
            Source::Default => "default",
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Cli(flag) => write!(f, "cli {flag}"),
            Source::Env(var) => write!(f, "env {var}"),
            Source::File { path, line } => {
                let name =
                    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
                match line {
                    Some(line) => write!(f, "file {name}:{line}"),
                    None => write!(f, "file {name}"),
                }
            }
            Source::Default => f.write_str("default"),
        }
    }
}

/// Something is wrong with the configuration; the program exits with code 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The project directory is one nobody indexes on purpose (see [`super::ProjectDirRule`]).
    #[error(
        "refusing to index {}: {reason} — index a project directory instead, or pass --allow-any-dir if you mean it",
        dir.display()
    )]
    UnsafeProject {
        /// The directory.
        dir: PathBuf,
        /// Why it is refused.
        reason: super::UnsafeProjectDir,
    },
    /// The config file could not be read.
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A config file named by `--config` or `COCOSEARCH_CONFIG` does not exist.
    #[error("config file {} (from {origin}) does not exist — create it with `cocosearch config init`, or fix the path", path.display())]
    Missing {
        /// The file.
        path: PathBuf,
        /// `--config` or `env COCOSEARCH_CONFIG`.
        origin: String,
    },
    /// A project's config file is a symbolic link leading outside the project.
    #[error(
        "{} is a symbolic link leading outside the project — replace it with a file, or name the file with --config",
        .0.display()
    )]
    LinkOutside(PathBuf),
    /// The YAML does not parse.
    #[error("{}:{line}:{column}: invalid YAML: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A key that no setting has.
    #[error("{location}: unknown key `{key}`{}", suggestion.as_ref().map(|s| format!(" — did you mean `{s}`?")).unwrap_or_default())]
    UnknownKey {
        /// `cocosearch.yaml:12`, `--set`, ...
        location: String,
        /// The dotted key as written.
        key: String,
        /// The closest valid key.
        suggestion: Option<String>,
    },
    /// A value of the wrong type or out of range.
    #[error("{location}: `{key}`: {message}")]
    Invalid {
        /// Where the value came from.
        location: String,
        /// The dotted key.
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// `${VAR}` in the YAML names an unset variable and gives no default.
    #[error("{location}: environment variable {var} is not set — set it, or write ${{{var}:-default}}")]
    UnsetVariable {
        /// Where the reference is.
        location: String,
        /// The variable.
        var: String,
    },
    /// A project's own `cocosearch.yaml` names an environment variable that is not cocosearch's.
    #[error(
        "{location}: ${{{var}}} is not expanded in a cocosearch.yaml found in the project (a repository you cloned must not read your environment) — use a COCOSEARCH_* variable, or name the file with --config"
    )]
    ForeignVariable {
        /// Where the reference is.
        location: String,
        /// The variable.
        var: String,
    },
    /// An untrusted project file sets a key that decides where code, queries or credentials go.
    #[error(
        "{location}: `{key}` decides where your code, queries or credentials go, and this project's cocosearch.yaml is not trusted (a repository you cloned must not choose that) — read the file, then run `cocosearch config trust` in the project to trust it as it is now, or set `{key}` in your environment or on the command line instead"
    )]
    Untrusted {
        /// Where the key is set.
        location: String,
        /// The dotted key.
        key: String,
    },
    /// An untrusted project file expands a variable that holds a secret.
    #[error(
        "{location}: ${{{var}}} holds a secret, and this project's cocosearch.yaml is not trusted, so it may not expand it — read the file, then run `cocosearch config trust` in the project, or remove the reference"
    )]
    SecretVariable {
        /// Where the reference is.
        location: String,
        /// The dotted key whose value holds the reference.
        key: String,
        /// The variable.
        var: String,
    },
    /// Several problems, found in one run and reported together (one per line).
    #[error(
        "{} problems in the configuration:\n{}",
        .0.len(),
        .0.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
    )]
    Several(Vec<ConfigError>),
    /// The record of trusted projects cannot be written.
    #[error("cannot record the trusted project in {}: {reason}", path.display())]
    TrustRecord {
        /// The record file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl ConfigError {
    /// The problems as one error: `None` when there is none, the problem itself when alone.
    pub(crate) fn all(problems: Vec<ConfigError>) -> Option<ConfigError> {
        (!problems.is_empty()).then(|| ConfigError::joined(problems))
    }

    /// At least one problem as one error: the problem itself when alone.
    pub(crate) fn joined(mut problems: Vec<ConfigError>) -> ConfigError {
        if problems.len() == 1
            && let Some(only) = problems.pop()
        {
            return only;
        }
        ConfigError::Several(problems)
    }

    /// Whether only the project file's want of trust makes this a problem (a key that needs
    /// trust, a secret variable expanded).
    pub(crate) fn needs_trust(&self) -> bool {
        matches!(self, ConfigError::Untrusted { .. } | ConfigError::SecretVariable { .. })
    }

    /// The dotted key of a problem about one key, when it is one.
    pub(crate) fn key(&self) -> Option<&str> {
        match self {
            ConfigError::Untrusted { key, .. } | ConfigError::SecretVariable { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The location prefix for a value from `source`, as used in messages.
    pub(crate) fn location(source: &Source) -> String {
        match source {
            Source::Cli(flag) => flag.clone(),
            Source::Env(var) => format!("environment variable {var}"),
            Source::File { path, line: Some(line) } => format!("{}:{line}", path.display()),
            Source::File { path, line: None } => path.display().to_string(),
            Source::Default => "default".to_string(),
        }
    }
}
