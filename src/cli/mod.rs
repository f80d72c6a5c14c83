//! The command line: parse flags, resolve the configuration, run one command, map the
//! outcome to an exit code.
//!
//! This is the only module that uses `anyhow` and the only one that prints for humans (the
//! MCP server prints protocol messages). Commands live one per file; each takes the resolved
//! [`Context`] and its own flags and returns an [`Exit`].
//!
//! A presenter over the workspace ([`crate::workspace`]) like the MCP server and the dashboard,
//! and beside them: the servers it starts are handed in by the binary ([`Presenters`]), so
//! this module imports neither.

mod args;
mod config_cmd;
mod dashboard_cmd;
mod docs;
mod exit;
mod in_force;
mod graph_cmd;
mod grep_argv;
mod grep_cmd;
mod index_cmd;
mod init_cmd;
mod languages_cmd;
mod mcp_cmd;
mod model_cmd;
mod output;
mod search_cmd;
mod snapshots_cmd;
mod serve;
mod spelling;
mod stats_cmd;
mod task_args;
mod task_cmd;
mod version;
mod watch_cmd;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Parser;

pub use args::Cli;
pub use docs::{completion_files, man_pages};
pub use exit::{Exit, Leave};

use std::sync::Arc;

use crate::config::{
    Config, ConfigError, Env, Override, Raw, Request, RootOrigin, ShownWarnings, Untrusted, redact_text,
};
use crate::store::StoreError;
pub use crate::workspace::Presenters;
use crate::workspace::Workspace;
use args::{Command, ConfigCommand};
use output::{Ui, errln};

/// What every command receives.
pub struct Context {
    /// Output decisions.
    pub ui: Ui,
    /// The resolved configuration.
    pub config: Config,
    /// The environment snapshot (for commands that resolve again, like `mcp`).
    pub env: Env,
    /// The working directory.
    pub cwd: PathBuf,
    /// `--config FILE`.
    pub config_file: Option<PathBuf>,
    /// Command-line values that set configuration keys (`--set`, dedicated flags).
    pub overrides: Vec<Override>,
    /// The workspace the command asks, opened on first use.
    workspace: std::sync::OnceLock<Arc<Workspace>>,
    /// Ends the process at once (a second Ctrl-C).
    pub leave: Leave,
}

impl Context {
    /// The workspace of this command: the one API every presenter calls, in the project the
    /// command runs in, printing its notices on stderr unless `-q`.
    pub fn workspace(&self) -> Arc<Workspace> {
        Arc::clone(self.workspace.get_or_init(|| {
            let quiet = self.ui.quiet;
            Arc::new(Workspace::new(crate::workspace::Options {
                config: self.config.clone(),
                env: self.env.clone(),
                config_file: self.config_file.clone(),
                overrides: self.overrides.clone(),
                project_from_cwd: false,
                front: crate::workspace::Front::Command,
                progress: self.ui.download_progress(),
                notices: crate::workspace::Notices::To(Arc::new(move |notice: &str| {
                    if !quiet {
                        errln!("cocosearch: {notice}");
                    }
                })),
            }))
        }))
    }
}

