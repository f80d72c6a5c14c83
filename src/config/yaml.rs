//! Finding, reading and checking `cocosearch.yaml`.
//!
//! The file is parsed with serde_yaml (the YAML stack figment uses), `${VAR}` and
//! `${VAR:-default}` are substituted inside string values, and every key is checked against
//! the registry before anything is merged, so an unknown or misspelt key is reported with its
//! file, line and the closest valid key instead of being silently ignored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::compat;
use super::env::Env;
use super::error::{ConfigError, Source};
use super::registry::{self, SECTIONS};

/// The file names looked for in the project, in order.
pub const FILE_NAMES: &[&str] = &["cocosearch.yaml", "cocosearch.yml"];

/// How the config file in force was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOrigin {
    /// `--config FILE`.
    Flag,
    /// `COCOSEARCH_CONFIG`.
    Env,
    /// Found by walking up from the working directory to the git root.
    Discovered,
    /// The user's own settings for every project ([`user_file`]).
    User,
}

impl std::fmt::Display for FileOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileOrigin::Flag => "--config",
            FileOrigin::Env => "env COCOSEARCH_CONFIG",
            FileOrigin::Discovered => "discovered",
            FileOrigin::User => "user settings",
        })
    }
}

/// A parsed, checked config file: raw values by dotted key, with their lines.
#[derive(Debug)]
pub struct YamlFile {
    /// The file.
    pub path: PathBuf,
    /// Values by dotted key, after `${VAR}` substitution.
    pub values: Vec<(String, serde_yaml::Value)>,
    /// The 1-based line of each dotted key.
    pub lines: HashMap<String, usize>,
    /// CocoSearch's keys set in the file that have no effect here, as written.
    pub no_effect: Vec<String>,
    /// What is wrong with the file, in the order met; resolution reports them all at once.
    pub problems: Vec<ConfigError>,
    /// The keys left out because the file is not trusted (`config show` of such a file).
    pub left_out: Vec<String>,
}

impl YamlFile {
    /// Where `key` is set in this file.
    pub fn source(&self, key: &str) -> Source {
        Source::File { path: self.path.clone(), line: self.lines.get(key).copied() }
    }
}

/// The user's configuration file, when it exists: `config.yaml` in the platform's configuration
/// directory (`$XDG_CONFIG_HOME/cocosearch` or `~/.config/cocosearch` on Linux,
/// `~/Library/Application Support/cocosearch` on macOS, `%APPDATA%\\cocosearch` on Windows).
/// It sits between the environment and the project's file: what one person sets once for every
/// project (a local model directory, a store) instead of exporting it in every shell, and it is
/// theirs, so it is always trusted.
pub fn user_file() -> Option<PathBuf> {
    dirs::config_dir().map(|dir| dir.join("cocosearch").join("config.yaml")).filter(|path| path.is_file())
}

/// The config file in force: `--config`, else `COCOSEARCH_CONFIG`, else the nearest
/// `cocosearch.yaml` from `start` up to the git root (only `start` itself outside git).
pub fn locate(flag: Option<&Path>, env: &Env, start: &Path) -> Result<Option<(PathBuf, FileOrigin)>, ConfigError> {
    let explicit = flag.map(|p| (p.to_path_buf(), FileOrigin::Flag)).or_else(|| {
        env.get("COCOSEARCH_CONFIG").filter(|v| !v.is_empty()).map(|v| (PathBuf::from(v), FileOrigin::Env))
    });
    if let Some((path, origin)) = explicit {
        let path = if path.is_relative() { start.join(path) } else { path };
        if !path.is_file() {
            return Err(ConfigError::Missing { path, origin: origin.to_string() });
        }
        return Ok(Some((path, origin)));
    }
    let stop = super::git_root(start);
    // A repository's own file must not be a link to a file elsewhere (its content would show
    // in error messages, for MCP clients too): found files stay inside the tree searched.
    let boundary = stop.as_deref().unwrap_or(start);
    let boundary = boundary.canonicalize().unwrap_or_else(|_| boundary.to_path_buf());
    for dir in start.ancestors() {
        for name in FILE_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                if candidate.canonicalize().is_ok_and(|real| !real.starts_with(&boundary)) {
                    return Err(ConfigError::LinkOutside(candidate));
                }
                return Ok(Some((candidate, FileOrigin::Discovered)));
            }
        }
        if stop.as_deref().is_none_or(|root| root == dir) {
            break;
        }
    }
    Ok(None)
}

