//! Tool input schemas in plain JSON types.
//!
//! schemars describes an `Option<T>` field as `"type": ["string", "null"]` (or an `anyOf` with
//! a `null` branch). Several MCP clients and the models behind them handle union types badly:
//! some reject the tool, some send `null` for every optional parameter. In MCP "optional"
//! means "may be omitted", which the `required` list already says, so [`plain`] removes the
//! `null` alternatives and every `"default": null`, leaving one plain type per parameter.

use std::sync::Arc;

use rmcp::model::JsonObject;
use rmcp::schemars::JsonSchema;
use serde_json::Value;

/// The input schema of a tool whose arguments deserialize into `T`, in plain JSON types.
pub(crate) fn input_schema<T: JsonSchema>() -> Arc<JsonObject> {
    // Definitions inlined: a `$ref` costs an agent a lookup, and some clients follow none.
    let generator =
        rmcp::schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true).into_generator();
    let mut value = serde_json::to_value(generator.into_root_schema_for::<T>()).unwrap_or_default();
    plain(&mut value);
    let mut object = match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    // The wrapper type's own name and doc comment are noise to the model.
    object.remove("title");
    object.remove("description");
    object.insert("type".into(), Value::String("object".into()));
    Arc::new(object)
}

/// Removes `null` from every type union, `anyOf` and `oneOf` in `schema`, recursively.
pub(crate) fn plain(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if map.get("default").is_some_and(Value::is_null) {
                map.remove("default");
            }
            // Doc comments arrive with their line breaks; a description is one paragraph.
            if let Some(Value::String(text)) = map.get_mut("description") {
                *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            }
            for key in ["anyOf", "oneOf"] {
                let Some(Value::Array(branches)) = map.get_mut(key) else { continue };
                branches.retain(|b| !is_null_schema(b));
                // An enum whose values schemars lists one branch each (to keep their doc
                // comments) is one plain type with its values.
                if !branches.is_empty() && branches.iter().all(|b| b.get("const").is_some_and(Value::is_string)) {
                    let values: Vec<Value> = branches.iter().filter_map(|b| b.get("const").cloned()).collect();
                    map.remove(key);
                    map.insert("type".into(), Value::String("string".into()));
                    map.insert("enum".into(), Value::Array(values));
                    continue;
                }
                if branches.len() == 1 {
                    let Some(Value::Object(only)) = branches.pop() else { continue };
                    map.remove(key);
                    for (k, v) in only {
                        map.entry(k).or_insert(v);
                    }
                }
            }
            for value in map.values_mut() {
                plain(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain),
        _ => {}
    }
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").is_some_and(|t| t == "null") || schema.get("const").is_some_and(Value::is_null)
}

/// Every place in `schema` where a type is not one plain JSON type: a list of types, a
/// `null` type, or an `anyOf`/`oneOf`/`allOf` (JSON pointers, for test messages).
#[cfg(test)]
pub(crate) fn unions(schema: &Value) -> Vec<String> {
    fn walk(value: &Value, at: String, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                match map.get("type") {
                    Some(Value::Array(_)) => out.push(format!("{at}/type is a list")),
                    Some(t) if t == "null" => out.push(format!("{at}/type is null")),
                    _ => {}
                }
                for key in ["anyOf", "oneOf", "allOf"] {
                    if map.contains_key(key) {
                        out.push(format!("{at}/{key}"));
                    }
                }
                for (k, v) in map {
                    walk(v, format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, String::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::schemars;

    #[derive(serde::Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only deserialized into, to derive a schema")]
    struct Example {
        /// Required.
        query: String,
        /// Optional text.
        #[serde(default)]
        name: Option<String>,
        /// Optional list.
        #[serde(default)]
        names: Option<Vec<String>>,
        /// Optional number.
        #[serde(default)]
        limit: Option<u32>,
        /// Optional nested.
        #[serde(default)]
        inner: Option<Inner>,
        /// Optional enum.
        #[serde(default)]
        mode: Option<Mode>,
    }

    #[derive(serde::Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        /// The first.
        Fast,
        /// The second.
        Slow,
    }

    #[derive(serde::Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only deserialized into, to derive a schema")]
    struct Inner {
        flag: Option<bool>,
    }

    #[test]
    fn optional_fields_become_plain_types() {
        let raw = serde_json::to_value(rmcp::schemars::schema_for!(Example)).unwrap_or_default();
        assert!(!unions(&raw).is_empty(), "schemars makes unions by default: {raw}");
        let schema = Value::Object((*input_schema::<Example>()).clone());
        assert_eq!(unions(&schema), Vec::<String>::new(), "{schema:#}");
        let props = &schema["properties"];
        assert_eq!(props["name"]["type"], "string", "{schema:#}");
        assert_eq!(props["names"]["type"], "array", "{schema:#}");
        assert_eq!(props["names"]["items"]["type"], "string", "{schema:#}");
        assert_eq!(props["limit"]["type"], "integer", "{schema:#}");
        assert_eq!(props["mode"]["type"], "string", "{schema:#}");
        assert_eq!(props["mode"]["enum"], serde_json::json!(["fast", "slow"]), "{schema:#}");
        assert!(schema.get("$defs").is_none(), "definitions are inlined: {schema:#}");
        assert_eq!(schema["required"], serde_json::json!(["query"]), "{schema:#}");
        assert_eq!(schema["type"], "object");
    }
}
