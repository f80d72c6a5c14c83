//! The code graph through the front door: the options every graph question takes, declared
//! once ([`GraphOptions`], [`KindFilter`]), the graph of an opened target ([`Target::graph`]),
//! and the engine's vocabulary of questions and answers, which the presenters print.

use clap::Args;
use serde::{Deserialize, Serialize};

pub use crate::graph::{
    CHAIN_TIME_LIMIT, CallChain, Certainty, ChainSearch, Definition, DepEdge, DepsAnswer, Graph, GraphError,
    OutlineAnswer, RefsAnswer, Scope, SourceKind, Stop, SymbolAnswer, dir_of,
};
pub use crate::store::Resolution;

use super::inputs::{FileFilter, spelled, string_list};
use super::{Error, Front, Target};
use crate::chunk::{Language, SymbolKind};
use crate::store::glob::PathGlob;

/// What an answer lists when the request does not say (`max_results`, `--limit`).
pub const DEFAULT_RESULTS: usize = 50;
/// The most any graph answer lists (`0` asks for it).
pub const MAX_RESULTS: usize = 1000;

/// What every graph question takes besides its index ([`super::IndexRef`]) and its subject.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct GraphOptions {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub files: FileFilter,
    /// Most results (default 50; 0 = up to 1000); a cut answer says `truncated`.
    #[arg(short = 'm', long = "limit", value_name = "N")]
    #[serde(default)]
    #[schemars(extend("default" = 50), range(max = 1000))]
    pub max_results: Option<usize>,
}

impl GraphOptions {
    /// The files answers may name, with each option checked; refusals name the option as
    /// `front` spells it.
    pub fn scope(&self, front: Front) -> Result<Scope, Error> {
        let languages = self
            .files
            .language
            .iter()
            .map(|l| {
                Language::from_name(l).map(|l| l.name().to_string()).ok_or_else(|| {
                    Error::usage(format!("{}: {}", spelled::<GraphOptions>(front, "language"), Language::unknown(l)))
                })
            })
            .collect::<Result<_, _>>()?;
        let path_glob = self
            .files
            .path
            .as_deref()
            .filter(|p| !p.trim().is_empty())
            .map(PathGlob::new)
            .transpose()
            .map_err(|e| Error::usage(format!("{}: {e}", spelled::<GraphOptions>(front, "path"))))?;
        Ok(Scope { languages, path_glob })
    }

    /// How many results to list: omitted, the default; `0`, the most allowed.
    pub fn limit(&self) -> usize {
        results(self.max_results)
    }
}

/// A count option of a graph question (`max_results`, `max_direct`): omitted, the default;
/// `0`, the most allowed.
pub fn results(max: Option<usize>) -> usize {
    match max {
        None => DEFAULT_RESULTS,
        Some(0) => MAX_RESULTS,
        Some(n) => n.min(MAX_RESULTS),
    }
}

/// The kinds of definition a symbol question keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct KindFilter {
    /// Only definitions of these kinds (comma list: function, method, class, struct, ...).
    #[arg(long = "kind", value_name = "KIND", value_delimiter = ',')]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<String>")]
    pub kind: Vec<String>,
}

impl KindFilter {
    /// The kinds named, each checked.
    pub fn kinds(&self, front: Front) -> Result<Vec<SymbolKind>, Error> {
        self.kind
            .iter()
            .map(|k| {
                k.parse::<SymbolKind>().map_err(|_| {
                    let known: Vec<&str> = SymbolKind::all().iter().map(|k| k.as_str()).collect();
                    Error::usage(format!(
                        "{}: unknown kind {k:?} — use one of: {}",
                        spelled::<KindFilter>(front, "kind"),
                        known.join(", ")
                    ))
                })
            })
            .collect()
    }
}

/// Refuses an empty symbol name (`what` names the argument), in `front`'s words.
pub fn name_given(name: &str, what: &str, front: Front) -> Result<(), Error> {
    if name.trim().is_empty() {
        let example = match front {
            Front::Command => "`send` or `Request.send`",
            Front::Mcp | Front::Dashboard => "send or Request.send",
        };
        return Err(Error::usage(format!("{what} is empty — pass a name such as {example}")));
    }
    Ok(())
}

impl Target {
    /// The code graph of the target's index at the snapshot read, its files under the
    /// index's root.
    pub fn graph(&self) -> Result<Graph, Error> {
        let meta = self.meta()?;
        Ok(Graph::open_at(self.store.as_ref(), &self.index, &meta.root, self.at)?)
    }
}
