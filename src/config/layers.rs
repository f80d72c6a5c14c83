//! The four configuration layers as figment providers, and typed parsing of raw values.
//!
//! Each layer (defaults, file, environment, command line) turns its raw strings or YAML values
//! into typed figment values using the registry's [`Kind`], so `COCOSEARCH_SEARCH_RESULT_LIMIT=5`
//! and `resultLimit: "${LIMIT:-5}"` both become the integer 5, and a bad value is reported with
//! the place it came from. figment then merges the layers in precedence order and extracts
//! [`super::Settings`]; its metadata tells which layer each value came from.

use std::collections::HashMap;

use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

use super::error::{ConfigError, Source};
use super::registry::{Default, Kind, SettingDef};

/// A raw value before typing.
#[derive(Debug, Clone)]
pub enum Raw {
    /// From YAML.
    Yaml(serde_yaml::Value),
    /// A string from the environment or `--set`; lists are comma-separated.
    Text(String),
    /// A list given by a repeatable flag.
    List(Vec<String>),
}

/// One layer: typed values by dotted key, and where each came from.
#[derive(Debug, Clone)]
pub struct Layer {
    /// The metadata name figment records: `default`, `file`, `env` or `cli`.
    pub name: &'static str,
    /// Typed values by dotted key.
    pub values: Vec<(&'static str, Value)>,
    /// The source of each key in this layer.
    pub sources: HashMap<&'static str, Source>,
}

impl Layer {
    /// An empty layer.
    pub fn new(name: &'static str) -> Layer {
        Layer { name, values: Vec::new(), sources: HashMap::new() }
    }

    /// Types `raw` as `def` requires and adds it. `Ok(())` without adding for a YAML null.
    pub fn insert(&mut self, def: &'static SettingDef, raw: Raw, source: Source) -> Result<(), ConfigError> {
        let typed = typed_value(def, raw).map_err(|message| ConfigError::Invalid {
            location: ConfigError::location(&source),
            key: def.key.to_string(),
            message,
        })?;
        if let Some(value) = typed {
            self.values.retain(|(k, _)| *k != def.key);
            self.values.push((def.key, value));
            self.sources.insert(def.key, source);
        }
        Ok(())
    }