/// The text of the configuration file at `path` (at most [`MAX_BYTES`] of it and one more
/// byte: a larger file is refused by [`parse`]).
pub fn read(path: &Path) -> Result<String, ConfigError> {
    use std::io::Read as _;
    let failed = |source| ConfigError::Read { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(failed)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(failed)?;
    String::from_utf8(bytes).map_err(|e| failed(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())))
}

/// The largest configuration file read: a settings file is a few kilobytes.
pub const MAX_BYTES: usize = 1 << 20;
/// The deepest nesting of flow collections (`[`, `{`) a file may have: settings nest two or
/// three deep. The YAML parser's cost grows with the square of the nesting (200 KB of `[` took
/// 48 s of CPU before it gave up), so deeper files are refused before it runs.
pub const MAX_NESTING: usize = 64;
/// The most flow collections a file may open in all: a bound that holds however the
/// nesting is disguised.
pub const MAX_COLLECTIONS: usize = 4096;

/// Refuses a file too large or too deeply nested to be worth parsing, in one pass over its
/// text: what [`parse`] checks first, so a hostile file costs milliseconds, not the parser's
/// quadratic time.
fn check_shape(path: &Path, text: &str) -> Result<(), ConfigError> {
    let refuse = |message: String| ConfigError::Invalid {
        location: path.display().to_string(),
        key: "(document)".into(),
        message,
    };
    if text.len() > MAX_BYTES {
        return Err(refuse(format!(
            "the file is larger than {} KiB — a settings file is a few lines",
            MAX_BYTES >> 10
        )));
    }
    let (deepest, opened) = flow_nesting(text);
    if deepest > MAX_NESTING || opened > MAX_COLLECTIONS {
        return Err(refuse(format!(
            "lists and mappings nested {deepest} deep ({opened} in all) — settings nest a few levels at most (the limits: {MAX_NESTING} deep, {MAX_COLLECTIONS} in all)"
        )));
    }
    Ok(())
}

/// The deepest nesting of flow collections in `text`, and how many it opens: brackets in
/// comments and in quoted strings do not count (a quote starts a string only where YAML
/// starts one, after an indicator or at the start of a line).
fn flow_nesting(text: &str) -> (usize, usize) {
    #[derive(PartialEq)]
    enum In {
        Plain,
        Single,
        Double,
    }
    let (mut depth, mut deepest, mut opened) = (0usize, 0usize, 0usize);
    let mut state = In::Plain;
    // The line's last character that is not a blank (where a quote may start), and whether
    // the character before is a blank or the line's start (where a comment may start).
    let (mut last, mut blank_before): (Option<char>, bool) = (None, true);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            In::Single if c == '\'' => {
                if chars.peek() == Some(&'\'') {
                    chars.next();
                } else {
                    state = In::Plain;
                }
            }
            In::Double if c == '\\' => {
                chars.next();
            }
            In::Double if c == '"' => state = In::Plain,
            In::Single | In::Double => {}
            In::Plain => match c {
                '#' if blank_before => while chars.next_if(|&n| n != '\n').is_some() {},
                '[' | '{' => {
                    depth += 1;
                    opened += 1;
                    deepest = deepest.max(depth);
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                '\'' | '"' if last.is_none_or(|b| matches!(b, ':' | '-' | '[' | '{' | ',' | '?')) => {
                    state = if c == '"' { In::Double } else { In::Single };
                }
                _ => {}
            },
        }
        blank_before = matches!(c, ' ' | '\t' | '\n');
        match c {
            '\n' => last = None,
            ' ' | '\t' => {}
            other => last = Some(other),
        }
    }
    (deepest, opened)
}

/// Which environment variables `${VAR}` may expand in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion {
    /// Any: the user named the file (`--config`, `COCOSEARCH_CONFIG`).
    AnyVariable,
    /// Only `COCOSEARCH_*`: the file was found in the project, which may be a repository
    /// someone else wrote, and must not be able to copy secrets from the environment into a
    /// URL or key it controls.
    CocosearchOnly,
    /// Only `COCOSEARCH_*` variables that hold no secret: a project file the user has not
    /// trusted (`config::trust`).
    CocosearchPublic,
}

