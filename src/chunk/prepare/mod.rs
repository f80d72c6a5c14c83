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
//! own file, named by the language's module (`chunk::lang`'s `ParseHooks`), which is how
//! the chunker reaches them.

mod blank;
pub(crate) mod c;
pub(crate) mod c_family;
pub(crate) mod cpp;
pub(crate) mod kotlin;

#[cfg(test)]
mod tests;
