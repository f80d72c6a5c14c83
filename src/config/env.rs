//! A snapshot of the process environment, taken once, and the working directory.
//!
//! Architecture invariant: this is the only place in the program that reads environment
//! variables (the binaries' process setup receives them from here too) and the working
//! directory. Everything else receives values through [`super::Settings`], which keeps the
//! precedence rules in one place and lets tests resolve configurations without touching the
//! real environment.

use std::collections::HashMap;

/// Environment variables by name.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: HashMap<String, String>,
}

impl Env {
    /// The environment of this process. Variables that are not valid UTF-8 are ignored.
    pub fn from_process() -> Env {
        Env::from_pairs(std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))))
    }

    /// An environment made of these pairs (for tests and embedding).
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Env {
        Env { vars: pairs.into_iter().collect() }
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
