//! The one writer of a whole `SKILL.md` (frontmatter from a skill's fields, then its body): what
//! an MCP host reads and what `disk::Install` writes into an agent's folder.

use serde_json::{Map, Value};

use super::skill::Skill;

/// The frontmatter fields, in the order they are written: `name` and `description` first.
pub(crate) fn frontmatter(skill: &Skill) -> Vec<(String, Value)> {
    let mut fields: Vec<(String, Value)> = vec![
        ("name".into(), skill.name().into()),
        ("description".into(), skill.description().into()),
    ];
    if let Some(license) = skill.license() {
        fields.push(("license".into(), license.into()));
    }
    if let Some(compatibility) = skill.compatibility() {
        fields.push(("compatibility".into(), compatibility.into()));
    }
    let metadata: Map<String, Value> = skill
        .metadata()
        .map(|(k, v)| (k.to_owned(), Value::from(v)))
        .collect();
    if !metadata.is_empty() {
        fields.push(("metadata".into(), Value::Object(metadata)));
    }
    let tools: Vec<&str> = skill.allowed_tools().collect();
    if !tools.is_empty() {
        fields.push(("allowed-tools".into(), tools.join(" ").into()));
    }
    if let Ok(Value::Object(extra)) = serde_json::from_str::<Value>(skill.extra_json()) {
        let mut extra: Vec<(String, Value)> = extra.into_iter().collect();
        extra.sort_by(|a, b| a.0.cmp(&b.0));
        fields.extend(extra.into_iter().filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "name" | "description" | "license" | "compatibility" | "metadata" | "allowed-tools"
            )
        }));
    }
    fields
}

/// The `SKILL.md` of `skill`: the frontmatter written from its fields, then the body.
///
/// Every value is written as JSON (a JSON string is a YAML double-quoted scalar, a JSON object
/// a YAML flow mapping), so the file parses back to exactly the `frontmatter` of the skill;
/// `metadata` alone is a block mapping, one `"key": "value"` line each, so an installer can add
/// its provenance lines to it and take them out again.
pub(crate) fn manifest(skill: &Skill) -> String {
    let mut text = String::from("---\n");
    for (key, value) in frontmatter(skill) {
        write_key(&mut text, &key);
        match (key.as_str(), &value) {
            ("metadata", Value::Object(map)) => {
                text.push_str(":\n");
                for (k, v) in map {
                    text.push_str("  ");
                    text.push_str(&yaml_json(&Value::String(k.clone())));
                    text.push_str(": ");
                    text.push_str(&yaml_json(v));
                    text.push('\n');
                }
            }
            _ => {
                text.push_str(": ");
                text.push_str(&yaml_json(&value));
                text.push('\n');
            }
        }
    }
    text.push_str("---\n");
    text.push_str(skill.body());
    text
}

fn write_key(text: &mut String, key: &str) {
    if key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        text.push_str(key);
    } else {
        text.push_str(&yaml_json(&Value::String(key.to_owned())));
    }
}

/// JSON text that YAML reads back as the same value: YAML also breaks lines at U+0085, U+2028
/// and U+2029, which JSON leaves unescaped.
pub(crate) fn yaml_json(value: &Value) -> String {
    let json = value.to_string();
    if !json.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return json;
    }
    json.replace('\u{85}', "\\u0085")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_escapes_what_yaml_reads_as_a_line_break() {
        assert_eq!(yaml_json(&Value::from("a\u{2028}b")), "\"a\\u2028b\"");
        assert_eq!(yaml_json(&Value::from("a: b")), "\"a: b\"");
    }
}
