//! The load tool through rig's tool machinery: rig-agent's `ToolSet` dispatch, a whole agent
//! turn with a scripted model, and dynamic tools over an overlay of skills on disk.

use std::sync::{Arc, Mutex};

use rig_agent::AgentBuilder;
use rig_agent::tool::ToolSet;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_core::tool::{ToolContext, ToolErrorKind};
use serde_json::{Value, json};
use skills_embed::policy::{Answer, Permissions};
use skills_embed::rig::SkillTools;
use skills_embed::tools::LoadReport;

skills_embed::skills!("../../skills/examples/skills");

const DENIED: &str = "brand-guidelines";

#[tokio::test(flavor = "current_thread")]
async fn the_tools_through_a_tool_set() {
    let tools = ToolSet::from_dynamic_tools(
        SkillTools::new(
            &SKILLS,
            skills_embed::tools::Settings {
                permissions: Permissions::new().deny(DENIED),
                ..skills_embed::tools::Settings::default()
            },
        )
        .tools(),
    );

    // The definition the model gets: the visible skills as the enum.
    let definitions = tools.tool_definitions();
    assert_eq!(definitions.len(), 1);
    assert_eq!(definitions[0].name.to_string(), "load_skill");
    assert_eq!(
        definitions[0].parameters["properties"]["skill"]["enum"],
        json!([
            "code-review",
            "pdf-forms",
            "release-notes",
            "sql-migrations"
        ])
    );

    // A hit: the handler's text, and the load report as host-only metadata.
    let mut context = ToolContext::default();
    let hit = tools
        .execute("load_skill", r#"{"skill": "code-review"}"#, &mut context)
        .await;
    assert!(hit.is_success(), "{hit:?}");
    let text = hit.output().as_text().unwrap();
    assert!(
        text.starts_with("[Skill: code-review | source=embedded]"),
        "{text}"
    );
    let load: LoadReport = context.result().unwrap().unwrap();
    assert_eq!(load.skill, "code-review");
    assert_eq!(load.path, "SKILL.md");
    assert_eq!(
        load.sha256,
        SKILLS
            .skill(SkillId::CodeReview)
            .load("SKILL.md")
            .unwrap()
            .sha256()
    );

    // Misses and bad arguments: errors whose model-visible text says what exists.
    for (arguments, kind, expected) in [
        (
            r#"{"skill": "code-reveiw"}"#,
            ToolErrorKind::NotFound,
            "Did you mean \"code-review\"?",
        ),
        (
            r#"{"skill": "pdf-forms", "path": "forms.md"}"#,
            ToolErrorKind::NotFound,
            "Did you mean \"references/forms.md\"?",
        ),
        (
            r#"{"skill": 42}"#,
            ToolErrorKind::InvalidArgs,
            "\"skill\" must be a string, not a number.",
        ),
        (
            r#"{"skill": "brand-guidelines"}"#,
            ToolErrorKind::NotFound,
            "Skill \"brand-guidelines\" not found. Available skills: code-review, pdf-forms, \
             release-notes, sql-migrations.",
        ),
    ] {
        let result = tools
            .execute("load_skill", arguments, &mut ToolContext::default())
            .await;
        assert!(result.is_error(), "{arguments}");
        assert_eq!(result.error().unwrap().kind(), kind, "{arguments}");
        let text = result.output().as_text().unwrap();
        assert!(text.contains(expected), "{arguments}: {text}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_agent_turn_with_a_scripted_model() {
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call-1", "load_skill", json!({"skill": "pdf-forms"})),
        MockTurn::tool_call(
            "call-2",
            "load_skill",
            json!({"skill": "pdf-forms", "path": "references/fields.md", "section": "checkbox"}),
        ),
        MockTurn::text("I will list the form's fields first."),
    ]);
    let agent = AgentBuilder::new(model.clone())
        .preamble(format!("You can load these skills:\n{}", SKILLS.summary()))
        .dynamic_tools(SkillTools::new(&SKILLS, skills_embed::tools::Settings::default()).tools())
        .build();
    let response = agent
        .prompt("Please fill in this PDF form.")
        .max_turns(5)
        .run()
        .await
        .unwrap();
    assert_eq!(response.output(), "I will list the form's fields first.");

    // The model was offered the tool, and got the body and then one section back.
    let requests = model.requests();
    assert_eq!(requests.len(), 3);
    let first = serde_json::to_string(&requests[0]).unwrap();
    assert!(first.contains("load_skill") && first.contains("sql-migrations"));
    let second = serde_json::to_string(&requests[1]).unwrap();
    assert!(
        second.contains("[Skill: pdf-forms | source=embedded]"),
        "{second}"
    );
    let third = serde_json::to_string(&requests[2]).unwrap();
    assert!(
        third.contains("[Skill Path: references/fields.md]"),
        "{third}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn approval_through_the_hook() {
    let answers = Arc::new(Mutex::new(vec![Answer::Always, Answer::Reject]));
    let asked = Arc::new(Mutex::new(0));
    let tool = SkillTools::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("release-notes"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let answers = Arc::clone(&answers);
            let asked = Arc::clone(&asked);
            move |_skill| {
                *asked.lock().unwrap() += 1;
                let answer = answers.lock().unwrap().pop().unwrap_or(Answer::Reject);
                async move { answer }
            }
        }),
    );
    let tools = ToolSet::from_dynamic_tools(tool.tools());
    let call = || {
        let tools = &tools;
        async move {
            tools
                .execute(
                    "load_skill",
                    r#"{"skill": "release-notes"}"#,
                    &mut ToolContext::default(),
                )
                .await
        }
    };
    let rejected = call().await;
    assert!(rejected.refusal().is_some(), "{rejected:?}");
    assert!(
        rejected
            .output()
            .as_text()
            .unwrap()
            .contains("The user declined loading skill \"release-notes\"")
    );
    assert!(call().await.is_success());
    // `always`: not asked again.
    assert!(call().await.is_success());
    assert_eq!(*asked.lock().unwrap(), 2);

    // Without a hook the load is refused, with the reason.
    let unasked = ToolSet::from_dynamic_tools(
        SkillTools::new(
            &SKILLS,
            skills_embed::tools::Settings {
                permissions: Permissions::new().ask("release-notes"),
                ..skills_embed::tools::Settings::default()
            },
        )
        .tools(),
    );
    let refused = unasked
        .execute(
            "load_skill",
            r#"{"skill": "release-notes"}"#,
            &mut ToolContext::default(),
        )
        .await;
    assert!(refused.refusal().is_some());
    assert!(
        refused
            .output()
            .as_text()
            .unwrap()
            .contains("needs the user's approval")
    );
}

