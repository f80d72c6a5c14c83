//! CocoSearch (Python) configuration: which of its keys set one of ours, and which do nothing here.
//!
//! A `cocosearch.yaml` written for CocoSearch must work unchanged (issue 27, friction 4), so its
//! schema is kept here as data, read from CocoSearch's `config/schema.py`: the sections
//! `indexing`, `search`, `embedding`, `controller` and `logging` and the top-level `indexName`
//! and `linkedIndexes`. A key with an equivalent sets that setting of the registry (its value
//! takes effect, with the file and line as its source); a key without one is accepted and named
//! in one warning per file instead of stopping every command. The alternative, ignoring them
//! silently, was rejected: a user who set `logging.file` must learn it does nothing.

/// What one CocoSearch key becomes here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Here {
    /// It sets the registry setting with this dotted key.
    Sets(&'static str),
    /// It has no effect here; it is accepted and named in a warning.
    NoEffect,
}

/// Every key of CocoSearch's `cocosearch.yaml`, with what it becomes here.
pub static COCOSEARCH_KEYS: &[(&str, Here)] = &[
    ("indexName", Here::Sets("indexName")),
    ("linkedIndexes", Here::Sets("linkedIndexes")),
    ("indexing.includePatterns", Here::Sets("indexing.includePatterns")),
    ("indexing.excludePatterns", Here::Sets("indexing.excludePatterns")),
    ("indexing.chunkSize", Here::Sets("indexing.chunkSize")),
    ("indexing.chunkOverlap", Here::Sets("indexing.chunkOverlap")),
    ("search.resultLimit", Here::Sets("search.resultLimit")),
    ("search.minScore", Here::Sets("search.minScore")),
    ("embedding.provider", Here::Sets("embedding.provider")),
    ("embedding.model", Here::Sets("embedding.model")),
    ("embedding.outputDimension", Here::Sets("embedding.outputDimension")),
    ("embedding.baseUrl", Here::Sets("embedding.baseUrl")),
    // The query-rewrite controller: an LLM that rewrites a query before the search.
    ("controller.enabled", Here::Sets("controller.enabled")),
    ("controller.provider", Here::Sets("controller.provider")),
    ("controller.model", Here::Sets("controller.model")),
    ("controller.baseUrl", Here::Sets("controller.baseUrl")),
    ("controller.timeout", Here::Sets("controller.timeout")),
    // Logging to a file; here logs go to stderr (`logLevel`).
    ("logging.file", Here::NoEffect),
];

/// CocoSearch's sections that have no counterpart among ours.
pub const COCOSEARCH_ONLY_SECTIONS: &[&str] = &["logging"];

/// CocoSearch's environment variables for the keys that have no effect here.
pub const COCOSEARCH_ONLY_ENV: &[&str] = &["COCOSEARCH_LOG_FILE"];

/// What the CocoSearch key `key` (dotted, as written) becomes here, if CocoSearch has it.
pub fn cocosearch_key(key: &str) -> Option<Here> {
    COCOSEARCH_KEYS.iter().find(|(k, _)| *k == key).map(|(_, here)| *here)
}

/// The keys of a CocoSearch-only section (`controller`: `enabled`, `provider`, ...).
pub fn section_keys(section: &str) -> impl Iterator<Item = &'static str> + '_ {
    COCOSEARCH_KEYS.iter().filter_map(move |(k, _)| k.strip_prefix(section).and_then(|rest| rest.strip_prefix('.')))
}

/// The warning for the CocoSearch keys of one file that have no effect here.
pub fn no_effect_warning(file: &std::path::Path, keys: &[String]) -> String {
    format!("{}: a CocoSearch setting with no effect here: {}", file.display(), keys.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::registry;

    #[test]
    fn every_cocosearch_key_sets_a_real_setting_or_is_named_as_without_effect() {
        for (key, here) in COCOSEARCH_KEYS {
            match here {
                Here::Sets(ours) => {
                    let def = registry::lookup(ours).unwrap_or_else(|| panic!("{key} maps to unknown {ours}"));
                    assert_eq!(def.key, *ours);
                }
                Here::NoEffect => {
                    assert!(registry::lookup(key).is_none(), "{key} is a setting here, yet marked without effect");
                    let section = key.split_once('.').map(|(s, _)| s);
                    assert!(section.is_some_and(|s| COCOSEARCH_ONLY_SECTIONS.contains(&s)), "{key}");
                }
            }
        }
    }

    #[test]
    fn cocosearch_sections_are_ours_or_listed_as_theirs_alone() {
        for (key, _) in COCOSEARCH_KEYS {
            if let Some((section, _)) = key.split_once('.') {
                assert!(
                    registry::SECTIONS.contains(&section) != COCOSEARCH_ONLY_SECTIONS.contains(&section),
                    "{section} must be exactly one of ours or CocoSearch's alone"
                );
            }
        }
        assert_eq!(section_keys("logging").collect::<Vec<_>>(), ["file"]);
    }

    #[test]
    fn the_keys_cocosearch_users_set_most_take_effect() {
        for key in [
            "indexing.includePatterns",
            "indexing.excludePatterns",
            "indexing.chunkSize",
            "search.resultLimit",
            "embedding.model",
            "embedding.provider",
            "embedding.baseUrl",
        ] {
            assert_eq!(cocosearch_key(key), Some(Here::Sets(key)), "{key}");
        }
        assert_eq!(cocosearch_key("logging.file"), Some(Here::NoEffect));
        assert_eq!(cocosearch_key("controller.enabled"), Some(Here::Sets("controller.enabled")));
        assert_eq!(cocosearch_key("mcp.port"), None, "ours alone");
    }
}
