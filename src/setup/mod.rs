//! Setting a project up for people and AI agents: the files `cocosearch init` writes.
//!
//! Provides [`plan`], which reads every file the setup touches — the project's
//! `cocosearch.yaml`, and for each [`Agent`] its client's project-level MCP configuration and
//! its instructions file — and computes each one's new text, and [`Change::write`], which
//! writes one of them. The MCP server `cocosearch` (`cocosearch mcp --project-from-cwd`) is
//! merged into what each configuration file holds (other servers and keys are kept, in their
//! order); the note on when to use cocosearch's tools goes between two marker lines of the
//! instructions file, so a second run replaces it instead of adding another. The command line
//! (`cli::init_cmd`) only parses flags, asks for a plan and prints it.
//!
//! Invariants: nothing is written until every file has been read and merged, so a malformed
//! file stops the run with nothing written; nothing is written outside the project root, and a
//! path that leads out of it through a symbolic link is refused (`files.rs`); a file whose
//! merged content equals what it holds is not rewritten (a second run changes no byte).

mod agents;
mod codex;
mod files;
mod instructions;
mod json;

use std::path::{Path, PathBuf};

pub use agents::{Agent, SERVER_ARGS, SERVER_COMMAND, SERVER_NAME};
pub use instructions::{BEGIN_MARKER, END_MARKER};

use files::Files;

/// What to do with what is already there and differs from what the setup would write: an
/// existing `cocosearch.yaml`, and a `cocosearch` server entry with another command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Leave it as it is (and say so).
    Keep,
    /// Replace it: the starter `cocosearch.yaml`; the entry's command and arguments (its other
    /// keys, such as `env`, stay).
    Replace,
}

/// What to set up.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The project root; every file is written inside it.
    pub root: &'a Path,
    /// The text of a new `cocosearch.yaml` (the starter file of `cocosearch config init`).
    pub config_yaml: &'a str,
    /// The agents to set up (each once, whatever the repetitions).
    pub agents: &'a [Agent],
    /// What to do with a differing `cocosearch.yaml` or server entry.
    pub existing: Existing,
}

/// What happens to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It does not exist and will be written.
    Created,
    /// It exists and its text changes.
    Updated,
    /// It stays byte for byte as it is.
    Unchanged,
}

impl Outcome {
    /// `created`, `updated`, `unchanged`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
        }
    }
}

/// What a file is for (a file may serve several agents: `AGENTS.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The project's `cocosearch.yaml`.
    Config,
    /// The agent's MCP server configuration.
    Server(Agent),
    /// The agent's instructions file.
    Instructions(Agent),
}

/// Something the setup left as it found it, on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// `cocosearch.yaml` exists (`--force` replaces it with the starter file).
    Config,
    /// A `cocosearch` server with another command or arguments is registered (`--force`
    /// replaces them).
    Server,
}

/// One file of the plan.
#[derive(Debug, Clone)]
pub struct Change {
    /// The path relative to the project root, as shown (the first name it was reached by).
    pub path: PathBuf,
    /// What happens to it.
    pub outcome: Outcome,
    /// What it is for.
    pub roles: Vec<Role>,
    /// What was left as it is in it.
    pub kept: Vec<Kept>,
    /// Where it is written: the path inside the root with the links inside the project
    /// followed.
    real: PathBuf,
    /// The new text (the current one when unchanged).
    text: String,
}

impl Change {
    /// Writes the file (nothing when it is unchanged): into a temporary file beside it, then
    /// renamed over it, so a reader never sees half a file; an existing file keeps its
    /// permissions. Missing directories are created.
    pub fn write(&self) -> Result<(), SetupError> {
        if self.outcome == Outcome::Unchanged {
            return Ok(());
        }
        files::write(&self.real, &self.text)
    }
}

/// Every file of a setup, in the order they were first reached.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The files.
    pub changes: Vec<Change>,
}

