//! The checks of the fields the Agent Skills specification defines: `name`, `description`,
//! `license`, `compatibility`, `metadata` and `allowed-tools`, each read as the reference
//! validator reads it and reported at its line.

use std::collections::BTreeSet;

use serde_yaml::Value;
use unicode_normalization::UnicodeNormalization;

use super::Rule;
use super::checker::{Checker, Pos};
use super::value::{json_text, key_text, kind, scalar_text, to_json};

/// The fields the Agent Skills specification defines, in the order messages list them.
pub const ALLOWED_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// The longest `name` allowed, in characters (after NFKC normalisation).
pub const MAX_NAME_CHARS: usize = 64;

/// The longest `description` allowed, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The longest `compatibility` allowed, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// `name`: required text, trimmed and NFKC-normalised, checked against the naming rules and,
/// with `dir_name`, against the folder's name. Every name a message suggests comes from
/// [`suggest_name`], so it passes these same rules.
pub(super) fn check_name(
    cx: &mut Checker<'_>,
    value: Option<&Value>,
    dir_name: Option<&str>,
) -> String {
    let pos = cx.key_pos("name");
    // Made only for a message that needs it: a valid name (every skill served) never does.
    let hint = || {
        // A folder name with a control character would break the one-line message.
        dir_name
            .filter(|dir| !dir.is_empty() && !dir.chars().any(char::is_control))
            .and_then(|dir| {
                let name = suggest_name(dir)?;
                let rename = if name == dir.nfkc().collect::<String>() {
                    ""
                } else {
                    " and rename the folder to match"
                };
                Some(format!(": add `name: {name}`{rename}"))
            })
            .unwrap_or_default()
    };
    let Some(text) = required_text(cx, "name", value, Rule::NameMissing, Rule::NameType, &hint)
    else {
        return String::new();
    };
    let name: String = text.trim().nfkc().collect();
    if name.is_empty() {
        cx.error(Rule::NameMissing, pos, format!("name is empty{}", hint()));
        return name;
    }
    check_name_text(cx, &name, pos);
    if let Some(dir) = dir_name {
        let dir: String = dir.nfkc().collect();
        if dir != name {
            let valid = |text: &str| name_problems(text).is_empty();
            let fix = match (valid(&dir), valid(&name)) {
                (true, true) => format!(": use `name: {dir}`, or rename the folder to {name:?}"),
                (true, false) => format!(": use `name: {dir}`"),
                (false, true) => format!(": rename the folder to {name:?}"),
                (false, false) => suggest_name(&dir)
                    .map(|s| format!(": rename the folder to {s:?} and use `name: {s}`"))
                    .unwrap_or_default(),
            };
            let message = format!("name {name:?} must match the folder name {dir:?}{fix}");
            cx.strict_error(Rule::NameDirMismatch, pos, message);
        }
    }
    name
}

/// The rules on the name's own text (length, case, hyphens, characters); a message of each
/// ends with the valid name [`suggest_name`] makes of it, when there is one.
fn check_name_text(cx: &mut Checker<'_>, name: &str, pos: Pos) {
    let problems = name_problems(name);
    if problems.is_empty() {
        return;
    }
    let suggestion = suggest_name(name)
        .map(|s| format!(": use {s:?}"))
        .unwrap_or_default();
    for (rule, message) in problems {
        let message = format!("{message}{suggestion}");
        if rule == Rule::NameTooLong {
            cx.strict_error(rule, pos, message);
        } else {
            cx.error(rule, pos, message);
        }
    }
}