#[tokio::test(flavor = "current_thread")]
async fn always_holds_until_a_reload_changes_the_skill() {
    use skills_embed::disk::{Discovery, Overlay};

    let dir = tempfile::tempdir().unwrap();
    let write = |body: &str| {
        let skill = dir.path().join("db-backup");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            format!("---\nname: db-backup\ndescription: Back up the database.\n---\n{body}"),
        )
        .unwrap();
    };
    write("Run pg_dump.\n");
    let discovery = Discovery::only(dir.path());
    let overlay = Arc::new(Overlay::new(&SKILLS, discovery));
    let asked = Arc::new(Mutex::new(0));
    let tools = SkillTools::new(
        Arc::clone(&overlay),
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("db-backup"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            move |_skill| {
                *asked.lock().unwrap() += 1;
                async { Answer::Always }
            }
        }),
    )
    .tools();
    let load = || async {
        let out = tools[0]
            .execute(json!({"skill": "db-backup"}))
            .await
            .unwrap();
        out.as_text().unwrap().to_owned()
    };
    let asked = || *asked.lock().unwrap();

    assert!(load().await.contains("Run pg_dump."));
    assert!(load().await.contains("Run pg_dump."));
    assert_eq!(asked(), 1, "always holds for the skill as approved");

    assert!(overlay.reload().changed.is_empty());
    assert!(load().await.contains("Run pg_dump."));
    assert_eq!(asked(), 1, "an unchanged skill is not asked for again");

    write("Run pg_dump, then drop the old tables.\n");
    assert_eq!(overlay.reload().changed, ["db-backup"]);
    assert!(load().await.contains("drop the old tables"));
    assert_eq!(asked(), 2, "a changed skill is asked for again");
    assert!(load().await.contains("drop the old tables"));
    assert_eq!(asked(), 2, "the new answer holds for the new content");
}

