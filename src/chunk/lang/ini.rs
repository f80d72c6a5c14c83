//! INI-style configuration: detection only; chunked as text.

use super::prelude::*;

/// What cocosearch knows about Ini.
pub(crate) const SPEC: Spec = Spec {
    name: "ini",
    aliases: &["cfg", "conf", "editorconfig"],
    extensions: &["ini", "cfg"],
    file_names: &[".editorconfig", ".gitconfig", ".gitmodules", ".flake8"],
    role: Role::Config,
    ..Spec::PLAIN
};
