//! A snapshot of the process environment, taken once, and the working directory.
//!
//! Architecture invariant: this is the only place in the program that reads environment
//! variables (the binaries' process setup receives them from here too) and the working
//! directory. Everything else receives values through [`super::Settings`], which keeps the
//! precedence rules in one place and lets tests resolve configurations without touching the
//! real environment.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Environment variables by name.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: HashMap<String, String>,
    /// The user's configuration directory (`$XDG_CONFIG_HOME` or the platform's equivalent).
    config_dir: Option<PathBuf>,
    /// The user's cache directory (`$XDG_CACHE_HOME` or the platform's equivalent).
    cache_dir: Option<PathBuf>,
}

impl Env {
    /// The environment of this process. Variables that are not valid UTF-8 are ignored.
    pub fn from_process() -> Env {
        let vars = std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)));
        // The platform's rule (XDG on Linux, Application Support on macOS, %APPDATA% on
        // Windows) is the `dirs` crate's.
        Env { vars: vars.collect(), config_dir: dirs::config_dir(), cache_dir: dirs::cache_dir() }
    }

    /// An environment made of these pairs (for tests and embedding); its user configuration
    /// and cache directories are `XDG_CONFIG_HOME` and `XDG_CACHE_HOME` when the pairs set them.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Env {
        let vars: HashMap<String, String> = pairs.into_iter().collect();
        let dir = |name: &str| vars.get(name).filter(|d| !d.is_empty()).map(PathBuf::from);
        let (config_dir, cache_dir) = (dir("XDG_CONFIG_HOME"), dir("XDG_CACHE_HOME"));
        Env { vars, config_dir, cache_dir }
    }

    /// The user's configuration directory, if the platform has one.
    pub fn user_config_dir(&self) -> Option<&Path> {
        self.config_dir.as_deref()
    }

    /// The user's cache directory, if the platform has one.
    pub fn user_cache_dir(&self) -> Option<&Path> {
        self.cache_dir.as_deref()
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// Names of the set variables starting with `prefix`, sorted.
    pub fn names_with_prefix(&self, prefix: &str) -> Vec<&str> {
        let mut names: Vec<&str> = self.vars.keys().map(String::as_str).filter(|k| k.starts_with(prefix)).collect();
        names.sort_unstable();
        names
    }

    /// Whether colour output is disabled by `NO_COLOR` (any non-empty value, per no-color.org).
    pub fn no_color(&self) -> bool {
        self.get("NO_COLOR").is_some_and(|v| !v.is_empty())
    }
}

/// The working directory of this process.
pub fn working_directory() -> std::io::Result<std::path::PathBuf> {
    std::env::current_dir()
}
