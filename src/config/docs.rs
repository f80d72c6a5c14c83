//! Documentation generated from the settings registry: the example file and the README table.
//!
//! Both are committed; integration tests fail when they fall behind the registry.

use std::fmt::Write as _;

use super::Entry;
use super::registry::{Default, Kind, Reach, SECTIONS, SETTINGS, Secret, SettingDef};

/// A sample value for settings without a literal default, as written in the example file.
fn sample(def: &SettingDef) -> String {
    match (def.key, def.default) {
        ("indexName", _) => "myproject".into(),
        ("projectPath", _) => ".".into(),
        ("embedding.outputDimension", _) => "768".into(),
        ("embedding.baseUrl", _) => super::registry::DEFAULT_OLLAMA_URL.into(),
        (_, Default::Str(s)) => s.into(),
        (_, Default::Int(n)) => n.to_string(),
        (_, Default::Float(f)) => format!("{f:?}"),
        (_, Default::Bool(b)) => b.to_string(),
        (_, Default::EmptyList) => "[]".into(),
        (_, Default::None | Default::Derived(_)) => "\"\"".into(),
    }
}

/// The default as a human reads it in tables. `embedding.model`'s registry default is the
/// one servers (ollama, openai) get; under `auto` and `builtin` it is the built-in model, which
/// is what `config show` reports and what a reader of the table needs first.
fn default_text(def: &SettingDef) -> String {
    if def.key == "embedding.model" {
        return format!("{} (nomic-embed-text for ollama and openai)", super::registry::DEFAULT_BUILTIN_MODEL);
    }
    match def.default {
        Default::None => "(unset)".into(),
        Default::Derived(text) => text.into(),
        Default::Str(s) => s.into(),
        Default::Int(n) => n.to_string(),
        Default::Float(f) => format!("{f:?}"),
        Default::Bool(b) => b.to_string(),
        Default::EmptyList => "[]".into(),
    }
}

/// `config/cocosearch.example.yaml`: every key, commented out, with its variable and default.
pub fn example_yaml() -> String {
    let mut out = String::from(
        "# cocosearch.yaml — every setting, with its environment variable and default.\n\
         #\n\
         # Put this file (or the keys you need) in the project root as cocosearch.yaml.\n\
         # Precedence for every key: command line > environment > this file > default.\n\
         # Values may reference the environment: ${VAR} or ${VAR:-default} (a file found in the\n\
         # project may name only COCOSEARCH_* variables; one passed with --config, any).\n\
         # Uncomment a line to change a value; `cocosearch config show` prints the result.\n",
    );
    let write_entry = |out: &mut String, def: &SettingDef, indent: &str| {
        let aliases =
            if def.env_aliases.is_empty() { String::new() } else { format!(" (also {})", def.env_aliases.join(", ")) };
        let secret = match def.secret {
            Secret::No => "",
            Secret::UrlPassword => " · its password is never printed",
            Secret::Whole => " · secret: never printed; keep it in the environment, not in a committed file",
        };
        let _ = writeln!(out, "\n{indent}# {}", def.doc);
        let _ = writeln!(out, "{indent}# env: {}{aliases} · default: {}{secret}", def.env_var(), default_text(def));
        let value = sample(def);
        if def.kind == Kind::Groups {
            let _ = writeln!(out, "{indent}# {}:\n{indent}#   backend: [api, client]", def.leaf());
        } else if def.kind == Kind::List && value != "[]" {
            let _ = writeln!(out, "{indent}# {}:\n{indent}#   - {value}", def.leaf());
        } else {
            let _ = writeln!(out, "{indent}# {}: {value}", def.leaf());
        }
    };
    for def in SETTINGS.iter().filter(|d| d.section().is_none()) {
        write_entry(&mut out, def, "");
    }
    for section in SECTIONS {
        let _ = writeln!(out, "\n{section}:");
        for def in SETTINGS.iter().filter(|d| d.section() == Some(section)) {
            write_entry(&mut out, def, "  ");
        }
    }
    out
}