    /// The layer of built-in defaults.
    pub fn defaults(settings: &'static [SettingDef]) -> Layer {
        let mut layer = Layer::new("default");
        for def in settings {
            let value = match def.default {
                Default::None | Default::Derived(_) => continue,
                Default::Str(s) => Value::from(s),
                Default::Int(n) => Value::from(n),
                Default::Float(f) => Value::from(f),
                Default::Bool(b) => Value::from(b),
                Default::EmptyList => Value::from(Vec::<String>::new()),
            };
            layer.values.push((def.key, value));
            layer.sources.insert(def.key, Source::Default);
        }
        layer
    }
}

impl Provider for Layer {
    fn metadata(&self) -> Metadata {
        Metadata::named(self.name)
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut root = Dict::new();
        for (key, value) in &self.values {
            match key.split_once('.') {
                None => {
                    root.insert((*key).to_string(), value.clone());
                }
                Some((section, leaf)) => {
                    let entry = root.entry(section.to_string()).or_insert_with(|| Value::from(Dict::new()));
                    if let Value::Dict(_, dict) = entry {
                        dict.insert(leaf.to_string(), value.clone());
                    }
                }
            }
        }
        Ok(Profile::Default.collect(root))
    }
}

/// `raw` typed as `def.kind`, or `None` for an explicit YAML null (meaning "unset").
fn typed_value(def: &SettingDef, raw: Raw) -> Result<Option<Value>, String> {
    use serde_yaml::Value as Y;
    let text = match raw {
        Raw::Yaml(Y::Null) => return Ok(None),
        Raw::Yaml(Y::String(s)) => s,
        Raw::Yaml(Y::Bool(b)) if def.kind == Kind::Bool => return Ok(Some(Value::from(b))),
        Raw::Yaml(Y::Number(n)) => match def.kind {
            Kind::Int => {
                return n
                    .as_u64()
                    .map(|n| Some(Value::from(n)))
                    .ok_or_else(|| format!("expected a non-negative integer, found {n}"));
            }
            Kind::Float => {
                return n.as_f64().map(|f| Some(Value::from(f))).ok_or_else(|| format!("expected a number, found {n}"));
            }
            Kind::Str => n.to_string(),
            _ => return Err(expected(def.kind, &n.to_string())),
        },
        Raw::Yaml(Y::Bool(b)) if def.kind == Kind::Str => b.to_string(),
        Raw::Yaml(Y::Sequence(items)) if def.kind == Kind::List => {
            let items = items
                .into_iter()
                .map(|item| match item {
                    Y::String(s) => Ok(s),
                    Y::Number(n) => Ok(n.to_string()),
                    other => Err(format!("expected a list of strings, found an item {}", describe_yaml(&other))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Some(Value::from(items)));
        }
        Raw::Yaml(Y::Mapping(map)) if def.kind == Kind::Groups => return yaml_groups(map).map(Some),
        Raw::Yaml(other) => return Err(format!("{}, found {}", expected_phrase(def.kind), describe_yaml(&other))),
        Raw::List(items) => {
            if def.kind != Kind::List {
                return Err(expected(def.kind, &items.join(",")));
            }
            return Ok(Some(Value::from(items)));
        }
        Raw::Text(text) => text,
    };
    parse_text(def.kind, &text).map(Some)
}

fn parse_text(kind: Kind, text: &str) -> Result<Value, String> {
    let trimmed = text.trim();
    match kind {
        Kind::Str => Ok(Value::from(text)),
        Kind::Int => trimmed.parse::<u64>().map(Value::from).map_err(|_| expected(kind, text)),
        Kind::Float => {
            trimmed.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::from).ok_or_else(|| expected(kind, text))
        }
        Kind::Bool => match trimmed.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(Value::from(true)),
            "false" | "0" | "no" | "off" => Ok(Value::from(false)),
            _ => Err(expected(kind, text)),
        },
        Kind::List => Ok(Value::from(list(text))),
        Kind::Groups => text_groups(text),
    }
}

/// A comma-separated list, trimmed, blanks dropped.
fn list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// `name=a,b;other=c` as groups.
fn text_groups(text: &str) -> Result<Value, String> {
    let mut groups = Dict::new();
    for group in text.split(';').map(str::trim).filter(|g| !g.is_empty()) {
        let (name, members) = group.split_once('=').ok_or_else(|| expected(Kind::Groups, group))?;
        groups.insert(name.trim().to_string(), Value::from(list(members)));
    }
    Ok(Value::from(groups))
}

/// A YAML mapping of group names to lists (or comma-separated strings) of index names.
fn yaml_groups(map: serde_yaml::Mapping) -> Result<Value, String> {
    use serde_yaml::Value as Y;
    let mut groups = Dict::new();
    for (name, members) in map {
        let Y::String(name) = name else {
            return Err(format!("expected group names as strings, found {}", describe_yaml(&name)));
        };
        let members = match members {
            Y::String(text) => list(&text),
            Y::Sequence(items) => items
                .into_iter()
                .map(|item| match item {
                    Y::String(s) => Ok(s),
                    other => Err(format!("group {name}: expected index names, found {}", describe_yaml(&other))),
                })
                .collect::<Result<_, _>>()?,
            other => {
                return Err(format!("group {name}: expected a list of index names, found {}", describe_yaml(&other)));
            }
        };
        groups.insert(name, Value::from(members));
    }
    Ok(Value::from(groups))
}

fn expected_phrase(kind: Kind) -> &'static str {
    match kind {
        Kind::Str => "expected a string",
        Kind::Int => "expected a non-negative integer",
        Kind::Float => "expected a number",
        Kind::Bool => "expected true or false",
        Kind::List => "expected a list of strings",
        Kind::Groups => "expected groups of index names (name=a,b;other=c, or a mapping in YAML)",
    }
}

fn expected(kind: Kind, found: &str) -> String {
    format!("{}, found {found:?}", expected_phrase(kind))
}

fn describe_yaml(value: &serde_yaml::Value) -> &'static str {
    match value {
        serde_yaml::Value::Null => "nothing",
        serde_yaml::Value::Bool(_) => "a boolean",
        serde_yaml::Value::Number(_) => "a number",
        serde_yaml::Value::String(_) => "a string",
        serde_yaml::Value::Sequence(_) => "a list",
        serde_yaml::Value::Mapping(_) => "a mapping",
        serde_yaml::Value::Tagged(_) => "a tagged value",
    }
}
