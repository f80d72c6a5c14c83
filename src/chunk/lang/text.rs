//! Plain text: detection only (prose); chunked as text.

use super::prelude::*;

/// What cocosearch knows about Text.
pub(crate) const SPEC: Spec = Spec {
    name: "text",
    aliases: &["txt", "plain", "plaintext"],
    extensions: &["txt", "text"],
    file_names: &["LICENSE", "COPYING", "NOTICE", "AUTHORS"],
    role: Role::Prose,
    ..Spec::PLAIN
};
