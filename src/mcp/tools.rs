//! The tools as agents see them: names, descriptions, parameters (with their JSON schemas in
//! plain types) and how arguments are read.
//!
//! Names and parameters follow CocoSearch's MCP server, so prompts written for it keep
//! working. Descriptions say when to use a tool, not just what it does: an agent picks
//! `search_code` over grep only if the description tells it why.
//! API boundary: tool names, parameter names and result fields.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use rmcp::schemars::{self, JsonSchema};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::ToolError;
use super::schema::input_schema;
use crate::config::ToolGroup;
use crate::wire::HitForm;
use crate::workspace::graph::{GraphOptions, KindFilter};
use crate::workspace::grep::GrepOptions;
use crate::workspace::inputs::{IndexList, PageOptions, SearchOptions};
use crate::workspace::{IndexName, IndexRef};

/// Longest `index_status` wait.
pub(crate) const MAX_WAIT_SECONDS: u32 = 60;
/// Parameters that take a comma-separated string or an array of strings.
const LIST_PARAMETERS: &[&str] = &["index_names", "language", "symbol_type", "kind", "planning_references", "glob"];

/// `search_code` arguments: the query, then the index and the search options every front end
/// takes (`workspace::inputs`).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct SearchCodeArgs {
    /// What to find. Plain language ("where do we retry failed uploads", "how is the session
    /// token validated") or exact text: an identifier (getUserById, Session.send), an error
    /// code, a path, or a "quoted phrase".
    pub query: String,
    #[serde(flatten)]
    pub index: IndexRef,
    #[serde(flatten)]
    pub options: SearchOptions,
    /// compact (the default): each hit's path, lines, label, score and code; full: every
    /// field of `cocosearch search --json`.
    #[serde(default)]
    pub format: Option<HitForm>,
}

/// `grep_code` (and `search_codebase`) arguments: the pattern and where, rg's options as every
/// front end takes them (`workspace::grep::GrepOptions`), and the answer's bounds.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct GrepCodeArgs {
    /// A regular expression (Rust regex / ripgrep syntax: \w, \b, [a-z]+, ^, $, (?i)), or
    /// literal text with fixed_strings.
    pub pattern: String,
    /// Only this file or directory, relative to the project root (src/api).
    #[serde(default)]
    pub path: Option<String>,
    #[serde(flatten)]
    pub options: GrepOptions,
    #[serde(flatten)]
    pub index: IndexRef,
    /// Most matches to return (default 50; 0 = as many as allowed, 1000). A cut answer says so.
    #[serde(default)]
    #[schemars(extend("default" = 50), range(max = 1000))]
    pub max_results: Option<u32>,
    /// Cap on the lines of each match: its content and each side of its context.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_lines: Option<u32>,
    /// Budget for the whole answer's matches, in characters (default 20000); matches past it
    /// are left out and the answer says so.
    #[serde(default)]
    #[schemars(extend("default" = 20000), range(min = 500, max = 200000))]
    pub max_chars: Option<u32>,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// Arguments of the tools that look up one symbol by name.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct SymbolToolArgs {
    /// The symbol: a name (send), a qualified name (Request.send, Lexer::new, impl Foo::bar)
    /// or a module-qualified one (sessions.Session.request). Taken literally: no wildcards.
    pub name: String,
    #[serde(flatten)]
    pub index: IndexRef,
    #[serde(flatten)]
    pub indexes: IndexList,
    #[serde(flatten)]
    pub options: GraphOptions,
    #[serde(flatten)]
    pub kinds: KindFilter,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// `get_change_impact` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct ChangeImpactArgs {
    /// The symbol that would change: a name or qualified name (Request.send, Lexer::new).
    pub name: String,
    #[serde(flatten)]
    pub index: IndexRef,
    /// Most direct users to return (default 50; 0 = up to 1000).
    #[serde(default)]
    #[schemars(extend("default" = 50), range(max = 1000))]
    pub max_direct: Option<usize>,
    /// Most transitive users (users of users, ...) to return (default 50; 0 = up to 1000).
    #[serde(default)]
    #[schemars(extend("default" = 50), range(max = 1000))]
    pub max_transitive: Option<usize>,
    /// How many levels of users to follow (default 3).
    #[serde(default)]
    #[schemars(extend("default" = 3), range(min = 1, max = 10))]
    pub depth: Option<u32>,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// `get_call_chain` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct CallChainArgs {
    /// Where the chain starts: a function or method name (api.get, Session.request).
    pub from_name: String,
    /// Where it ends.
    pub to_name: String,
    #[serde(flatten)]
    pub index: IndexRef,
    /// The longest chain looked for (default 10).
    #[serde(default)]
    #[schemars(extend("default" = 10), range(min = 1, max = 20))]
    pub max_depth: Option<u32>,
    /// Most calls of the chain to return (default 50; 0 = up to 1000).
    #[serde(default)]
    #[schemars(extend("default" = 50), range(max = 1000))]
    pub max_results: Option<usize>,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// Arguments of the tools about one file.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct FileToolArgs {
    /// The file, relative to the project root (src/app/models.py), or a directory (its files).
    pub file_path: String,
    #[serde(flatten)]
    pub index: IndexRef,
    #[serde(flatten)]
    pub options: GraphOptions,
    /// How many levels to follow: 1 = direct imports/importers only (default: 1 for
    /// dependencies, all levels for dependents).
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub depth: Option<u32>,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// `get_function_source` / `get_class_source` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct SourceArgs {
    /// The function, method or class: a name or qualified name (parse_url, Session.send).
    pub name: String,
    /// The file to look in, when several definitions share the name.
    #[serde(default)]
    pub file_path: Option<String>,
    /// Most lines to return (default: the whole definition). A cut answer says how many
    /// lines were left out.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_lines: Option<u32>,
    #[serde(flatten)]
    pub index: IndexName,
    #[serde(flatten)]
    pub page: PageOptions,
}

