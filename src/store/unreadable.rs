//! Stored values this build cannot read, and the one error both backends answer for them.
//!
//! A value that is present but does not decode — JSON of the wrong shape, a kind or status
//! this build does not know, a vector that is not one — is [`StoreError::Unreadable`] naming
//! the index, the row and the fix. It never reads as an empty, zero or default value: a search
//! or a count built on one would be wrong without saying so. A value that is legitimately
//! absent (SQL `NULL` meaning "none") is not read through here.

use std::fmt::Display;
use std::str::FromStr;

use super::StoreError;

/// What to do about an unreadable row of an index: its rows are all derived from the
/// project's files, so indexing it again from scratch rewrites every one.
const FIX: &str = "run `cocosearch index --fresh` to rebuild the index";

/// `what` (a row: `the vector of chunk 12`) of index `index` cannot be read, for `problem`.
pub(crate) fn unreadable(index: &str, what: String, problem: impl Display) -> StoreError {
    StoreError::Unreadable { index: index.to_string(), what, problem: problem.to_string(), fix: FIX.into() }
}

/// A stored column holding JSON (symbol details, parse errors) that does not parse.
pub(crate) fn unreadable_column(index: &str, what: String, e: &serde_json::Error) -> StoreError {
    unreadable(index, what, e)
}

/// A stored name (a kind, a status, a reason) read back as `T`; a name this build does not
/// know is unreadable, never another value. `what` names the row, and is built only then.
pub(crate) fn stored_name<T>(index: &str, text: &str, what: impl FnOnce() -> String) -> Result<T, StoreError>
where
    T: FromStr,
    T::Err: Display,
{
    text.parse::<T>().map_err(|e| unreadable(index, what(), e))
}

/// A stored line number: the columns are signed, and a negative one is damage, not line 0.
pub(crate) fn stored_line(index: &str, value: i64, what: impl FnOnce() -> String) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| unreadable(index, what(), format!("line {value} is not a line number")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::SymbolKind;

    #[test]
    fn an_unknown_name_is_unreadable_naming_the_row_and_the_fix() {
        assert_eq!(stored_name::<SymbolKind>("x", "class", || unreachable!()).ok(), Some(SymbolKind::Class));
        let err = stored_name::<SymbolKind>("x", "gadget", || "a definition in a.py".into()).expect_err("unknown");
        let text = err.to_string();
        assert!(matches!(err, StoreError::Unreadable { .. }), "{err:?}");
        assert!(text.contains("index x") && text.contains("a.py") && text.contains("gadget"), "{text}");
        assert!(text.contains("cocosearch index --fresh"), "{text}");
    }

    #[test]
    fn a_negative_line_is_unreadable_not_line_zero() {
        assert_eq!(stored_line("x", 7, || unreachable!()).ok(), Some(7));
        assert!(stored_line("x", -1, || "a reference in a.py".into()).is_err());
        assert!(stored_line("x", i64::from(u32::MAX) + 1, || "a reference in a.py".into()).is_err());
    }
}
