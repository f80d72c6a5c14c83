//! reStructuredText: detection only (prose); chunked as text.

use super::prelude::*;

/// What cocosearch knows about Rst.
pub(crate) const SPEC: Spec =
    Spec { name: "rst", aliases: &["restructuredtext"], extensions: &["rst"], role: Role::Prose, ..Spec::PLAIN };