impl FileOrigin {
    /// What a file of this origin may expand.
    pub fn expansion(&self) -> Expansion {
        match self {
            FileOrigin::Flag | FileOrigin::Env | FileOrigin::User => Expansion::AnyVariable,
            FileOrigin::Discovered => Expansion::CocosearchOnly,
        }
    }
}

/// Parses, substitutes and checks the text of a config file.
///
/// Only a file that is not YAML, or not a mapping, fails here. Every other problem (an unknown
/// key, a section that is not a mapping, an unexpandable variable) is collected in
/// [`YamlFile::problems`], so one run reports them all. CocoSearch's keys are accepted
/// (`compat.rs`): those with an equivalent become that setting, the others are listed in
/// [`YamlFile::no_effect`].
pub fn parse(path: &Path, text: &str, env: &Env, expansion: Expansion) -> Result<YamlFile, ConfigError> {
    check_shape(path, text)?;
    let lines = key_lines(text);
    let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        ConfigError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        }
    })?;
    let mut file = YamlFile {
        path: path.to_path_buf(),
        values: Vec::new(),
        lines,
        no_effect: Vec::new(),
        problems: Vec::new(),
        left_out: Vec::new(),
    };
    let top = match doc {
        serde_yaml::Value::Null => return Ok(file),
        serde_yaml::Value::Mapping(map) => map,
        _ => {
            return Err(ConfigError::Invalid {
                location: path.display().to_string(),
                key: "(document)".into(),
                message: "expected a mapping of settings, like `indexName: myproject`".into(),
            });
        }
    };
    for (key, value) in top {
        let key = match key_name(&file, &key, "") {
            Ok(key) => key,
            Err(problem) => {
                file.problems.push(problem);
                continue;
            }
        };
        let is_section = SECTIONS.contains(&key.as_str()) || compat::COCOSEARCH_ONLY_SECTIONS.contains(&key.as_str());
        if !is_section {
            file.add(key, value, env, expansion);
            continue;
        }
        match value {
            serde_yaml::Value::Null => {}
            serde_yaml::Value::Mapping(children) => {
                for (child, value) in children {
                    match key_name(&file, &child, &key) {
                        Ok(child) => file.add(format!("{key}.{child}"), value, env, expansion),
                        Err(problem) => file.problems.push(problem),
                    }
                }
            }
            _ => file.problems.push(ConfigError::Invalid {
                location: ConfigError::location(&file.source(&key)),
                key,
                message: "expected a section of settings (a mapping)".into(),
            }),
        }
    }
    Ok(file)
}

impl YamlFile {
    /// Adds the value of the dotted key `key` as written: a setting of ours or CocoSearch's
    /// equivalent becomes a value, a CocoSearch key without effect is noted, anything else is
    /// an unknown key.
    fn add(&mut self, key: String, value: serde_yaml::Value, env: &Env, expansion: Expansion) {
        let ours = match (registry::lookup(&key), compat::cocosearch_key(&key)) {
            (Some(def), _) => def.key,
            (None, Some(compat::Here::Sets(ours))) => ours,
            (None, Some(compat::Here::NoEffect)) => {
                self.no_effect.push(key);
                return;
            }
            (None, None) => {
                self.problems.push(ConfigError::UnknownKey {
                    location: ConfigError::location(&self.source(&key)),
                    suggestion: registry::suggest(&key),
                    key,
                });
                return;
            }
        };
        if ours != key
            && let Some(line) = self.lines.get(&key).copied()
        {
            self.lines.insert(ours.to_string(), line);
        }
        match substitute_value(value, env, expansion, self, ours) {
            Ok(value) => self.values.push((ours.to_string(), value)),
            Err(problem) => self.problems.push(problem),
        }
    }
}

fn key_name(file: &YamlFile, key: &serde_yaml::Value, parent: &str) -> Result<String, ConfigError> {
    match key {
        serde_yaml::Value::String(s) => Ok(s.clone()),
        other => Err(ConfigError::Invalid {
            location: file.path.display().to_string(),
            key: if parent.is_empty() { format!("{other:?}") } else { format!("{parent}.{other:?}") },
            message: "keys must be strings".into(),
        }),
    }
}