/// `index_codebase` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IndexCodebaseArgs {
    /// The directory to index; absolute, or relative to the project root. Default: the
    /// current project. Must be inside a workspace root or an already indexed directory.
    #[serde(default)]
    pub path: Option<String>,
    /// Name of the index. Default: the project's (indexName in cocosearch.yaml, else the
    /// directory's name).
    #[serde(default)]
    pub index_name: Option<String>,
    /// Delete the index and rebuild it from nothing (default false: only changed files are
    /// redone).
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub fresh: Option<bool>,
}

/// `index_status` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct IndexStatusArgs {
    #[serde(flatten)]
    pub index: IndexName,
    /// A job id returned by index_codebase (instead of index_name).
    #[serde(default)]
    pub job_id: Option<String>,
    /// Wait up to this many seconds (0 to 60) for a running job to finish before answering;
    /// progress notifications are sent meanwhile.
    #[serde(default)]
    #[schemars(extend("default" = 0), range(max = 60))]
    pub wait_seconds: Option<u32>,
}

/// `index_stats` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct IndexStatsArgs {
    #[serde(flatten)]
    pub index: IndexName,
    /// List the files whose chunks failed to parse, with error positions.
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub include_failures: Option<bool>,
}

/// `list_indexes` arguments (none).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListIndexesArgs {}

/// `clear_index` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClearIndexArgs {
    /// The index to delete (see list_indexes).
    pub index_name: String,
}

/// `create_task` arguments (the Codebase MCP server's).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct CreateTaskArgs {
    /// The task in a line, 1 to 200 characters.
    pub title: String,
    /// What is to be done, and why.
    #[serde(default)]
    pub description: Option<String>,
    /// Notes along the way.
    #[serde(default)]
    pub notes: Option<String>,
    /// Spec or plan documents of the task: paths of files inside the project, relative to its
    /// root (an array, or one comma-separated string).
    #[serde(default, deserialize_with = "string_list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub planning_references: Option<Vec<String>>,
    #[serde(flatten)]
    pub index: IndexName,
}

