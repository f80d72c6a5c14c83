//! Every flag of every command, in one place: the command line's own flags here, and the
//! options every front end takes (a search's, a grep's, the index and snapshot named) where
//! they are declared once for all of them, `workspace::inputs`, flattened in.
//!
//! As in ripgrep and fd, the command-line surface is defined with clap derive: the
//! short `help` lines fit 79 columns, and `///` comments are the long help shown by `--help`
//! and in the man pages. `completions/` and `man/` are generated from [`Cli`]; a test fails
//! when they are stale. Flags that set a configuration value are turned into
//! [`crate::config::Override`]s by [`super::overrides`], so they obey the same precedence and
//! show up as `cli` in `config show`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::workspace::graph::{GraphOptions, KindFilter};
use crate::workspace::grep::GrepOptions;
use crate::workspace::inputs::{IndexList, SearchOptions};
use crate::workspace::{IndexName, IndexRef};

pub use super::task_args::TaskCommand;

/// Fast, local-first hybrid code search.
///
/// Index a repository once with `cocosearch index`, then ask questions in plain language or
/// by identifier with `cocosearch search`. Chunks are cut at syntax boundaries with
/// tree-sitter, embedded in-process by a built-in model (or by an Ollama or OpenAI-compatible
/// server) and stored in an embedded store (or in PostgreSQL with pgvector, for teams); search
/// fuses vector and keyword rankings. `cocosearch mcp` serves the same engine to AI agents
/// over the Model Context Protocol. `cocosearch config show` names the store and the embedder
/// in force.
///
/// Configuration comes from, in order of precedence: command-line flags, COCOSEARCH_*
/// environment variables, your own config.yaml (in ~/.config/cocosearch or the platform's
/// configuration directory), the project's cocosearch.yaml, built-in defaults. `cocosearch
/// config show` prints every value and where it came from.
#[derive(Debug, Parser)]
#[command(name = "cocosearch", version = super::version::short(), long_version = super::version::long(), propagate_version = true)]
#[command(max_term_width = 100, arg_required_else_help = true)]
pub struct Cli {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened or a subcommand: its own items are documented")]
    pub global: GlobalArgs,
    #[command(subcommand)]
    #[allow(missing_docs, reason = "flattened or a subcommand: its own items are documented")]
    pub command: Command,
}

