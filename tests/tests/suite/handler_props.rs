//! Whatever a model sends, the handler answers with text it can act on, and never panics.

use proptest::prelude::*;
use serde_json::{Value, json};
use skills_embed::policy::Permissions;
use skills_embed::tools::Session;
use skills_embed::tools::{Settings, Tools};
use skills_embed::{Fields, File, Skill, SkillSet, listing::ListingFormat};

skills_embed::skills!("fixtures/tools");

const TOOL_NAMES: &[&str] = &[
    "load_skill",
    "read_skill",
    "read_skill_resource",
    "load_skill_chunk",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        prop::sample::select(vec![
            "pdf-forms",
            "deploy",
            "internal-notes",
            "SKILL.md",
            "references/guide.md",
            "../x",
            "examples",
            "Section 3"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "skill", "path", "file", "chunk", "section", "offset", "x"
                ])
                .prop_map(String::from),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn check(text: &str, is_error: bool) {
    assert!(!text.is_empty());
    if is_error {
        // Every error names what is valid: skills, paths, chunks, tools, or the expected shape.
        let helpful = [
            "Available",
            "must be",
            "Missing",
            "not valid JSON",
            "Unknown tool",
            "JSON object",
            "declined",
            "refused",
        ];
        assert!(
            helpful.iter().any(|h| text.contains(h)),
            "unhelpful error: {text}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_json_arguments_get_an_answer(tool in prop::sample::select(TOOL_NAMES), args in json_value()) {
        let tools = Tools::new(&SKILLS, Settings { permissions: Permissions::new().deny("internal-*").ask("deploy"), ..Settings::default() });
        let out = tools.handle(tool, &args.to_string());
        check(&out.text, out.is_error);
        prop_assert!(!out.text.contains("SECRET-INTERNAL-CONTENT"));
    }

    #[test]
    fn well_formed_calls_with_odd_values(skill in ".{0,30}", path in ".{0,60}", offset in any::<u64>(), section in ".{0,20}") {
        let tools = Tools::new(&SKILLS, Settings::default());
        let args = json!({"skill": skill, "path": path, "offset": offset, "section": section}).to_string();
        let out = tools.handle("load_skill", &args);
        check(&out.text, out.is_error);
    }

    #[test]
    fn raw_strings_and_unknown_tools(tool in ".{0,20}", raw in ".{0,200}") {
        let tools = Tools::new(&SKILLS, Settings::default());
        let out = tools.handle(&tool, &raw);
        check(&out.text, out.is_error);
    }

    #[test]
    fn sessions_survive_any_sequence(calls in prop::collection::vec((prop::sample::select(TOOL_NAMES), json_value()), 0..12)) {
        let tools = Tools::new(&SKILLS, Settings { permissions: Permissions::new().deny("internal-*").ask("deploy"), ..Settings::default() });
        let mut session = Session::new(tools).unload_after(2);
        for (tool, args) in calls {
            let out = session.handle(tool, &args.to_string());
            check(&out.text, out.is_error);
            prop_assert!(!out.text.contains("SECRET-INTERNAL-CONTENT"));
            session.next_turn();
        }
    }
}

/// The names of one listed line's items (`a.md, "b\"c.md"`), quoted ones read as JSON.
fn listed_names(mut list: &str) -> Vec<String> {
    let mut out = Vec::new();
    while !list.is_empty() {
        if list.starts_with('"') {
            let mut strings = serde_json::Deserializer::from_str(list).into_iter::<String>();
            out.push(strings.next().unwrap().unwrap());
            list = &list[strings.byte_offset()..];
        } else {
            let end = list.find(", ").unwrap_or(list.len());
            out.push(list[..end].to_owned());
            list = &list[end..];
        }
        list = list.strip_prefix(", ").unwrap_or(list);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever a skill and its files are called, the continuation hint is JSON that names
    /// them exactly, and the file list after the body reads back to the skill's files.
    #[test]
    fn any_names_give_a_json_hint_and_a_readable_file_list(
        skill in "\\PC{1,12}|[\"\\\\\n\r\t\u{1}\u{7f}\u{85}\u{2028}\u{200b}, :a-z]{1,12}",
        paths in prop::collection::btree_set("([\"\\\\\n\r\t\u{1}\u{85}\u{2028}\u{200b}, :a-z.]{1,8}/)?[\"\\\\\n\u{1}\u{2028}, :a-z.]{1,10}\\.md", 1..6),
    ) {
        let text = "line of text\n".repeat(50);
        let files = paths
            .iter()
            .map(|p| File::owned(p.clone(), text.clone().into_bytes(), false))
            .collect();
        let fields = Fields { name: skill.clone(), description: "d".into(), ..Fields::default() };
        let set = SkillSet::from_skills(vec![Skill::owned(fields, text.clone(), files)], &ListingFormat::Markdown);
        let config = Settings { max_chars: 100, max_body_chars: 100, ..Settings::default() };
        let tools = Tools::new(set.clone(), config);
        for path in &paths {
            let out = tools.handle("load_skill", &json!({"skill": skill, "path": path}).to_string());
            prop_assert!(!out.is_error, "{}", out.text);
            let marker = "To continue, call load_skill with ";
            let at = out.text.find(marker).unwrap() + marker.len();
            let mut objects = serde_json::Deserializer::from_str(&out.text[at..]).into_iter::<Value>();
            let hint = objects.next().unwrap().unwrap();
            prop_assert_eq!(&hint["skill"], &json!(skill));
            prop_assert_eq!(&hint["path"], &json!(path));
        }
        let body = Tools::new(set.clone(), Settings::default()).handle("load_skill", &json!({"skill": skill}).to_string());
        let list = body.text.split("Files of this skill (load one with load_skill with `path`):\n").nth(1).unwrap();
        let mut listed = Vec::new();
        for line in list.lines().take_while(|l| l.starts_with("- ")) {
            let (label, names) = line[2..].split_once("/: ").unwrap();
            let folder = match label {
                "." => String::new(),
                quoted if quoted.starts_with('"') => format!("{}/", serde_json::from_str::<String>(quoted).unwrap()),
                bare => format!("{bare}/"),
            };
            listed.extend(listed_names(names).into_iter().map(|n| format!("{folder}{n}")));
        }
        listed.sort();
        let expected: Vec<String> = paths.iter().cloned().collect();
        prop_assert_eq!(listed, expected);
    }
}
