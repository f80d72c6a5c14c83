//! "Open in editor": which editor (`COCOSEARCH_EDITOR`, else `$VISUAL`, else `$EDITOR`, read
//! through [`crate::config::Env`]) and how it is told the file and the line.
//!
//! The setting is read from the environment only, never from `cocosearch.yaml`: a cloned
//! repository must not choose a program the dashboard runs. The command is split into words
//! like a shell would (quotes, backslashes) but never run by a shell, so a file name cannot
//! inject anything. `{file}` and `{line}` in it are replaced; without them the file and line
//! are passed the way the editor is known to take them (`code --goto f:12`, `vim +12 f`,
//! `idea --line 12 f`, `subl f:12`).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::config::Env;

/// The variables read, first set wins.
const VARIABLES: [&str; 3] = ["COCOSEARCH_EDITOR", "VISUAL", "EDITOR"];

/// A configured editor command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Editor {
    /// The program (the first word).
    pub program: String,
    /// The words after it.
    pub args: Vec<String>,
    /// The variable it came from.
    pub variable: &'static str,
}

/// How an editor takes a file and a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineSyntax {
    /// `--goto FILE:LINE` (Visual Studio Code and its forks).
    Goto,
    /// `FILE:LINE` (Sublime Text, Zed, Helix, micro).
    Suffix,
    /// `--line LINE FILE` (JetBrains IDEs).
    LineFlag,
    /// `+LINE FILE` (vi, Vim, Neovim, Emacs, nano, Kakoune, gedit and most others).
    Plus,
}

/// The editor the environment names, if any (a variable set to nothing or to unbalanced
/// quotes counts as unset).
pub(crate) fn configured(env: &Env) -> Option<Editor> {
    VARIABLES.iter().find_map(|&variable| {
        let words = split_words(env.get(variable)?.trim())?;
        let (program, args) = words.split_first()?;
        Some(Editor { program: program.clone(), args: args.to_vec(), variable })
    })
}

impl Editor {
    /// The whole command line that opens `file` at `line`.
    pub fn command(&self, file: &Path, line: u32) -> Vec<String> {
        let file = file.display().to_string();
        let line = line.max(1).to_string();
        let mut words = vec![self.program.clone()];
        if self.args.iter().any(|a| a.contains("{file}") || a.contains("{line}")) {
            words.extend(self.args.iter().map(|a| a.replace("{file}", &file).replace("{line}", &line)));
            return words;
        }
        words.extend(self.args.iter().cloned());
        match syntax(&self.program) {
            LineSyntax::Goto => words.extend(["--goto".to_string(), format!("{file}:{line}")]),
            LineSyntax::Suffix => words.push(format!("{file}:{line}")),
            LineSyntax::LineFlag => words.extend(["--line".to_string(), line, file]),
            LineSyntax::Plus => words.extend([format!("+{line}"), file]),
        }
        words
    }

    /// Starts the editor on `file` at `line`, detached from the server's terminal, and returns
    /// the command it ran. The child is waited for on a thread of its own, so it never lingers
    /// as a zombie.
    pub fn open(&self, file: &Path, line: u32, cwd: &Path) -> std::io::Result<Vec<String>> {
        let words = self.command(file, line);
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let _ = std::thread::Builder::new().name("cocosearch-editor".into()).spawn(move || child.wait());
        Ok(words)
    }
}

/// How the program named `program` (a path or a name) takes a line.
fn syntax(program: &str) -> LineSyntax {
    let name = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or(program);
    let name = name.strip_suffix(".exe").unwrap_or(name).to_ascii_lowercase();
    match name.as_str() {
        "code" | "code-insiders" | "codium" | "vscodium" | "cursor" | "windsurf" => LineSyntax::Goto,
        "subl" | "sublime_text" | "zed" | "zeditor" | "hx" | "helix" | "micro" => LineSyntax::Suffix,
        "idea" | "idea.sh" | "pycharm" | "webstorm" | "goland" | "clion" | "rustrover" | "phpstorm" | "rubymine"
        | "studio" => LineSyntax::LineFlag,
        _ => LineSyntax::Plus,
    }
}

/// Splits `text` into words as a POSIX shell would, without expanding anything: whitespace
/// separates, '…' keeps everything, "…" keeps everything but `\"` and `\\`, and a backslash
/// outside quotes escapes the next character. `None` for unbalanced quotes or no words.
fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\') => word.push(c),
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    (!words.is_empty()).then_some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        Env::from_pairs(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    }

    fn command(editor: &str) -> Vec<String> {
        let editor = configured(&env(&[("EDITOR", editor)])).expect("configured");
        editor.command(Path::new("/p/my file.py"), 12)
    }

    #[test]
    fn the_first_variable_set_wins() {
        let both = env(&[("EDITOR", "vim"), ("VISUAL", "code --wait"), ("COCOSEARCH_EDITOR", "")]);
        let editor = configured(&both).expect("configured");
        assert_eq!((editor.program.as_str(), editor.variable), ("code", "VISUAL"));
        assert_eq!(configured(&env(&[("COCOSEARCH_EDITOR", "zed"), ("EDITOR", "vim")])).expect("set").program, "zed");
        assert_eq!(configured(&env(&[])), None);
        assert_eq!(configured(&env(&[("EDITOR", "'unbalanced")])), None);
    }

    #[test]
    fn each_editor_gets_the_line_its_way() {
        assert_eq!(command("code --wait"), ["code", "--wait", "--goto", "/p/my file.py:12"]);
        assert_eq!(command("/usr/bin/nvim"), ["/usr/bin/nvim", "+12", "/p/my file.py"]);
        assert_eq!(command("subl"), ["subl", "/p/my file.py:12"]);
        assert_eq!(command("idea"), ["idea", "--line", "12", "/p/my file.py"]);
        assert_eq!(command("kitty --hold vim +{line} {file}"), ["kitty", "--hold", "vim", "+12", "/p/my file.py"]);
    }

    #[test]
    fn words_split_like_a_shell_without_expansion() {
        let split = |s: &str| split_words(s).expect("words");
        assert_eq!(
            split(r#"'/Applications/My Editor' -a "x \"y\"" a\ b $HOME"#),
            ["/Applications/My Editor", "-a", "x \"y\"", "a b", "$HOME"]
        );
        assert_eq!(split("  vim  "), ["vim"]);
        assert_eq!(split_words("   "), None);
        assert_eq!(split_words("\"open"), None);
        assert_eq!(split("''"), [""]);
    }
}