/// Flags accepted by every command.
#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Use this configuration file instead of looking for cocosearch.yaml.
    ///
    /// Without it, COCOSEARCH_CONFIG is used if set, else the nearest cocosearch.yaml from the
    /// working directory up to the git root.
    #[arg(long, global = true, value_name = "FILE", help = "Use this config file instead of cocosearch.yaml")]
    pub config: Option<PathBuf>,

    /// Set any configuration key, with the precedence of a command-line flag.
    ///
    /// KEY is the dotted YAML key (`search.resultLimit`, `embedding.model`); lists are
    /// comma-separated. Repeatable. `cocosearch config show` lists every key.
    #[arg(
        long = "set",
        global = true,
        value_name = "KEY=VALUE",
        help = "Set a config key (e.g. --set embedding.model=all-minilm)"
    )]
    pub set: Vec<String>,

    /// More output; repeat for more (-vv)
    ///
    /// Log more to stderr: -v info, -vv debug, -vvv trace. `stats -v` also shows parse health.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Print only errors; no progress bars.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// When to use colours. `auto` colours a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Set a project up: its cocosearch.yaml, and the MCP server for AI agents.
    ///
    /// Writes a starter cocosearch.yaml in the project root, as `cocosearch config init` does
    /// (an existing one is left as it is). For each --agent, registers the MCP server
    /// `cocosearch` (`cocosearch mcp --project-from-cwd`) in that client's project
    /// configuration, merged into what the file holds, and adds a short note on when to use
    /// cocosearch's tools instead of grep to the client's instructions file, between
    /// `<!-- cocosearch:begin -->` and `<!-- cocosearch:end -->` lines (a second run replaces
    /// it). Every file is read and checked before any is written: a file that does not parse
    /// stops the run with nothing written. Files are written only inside the project; a path
    /// that leads out of it through a symbolic link is refused. Prints one line per file:
    /// created, updated or unchanged.
    Init(InitProjectArgs),
    /// Index a codebase (incremental: only changed files are redone).
    ///
    /// Walks PATH (default: the project root), honouring .gitignore, .ignore and
    /// .cocosearchignore, splits each file at syntax boundaries, embeds the chunks and stores
    /// them. Re-running only redoes changed files; an interrupted run resumes where it
    /// stopped. Sensitive files (.env*, keys, credentials) are never indexed by default.
    Index(IndexArgs),
    /// Keep a project's index fresh as files change, until Ctrl-C.
    ///
    /// First brings the index up to date (creating it if needed), then follows file events:
    /// each burst of changes (a save, a branch switch, a `git checkout` of thousands of files)
    /// is indexed as one batch once the tree has been quiet for indexing.watchDebounceMs, with
    /// the same rules as `cocosearch index` (ignore files, exclusions, sensitive files, no link
    /// out of the project). Changed files are searchable by keyword at once; their vectors are
    /// computed in the background at low priority. Prints one line per batch. `cocosearch mcp`
    /// and `cocosearch dashboard` do the same for the projects they serve unless --no-watch.
    Watch(WatchArgs),
    /// Search an index with a question or an identifier.
    Search(SearchArgs),
    /// Every line matching a regular expression, as ripgrep finds it.
    ///
    /// Searches the project's files with ripgrep's own regex engine and searcher: the same
    /// files the index holds (ignore files, exclusions, the sensitive-file rule and
    /// indexing.maxFileSize apply; binary files are skipped), and no index is needed. Flags
    /// mean what they mean in rg; note `-v` is --invert-match here, as in rg (use --verbose
    /// for more logs). Output is rg's `path:line:column:text`, grouped under file headings on
    /// a terminal. When the project is indexed, --json and --symbols name the definition each
    /// match lies in. Exit code 0 when something matched, 1 when nothing did.
    Grep(GrepArgs),
    /// Show how a search reads a query and ranks its answer.
    ///
    /// Runs the search `cocosearch search` would run, with the same flags, and prints how the
    /// query was read (kind, keywords, names looked up, fusion weights), each retrieval leg's
    /// first hits with their scores, the fused order, the time each stage took, and the hits.
    /// For when an answer surprises.
    Analyze(SearchArgs),
    /// Find where a symbol is defined (exact, qualified or fuzzy).
    ///
    /// NAME is a name (`send`), a qualified name (`Request.send`, `Lexer::new`, `impl Foo::bar`),
    /// the end of one, a module-qualified one (`sessions.Session.request`) or a part of one.
    /// Nothing in it is a pattern. Exit code 0 also when nothing matches (the closest names are
    /// shown).
    Symbol(SymbolArgs),
    /// Who uses a symbol: each reference with the calling function and line.
    ///
    /// References are exact when the language's rules tie them to the definition (same file,
    /// `self`/`this`, an import of its file), heuristic when only the name matches (a method
    /// called on a value of unknown type). Exact ones come first.
    Refs(RefsArgs),
    /// What a file imports, resolved to project files, as a tree or a flat list.
    Deps(DepsArgs),
    /// What depends on a file or a symbol, transitively, grouped by depth.
    ///
    /// A path (with `/` or an extension, or a directory) is a file: its importers, theirs, and
    /// so on. Anything else is a symbol: its callers and users, then theirs.
    Impact(ImpactArgs),
    /// The shortest chain from A to B: imports between two files, calls between two symbols.
    Path(PathArgs),
    /// The classes, functions and imports of a file, with their lines.
    Outline(OutlineArgs),
    /// Show what is indexed, how fresh it is, and where parsing failed.
    Stats(StatsArgs),
    /// List the snapshots of an index: branches, worktrees and versions it keeps.
    ///
    /// Each snapshot is one state of the project's tree: `cocosearch index` records the working
    /// tree as the snapshot of the branch (or commit) checked out, or as `--snapshot NAME`.
    /// Files with the same path and content are stored once for every snapshot holding them.
    /// Shows each snapshot's name, commit, when it was last indexed, its files, and how many of
    /// them the current snapshot shares. `search --at REF` searches one; `--delete REF` lets
    /// one go.
    Snapshots(SnapshotsArgs),
    /// List the indexes in the database.
    List(ListArgs),
    /// Delete an index (or all of them).
    ///
    /// The project's tasks stay (a new index of the project finds them again) unless
    /// `--tasks delete` says otherwise.
    Clear(ClearArgs),
    /// Tasks linked to the code: what is planned, under way and done, with their branches,
    /// commits and planning documents.
    ///
    /// Tasks are kept per project in the same store as its index, and outlive re-indexing and
    /// `cocosearch clear`. The MCP server offers the same tasks to agents (create_task,
    /// get_task, list_tasks, update_task, search_tasks).
    #[command(subcommand)]
    Task(TaskCommand),
    /// List the supported languages and what is extracted from each.
    Languages(LanguagesArgs),
    /// Inspect and check the configuration.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Serve the search engine to AI agents over the Model Context Protocol.
    Mcp(McpArgs),
    /// Serve the web dashboard and open it in the browser.
    ///
    /// The dashboard shows every index (files, chunks, vectors, freshness, parse health),
    /// searches them with the filters of `cocosearch search`, shows files at the hit and opens
    /// them in your editor (COCOSEARCH_EDITOR, VISUAL or EDITOR), and re-indexes, rebuilds or
    /// deletes indexes with live progress. It binds to 127.0.0.1 unless --host says otherwise;
    /// mcp.token, mcp.allowedOrigins and mcp.headerTimeout apply as they do to
    /// `cocosearch mcp --transport http`, which serves the same page at /dashboard.
    Dashboard(DashboardArgs),
    /// Download and list the built-in embedding models.
    ///
    /// With `embedding.provider: builtin`, embeddings are computed inside cocosearch by a model
    /// downloaded once from the Hugging Face hub (a pinned revision, verified) into the user
    /// cache. `download` fetches it ahead of time; on a machine without network, copy the
    /// directory it prints and point `embedding.modelPath` at the copy.
    #[command(subcommand)]
    Model(ModelCommand),
    /// Print a shell completion script.
    ///
    /// For example: `cocosearch completions bash > ~/.local/share/bash-completion/completions/cocosearch`.
    Completions(CompletionsArgs),
    /// Print the man page, or write every page to a directory.
    Man(ManArgs),
}

