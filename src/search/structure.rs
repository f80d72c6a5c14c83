//! What a long question says about the code beyond its words: a pasted bug report, a failing
//! test's output or a description of a change names files, functions and messages, and a
//! code index knows each of them exactly.
//!
//! [`read`] finds, in the question's text:
//! - **traceback frames** (Python's `File "…", line N, in f`, pytest's `path.py:N: in f`,
//!   Java's `at a.B.f(B.java:N)`, JavaScript's `at f (file.js:N:M)`, Go's and Rust's
//!   `path.go:N`), innermost last as they are printed, and links to a file's line on a code
//!   host (`https://github.com/o/r/blob/<ref>/src/models.py#L401`, GitLab's `/-/blob/`);
//! - **messages**: the text after an exception's name (`ValueError: invalid literal …`), which
//!   is a string literal at the place that raises it;
//! - **names** used as code: in code blocks (fenced, indented, or an interpreter's `>>>`
//!   lines), between backticks, and in prose when they look like code (`get_user_by_id`,
//!   `Session.send`, `parse()`), each with where it was seen and whether it was called.
//!
//! Reading is pure and never fails: text that fits no rule adds nothing.

use std::sync::LazyLock;

use regex::Regex;

/// What a question says about code.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structure {
    /// Traceback frames, in the order printed (Python and pytest: innermost last).
    pub frames: Vec<Frame>,
    /// Error messages quoted, without the exception's name.
    pub messages: Vec<String>,
    /// Names used as code, each once (its strongest sighting), in order of first sighting.
    pub names: Vec<Name>,
}

/// One frame of a traceback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The file as printed (absolute, relative, or a module path).
    pub path: String,
    /// The line, when printed.
    pub line: Option<u32>,
    /// The function, when printed (`<module>` is none).
    pub function: Option<String>,
}

impl Structure {
    /// Whether the text named nothing as code.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty() && self.messages.is_empty() && self.names.is_empty()
    }

    /// The functions its frames name and the last segments of its names, lowercase.
    pub fn named_lowercase(&self) -> std::collections::HashSet<String> {
        let frames = self.frames.iter().filter_map(|f| f.function.as_deref());
        frames.chain(self.names.iter().map(Name::last)).map(str::to_lowercase).collect()
    }
}

/// Where a name was seen; the earlier variants say more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seen {
    /// In a traceback frame, as its function.
    Frame,
    /// In a code block.
    Code,
    /// Between backticks.
    Backticks,
    /// In prose, shaped like code.
    Prose,
}

/// A name used as code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// As written, with `::` and `->` written `.` (`xr.Dataset.to_netcdf`, `Foo.bar`).
    pub dotted: String,
    /// Where it was seen first at its strongest.
    pub seen: Seen,
    /// Whether it was called (`f(`) anywhere.
    pub called: bool,
}

impl Name {
    /// Its last segment (`to_netcdf`).
    pub fn last(&self) -> &str {
        self.dotted.rsplit('.').next().unwrap_or(&self.dotted)
    }

    /// The segment before its last when that is named like a type (`Settings` of
    /// `Settings.PreferTypeHandlersForEnums`, `Session` of `requests.Session.foo`): what holds
    /// the member. `None` for an undotted name or a lowercase qualifier (`os.path.join`).
    pub fn container(&self) -> Option<&str> {
        let mut segments = self.dotted.rsplit('.');
        segments.next()?;
        segments.next().filter(|s| s.len() > 1 && s.starts_with(|c: char| c.is_ascii_uppercase()))
    }
}

/// The most names kept: a question of thousands of lines names what matters early.
const MAX_NAMES: usize = 64;
/// The most messages kept.
const MAX_MESSAGES: usize = 8;

static PYTHON_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"File "([^"\n]+)", line (\d+)(?:, in ([\w<>.]+))?"#).unwrap_or_else(|e| unreachable!("{e}"))
});
static PYTEST_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*([\w./\\-]+\.py):(\d+):(?: in ([\w<>.]+))?").unwrap_or_else(|e| unreachable!("{e}"))
});
static JAVA_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bat ((?:[\w$]+\.)+)([\w$<>]+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\)")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static JS_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bat ([\w$.<>]+) \(([^()\s]+?\.[cm]?[jt]sx?):(\d+)(?::\d+)?\)").unwrap_or_else(|e| unreachable!("{e}"))
});
static PATH_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([\w./\\-]+\.(?:go|rs|rb|php|c|cc|cpp|h|hpp|cs|swift|ex|exs|hs|lua|zig|scala|kt)):(\d+)")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
/// A link to a file (and a line) on a code host: the path after `/blob/` or `/blame/` starts
/// with the ref, which matching by trailing components ignores.
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"https?://[^\s()\[\]<>]+?/(?:-/)?(?:blob|blame)/([^\s#?()\[\]<>]+)(?:\?[^\s#()\[\]<>]*)?(?:#L(\d+))?")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)\b([A-Z]\w*(?:Error|Exception|Warning|Failure|Fault)):[ \t]+([^\n]{3,300})$")
        .unwrap_or_else(|e| unreachable!("{e}"))
});
static CODE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|->)[A-Za-z_][A-Za-z0-9_]*)*(\s*\()?")
        .unwrap_or_else(|e| unreachable!("{e}"))
});

