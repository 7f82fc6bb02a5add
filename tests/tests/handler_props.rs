//! Whatever a model sends, the handler answers with text it can act on, and never panics.

use proptest::prelude::*;
use serde_json::{Value, json};
use skills_embed::Tools;
use skills_embed::permission::Permissions;
use skills_embed::session::Session;

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
        let tools = Tools::new(&SKILLS).with_permissions(Permissions::new().deny("internal-*").ask("deploy"));
        let out = tools.handle(tool, &args.to_string());
        check(&out.text, out.is_error);
        prop_assert!(!out.text.contains("SECRET-INTERNAL-CONTENT"));
    }

    #[test]
    fn well_formed_calls_with_odd_values(skill in ".{0,30}", path in ".{0,60}", offset in any::<u64>(), section in ".{0,20}") {
        let tools = Tools::new(&SKILLS);
        let args = json!({"skill": skill, "path": path, "offset": offset, "section": section}).to_string();
        let out = tools.handle("load_skill", &args);
        check(&out.text, out.is_error);
    }

    #[test]
    fn raw_strings_and_unknown_tools(tool in ".{0,20}", raw in ".{0,200}") {
        let tools = Tools::new(&SKILLS);
        let out = tools.handle(&tool, &raw);
        check(&out.text, out.is_error);
    }

    #[test]
    fn sessions_survive_any_sequence(calls in prop::collection::vec((prop::sample::select(TOOL_NAMES), json_value()), 0..12)) {
        let tools = Tools::new(&SKILLS).with_permissions(Permissions::new().deny("internal-*").ask("deploy"));
        let mut session = Session::new(tools).unload_after(2);
        for (tool, args) in calls {
            let out = session.handle(tool, &args.to_string());
            check(&out.text, out.is_error);
            prop_assert!(!out.text.contains("SECRET-INTERNAL-CONTENT"));
            session.next_turn();
        }
    }
}
