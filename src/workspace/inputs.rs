//! The options every front end takes, each declared once: one field per option, whose `clap`
//! attributes make the command line's flag, whose `serde`/`schemars` attributes make the MCP
//! tools' argument and its schema, and from which the dashboard's query strings are parsed
//! ([`from_query`], by the command line's own parser). A field is named as the MCP argument
//! is (CocoSearch's spelling where CocoSearch has the option); the flag's spelling is its
//! `long`.
//!
//! A flag whose sense the command line spells the other way round (`--no-smart` for
//! `smart_context: false`) keeps the doc comment for agents and says its own `help`.
//!
//! An option one front end lacks on purpose is listed, with the reason, in the `ONLY_*` table
//! beside its struct; `tests` checks that every other option reaches every front end.

use clap::{ArgAction, Args, Parser};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::{Error, Front};

/// How a search ranks: by meaning, by words, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// Both, weighted by what the query looks like (the default).
    Auto,
    /// Both, equally weighted.
    Hybrid,
    /// Nearest vectors only.
    Vector,
    /// Keywords only (no embedding needed).
    Keyword,
}

/// Several indexes read as one (`--indexes a,b`, `index_names`), declared once for every
/// question that can read several: search and grep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct IndexList {
    /// Read several indexes at once (@all: every index; @NAME: a group of indexGroups).
    #[arg(long = "indexes", value_name = "A,B", value_delimiter = ',')]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<Vec<String>>")]
    pub index_names: Vec<String>,
}

/// What a search asks for, besides its query and its index ([`super::IndexRef`]).
#[derive(Debug, Clone, Default, PartialEq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct SearchOptions {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub indexes: IndexList,
    /// Number of results (default: search.resultLimit, 10).
    #[arg(short = 'm', long, value_name = "N")]
    #[serde(default)]
    #[schemars(extend("default" = 10), range(min = 1, max = 100))]
    pub limit: Option<usize>,
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub page: PageOptions,
    /// Drop hits scoring below this (0..1).
    #[arg(long, value_name = "SCORE")]
    #[serde(default)]
    #[schemars(range(min = 0, max = 1))]
    pub min_score: Option<f64>,
    /// How to rank: auto (by what the query looks like), hybrid, vector or keyword.
    #[arg(long, value_enum, value_name = "MODE", conflicts_with_all = ["hybrid", "no_hybrid", "keyword"])]
    #[serde(default)]
    pub mode: Option<SearchMode>,
    /// Always fuse vector and keyword results (--mode hybrid).
    #[arg(long, conflicts_with_all = ["no_hybrid", "keyword"])]
    #[serde(skip)]
    pub hybrid: bool,
    /// Vector search only (--mode vector).
    #[arg(long, conflicts_with = "keyword")]
    #[serde(skip)]
    pub no_hybrid: bool,
    /// Keyword search only, no embedding needed (--mode keyword).
    #[arg(long)]
    #[serde(skip)]
    pub keyword: bool,
    /// true: fuse semantic and keyword ranking (mode hybrid); false: semantic only (mode vector).
    #[arg(skip)]
    #[serde(default)]
    pub use_hybrid_search: Option<bool>,
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub files: FileFilter,
    /// Only chunks defining these kinds of symbol (comma list: function, method, class, ...).
    #[arg(long = "symbol-type", value_name = "TYPES", value_delimiter = ',')]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<String>")]
    pub symbol_type: Vec<String>,
    /// Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler).
    #[arg(long, value_name = "GLOB")]
    #[serde(default)]
    pub symbol_name: Option<String>,
    /// Lines to show before each hit, read from the file.
    #[arg(short = 'B', long = "before-context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 200))]
    pub context_before: Option<usize>,
    /// Lines to show after each hit, read from the file.
    #[arg(short = 'A', long = "after-context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 200))]
    pub context_after: Option<usize>,
    /// Lines to show before and after each hit.
    #[arg(short = 'C', long = "context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 200))]
    pub around: Option<usize>,
    /// false: do not expand hits to their enclosing function or class.
    #[arg(
        long = "no-smart",
        num_args = 0,
        default_missing_value = "false",
        value_parser = clap::value_parser!(bool),
        help = "Do not expand hits to their enclosing function or class"
    )]
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub smart_context: Option<bool>,
    /// Cap on the lines of each hit; longer hits are cut and say so.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_lines: Option<u32>,
    /// Also list the N functions and methods most likely meant, from the top files (1-100).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=100))]
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub definitions: Option<u16>,
    /// false: search the query as typed even when controller.enabled rewrites queries.
    #[arg(
        long = "no-rewrite",
        num_args = 0,
        default_missing_value = "false",
        value_parser = clap::value_parser!(bool),
        help = "Search the query as typed, even when controller.enabled rewrites queries"
    )]
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub rewrite_query: Option<bool>,
    /// Embed the query again instead of using the cached vector (and replace it).
    #[arg(long)]
    #[serde(skip)]
    pub no_cache: bool,
    /// Also list, for each hit's file, the files it imports and the files importing it.
    #[arg(skip)]
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub include_deps: Option<bool>,
}