/// Why the setup cannot be done. Every variant names the file; nothing has been written when
/// [`plan`] returns one.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The file does not parse.
    #[error(
        "{} is not valid {format} (line {line}, column {column}: {message}) — fix it or move it away, then run `cocosearch init` again; nothing was written",
        path.display()
    )]
    Syntax {
        /// The file.
        path: PathBuf,
        /// `JSON`, `TOML`.
        format: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The file parses, but a value the setup must merge into has another type.
    #[error(
        "{}: `{key}` is not {expected} — fix it, or add the `cocosearch` server by hand; nothing was written",
        path.display()
    )]
    Shape {
        /// The file.
        path: PathBuf,
        /// The key (`mcpServers`, `mcp_servers`, `(the top level)`).
        key: String,
        /// `an object`, `a table`.
        expected: &'static str,
    },
    /// The instructions file has one marker line of the cocosearch block without the other.
    #[error(
        "{} has a `{BEGIN_MARKER}` line without a `{END_MARKER}` line after it (or the other way round) — restore the pair or delete the one left, then run `cocosearch init` again; nothing was written",
        path.display()
    )]
    Markers {
        /// The file.
        path: PathBuf,
    },
    /// The path leads outside the project through a symbolic link.
    #[error(
        "{} leads outside the project through a symbolic link — `cocosearch init` writes only inside {}: replace the link with a file, or set it up by hand; nothing was written",
        path.display(),
        root.display()
    )]
    Outside {
        /// The path, inside the root.
        path: PathBuf,
        /// The project root.
        root: PathBuf,
    },
    /// The path is a symbolic link that leads nowhere (broken, or a loop).
    #[error("{} is a symbolic link that leads nowhere — remove it or point it at a file in the project; nothing was written", path.display())]
    BrokenLink {
        /// The path.
        path: PathBuf,
    },
    /// The path is a directory or something else where a file (or a directory on the way to
    /// one) is needed.
    #[error("{} is not a {expected} — move it away, then run `cocosearch init` again; nothing was written", path.display())]
    NotA {
        /// The path.
        path: PathBuf,
        /// `regular file`, `directory`.
        expected: &'static str,
    },
    /// The file is not UTF-8 text.
    #[error("{} is not UTF-8 text — fix its encoding, then run `cocosearch init` again; nothing was written", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// The file system refused a read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file system refused a write.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What a merge found wrong in a file's text (the caller adds the file).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Problem {
    Syntax { format: &'static str, line: usize, column: usize, message: String },
    Shape { key: String, expected: &'static str },
    Markers,
}

impl Problem {
    fn at(self, path: PathBuf) -> SetupError {
        match self {
            Problem::Syntax { format, line, column, message } => {
                SetupError::Syntax { path, format, line, column, message }
            }
            Problem::Shape { key, expected } => SetupError::Shape { path, key, expected },
            Problem::Markers => SetupError::Markers { path },
        }
    }
}

/// What merging the server into a configuration file gave.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Merged {
    /// The file's text with the server registered (the same text when it already was).
    Text(String),
    /// A `cocosearch` entry with another command is there and stays.
    KeptOther,
}

/// Reads every file the setup touches and computes its new text; writes nothing.
pub fn plan(request: &Request<'_>) -> Result<Plan, SetupError> {
    let mut files = Files::new(request.root)?;

    let config = files.open(Path::new("cocosearch.yaml"), Role::Config)?;
    match (config.current().is_some(), request.existing) {
        (true, Existing::Keep) => config.kept.push(Kept::Config),
        (false, _) | (true, Existing::Replace) => config.text = Some(request.config_yaml.to_string()),
    }

    let mut seen = Vec::new();
    for &agent in request.agents {
        if seen.contains(&agent) {
            continue;
        }
        seen.push(agent);
        let server = files.open(Path::new(agent.server_file()), Role::Server(agent))?;
        let merged = match agent.server_format() {
            agents::ServerFormat::Json(shape) => json::merge_server(server.current(), shape, request.existing),
            agents::ServerFormat::CodexToml => codex::merge_server(server.current(), request.existing),
        };
        match merged.map_err(|problem| problem.at(server.full_path()))? {
            Merged::Text(text) => server.text = Some(text),
            Merged::KeptOther => server.kept.push(Kept::Server),
        }

        let notes = files.open(Path::new(agent.instructions_file()), Role::Instructions(agent))?;
        let text = instructions::merge(notes.current(), agent.instructions_preamble())
            .map_err(|problem| problem.at(notes.full_path()))?;
        notes.text = Some(text);
    }
    Ok(Plan { changes: files.into_changes() })
}