/// What the naming rules find wrong with `name` (already NFKC-normalised): each rule broken,
/// with its message. Empty for a valid name.
pub(crate) fn name_problems(name: &str) -> Vec<(Rule, String)> {
    let mut problems = Vec::new();
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        let message = format!("name is {length} characters; the limit is {MAX_NAME_CHARS}");
        problems.push((Rule::NameTooLong, message));
    }
    if name.to_lowercase() != name {
        problems.push((Rule::NameCase, format!("name {name:?} must be lowercase")));
    }
    if name.starts_with('-') || name.ends_with('-') {
        let message = format!("name {name:?} must not start or end with a hyphen");
        problems.push((Rule::NameHyphenEdge, message));
    }
    if name.contains("--") {
        let message = format!("name {name:?} must not contain consecutive hyphens (\"--\")");
        problems.push((Rule::NameDoubleHyphen, message));
    }
    let invalid: BTreeSet<char> = name
        .chars()
        .filter(|&c| !(c.is_alphanumeric() || c == '-'))
        .collect();
    if !invalid.is_empty() {
        let listed: Vec<String> = invalid.iter().map(|c| format!("{c:?}")).collect();
        let message = format!(
            "name {name:?} contains {}: only lowercase letters, digits and hyphens are allowed",
            listed.join(", ")
        );
        problems.push((Rule::NameChars, message));
    }
    if name.is_empty() {
        problems.push((Rule::NameMissing, "name is empty".to_owned()));
    }
    problems
}

/// The valid name closest to `text` (a name or a folder name): NFKC, lowercase, spaces,
/// underscores and dots as hyphens, other characters dropped, hyphens collapsed and trimmed,
/// at most [`MAX_NAME_CHARS`]. `None` when nothing valid remains; what it returns passes every
/// rule of [`name_problems`] (checked here, so a rule added there cannot be suggested past).
pub(crate) fn suggest_name(text: &str) -> Option<String> {
    let lowered: String = text.nfkc().collect::<String>().to_lowercase();
    let mut name = String::new();
    for c in lowered.nfkc() {
        let c = if c.is_whitespace() || matches!(c, '_' | '.' | '-') {
            '-'
        } else if c.is_alphanumeric() && c.to_lowercase().eq([c]) {
            c
        } else {
            continue;
        };
        if c == '-' && (name.is_empty() || name.ends_with('-')) {
            continue;
        }
        name.push(c);
    }
    let name: String = name.chars().take(MAX_NAME_CHARS).collect();
    let name = name.trim_end_matches('-');
    let stable = name.nfkc().eq(name.chars());
    (stable && name_problems(name).is_empty()).then(|| name.to_owned())
}

/// `description`: required text, trimmed; its length is measured before trimming.
pub(super) fn check_description(cx: &mut Checker<'_>, value: Option<&Value>) -> String {
    let pos = cx.key_pos("description");
    let hint = ": say what the skill does and when to use it";
    let Some(text) = required_text(
        cx,
        "description",
        value,
        Rule::DescriptionMissing,
        Rule::DescriptionType,
        &|| hint.to_owned(),
    ) else {
        return String::new();
    };
    if text.trim().is_empty() {
        cx.error(
            Rule::DescriptionMissing,
            pos,
            format!("description is blank{hint}"),
        );
        return String::new();
    }
    let length = text.chars().count();
    if length > MAX_DESCRIPTION_CHARS {
        let message =
            format!("description is {length} characters; the limit is {MAX_DESCRIPTION_CHARS}");
        cx.strict_error(Rule::DescriptionTooLong, pos, message);
    }
    text.trim().to_owned()
}

/// A required text field: reports `missing` when absent or written empty, `wrong_type` for
/// a mapping, a list or an explicit null.
fn required_text(
    cx: &mut Checker<'_>,
    field: &str,
    value: Option<&Value>,
    missing: Rule,
    wrong_type: Rule,
    hint: &dyn Fn() -> String,
) -> Option<String> {
    let pos = cx.key_pos(field);
    let raw = cx.raw_value(field);
    match value {
        None => cx.error(missing, cx.top(), format!("{field} is required{}", hint())),
        Some(Value::Null) if raw.as_deref().is_none_or(str::is_empty) => {
            cx.error(missing, pos, format!("{field} is empty{}", hint()));
        }
        Some(value) => match scalar_text(value, raw.as_deref()) {
            Some(text) => return Some(text),
            None => {
                let message = format!("{field} must be a string, not {}", kind(value));
                cx.error(wrong_type, pos, message);
            }
        },
    }
    None
}

