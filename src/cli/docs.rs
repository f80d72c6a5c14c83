//! Generated documentation: shell completions and man pages, from the clap definition.
//!
//! The same functions serve `cocosearch completions`/`cocosearch man` and the test that keeps
//! the committed `completions/` and `man/` directories current.

use std::io::IsTerminal as _;
use std::path::Path;

use anyhow::Context as _;
use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;
use super::output::{errln, print};

/// Shows `page` with `man -l -` (formatted, in the user's pager), as a man page on a terminal
/// should be, rather than as raw roff; false when `man` cannot (none installed, or one
/// without `-l`, as on macOS), and the roff is printed instead.
fn shown_by_man(page: &str) -> bool {
    use std::io::Write as _;
    let child = std::process::Command::new("man").args(["-l", "-"]).stdin(std::process::Stdio::piped()).spawn();
    let Ok(mut child) = child else { return false };
    // A pager that quits early closes its end: what it did not read is not wanted.
    let _ = child.stdin.take().map(|mut stdin| stdin.write_all(page.as_bytes()));
    child.wait().is_ok_and(|status| status.success())
}

/// The command definition used for generated files: the version without the git commit, so
/// the committed files do not change with every commit.
fn command() -> clap::Command {
    Cli::command().version(env!("CARGO_PKG_VERSION")).long_version(env!("CARGO_PKG_VERSION"))
}

/// Each shell's completion script: (file name, contents).
pub fn completion_files() -> Vec<(String, String)> {
    [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::PowerShell, Shell::Elvish]
        .into_iter()
        .map(|shell| {
            let mut buffer = Vec::new();
            clap_complete::generate(shell, &mut command(), "cocosearch", &mut buffer);
            let name = match shell {
                Shell::Bash => "cocosearch.bash",
                Shell::Zsh => "_cocosearch",
                Shell::Fish => "cocosearch.fish",
                Shell::PowerShell => "_cocosearch.ps1",
                _ => "cocosearch.elv",
            };
            (name.to_string(), String::from_utf8_lossy(&buffer).into_owned())
        })
        .collect()
}

/// The man pages: `cocosearch.1` and one per subcommand (`cocosearch-config-check.1`).
pub fn man_pages() -> Vec<(String, String)> {
    let mut root = command();
    root.build();
    let mut pages = Vec::new();
    collect_pages(&root, "cocosearch", &mut pages);
    pages
}

fn collect_pages(cmd: &clap::Command, name: &str, pages: &mut Vec<(String, String)>) {
    let page_cmd = cmd.clone().name(name.to_string()).bin_name(name.replace('-', " "));
    let mut buffer = Vec::new();
    if clap_mangen::Man::new(page_cmd).render(&mut buffer).is_ok() {
        pages.push((format!("{name}.1"), String::from_utf8_lossy(&buffer).into_owned()));
    }
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        collect_pages(sub, &format!("{name}-{}", sub.get_name()), pages);
    }
}

/// `cocosearch completions SHELL`.
pub fn print_completions(shell: Shell) -> anyhow::Result<()> {
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "cocosearch", &mut buffer);
    print(&String::from_utf8_lossy(&buffer))?;
    Ok(())
}

/// `cocosearch man [--dir DIR]`.
pub fn print_man(dir: Option<&Path>) -> anyhow::Result<()> {
    let pages = man_pages();
    match dir {
        None => {
            if let Some((_, page)) = pages.first()
                && !(std::io::stdout().is_terminal() && shown_by_man(page))
            {
                print(page)?;
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            for (name, page) in &pages {
                let path = dir.join(name);
                std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
            }
            errln!("wrote {} man pages to {}", pages.len(), dir.display());
        }
    }
    Ok(())
}
