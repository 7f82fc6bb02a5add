//! Names echoed back to the model: the continuation hint is JSON whatever the file is called,
//! and listings write every file and skill name on one line, escaped so that no name can break
//! a line or pass for two entries. "Did you mean" compares names after NFKC normalisation.

use serde_json::{Value, json};
use skills_embed::listing::{ListingFormat, ListingOptions};
use skills_embed::tools::{Settings, ToolStyle, Tools};
use skills_embed::{Fields, File, Skill, SkillSet};

/// File names that break naive quoting: a quote, a backslash, a line break, a comma and a
/// space (which could pass for two entries), a control character, a line separator, and a
/// folder holding a quote.
const NAMES: &[&str] = &[
    "a\"b.md",
    "c\\d.md",
    "e\nf.md",
    "g, h.md",
    "i\u{1}j.md",
    "k\u{2028}l.md",
    "m\"dir/n.md",
    "plain.md",
];

/// A long text, so every file is cut and answered with a continuation hint.
fn long_text() -> String {
    "Some line of text.\n".repeat(400)
}

fn skill(name: &str) -> Skill {
    let files = NAMES
        .iter()
        .map(|path| File::owned((*path).to_owned(), long_text().into_bytes(), false))
        .collect();
    Skill::owned(
        Fields {
            name: name.to_owned(),
            description: "A skill with awkward file names.".into(),
            ..Fields::default()
        },
        format!("# Body\n{}", long_text()),
        files,
    )
}

fn set() -> SkillSet {
    SkillSet::from_skills(vec![skill("demo")], &ListingFormat::Markdown)
}

fn config(style: ToolStyle) -> Settings {
    Settings {
        style,
        max_chars: 200,
        max_body_chars: 200,
        ..Settings::default()
    }
}

/// The JSON object of the "To continue, call TOOL with {...}." hint, parsed.
fn hint(text: &str, tool: &str) -> Value {
    let marker = format!("To continue, call {tool} with ");
    let start = text
        .find(&marker)
        .unwrap_or_else(|| panic!("no continuation hint in {text:?}"))
        + marker.len();
    let rest = &text[start..];
    let mut objects = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let value = objects
        .next()
        .unwrap_or_else(|| panic!("nothing after the hint marker: {rest:?}"))
        .unwrap_or_else(|e| panic!("the hint is not JSON ({e}): {rest:?}"));
    let after = &rest[objects.byte_offset()..];
    assert!(after.starts_with(".]\n"), "the hint ends oddly: {after:?}");
    value
}

#[test]
fn the_continuation_hint_is_json_for_any_file_name() {
    let set = set();
    for (style, tool, key) in [
        (ToolStyle::Unified, "load_skill", "path"),
        (ToolStyle::Split, "read_skill_resource", "file"),
    ] {
        let tools = Tools::new(set.clone(), config(style));
        for name in NAMES {
            let call = json!({ "skill": "demo", key: name }).to_string();
            let first = tools.handle(tool, &call);
            assert!(!first.is_error, "{name:?}: {}", first.text);
            let report = first.report.clone().unwrap();
            assert!(report.truncated, "{name:?}");
            let hint = hint(&first.text, tool);
            assert_eq!(hint["skill"], "demo", "{name:?}");
            assert_eq!(hint[key], *name, "{name:?}: the path must round-trip");
            assert_eq!(
                hint["offset"].as_u64(),
                report.next_offset.map(|n| n as u64),
                "{name:?}"
            );
            // Sending the hint back continues the same file.
            let next = tools.handle(tool, &hint.to_string());
            assert!(!next.is_error, "{name:?}: {}", next.text);
            let next_report = next.report.unwrap();
            assert_eq!(next_report.path, *name);
            assert!(next.text.contains("Some line of text."), "{name:?}");
        }
    }
}

#[test]
fn the_continuation_hint_of_a_body_names_an_awkward_skill() {
    let name = "we\"ird\\skill";
    let set = SkillSet::from_skills(vec![skill(name)], &ListingFormat::Markdown);
    let tools = Tools::new(set.clone(), config(ToolStyle::Unified));
    let first = tools.handle("load_skill", &json!({ "skill": name }).to_string());
    assert!(!first.is_error, "{}", first.text);
    let hint = hint(&first.text, "load_skill");
    assert_eq!(hint["skill"], name);
    assert_eq!(hint["path"], "SKILL.md");
    let next = tools.handle("load_skill", &hint.to_string());
    assert!(!next.is_error, "{}", next.text);
}

/// Splits one listed item list (`a.md, "b\"c.md"`) into names, reading quoted ones as JSON.
fn items(mut list: &str) -> Vec<String> {
    let mut out = Vec::new();
    while !list.is_empty() {
        if list.starts_with('"') {
            let mut strings = serde_json::Deserializer::from_str(list).into_iter::<String>();
            let name = strings
                .next()
                .unwrap()
                .unwrap_or_else(|e| panic!("bad quoted name ({e}) in {list:?}"));
            out.push(name);
            list = &list[strings.byte_offset()..];
        } else {
            let end = list.find(", ").unwrap_or(list.len());
            let name = &list[..end];
            assert!(
                !name.contains(['"', '\\', ',']) && !name.chars().any(char::is_control),
                "a name that needs quoting was written bare: {name:?}"
            );
            out.push(name.to_owned());
            list = &list[end..];
        }
        list = list.strip_prefix(", ").unwrap_or(list);
    }
    out
}

