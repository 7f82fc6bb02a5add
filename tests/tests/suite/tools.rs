//! Progressive disclosure at run time over embedded skills: tool definitions, the call handler,
//! chunks, limits and excerpts, the listing, sessions, modes and permissions.

use serde_json::json;
use skills_embed::listing::{Budget, ListingFormat, ListingOptions};
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::Disclosure;
use skills_embed::tools::{Event, Session};
use skills_embed::tools::{OutputShape, Settings, ToolStyle, Tools};
use skills_embed::{__private::hex, __private::sha256, SkillIdentifier};

skills_embed::skills!("fixtures/tools");

const GUIDE: &str = include_str!("../../fixtures/tools/pdf-forms/references/guide.md");

fn tools() -> Tools {
    Tools::new(&SKILLS, Settings::default())
}

fn rules() -> Permissions {
    Permissions::new().deny("internal-*").ask("deploy")
}

// ---- 1. Tool definitions ----

#[test]
fn unified_definition_lists_every_visible_skill_as_an_enum() {
    let defs = Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    )
    .definitions();
    assert_eq!(defs.len(), 1);
    assert_eq!(defs[0].name, "load_skill");
    let schema = defs[0].json_schema();
    assert_eq!(
        schema["properties"]["skill"]["enum"],
        json!(["deploy", "pdf-forms", "release-notes"])
    );
    assert_eq!(schema["required"], json!(["skill"]));
    assert_eq!(schema["properties"]["path"]["default"], json!("SKILL.md"));
    for key in ["path", "section", "offset", "chunk"] {
        assert!(
            schema["properties"][key]["description"]
                .as_str()
                .unwrap()
                .len()
                > 20,
            "{key}"
        );
    }
}

#[test]
fn split_style_and_a_configured_name() {
    let config = Settings {
        style: ToolStyle::Split,
        ..Settings::default()
    };
    let names: Vec<String> = Tools::new(&SKILLS, config)
        .definitions()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(
        names,
        ["read_skill", "read_skill_resource", "load_skill_chunk"]
    );
    let config = Settings {
        name: "skill".parse().unwrap(),
        ..Settings::default()
    };
    assert_eq!(Tools::new(&SKILLS, config).definitions()[0].name, "skill");
}

#[test]
fn the_listing_can_go_in_the_tool_description() {
    let config = Settings {
        listing_in_description: Some(ListingFormat::Markdown),
        ..Settings::default()
    };
    let def = &Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..config
        },
    )
    .definitions()[0];
    assert!(def.description.contains("- pdf-forms: Fill in PDF forms"));
    assert!(!def.description.contains("internal-notes"));
}

