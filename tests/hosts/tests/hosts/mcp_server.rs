//! The MCP server in process, over an in-memory pipe, with rmcp's client: embedded skills,
//! permissions (`deny` and `ask`) on every surface, the approval hook, session events, the
//! split tools, and a live overlay whose changes reach the client.

use crate::common::{call, connect, error_message, text};

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, GetPromptRequestParams, GetSkillRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, Reference, ResourceContents,
    ResourceTemplateReference, SkillResources,
};
use rmcp::service::{NotificationContext, RoleClient, ServiceError};
use serde_json::{Value, json};
use skills_embed::disk::{Discovery, Overlay};
use skills_embed::mcp::McpServer;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::Event;
use skills_embed::tools::{Settings, ToolStyle};

skills_embed::skills!("../../skills/examples/skills");

const DENIED: &str = "brand-guidelines";
const ASK: &str = "release-notes";

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
struct Client {
    tool_list_changed: Arc<Mutex<usize>>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        *self.tool_list_changed.lock().unwrap() += 1;
    }
}

/// The code and message of a JSON-RPC error answer.
fn error_code(error: ServiceError) -> (i32, String) {
    match error {
        ServiceError::McpError(data) => (data.code.0, data.message.into_owned()),
        other => panic!("expected an MCP error answer, got {other}"),
    }
}