#[test]
fn the_file_list_after_a_body_keeps_each_name_on_its_line() {
    let set = set();
    let tools = Tools::new(set.clone(), Settings::default());
    let out = tools.handle("load_skill", r#"{"skill": "demo"}"#);
    assert!(!out.is_error, "{}", out.text);
    let list = out
        .text
        .split("Files of this skill (load one with load_skill with `path`):\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no file list in {:?}", out.text));
    let lines: Vec<&str> = list
        .lines()
        .take_while(|line| line.starts_with("- "))
        .collect();
    // One line per folder: `./` and `m"dir/`.
    assert_eq!(lines.len(), 2, "{lines:#?}");
    let mut listed = Vec::new();
    for line in &lines {
        let (label, names) = line[2..]
            .split_once("/: ")
            .unwrap_or_else(|| panic!("not `- FOLDER/: names`: {line:?}"));
        let folder = match label {
            "." => String::new(),
            quoted if quoted.starts_with('"') => {
                format!("{}/", serde_json::from_str::<String>(quoted).unwrap())
            }
            bare => format!("{bare}/"),
        };
        for name in items(names) {
            listed.push(format!("{folder}{name}"));
        }
    }
    let mut expected: Vec<String> = NAMES.iter().map(|s| (*s).to_owned()).collect();
    expected.sort();
    listed.sort();
    assert_eq!(listed, expected);
}

#[test]
fn a_miss_lists_awkward_names_one_per_entry() {
    let set = set();
    let tools = Tools::new(set.clone(), Settings::default());
    let out = tools.handle("load_skill", r#"{"skill": "demo", "path": "nope.md"}"#);
    assert!(out.is_error);
    assert_eq!(out.text.lines().count(), 1, "{:?}", out.text);
    let list = out
        .text
        .split("Available files: ")
        .nth(1)
        .unwrap()
        .split(". Did you mean")
        .next()
        .unwrap()
        .split(". Use \"SKILL.md\"")
        .next()
        .unwrap();
    let mut expected: Vec<String> = NAMES.iter().map(|s| (*s).to_owned()).collect();
    expected.push("SKILL.md".into());
    expected.sort();
    let mut listed = items(list);
    listed.sort();
    assert_eq!(listed, expected);
}

#[test]
fn listings_write_each_skill_name_on_one_line() {
    let names = ["bad\nname", "comma, name", "fine", "quote\"name"];
    let skills = names.iter().map(|name| skill(name)).collect();
    let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    let tools = Tools::new(set.clone(), Settings::default());
    for format in [
        ListingFormat::Markdown,
        ListingFormat::Template("* {name}: {description}\n".into()),
    ] {
        let listing = tools.listing(&ListingOptions {
            format: format.clone(),
            ..ListingOptions::default()
        });
        assert_eq!(
            listing.lines().count(),
            names.len(),
            "{format:?}: {listing}"
        );
        for (line, name) in listing.lines().zip(names) {
            let quoted = serde_json::to_string(name).unwrap();
            let shown = if name.contains(['\n', ',', '"']) {
                quoted.as_str()
            } else {
                name
            };
            assert!(line[2..].starts_with(&format!("{shown}: ")), "{line:?}");
        }
    }
    let xml = tools.listing(&ListingOptions {
        format: ListingFormat::Xml,
        ..ListingOptions::default()
    });
    // <available_skills>, then 8 lines per skill, then </available_skills>.
    assert_eq!(xml.lines().count(), 2 + 8 * names.len(), "{xml}");
    // An unknown skill's error lists the names on one line.
    let miss = tools.handle("load_skill", r#"{"skill": "nope"}"#);
    assert!(miss.is_error);
    assert_eq!(miss.text.lines().count(), 1, "{:?}", miss.text);
    let list = miss
        .text
        .split("Available skills: ")
        .nth(1)
        .unwrap()
        .split(". Did you mean")
        .next()
        .unwrap()
        .trim_end_matches('.');
    assert_eq!(items(list), names);
}

#[test]
fn a_decomposed_spelling_gets_a_suggestion() {
    // "café" written with a combining accent (NFD) against the composed name (NFC).
    let composed = "caf\u{e9}";
    let decomposed = "cafe\u{301}";
    let set = SkillSet::from_skills(vec![skill(composed)], &ListingFormat::Markdown);
    let miss = set.get(decomposed).unwrap_err().to_string();
    assert!(
        miss.contains(&format!("Did you mean \"{composed}\"?")),
        "{miss}"
    );
    // A file path: NFD folder and file name against NFC ones.
    let file = File::owned("r\u{e9}f/caf\u{e9}.md".into(), b"x".to_vec(), false);
    let accented = Skill::owned(
        Fields {
            name: "demo".into(),
            description: "d".into(),
            ..Fields::default()
        },
        "Body".into(),
        vec![file],
    );
    let miss = accented
        .load("re\u{301}f/cafe\u{301}.md")
        .unwrap_err()
        .to_string();
    assert!(
        miss.contains("Did you mean \"r\u{e9}f/caf\u{e9}.md\"?"),
        "{miss}"
    );
    // Compatibility forms too: the "ﬁ" ligature is "fi" under NFKC.
    let set = SkillSet::from_skills(vec![skill("fix")], &ListingFormat::Markdown);
    let miss = set.get("\u{fb01}x").unwrap_err().to_string();
    assert!(miss.contains("Did you mean \"fix\"?"), "{miss}");
}
