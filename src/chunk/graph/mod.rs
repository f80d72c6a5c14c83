//! Provides what a parsed file says about other code — the facts the code graph is built
//! from: what the file imports ([`Import`]), what each of its definitions calls or uses
//! ([`Reference`]), and the parameters and bases of its definitions.
//!
//! Like the rest of `chunk` it is pure: a tree and its text in, facts out. Nothing here knows
//! other files; an import is recorded as written (`..models`, `./util`, `crate::a::b`), and
//! `index` resolves it once the whole file list is known. A reference is a name and how it
//! was reached (`self.send`, `requests.get`, `Foo::new`), never a guess of which definition it
//! means: the graph engine decides that, and says how sure it is.
//!
//! Reading order: this file (the records, and the one walk that attaches callers, parameters
//! and bases to definitions), `code` (the walk over a tree that hands nodes to a language
//! module's rule, and the helpers those rules share), `imports` (helpers of the import
//! rules). The rules themselves are in the language modules (`chunk::lang`).

pub(crate) mod code;
mod imports;

pub(crate) use code::{At, bases, callee, innermost_declarator, is_name, member, named_children, params, walk};
pub(crate) use imports::{field_children, import_at};

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

/// What a file imports and what its definitions use.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileGraph {
    /// Imports, in source order.
    pub imports: Vec<Import>,
    /// References, in source order.
    pub refs: Vec<Reference>,
}

/// How a file names another file or module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportKind {
    /// A language import: `import`, `from … import`, `use`, `require`, `using`, `import "pkg"`.
    Import,
    /// A C/C++ `#include`.
    Include,
    /// A Rust `mod name;` declaration (the module's file).
    Mod,
    /// A shell `source file` or `. file`.
    Source,
    /// A Terraform `module` block's `source`.
    Module,
    /// A container image: a Dockerfile `FROM` or `COPY --from` that names no stage of the file.
    Image,
    /// A docker-compose `extends: {file: …}`.
    Extends,
    /// A GitHub Actions `uses:` (a local action, a reusable workflow, or a published action).
    Uses,
    /// A Markdown link to a file.
    Link,
}

impl ImportKind {
    /// Every kind.
    pub const ALL: &'static [ImportKind] = &[
        ImportKind::Import,
        ImportKind::Include,
        ImportKind::Mod,
        ImportKind::Source,
        ImportKind::Module,
        ImportKind::Image,
        ImportKind::Extends,
        ImportKind::Uses,
        ImportKind::Link,
    ];

    /// The lowercase name used in storage and output.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportKind::Import => "import",
            ImportKind::Include => "include",
            ImportKind::Mod => "mod",
            ImportKind::Source => "source",
            ImportKind::Module => "module",
            ImportKind::Image => "image",
            ImportKind::Extends => "extends",
            ImportKind::Uses => "uses",
            ImportKind::Link => "link",
        }
    }
}

impl std::str::FromStr for ImportKind {
    type Err = super::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ImportKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| super::UnknownName::new("import kind", s))
    }
}

/// One import as written in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// What kind of import.
    pub kind: ImportKind,
    /// The module, path or image as written, without quotes: `..models`, `./util`,
    /// `github.com/x/y/pkg`, `crate::a::b`, `<stdio.h>` (angle brackets kept: a system
    /// include), `./modules/vpc`, `docs/guide.md`.
    pub spec: String,
    /// The name imported from it, where the statement names one: `Session` in
    /// `from .sessions import Session`, `C` in `use crate::a::C`, `*` for a wildcard.
    /// Statements naming several give one import each.
    pub name: Option<String>,
    /// The local name it is bound to (`as`), if renamed.
    pub alias: Option<String>,
    /// 1-based line.
    pub line: u32,
}

/// How a reference uses the name it mentions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    /// A call or instantiation: `f()`, `obj.f()`, `Foo::new()`, `new Foo()`, a shell command.
    Call,
    /// A type used in an annotation, signature, field or generic argument.
    Type,
    /// A base class, implemented interface, supertrait, mixin or embedded struct.
    Inherit,
    /// The trait of a Rust `impl Trait for Type`.
    Impl,
    /// A decorator, annotation or attribute.
    Decorator,
    /// A Terraform value reference: `var.x`, `local.y`, `module.z`, `aws_s3_bucket.logs`.
    Use,
    /// A docker-compose `depends_on` or a GitHub Actions `needs`.
    DependsOn,
    /// A docker-compose `extends` of a service in the same file.
    Extends,
    /// A Dockerfile stage used by `FROM stage` or `COPY --from=stage`.
    Stage,
}

