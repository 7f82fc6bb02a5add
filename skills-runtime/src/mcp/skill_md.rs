//! The skills extension's view of a skill: the `SKILL.md` written from its fields, its entry
//! with every file's digest and size, which names the extension can carry, and base64 for
//! binary resources.

use serde_json::{Map, Value};

use rmcp::model::{SkillFrontmatter, SkillResource, SkillResources};

use super::uri::uri;
use crate::host::Host;
use crate::model::file::{hex, sha256};
use crate::model::skill::{MANIFEST, Skill};
use crate::tools::{Snapshot, Tools};

/// The tools every MCP surface answers with: the host's, hiding the skills the skills extension
/// cannot carry, so every surface lists the same skills. Hidden, not denied by a rule: a rule
/// naming a skill would act as a pattern when the name holds a `*`.
pub(super) fn served(host: &Host, set: &Snapshot) -> Tools {
    host.tools(set).hiding(unservable)
}

/// Whether the MCP skills extension cannot carry `skill` (its name must be 1 to 64 characters
/// after NFKC, lowercase letters, digits and single hyphens): the lenient profile loads longer
/// names, which `skills/list` could not hold, so they are served on no surface.
fn unservable(skill: &Skill) -> bool {
    let name = skill.name();
    // It runs for every skill whenever a request lists what is visible. A name of ASCII
    // lowercase letters and digits joined by single hyphens, 1 to 64 long (what the validator
    // asks for), is carried: answered here without building an entry. Anything else is asked
    // of rmcp's own check, which is the rule.
    if is_plain_name(name) {
        return false;
    }
    rmcp::model::Skill::new(
        uri(name, MANIFEST),
        SkillFrontmatter::new(name, "-"),
        SkillResources::Dynamic,
    )
    .validate()
    .is_err()
}

/// `name` is 1 to 64 ASCII lowercase letters and digits in runs joined by single hyphens:
/// unchanged by NFKC and accepted by the MCP skills extension.
fn is_plain_name(name: &str) -> bool {
    // Byte by byte: splitting on '-' cost more on every request (BENCHMARKS.md, "Small costs
    // of a load answer").
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
        && bytes
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !bytes.windows(2).any(|pair| pair == b"--")
}

/// The skills-extension entry of a skill: frontmatter, and every file with digest and size.
pub(super) fn entry(skill: &Skill) -> Result<rmcp::model::Skill, String> {
    let fields = frontmatter(skill);
    let mut front = SkillFrontmatter::new(skill.name(), skill.description());
    for (key, value) in fields.into_iter().skip(2) {
        front = front.with_field(key, value);
    }
    let text = manifest(skill);
    let files = skill
        .files()
        .map(|file| {
            if file.path() == MANIFEST {
                SkillResource::from_bytes(uri(skill.name(), MANIFEST), text.as_bytes())
            } else {
                SkillResource::new(
                    uri(skill.name(), file.path()),
                    format!("sha256:{}", hex(&file.sha256())),
                    file.bytes().len() as u64,
                )
            }
        })
        .collect();
    let entry = rmcp::model::Skill::new(
        uri(skill.name(), MANIFEST),
        front,
        SkillResources::Files(files),
    );
    entry.validate().map_err(|e| e.to_string())?;
    Ok(entry)
}

/// The frontmatter fields, in the order they are written: `name` and `description` first.
fn frontmatter(skill: &Skill) -> Vec<(String, Value)> {
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

/// The `SKILL.md` a host reads: the frontmatter written from the skill's fields, then the body.
///
/// Every value is written as JSON (a JSON string is a YAML double-quoted scalar, a JSON object
/// a YAML flow mapping), so the file parses back to exactly the `frontmatter` of the skill's
/// extension entry.
pub(super) fn manifest(skill: &Skill) -> String {
    let mut text = String::from("---\n");
    for (key, value) in frontmatter(skill) {
        if key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            text.push_str(&key);
        } else {
            text.push_str(&yaml_json(&Value::String(key)));
        }
        text.push_str(": ");
        text.push_str(&yaml_json(&value));
        text.push('\n');
    }
    text.push_str("---\n");
    text.push_str(skill.body());
    text
}

/// JSON text that YAML reads back as the same value: YAML also breaks lines at U+0085, U+2028
/// and U+2029, which JSON leaves unescaped.
fn yaml_json(value: &Value) -> String {
    let json = value.to_string();
    if !json.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return json;
    }
    json.replace('\u{85}', "\\u0085")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Standard base64 with padding, for binary resources.
pub(super) fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The digest of a skill's `SKILL.md` as served over MCP (frontmatter and body), as the skills
/// extension writes it: `sha256:` and 64 hex digits (for tests, through `__private`).
pub fn manifest_digest(skill: &Skill) -> String {
    format!("sha256:{}", hex(&sha256(manifest(skill).as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path never disagrees with rmcp's own check.
    #[test]
    fn plain_names_are_those_rmcp_accepts() {
        let long = "a".repeat(64);
        let longer = "a".repeat(65);
        // (name, whether it is plain)
        for (name, plain) in [
            ("pdf", true),
            ("pdf-forms", true),
            ("a1-b2", true),
            ("9", true),
            (long.as_str(), true),
            (longer.as_str(), false),
            ("", false),
            ("-", false),
            ("-a", false),
            ("a-", false),
            ("a--b", false),
            ("A", false),
            ("a_b", false),
            ("a b", false),
            ("caf\u{e9}", false),
            ("x/y", false),
        ] {
            assert_eq!(is_plain_name(name), plain, "{name:?}");
            let rmcp_ok = rmcp::model::Skill::new(
                uri(name, MANIFEST),
                SkillFrontmatter::new(name, "-"),
                SkillResources::Dynamic,
            )
            .validate()
            .is_ok();
            if plain {
                assert!(rmcp_ok, "{name:?} taken as plain but rmcp refuses it");
            }
        }
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn yaml_escapes_what_yaml_reads_as_a_line_break() {
        assert_eq!(yaml_json(&Value::from("a\u{2028}b")), "\"a\\u2028b\"");
        assert_eq!(yaml_json(&Value::from("a: b")), "\"a: b\"");
    }
}
