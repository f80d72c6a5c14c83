//! XML and its dialects: detection only; chunked as text.

use super::prelude::*;

/// What cocosearch knows about Xml.
pub(crate) const SPEC: Spec = Spec {
    name: "xml",
    aliases: &["svg", "xsd"],
    extensions: &["xml", "xsd", "xsl", "xslt", "svg", "plist", "csproj", "fsproj", "vbproj"],
    role: Role::Config,
    ..Spec::PLAIN
};
