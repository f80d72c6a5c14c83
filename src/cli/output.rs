//! Terminal output: colour decisions, styles, and writing that survives a closed pipe.

use crate::workspace::DownloadProgress;
use crate::workspace::stats::{SkipCounts, SkipReason};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

use console::Style;

use super::args::ColorChoice;

/// How to print: colours, verbosity, whether stdout is a terminal.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    /// Colour on stdout.
    pub color: bool,
    /// `-q`.
    pub quiet: bool,
    /// `-v` count.
    pub verbose: u8,
    /// stdout is a terminal.
    pub stdout_tty: bool,
    /// stderr is a terminal (progress bars go there).
    pub stderr_tty: bool,
}

impl Ui {
    /// Decides colours from `--color`, NO_COLOR and whether the streams are terminals, and
    /// tells `console` so every styled string follows the decision.
    pub fn new(choice: ColorChoice, no_color_env: bool, quiet: bool, verbose: u8) -> Ui {
        let stdout_tty = std::io::stdout().is_terminal();
        let stderr_tty = std::io::stderr().is_terminal();
        let (color_out, color_err) = match choice {
            ColorChoice::Always => (true, true),
            ColorChoice::Never => (false, false),
            ColorChoice::Auto => (stdout_tty && !no_color_env, stderr_tty && !no_color_env),
        };
        console::set_colors_enabled(color_out);
        console::set_colors_enabled_stderr(color_err);
        Ui { color: color_out, quiet, verbose, stdout_tty, stderr_tty }
    }

    /// Whether a model download may draw its progress bar (on stderr; never with `-q`).
    pub fn download_progress(&self) -> DownloadProgress {
        if self.quiet { DownloadProgress::Hidden } else { DownloadProgress::Stderr }
    }

    /// Green check mark.
    pub fn ok(&self) -> console::StyledObject<&'static str> {
        Style::new().green().bold().apply_to("✓")
    }

    /// Red cross.
    pub fn fail(&self) -> console::StyledObject<&'static str> {
        Style::new().red().bold().apply_to("✗")
    }

    /// A dim style for secondary text.
    pub fn dim(&self) -> Style {
        Style::new().dim()
    }

    /// A bold style for headings.
    pub fn bold(&self) -> Style {
        Style::new().bold()
    }
}

/// `eprintln!` that never panics: where `eprintln!` ends the process with a panic (exit code
/// 101) when stderr is closed (`2>&-`, a reader that went away), the line is lost instead.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::output::to_stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use errln;

/// Writes `text` to stderr, as it is; a stderr that cannot be written loses it.
pub fn to_stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Writes `text` to stdout. A closed pipe (`cocosearch ... | head`) is not an error worth a
/// message; the caller maps it to a quiet exit.
pub fn print(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes `value` as pretty JSON and a newline to stdout.
pub fn print_json(value: &serde_json::Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    print(&text)
}

/// One line of text from indexed data (a file name, a symbol, a branch, a task's title) made
/// safe for a terminal: every control character — C0 including newline and tab, DEL, C1 — is
/// shown as a visible escape (`\x1b`, `\u{9b}`), so a file named `\x1b]0;pwned\x07` cannot
/// retitle the window or clear the screen, whatever `--color` says and wherever the output
/// goes (a pipe often ends in a terminal: `| less -R`, `| cat`); so is every invisible format
/// character that reorders or hides text (bidirectional overrides and isolates such as U+202E,
/// zero-width spaces and joiners, the byte order mark), so what is shown is what is there.
/// JSON output needs none of this: its escaping is already exact and safe.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, |_, _| false)
}

/// [`visible`] for text laid out in lines (file content): newlines and tabs are layout and
/// stay, as does a carriage return that ends a line; every other control character is escaped.
pub fn visible_lines(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, |c, next| matches!(c, '\n' | '\t') || (c == '\r' && next == Some('\n')))
}