/// Reads what `text` says about code (see the module's documentation).
pub fn read(text: &str) -> Structure {
    let mut structure = Structure::default();
    read_frames(text, &mut structure.frames);
    for caps in MESSAGE.captures_iter(text) {
        let message = caps[2].trim().trim_end_matches(['.', ':']).trim().to_string();
        if message.split_whitespace().count() >= 2 && !structure.messages.contains(&message) {
            structure.messages.push(message);
        }
    }
    structure.messages.truncate(MAX_MESSAGES);
    let mut names = Names::default();
    for frame in &structure.frames {
        if let Some(function) = &frame.function {
            names.add(function, Seen::Frame, true);
        }
    }
    let (code, prose) = split_code(text);
    for block in &code {
        for (name, called) in shaped_names(block) {
            names.add(&name, Seen::Code, called);
        }
    }
    for quoted in backticked(&prose) {
        for (name, called) in code_names(quoted) {
            names.add(&name, Seen::Backticks, called);
        }
    }
    for (name, called) in shaped_names(&prose) {
        names.add(&name, Seen::Prose, called);
    }
    structure.names = names.into_list();
    structure
}

/// The frames of every traceback format in `text`, in the order printed.
fn read_frames(text: &str, frames: &mut Vec<Frame>) {
    let mut found: Vec<(usize, Frame)> = Vec::new();
    for caps in PYTHON_FRAME.captures_iter(text) {
        found.push((
            caps.get(0).map_or(0, |m| m.start()),
            frame(&caps[1], caps.get(2), caps.get(3).map(|m| m.as_str())),
        ));
    }
    for caps in PYTEST_FRAME.captures_iter(text) {
        found.push((
            caps.get(0).map_or(0, |m| m.start()),
            frame(&caps[1], caps.get(2), caps.get(3).map(|m| m.as_str())),
        ));
    }
    for caps in JAVA_FRAME.captures_iter(text) {
        let class = caps[1].trim_end_matches('.');
        let function = format!("{}.{}", class.rsplit('.').next().unwrap_or(class), &caps[2]);
        let path =
            format!("{}/{}", class.rsplit_once('.').map_or("", |(package, _)| package).replace('.', "/"), &caps[3]);
        found.push((caps.get(0).map_or(0, |m| m.start()), frame(&path, caps.get(4), Some(&function))));
    }
    for caps in JS_FRAME.captures_iter(text) {
        found.push((caps.get(0).map_or(0, |m| m.start()), frame(&caps[2], caps.get(3), Some(&caps[1]))));
    }
    for caps in LINK.captures_iter(text) {
        found.push((caps.get(0).map_or(0, |m| m.start()), frame(&caps[1], caps.get(2), None)));
    }
    for caps in PATH_LINE.captures_iter(text) {
        found.push((caps.get(0).map_or(0, |m| m.start()), frame(&caps[1], caps.get(2), None)));
    }
    found.sort_by_key(|(at, _)| *at);
    for (_, f) in found {
        if !frames.contains(&f) {
            frames.push(f);
        }
    }
}

fn frame(path: &str, line: Option<regex::Match<'_>>, function: Option<&str>) -> Frame {
    let function = function.filter(|f| !f.starts_with('<')).map(str::to_string);
    Frame { path: path.replace('\\', "/"), line: line.and_then(|l| l.as_str().parse().ok()), function }
}

/// The code regions of `text` (fenced blocks, indented blocks after a blank line, and an
/// interpreter's `>>>` lines) and the prose around them.
fn split_code(text: &str) -> (Vec<String>, String) {
    let mut code: Vec<String> = Vec::new();
    let mut prose = String::new();
    let mut fenced: Option<String> = None;
    let (mut previous_blank, mut in_indented, mut after_frame) = (true, false, false);
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            match fenced.take() {
                Some(block) => code.push(block),
                None => fenced = Some(String::new()),
            }
            continue;
        }
        if let Some(block) = fenced.as_mut() {
            block.push_str(line);
            block.push('\n');
            continue;
        }
        let interpreter = trimmed.starts_with(">>> ") || trimmed.starts_with("... ");
        let indented = (line.starts_with("    ") || line.starts_with('\t')) && !trimmed.is_empty();
        in_indented = indented && (previous_blank || in_indented);
        // A traceback's frames and the source lines printed under them.
        let frame_line = trimmed.starts_with("File \"") || trimmed.starts_with("Traceback (");
        let under_frame = std::mem::replace(&mut after_frame, frame_line) && indented;
        if interpreter || in_indented || frame_line || under_frame {
            code.push(line.to_string());
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
        previous_blank = trimmed.is_empty();
    }
    if let Some(block) = fenced {
        code.push(block);
    }
    (code, prose)
}

/// The spans of `text` between single backticks.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).filter(|s| !s.is_empty() && s.len() <= 200).collect()
}

