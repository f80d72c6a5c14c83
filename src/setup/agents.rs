//! The agents `cocosearch init` knows: where each keeps its project's MCP servers and its
//! instructions, and in which shape.
//!
//! Each client's file and shape, as its documentation gives them (looked up 2026-11-27):
//!
//! - Claude Code: project-scoped servers in `.mcp.json` at the project root, under
//!   `mcpServers` with `command` and `args` (<https://code.claude.com/docs/en/mcp>, "project
//!   scope"); instructions in `CLAUDE.md`.
//! - Cursor: `.cursor/mcp.json`, the same `mcpServers` shape (<https://cursor.com/docs/mcp>,
//!   "project configuration"); rules in `.cursor/rules/*.mdc`, Markdown after a front matter of
//!   `description`, `globs` and `alwaysApply` (`alwaysApply: true` loads it in every request).
//!   Cursor reads `AGENTS.md` too, but a rule file of its own stays out of other agents' way.
//! - Codex: project-scoped overrides in `.codex/config.toml`, loaded only when the user trusts
//!   the project (<https://developers.openai.com/codex/config-reference>); a server is one
//!   `[mcp_servers.<name>]` table with `command` and `args` (Codex's `docs/config.md`);
//!   instructions in `AGENTS.md`.
//! - opencode: `opencode.json` at the project root, servers under `mcp` as
//!   `{"type": "local", "command": [program, args…], "enabled": true}`
//!   (<https://opencode.ai/docs/mcp-servers>). opencode 2 reads that shape unchanged
//!   (<https://opencode.ai/docs/migrate-v1/>) and natively nests servers under `mcp.servers`;
//!   a file already in that shape is merged there (`json.rs`). Instructions in `AGENTS.md`.
//! - Gemini CLI: the project settings file `.gemini/settings.json`, under `mcpServers` with
//!   `command` and `args` (<https://geminicli.com/docs/cli/configuration>,
//!   <https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md>); context
//!   in `GEMINI.md`, the default context file name (<https://geminicli.com/docs/cli/gemini-md>).

/// The name the server is registered under.
pub const SERVER_NAME: &str = "cocosearch";

/// The program a client starts.
pub const SERVER_COMMAND: &str = "cocosearch";

/// Its arguments: the stdio MCP server, whose default project is the directory the client
/// starts it in (walked up to the git root) when the client names none.
pub const SERVER_ARGS: [&str; 2] = ["mcp", "--project-from-cwd"];

/// An agent (an MCP client) whose project files `cocosearch init` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code.
    Claude,
    /// Cursor.
    Cursor,
    /// OpenAI Codex.
    Codex,
    /// opencode.
    OpenCode,
    /// Gemini CLI.
    Gemini,
}

/// How a client's MCP configuration file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ServerFormat {
    /// JSON, in this shape.
    Json(JsonShape),
    /// Codex's TOML.
    CodexToml,
}

/// The JSON shapes of MCP configuration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsonShape {
    /// `{"mcpServers": {"cocosearch": {"command": …, "args": […]}}}`: Claude Code, Cursor,
    /// Gemini CLI.
    McpServers,
    /// `{"mcp": {"cocosearch": {"type": "local", "command": […], "enabled": true}}}`: opencode.
    OpenCode,
}

impl Agent {
    /// The client's name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Cursor => "Cursor",
            Agent::Codex => "Codex",
            Agent::OpenCode => "opencode",
            Agent::Gemini => "Gemini CLI",
        }
    }

    /// The project-level file where the client reads its MCP servers, relative to the root.
    pub fn server_file(self) -> &'static str {
        match self {
            Agent::Claude => ".mcp.json",
            Agent::Cursor => ".cursor/mcp.json",
            Agent::Codex => ".codex/config.toml",
            Agent::OpenCode => "opencode.json",
            Agent::Gemini => ".gemini/settings.json",
        }
    }

    /// The file the client reads its project instructions from, relative to the root.
    pub fn instructions_file(self) -> &'static str {
        match self {
            Agent::Claude => "CLAUDE.md",
            Agent::Cursor => ".cursor/rules/cocosearch.mdc",
            Agent::Codex | Agent::OpenCode => "AGENTS.md",
            Agent::Gemini => "GEMINI.md",
        }
    }

    pub(super) fn server_format(self) -> ServerFormat {
        match self {
            Agent::Claude | Agent::Cursor | Agent::Gemini => ServerFormat::Json(JsonShape::McpServers),
            Agent::OpenCode => ServerFormat::Json(JsonShape::OpenCode),
            Agent::Codex => ServerFormat::CodexToml,
        }
    }

    /// What a new instructions file starts with, before the cocosearch block: a Cursor rule
    /// needs its front matter.
    pub(super) fn instructions_preamble(self) -> &'static str {
        match self {
            Agent::Cursor => {
                "---\ndescription: When to use cocosearch's MCP tools (search_code, the code graph) instead of grep\nalwaysApply: true\n---\n\n"
            }
            Agent::Claude | Agent::Codex | Agent::OpenCode | Agent::Gemini => "",
        }
    }
}
