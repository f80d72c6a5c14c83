//! Which projects' own `cocosearch.yaml` the user trusts.
//!
//! A `cocosearch.yaml` found in the project may come with a cloned repository, so it is
//! someone else's file until the user says otherwise. Such a file may not set a key that
//! decides where code, queries or credentials go ([`Reach::Elsewhere`]: endpoints, the store,
//! linked indexes, a model directory, the MCP server's exposure) and may not expand a secret
//! variable, until the user runs `cocosearch config trust` in the project — the way direnv's
//! `allow` or an editor's workspace trust work. Trust covers the file as it is: its canonical
//! path and the SHA-256 of its content are recorded, so a changed file (a `git pull`) is
//! untrusted again. Settings the user makes (command line, environment, `--config`,
//! `COCOSEARCH_CONFIG`) are never restricted.
//!
//! The record is one line per file, `<sha256 hex> <canonical path>`, in
//! `<user config dir>/cocosearch/trusted-projects` (`$XDG_CONFIG_HOME/cocosearch` on Linux,
//! through the `dirs` crate as for the data and cache directories).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::env::Env;
use super::error::ConfigError;
use super::registry::Reach;

/// The file that records trusted project files, inside the user's config directory.
const TRUST_FILE: &str = "trusted-projects";

/// Whether a project file is trusted, as decided for one resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// The user named the file, or trusted it as it is now.
    Trusted,
    /// A project's own file the user has not trusted (or that changed since).
    Untrusted,
}

/// The user's record of trusted project files.
#[derive(Debug, Clone)]
pub struct TrustList {
    file: Option<PathBuf>,
}

impl TrustList {
    /// The record in the user's config directory (none when the platform has no such
    /// directory: nothing is trusted then).
    pub fn user(env: &Env) -> TrustList {
        TrustList { file: env.user_config_dir().map(|d| d.join("cocosearch").join(TRUST_FILE)) }
    }

    /// A record kept at `file` (tests).
    pub fn at(file: PathBuf) -> TrustList {
        TrustList { file: Some(file) }
    }

    /// Whether `config_file`, whose content is `text`, is trusted as it is.
    pub fn check(&self, config_file: &Path, text: &str) -> Trust {
        let key = record_key(config_file, text);
        let trusted = self
            .file
            .as_deref()
            .and_then(|file| std::fs::read_to_string(file).ok())
            .is_some_and(|records| records.lines().any(|line| line == key));
        if trusted { Trust::Trusted } else { Trust::Untrusted }
    }

    /// Records `config_file` as trusted with its current content; returns the record's path.
    pub fn trust(&self, config_file: &Path) -> Result<PathBuf, ConfigError> {
        let Some(record) = self.file.clone() else {
            return Err(ConfigError::TrustRecord {
                path: PathBuf::from("(no user config directory)"),
                reason: "this platform has no user configuration directory; set the keys in the environment instead"
                    .into(),
            });
        };
        let text = std::fs::read_to_string(config_file)
            .map_err(|source| ConfigError::Read { path: config_file.to_path_buf(), source })?;
        let key = record_key(config_file, &text);
        let canonical = canonical(config_file);
        let existing = std::fs::read_to_string(&record).unwrap_or_default();
        // One line per file: the new content replaces what was trusted before.
        let mut lines: Vec<&str> = existing
            .lines()
            .filter(|line| line.split_once(' ').is_none_or(|(_, path)| Path::new(path) != canonical))
            .collect();
        lines.push(&key);
        let failed = |e: std::io::Error| ConfigError::TrustRecord { path: record.clone(), reason: e.to_string() };
        if let Some(dir) = record.parent() {
            std::fs::create_dir_all(dir).map_err(failed)?;
        }
        let partial = record.with_extension("partial");
        std::fs::write(&partial, lines.join("\n") + "\n").map_err(failed)?;
        std::fs::rename(&partial, &record).map_err(failed)?;
        Ok(record)
    }
}

/// The recorded line for a file with this content.
fn record_key(config_file: &Path, text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex} {}", canonical(config_file).display())
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Every key an untrusted project file sets that needs trust, each as an error naming it. A
/// key written without a value (`baseUrl: null`, `baseUrl:`) sets nothing, so it needs none.
pub(super) fn refusals(file: &super::yaml::YamlFile) -> Vec<ConfigError> {
    untrusted_keys(file)
        .map(|key| ConfigError::Untrusted { location: ConfigError::location(&file.source(key)), key: key.to_string() })
        .collect()
}

/// The keys of `file` that an untrusted file may not set, as [`refusals`] names them.
pub(super) fn untrusted_keys(file: &super::yaml::YamlFile) -> impl Iterator<Item = &str> {
    file.values
        .iter()
        .filter(|(_, value)| !value.is_null())
        .filter(|(key, _)| super::registry::lookup(key).is_some_and(|def| def.reach == Reach::Elsewhere))
        .map(|(key, _)| key.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_covers_the_file_as_it_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let list = TrustList::at(dir.path().join("cfg").join(TRUST_FILE));
        let file = dir.path().join("cocosearch.yaml");
        std::fs::write(&file, "embedding:\n  baseUrl: http://127.0.0.1:1/v1\n").expect("write");
        let text = std::fs::read_to_string(&file).expect("read");
        assert_eq!(list.check(&file, &text), Trust::Untrusted);
        list.trust(&file).expect("trust");
        assert_eq!(list.check(&file, &text), Trust::Trusted);
        // A changed file is someone else's again.
        assert_eq!(list.check(&file, &format!("{text}# changed\n")), Trust::Untrusted);
        // Trusting it again replaces the old record instead of adding a second one.
        std::fs::write(&file, format!("{text}# changed\n")).expect("write");
        list.trust(&file).expect("trust again");
        let records = std::fs::read_to_string(dir.path().join("cfg").join(TRUST_FILE)).expect("record");
        assert_eq!(records.lines().count(), 1, "{records}");
        assert_eq!(list.check(&file, &text), Trust::Untrusted);
    }
}
