//! The `skill://` URI codec: every file of a skill is `skill://<name>/<path>`, percent-encoded.

use std::borrow::Cow;

use super::SCHEME;
use crate::model::skill::Skill;
use crate::text::echo;

/// `skill://<name>/<path>`, percent-encoded.
pub(super) fn uri(skill: &str, path: &str) -> String {
    let mut out = String::from(SCHEME);
    encode(&mut out, skill, false);
    out.push('/');
    encode(&mut out, path, true);
    out
}

/// The resource template of a skill's files.
pub(super) fn template(skill: &str) -> String {
    let mut out = String::from(SCHEME);
    encode(&mut out, skill, false);
    out.push_str("/{+path}");
    out
}

/// The URIs of every file of `skill`.
pub(super) fn uris(skill: &Skill) -> Vec<String> {
    skill.paths().map(|p| uri(skill.name(), p)).collect()
}

fn encode(out: &mut String, text: &str, keep_slash: bool) {
    for byte in text.bytes() {
        let plain = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~')
            || (keep_slash && byte == b'/');
        if plain {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

/// The skill name and the path of a `skill://` URI, decoded (borrowed from `uri` when nothing
/// in it is percent-encoded, as in every URI this server hands out for a plain name).
pub(super) fn parse_uri(uri: &str) -> Result<(Cow<'_, str>, Cow<'_, str>), String> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return Err(format!("\"{}\" is not a {SCHEME} URI", echo(uri)));
    };
    if rest.contains(['?', '#']) {
        return Err(format!(
            "\"{}\" has a query or a fragment; skill URIs have neither",
            echo(uri)
        ));
    }
    let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
    let name = decode(name)
        .ok_or_else(|| format!("\"{}\" is not valid percent-encoded UTF-8", echo(uri)))?;
    let path = decode(path)
        .ok_or_else(|| format!("\"{}\" is not valid percent-encoded UTF-8", echo(uri)))?;
    if name.is_empty() {
        return Err(format!("\"{}\" names no skill", echo(uri)));
    }
    Ok((name, path))
}

fn decode(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains('%') {
        return Some(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// The `skill://` URI of one file of a skill, percent-encoded (for tests, through `__private`).
pub fn file_uri(skill: &str, path: &str) -> String {
    uri(skill, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip() {
        for (name, path) in [
            ("pdf", "SKILL.md"),
            ("技能", "references/a b.md"),
            ("x", "a/%/?#.txt"),
        ] {
            let u = uri(name, path);
            assert!(u.is_ascii(), "{u}");
            let (n, p) = parse_uri(&u).unwrap();
            assert_eq!((n.as_ref(), p.as_ref()), (name, path));
        }
        assert!(parse_uri("file:///etc/passwd").is_err());
        assert!(parse_uri("skill://").is_err());
        assert!(parse_uri("skill://a/b?x=1").is_err());
        assert!(parse_uri("skill://a/%ff").is_err());
        assert!(parse_uri("skill://a/%4").is_err());
        let (n, p) = parse_uri("skill://a").unwrap();
        assert_eq!((n.as_ref(), p.as_ref()), ("a", ""));
    }
}
