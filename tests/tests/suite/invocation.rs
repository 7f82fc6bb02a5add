//! Invocation policy (issue 15, items 1 and 2): read from each client dialect at compile time
//! and from disk, and honoured on every surface the model reaches, while the host and the user
//! keep what they may invoke.
//!
//! The fixture `fixtures/invocation` holds one skill per dialect field:
//! `deploy` (Claude Code `disable-model-invocation: true`), `style-guide` (`user-invocable:
//! false`), `release` (Codex `agents/openai.yaml`, `allow_implicit_invocation: false`),
//! `autoinvoke-off` (OpenCode `opencode/autoinvoke: "false"`) and `pdf` (arguments, a hint, and
//! Claude Code's `model` and `context`).

use skills_embed::tools::Settings;
use std::path::{Path, PathBuf};

use serde_json::json;
use skills_embed::__private::scan;
use skills_embed::disk::Discovery;
use skills_embed::parse::{Dialect, Profile, Rule, ScanOptions};
use skills_embed::tools::Session;
use skills_embed::{
    SkillSet, invoke,
    listing::{ListingFormat, ListingOptions},
    tools::Tools,
};

skills_embed::skills!(
    "fixtures/invocation",
    dialects = [claude_code, codex, opencode]
);

mod as_strings {
    skills_embed::skills!(
        "fixtures/invocation",
        dialects = ["claude-code", "codex", "opencode"],
        enum_name = Named,
        static_name = NAMED,
    );
}

/// What the model may see.
const MODEL: [&str; 2] = ["pdf", "style-guide"];
/// What the model may not see.
const HIDDEN: [&str; 3] = ["autoinvoke-off", "deploy", "release"];
/// What the user's menu holds.
const MENU: [&str; 4] = ["autoinvoke-off", "deploy", "pdf", "release"];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/invocation")
}

fn names<'a>(skills: impl Iterator<Item = &'a skills_embed::Skill>) -> Vec<&'a str> {
    skills.map(|s| s.name()).collect()
}

// ---- embedded (the macro) ----

#[test]
fn the_enum_keeps_every_skill_for_the_host() {
    assert_eq!(SkillId::ALL.len(), 5);
    assert_eq!(SkillId::Deploy.name(), "deploy");
    assert_eq!(
        SKILLS
            .skill(SkillId::Deploy)
            .load("SKILL.md")
            .unwrap()
            .text(),
        Some("Deploy to $env.\n")
    );
    assert!(SKILLS.get("release").is_ok());
    assert_eq!(as_strings::NAMED.len(), 5);
}

#[test]
fn embedded_policies_are_typed() {
    let deploy = SKILLS.skill(SkillId::Deploy).invocation();
    assert!(!deploy.model_may_invoke && deploy.user_may_invoke);
    assert_eq!(deploy.argument_hint.as_deref(), Some("[env]"));
    assert_eq!(deploy.arguments, ["env"]);
    let style = SKILLS.skill(SkillId::StyleGuide).invocation();
    assert!(style.model_may_invoke && !style.user_may_invoke);
    assert!(!SKILLS.skill(SkillId::Release).invocation().model_may_invoke);
    assert!(
        !SKILLS
            .skill(SkillId::AutoinvokeOff)
            .invocation()
            .model_may_invoke
    );
    let pdf = SKILLS.skill(SkillId::Pdf).invocation();
    assert!(pdf.model_may_invoke && pdf.user_may_invoke);
    assert_eq!(pdf.argument_hint.as_deref(), Some("[file] [values]"));
    assert_eq!(pdf.arguments, ["file", "values"]);
    // The string form of the option reads the same.
    for id in SkillId::ALL {
        let named = as_strings::NAMED.get(id.name()).unwrap();
        assert_eq!(named.invocation(), SKILLS.skill(*id).invocation());
    }
}

#[test]
fn other_client_fields_are_kept_as_json() {
    let pdf = SKILLS.skill(SkillId::Pdf);
    assert_eq!(pdf.extra().get("model").cloned(), Some(json!("sonnet")));
    assert_eq!(pdf.extra().get("context").cloned(), Some(json!("fork")));
    assert_eq!(
        pdf.extra().get("arguments").cloned(),
        Some(json!(["file", "values"]))
    );
    assert_eq!(
        SKILLS
            .skill(SkillId::Deploy)
            .extra()
            .get("disable-model-invocation")
            .cloned(),
        Some(json!(true))
    );
}

