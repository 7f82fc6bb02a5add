//! Invocation policy on the hosts (issue 15, item 2): a skill the model may not invoke is on no
//! MCP surface and not in the rig tool, and naming it answers like naming nothing.
//!
//! `deploy` (Claude Code), `release` (Codex) and `autoinvoke-off` (OpenCode) may not be invoked
//! by the model; `pdf` and `style-guide` may.

use crate::common::{connect, error_message, text};

use rig_agent::tool::ToolSet;
use rig_core::tool::{ToolContext, ToolErrorKind};
use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CompleteRequestParams, GetPromptRequestParams,
    GetSkillRequestParams, ReadResourceDirectoryRequestParams, ReadResourceRequestParams,
    Reference, ResourceTemplateReference,
};

use serde_json::{Value, json};
use skills_embed::mcp::McpServer;
use skills_embed::rig::SkillTools;

skills_embed::skills!(
    "../fixtures/invocation",
    dialects = [claude_code, codex, opencode]
);

const MODEL: [&str; 2] = ["pdf", "style-guide"];
const HIDDEN: [&str; 3] = ["autoinvoke-off", "deploy", "release"];

fn call(skill: &str) -> CallToolRequestParams {
    let Value::Object(arguments) = json!({ "skill": skill }) else {
        unreachable!()
    };
    CallToolRequestParams::new("load_skill".to_owned()).with_arguments(arguments)
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_surfaces_leave_out_what_the_model_may_not_invoke() {
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let schema = Value::Object((*tools[0].input_schema).clone());
    assert_eq!(schema["properties"]["skill"]["enum"], json!(MODEL));
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["skill://pdf/SKILL.md", "skill://style-guide/SKILL.md"]
    );
    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 2);
    let skills = client.list_all_skills().await.unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, MODEL);
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("skills"))
        .await
        .unwrap();
    let prompt = serde_json::to_string(&prompt).unwrap();
    for hidden in HIDDEN {
        assert!(!instructions.contains(hidden), "{hidden} in {instructions}");
        assert!(!prompt.contains(hidden), "{hidden} in the prompt");
        assert!(templates.iter().all(|t| !t.uri_template.contains(hidden)));

        // Naming it answers like naming nothing, and lists only what the model may see.
        let answer = client.call_tool(call(hidden)).await.unwrap();
        assert_eq!(answer.is_error, Some(true));
        let stand_in = "z".repeat(hidden.len());
        let unknown = client.call_tool(call(&stand_in)).await.unwrap();
        assert_eq!(text(&answer).replace(hidden, &stand_in), text(&unknown));
        assert!(text(&answer).contains("Available skills: pdf, style-guide."));

        let message = error_message(
            client
                .read_resource(ReadResourceRequestParams::new(format!(
                    "skill://{hidden}/SKILL.md"
                )))
                .await
                .unwrap_err(),
        );
        assert!(
            message.starts_with(&format!("Skill \"{hidden}\" not found.")),
            "{message}"
        );
        for other in HIDDEN.iter().filter(|o| *o != &hidden) {
            assert!(!message.contains(other), "{other} leaked: {message}");
        }
        assert!(
            client
                .get_skill(GetSkillRequestParams::new(format!(
                    "skill://{hidden}/SKILL.md"
                )))
                .await
                .is_err()
        );
        assert!(
            client
                .read_resource_directory(ReadResourceDirectoryRequestParams::new(format!(
                    "skill://{hidden}/"
                )))
                .await
                .is_err()
        );
        let completion = client
            .complete(CompleteRequestParams::new(
                Reference::Resource(ResourceTemplateReference::new(format!(
                    "skill://{hidden}/{{+path}}"
                ))),
                ArgumentInfo::new("path", ""),
            ))
            .await
            .unwrap();
        assert!(completion.completion.values.is_empty());
    }
    // The visible ones are served.
    let pdf = client.call_tool(call("pdf")).await.unwrap();
    assert_eq!(pdf.is_error, Some(false));
    client
        .read_resource(ReadResourceRequestParams::new("skill://pdf/SKILL.md"))
        .await
        .unwrap();
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn the_rig_tool_leaves_them_out() {
    let tools = ToolSet::from_dynamic_tools(
        SkillTools::new(&SKILLS, skills_embed::tools::Settings::default()).tools(),
    );
    let definitions = tools.tool_definitions();
    assert_eq!(
        definitions[0].parameters["properties"]["skill"]["enum"],
        json!(MODEL)
    );
    for hidden in HIDDEN {
        let result = tools
            .execute(
                "load_skill",
                &json!({ "skill": hidden }).to_string(),
                &mut ToolContext::default(),
            )
            .await;
        assert!(result.is_error(), "{hidden}");
        assert_eq!(result.error().unwrap().kind(), ToolErrorKind::NotFound);
        let text = result.output().as_text().unwrap();
        assert_eq!(
            text,
            format!("Skill \"{hidden}\" not found. Available skills: pdf, style-guide.")
        );
    }
    let hit = tools
        .execute(
            "load_skill",
            r#"{"skill": "pdf"}"#,
            &mut ToolContext::default(),
        )
        .await;
    assert!(hit.is_success(), "{hit:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn no_skill_the_model_may_invoke_no_tool_and_no_listing() {
    let hidden = HIDDEN
        .iter()
        .map(|name| SKILLS.get(name).unwrap().clone())
        .collect();
    let set = skills_embed::SkillSet::from_skills(
        hidden,
        &skills_embed::listing::ListingFormat::Markdown,
    );
    let client = connect(
        McpServer::new(
            std::sync::Arc::new(set),
            skills_embed::tools::Settings::default(),
        ),
        (),
    )
    .await;
    assert!(client.list_all_tools().await.unwrap().is_empty());
    assert!(client.list_all_resources().await.unwrap().is_empty());
    assert!(client.list_all_skills().await.unwrap().is_empty());
    let instructions = client.peer_info().unwrap().instructions.clone();
    assert!(
        instructions
            .as_deref()
            .is_none_or(|i| HIDDEN.iter().all(|h| !i.contains(h))),
        "{instructions:?}"
    );
    client.cancel().await.unwrap();
}
