//! Index names: the strict pattern they must match, and how a directory name becomes one.
//!
//! Index names end up in SQL identifiers (table names), so the pattern is deliberately narrow:
//! lowercase ASCII letters, digits and underscores, starting with a letter, at most 48 bytes.
//! A configured name that CocoSearch (Python) would take — letters of either case, digits,
//! hyphens, dots, underscores — is turned into one the way a directory name is
//! ([`adopt_index_name`]), so its `cocosearch.yaml` works unchanged.

/// The longest index name; leaves room for table-name prefixes and suffixes within
/// PostgreSQL's 63-byte identifier limit.
pub const MAX_INDEX_NAME_LEN: usize = 48;

/// `Ok` when `name` is a valid index name, otherwise a message saying what is allowed.
pub fn validate_index_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= MAX_INDEX_NAME_LEN
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid {
        return Ok(());
    }
    let suggestion = sanitize_index_name(name);
    Err(format!(
        "invalid index name {name:?}: use lowercase letters, digits and underscores, starting with a letter, at most {MAX_INDEX_NAME_LEN} characters (e.g. `{suggestion}`)"
    ))
}

/// A valid index name made from any text, typically a directory name:
/// `My-Project.v2` becomes `my_project_v2`.
pub fn sanitize_index_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut name = if trimmed.starts_with(|c: char| c.is_ascii_lowercase()) {
        trimmed.to_string()
    } else {
        format!("i_{trimmed}")
    };
    name.truncate(MAX_INDEX_NAME_LEN);
    let name = name.trim_end_matches('_').to_string();
    if name == "i" { "index".to_string() } else { name }
}

/// The index name a configured `name` becomes: `None` when it is valid as it is, or when it
/// holds characters no index name is made of (a space, a quote: those stay errors). Otherwise
/// `name` is one CocoSearch accepts (`my-app`, `My.App`), sanitized as directory names are.
pub fn adopt_index_name(name: &str) -> Option<String> {
    if validate_index_name(name).is_ok() {
        return None;
    }
    let cocosearch_like = name.chars().any(|c| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    cocosearch_like.then(|| sanitize_index_name(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizing_always_yields_a_valid_name() {
        for raw in ["My-Project.v2", "123", "", "___", "ünïcödé", "a".repeat(100).as_str(), "cocosearch"] {
            let name = sanitize_index_name(raw);
            assert_eq!(validate_index_name(&name), Ok(()), "{raw:?} -> {name:?}");
        }
        assert_eq!(sanitize_index_name("My-Project.v2"), "my_project_v2");
        assert_eq!(sanitize_index_name("2024-app"), "i_2024_app");
    }

    #[test]
    fn cocosearch_names_are_sanitized_like_directory_names() {
        assert_eq!(adopt_index_name("my-app").as_deref(), Some("my_app"));
        assert_eq!(adopt_index_name("My.App-2").as_deref(), Some("my_app_2"));
        assert_eq!(adopt_index_name("shared-lib").as_deref(), Some(sanitize_index_name("shared-lib").as_str()));
        assert_eq!(adopt_index_name("2024-app").as_deref(), Some("i_2024_app"));
        assert_eq!(adopt_index_name("my_app"), None, "valid already");
        for hazard in ["Robert'); DROP TABLE", "a b", "a\"b", "---", ""] {
            assert_eq!(adopt_index_name(hazard), None, "{hazard:?} stays an error");
        }
    }

    #[test]
    fn validation_rejects_sql_hazards() {
        for bad in ["Robert'); DROP TABLE", "a-b", "A", "_a", "1a", "a b", "a\"b"] {
            assert!(validate_index_name(bad).is_err(), "{bad}");
        }
    }
}
