//! `cocosearch init`: sets a project up for people and agents — its `cocosearch.yaml`, and for
//! each `--agent` the MCP server in that client's configuration and a note in its
//! instructions.
//!
//! The work is [`crate::setup`]'s: this file checks the project directory, turns the flags into
//! a request and prints one line per file, on stderr like the other commands' reports.

use super::args::{AgentClient, InitProjectArgs};
use super::output::errln;
use super::{Context, Exit};
use crate::config::{ConfigError, ProjectDirRule};
use crate::setup::{self, Agent, Change, Existing, Kept, Outcome, Role};

/// `cocosearch init`.
pub fn init(ctx: &Context, args: &InitProjectArgs) -> anyhow::Result<Exit> {
    let root = &ctx.config.project_root;
    // The MCP server refuses such a directory as a project too: setting it up would give
    // agents a server that answers nothing.
    if let Err(reason) = ProjectDirRule::from_env(&ctx.env, &[]).check(root) {
        return Err(ConfigError::UnsafeProject { dir: root.clone(), reason }.into());
    }
    let agents: Vec<Agent> = args.agent.iter().map(|&client| agent(client)).collect();
    let config_yaml = super::config_cmd::starter_yaml(ctx);
    let plan = setup::plan(&setup::Request {
        root,
        config_yaml: &config_yaml,
        agents: &agents,
        existing: if args.force { Existing::Replace } else { Existing::Keep },
    })?;
    for change in &plan.changes {
        if !args.dry_run {
            change.write()?;
        }
        if !ctx.ui.quiet {
            errln!("{}", line(change, args.dry_run));
        }
    }
    if ctx.ui.quiet {
        return Ok(Exit::Success);
    }
    if args.dry_run {
        errln!("dry run: nothing was written");
    } else if plan.changes.iter().all(|c| c.outcome == Outcome::Unchanged) {
        errln!("nothing to change: the project is set up");
    } else if agents.is_empty() {
        errln!("next: `cocosearch init --agent claude` (or cursor, codex, opencode, gemini) to set up an agent");
    } else {
        errln!("next: `cocosearch index`, then restart the agent so it starts the MCP server");
        if agents.contains(&Agent::Codex) {
            errln!("Codex reads .codex/config.toml only in a project you have trusted in Codex");
        }
    }
    Ok(Exit::Success)
}

fn agent(client: AgentClient) -> Agent {
    match client {
        AgentClient::Claude => Agent::Claude,
        AgentClient::Cursor => Agent::Cursor,
        AgentClient::Codex => Agent::Codex,
        AgentClient::Opencode => Agent::OpenCode,
        AgentClient::Gemini => Agent::Gemini,
    }
}

/// `created   .mcp.json (MCP server for Claude Code)`; in a dry run `would create …`, since
/// nothing was.
fn line(change: &Change, dry_run: bool) -> String {
    let (said, width) = match (change.outcome, dry_run) {
        (Outcome::Created, true) => ("would create", 12),
        (Outcome::Updated, true) => ("would update", 12),
        (outcome, true) => (outcome.as_str(), 12),
        (outcome, false) => (outcome.as_str(), 9),
    };
    let word = format!("{said:<width$}");
    let word = match change.outcome {
        Outcome::Created => console::style(word).green().for_stderr(),
        Outcome::Updated => console::style(word).yellow().for_stderr(),
        Outcome::Unchanged => console::style(word).dim().for_stderr(),
    };
    format!("{word} {} ({})", change.path.display(), describe(change))
}

/// What the file is for, and what was left in it on purpose.
fn describe(change: &Change) -> String {
    let names = |pick: fn(&Role) -> Option<Agent>| -> String {
        change.roles.iter().filter_map(pick).map(Agent::name).collect::<Vec<_>>().join(", ")
    };
    let mut parts = Vec::new();
    if change.roles.contains(&Role::Config) {
        parts.push("project configuration".to_string());
    }
    let servers = names(|r| if let Role::Server(a) = r { Some(*a) } else { None });
    if !servers.is_empty() {
        parts.push(format!("MCP server for {servers}"));
    }
    let notes = names(|r| if let Role::Instructions(a) = r { Some(*a) } else { None });
    if !notes.is_empty() {
        parts.push(format!("instructions for {notes}"));
    }
    for kept in &change.kept {
        parts.push(
            match kept {
                Kept::Config => "it exists and stays as it is; --force replaces it",
                Kept::Server => {
                    "a `cocosearch` server with another command is registered and stays; --force replaces it"
                }
            }
            .to_string(),
        );
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::super::args::{Cli, Command, McpArgs};
    use crate::setup;

    #[test]
    fn the_registered_server_is_a_command_line_this_binary_accepts() {
        assert_eq!(Cli::command().get_name(), setup::SERVER_COMMAND);
        let argv = std::iter::once(setup::SERVER_COMMAND).chain(setup::SERVER_ARGS);
        let cli = Cli::try_parse_from(argv).expect("the server's arguments parse");
        assert!(matches!(cli.command, Command::Mcp(McpArgs { project_from_cwd: true, transport: None, .. })));
    }
}
