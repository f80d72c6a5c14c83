//! Configuration warnings are told once: a CocoSearch key without effect, an unknown
//! `COCOSEARCH_*` variable or an index name adopted from CocoSearch's spelling is worth one
//! line the first time, not one on every command. `config show` and `config check`, where a
//! person looks at the configuration, tell every warning every time.
//!
//! The record is one line per warning told, the SHA-256 of its text, in
//! `<user cache dir>/cocosearch/warnings-shown`: a warning whose text changes (another key,
//! another file) is told again, and losing the record only tells them again.

use std::io::Write as _;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::env::Env;

/// The file that records the warnings told, inside the user's cache directory.
const SHOWN_FILE: &str = "warnings-shown";

/// The user's record of configuration warnings already told.
#[derive(Debug, Clone)]
pub struct ShownWarnings {
    file: Option<PathBuf>,
}

impl ShownWarnings {
    /// The record in the user's cache directory (none when the platform has no such directory:
    /// every warning is then told every time).
    pub fn user(env: &Env) -> ShownWarnings {
        ShownWarnings { file: env.user_cache_dir().map(|d| d.join("cocosearch").join(SHOWN_FILE)) }
    }

    /// Of `warnings`, those not told before, each recorded as told now.
    pub fn first_time<'w>(&self, warnings: &'w [String]) -> Vec<&'w str> {
        let Some(file) = &self.file else { return warnings.iter().map(String::as_str).collect() };
        let told = std::fs::read_to_string(file).unwrap_or_default();
        let new: Vec<(&str, String)> = warnings
            .iter()
            .map(|w| (w.as_str(), key(w)))
            .filter(|(_, key)| !told.lines().any(|line| line == key))
            .collect();
        if !new.is_empty() {
            // A record that cannot be written only means the warnings are told again.
            let _ = file.parent().map(std::fs::create_dir_all);
            if let Ok(mut record) = std::fs::OpenOptions::new().create(true).append(true).open(file) {
                let lines: String = new.iter().map(|(_, key)| format!("{key}\n")).collect();
                let _ = record.write_all(lines.as_bytes());
            }
        }
        new.into_iter().map(|(warning, _)| warning).collect()
    }
}

/// The recorded line for a warning.
fn key(warning: &str) -> String {
    Sha256::digest(warning.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_is_told_once_and_a_changed_one_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let shown = ShownWarnings { file: Some(dir.path().join("cocosearch").join(SHOWN_FILE)) };
        let warnings = vec!["a".to_string(), "b".to_string()];
        assert_eq!(shown.first_time(&warnings), ["a", "b"]);
        assert_eq!(shown.first_time(&warnings), Vec::<&str>::new());
        assert_eq!(shown.first_time(&["b".to_string(), "c".to_string()]), ["c"]);
        let none = ShownWarnings { file: None };
        assert_eq!(none.first_time(&warnings), ["a", "b"]);
    }
}