fn substitute_value(
    value: serde_yaml::Value,
    env: &Env,
    expansion: Expansion,
    file: &YamlFile,
    key: &str,
) -> Result<serde_yaml::Value, ConfigError> {
    Ok(match value {
        serde_yaml::Value::String(s) => {
            let location = || ConfigError::location(&file.source(key));
            if expansion != Expansion::AnyVariable
                && let Some(var) = references(&s).into_iter().find(|v| !v.starts_with("COCOSEARCH_"))
            {
                return Err(ConfigError::ForeignVariable { location: location(), var });
            }
            if expansion == Expansion::CocosearchPublic
                && let Some(var) = references(&s).into_iter().find(|v| holds_secret(v))
            {
                return Err(ConfigError::SecretVariable { location: location(), key: key.to_string(), var });
            }
            serde_yaml::Value::String(
                substitute(&s, env).map_err(|var| ConfigError::UnsetVariable { location: location(), var })?,
            )
        }
        serde_yaml::Value::Sequence(items) => serde_yaml::Value::Sequence(
            items
                .into_iter()
                .map(|item| substitute_value(item, env, expansion, file, key))
                .collect::<Result<_, _>>()?,
        ),
        other => other,
    })
}

/// Whether the variable `name` sets a secret setting (an API key, a token, a URL that may carry
/// a password).
fn holds_secret(name: &str) -> bool {
    registry::SETTINGS
        .iter()
        .any(|def| def.secret != registry::Secret::No && (def.env_var() == name || def.env_aliases.contains(&name)))
}

/// The variables `text` references as `${VAR}` or `${VAR:-default}`.
fn references(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        let name = after[..end].split(":-").next().unwrap_or_default();
        if is_variable_name(name) {
            names.push(name.to_string());
        }
        rest = &after[end + 1..];
    }
    names
}

fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// Expands `${VAR}` and `${VAR:-default}` in `text`; `Err(var)` names an unset variable
/// referenced without a default. Text that is not a well-formed reference is kept as is.
pub fn substitute(text: &str, env: &Env) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        if !is_variable_name(name) {
            out.push_str(&rest[start..start + 2 + end + 1]);
        } else {
            match (env.get(name).filter(|v| !v.is_empty() || default.is_none()), default) {
                (Some(value), _) => out.push_str(value),
                (None, Some(default)) => out.push_str(default),
                (None, None) => return Err(name.to_string()),
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Maps each dotted key of a block-style YAML mapping to its 1-based line, by indentation.
///
/// serde_yaml's values carry no positions, so this small scanner recovers them for error
/// messages and `config show`; it only needs to understand the `key: value` lines of a
/// settings file, not all of YAML.
fn key_lines(text: &str) -> HashMap<String, usize> {
    let mut lines = HashMap::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('-') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let Some(colon) = trimmed.find(':') else { continue };
        let key = trimmed[..colon].trim().trim_matches(|c| c == '"' || c == '\'');
        if key.is_empty() || key.contains(' ') {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let full = stack.iter().map(|(_, k)| k.as_str()).chain([key]).collect::<Vec<_>>().join(".");
        lines.entry(full).or_insert(index + 1);
        stack.push((indent, key.to_string()));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        Env::from_pairs(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    }

    #[test]
    fn substitution_handles_defaults_and_literals() {
        let e = env(&[("HOST", "db"), ("EMPTY", "")]);
        assert_eq!(substitute("postgresql://${HOST}:5432", &e).as_deref(), Ok("postgresql://db:5432"));
        assert_eq!(substitute("${PORT:-5432}", &e).as_deref(), Ok("5432"));
        assert_eq!(substitute("${EMPTY:-x}", &e).as_deref(), Ok("x"));
        assert_eq!(substitute("${EMPTY}", &e).as_deref(), Ok(""));
        assert_eq!(substitute("cost: $5 ${ not a var}", &e).as_deref(), Ok("cost: $5 ${ not a var}"));
        assert_eq!(substitute("${MISSING}", &e), Err("MISSING".to_string()));
        assert_eq!(substitute("unterminated ${HOST", &e).as_deref(), Ok("unterminated ${HOST"));
    }

    #[test]
    fn lines_follow_nesting() {
        let text = "# comment\nindexName: x\nsearch:\n  resultLimit: 5\n  minScore: 0.1\nindexing:\n  includePatterns:\n    - '*.py'\n  chunkSize: 10\n";
        let lines = key_lines(text);
        assert_eq!(lines.get("indexName"), Some(&2));
        assert_eq!(lines.get("search.resultLimit"), Some(&4));
        assert_eq!(lines.get("search.minScore"), Some(&5));
        assert_eq!(lines.get("indexing.chunkSize"), Some(&9));
    }

    #[test]
    fn unknown_keys_name_line_and_suggestion() {
        let text = "indexName: x\nsearch:\n  resultLimt: 5\n";
        let file = parse(Path::new("cocosearch.yaml"), text, &env(&[]), Expansion::CocosearchOnly).expect("parses");
        let problems: Vec<String> = file.problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            problems,
            ["cocosearch.yaml:3: unknown key `search.resultLimt` — did you mean `search.resultLimit`?"]
        );
    }

    #[test]
    fn every_problem_of_a_file_is_collected() {
        let text = "indexNam: x\nsearch:\n  resultLimt: 5\nincludePatterns: ['*.py']\nembedding: 3\n";
        let file = parse(Path::new("c.yaml"), text, &env(&[]), Expansion::CocosearchOnly).expect("parses");
        let problems: Vec<String> = file.problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            problems,
            [
                "c.yaml:1: unknown key `indexNam` — did you mean `indexName`?",
                "c.yaml:3: unknown key `search.resultLimt` — did you mean `search.resultLimit`?",
                "c.yaml:4: unknown key `includePatterns` — did you mean `indexing.includePatterns`?",
                "c.yaml:5: `embedding`: expected a section of settings (a mapping)",
            ]
        );
    }

    #[test]
    fn cocosearch_keys_are_accepted_and_those_without_effect_listed() {
        let text = "indexName: my-app\ncontroller:\n  enabled: true\n  model: qwen2.5:3b\nlogging:\n  file: true\nindexing:\n  chunkSize: 1000\n";
        let file = parse(Path::new("c.yaml"), text, &env(&[]), Expansion::CocosearchOnly).expect("parses");
        assert!(file.problems.is_empty(), "{:?}", file.problems);
        assert_eq!(file.no_effect, ["logging.file"]);
        let keys: Vec<&str> = file.values.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["indexName", "controller.enabled", "controller.model", "indexing.chunkSize"]);
        // A misspelt key is still a mistake.
        let file = parse(Path::new("c.yaml"), "controller:\n  enabeld: true\n", &env(&[]), Expansion::CocosearchOnly)
            .expect("parses");
        let problems: Vec<String> = file.problems.iter().map(ToString::to_string).collect();
        assert_eq!(problems, ["c.yaml:2: unknown key `controller.enabeld` — did you mean `controller.enabled`?"]);
    }

    #[test]
    fn nesting_is_measured_outside_comments_and_strings() {
        assert_eq!(flow_nesting("a: [1, [2, {b: 3}]]\n"), (3, 3));
        assert_eq!(flow_nesting("# [[[[\na: \"[[[\"\nb: '[[it''s]]'\nc: it's [x] # [[\n"), (1, 1));
        assert_eq!(flow_nesting("a: [\"]\", [\"]\", [1]]]\n"), (3, 3));
        let deep = format!("a: {}", "[".repeat(200_000));
        let started = std::time::Instant::now();
        let refused = parse(Path::new("c.yaml"), &deep, &env(&[]), Expansion::CocosearchOnly).unwrap_err();
        assert!(refused.to_string().contains("nested 200000 deep"), "{refused}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
        let disguised = format!("a: {}", "[\"]\", ".repeat(5_000));
        assert!(parse(Path::new("c.yaml"), &disguised, &env(&[]), Expansion::CocosearchOnly).is_err());
    }

    #[test]
    fn syntax_errors_have_positions() {
        let err = parse(Path::new("c.yaml"), "search:\n  resultLimit: [1\n", &env(&[]), Expansion::CocosearchOnly)
            .unwrap_err();
        assert!(matches!(err, ConfigError::Syntax { line, .. } if line >= 2), "{err}");
    }
}