/// How much of an answer to send: a token budget, and where the page starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct PageOptions {
    /// Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000
    /// unless they say): results past it are left for the next page, and the answer says so.
    #[arg(long, value_name = "N")]
    #[serde(default)]
    pub max_tokens: Option<usize>,
    /// Skip this many results: the next page (the answer before gives page.next_offset).
    #[arg(long, value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 1000))]
    pub offset: Option<usize>,
}

/// Which files an answer may name, for a search and a code graph question alike.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct FileFilter {
    /// Only these languages (comma list; aliases such as ts, py, tf work).
    #[arg(long = "lang", value_name = "LANGS", value_delimiter = ',', value_parser = LanguageNames, hide_possible_values = true)]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<String>")]
    pub language: Vec<String>,
    /// Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`).
    #[arg(long, value_name = "GLOB")]
    #[serde(default)]
    pub path: Option<String>,
}

/// A language as typed after `--lang` or `-t`: any text, checked where the request is built
/// (so a refusal names the closest language); completed from the language names, which
/// clap's default, a file name, is not.
#[derive(Debug, Clone, Copy)]
pub struct LanguageNames;

impl clap::builder::TypedValueParser for LanguageNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let names = crate::chunk::Language::all().iter().map(|l| clap::builder::PossibleValue::new(l.name()));
        Some(Box::new(names))
    }
}

/// Search options one front end lacks on purpose: (option, front end it is missing from, why).
pub const SEARCH_ONLY: &[(&str, Missing, &str)] = &[
    ("hybrid", Missing::Mcp, "the command line's spelling of `mode`; agents pass mode"),
    ("no_hybrid", Missing::Mcp, "the command line's spelling of `mode`; agents pass mode"),
    ("keyword", Missing::Mcp, "the command line's spelling of `mode`; agents pass mode"),
    ("use_hybrid_search", Missing::Command, "CocoSearch's spelling of `mode` for its MCP tool; people pass --mode"),
    ("no_cache", Missing::Mcp, "re-embedding a cached query is a person's check of the embedder, not an agent's step"),
    (
        "include_deps",
        Missing::Command,
        "a file's neighbours in one answer spare an agent calls; a person runs `cocosearch deps`",
    ),
];

/// Which front end an option is missing from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// The command line (and so the dashboard, which parses its flags).
    Command,
    /// The MCP tools.
    Mcp,
}

/// How `front` spells the option of `T` whose field is `id`: `--indexes` on the command line,
/// `indexes` in the dashboard's query string, `index_names` for an agent.
pub fn spelled<T: Args>(front: Front, id: &str) -> String {
    let command = T::augment_args(clap::Command::new("options"));
    let long = command.get_arguments().find(|a| a.get_id() == id).and_then(clap::Arg::get_long);
    match (front, long) {
        (Front::Command, Some(long)) => format!("--{long}"),
        (Front::Dashboard, Some(long)) => long.to_string(),
        _ => id.to_string(),
    }
}