/// `cocosearch index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// The directory to index (default: the project root).
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Name of the index (default: indexName, else the directory's name).
    #[arg(short = 'n', long = "index", value_name = "NAME")]
    pub name: Option<String>,
    /// `--name`, the old spelling of `--index` (works, with a note).
    #[arg(long = "name", value_name = "NAME", hide = true, conflicts_with = "name")]
    pub old_name: Option<String>,
    /// Index only files matching GLOB (repeatable)
    ///
    /// Index only files matching this glob (repeatable; replaces indexing.includePatterns).
    #[arg(long = "include", value_name = "GLOB")]
    pub include: Vec<String>,
    /// `-i`, the old short spelling of `--include` (works, with a note: `-i` is rg's
    /// `--ignore-case`).
    #[arg(short = 'i', value_name = "GLOB", hide = true)]
    pub old_include: Vec<String>,
    /// Leave out files matching GLOB (repeatable)
    ///
    /// Leave out files matching this glob (repeatable; replaces indexing.excludePatterns).
    #[arg(long = "exclude", value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// `-e`, the old short spelling of `--exclude` (works, with a note: `-e` is rg's
    /// `--regexp`).
    #[arg(short = 'e', value_name = "GLOB", hide = true)]
    pub old_exclude: Vec<String>,
    /// Do not apply .gitignore, .git/info/exclude or the global gitignore.
    #[arg(long)]
    pub no_gitignore: bool,
    /// Skip files larger than this many bytes (default 1 MiB).
    #[arg(long, value_name = "BYTES")]
    pub max_file_size: Option<u64>,
    /// Delete the index and rebuild it from nothing.
    #[arg(long)]
    pub fresh: bool,
    /// Record the tree as snapshot NAME (a release, an experiment)
    ///
    /// Record the tree as the snapshot NAME instead of the branch (or commit) checked out; it
    /// becomes the index's current snapshot. Files another snapshot stored are not parsed or
    /// embedded again. `cocosearch snapshots` lists them; `--at NAME` searches one.
    #[arg(long, value_name = "NAME")]
    pub snapshot: Option<String>,
    /// Skip embeddings (keyword search works; vectors come later)
    ///
    /// Do not compute embeddings in this run; chunks wait for the next run with embeddings.
    #[arg(long)]
    pub no_embed: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Index a system, home or credentials directory anyway
    ///
    /// Index the directory even if it is the filesystem root, a system directory (/etc, /usr,
    /// /var, ...), the home directory or one above it, or where credentials are kept (~/.ssh,
    /// ~/.aws, ~/.config, ...). Without it such directories are refused.
    #[arg(long)]
    pub allow_any_dir: bool,
}

