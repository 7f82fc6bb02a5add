//! What the parser's unit tests share: reading a SKILL.md text under a profile, and the
//! diagnostics as (rule, severity, line, column).

use std::path::Path;

pub(crate) use super::dialect::Dialects;
pub(crate) use super::manifest::parse_manifest;
pub(crate) use super::{Diagnostic, Manifest, Profile, Rule, Severity, parse_manifest_with};

pub(crate) const FILE: &str = "skill/SKILL.md";

pub(crate) fn parse(
    text: &str,
    dir: Option<&str>,
    profile: Profile,
) -> (Option<Manifest>, Vec<Diagnostic>) {
    parse_manifest(text, Path::new(FILE), dir, profile)
}

pub(crate) fn strict(text: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
    parse(text, None, Profile::Strict)
}

pub(crate) fn lenient(text: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
    parse(text, None, Profile::Lenient)
}

/// A frontmatter with a valid name and description followed by `extra` lines.
pub(crate) fn with(extra: &str) -> String {
    format!("---\nname: my-skill\ndescription: Does things.\n{extra}---\nBody\n")
}

/// (rule id, severity, line, column) of each diagnostic.
pub(crate) fn found(diagnostics: &[Diagnostic]) -> Vec<(&'static str, Severity, usize, usize)> {
    diagnostics
        .iter()
        .map(|d| (<&str>::from(d.rule), d.severity, d.line, d.column))
        .collect()
}

pub(crate) fn single(diagnostics: &[Diagnostic]) -> &Diagnostic {
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    &diagnostics[0]
}

pub(crate) const E: Severity = Severity::Error;

pub(crate) const W: Severity = Severity::Warning;

pub(crate) fn dialects(
    text: &str,
    profile: Profile,
    dialects: Dialects,
) -> (Manifest, Vec<Diagnostic>) {
    let (manifest, diagnostics) =
        parse_manifest_with(text, Path::new(FILE), None, profile, dialects);
    (manifest.expect("a mapping"), diagnostics)
}

/// The extra fields of a manifest, parsed back from their JSON text.
pub(crate) fn extra_of(manifest: &Manifest) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::from_str(&manifest.fields.extra) {
        Ok(serde_json::Value::Object(map)) => map,
        other => panic!("extra is not a JSON object: {other:?}"),
    }
}

/// Runs `work` on another thread and returns its result, or fails the test if it has not
/// finished within a minute: a guard against a parser that never ends (exponential
/// backtracking, alias expansion), not a measure of its speed, which a loaded machine would
/// make flaky (speed lives in the benchmarks).
pub(crate) fn finishes<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(work());
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("did not finish within a minute")
}