/// `get_task` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct GetTaskArgs {
    /// The task's id (a UUID, as create_task and list_tasks return it; its first 4+
    /// characters work too).
    pub task_id: String,
    #[serde(flatten)]
    pub index: IndexName,
}

/// `list_tasks` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct ListTasksArgs {
    /// Only tasks with this status: "need to be done", "in progress" or "complete".
    #[serde(default)]
    pub status: Option<String>,
    /// Only tasks linked to this git branch.
    #[serde(default)]
    pub branch: Option<String>,
    /// Most tasks to return, 1 to 100 (most recently changed first).
    #[serde(default)]
    #[schemars(extend("default" = 50), range(min = 1, max = 100))]
    pub limit: Option<u32>,
    #[serde(flatten)]
    pub index: IndexName,
}

/// `update_task` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct UpdateTaskArgs {
    /// The task's id.
    pub task_id: String,
    /// A new title, 1 to 200 characters.
    #[serde(default)]
    pub title: Option<String>,
    /// A new description.
    #[serde(default)]
    pub description: Option<String>,
    /// New notes (they replace the old ones).
    #[serde(default)]
    pub notes: Option<String>,
    /// A new status: "need to be done", "in progress" or "complete"; the change is recorded
    /// in the task's status history.
    #[serde(default)]
    pub status: Option<String>,
    /// A git branch to link the task to (`git branch --show-current`).
    #[serde(default)]
    pub branch: Option<String>,
    /// A git commit to link the task to: its full 40-digit SHA-1 (`git rev-parse HEAD`).
    #[serde(default)]
    pub commit: Option<String>,
    /// More spec or plan documents to link: files inside the project.
    #[serde(default, deserialize_with = "string_list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub planning_references: Option<Vec<String>>,
    #[serde(flatten)]
    pub index: IndexName,
}

/// `search_tasks` arguments.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub(crate) struct SearchTasksArgs {
    /// Words to find in the tasks' titles, descriptions and notes (every word must appear,
    /// any case).
    pub query: String,
    /// Only tasks with this status: "need to be done", "in progress" or "complete".
    #[serde(default)]
    pub status: Option<String>,
    /// Most tasks to return, 1 to 100.
    #[serde(default)]
    #[schemars(extend("default" = 50), range(min = 1, max = 100))]
    pub limit: Option<u32>,
    #[serde(flatten)]
    pub index: IndexName,
}

/// One tool: its name, description, argument type, hints and the group it is listed in.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: fn() -> Arc<JsonObject>,
    read_only: bool,
    destructive: bool,
    group: Group,
}

/// Where a tool is listed: always, or when `mcp.tools` names its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    /// Search, grep, the code graph and indexing: listed always.
    Everyday,
    /// Listed when `mcp.tools` names this group (or `all`).
    OptIn(ToolGroup),
}