/// `license`: optional text (an SPDX id or a file name).
pub(super) fn check_license(cx: &mut Checker<'_>, value: Option<&Value>) -> Option<String> {
    let value = value.filter(|value| !value.is_null())?;
    let text = scalar_text(value, cx.raw_value("license").as_deref());
    if text.is_none() {
        let message = format!(
            "license must be a string such as an SPDX id or a file name, not {}",
            kind(value)
        );
        cx.error(Rule::LicenseType, cx.key_pos("license"), message);
    }
    text
}

/// `compatibility`: optional text of 1 to [`MAX_COMPATIBILITY_CHARS`] characters.
pub(super) fn check_compatibility(cx: &mut Checker<'_>, value: Option<&Value>) -> Option<String> {
    let value = value?;
    let pos = cx.key_pos("compatibility");
    let text = match value {
        Value::Null => String::new(),
        _ => match scalar_text(value, cx.raw_value("compatibility").as_deref()) {
            Some(text) => text,
            None => {
                let message = format!("compatibility must be a string, not {}", kind(value));
                cx.error(Rule::CompatibilityType, pos, message);
                return None;
            }
        },
    };
    let length = text.chars().count();
    if text.trim().is_empty() {
        let message = format!(
            "compatibility is empty; write 1 to {MAX_COMPATIBILITY_CHARS} characters or leave it out"
        );
        cx.error(Rule::CompatibilityLength, pos, message);
    } else if length > MAX_COMPATIBILITY_CHARS {
        let message =
            format!("compatibility is {length} characters; the limit is {MAX_COMPATIBILITY_CHARS}");
        cx.error(Rule::CompatibilityLength, pos, message);
    }
    Some(text)
}

/// `metadata`: a mapping of text keys to text values, returned sorted by key.
pub(super) fn check_metadata(cx: &mut Checker<'_>, value: Option<&Value>) -> Vec<(String, String)> {
    let mapping = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Mapping(mapping)) => mapping,
        Some(other) => {
            let message = format!(
                "metadata must be a mapping of keys to text, not {}",
                kind(other)
            );
            cx.error(Rule::MetadataType, cx.key_pos("metadata"), message);
            return Vec::new();
        }
    };
    let children = cx.children_of("metadata");
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(mapping.len());
    for (key, value) in mapping {
        let text = key_text(key);
        let child = children.iter().find(|entry| entry.key == text);
        let pos = child.map_or_else(
            || cx.key_pos("metadata"),
            |entry| cx.at(entry.line, entry.column),
        );
        if scalar_text(key, None).is_none() {
            let message = format!("metadata key {text:?} must be text, not {}", kind(key));
            cx.strict_error(Rule::MetadataType, pos, message);
        }
        let value = metadata_value(
            cx,
            &text,
            value,
            child.and_then(|entry| entry.raw.as_deref()),
            pos,
        );
        pairs.push((text, value));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    pairs
}

/// A metadata value as text; a nested list or mapping is reported and kept as JSON text.
fn metadata_value(
    cx: &mut Checker<'_>,
    key: &str,
    value: &Value,
    raw: Option<&str>,
    pos: Pos,
) -> String {
    match value {
        Value::Null => String::new(),
        Value::Sequence(_) | Value::Mapping(_) => {
            let message = format!(
                "metadata {key:?} must be text, not {}; quote it or flatten it into several keys",
                kind(value)
            );
            cx.strict_error(Rule::MetadataType, pos, message);
            json_text(&to_json(value))
        }
        _ => scalar_text(value, raw).unwrap_or_default(),
    }
}

