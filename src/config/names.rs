//! Index names: the strict pattern they must match, and how a directory name becomes one.
//!
//! Index names end up in SQL identifiers (table names), so the pattern is deliberately narrow:
//! lowercase ASCII letters, digits and underscores, starting with a letter, at most 48 bytes.

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
    fn validation_rejects_sql_hazards() {
        for bad in ["Robert'); DROP TABLE", "a-b", "A", "_a", "1a", "a b", "a\"b"] {
            assert!(validate_index_name(bad).is_err(), "{bad}");
        }
    }
}