const SPECS: &[Spec] = &[
    Spec {
        name: "search_code",
        title: "Search code",
        description: "Find code by meaning or by name: use it before grep or reading files to find where something is \
implemented, handled, configured or tested. Ask in plain language (\"where do we retry failed \
uploads\"), by identifier (getUserById, Session.send), with a \"quoted phrase\", or paste an issue \
or a traceback. Each hit is a whole function, class or section: path, lines, the definition it lies \
in, score 0..1, read fresh from disk. Hits past max_tokens are listed in more (location and first \
line); definitions=N adds the N functions most likely meant. If there is no index, call index_codebase.",
        schema: input_schema::<SearchCodeArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "grep_code",
        title: "Grep the codebase",
        description: "Every line matching a regular expression (or fixed_strings text), exactly as ripgrep finds it, each \
with the function or class it lies in: use it instead of running grep/rg when you need EVERY \
occurrence (call sites to update, uses of a key or message). Narrow with path, glob, language; \
bounded by max_results and max_chars, and a cut answer says so. For the best few places by meaning, \
use search_code.",
        schema: input_schema::<GrepCodeArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "search_codebase",
        title: "Grep the codebase (alias)",
        description: "Same as grep_code (the name mcp-codebase-index's clients know): every line matching a regular \
expression, ripgrep's semantics, each with the function it lies in.",
        schema: input_schema::<GrepCodeArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Aliases),
        destructive: false,
    },
    Spec {
        name: "analyze_query",
        title: "Explain a search",
        description: "Run what search_code would (same parameters) and report how: the query's keywords and names, each \
retrieval leg's first hits with scores, the fused order and each stage's time. For when a \
search_code answer surprises you.",
        schema: input_schema::<SearchCodeArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Debug),
        destructive: false,
    },
    Spec {
        name: "find_symbol",
        title: "Find a symbol's definition",
        description: "Where a function, method, class, type or variable is DEFINED, by name (send), qualified name \
(Request.send, Lexer::new) or module path (sessions.Session.request): exact, in milliseconds, every \
language, ignoring comments, strings and calls. Exact matches first, then qualified and fuzzy ones; \
resolution says resolved, ambiguous or not_found (then the closest names). Use it instead of grepping for `def foo` or \
`class Foo`.",
        schema: input_schema::<SymbolToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_dependents",
        title: "Who uses a symbol",
        description: "Who calls or uses a function, method, class or variable: real references (calls, type uses, bases, \
decorators) with file, line and the calling function, exact ones (tied by the language's rules) \
before heuristic ones (only the name matches). Use it instead of grep for callers; for callers of \
callers, get_change_impact.",
        schema: input_schema::<SymbolToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_dependencies",
        title: "What a symbol uses",
        description: "What a function, method or class calls and uses, each resolved to its definition (file, line, \
signature) when the index knows it, exact or heuristic, in order of first use. Use it before \
changing or reviewing code instead of grepping each name.",
        schema: input_schema::<SymbolToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_change_impact",
        title: "What a change to a symbol reaches",
        description: "What a change to a function, method or class reaches: its users and their users, level by level up \
to depth, each with file, line and certainty. Call it before renaming or changing a signature or \
behaviour, to find every caller to update and test to run.",
        schema: input_schema::<ChangeImpactArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_call_chain",
        title: "How one function reaches another",
        description: "The shortest chain of calls from one function or method to another (from_name to to_name), each hop \
with file, line and certainty; exact calls preferred. Answers \"how does X end up calling Y\".",
        schema: input_schema::<CallChainArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_file_dependencies",
        title: "What a file imports",
        description: "What a file imports, resolved to the project's files (imports from outside the project listed as \
external); depth follows the imported files' imports. Use it instead of reading import lines and \
guessing paths.",
        schema: input_schema::<FileToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_file_dependents",
        title: "What imports a file",
        description: "Which files import this file, directly and transitively, by depth: the blast radius of changing or \
deleting it. Use it instead of grepping import lines.",
        schema: input_schema::<FileToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_file_impact",
        title: "What imports a file (alias)",
        description: "Same as get_file_dependents (CocoSearch's name): which files import this file, directly and \
transitively.",
        schema: input_schema::<FileToolArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Aliases),
        destructive: false,
    },
    Spec {
        name: "get_file_structure",
        title: "Outline of a file",
        description: "A file's outline without reading it: classes, functions and methods (nested, with line ranges and \
signatures) and its imports. Use it to find your way in a large file, then read only the lines you \
need.",
        schema: input_schema::<FileToolArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_function_source",
        title: "Source of a function",
        description: "The source of one function or method by name (send, Session.send), found across the project and read \
fresh from disk; file_path picks one when several share the name. Cheaper than opening the file.",
        schema: input_schema::<SourceArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "get_class_source",
        title: "Source of a class",
        description: "The source of one class, struct, enum, interface, trait or impl block by name, found across the \
project and read fresh from disk; file_path picks one when several share the name.",
        schema: input_schema::<SourceArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "index_codebase",
        title: "Index a codebase",
        description: "Index or refresh the project so search_code can search it. Incremental (only changed files are \
redone) and in the background: it returns a job_id at once; index_status follows it. Default: the \
project of your workspace roots.",
        schema: input_schema::<IndexCodebaseArgs>,
        read_only: false,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "index_status",
        title: "Indexing status",
        description: "Progress of an index_codebase job (phase, files, percent) or, once ended, its outcome and counts; \
without a job in this server, the index's last run.",
        schema: input_schema::<IndexStatusArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "index_stats",
        title: "Index statistics",
        description: "What an index holds and whether it can be trusted: files, chunks and symbols per language, model, \
parse health, last run, files changed since indexing. Use it when results look stale or thin.",
        schema: input_schema::<IndexStatsArgs>,
        read_only: true,
        group: Group::Everyday,
        destructive: false,
    },
    Spec {
        name: "list_indexes",
        title: "List indexes",
        description: "Every index in the store: name, project root, model and commit. Pass a name as index_name to any \
tool to read another project.",
        schema: input_schema::<ListIndexesArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Admin),
        destructive: false,
    },
    Spec {
        name: "clear_index",
        title: "Delete an index",
        description: "Delete an index and everything stored for it (the files are not touched; index_codebase rebuilds \
it). Only when the user asks for it.",
        schema: input_schema::<ClearIndexArgs>,
        read_only: false,
        group: Group::OptIn(ToolGroup::Admin),
        destructive: true,
    },
    Spec {
        name: "create_task",
        title: "Create a task",
        description: "Record a task for this project (title, description, notes, planning_references) so the work survives \
a context reset; it starts as \"need to be done\". Then update_task as work goes.",
        schema: input_schema::<CreateTaskArgs>,
        read_only: false,
        group: Group::OptIn(ToolGroup::Tasks),
        destructive: false,
    },
    Spec {
        name: "get_task",
        title: "Get a task",
        description: "One task by id: its fields, status history, linked branches, commits and planning documents. Use it \
to pick work up again.",
        schema: input_schema::<GetTaskArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Tasks),
        destructive: false,
    },
    Spec {
        name: "list_tasks",
        title: "List tasks",
        description: "The project's tasks, most recently changed first, by status and linked branch. Call it at the start \
of a session: what was planned, is under way, was done.",
        schema: input_schema::<ListTasksArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Tasks),
        destructive: false,
    },
    Spec {
        name: "update_task",
        title: "Update a task",
        description: "Change a task: title, description, notes, status (kept in its history); link a branch, a commit \
(full SHA) or planning documents. Omitted fields stay as they are.",
        schema: input_schema::<UpdateTaskArgs>,
        read_only: false,
        group: Group::OptIn(ToolGroup::Tasks),
        destructive: false,
    },
    Spec {
        name: "search_tasks",
        title: "Search tasks",
        description: "The project's tasks whose title, description or notes contain every word of query (any case), newest \
change first. Use it to find earlier work on a topic.",
        schema: input_schema::<SearchTasksArgs>,
        read_only: true,
        group: Group::OptIn(ToolGroup::Tasks),
        destructive: false,
    },
];

