//! A rig agent with the skill tool: the five sample skills of `examples/skills/`, embedded by
//! `skills!`, offered to the model as `load_skill` (a [`skills_embed::rig::SkillTool`]), with the L1
//! listing in the preamble.
//!
//! It always runs one **scripted, offline turn**: a scripted model (rig's `MockCompletionModel`)
//! asks for the `code-review` skill, then for one of the files its body lists, then answers.
//! The example prints each step of the round trip: the tool calls the model made, what the tool
//! returned, what the host saw (the load report rig's tool context carries), and the answer.
//!
//! With `OPENAI_API_KEY` set it then asks a real model the same question, through rig's OpenAI
//! client (`OPENAI_BASE_URL` points it at any OpenAI-compatible endpoint, `OPENAI_MODEL` picks
//! the model, `gpt-5.4-mini` by default).
//!
//! ```text
//! cargo run -p skills-examples --example rig_agent
//! OPENAI_API_KEY=sk-... cargo run -p skills-examples --example rig_agent
//! ```

use rig_agent::AgentBuilder;
use rig_core::completion::message::{AssistantContent, Message, ToolResultContent, UserContent};
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use skills_embed::policy::Permissions;
use skills_embed::rig::SkillTool;

// `pub enum SkillId` and `pub static SKILLS`, checked and embedded when this example compiles.
skills_embed::skills!("../skills/examples/skills");

const QUESTION: &str = "Can you review my change before I merge it? It adds a login endpoint.";

/// The agent: a preamble with the listing, and the skill tool. `brand-guidelines` is denied, so
/// it is neither listed nor loadable.
fn agent(
    model: impl Into<rig_core::DynModel<rig_core::operation::Completion>>,
) -> rig_agent::Agent {
    let tool = SkillTool::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("brand-guidelines"),
            ..skills_embed::tools::Settings::default()
        },
    );
    let tools = tool.tools();
    let assistant = "You are a careful software assistant.";
    if tools.definitions().is_empty() {
        // No skill the model may see: no listing and no tool (a tool with nothing to load
        // would only invite calls that fail).
        return AgentBuilder::new(model).preamble(assistant).build();
    }
    let listing = tools.listing(&Default::default());
    AgentBuilder::new(model)
        .preamble(format!(
            "{assistant} Skills are instructions for specific tasks; \
             before a task one of these covers, load it with the load_skill tool and follow it:\n\
             {listing}"
        ))
        .tool(tool)
        .build()
}

/// Prints a run's messages: the prompt, tool calls, tool results (their first lines) and text.
fn print_messages(messages: &[Message]) {
    for message in messages {
        match message {
            Message::User { content } => {
                for part in content {
                    match part {
                        UserContent::Text(text) => println!("user   -> {}", text.text),
                        UserContent::ToolResult(result) => {
                            for item in &result.content {
                                if let ToolResultContent::Text(text) = item {
                                    let mut lines = text.text.lines();
                                    for line in lines.by_ref().take(4) {
                                        println!("tool   <- {line}");
                                    }
                                    if lines.next().is_some() {
                                        println!("tool   <- …");
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Message::Assistant(turn) => {
                for part in &turn.content {
                    match part {
                        AssistantContent::ToolCall(call) => println!(
                            "model  -> {}({})",
                            call.function.name,
                            serde_json::Value::Object(call.function.arguments.clone())
                        ),
                        AssistantContent::Text(text) => println!("model  -> {}", text.text),
                        _ => {}
                    }
                }
            }
            Message::System { .. } => {}
        }
    }
}

async fn scripted_turn() -> Result<(), Box<dyn std::error::Error>> {
    println!("== a scripted, offline turn ==");
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call-1", "load_skill", json!({"skill": "code-review"})),
        MockTurn::tool_call(
            "call-2",
            "load_skill",
            json!({"skill": "code-review", "path": "references/security.md"}),
        ),
        MockTurn::text(
            "I loaded the code-review skill and its security reference; send me the diff \
             (`git diff main...HEAD`) and I will review authentication and input handling first.",
        ),
    ]);
    let response = agent(model.clone())
        .prompt(QUESTION)
        .max_turns(5)
        .run()
        .await?;
    print_messages(&response.messages);
    println!(
        "({} model calls; the second and third carried the tool's answers)",
        model.requests().len()
    );
    Ok(())
}

async fn live_turn() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::var_os("OPENAI_API_KEY").is_none() {
        println!("\n(set OPENAI_API_KEY to run the same agent against a real model)");
        return Ok(());
    }
    let name = std::env::var("OPENAI_MODEL").unwrap_or_else(|_| "gpt-5.4-mini".into());
    println!("\n== a live turn with {name} ==");
    let model = rig_core::providers::openai::OpenAI::from_env()?.completion(name);
    let response = agent(model).prompt(QUESTION).max_turns(5).run().await?;
    print_messages(&response.messages);
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    scripted_turn().await?;
    live_turn().await
}
