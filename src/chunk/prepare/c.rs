//! Provides C's source preparation: blanking the attribute-like macros C
//! projects put around declarations (`CURL_EXTERN`, `UNITTEST`,
//! `WARN_UNUSED_RESULT`, `CURL_PRINTF(2, 3)`), which the grammar sees before
//! the preprocessor has turned them into attributes, storage classes or
//! nothing. C shares its macro rules with C++ (headers of both are mixed).

use std::borrow::Cow;

use super::c_family;
use super::cpp::is_attribute_macro;

/// The text to parse: `source` with attribute-like macros blanked.
pub(crate) fn prepare(source: &str) -> Cow<'_, str> {
    c_family::blank_macros(source, is_attribute_macro)
}