/// The file `cocosearch config init` writes: the index name set, every other key commented
/// out at the value in force (`entries`, as `config show` lists them with the embedder in
/// force), so that writing the file changes nothing and uncommenting a line pins what was in
/// force. Secrets are never written, nor where things are on the user's machine (a key that
/// reaches elsewhere, set outside the defaults): the file is meant to be committed.
pub fn starter_yaml(entries: &[Entry], embedder: &str) -> String {
    let mut out = String::from(
        "# cocosearch.yaml, written by cocosearch (`init`, `config init`).\n\
         # The index name is set; every other key is commented out at the value in force when\n\
         # this file was written (the defaults, or your environment). Uncomment a line to pin it\n\
         # or change it; `cocosearch config show` lists every key with its environment variable.\n",
    );
    let _ = writeln!(out, "# Embedder in force: {embedder}.");
    let line = |out: &mut String, def: &SettingDef, indent: &str| {
        let Some(entry) = entries.iter().find(|e| e.key == def.key) else { return };
        let leaf = def.leaf();
        if def.key == "indexName" {
            let value = entry.value.as_ref().map_or_else(String::new, inline);
            let _ = writeln!(out, "\n{leaf}: {value}");
            return;
        }
        let derived = match (def.default, &entry.source) {
            (Default::Derived(text), super::Source::Default) => Some(text),
            _ => None,
        };
        // The file is meant to be committed: where things are on this machine (a model
        // directory, a store, a server, a mirror), set by the user's environment, own file or
        // command line, is theirs, not the project's.
        let personal = def.reach == Reach::Elsewhere && entry.source != super::Source::Default;
        match (&entry.value, def.secret) {
            (Some(serde_json::Value::String(text)), _) if text.starts_with("(not used") => {
                let _ = writeln!(out, "{indent}{leaf}: \"\"  # {text}");
            }
            // What a machine derives (the project root) is not pinned into a file.
            (_, _) if derived.is_some() => {
                let _ = writeln!(out, "{indent}{leaf}: \"\"  # derived: {}", derived.unwrap_or_default());
            }
            (_, Secret::No | Secret::UrlPassword) if personal => {
                let _ = writeln!(out, "{indent}{leaf}: \"\"  # this machine's ({}), not the project's", entry.source);
            }
            (Some(value), Secret::UrlPassword) if !inline(value).contains("***") => {
                let _ = writeln!(out, "{indent}{leaf}: {}", inline(value));
            }
            (_, Secret::Whole | Secret::UrlPassword) => {
                let _ = writeln!(out, "{indent}{leaf}: \"\"  # secret: keep it in the environment ({})", def.env_var());
            }
            (Some(value), Secret::No) => {
                let _ = writeln!(out, "{indent}{leaf}: {}", inline(value));
            }
            (None, Secret::No) => {
                let _ = writeln!(out, "{indent}{leaf}: \"\"  # unset");
            }
        }
    };
    for def in SETTINGS.iter().filter(|d| d.section().is_none()) {
        line(&mut out, def, "# ");
    }
    // An uncommented key needs its section's line uncommented too, as in any YAML file.
    for section in SECTIONS {
        let _ = writeln!(out, "\n# {section}:");
        for def in SETTINGS.iter().filter(|d| d.section() == Some(section)) {
            line(&mut out, def, "#   ");
        }
    }
    out
}

/// A value on one line of YAML: JSON's spelling, which YAML reads the same.
fn inline(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_string())
}

/// The configuration table of the README (Markdown).
pub fn markdown_table() -> String {
    let mut out = String::from("| Key | Environment variable | Default | Meaning |\n| --- | --- | --- | --- |\n");
    for def in SETTINGS {
        let env =
            std::iter::once(def.env_var()).chain(def.env_aliases.iter().map(|s| s.to_string())).collect::<Vec<_>>();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            def.key,
            env.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", "),
            match def.default {
                Default::Derived(text) => text.to_string(),
                _ if def.key == "embedding.model" => {
                    format!("`{}` (`nomic-embed-text` for ollama and openai)", super::registry::DEFAULT_BUILTIN_MODEL)
                }
                _ => format!("`{}`", default_text(def)),
            },
            def.doc
        );
    }
    out
}