#[tokio::test(flavor = "current_thread")]
async fn dynamic_tools_over_an_overlay() {
    use skills_embed::disk::{Discovery, Overlay};

    let dir = tempfile::tempdir().unwrap();
    let discovery = Discovery::only(dir.path());
    let overlay = Arc::new(Overlay::new(&SKILLS, discovery));
    let source = SkillTools::new(
        Arc::clone(&overlay),
        skills_embed::tools::Settings::default(),
    );
    let tools = source.tools();
    assert_eq!(tools.len(), 1);
    let load = &tools[0];
    let missing = load
        .execute(json!({"skill": "db-backup"}))
        .await
        .unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("Skill \"db-backup\" not found")
    );

    let skill = dir.path().join("db-backup");
    std::fs::create_dir(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: db-backup\ndescription: Back up the database. Use before a migration.\n---\nRun pg_dump.\n",
    )
    .unwrap();
    assert_eq!(overlay.reload().added, ["db-backup"]);

    // The same tool answers from the new snapshot at once...
    let mut context = ToolContext::default();
    let out = load
        .execute_with(&mut context, json!({"skill": "db-backup"}))
        .await
        .unwrap();
    assert!(out.as_text().unwrap().contains("Run pg_dump."));
    let report: LoadReport = context.result().unwrap().unwrap();
    assert_eq!(report.source, "disk");
    // ... and tools built again show the new skill in their schema.
    let rebuilt = source.tools();
    let schema: &Value = &rebuilt[0].definition().parameters;
    assert!(
        schema["properties"]["skill"]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("db-backup"))
    );

    // Any name and the split style.
    let split = SkillTools::new(
        &SKILLS,
        skills_embed::tools::Settings {
            style: skills_embed::tools::ToolStyle::Split,
            ..skills_embed::tools::Settings::default()
        },
    )
    .tools();
    let chunk = split
        .iter()
        .find(|t| *t.name() == "read_skill_resource")
        .unwrap()
        .execute(json!({"skill": "sql-migrations", "file": "references/dialects/postgres.md"}))
        .await
        .unwrap();
    assert!(
        chunk
            .as_text()
            .unwrap()
            .contains("[Skill Path: references/dialects/postgres.md]")
    );
}

/// A skill of the given name, built in code (so the validator's name rules do not apply).
fn owned_skill(name: &str) -> skills_embed::Skill {
    let fields = skills_embed::Fields {
        name: name.into(),
        description: format!("The {name} skill."),
        ..skills_embed::Fields::default()
    };
    skills_embed::Skill::owned(fields, format!("Body of {name}.\n"), Vec::new())
}

#[tokio::test(flavor = "current_thread")]
async fn a_skill_named_star_granted_always_lets_no_other_skill_through() {
    let set = Arc::new(skills_embed::SkillSet::from_skills(
        vec![owned_skill("*"), owned_skill("deploy")],
        &skills_embed::listing::ListingFormat::Markdown,
    ));
    let asked = Arc::new(Mutex::new(Vec::new()));
    let tools = SkillTools::new(
        set,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("*"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            move |skill: skills_embed::policy::Subject| {
                let answer = if skill.skill == "*" {
                    Answer::Always
                } else {
                    Answer::Reject
                };
                asked.lock().unwrap().push(skill.to_string());
                async move { answer }
            }
        }),
    )
    .tools();
    let star = tools[0].execute(json!({"skill": "*"})).await.unwrap();
    assert!(star.as_text().unwrap().contains("Body of *."));
    // The grant is for the skill `*`, not the pattern: `deploy` is still asked for.
    let deploy = tools[0].execute(json!({"skill": "deploy"})).await;
    assert!(deploy.is_err(), "{deploy:?}");
    let star_again = tools[0].execute(json!({"skill": "*"})).await.unwrap();
    assert!(star_again.as_text().unwrap().contains("Body of *."));
    assert_eq!(*asked.lock().unwrap(), ["*", "deploy"]);
}

#[tokio::test(flavor = "current_thread")]
async fn no_visible_skill_no_dynamic_tool() {
    // Issue 15: no listing and no tool when there are no visible skills.
    let denied = SkillTools::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("*"),
            ..skills_embed::tools::Settings::default()
        },
    );
    assert!(denied.tools().is_empty());
    let listing = skills_embed::tools::Tools::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("*"),
            ..skills_embed::tools::Settings::default()
        },
    );
    assert!(listing.definitions().is_empty());
    assert_eq!(listing.listing(&Default::default()), "");

    // A live set that gains its first skill offers the tool once built again.
    let current = Arc::new(Mutex::new(Arc::new(skills_embed::SkillSet::from_skills(
        Vec::new(),
        &skills_embed::listing::ListingFormat::Markdown,
    ))));
    let live = SkillTools::new(
        skills_embed::tools::Source::live({
            let current = Arc::clone(&current);
            move || Arc::clone(&current.lock().unwrap())
        }),
        skills_embed::tools::Settings::default(),
    );
    assert!(live.tools().is_empty());
    *current.lock().unwrap() = Arc::new(skills_embed::SkillSet::from_skills(
        vec![owned_skill("deploy")],
        &skills_embed::listing::ListingFormat::Markdown,
    ));
    let tools = live.tools();
    assert_eq!(tools.len(), 1);
    let out = tools[0].execute(json!({"skill": "deploy"})).await.unwrap();
    assert!(out.as_text().unwrap().contains("Body of deploy."));
}