/// The names in `text` that are shaped like code ([`looks_like_code`]): not plain words (a
/// code block holds output and prose too, and keyword search has its words anyway), not the
/// parts of a path (`/usr/lib/…`) nor file names (`sessions.py`, which name files, not code).
fn shaped_names(prose: &str) -> Vec<(String, bool)> {
    captured(prose)
        .filter_map(|(start, name, called)| {
            let before = prose[..start].chars().next_back();
            let after = prose[start + name.len()..].chars().next();
            let in_path = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "_$/\\-".contains(c));
            if in_path(before) || after.is_some_and(|c| "/\\-".contains(c)) || super::paths::is_file_name(name) {
                return None;
            }
            let shaped = if called { format!("{name}()") } else { name.to_string() };
            let dotted = name.replace("::", ".").replace("->", ".");
            (looks_like_code(&shaped) && !is_noise(&dotted)).then_some((dotted, called))
        })
        .collect()
}

/// Each name [`CODE_NAME`] finds in `text`: where it starts, the name without its `(`, and
/// whether it is called there.
fn captured(text: &str) -> impl Iterator<Item = (usize, &str, bool)> {
    CODE_NAME.captures_iter(text).filter_map(|caps| {
        let whole = caps.get(0)?;
        let name = whole.as_str().trim_end_matches(|c: char| c == '(' || c.is_whitespace());
        Some((whole.start(), name, caps.get(1).is_some()))
    })
}

/// Whether a prose word is shaped like code: a call, a dotted or `::` path, snake_case with an
/// inner underscore, or camelCase.
fn looks_like_code(word: &str) -> bool {
    let word = word.trim_end_matches(['.', ':']);
    if word.len() < 3 || !word.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        return false;
    }
    let call = word.ends_with("()") || word.ends_with('(');
    let dotted = word.split(['.', ':']).filter(|p| !p.is_empty()).count() > 1
        && word
            .split(['.', ':'])
            .filter(|p| !p.is_empty())
            .all(|p| p.starts_with(|c: char| c.is_alphabetic() || c == '_'));
    let snake = word.trim_matches('_').contains('_');
    let camel = word.chars().zip(word.chars().skip(1)).any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    call || dotted || snake || camel
}

/// The names in a piece of code, each with whether it is called right there.
fn code_names(code: &str) -> Vec<(String, bool)> {
    captured(code)
        .filter_map(|(start, name, called)| {
            // Inside a string or a number's exponent (`1e10`): the character before decides.
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                return None;
            }
            let dotted = name.replace("::", ".").replace("->", ".");
            (!is_noise(&dotted) && !super::paths::is_file_name(&dotted)).then_some((dotted, called))
        })
        .collect()
}

/// Words every language and every report uses, which name nothing particular.
fn is_noise(name: &str) -> bool {
    const NOISE: &[&str] = &[
        "self",
        "cls",
        "this",
        "def",
        "class",
        "return",
        "import",
        "from",
        "as",
        "if",
        "else",
        "elif",
        "for",
        "while",
        "in",
        "is",
        "not",
        "and",
        "or",
        "None",
        "True",
        "False",
        "null",
        "true",
        "false",
        "let",
        "const",
        "var",
        "fn",
        "pub",
        "func",
        "function",
        "new",
        "print",
        "len",
        "str",
        "int",
        "list",
        "dict",
        "set",
        "tuple",
        "type",
        "object",
        "range",
        "with",
        "try",
        "except",
        "finally",
        "raise",
        "assert",
        "lambda",
        "yield",
        "await",
        "async",
        "pass",
        "break",
        "continue",
        "global",
        "the",
        "a",
        "an",
        "to",
        "of",
        "it",
        "be",
        "at",
        "on",
        "by",
        "or",
        "use",
        "Traceback",
        "most",
        "recent",
        "call",
        "last",
        "File",
        "line",
        "error",
        "Error",
        "test",
        "py",
        "pip",
        "python",
        "python3",
        "echo",
        "cd",
        "git",
        "sudo",
        "run",
        "main",
    ];
    let last = name.rsplit('.').next().unwrap_or(name);
    name.len() < 2 || NOISE.contains(&name) || (NOISE.contains(&last) && !name.contains('.'))
}

/// Names collected, each once at its strongest sighting.
#[derive(Default)]
struct Names(Vec<Name>);

impl Names {
    fn add(&mut self, name: &str, seen: Seen, called: bool) {
        // `self.send` names the method `send` of the class the code is in.
        let name = ["self.", "cls.", "this.", "$this."].iter().fold(name, |n, p| n.strip_prefix(p).unwrap_or(n));
        let dotted = name.trim_matches('.').to_string();
        if dotted.is_empty() {
            return;
        }
        if let Some(known) = self.0.iter_mut().find(|n| n.dotted == dotted) {
            known.seen = known.seen.min(seen);
            known.called |= called;
        } else if self.0.len() < MAX_NAMES {
            self.0.push(Name { dotted, seen, called });
        }
    }

    fn into_list(self) -> Vec<Name> {
        self.0
    }
}

#[cfg(test)]
mod tests;