/// One list given as a JSON array of strings or as one comma-separated string; blanks dropped.
pub fn string_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let value: Option<OneOrMany> = Option::deserialize(deserializer)
        .map_err(|_: D::Error| de::Error::custom("expected a string (comma-separated) or an array of strings"))?;
    let items: Vec<String> = match value {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => s.split(',').map(str::to_string).collect(),
        Some(OneOrMany::Many(v)) => v,
    };
    Ok(items.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
}

/// Parses a query string (`?q=…&lang=py&keyword`) with the command line's parser for `T`: each
/// parameter is a flag by its long name (`min-score`, `before-context`), a flag without a value
/// is on when its value is empty, `true`, `1`, `yes` or `on`, and `positional` names the
/// parameter that is the command's positional argument (`q`). Unknown names, bad values and
/// conflicts are refused as the command line refuses them.
pub fn from_query<T: Parser>(pairs: &[(String, String)], positional: &str) -> Result<T, Error> {
    let command = T::command().no_binary_name(true).color(clap::ColorChoice::Never);
    let mut argv: Vec<String> = Vec::new();
    let mut positionals: Vec<String> = Vec::new();
    for (name, value) in pairs {
        if name == positional {
            positionals.push(value.clone());
            continue;
        }
        let named = |a: &&clap::Arg| {
            a.get_long() == Some(name.as_str()) || a.get_all_aliases().is_some_and(|all| all.contains(&name.as_str()))
        };
        let Some(arg) = command.get_arguments().find(named) else {
            return Err(unknown_parameter(&command, name, positional));
        };
        if takes_no_value(arg) {
            match value.trim() {
                "" | "true" | "1" | "yes" | "on" => argv.push(format!("--{name}")),
                "false" | "0" | "no" | "off" => {}
                other => return Err(Error::usage(format!("{name}={other:?}: expected true or false"))),
            }
        } else {
            argv.push(format!("--{name}={value}"));
        }
    }
    if !positionals.is_empty() {
        argv.push("--".into());
        argv.extend(positionals);
    }
    let matches = command.try_get_matches_from(argv).map_err(|e| Error::usage(clap_message(&e)))?;
    T::from_arg_matches(&matches).map_err(|e| Error::usage(clap_message(&e)))
}

/// Whether `arg` is a switch: it takes no value.
fn takes_no_value(arg: &clap::Arg) -> bool {
    matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count)
        || arg.get_num_args().is_some_and(|n| n.max_values() == 0)
}

/// The refusal of a parameter `command` does not take, with the closest one.
fn unknown_parameter(command: &clap::Command, name: &str, positional: &str) -> Error {
    let mut known: Vec<&str> = command.get_arguments().filter_map(clap::Arg::get_long).collect();
    known.push(positional);
    let closest = crate::config::closest(name, known.iter().copied(), 0.8)
        .map(|k| format!(" (did you mean {k:?}?)"))
        .unwrap_or_default();
    Error::usage(format!("unknown parameter {name:?}{closest} — the parameters are {}", known.join(", ")))
}

/// The first line of a clap error, without its `error: ` and with parameters named as in a
/// query string (`limit`, not `--limit <N>`).
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or_default();
    let line = line.strip_prefix("error: ").unwrap_or(line);
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("'--") {
        out.push_str(&rest[..at + 1]);
        let name = &rest[at + 3..];
        let end = name.find(|c: char| !(c.is_alphanumeric() || c == '-')).unwrap_or(name.len());
        out.push_str(&name[..end]);
        let after = &name[end..];
        // `'--limit <N>'` loses its value name.
        rest = after.find('\'').map_or(after, |q| &after[q..]);
    }
    out.push_str(rest);
    // "the argument 'hybrid' cannot be used with 'keyword'" says it plainer without quotes.
    match out.strip_prefix("the argument '").and_then(|r| r.split_once("' cannot be used with '")) {
        Some((a, b)) => format!("{a} cannot be used with {}: pick one", b.trim_end_matches('\'')),
        None => out,
    }
}

#[cfg(test)]
mod tests;