/// Every tool with its whole input schema, and its group: what a call is checked against
/// (`tools/list` shows them leaner: [`super::listing`]).
pub(crate) fn tools() -> Vec<(Tool, Group)> {
    SPECS
        .iter()
        .map(|spec| {
            // Hints at their defaults are left out: `destructiveHint` means nothing for a
            // read-only tool, and every tool is idempotent but `clear_index`.
            let mut annotations = ToolAnnotations::new().read_only(spec.read_only).open_world(false);
            if !spec.read_only {
                annotations = annotations.destructive(spec.destructive);
            }
            let tool = Tool::new(spec.name, spec.description, schema_of(spec.name))
                .with_title(spec.title)
                .with_annotations(annotations);
            (tool, spec.group)
        })
        .collect()
}

/// The input schema of `tool` (empty for an unknown one), generated once per process:
/// generating it costs more than parsing a call's arguments.
fn schema_of(tool: &str) -> Arc<JsonObject> {
    static SCHEMAS: OnceLock<Vec<(&'static str, Arc<JsonObject>)>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| SPECS.iter().map(|s| (s.name, (s.schema)())).collect());
    schemas.iter().find(|(name, _)| *name == tool).map(|(_, schema)| Arc::clone(schema)).unwrap_or_default()
}

/// Reads the arguments of `tool`, or says what is wrong and what is allowed.
///
/// `null` counts as omitted. Each argument is checked against the schema first (name, type,
/// range), so the message names the parameter; serde's own messages do not.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(tool: &str, arguments: Option<JsonObject>) -> Result<T, ToolError> {
    let schema = schema_of(tool);
    let fail = |what: String| ToolError::new(format!("{tool}: {what}. Parameters: {}", describe_parameters(&schema)));
    let mut arguments = arguments.unwrap_or_default();
    arguments.retain(|_, v| !v.is_null());
    let no_properties = JsonObject::new();
    let properties = schema.get("properties").and_then(|p| p.as_object()).unwrap_or(&no_properties);
    for (name, value) in &arguments {
        let Some(property) = properties.get(name) else {
            let closest = crate::config::closest(name, properties.keys().map(String::as_str), 0.8)
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(fail(format!("unknown parameter `{name}`{closest}")));
        };
        check(name, value, property).map_err(fail)?;
    }
    for name in schema.get("required").and_then(|r| r.as_array()).into_iter().flatten().filter_map(|v| v.as_str()) {
        if !arguments.contains_key(name) {
            return Err(fail(format!("missing required parameter `{name}`")));
        }
    }
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| fail(e.to_string()))
}