#[test]
fn the_static_listing_leaves_out_what_the_model_may_not_invoke() {
    let summary = SKILLS.summary();
    for name in MODEL {
        assert!(summary.contains(&format!("- {name}: ")), "{summary}");
    }
    for name in HIDDEN {
        assert!(!summary.contains(name), "{name} in {summary}");
    }
    assert_eq!(summary, SKILLS.listing(&ListingOptions::default()));
}

#[test]
fn the_schema_enum_sent_to_the_model_leaves_them_out() {
    let schema = skills_embed::__private::schemars::schema_for!(SkillId);
    assert_eq!(schema.as_value()["enum"], json!(MODEL));
    let defs = Tools::new(&SKILLS, Settings::default()).definitions();
    assert_eq!(
        defs[0].json_schema()["properties"]["skill"]["enum"],
        json!(MODEL)
    );
    assert_eq!(
        defs[0].to_openai()["function"]["parameters"]["properties"]["skill"]["enum"],
        json!(MODEL)
    );
}

#[test]
fn the_runtime_listing_and_visible_set_leave_them_out() {
    let tools = Tools::new(&SKILLS, Settings::default());
    assert_eq!(names(tools.visible()), MODEL);
    let listing = tools.listing(&Default::default());
    for name in HIDDEN {
        assert!(!listing.contains(name), "{name} in {listing}");
    }
    assert!(listing.contains("pdf"));
}

