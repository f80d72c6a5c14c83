//! The old spellings of flags, kept working with a note: one spelling per meaning across
//! commands (issue 46 item 10). An index is named by `-n/--index` everywhere (in `grep`,
//! `--index` alone, since its `-n` is rg's); `-i` and `-e` keep rg's meanings (`--ignore-case`,
//! `--regexp`), so `index`'s `-i`/`-e` (`--include`/`--exclude`) and `search`'s `-i`
//! (`--interactive`) are old spellings. Clap parses them as hidden flags; [`settle`] moves
//! their values to the flags they are old spellings of and says what to type instead.
//! Rewriting the arguments before clap sees them was the alternative, rejected: short flags
//! cluster (`-qi GLOB`) and take values, which clap already knows how to read.

use super::args::{Cli, Command};

/// Moves the values given with an old spelling to the flag it spells; a note for each old
/// spelling used, for stderr.
pub fn settle(cli: &mut Cli) -> Vec<&'static str> {
    let mut notes = Vec::new();
    match &mut cli.command {
        Command::Index(a) => {
            if let Some(name) = a.old_name.take() {
                a.name = Some(name);
                notes.push(OLD_NAME);
            }
            if !a.old_include.is_empty() {
                a.include.append(&mut a.old_include);
                notes.push("-i is deprecated in index: use --include (-i means --ignore-case, as in grep and rg)");
            }
            if !a.old_exclude.is_empty() {
                a.exclude.append(&mut a.old_exclude);
                notes.push("-e is deprecated in index: use --exclude (-e means --regexp, as in grep and rg)");
            }
        }
        Command::Watch(a) => {
            if let Some(name) = a.old_name.take() {
                a.name = Some(name);
                notes.push(OLD_NAME);
            }
        }
        Command::Search(a) if a.old_interactive => {
            a.interactive = true;
            notes.push("-i is deprecated in search: use --interactive (-i means --ignore-case, as in grep and rg)");
        }
        Command::Clear(a) => {
            if let Some(name) = a.index.index_name.take() {
                a.name = Some(name);
            }
        }
        _ => {}
    }
    notes
}

/// The note for `--name` in `index` and `watch`.
const OLD_NAME: &str = "--name is deprecated: use --index (-n), which names an index in every command";