/// Checks one argument against its property schema: type and numeric range.
fn check(name: &str, value: &serde_json::Value, property: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let expected = property.get("type").and_then(Value::as_str).unwrap_or("any");
    let ok = match expected {
        // Comma lists also accept an array of strings.
        "string" => value.is_string() || (LIST_PARAMETERS.contains(&name) && value.is_array()),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        // Lists also accept one comma-separated string.
        "array" => value.is_array() || (LIST_PARAMETERS.contains(&name) && value.is_string()),
        _ => true,
    };
    if !ok {
        let got = match value {
            Value::String(s) => format!("the string {s:?}"),
            Value::Number(n) => format!("the number {n}"),
            Value::Bool(b) => format!("{b}"),
            Value::Array(_) => "an array".to_string(),
            Value::Object(_) => "an object".to_string(),
            Value::Null => "null".to_string(),
        };
        return Err(format!(
            "`{name}` must be {} {expected}, got {got}",
            if expected == "integer" { "an" } else { "a" }
        ));
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = property.get("minimum").and_then(Value::as_f64).filter(|min| n < *min) {
            return Err(format!("`{name}` must be at least {min}, got {n}"));
        }
        if let Some(max) = property.get("maximum").and_then(Value::as_f64).filter(|max| n > *max) {
            return Err(format!("`{name}` must be at most {max}, got {n}"));
        }
    }
    Ok(())
}

