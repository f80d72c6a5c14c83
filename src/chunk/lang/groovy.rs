//! Groovy, Jenkinsfiles and Gradle scripts: detection only; chunked as text.

use super::prelude::*;

/// What cocosearch knows about Groovy.
pub(crate) const SPEC: Spec = Spec {
    name: "groovy",
    aliases: &["jenkinsfile", "gradle", "jenkins"],
    extensions: &["groovy", "gradle", "gvy"],
    file_names: &["Jenkinsfile"],
    name_prefixes: &["jenkinsfile"],
    interpreters: &["groovy"],
    ..Spec::PLAIN
};
