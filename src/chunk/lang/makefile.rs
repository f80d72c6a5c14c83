//! Makefiles: detection only (also `Makefile.*`); chunked as text.

use super::prelude::*;

/// What cocosearch knows about Makefile.
pub(crate) const SPEC: Spec = Spec {
    name: "makefile",
    aliases: &["make", "mk", "gnumakefile"],
    extensions: &["mk", "mak", "make"],
    file_names: &["Makefile", "GNUmakefile", "makefile"],
    name_prefixes: &["makefile", "gnumakefile"],
    interpreters: &["make", "gmake"],
    ..Spec::PLAIN
};
