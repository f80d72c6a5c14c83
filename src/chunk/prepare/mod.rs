//! Provides per-language source preparation: the text a grammar is given to
//! parse, when the file as written contains constructs the grammar cannot
//! read (attribute macros before the C preprocessor has run, Kotlin syntax
//! newer than the grammar).
//!
//! A prepared text has exactly the length, byte offsets and line breaks of
//! the source: constructs are only overwritten with spaces (or, for a Kotlin
//! soft keyword used as a name, an identifier of equal length), so the tree
//! parsed from it describes the original, and chunks, symbols and line
//! numbers are cut from the original text. Each language's rules live in its
//! own file; [`for_parsing`] and [`retry`] are the only entry points.

mod blank;
mod c;
mod c_family;
mod cpp;
mod kotlin;

use std::borrow::Cow;

use super::Language;

/// The text to parse for `source`: the source itself unless the language's
/// rules overwrite some constructs.
pub(crate) fn for_parsing(lang: Language, source: &str) -> Cow<'_, str> {
    match lang {
        Language::C => c::prepare(source),
        Language::Cpp => cpp::prepare(source),
        Language::Kotlin => kotlin::prepare(source),
        _ => Cow::Borrowed(source),
    }
}

/// A second text to try when the prepared one parses with errors, or `None`
/// when the language has none. The chunker keeps whichever tree has fewer
/// bytes under syntax errors.
pub(crate) fn retry<'a>(lang: Language, prepared: &'a str) -> Option<Cow<'a, str>> {
    match lang {
        Language::C | Language::Cpp => c_family::first_branches_only(prepared),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