/// Runs the program with these arguments (the first is the program name); `presenters` are
/// the servers `cocosearch mcp` and `cocosearch dashboard` start, and `leave` ends the process
/// at once when a command must not wait (a second Ctrl-C).
pub fn run(args: impl IntoIterator<Item = OsString>, presenters: &Presenters, leave: Leave) -> Exit {
    let args = grep_argv::spell_invert(args.into_iter().collect());
    let mut cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { Exit::Usage } else { Exit::Success };
            let _ = e.print();
            return code;
        }
    };
    // Told even with -q: scripts are where old spellings live on.
    for note in spelling::settle(&mut cli) {
        errln!("{} {note}", console::style("warning:").yellow().bold());
    }
    let env = Env::from_process();
    let ui = Ui::new(cli.global.color, env.no_color(), cli.global.quiet, cli.global.verbose);

    // Commands that need no configuration.
    match &cli.command {
        Command::Completions(a) => return finish(docs::print_completions(a.shell).map(|()| Exit::Success)),
        Command::Man(a) => return finish(docs::print_man(a.dir.as_deref()).map(|()| Exit::Success)),
        _ => {}
    }

    let cwd = match crate::config::working_directory() {
        Ok(cwd) => cwd,
        Err(e) => return report(&anyhow::anyhow!("cannot read the working directory: {e}")),
    };
    // Trusting a project's file must work while that file stops every other command.
    if let Command::Config(ConfigCommand::Trust(a)) = &cli.command {
        return finish(config_cmd::trust(&ui, &env, cli.global.config.as_deref(), &cwd, a.json));
    }
    let overrides = match overrides(&cli) {
        Ok(overrides) => overrides,
        Err(e) => return report(&anyhow::Error::new(e)),
    };
    let config = match resolve_config(&cli, &cwd, overrides.clone(), &env) {
        Ok(config) => config,
        Err(e) => return report(&anyhow::Error::new(e)),
    };
    init_logging(&cli, &config);
    if !ui.quiet {
        // Told once, but every time where a person looks at the configuration.
        let told = match inspects_configuration(&cli.command) {
            true => config.warnings.iter().map(String::as_str).collect(),
            false => ShownWarnings::user(&env).first_time(&config.warnings),
        };
        for warning in told {
            errln!("{} {}", console::style("warning:").yellow().bold(), output::visible_lines(warning));
        }
    }
    let ctx = Context {
        ui,
        config,
        env,
        cwd,
        config_file: cli.global.config.clone(),
        overrides: overrides.clone(),
        workspace: std::sync::OnceLock::new(),
        leave,
    };
    let result = match &cli.command {
        Command::Init(a) => init_cmd::init(&ctx, a),
        Command::Config(cmd) => config_cmd::run(&ctx, cmd),
        Command::Index(a) => index_cmd::index(&ctx, a),
        Command::Watch(a) => watch_cmd::watch(&ctx, a),
        Command::Search(a) => search_cmd::search(&ctx, a),
        Command::Analyze(a) => search_cmd::analyze(&ctx, a),
        Command::Grep(a) => grep_cmd::grep(&ctx, a),
        Command::Symbol(a) => graph_cmd::symbol(&ctx, a),
        Command::Refs(a) => graph_cmd::refs(&ctx, a),
        Command::Deps(a) => graph_cmd::deps(&ctx, a),
        Command::Impact(a) => graph_cmd::impact(&ctx, a),
        Command::Path(a) => graph_cmd::path(&ctx, a),
        Command::Outline(a) => graph_cmd::outline(&ctx, a),
        Command::Stats(a) => stats_cmd::stats(&ctx, a),
        Command::Snapshots(a) => snapshots_cmd::snapshots(&ctx, a),
        Command::List(a) => index_cmd::list(&ctx, a),
        Command::Clear(a) => index_cmd::clear(&ctx, a),
        Command::Task(cmd) => task_cmd::run(&ctx, cmd),
        Command::Languages(a) => languages_cmd::languages(&ctx, a),
        Command::Mcp(a) => mcp_cmd::mcp(&ctx, a, presenters, cli.global.config.as_deref(), overrides),
        Command::Dashboard(a) => dashboard_cmd::dashboard(&ctx, a, presenters, cli.global.config.as_deref(), overrides),
        Command::Model(cmd) => model_cmd::run(&ctx, cmd),
        Command::Completions(_) | Command::Man(_) => Ok(Exit::Success),
    };
    finish(result)
}

/// Whether `command` shows the configuration itself (`config show`, `check`, `path`): it tells
/// every configuration warning, and shows a project file the user has not trusted yet with
/// the keys it may not set left out, since it is how the user reads that file.
fn inspects_configuration(command: &Command) -> bool {
    matches!(command, Command::Config(ConfigCommand::Show(_) | ConfigCommand::Check(_) | ConfigCommand::Path(_)))
}

/// Maps a command's result to an exit code, printing the error once.
fn finish(result: anyhow::Result<Exit>) -> Exit {
    match result {
        Ok(exit) => exit,
        Err(e) => report(&e),
    }
}

fn report(e: &anyhow::Error) -> Exit {
    if is_broken_pipe(e) {
        return Exit::Success;
    }
    // Errors quote URLs from the configuration and from HTTP clients (redacted, always) and
    // file names of the project (their control characters escaped).
    let text = redact_text(&format!("{e:#}"));
    errln!("{} {}", console::style("cocosearch: error:").red().bold(), output::visible_lines(&text));
    let configuration = e.chain().any(|c| {
        c.is::<ConfigError>()
            || c.is::<UsageError>()
            || c.downcast_ref::<StoreError>().is_some_and(StoreError::is_configuration)
    });
    if configuration { Exit::Usage } else { Exit::Failure }
}

/// A workspace's failure as the command line reports it: a request that makes no sense is a
/// usage error (exit code 2), anything else a failure (1).
pub(crate) fn failed(e: impl Into<crate::workspace::Error>) -> anyhow::Error {
    let e = e.into();
    match e.kind {
        crate::workspace::ErrorKind::Usage => anyhow::Error::new(UsageError(e.message)),
        _ => anyhow::Error::new(e),
    }
}