#[test]
fn the_handler_answers_like_an_unknown_skill_without_leaking_the_name() {
    let tools = Tools::new(&SKILLS, Settings::default());
    for hidden in HIDDEN {
        let answer = tools.handle("load_skill", &json!({ "skill": hidden }).to_string());
        assert!(answer.is_error, "{hidden}: {}", answer.text);
        // Exactly the answer to a name that never existed, with the name echoed.
        let stand_in = "z".repeat(hidden.len());
        let unknown = tools.handle("load_skill", &json!({ "skill": stand_in }).to_string());
        assert_eq!(answer.text.replace(hidden, &stand_in), unknown.text);
        // Only the requested name appears: no other hidden skill is listed.
        for other in HIDDEN.iter().filter(|o| *o != &hidden) {
            assert!(
                !answer.text.contains(other),
                "{other} leaked: {}",
                answer.text
            );
        }
        // Every tool of the split style too.
        for (tool, args) in [
            ("read_skill", json!({ "skill": hidden })),
            (
                "read_skill_resource",
                json!({ "skill": hidden, "file": "SKILL.md" }),
            ),
        ] {
            let answer = tools.handle(tool, &args.to_string());
            assert!(
                answer.is_error && answer.text.contains("not found"),
                "{}",
                answer.text
            );
        }
    }
    // A near miss of a hidden name is never corrected to it.
    let near = tools.handle("load_skill", r#"{"skill":"deplyo"}"#);
    assert!(near.is_error);
    assert!(!near.text.contains("deploy"), "{}", near.text);
    assert!(near.text.contains("pdf"), "{}", near.text);
    // A session answers the same.
    let mut session = Session::new(Tools::new(&SKILLS, Settings::default()));
    let answer = session.handle("load_skill", r#"{"skill":"deploy"}"#);
    assert!(answer.is_error && answer.text.contains("not found"));
    // The visible ones still load.
    assert!(!tools.handle("load_skill", r#"{"skill":"pdf"}"#).is_error);
}

#[test]
fn the_user_menu_leaves_out_what_the_user_may_not_invoke() {
    let menu: Vec<_> = invoke::menu(SKILLS.skills()).collect();
    let menu_names: Vec<&str> = menu.iter().map(|e| e.name()).collect();
    assert_eq!(menu_names, MENU);
    let hint = |name: &str| {
        menu.iter()
            .find(|e| e.name() == name)
            .unwrap()
            .invocation()
            .argument_hint
    };
    assert_eq!(hint("deploy").as_deref(), Some("[env]"));
    assert_eq!(hint("pdf").as_deref(), Some("[file] [values]"));
    assert_eq!(hint("release"), None);
    // What the session finds in a message is what the user may invoke.
    let mut session = Session::new(Tools::new(&SKILLS, Settings::default()));
    let (invoked, unknown) = session.invoke("/deploy /style-guide", |_| None).unwrap();
    assert_eq!(invoked.len(), 1);
    assert_eq!(invoked[0].0.name, "deploy");
    let refused = format!("{unknown:?}");
    assert!(
        !refused.contains("Available skills: style-guide"),
        "{refused}"
    );
    assert!(
        !SKILLS
            .skill(SkillId::StyleGuide)
            .invocation()
            .user_may_invoke
    );
}

#[test]
fn the_user_invokes_what_the_model_may_not() {
    let user_may = || {
        SKILLS
            .skills()
            .iter()
            .filter(|s| s.invocation().user_may_invoke)
            .map(|s| s.name())
    };
    let (invocations, unknown) = invoke::parse("please /deploy, then /style-guide", user_may());
    assert_eq!(invocations.len(), 1);
    assert_eq!(invocations[0].name, "deploy");
    assert_eq!(unknown[0].text, "/style-guide");
    let (invocations, _) = invoke::parse("/deploy prod", user_may());
    let deploy = SKILLS.get("deploy").unwrap();
    assert_eq!(
        invoke::render(deploy, &invocations[0].args, None).unwrap(),
        "Deploy to prod.\n"
    );
    let pdf = SKILLS.get("pdf").unwrap();
    assert_eq!(
        invoke::render(pdf, "a.pdf 'x y'", None).unwrap(),
        "Fill a.pdf with x y.\n"
    );
}

#[test]
fn a_session_lets_the_user_invoke_what_the_model_may_not() {
    let mut session = Session::new(Tools::new(&SKILLS, Settings::default()));
    let (invoked, unknown) = session.invoke("/deploy prod", |_| None).unwrap();
    assert_eq!(invoked.len(), 1, "{unknown:?}");
    assert_eq!(invoked[0].1, "Deploy to prod.\n");
    // The user may not invoke the style guide: left as text, reported.
    let (invoked, unknown) = session
        .invoke("please follow /style-guide", |_| None)
        .unwrap();
    assert!(invoked.is_empty());
    assert_eq!(unknown[0].text, "/style-guide");
    // The model still may not load what the user just invoked.
    assert!(
        session
            .handle("load_skill", r#"{"skill":"deploy"}"#)
            .is_error
    );
}

#[test]
fn no_visible_skill_no_tool() {
    let hidden: Vec<_> = HIDDEN
        .iter()
        .map(|n| SKILLS.get(n).unwrap().clone())
        .collect();
    let set = SkillSet::from_skills(hidden, &ListingFormat::Markdown);
    let tools = Tools::new(set.clone(), Settings::default());
    assert!(tools.definitions().is_empty());
    assert_eq!(tools.listing(&Default::default()), "");
    assert_eq!(set.summary(), "");
    // The host still has them all.
    assert_eq!(set.len(), 3);
}

// ---- disk (the scanner and discovery) ----

#[test]
fn strict_disk_reads_report_claude_code_fields_and_honour_nothing() {
    let mut tree = scan(&fixture(), &ScanOptions::default());
    let errors: Vec<(&str, usize)> = tree
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                d.file
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap(),
                d.line,
            )
        })
        .collect();
    // Every Claude Code field, at its line; nothing from Codex or OpenCode.
    assert_eq!(
        errors,
        [
            ("deploy", 4),
            ("deploy", 5),
            ("deploy", 6),
            ("pdf", 4),
            ("pdf", 5),
            ("pdf", 6),
            ("pdf", 7),
            ("style-guide", 4),
        ]
    );
    assert!(
        tree.diagnostics
            .iter()
            .all(|d| d.rule == Rule::UnknownField)
    );
    let (set, _) = skills_embed::__private::set_of(&mut tree, &ListingFormat::Markdown);
    // The valid ones are not hidden: strict honours no client field.
    assert_eq!(
        names(Tools::new(set.clone(), Settings::default()).visible()),
        ["autoinvoke-off", "release"]
    );
}

#[test]
fn lenient_discovery_honours_every_dialect_with_a_warning_naming_the_client() {
    let found = Discovery::only(fixture()).scan();
    assert!(!found.has_errors(), "{:#?}", found.diagnostics);
    let warnings: Vec<String> = found
        .diagnostics
        .iter()
        .filter(|d| !d.is_error() && d.rule == Rule::UnknownField)
        .map(|d| {
            format!(
                "{}:{}",
                d.to_string()
                    .split(": ")
                    .next()
                    .unwrap()
                    .rsplit_once("invocation/")
                    .unwrap()
                    .1,
                d.message
            )
        })
        .collect();
    let has = |start: &str, client: &str| {
        warnings
            .iter()
            .any(|w| w.starts_with(start) && w.contains(&format!(" {client} field")))
    };
    assert!(has("deploy/SKILL.md:4:1", "Claude Code"), "{warnings:#?}");
    assert!(
        has("style-guide/SKILL.md:4:1", "Claude Code"),
        "{warnings:#?}"
    );
    let codex = warnings.iter().any(|w| {
        w.starts_with("release/agents/openai.yaml:4:3") && w.contains("is a Codex setting")
    });
    assert!(codex, "{warnings:#?}");
    assert!(
        has("autoinvoke-off/SKILL.md:5:3", "OpenCode"),
        "{warnings:#?}"
    );
    let skills: Vec<_> = found.skills.iter().map(|f| f.skill.clone()).collect();
    let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    assert_eq!(
        names(Tools::new(set.clone(), Settings::default()).visible()),
        MODEL
    );
    assert_eq!(
        invoke::menu(set.skills())
            .map(|e| e.name())
            .collect::<Vec<_>>(),
        MENU
    );
    for name in HIDDEN {
        assert!(!set.summary().contains(name));
    }
}

#[test]
fn discovery_with_dialects_accepts_them_silently() {
    let mut discovery = Discovery::only(fixture());
    discovery.scan.dialects = Dialect::ALL.to_vec();
    let found = discovery.scan();
    let client: Vec<_> = found
        .diagnostics
        .iter()
        .filter(|d| matches!(d.rule, Rule::UnknownField | Rule::ClientFieldType))
        .collect();
    assert!(client.is_empty(), "{client:#?}");
    let deploy = &found.get("deploy").unwrap().skill;
    assert!(!deploy.invocation().model_may_invoke);
    assert_eq!(deploy.invocation().argument_hint.as_deref(), Some("[env]"));
    // Disk and embedded agree, to the digest: the extra fields are one canonical JSON text
    // whichever side printed them (see tests/suite/extra_fields.rs).
    for id in SkillId::ALL {
        let disk = &found.get(id.name()).unwrap().skill;
        let embedded = SKILLS.skill(*id);
        assert_eq!(disk.invocation(), embedded.invocation(), "{id}");
        assert_eq!(
            serde_json::to_string(&disk.extra()).unwrap(),
            serde_json::to_string(&embedded.extra()).unwrap(),
            "{id}"
        );
        assert_eq!(disk.content_digest(), embedded.content_digest(), "{id}");
    }
}

#[test]
fn strict_with_one_dialect_checks_its_types_with_lines() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("deploy");
    std::fs::create_dir_all(skill.join("agents")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: deploy\ndescription: Deploy.\nuser-invocable: \"no\"\n---\nGo.\n",
    )
    .unwrap();
    std::fs::write(
        skill.join("agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: nope\n",
    )
    .unwrap();
    let options = |dialects: Vec<Dialect>| ScanOptions {
        profile: Profile::Strict,
        dialects,
        ..ScanOptions::default()
    };
    let tree = scan(dir.path(), &options(vec![Dialect::ClaudeCode]));
    let found: Vec<_> = tree
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.is_error(), d.line, d.column))
        .collect();
    // Codex is not opted in and the profile is strict: its file is not read.
    assert_eq!(found, [(Rule::ClientFieldType, true, 4, 1)]);
    assert!(
        tree.diagnostics[0]
            .message
            .contains("\"user-invocable\" (Claude Code) must be a boolean")
    );
    let tree = scan(dir.path(), &options(Dialect::ALL.to_vec()));
    let found: Vec<_> = tree
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.file.file_name().unwrap().to_str().unwrap().to_owned(),
                d.rule,
                d.line,
                d.column,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("SKILL.md".to_owned(), Rule::ClientFieldType, 4, 1),
            ("openai.yaml".to_owned(), Rule::ClientFieldType, 2, 3)
        ]
    );
    assert!(!tree.skills[0].valid);
}