impl RefKind {
    /// Every kind.
    pub const ALL: &'static [RefKind] = &[
        RefKind::Call,
        RefKind::Type,
        RefKind::Inherit,
        RefKind::Impl,
        RefKind::Decorator,
        RefKind::Use,
        RefKind::DependsOn,
        RefKind::Extends,
        RefKind::Stage,
    ];

    /// The lowercase name used in storage and output.
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Call => "call",
            RefKind::Type => "type",
            RefKind::Inherit => "inherit",
            RefKind::Impl => "impl",
            RefKind::Decorator => "decorator",
            RefKind::Use => "use",
            RefKind::DependsOn => "depends_on",
            RefKind::Extends => "extends",
            RefKind::Stage => "stage",
        }
    }
}

impl std::str::FromStr for RefKind {
    type Err = super::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RefKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| super::UnknownName::new("reference kind", s))
    }
}

/// What a receiver is when it is not a plain name or path (`make().go()`): a value whose
/// type the extractor cannot know.
pub const EXPRESSION_QUALIFIER: &str = "<expr>";

/// One use of a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// How it is used.
    pub kind: RefKind,
    /// The name used, as definitions name themselves: `send`, `Session`, `aws_s3_bucket.logs`.
    pub name: String,
    /// What the name is reached through, as written: `self`, `requests.sessions`, `fmt`,
    /// `Foo` (of `Foo::new`), `var` (Terraform); [`EXPRESSION_QUALIFIER`] for a computed
    /// receiver; `None` for a bare name.
    pub qualifier: Option<String>,
    /// 1-based line of the name.
    pub line: u32,
    /// The qualified name of the innermost definition the reference lies in (the calling
    /// function), or the service or job of a docker-compose or workflow file; `None` at
    /// module level.
    pub caller: Option<String>,
}

/// Facts found while walking, before they are attached to definitions.
#[derive(Default)]
pub(crate) struct Found {
    /// The file's graph; references without a caller get one from [`attach`].
    pub(crate) graph: FileGraph,
    /// Byte offset of each reference, in the order of `graph.refs`.
    pub(crate) ref_at: Vec<usize>,
    /// Parameter lists: where the list starts, and its names.
    pub(crate) params: Vec<(usize, Vec<String>)>,
    /// Base lists: where the list starts, and the bases as written.
    pub(crate) bases: Vec<(usize, Vec<String>)>,
}

impl Found {
    /// Records a reference at `node` (its line and byte offset).
    pub(crate) fn reference(&mut self, kind: RefKind, name: &str, qualifier: Option<String>, node: Node<'_>) {
        let name = name.trim();
        if name.is_empty() || name.len() > MAX_NAME {
            return;
        }
        self.graph.refs.push(Reference { kind, name: name.to_string(), qualifier, line: line_of(node), caller: None });
        self.ref_at.push(node.start_byte());
    }

    /// Records a reference whose caller the extractor knows (a compose service, a job).
    pub(crate) fn reference_by(&mut self, kind: RefKind, name: &str, caller: &str, line: u32, at: usize) {
        let name = name.trim();
        if name.is_empty() || name.len() > MAX_NAME {
            return;
        }
        self.graph.refs.push(Reference {
            kind,
            name: name.to_string(),
            qualifier: None,
            line,
            caller: Some(caller.to_string()),
        });
        self.ref_at.push(at);
    }

    /// Records an import.
    pub(crate) fn import(&mut self, kind: ImportKind, spec: &str, name: Option<&str>, alias: Option<&str>, line: u32) {
        let spec = spec.trim();
        if spec.is_empty() || spec.len() > MAX_SPEC {
            return;
        }
        let clean = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        self.graph.imports.push(Import { kind, spec: spec.to_string(), name: clean(name), alias: clean(alias), line });
    }
}

/// Names longer than this are not names (generated code, minified text).
const MAX_NAME: usize = 200;
/// Import specifications longer than this are not kept.
const MAX_SPEC: usize = 500;

/// The 1-based line where `node` starts.
pub(crate) fn line_of(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row).map_or(u32::MAX, |r| r.saturating_add(1))
}

/// The text of a node, or `""` if its range is not valid in `src`.
pub(crate) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// Whether `text` is a plain name or a path of names (`self.session`, `os.path`,
/// `crate::a`, `$this`): a receiver worth recording as written.
pub(crate) fn is_path(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 120
        && text.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$' | '\\' | '@'))
        && text.chars().next().is_some_and(|c| !c.is_ascii_digit())
}

/// The receiver as recorded: the text of a plain path, else [`EXPRESSION_QUALIFIER`].
pub(crate) fn qualifier(node: Node<'_>, src: &str) -> Option<String> {
    let t = text(node, src).trim();
    Some(if is_path(t) { t.to_string() } else { EXPRESSION_QUALIFIER.to_string() })
}

/// The text of a string literal without its quotes (and without an `f`/`r`/`b` prefix).
pub(crate) fn unquote(text: &str) -> &str {
    let t = text.trim().trim_start_matches(['r', 'b', 'f', 'u', 'R', 'B', 'F', 'U', '@']);
    for q in ["\"\"\"", "'''", "\"", "'", "`"] {
        if let Some(inner) = t.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner;
        }
    }
    text.trim()
}

#[cfg(test)]
mod tests;