/// `allowed-tools`: a string of tools separated by spaces (or commas) or a list of strings, in order.
pub(super) fn check_allowed_tools(cx: &mut Checker<'_>, value: Option<&Value>) -> Vec<String> {
    let pos = cx.key_pos("allowed-tools");
    let Some(value) = value.filter(|value| !value.is_null()) else {
        return Vec::new();
    };
    if let Value::Sequence(items) = value {
        return allowed_tools_list(cx, items, pos);
    }
    match scalar_text(value, cx.raw_value("allowed-tools").as_deref()) {
        Some(text) => split_tools(&text),
        None => {
            let message = format!(
                "allowed-tools must be a space-separated string or a list of strings, not {}",
                kind(value)
            );
            cx.error(Rule::AllowedToolsType, pos, message);
            Vec::new()
        }
    }
}

fn allowed_tools_list(cx: &mut Checker<'_>, items: &[Value], pos: Pos) -> Vec<String> {
    let mut tools = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match scalar_text(item, None) {
            Some(text) if !text.trim().is_empty() => tools.push(text.trim().to_owned()),
            Some(_) => {}
            None => {
                let message = format!(
                    "allowed-tools item {} must be a string such as `Read`, not {}",
                    index + 1,
                    kind(item)
                );
                cx.error(Rule::AllowedToolsType, pos, message);
            }
        }
    }
    tools
}

/// What separates tools in a tool-list string (`allowed-tools`, Claude Code's
/// `disallowed-tools`), outside parentheses: a space, as the specification writes them, or a
/// comma, as Claude Code's documentation does (`Read, Grep`).
pub(super) fn is_tool_separator(c: char) -> bool {
    c == ',' || c.is_whitespace()
}