/// A command line that makes no sense (an empty query, a malformed index name): exit code 2,
/// like a bad flag.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub String);

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Command-line values that set configuration keys: `--set` and the dedicated flags.
/// The configuration for a command run in `cwd`. Where nothing says where the project is (no
/// `projectPath`, no git root, no configuration file), the indexed project containing `cwd`
/// is the project: `search` in a subdirectory of an indexed tree searches that tree's index
/// (`index` itself keeps indexing where it is run).
fn resolve_config(cli: &Cli, cwd: &Path, mut overrides: Vec<Override>, env: &Env) -> Result<Config, ConfigError> {
    let config_file = cli.global.config.as_deref();
    let untrusted = match cli.command {
        Command::Config(ConfigCommand::Show(_) | ConfigCommand::Path(_)) => Untrusted::LeaveOut,
        _ => Untrusted::Refuse,
    };
    let config = Config::resolve_with(&Request { config_file, cwd, overrides: &overrides, env }, untrusted)?;
    // `index` means the directory it is given or run in, as it always has.
    if config.root_origin != RootOrigin::WorkingDirectory
        || matches!(cli.command, Command::Index(_) | Command::Watch(_))
    {
        return Ok(config);
    }
    let Some(meta) = crate::workspace::indexed_project_containing(&config.settings.database, &config.project_root)
    else {
        return Ok(config);
    };
    if meta.root == config.project_root {
        return Ok(config);
    }
    if !config.sources.contains_key("indexName") {
        overrides.push(Override {
            key: "indexName".into(),
            value: Raw::Text(meta.name.clone()),
            flag: format!("the index of {}", meta.root.display()),
        });
    }
    Config::resolve_with(&Request { config_file, cwd: &meta.root, overrides: &overrides, env }, untrusted)
}

fn overrides(cli: &Cli) -> Result<Vec<Override>, ConfigError> {
    let mut out = Vec::new();
    for item in &cli.global.set {
        let Some((key, value)) = item.split_once('=') else {
            return Err(ConfigError::Invalid {
                location: "--set".into(),
                key: item.clone(),
                message: "expected KEY=VALUE, e.g. --set search.resultLimit=20".into(),
            });
        };
        out.push(Override {
            key: key.trim().to_string(),
            value: Raw::Text(value.to_string()),
            flag: format!("--set {}", key.trim()),
        });
    }
    let mut flag =
        |key: &str, value: Raw, flag: &str| out.push(Override { key: key.to_string(), value, flag: flag.to_string() });
    let text = |v: &dyn ToString| Raw::Text(v.to_string());
    match &cli.command {
        Command::Index(a) => {
            if let Some(path) = &a.path {
                flag("projectPath", text(&path.display()), "PATH");
            }
            if let Some(name) = &a.name {
                flag("indexName", text(name), "--index");
            }
            if !a.include.is_empty() {
                flag("indexing.includePatterns", Raw::List(a.include.clone()), "--include");
            }
            if !a.exclude.is_empty() {
                flag("indexing.excludePatterns", Raw::List(a.exclude.clone()), "--exclude");
            }
            if a.no_gitignore {
                flag("indexing.respectGitignore", text(&false), "--no-gitignore");
            }
            if let Some(size) = a.max_file_size {
                flag("indexing.maxFileSize", text(&size), "--max-file-size");
            }
        }
        Command::Watch(a) => {
            if let Some(path) = &a.path {
                flag("projectPath", text(&path.display()), "PATH");
            }
            if let Some(name) = &a.name {
                flag("indexName", text(name), "--index");
            }
            if let Some(ms) = a.debounce {
                flag("indexing.watchDebounceMs", text(&ms), "--debounce");
            }
        }
        Command::Dashboard(a) if a.no_watch => flag("indexing.watch", text(&false), "--no-watch"),
        Command::Mcp(a) => {
            if let Some(transport) = a.transport {
                let name = match transport {
                    args::McpTransport::Stdio => "stdio",
                    args::McpTransport::Http => "http",
                };
                flag("mcp.transport", text(&name), "--transport");
            }
            if let Some(host) = &a.host {
                flag("mcp.host", text(host), "--host");
            }
            if let Some(port) = a.port {
                flag("mcp.port", text(&port), "--port");
            }
            if a.no_watch {
                flag("indexing.watch", text(&false), "--no-watch");
            }
        }
        _ => {}
    }
    Ok(out)
}

/// Logs go to stderr, always: stdout is for results (and for the protocol in `mcp` stdio).
fn init_logging(cli: &Cli, config: &Config) {
    let level = if cli.global.quiet {
        "error"
    } else {
        match cli.global.verbose {
            0 => config.settings.log_level.as_str(),
            1 => "info",
            2 => "debug",
            _ => "trace",
        }
    };
    // Dependencies stay at warn unless we trace, so -vv shows our decisions, not HTTP chatter.
    let deps = if level == "trace" { "debug" } else { "warn" };
    // The file-event library warns once per deleted watched directory that the watch it
    // removes is gone already (the kernel dropped it with the directory): `rm -rf` of twenty
    // directories printed twenty-one such lines, none of them news. Its only other warnings
    // are on platforms' polling backends, which the watcher does not use.
    let notify = if level == "trace" { "debug" } else { "error" };
    let filter = tracing_subscriber::EnvFilter::new(format!("{deps},notify={notify},cocosearch={level}"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| output::RedactedStderr)
        .with_ansi(console::colors_enabled_stderr())
        // Its own report of a failed write would be an `eprintln!`, a panic on a closed stderr.
        .log_internal_errors(false)
        .with_target(false)
        .try_init();
}