/// `cocosearch watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The directory to watch (default: the project root).
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Name of the index (default: indexName, else the directory's name).
    #[arg(short = 'n', long = "index", value_name = "NAME")]
    pub name: Option<String>,
    /// `--name`, the old spelling of `--index` (works, with a note).
    #[arg(long = "name", value_name = "NAME", hide = true, conflicts_with = "name")]
    pub old_name: Option<String>,
    /// Milliseconds of quiet before a batch is indexed (default: indexing.watchDebounceMs, 200).
    #[arg(long, value_name = "MS")]
    pub debounce: Option<u64>,
    /// Keep the index keyword-only: compute no vectors in the background.
    #[arg(long)]
    pub no_embed: bool,
    /// Print one JSON object per event on stdout (JSON lines).
    #[arg(long)]
    pub json: bool,
    /// Watch a system, home or credentials directory anyway (see `cocosearch index --help`).
    #[arg(long)]
    pub allow_any_dir: bool,
}

/// `cocosearch search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for: a question, an identifier, a "quoted phrase" or a path.
    #[arg(value_name = "QUERY", required_unless_present_any = ["interactive", "old_interactive"])]
    pub query: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub index: IndexRef,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub options: SearchOptions,
    /// One line per hit: path:line, the symbol and the score.
    #[arg(long, conflicts_with_all = ["files", "json"])]
    pub compact: bool,
    /// Only the paths of the files with hits, best first, one per line (rg's `-l`).
    #[arg(short = 'l', long = "files", conflicts_with = "json")]
    pub files: bool,
    /// Interactive search loop
    ///
    /// Explore interactively: type queries; `:lang go`, `:limit 20`, `:index name`; Ctrl-D leaves.
    #[arg(long)]
    pub interactive: bool,
    /// `-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg's
    /// `--ignore-case`).
    #[arg(short = 'i', hide = true)]
    pub old_interactive: bool,
    /// JSON output. Without it the output is text, on a terminal or piped (as rg's is).
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch grep`. Its `-n` is rg's (line numbers), so the index it names is `--index`
/// alone here.
#[derive(Debug, Args)]
#[command(mut_arg("index_name", |a| a.short(None)))]
pub struct GrepArgs {
    /// A regular expression (rg's syntax), or literal text with -F.
    #[arg(value_name = "PATTERN", required_unless_present_any = ["regexp", "list_files"])]
    pub pattern: Option<String>,
    /// Only these files or directories (default: the whole project).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A pattern to search for (repeatable; PATTERN is then a path).
    #[arg(short = 'e', long = "regexp", value_name = "PATTERN")]
    pub regexp: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub options: GrepOptions,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub index: IndexRef,
    /// Group matches under a heading per file (the default on a terminal).
    #[arg(long, overrides_with = "no_heading")]
    pub heading: bool,
    /// One `path:line:column:text` per match (the default when piped).
    #[arg(long, overrides_with = "heading")]
    pub no_heading: bool,
    /// Name the definition each match lies in, from the project's index.
    #[arg(long)]
    pub symbols: bool,
    /// List the files that would be searched, and search nothing.
    #[arg(long = "files")]
    pub list_files: bool,
    /// JSON output: one document, the matches with the field names of `search --json`.
    #[arg(long, conflicts_with_all = ["files_only", "count"])]
    pub json: bool,
    /// Line numbers are always shown (rg's -n, accepted).
    #[arg(short = 'n', long = "line-number", overrides_with = "no_line_number")]
    pub line_number: bool,
    /// Show no line or column numbers (rg -N).
    #[arg(short = 'N', long = "no-line-number", overrides_with = "line_number")]
    pub no_line_number: bool,
    /// Columns are always shown (rg's --column, accepted).
    #[arg(long, overrides_with = "no_column")]
    pub column: bool,
    /// Show no column numbers (rg --no-column).
    #[arg(long, overrides_with = "column")]
    pub no_column: bool,
    /// File names are always shown (rg's -H, accepted).
    #[arg(short = 'H', long = "with-filename")]
    pub with_filename: bool,
    /// Hidden files are searched already, as the index holds them (rg's --hidden, accepted).
    #[arg(long)]
    pub hidden: bool,
    /// Only the matched parts, each on its own line with its column (rg -o).
    #[arg(short = 'o', long = "only-matching", conflicts_with = "json")]
    pub only_matching: bool,
    /// Each match on its own `path:line:column:text` line, for an editor's list (rg --vimgrep).
    #[arg(long, conflicts_with_all = ["heading", "json"])]
    pub vimgrep: bool,
    /// Show each match replaced by TEXT; the files are not changed (rg -r)
    ///
    /// Show each match replaced by TEXT, in which `$1`, `$name` and `${name}` are the match's
    /// groups (rg -r). Only the output changes: no file is written.
    #[arg(short = 'r', long = "replace", value_name = "TEXT", conflicts_with = "json")]
    pub replace: Option<String>,
    /// Sort the files: path (the default), modified, accessed, created or none (rg --sort).
    #[arg(long, value_enum, value_name = "BY", overrides_with = "sortr")]
    pub sort: Option<SortBy>,
    /// Sort the files the other way round: the newest or the last path first (rg --sortr).
    #[arg(long, value_enum, value_name = "BY", overrides_with = "sort")]
    pub sortr: Option<SortBy>,
    /// Refused: no PCRE2 here (look-around and backreferences); rg -P has it
    ///
    /// Refused with the reason: cocosearch greps with ripgrep's default engine (Rust's regex,
    /// linear time), which has no look-around and no backreferences. Rewrite the pattern
    /// without them, or run `rg -P`.
    #[arg(short = 'P', long = "pcre2")]
    pub pcre2: bool,
}

/// `--sort` and `--sortr`: rg's orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// By path.
    Path,
    /// By modification time.
    Modified,
    /// By access time.
    Accessed,
    /// By creation time.
    Created,
    /// No order asked for (path order, here).
    None,
}

/// Flags every code graph command takes.
#[derive(Debug, Args)]
pub struct GraphArgs {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub index: IndexRef,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub options: GraphOptions,
    /// JSON output. Without it the output is text, on a terminal or piped (as rg's is).
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch symbol`.
#[derive(Debug, Args)]
pub struct SymbolArgs {
    /// The symbol: `send`, `Request.send`, `Lexer::new`, `impl Foo::bar`.
    #[arg(value_name = "NAME")]
    pub name: String,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub kinds: KindFilter,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub indexes: IndexList,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch refs`.
#[derive(Debug, Args)]
pub struct RefsArgs {
    /// The symbol whose uses to list.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Only references tied to the definition by the language's rules (no heuristic ones).
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub indexes: IndexList,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch deps`.
#[derive(Debug, Args)]
pub struct DepsArgs {
    /// The file (or directory) whose imports to show.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Follow imports this many levels deep (default 1).
    #[arg(short = 'd', long, value_name = "N", default_value_t = 1, value_parser = at_least_one)]
    pub depth: usize,
    /// A flat list of the files reached, with their depth, instead of a tree.
    #[arg(long)]
    pub flat: bool,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch impact`.
#[derive(Debug, Args)]
pub struct ImpactArgs {
    /// A file or directory (its dependents), or a symbol (its users).
    #[arg(value_name = "FILE|SYMBOL")]
    pub target: String,
    /// Stop after this many levels (default: all for a file, 3 for a symbol).
    #[arg(short = 'd', long, value_name = "N", value_parser = at_least_one)]
    pub depth: Option<usize>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// Where the chain starts: a file, or a symbol.
    #[arg(value_name = "A")]
    pub from: String,
    /// Where it ends: a file (when A is one), or a symbol.
    #[arg(value_name = "B")]
    pub to: String,
    /// The longest chain looked for (default 10).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_depth: usize,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch outline`.
#[derive(Debug, Args)]
pub struct OutlineArgs {
    /// The file.
    #[arg(value_name = "FILE")]
    pub file: String,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub graph: GraphArgs,
}

/// `cocosearch stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The index (default: the project's).
    #[arg(value_name = "NAME", conflicts_with = "index_name")]
    pub name: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub index: IndexName,
    /// Every index in the database.
    #[arg(long, conflicts_with_all = ["name", "index_name", "at"])]
    pub all: bool,
    /// List each file whose chunks failed to parse, with error positions.
    #[arg(long)]
    pub show_failures: bool,
    /// Warn when the last run is older than this many days.
    #[arg(long, value_name = "DAYS", default_value_t = 7)]
    pub staleness_threshold: u64,
    /// Count a snapshot: a snapshot's name, a branch, a tag or a commit that was indexed
    /// (without a scan of the disk, which holds the working tree).
    #[arg(long, value_name = "REF")]
    pub at: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch snapshots`.
#[derive(Debug, Args)]
pub struct SnapshotsArgs {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub index: IndexName,
    /// Delete a snapshot (a name, a branch, a tag or a commit, as `--at` reads it; repeatable)
    ///
    /// Deletes the snapshot with whatever only it stored: files no other snapshot holds go with
    /// their chunks, vectors and graph facts, in one transaction. The current snapshot cannot
    /// be deleted. `indexing.keepSnapshots` does the same after every run, to the oldest.
    #[arg(long = "delete", value_name = "REF")]
    pub delete: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch clear`.
#[derive(Debug, Args)]
#[command(mut_arg("index_name", |a| a.help("The index to delete (as NAME)")))]
pub struct ClearArgs {
    /// The index to delete.
    #[arg(value_name = "NAME", required_unless_present_any = ["all", "index_name"], conflicts_with = "index_name")]
    pub name: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub index: IndexName,
    /// Delete every index.
    #[arg(long, conflicts_with_all = ["name", "index_name"])]
    pub all: bool,
    /// What becomes of the deleted indexes' projects' tasks: keep them (default) or delete
    /// them too.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = TaskRetention::Keep)]
    pub tasks: TaskRetention,
    /// Do not ask for confirmation.
    #[arg(short, long, visible_short_alias = 'y', visible_alias = "yes")]
    pub force: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// What `clear` does with the tasks of the projects whose indexes it deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TaskRetention {
    /// Keep them: a new index of the project finds them again.
    Keep,
    /// Delete them with the index.
    Delete,
}

/// `cocosearch languages`.
#[derive(Debug, Args)]
pub struct LanguagesArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch config ...`.
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Check that the store (and vector search) and the embedding model answer.
    ///
    /// Exits 0 when every check passes, 1 otherwise.
    Check(JsonArgs),
    /// Print every setting, its value and where it came from.
    Show(JsonArgs),
    /// Print which configuration file is in force.
    Path(JsonArgs),
    /// Write a starter cocosearch.yaml in the project root.
    Init(InitArgs),
    /// Trust this project's own cocosearch.yaml as it is now.
    ///
    /// A cocosearch.yaml found in the project may have come with a cloned repository, so until
    /// you trust it, it may not set where your code, queries or credentials go (embedding
    /// endpoints and keys, the store, linked indexes, a model directory, the MCP server's
    /// exposure) nor expand a secret variable. Read the file, then run this. Trust covers the
    /// file's current content: after it changes, run this again.
    Trust(JsonArgs),
}

/// `cocosearch model ...`.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Download a built-in model into the user cache
    ///
    /// Download a built-in model into the user cache, verified, and print where it went
    /// (default: embedding.model when it names a built-in model, else the default one).
    Download(ModelDownloadArgs),
    /// List the built-in models: which are cached, their sizes and paths.
    List(JsonArgs),
}

/// `cocosearch model download`.
#[derive(Debug, Args)]
pub struct ModelDownloadArgs {
    /// A built-in model name (`cocosearch model list`) or its Hugging Face id.
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Just `--json`.
#[derive(Debug, Args)]
pub struct JsonArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `cocosearch config init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Overwrite an existing file.
    #[arg(short, long)]
    pub force: bool,
}

/// `cocosearch init`.
#[derive(Debug, Args)]
pub struct InitProjectArgs {
    /// Set up this agent (repeatable)
    ///
    /// Register the MCP server in this client's project configuration and add the note to its
    /// instructions (repeatable).
    #[arg(long = "agent", value_enum, value_name = "CLIENT")]
    pub agent: Vec<AgentClient>,
    /// Print what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Replace cocosearch.yaml and a differing cocosearch server
    ///
    /// Replace an existing cocosearch.yaml with the starter file, and a `cocosearch` server
    /// entry that runs another command with ours (its other keys, such as `env`, stay).
    /// Without it both are left as they are.
    #[arg(short, long)]
    pub force: bool,
}

/// `--agent`: the MCP clients `cocosearch init` sets up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentClient {
    /// Claude Code: .mcp.json and CLAUDE.md.
    Claude,
    /// Cursor: .cursor/mcp.json and .cursor/rules/cocosearch.mdc.
    Cursor,
    /// Codex: .codex/config.toml (read in trusted projects) and AGENTS.md.
    Codex,
    /// opencode: opencode.json and AGENTS.md.
    Opencode,
    /// Gemini CLI: .gemini/settings.json and GEMINI.md.
    Gemini,
}

