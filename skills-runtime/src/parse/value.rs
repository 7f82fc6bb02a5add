//! Reading YAML values: as the text the author wrote, as the kind a message names, and as
//! canonical JSON text.
//!
//! Canonical because the JSON text of a skill's fields is hashed into
//! [`Skill::content_digest`](crate::Skill::content_digest) and written by two builds that do not
//! share one `serde_json`: the macro's (built for the host) and the runtime's. A workspace can
//! turn on `serde_json/preserve_order` for one of them only, and then the same fields printed by
//! `serde_json` come out in two key orders. [`json_text`] sorts keys itself.

use std::fmt::Write;

use serde_yaml::Value;

/// A scalar as text: strings as they are, numbers and booleans as written (`raw`, the source
/// text of a plain scalar) or else as YAML prints them. `None` for null, lists and mappings.
pub(super) fn scalar_text(value: &Value, raw: Option<&str>) -> Option<String> {
    let written = raw.map(str::to_owned);
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(written.unwrap_or_else(|| number.to_string())),
        Value::Bool(boolean) => Some(written.unwrap_or_else(|| boolean.to_string())),
        Value::Tagged(tagged) => scalar_text(&tagged.value, raw),
        Value::Null | Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

/// A mapping key as text (complex keys as JSON).
pub(super) fn key_text(key: &Value) -> String {
    match key {
        Value::Null => "null".to_owned(),
        _ => scalar_text(key, None).unwrap_or_else(|| json_text(&to_json(key))),
    }
}

/// What a value is, for messages: "a mapping", "a list", "null", ...
pub(super) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(tagged) => kind(&tagged.value),
    }
}

/// A YAML value as JSON: mapping keys become text, non-finite numbers become their YAML text.
/// Print it with [`json_text`]: `serde_json` orders keys by its features.
pub(super) fn to_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::Null => Json::Null,
        Value::Bool(boolean) => Json::Bool(*boolean),
        Value::Number(number) => number_to_json(number),
        Value::String(text) => Json::String(text.clone()),
        Value::Sequence(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Mapping(mapping) => Json::Object(
            mapping
                .iter()
                .map(|(key, value)| (key_text(key), to_json(value)))
                .collect(),
        ),
        Value::Tagged(tagged) => to_json(&tagged.value),
    }
}

fn number_to_json(number: &serde_yaml::Number) -> serde_json::Value {
    if let Some(int) = number.as_i64() {
        return int.into();
    }
    if let Some(int) = number.as_u64() {
        return int.into();
    }
    number
        .as_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(
            || serde_json::Value::String(number.to_string()),
            serde_json::Value::Number,
        )
}

/// A value without its YAML tag.
pub(super) fn untag(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untag(&tagged.value),
        other => other,
    }
}

/// `value` as canonical JSON text: object keys sorted (by their bytes) at every level, no
/// whitespace, scalars as `serde_json` prints them. The same value gives the same text whatever
/// features `serde_json` was built with.
pub(super) fn json_text(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

fn write_json(value: &serde_json::Value, out: &mut String) {
    use serde_json::Value as Json;
    match value {
        Json::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Json::Object(map) => {
            let mut entries: Vec<(&String, &Json)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, value)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                // A string's escaping does not depend on the features; only key order does.
                let _ = write!(out, "{}:", Json::String(key.clone()));
                write_json(value, out);
            }
            out.push('}');
        }
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_sorts_keys_at_every_level() {
        let mut inner = serde_json::Map::new();
        inner.insert("z".into(), 1.into());
        inner.insert("a".into(), serde_json::json!([{"y": null, "b": "\"q\"\n"}]));
        let mut outer = serde_json::Map::new();
        outer.insert("zeta".into(), serde_json::Value::Object(inner));
        outer.insert("Alpha".into(), 1.5.into());
        outer.insert("alpha".into(), true.into());
        assert_eq!(
            json_text(&serde_json::Value::Object(outer)),
            r#"{"Alpha":1.5,"alpha":true,"zeta":{"a":[{"b":"\"q\"\n","y":null}],"z":1}}"#
        );
        assert_eq!(json_text(&serde_json::json!({})), "{}");
    }

    #[test]
    fn yaml_values_as_json_text() {
        let yaml: Value = serde_yaml::from_str("{b: [1, .nan, {d: x, c: ~}], a: !t yes}").unwrap();
        assert_eq!(
            json_text(&to_json(&yaml)),
            r#"{"a":"yes","b":[1,".nan",{"c":null,"d":"x"}]}"#
        );
        let key: Value = serde_yaml::from_str("{z: 1, a: 2}").unwrap();
        assert_eq!(key_text(&key), r#"{"a":2,"z":1}"#);
        assert_eq!(kind(&yaml), "a mapping");
    }
}