/// Bytes of a file's line (`grep`: not always UTF-8) made safe for a terminal as
/// [`visible_lines`] makes text: valid UTF-8 goes through it, a byte that is not UTF-8 stays as
/// it is (rg writes a file's bytes as they are, and a terminal shows them as a replacement
/// character), except one a terminal may take for a C1 control (0x80 to 0x9f), shown as
/// `\x9b`. A carriage return ending the line (a CRLF file) stays too.
pub fn visible_bytes(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let (body, cr) = match bytes.strip_suffix(b"\r") {
        Some(body) => (body, true),
        None => (bytes, false),
    };
    let safe = |b: &u8| b.is_ascii() && !b.is_ascii_control() || *b == b'\t';
    if body.iter().all(safe) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    for chunk in body.utf8_chunks() {
        out.extend_from_slice(visible_lines(chunk.valid()).as_bytes());
        for &b in chunk.invalid() {
            if (0x80..=0x9f).contains(&b) {
                out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
            } else {
                out.push(b);
            }
        }
    }
    if cr {
        out.push(b'\r');
    }
    std::borrow::Cow::Owned(out)
}

/// A character a terminal does not show as itself: a control, or an invisible format
/// character that reorders or hides the text around it.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

fn escape_controls(text: &str, keep: impl Fn(char, Option<char>) -> bool) -> std::borrow::Cow<'_, str> {
    let needs = hidden;
    if !text.chars().any(needs) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !needs(c) || keep(c, chars.peek().copied()) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `n` with thousands separators: `12,345`.
pub fn number(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and `word`, in the plural unless `n` is 1: `1 chunk`, `14 matches`, `2 indexes`,
/// `3 more files` (the last word takes the ending).
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        return format!("1 {word}");
    }
    if let Some(stem) = word.strip_suffix('y').filter(|stem| !stem.ends_with(['a', 'e', 'o', 'u'])) {
        return format!("{} {stem}ies", number(n));
    }
    let sibilant = ["s", "x", "z", "ch", "sh"].iter().any(|end| word.ends_with(end));
    format!("{} {word}{}", number(n), if sibilant { "es" } else { "s" })
}

/// A size for people: `12.3 MB` (binary multiples, as `ls -h` and `du -h` count).
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{n} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

/// `12 excluded · 3 binary`: the non-zero skip counts, or `None` when nothing was skipped.
pub fn skipped_summary(skipped: &SkipCounts) -> Option<String> {
    let parts: Vec<String> = SkipReason::ALL
        .iter()
        .filter(|r| skipped.get(**r) > 0)
        .map(|r| format!("{} {}", number(skipped.get(*r)), r.label()))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Pads `text` to `width` display columns.
pub fn pad(text: &str, width: usize) -> String {
    console::pad_str(text, width, console::Alignment::Left, None).into_owned()
}

/// stderr for log lines, with every URL in them redacted: logs quote errors from HTTP clients
/// and drivers, and those quote the URL they called. The log formatter writes one event per
/// `write` call, so a URL is never split between two calls.
pub struct RedactedStderr;

impl Write for RedactedStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        std::io::stderr().lock().write_all(crate::config::redact_text(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(visible("plain.py"), "plain.py");
        assert!(matches!(visible("plain.py"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(visible("a\u{1b}]0;pwned\u{7}b\tc\nd\u{7f}\u{9b}"), "a\\x1b]0;pwned\\x07b\\x09c\\x0ad\\x7f\\u{9b}");
        assert_eq!(visible_lines("\tx = 1\r\n\u{1b}[2J\ry\n"), "\tx = 1\r\n\\x1b[2J\\x0dy\n");
        assert_eq!(visible("ünïcödé ✓"), "ünïcödé ✓");
        assert_eq!(visible("abc\u{202e}fed\u{200b}"), "abc\\u{202e}fed\\u{200b}");
        assert_eq!(visible_bytes(b"caf\xe9 \x1b[2J\x9b\r").as_ref(), b"caf\xe9 \\x1b[2J\\x9b\r");
        assert_eq!(visible_bytes(b"\tplain\r").as_ref(), b"\tplain\r");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(plural(1, "chunk"), "1 chunk");
        assert_eq!(plural(0, "chunk"), "0 chunks");
        assert_eq!(plural(14, "match"), "14 matches");
        assert_eq!(plural(2, "index"), "2 indexes");
        assert_eq!(plural(3, "directory"), "3 directories");
        assert_eq!(plural(3, "key"), "3 keys");
        assert_eq!(plural(1_200, "more file"), "1,200 more files");
    }
}