/// `cocosearch mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// stdio for local agents (default), http for streamable HTTP at /mcp.
    #[arg(long, value_enum, value_name = "TRANSPORT")]
    pub transport: Option<McpTransport>,
    /// Address to bind the HTTP transport to (default 127.0.0.1).
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
    /// Port of the HTTP transport (default 3000).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    /// Default project: the working directory's git root
    ///
    /// Use the working directory (walking up to the git root) as the project when the client
    /// names none.
    #[arg(long)]
    pub project_from_cwd: bool,
    /// Do not keep the served indexes fresh (indexing.watch: false).
    #[arg(long)]
    pub no_watch: bool,
}

/// `cocosearch dashboard`.
#[derive(Debug, Args)]
pub struct DashboardArgs {
    /// Port to serve on (0 picks a free one).
    #[arg(long, value_name = "PORT", default_value_t = 3001)]
    pub port: u16,
    /// Address to bind to
    ///
    /// Address to bind to. Anything but loopback exposes your indexes and files to the
    /// network: set mcp.token (COCOSEARCH_MCP_TOKEN) first.
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Do not open the browser; just print the address.
    #[arg(long)]
    pub no_open: bool,
    /// Do not keep the served indexes fresh (indexing.watch: false).
    #[arg(long)]
    pub no_watch: bool,
}

/// `--transport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum McpTransport {
    /// JSON-RPC over stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// `cocosearch completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `cocosearch man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write cocosearch.1 and one page per subcommand into this directory.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// A level count: 0 levels would be an empty answer that looks like "nothing depends on it".
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (1 means direct users or imports only)".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}