/// `query (string, required), limit (integer), ...` from a schema.
fn describe_parameters(schema: &JsonObject) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let properties = schema.get("properties").and_then(|p| p.as_object()).filter(|p| !p.is_empty());
    let Some(properties) = properties else { return "none".into() };
    properties
        .iter()
        .map(|(name, p)| {
            let kind = match (p.get("type").and_then(|t| t.as_str()), p.get("items").and_then(|i| i.get("type"))) {
                (_, Some(item)) => format!("array of {}", item.as_str().unwrap_or("any")),
                (Some(kind), None) => kind.to_string(),
                (None, None) => "any".to_string(),
            };
            let required = if required.contains(&name.as_str()) { ", required" } else { "" };
            format!("{name} ({kind}{required})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A list given as a JSON array of strings or as one comma-separated string.
fn string_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    let value: Option<OneOrMany> = Option::deserialize(deserializer)
        .map_err(|_: D::Error| de::Error::custom("expected a string (comma-separated) or an array of strings"))?;
    let items: Vec<String> = match value {
        None => return Ok(None),
        Some(OneOrMany::One(s)) => s.split(',').map(str::to_string).collect(),
        Some(OneOrMany::Many(v)) => v,
    };
    let items: Vec<String> = items.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    Ok((!items.is_empty()).then_some(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::schema::unions;

    #[test]
    fn every_schema_uses_plain_types() {
        for (tool, _) in tools() {
            let schema = serde_json::Value::Object((*tool.input_schema).clone());
            assert_eq!(unions(&schema), Vec::<String>::new(), "{}: {schema:#}", tool.name);
            assert_eq!(schema["type"], "object", "{}", tool.name);
            assert!(tool.description.as_ref().is_some_and(|d| d.len() > 80), "{} needs a real description", tool.name);
            for (name, p) in schema["properties"].as_object().into_iter().flatten() {
                assert!(p.get("description").is_some(), "{}.{name} has no description", tool.name);
            }
        }
        let (search, _) = tools().into_iter().find(|(t, _)| t.name == "search_code").expect("search_code");
        let props = &search.input_schema["properties"];
        assert_eq!(props["language"]["type"], "string");
        assert_eq!(props["index_names"]["type"], "array");
        assert_eq!(props["limit"]["default"], 10);
        assert_eq!(search.input_schema["required"], serde_json::json!(["query"]));
    }

    #[test]
    fn lists_accept_strings_and_arrays() {
        let a: SearchCodeArgs = parse(
            "search_code",
            serde_json::from_str(r#"{"query":"q","language":"py, ts","index_names":["a","b"]}"#).ok(),
        )
        .expect("parse");
        assert_eq!(a.options.files.language, ["py", "ts"]);
        assert_eq!(a.options.indexes.index_names, ["a", "b"]);
        let b: SearchCodeArgs = parse(
            "search_code",
            serde_json::from_str(r#"{"query":"q","symbol_type":["function"],"index_names":"x,y"}"#).ok(),
        )
        .expect("parse");
        assert_eq!(b.options.symbol_type, ["function"]);
        assert_eq!(b.options.indexes.index_names, ["x", "y"]);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong_and_what_is_allowed() {
        let parse_search = |json: &str| parse::<SearchCodeArgs>("search_code", serde_json::from_str(json).ok());
        let e = parse_search(r#"{"qurey":"x"}"#).expect_err("typo");
        assert!(e.message.contains("unknown parameter `qurey` (did you mean `query`?)"), "{}", e.message);
        assert!(e.message.contains("query (string, required)"), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":"ten"}"#).expect_err("type");
        assert!(e.message.contains("`limit` must be an integer, got the string \"ten\""), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":0}"#).expect_err("range");
        assert!(e.message.contains("`limit` must be at least 1"), "{}", e.message);
        let e = parse_search(r#"{"query":["x"]}"#).expect_err("type");
        assert!(e.message.contains("`query` must be a string, got an array"), "{}", e.message);
        let e = parse_search(r#"{"query":"x","limit":1000}"#).expect_err("range");
        assert!(e.message.contains("`limit` must be at most 100"), "{}", e.message);
        let e = parse::<ClearIndexArgs>("clear_index", None).expect_err("missing");
        assert!(e.message.contains("missing required parameter `index_name`"), "{}", e.message);
        // null means omitted.
        let a = parse_search(r#"{"query":"x","limit":null,"language":null}"#).expect("nulls");
        assert_eq!((a.options.limit, a.options.files.language.len()), (None, 0));
    }
}
