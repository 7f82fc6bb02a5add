//! The skills extension's view of a skill: the `SKILL.md` written from its fields, its entry
//! with every file's digest and size, which names the extension can carry, and base64 for
//! binary resources.

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
    let fields = crate::model::skill_md::frontmatter(skill);
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

/// The `SKILL.md` a host reads: the frontmatter written from the skill's fields, then the body
/// (the one writer, [`crate::model::skill_md::manifest`], with nothing added).
pub(super) fn manifest(skill: &Skill) -> String {
    crate::model::skill_md::manifest(skill)
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
}