#[test]
fn exports_for_each_host() {
    let def = &tools().definitions()[0];
    let openai = def.to_openai();
    assert_eq!(openai["type"], "function");
    assert_eq!(openai["function"]["strict"], true);
    let params = &openai["function"]["parameters"];
    let props = params["properties"].as_object().unwrap();
    let required: Vec<&str> = params["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        required.len(),
        props.len(),
        "strict mode lists every property in required"
    );
    assert_eq!(
        params["properties"]["offset"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(def.to_anthropic()["input_schema"], def.json_schema());
    assert_eq!(def.to_mcp()["inputSchema"], def.json_schema());
}

// ---- 2. The handler ----

#[test]
fn body_comes_with_identity_report_chunks_and_files() {
    let out = tools().handle("load_skill", r#"{"skill":"pdf-forms"}"#);
    assert!(!out.is_error, "{}", out.text);
    let body = SKILLS.skill(SkillId::PdfForms).body();
    let digest = hex(&sha256(body.as_bytes()));
    assert!(out.text.starts_with(&format!(
        "[Skill: pdf-forms | source=embedded]\n[Skill Path: SKILL.md]\n[Load Report: sha256={digest} truncated=false"
    )), "{}", out.text);
    assert!(out.text.contains("1. List the fields"));
    // Chunks are out of the body, listed after it.
    assert!(!out.text.contains("Example 1: a W-9"));
    assert!(
        out.text
            .contains("- examples | Two worked examples of filled forms")
    );
    assert!(
        out.text
            .contains("- troubleshooting | What to do when a field will not fill")
    );
    // A fenced `<chunk>` is text.
    assert!(out.text.contains(r#"<chunk id="not-a-chunk""#));
    assert!(out.text.contains("Always check the filled form"));
    assert!(
        out.text
            .contains("- assets/: blank.gif\n- references/: guide.md\n- scripts/: fill.py"),
        "{}",
        out.text
    );
    let report = out.report.unwrap();
    assert_eq!(report.path, "SKILL.md");
    assert_eq!(report.sha256, sha256(body.as_bytes()));
    assert!(!report.truncated);
}

#[test]
fn xml_shape() {
    let config = Settings {
        shape: OutputShape::Xml,
        ..Settings::default()
    };
    let out = Tools::new(&SKILLS, config).handle("load_skill", r#"{"skill":"release-notes"}"#);
    assert!(out.text.starts_with(
        "<skill_content name=\"release-notes\" source=\"embedded\" path=\"SKILL.md\" sha256=\""
    ));
    assert!(out.text.ends_with("</skill_content>"));
    assert!(out.text.contains("Group changes into features"));
}

#[test]
fn chunks_load_by_id_and_a_miss_lists_the_ids() {
    let out = tools().handle("load_skill", r#"{"skill":"pdf-forms","chunk":"examples"}"#);
    assert!(!out.is_error);
    assert!(out.text.contains("[Skill Path: #examples]"));
    assert!(out.text.contains(
        "Example 1: a W-9 with name and TIN.\nExample 2: a lease with two signatures.\n"
    ));
    let split = tools().handle(
        "load_skill_chunk",
        r#"{"skill":"pdf-forms","chunk":"troubleshooting"}"#,
    );
    assert!(split.text.contains("Flattened forms have no fields"));
    let miss = tools().handle("load_skill", r#"{"skill":"pdf-forms","chunk":"example"}"#);
    assert!(miss.is_error);
    assert_eq!(
        miss.text,
        r#"Chunk "example" not found in skill "pdf-forms". Available chunks: examples, troubleshooting. Did you mean "examples"?"#
    );
}

#[test]
fn a_long_resource_is_cut_at_a_line_and_continues_by_offset_without_gaps() {
    let mut offset = 0;
    let mut rebuilt = String::new();
    let mut calls = 0;
    loop {
        let args = json!({"skill": "pdf-forms", "path": "references/guide.md", "offset": offset})
            .to_string();
        let out = tools().handle("load_skill", &args);
        assert!(!out.is_error, "{}", out.text);
        let report = out.report.clone().unwrap();
        assert!(report.chars_returned <= 12_000);
        let content = out.text.split_once("]\n\n").unwrap().1;
        let content = match report.next_offset {
            Some(next) => {
                assert!(
                    content.contains(&format!("\"offset\": {next}")),
                    "the answer says how to continue"
                );
                offset = next;
                content.rsplit_once("\n[Cut at byte").unwrap().0.to_owned() + "\n"
            }
            None => content.to_owned(),
        };
        let content = content
            .strip_suffix('\n')
            .filter(|_| report.next_offset.is_some())
            .unwrap_or(&content);
        rebuilt.push_str(content);
        calls += 1;
        if report.next_offset.is_none() {
            break;
        }
        assert!(rebuilt.ends_with('\n'), "cut at a line boundary");
    }
    assert!(calls >= 3);
    assert_eq!(rebuilt, GUIDE);
}

#[test]
fn a_section_runs_to_the_next_heading_of_its_level() {
    let out = tools().handle(
        "load_skill",
        r#"{"skill":"pdf-forms","path":"references/guide.md","section":"Section 3"}"#,
    );
    assert!(!out.is_error);
    assert!(out.text.contains("## Section 3\n"));
    assert!(out.text.contains("# not a heading inside a fence"));
    assert!(!out.text.contains("## Section 4"));
    assert!(!out.text.contains("## Section 2\n"));
}

#[test]
fn an_unknown_section_falls_back_to_the_start_and_names_the_headings() {
    let out = tools().handle(
        "load_skill",
        r#"{"skill":"pdf-forms","path":"references/guide.md","section":"Nope"}"#,
    );
    assert!(!out.is_error);
    assert!(out.text.contains(r#"[Section "Nope" not found, so this is the file from its start; its headings are: Field guide; Section 1; Section 2"#));
    assert!(out.text.contains("How producers name their fields."));
}

#[test]
fn binary_and_executable_files_are_described_not_dumped() {
    let out = tools().handle(
        "load_skill",
        r#"{"skill":"pdf-forms","path":"assets/blank.gif"}"#,
    );
    assert!(!out.is_error);
    assert!(
        out.text.contains(
            "assets/blank.gif is a binary file (image/gif, 14 bytes); its contents are not shown."
        ),
        "{}",
        out.text
    );
    let out = tools().handle(
        "read_skill_resource",
        r#"{"skill":"pdf-forms","file":"scripts/fill.py"}"#,
    );
    assert!(
        out.text
            .contains("scripts/fill.py is an executable file (text/x-python"),
        "{}",
        out.text
    );
    assert!(!out.text.contains("import sys"));
}

#[test]
fn bad_calls_answer_what_was_wrong_and_what_is_valid() {
    let t = tools();
    let cases = [
        ("load_skill", "not json", "not valid JSON"),
        ("load_skill", "[1,2]", "must be a JSON object, not an array"),
        ("load_skill", "{}", r#"Missing "skill""#),
        (
            "load_skill",
            r#"{"skill": 7}"#,
            r#""skill" must be a string, not a number"#,
        ),
        (
            "load_skill",
            r#"{"skill": "pdf-forms", "offset": -3}"#,
            "whole number",
        ),
        (
            "load_skill",
            r#"{"skill": "pdf-forms", "path": 3}"#,
            r#""path" must be a string"#,
        ),
        (
            "load_skill",
            r#"{"skill": "pdf"}"#,
            r#"Skill "pdf" not found. Available skills: deploy, internal-notes, pdf-forms, release-notes. Did you mean "pdf-forms"?"#,
        ),
        (
            "load_skill",
            r#"{"skill": "pdf-forms", "path": "../deploy/SKILL.md"}"#,
            "contains a `..` segment",
        ),
        (
            "load_skill",
            r#"{"skill": "pdf-forms", "path": "guide.md"}"#,
            r#"Did you mean "references/guide.md"?"#,
        ),
        (
            "read_skill_resource",
            r#"{"skill": "pdf-forms"}"#,
            r#"Missing "file""#,
        ),
        (
            "nope",
            "{}",
            "Unknown tool \"nope\". The skill tools are: load_skill.",
        ),
    ];
    for (tool, args, expected) in cases {
        let out = t.handle(tool, args);
        assert!(out.is_error, "{tool} {args}");
        assert!(out.text.contains(expected), "{tool} {args}: {}", out.text);
    }
    // The JSON errors say what valid names are.
    assert!(
        t.handle("load_skill", "{")
            .text
            .contains("Available skills: deploy, internal-notes, pdf-forms, release-notes.")
    );
    // A huge value is not echoed whole.
    let huge = json!({"skill": "x".repeat(100_000)}).to_string();
    assert!(t.handle("load_skill", &huge).text.len() < 1_000);
}

// ---- 6. The listing ----

#[test]
fn listing_formats_budget_and_hints() {
    let t = Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    );
    let md = t.listing(&ListingOptions::default());
    assert_eq!(md.lines().count(), 3, "{md}");
    assert!(!md.contains("internal"));
    let xml = t.listing(&ListingOptions {
        format: ListingFormat::Xml,
        ..ListingOptions::default()
    });
    assert!(
        xml.starts_with("<available_skills>\n<skill>\n<name>\ndeploy\n</name>\n<description>\n")
    );
    let tight = t.listing(&ListingOptions {
        budget: Some(Budget::Chars(150)),
        ..ListingOptions::default()
    });
    assert!(
        tight.chars().count() <= 150 || tight.lines().count() == 4,
        "{tight}"
    );
    assert!(tight.contains("shortened"), "{tight}");
    assert!(
        tight.contains("- release-notes"),
        "every skill stays named: {tight}"
    );
    let hints = t.listing(&ListingOptions {
        hints: true,
        ..ListingOptions::default()
    });
    assert!(
        hints.contains("(has files; has scripts; chunks: examples, troubleshooting)"),
        "{hints}"
    );
}

// ---- 7. Sessions ----

#[test]
fn a_session_dedupes_bodies_tracks_tools_and_unloads_idle_skills() {
    let mut s = Session::new(tools()).unload_after(2);
    assert!(
        s.handle("load_skill", r#"{"skill":"pdf-forms"}"#)
            .text
            .contains("1. List the fields")
    );
    let again = s.handle("load_skill", r#"{"skill":"pdf-forms"}"#);
    assert!(again.text.contains("already loaded") && again.report.is_none());
    assert!(s.unload("pdf-forms"));
    assert!(
        s.handle("load_skill", r#"{"skill":"pdf-forms"}"#)
            .text
            .contains("1. List the fields")
    );
    assert_eq!(s.active_tools(), ["Bash(python3:*)", "Read"]);
    s.next_turn();
    let _ = s.handle("read_skill", r#"{"skill":"release-notes"}"#);
    // Read is declared by both: registered once.
    assert_eq!(
        s.active_tools(),
        ["Bash(python3:*)", "Read", "Bash(git:*)", "Write"]
    );
    let events = s.drain_events();
    assert_eq!(
        events[0],
        Event::Loaded {
            skill: "pdf-forms".into()
        }
    );
    assert!(events.contains(&Event::ToolActivated("Write".into())));
    s.next_turn(); // pdf-forms idle for 2 turns: unloaded, its tools go unless another declares them
    assert_eq!(s.active_skills().collect::<Vec<_>>(), ["release-notes"]);
    assert_eq!(s.active_tools(), ["Bash(git:*)", "Read", "Write"]);
    let events = s.drain_events();
    assert!(
        events.contains(&Event::ToolDeactivated("Bash(python3:*)".into())),
        "{events:?}"
    );
    assert!(!events.contains(&Event::ToolDeactivated("Read".into())));
}

#[test]
fn loaded_chunks_are_carried_into_the_next_prompt() {
    let mut s = Session::new(tools());
    let _ = s.handle("load_skill", r#"{"skill":"pdf-forms","chunk":"examples"}"#);
    assert_eq!(
        s.system_prompt(&Disclosure::Progressive, "")
            .split_once("\n\n<skill_chunk")
            .map(|(_, chunks)| format!("<skill_chunk{chunks}")),
        Some("<skill_chunk skill=\"pdf-forms\" id=\"examples\">\nExample 1: a W-9 with name and TIN.\nExample 2: a lease with two signatures.\n</skill_chunk>\n".to_owned())
    );
}

// ---- 8. Modes ----

#[test]
fn progressive_eager_and_hybrid_prompts() {
    let mut s = Session::new(Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    let progressive = s.system_prompt(&Disclosure::Progressive, "fill this PDF form");
    assert!(progressive.contains("- pdf-forms: Fill in PDF forms"));
    assert!(!progressive.contains("1. List the fields"));
    assert!(!progressive.contains("internal-notes"));

    let mut s = Session::new(Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    let eager = s.system_prompt(
        &Disclosure::Eager {
            max_skills: 3,
            min_score: 2,
        },
        "please fill in this PDF form",
    );
    assert!(
        eager.contains("<skill name=\"pdf-forms\">\n# PDF forms"),
        "{eager}"
    );
    assert!(!eager.contains("release-notes"));
    assert_eq!(s.active_skills().collect::<Vec<_>>(), ["pdf-forms"]);

    let mut s = Session::new(Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    let hybrid = s.system_prompt(
        &Disclosure::Hybrid {
            eager: vec!["release-notes".into()],
        },
        "",
    );
    assert!(hybrid.contains("<skill name=\"release-notes\">\nGroup changes"));
    assert!(hybrid.contains("- pdf-forms: Fill in PDF forms"));
    assert!(!hybrid.contains("- release-notes:"));
}

// ---- 9. Permissions ----

#[test]
fn denied_skills_vanish_and_never_leak() {
    let t = Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    );
    assert!(
        !t.listing(&ListingOptions::default())
            .contains("internal-notes")
    );
    let out = t.handle("load_skill", r#"{"skill":"internal-notes"}"#);
    assert!(out.is_error);
    assert_eq!(
        out.text,
        r#"Skill "internal-notes" not found. Available skills: deploy, pdf-forms, release-notes."#
    );
    assert!(!out.text.contains("SECRET"));
    let mut s = Session::new(t);
    assert!(
        !s.handle(
            "load_skill_chunk",
            r#"{"skill":"internal-notes","chunk":"x"}"#
        )
        .text
        .contains("SECRET")
    );
}

#[test]
fn ask_waits_for_an_answer_and_always_is_remembered() {
    let mut s = Session::new(Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    let out = s.handle("load_skill", r#"{"skill":"deploy"}"#);
    assert_eq!(
        out.approval.as_ref().map(ToString::to_string).as_deref(),
        Some("deploy")
    );
    assert!(!out.text.contains("deploy pipeline"));
    assert_eq!(
        s.pending_approvals()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["deploy"]
    );
    assert!(s.drain_events().contains(&Event::ApprovalRequested(
        skills_embed::policy::Subject::load("deploy")
    )));

    let rejected = s
        .answer(
            &skills_embed::policy::Subject::load("deploy"),
            Answer::Reject,
        )
        .unwrap();
    assert!(rejected.is_error && rejected.text.contains("declined"));
    assert!(
        s.answer(&skills_embed::policy::Subject::load("deploy"), Answer::Once)
            .is_none(),
        "nothing pending any more"
    );

    let _ = s.handle("load_skill", r#"{"skill":"deploy"}"#);
    let once = s
        .answer(&skills_embed::policy::Subject::load("deploy"), Answer::Once)
        .unwrap();
    assert!(once.text.contains("deploy pipeline"));
    s.unload("deploy");
    assert!(
        s.handle("load_skill", r#"{"skill":"deploy"}"#)
            .approval
            .is_some(),
        "once is not remembered"
    );
    let always = s
        .answer(
            &skills_embed::policy::Subject::load("deploy"),
            Answer::Always,
        )
        .unwrap();
    assert!(always.text.contains("deploy pipeline"));
    s.unload("deploy");
    let direct = s.handle("load_skill", r#"{"skill":"deploy"}"#);
    assert!(
        direct.approval.is_none() && direct.text.contains("deploy pipeline"),
        "always is remembered"
    );
}

#[test]
fn rule_sets_per_agent() {
    // Each agent's tools take that agent's rules; an agent without its own gets the default.
    let agents = std::collections::BTreeMap::from([(
        "support",
        Permissions::new().deny("*").allow("pdf-*"),
    )]);
    let for_agent = |agent| agents.get(agent).cloned().unwrap_or_default();
    let support = Tools::new(
        &SKILLS,
        Settings {
            permissions: for_agent("support"),
            ..Settings::default()
        },
    );
    let names: Vec<&str> = support.visible().map(|s| s.name()).collect();
    assert_eq!(names, ["pdf-forms"]);
    let dev = Tools::new(
        &SKILLS,
        Settings {
            permissions: for_agent("dev"),
            ..Settings::default()
        },
    );
    assert_eq!(dev.visible().count(), SkillId::ALL.len());
    assert_eq!(<SkillId as SkillIdentifier>::ALL.len(), 4);
}