fn resource_text(contents: &ResourceContents) -> &str {
    match contents {
        ResourceContents::TextResourceContents { text, .. } => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn permissions_apply_to_every_surface() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let answers = Arc::new(Mutex::new(vec![
        Answer::Always,
        Answer::Reject,
        Answer::Once,
    ]));
    let events = Arc::new(Mutex::new(Vec::new()));
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny(DENIED).ask(ASK),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            let answers = Arc::clone(&answers);
            move |skill| {
                asked.lock().unwrap().push(skill.to_string());
                let answer = answers.lock().unwrap().pop().unwrap_or(Answer::Reject);
                async move { answer }
            }
        }),
    )
    .on_event({
        let events = Arc::clone(&events);
        move |event| events.lock().unwrap().push(event.clone())
    });
    let client = connect(server, ()).await;

    // The denied skill is in no listing.
    let info = client.peer_info().unwrap();
    assert!(!info.instructions.as_deref().unwrap().contains(DENIED));
    let tools = client.list_all_tools().await.unwrap();
    let schema = Value::Object((*tools[0].input_schema).clone());
    let names = &schema["properties"]["skill"]["enum"];
    assert_eq!(
        *names,
        json!([
            "code-review",
            "pdf-forms",
            "release-notes",
            "sql-migrations"
        ])
    );
    let resources = client.list_all_resources().await.unwrap();
    assert!(resources.iter().all(|r| !r.uri.contains(DENIED)));
    assert_eq!(resources.len(), 4);
    let templates = client.list_all_resource_templates().await.unwrap();
    assert!(templates.iter().all(|t| !t.uri_template.contains(DENIED)));
    let skills = client.list_all_skills().await.unwrap();
    assert!(skills.iter().all(|s| s.name() != DENIED));
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("skills"))
        .await
        .unwrap();
    assert!(!serde_json::to_string(&prompt).unwrap().contains(DENIED));

    // ... and naming it answers like naming nothing.
    let unknown = text(
        &client
            .call_tool(call("load_skill", json!({"skill": "no-such-skill"})))
            .await
            .unwrap(),
    );
    let denied = client
        .call_tool(call("load_skill", json!({"skill": DENIED})))
        .await
        .unwrap();
    assert_eq!(denied.is_error, Some(true));
    assert_eq!(
        text(&denied).replace(DENIED, "X"),
        unknown.replace("no-such-skill", "X")
    );
    for uri in [
        format!("skill://{DENIED}/SKILL.md"),
        format!("skill://{DENIED}/assets/logo.png"),
    ] {
        let message = error_message(
            client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .unwrap_err(),
        );
        assert!(message.starts_with(&format!("Skill \"{DENIED}\" not found.")));
    }
    assert!(
        client
            .get_skill(GetSkillRequestParams::new(format!(
                "skill://{DENIED}/SKILL.md"
            )))
            .await
            .is_err()
    );
    assert!(
        client
            .read_resource_directory(ReadResourceDirectoryRequestParams::new(format!(
                "skill://{DENIED}/"
            )))
            .await
            .is_err()
    );
    let completion = client
        .complete(CompleteRequestParams::new(
            Reference::Resource(ResourceTemplateReference::new(format!(
                "skill://{DENIED}/{{+path}}"
            ))),
            ArgumentInfo::new("path", ""),
        ))
        .await
        .unwrap();
    assert!(completion.completion.values.is_empty());

    // `ask`: each load asks the hook; answers come off the end of `answers`.
    let load = || client.call_tool(call("load_skill", json!({"skill": ASK})));
    let once = load().await.unwrap();
    assert_eq!(once.is_error, Some(false));
    assert!(text(&once).starts_with("[Skill: release-notes | source=embedded]"));
    let rejected = load().await.unwrap();
    assert_eq!(rejected.is_error, Some(true));
    assert!(text(&rejected).contains("The user declined loading skill \"release-notes\""));
    let always = load().await.unwrap();
    assert_eq!(always.is_error, Some(false));
    assert_eq!(asked.lock().unwrap().len(), 3);
    // `always` holds for the connection: the tool and resources/read no longer ask.
    assert_eq!(load().await.unwrap().is_error, Some(false));
    client
        .read_resource(ReadResourceRequestParams::new(
            "skill://release-notes/SKILL.md",
        ))
        .await
        .unwrap();
    assert_eq!(asked.lock().unwrap().len(), 3);
    let events = events.lock().unwrap().clone();
    assert!(events.contains(&Event::ApprovalRequested(
        skills_embed::policy::Subject::load(ASK)
    )));
    assert!(events.contains(&Event::Loaded { skill: ASK.into() }));

    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn without_an_approval_hook_ask_skills_are_refused_with_a_reason() {
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask(ASK),
            ..skills_embed::tools::Settings::default()
        },
    );
    let client = connect(server, ()).await;
    let out = client
        .call_tool(call("load_skill", json!({"skill": ASK})))
        .await
        .unwrap();
    assert_eq!(out.is_error, Some(true));
    assert_eq!(
        text(&out),
        "Loading skill \"release-notes\" needs the user's approval, and this server has no way \
         to ask for it. Do the task without this skill."
    );
    let message = error_message(
        client
            .read_resource(ReadResourceRequestParams::new(
                "skill://release-notes/SKILL.md",
            ))
            .await
            .unwrap_err(),
    );
    assert!(message.contains("needs the user's approval"), "{message}");
    // Listings still show it: `ask` is about loading, not about knowing it exists.
    let skills = client.list_all_skills().await.unwrap();
    assert!(skills.iter().any(|s| s.name() == ASK));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn embedded_digests_and_the_served_skill_md() {
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(skills.len(), 5);
    for entry in &skills {
        let skill = SKILLS.get(entry.name()).unwrap();
        let SkillResources::Files(files) = &entry.resources else {
            panic!("{}: files", entry.name());
        };
        assert_eq!(files.len(), skill.files().len());
        for (served, file) in files.iter().zip(skill.files()) {
            assert_eq!(
                served.uri,
                skills_embed::__private::file_uri(skill.name(), file.path())
            );
            if file.path() == "SKILL.md" {
                assert_eq!(
                    served.digest,
                    skills_embed::__private::manifest_digest(skill)
                );
            } else {
                // Computed when this test compiled, and equal to the bytes on disk.
                let disk = std::fs::read(
                    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("../../skills/examples/skills")
                        .join(skill.name())
                        .join(file.path()),
                )
                .unwrap();
                assert_eq!(
                    served.digest,
                    format!(
                        "sha256:{}",
                        skills_embed::__private::hex(&skills_embed::__private::sha256(&disk))
                    )
                );
                assert_eq!(served.size, disk.len() as u64);
            }
        }
        // The SKILL.md served parses back, with the strict rules, to the same fields and body.
        let read = client
            .read_resource(ReadResourceRequestParams::new(entry.uri.clone()))
            .await
            .unwrap();
        let text = resource_text(&read.contents[0]);
        let (manifest, diagnostics) = skills_embed::__private::parse_manifest(
            text,
            std::path::Path::new("SKILL.md"),
            Some(skill.name()),
            skills_embed::parse::Profile::Strict,
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let manifest = manifest.unwrap();
        assert_eq!(manifest.fields.name, skill.name());
        assert_eq!(manifest.fields.description, skill.description());
        assert_eq!(manifest.fields.license.as_deref(), skill.license());
        assert_eq!(
            manifest.fields.compatibility.as_deref(),
            skill.compatibility()
        );
        let metadata: Vec<(&str, &str)> = skill.metadata().collect();
        let parsed: Vec<(&str, &str)> = manifest
            .fields
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(parsed, metadata);
        assert_eq!(
            manifest.fields.allowed_tools,
            skill.allowed_tools().collect::<Vec<_>>()
        );
        assert_eq!(&text[manifest.body_start..], skill.body());
        // And the frontmatter of the extension entry is what the file says.
        assert_eq!(entry.frontmatter.name, manifest.fields.name);
        assert_eq!(
            entry
                .frontmatter
                .extra
                .get("license")
                .and_then(Value::as_str),
            skill.license()
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn split_tools_and_remembered_loads() {
    let server = McpServer::new(
        &SKILLS,
        Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        },
    )
    .with_options(skills_embed::mcp::Options {
        remember_loads: true,
        ..skills_embed::mcp::Options::default()
    });
    let client = connect(server, ()).await;
    let tools: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    assert_eq!(
        tools,
        ["read_skill", "read_skill_resource", "load_skill_chunk"]
    );
    let first = client
        .call_tool(call("read_skill", json!({"skill": "sql-migrations"})))
        .await
        .unwrap();
    assert!(text(&first).contains("read_skill_resource"));
    let again = client
        .call_tool(call("read_skill", json!({"skill": "sql-migrations"})))
        .await
        .unwrap();
    assert!(text(&again).contains("already loaded"), "{}", text(&again));
    let file = client
        .call_tool(call(
            "read_skill_resource",
            json!({"skill": "sql-migrations", "file": "references/dialects/sqlite.md"}),
        ))
        .await
        .unwrap();
    assert_eq!(file.is_error, Some(false));
    let unknown_tool = client
        .call_tool(call("load_skill", json!({"skill": "sql-migrations"})))
        .await
        .unwrap();
    // Either style's tools are answered, whichever style was listed.
    assert_eq!(unknown_tool.is_error, Some(false));
    // An unknown tool is a protocol error (-32602), not a tool result.
    let (code, bogus) = error_code(
        client
            .call_tool(call("rm_rf", json!({})))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32602, "{bogus}");
    assert!(bogus.contains("Unknown tool \"rm_rf\""), "{bogus}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn an_overlay_reload_reaches_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let discovery = Discovery::only(dir.path());
    let overlay = Arc::new(Overlay::new(&SKILLS, discovery));
    let handler = Client::default();
    let changed = Arc::clone(&handler.tool_list_changed);
    let client = connect(
        McpServer::new(
            Arc::clone(&overlay),
            skills_embed::tools::Settings::default(),
        ),
        handler,
    )
    .await;
    let before = client.list_all_skills().await.unwrap();
    assert_eq!(before.len(), 5);

    let skill = dir.path().join("db-backup");
    std::fs::create_dir(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: db-backup\ndescription: Back up the database. Use before a migration.\n---\nRun pg_dump.\n",
    )
    .unwrap();
    let report = overlay.reload();
    assert_eq!(report.added, ["db-backup"]);

    // The next request sees the new set, and the client is told the lists changed.
    let tools = client.list_all_tools().await.unwrap();
    let schema = Value::Object((*tools[0].input_schema).clone());
    assert!(
        schema["properties"]["skill"]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("db-backup"))
    );
    let loaded = client
        .call_tool(call("load_skill", json!({"skill": "db-backup"})))
        .await
        .unwrap();
    assert!(text(&loaded).contains("Run pg_dump."));
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://db-backup/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(
        got.skill.frontmatter.description,
        "Back up the database. Use before a migration."
    );
    for _ in 0..50 {
        if *changed.lock().unwrap() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(*changed.lock().unwrap(), 1);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_run_time_set_with_a_non_ascii_name() {
    use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};

    let skill = Skill::owned(
        Fields {
            name: "技能".into(),
            description: "Says hello: in two lines.\u{2028}Really.".into(),
            ..Fields::default()
        },
        "Say hello.\n".into(),
        vec![skills_embed::File::owned(
            "notes/a b.md".into(),
            b"# A B\n".to_vec(),
            false,
        )],
    );
    let set = Arc::new(SkillSet::from_skills(vec![skill], &ListingFormat::Markdown));
    let client = connect(
        McpServer::new(set, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(skills[0].uri, "skill://%E6%8A%80%E8%83%BD/SKILL.md");
    // Another spelling of the same URI finds the same skill, answered under that spelling.
    let lower = "skill://%e6%8a%80%e8%83%bd/SKILL.md";
    let got = client
        .get_skill(GetSkillRequestParams::new(lower))
        .await
        .unwrap();
    assert_eq!(got.skill.uri, lower);
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://%E6%8A%80%E8%83%BD/notes/a%20b.md",
        ))
        .await
        .unwrap();
    assert_eq!(resource_text(&read.contents[0]), "# A B\n");
    // The description with a YAML line break is escaped, so the file reads back the same.
    let manifest = client
        .read_resource(ReadResourceRequestParams::new(skills[0].uri.clone()))
        .await
        .unwrap();
    let text = resource_text(&manifest.contents[0]);
    assert!(text.contains("\\u2028"), "{text}");
    let (parsed, _) = skills_embed::__private::parse_manifest(
        text,
        std::path::Path::new("SKILL.md"),
        None,
        skills_embed::parse::Profile::Lenient,
    );
    assert_eq!(
        parsed.unwrap().fields.description,
        "Says hello: in two lines.\u{2028}Really."
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn always_holds_until_a_reload_changes_the_skill() {
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
    let server = McpServer::new(
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
    );
    let client = connect(server, ()).await;
    let load = || client.call_tool(call("load_skill", json!({"skill": "db-backup"})));
    let read =
        || client.read_resource(ReadResourceRequestParams::new("skill://db-backup/SKILL.md"));
    let asked = || *asked.lock().unwrap();

    assert!(text(&load().await.unwrap()).contains("Run pg_dump."));
    assert_eq!(asked(), 1);
    assert!(text(&load().await.unwrap()).contains("Run pg_dump."));
    read().await.unwrap();
    assert_eq!(asked(), 1, "always holds for the skill as approved");

    // A reload that changes nothing keeps the answer.
    assert!(overlay.reload().changed.is_empty());
    assert!(text(&load().await.unwrap()).contains("Run pg_dump."));
    assert_eq!(asked(), 1, "an unchanged skill is not asked for again");

    // An edit asks again, through the tool...
    write("Run pg_dump, then drop the old tables.\n");
    assert_eq!(overlay.reload().changed, ["db-backup"]);
    let edited = load().await.unwrap();
    assert!(text(&edited).contains("drop the old tables"));
    assert_eq!(asked(), 2, "a changed skill is asked for again");
    assert!(text(&load().await.unwrap()).contains("drop the old tables"));
    assert_eq!(asked(), 2, "the new answer holds for the new content");

    // ... and through resources/read.
    write("Run pg_dump, then drop the old tables and the old indexes.\n");
    assert_eq!(overlay.reload().changed, ["db-backup"]);
    let contents = read().await.unwrap();
    assert!(resource_text(&contents.contents[0]).contains("old indexes"));
    assert_eq!(
        asked(),
        3,
        "a changed skill is asked for again before a read"
    );
    client.cancel().await.unwrap();
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
async fn a_name_the_skills_extension_cannot_carry_hides_only_its_own_skill() {
    // `a*b` cannot travel in `skills/list`, so it is served nowhere. It is hidden as a skill,
    // not denied by a rule: as a pattern it would also hide `a-b`.
    let set = skills_embed::SkillSet::from_skills(
        vec![owned_skill("a*b"), owned_skill("a-b")],
        &skills_embed::listing::ListingFormat::Markdown,
    );
    let client = connect(
        McpServer::new(Arc::new(set), skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(
        tools[0].input_schema["properties"]["skill"]["enum"],
        json!(["a-b"])
    );
    let hidden = client
        .call_tool(call("load_skill", json!({"skill": "a*b"})))
        .await
        .unwrap();
    assert_eq!(hidden.is_error, Some(true));
    assert!(text(&hidden).contains("not found"), "{}", text(&hidden));
    let shown = client
        .call_tool(call("load_skill", json!({"skill": "a-b"})))
        .await
        .unwrap();
    assert!(text(&shown).contains("Body of a-b."));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn an_always_given_through_resources_read_holds_for_the_tool() {
    // One connection, one set of answers: the session sees a grant given on another surface.
    let asked = Arc::new(Mutex::new(0));
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask(ASK),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            move |_skill| {
                *asked.lock().unwrap() += 1;
                async { Answer::Always }
            }
        }),
    );
    let client = connect(server, ()).await;
    // The session starts before the answer is given.
    client
        .call_tool(call("load_skill", json!({"skill": "pdf-forms"})))
        .await
        .unwrap();
    client
        .read_resource(ReadResourceRequestParams::new(format!(
            "skill://{ASK}/SKILL.md"
        )))
        .await
        .unwrap();
    assert_eq!(*asked.lock().unwrap(), 1);
    let out = client
        .call_tool(call("load_skill", json!({"skill": ASK})))
        .await
        .unwrap();
    assert_eq!(out.is_error, Some(false), "{}", text(&out));
    assert_eq!(*asked.lock().unwrap(), 1, "asked once per connection");
    client.cancel().await.unwrap();
}