/// Splits an `allowed-tools` string into tools. A space or comma inside parentheses belongs to
/// the tool's pattern (`Bash(git diff:*)` is one tool, as clients read it), so only
/// [separators](is_tool_separator) outside them separate tools; an unbalanced `)` is kept as text.
pub(super) fn split_tools(text: &str) -> Vec<String> {
    let mut tools = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if is_tool_separator(c) && depth == 0 => {
                if !current.is_empty() {
                    tools.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.is_empty() {
        tools.push(current);
    }
    tools
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::testing::*;

    #[test]
    fn allowed_tools_as_a_list() {
        let (manifest, diagnostics) = strict(&with(
            "allowed-tools:\n  - Read\n  - Bash(git diff:*)\n  - 7\n",
        ));
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(
            manifest.unwrap().fields.allowed_tools,
            ["Read", "Bash(git diff:*)", "7"]
        );
    }

    #[test]
    fn name_missing() {
        let text = "---\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("my-skill"), Profile::Strict).1;
        assert_eq!(found(&diagnostics), [("name-missing", E, 1, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "name is required: add `name: my-skill`"
        );
        for yaml in ["name:\n", "name: \"\"\n", "name: '  '\n"] {
            let (manifest, diagnostics) = strict(&format!("---\n{yaml}description: d\n---\n"));
            assert_eq!(found(&diagnostics), [("name-missing", E, 2, 1)], "{yaml:?}");
            assert_eq!(manifest.unwrap().fields.name, "");
        }
    }

    #[test]
    fn name_type() {
        for yaml in [
            "name: [a]\n",
            "name: {a: b}\n",
            "name: null\n",
            "name: ~\n",
            "name:\n  - a\n",
        ] {
            let (manifest, diagnostics) = strict(&format!("---\n{yaml}description: d\n---\n"));
            assert_eq!(found(&diagnostics), [("name-type", E, 2, 1)], "{yaml:?}");
            assert_eq!(manifest.unwrap().fields.name, "");
        }
    }

    #[test]
    fn name_scalars_are_read_as_written() {
        for (yaml, name) in [
            ("123", "123"),
            ("1e3", "1e3"),
            ("true", "true"),
            ("0x1f", "0x1f"),
            ("'x1'", "x1"),
        ] {
            let (manifest, diagnostics) =
                strict(&format!("---\nname: {yaml}\ndescription: d\n---\n"));
            assert!(diagnostics.is_empty(), "{yaml}: {diagnostics:#?}");
            assert_eq!(manifest.unwrap().fields.name, name);
        }
    }

    #[test]
    fn name_too_long() {
        let name = "a".repeat(65);
        let text = format!("---\nname: {name}\ndescription: d\n---\n");
        let diagnostics = strict(&text).1;
        assert_eq!(found(&diagnostics), [("name-too-long", E, 2, 1)]);
        assert_eq!(
            diagnostics[0].message,
            format!(
                "name is 65 characters; the limit is 64: use {:?}",
                "a".repeat(64)
            )
        );
        assert_eq!(found(&lenient(&text).1), [("name-too-long", W, 2, 1)]);
        let sixty_four = format!("---\nname: {}\ndescription: d\n---\n", "é".repeat(64));
        assert!(strict(&sixty_four).1.is_empty());
    }

    #[test]
    fn name_rules() {
        let cases = [
            (
                "PDF-Tools",
                "name-case",
                r#"name "PDF-Tools" must be lowercase: use "pdf-tools""#,
            ),
            (
                "НАВЫК",
                "name-case",
                r#"name "НАВЫК" must be lowercase: use "навык""#,
            ),
            (
                "-pdf",
                "name-hyphen-edge",
                r#"name "-pdf" must not start or end with a hyphen: use "pdf""#,
            ),
            (
                "pdf-",
                "name-hyphen-edge",
                r#"name "pdf-" must not start or end with a hyphen: use "pdf""#,
            ),
            (
                "pdf--tools",
                "name-double-hyphen",
                r#"name "pdf--tools" must not contain consecutive hyphens ("--"): use "pdf-tools""#,
            ),
            (
                "pdf_tools.x",
                "name-chars",
                r#"name "pdf_tools.x" contains '.', '_': only lowercase letters, digits and hyphens are allowed: use "pdf-tools-x""#,
            ),
            (
                "+++",
                "name-chars",
                r#"name "+++" contains '+': only lowercase letters, digits and hyphens are allowed"#,
            ),
        ];
        for (name, rule, message) in cases {
            for profile in [Profile::Strict, Profile::Lenient] {
                let text = format!("---\ndescription: d\nname: {name}\n---\n");
                let diagnostics = parse(&text, None, profile).1;
                assert_eq!(found(&diagnostics), [(rule, E, 3, 1)], "{name}");
                assert_eq!(diagnostics[0].message, message);
            }
        }
    }

    #[test]
    fn name_rules_accumulate() {
        let text = "---\nname: -Bad__Name--\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("other"), Profile::Strict).1;
        let expected = [
            ("name-case", E, 2, 1),
            ("name-hyphen-edge", E, 2, 1),
            ("name-double-hyphen", E, 2, 1),
            ("name-chars", E, 2, 1),
            ("name-dir-mismatch", E, 2, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
    }

    #[test]
    fn unicode_names() {
        for name in ["技能", "мой-навык", "навык", "ab12", "café"] {
            let text = format!("---\nname: {name}\ndescription: d\n---\n");
            assert!(
                parse(&text, Some(name), Profile::Strict).1.is_empty(),
                "{name}"
            );
        }
    }

    #[test]
    fn name_and_folder_are_compared_after_nfkc() {
        let text = "---\nname: cafe\u{301}\ndescription: d\n---\n";
        let (manifest, diagnostics) = parse(text, Some("caf\u{e9}"), Profile::Strict);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().fields.name, "caf\u{e9}");
        // Compatibility characters fold too: the ligature "ﬁ" is "fi".
        assert!(
            parse(
                "---\nname: \u{FB01}le\ndescription: d\n---\n",
                Some("file"),
                Profile::Strict
            )
            .1
            .is_empty()
        );
    }

    #[test]
    fn name_dir_mismatch() {
        let text = "---\nname: correct-name\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("wrong-name"), Profile::Strict).1;
        assert_eq!(found(&diagnostics), [("name-dir-mismatch", E, 2, 1)]);
        assert_eq!(
            diagnostics[0].message,
            r#"name "correct-name" must match the folder name "wrong-name": use `name: wrong-name`, or rename the folder to "correct-name""#
        );
        assert_eq!(
            found(&parse(text, Some("wrong-name"), Profile::Lenient).1),
            [("name-dir-mismatch", W, 2, 1)]
        );
        assert!(parse(text, None, Profile::Strict).1.is_empty());
    }

    #[test]
    fn every_suggested_name_is_valid() {
        // Real names (64 real skills wrote "Ahrefs Automation") and the odd cases: the
        // suggestion passes every name rule, or there is none.
        let cases = [
            ("Ahrefs Automation", Some("ahrefs-automation")),
            ("PDF_Tools v2.0", Some("pdf-tools-v2-0")),
            ("  --Weird__  Name--  ", Some("weird-name")),
            ("Café Crème", Some("café-crème")),
            ("\u{FB01}le", Some("file")),
            ("НАВЫК Плюс", Some("навык-плюс")),
            ("C++ / Rust!", Some("c-rust")),
            ("🚀🚀", None),
            ("---", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(suggest_name(text).as_deref(), expected, "{text:?}");
        }
        let long = suggest_name(&format!("{}-b", "a".repeat(63))).unwrap();
        assert_eq!(
            long,
            "a".repeat(63),
            "cut at 64, then the trailing hyphen trimmed"
        );
        for text in [
            "Ahrefs Automation",
            "X".repeat(200).as_str(),
            "İstanbul ΣΑΣ",
            "ǅemal",
        ] {
            if let Some(name) = suggest_name(text) {
                assert!(name_problems(&name).is_empty(), "{text:?} -> {name:?}");
            }
        }
    }

    #[test]
    fn the_message_for_a_real_name_suggests_a_valid_one() {
        let text = "---\nname: Ahrefs Automation\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("ahrefs-automation"), Profile::Strict).1;
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                r#"name "Ahrefs Automation" must be lowercase: use "ahrefs-automation""#,
                r#"name "Ahrefs Automation" contains ' ': only lowercase letters, digits and hyphens are allowed: use "ahrefs-automation""#,
                r#"name "Ahrefs Automation" must match the folder name "ahrefs-automation": use `name: ahrefs-automation`"#,
            ]
        );
        // A missing name in a folder whose name is not valid: the valid form, and the rename.
        let diagnostics = parse(
            "---\ndescription: d\n---\n",
            Some("My Skill"),
            Profile::Strict,
        )
        .1;
        assert_eq!(
            single(&diagnostics).message,
            "name is required: add `name: my-skill` and rename the folder to match"
        );
        // Neither the name nor the folder valid: one valid name for both.
        let diagnostics = parse(
            "---\nname: A B\ndescription: d\n---\n",
            Some("C D"),
            Profile::Strict,
        )
        .1;
        assert_eq!(
            diagnostics.last().unwrap().message,
            r#"name "A B" must match the folder name "C D": rename the folder to "c-d" and use `name: c-d`"#
        );
    }

    #[test]
    fn a_folder_name_with_a_newline_keeps_messages_on_one_line() {
        let diagnostics = parse("---\ndescription: d\n---\n", Some("a\nb"), Profile::Strict).1;
        assert_eq!(single(&diagnostics).message, "name is required");
        let diagnostics = parse(
            "---\nname: a\ndescription: d\n---\n",
            Some("a\nb"),
            Profile::Strict,
        )
        .1;
        assert_eq!(
            single(&diagnostics).message,
            r#"name "a" must match the folder name "a\nb": rename the folder to "a""#
        );
    }

    #[test]
    fn description_missing_or_blank() {
        assert_eq!(
            found(&strict("---\nname: a\n---\n").1),
            [("description-missing", E, 1, 1)]
        );
        for yaml in [
            "description:\n",
            "description: '   '\n",
            "description: \"\"\n",
        ] {
            let diagnostics = lenient(&format!("---\nname: a\n{yaml}---\n")).1;
            assert_eq!(
                found(&diagnostics),
                [("description-missing", E, 3, 1)],
                "{yaml:?}"
            );
        }
    }

    #[test]
    fn description_type() {
        for yaml in [
            "description: [a]\n",
            "description:\n  a: b\n",
            "description: null\n",
        ] {
            let diagnostics = strict(&format!("---\nname: a\n{yaml}---\n")).1;
            assert_eq!(
                found(&diagnostics),
                [("description-type", E, 3, 1)],
                "{yaml:?}"
            );
        }
        let (manifest, diagnostics) = strict("---\nname: a\ndescription: true\n---\n");
        assert!(diagnostics.is_empty());
        assert_eq!(manifest.unwrap().fields.description, "true");
    }

    #[test]
    fn description_too_long() {
        let text = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(1100));
        let diagnostics = strict(&text).1;
        assert_eq!(found(&diagnostics), [("description-too-long", E, 3, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "description is 1100 characters; the limit is 1024"
        );
        let (manifest, diagnostics) = lenient(&text);
        assert_eq!(found(&diagnostics), [("description-too-long", W, 3, 1)]);
        assert_eq!(manifest.unwrap().fields.description.len(), 1100);
        let limit = format!("---\nname: a\ndescription: {}\n---\n", "ü".repeat(1024));
        assert!(strict(&limit).1.is_empty());
    }

    /// Issue 12: a block scalar's value (and so its length) did not depend on YAML alone but on
    /// whether another field followed it, because the text given to YAML lost its last line
    /// break. YAML's default chomping (clip) keeps one final newline in both places, as the
    /// reference validator, which parses the frontmatter up to the closing fence, counts it.
    #[test]
    fn a_block_scalar_has_the_same_value_first_or_last() {
        let long = "a".repeat(MAX_DESCRIPTION_CHARS);
        for indicator in ["|", ">"] {
            let block = format!("description: {indicator}\n  {long}\n");
            let last = format!("---\nname: a\n{block}---\n");
            let first = format!("---\n{block}name: a\n---\n");
            for text in [&last, &first] {
                let diagnostics = strict(text).1;
                let d = single(&diagnostics);
                assert_eq!(d.rule, Rule::DescriptionTooLong, "{text:?}");
                assert_eq!(
                    d.message,
                    "description is 1025 characters; the limit is 1024"
                );
            }
            // Trimmed when read, as before: the newline only counts towards the limit.
            let (manifest, _) = lenient(&last);
            assert_eq!(manifest.unwrap().fields.description, long);
        }
        let compatibility = format!("compatibility: |\n  {}\n", "c".repeat(500));
        for text in [
            format!("---\nname: a\ndescription: d\n{compatibility}---\n"),
            format!("---\n{compatibility}name: a\ndescription: d\n---\n"),
        ] {
            let diagnostics = strict(&text).1;
            assert_eq!(
                single(&diagnostics).message,
                "compatibility is 501 characters; the limit is 500"
            );
        }
        // Strip (`|-`) drops the newline, keep (`|+`) keeps every trailing one, last or not.
        let fits = format!("---\nname: a\ndescription: |-\n  {long}\n---\n");
        assert!(strict(&fits).1.is_empty());
        let kept = "---\nname: a\ndescription: |+\n  text\n\n---\n";
        assert_eq!(strict(kept).0.unwrap().fields.description, "text");
        let (manifest, _) = strict("---\nname: a\nmetadata:\n  note: |+\n    x\n\n---\n");
        assert_eq!(
            manifest.unwrap().fields.metadata,
            [("note".into(), "x\n\n".into())]
        );
    }

    #[test]
    fn license() {
        let (manifest, diagnostics) = strict(&with("license: 2\n"));
        assert!(diagnostics.is_empty());
        assert_eq!(manifest.unwrap().fields.license.as_deref(), Some("2"));
        assert_eq!(strict(&with("license:\n")).0.unwrap().fields.license, None);
        let (manifest, diagnostics) = lenient(&with("license:\n  - MIT\n"));
        assert_eq!(found(&diagnostics), [("license-type", E, 4, 1)]);
        assert_eq!(manifest.unwrap().fields.license, None);
    }

    #[test]
    fn compatibility() {
        assert_eq!(
            found(&strict(&with("compatibility: {a: b}\n")).1),
            [("compatibility-type", E, 4, 1)]
        );
        assert_eq!(
            found(&lenient(&with("compatibility:\n")).1),
            [("compatibility-length", E, 4, 1)]
        );
        let long = with(&format!("compatibility: {}\n", "x".repeat(501)));
        let diagnostics = lenient(&long).1;
        assert_eq!(found(&diagnostics), [("compatibility-length", E, 4, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "compatibility is 501 characters; the limit is 500"
        );
        assert!(
            strict(&with(&format!("compatibility: {}\n", "x".repeat(500))))
                .1
                .is_empty()
        );
    }

    #[test]
    fn metadata_must_be_a_mapping() {
        for yaml in ["metadata: text\n", "metadata: [a]\n"] {
            let (manifest, diagnostics) = lenient(&with(yaml));
            assert_eq!(
                found(&diagnostics),
                [("metadata-type", E, 4, 1)],
                "{yaml:?}"
            );
            assert!(manifest.unwrap().fields.metadata.is_empty());
        }
        assert!(strict(&with("metadata:\n")).1.is_empty());
    }

    #[test]
    fn metadata_values_are_text() {
        let yaml =
            "metadata:\n  z: 1.0\n  b: true\n  a: ~\n  3: x\n  nested:\n    k: v\n  list: [1, 2]\n";
        let diagnostics = strict(&with(yaml)).1;
        assert_eq!(
            found(&diagnostics),
            [("metadata-type", E, 9, 3), ("metadata-type", E, 11, 3)]
        );
        let (manifest, diagnostics) = lenient(&with(yaml));
        assert_eq!(
            found(&diagnostics),
            [("metadata-type", W, 9, 3), ("metadata-type", W, 11, 3)]
        );
        let pairs: Vec<(&str, &str)> = manifest
            .as_ref()
            .unwrap()
            .fields
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let expected = [
            ("3", "x"),
            ("a", ""),
            ("b", "true"),
            ("list", "[1,2]"),
            ("nested", r#"{"k":"v"}"#),
            ("z", "1.0"),
        ];
        assert_eq!(pairs, expected);
    }

    #[test]
    fn metadata_keys_must_be_text() {
        let diagnostics = strict(&with("metadata:\n  [a]: x\n")).1;
        assert_eq!(found(&diagnostics), [("metadata-type", E, 4, 1)]);
    }

    #[test]
    fn allowed_tools_type() {
        assert_eq!(
            found(&strict(&with("allowed-tools: {a: b}\n")).1),
            [("allowed-tools-type", E, 4, 1)]
        );
        let (manifest, diagnostics) =
            lenient(&with("allowed-tools:\n  - Read\n  - {a: b}\n  - [c]\n"));
        assert_eq!(
            found(&diagnostics),
            [
                ("allowed-tools-type", E, 4, 1),
                ("allowed-tools-type", E, 4, 1)
            ]
        );
        assert!(diagnostics[0].message.contains("item 2"));
        assert_eq!(manifest.unwrap().fields.allowed_tools, ["Read"]);
        assert!(strict(&with("allowed-tools:\n")).1.is_empty());
    }
}
