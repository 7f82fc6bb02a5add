//! What a model sees when an agent serves embedded skills by progressive disclosure.
//!
//! `skills!` embeds the five sample skills in `examples/skills/` into this binary, checked
//! when it compiles. The example then plays one session the way an agent would run it:
//!
//! 1. **L1**: the listing that goes into the system prompt;
//! 2. the `load_skill` tool the model is given, whose `skill` parameter is a JSON Schema
//!    `enum` of the embedded names, generated from `SkillId`;
//! 3. **L2**: the model calls the tool for a skill's body;
//! 4. **L3**: the model follows the body to one of its resource files;
//! 5. a binary asset and an executable script, described rather than dumped;
//! 6. and 7. the model's mistakes (a wrong path, an unknown skill), answered with what exists.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run --example agent
//! ```

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde::{Deserialize, Serialize};
use skills::{MANIFEST, SkillError};

// Generates `pub enum SkillId` and `pub static SKILLS` from the folder next to this file.
// The path is relative to the crate's `Cargo.toml`.
skills::skills!("examples/skills");

// The arguments of a `load_skill` call, as the model sends them. This one type is both the
// tool's parameter schema and what the call is parsed into, so the two cannot drift apart.
// (Plain comments here: schemars would copy a doc comment into the schema.)
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LoadSkill {
    /// The skill to load.
    skill: SkillId,
    /// Relative to the skill's folder: "SKILL.md" for its instructions, or a file they mention.
    #[serde(default = "manifest")]
    path: String,
}

/// A tool as most model APIs declare it. A struct rather than `json!` keeps the keys in this
/// order (a `serde_json::Map` sorts them).
#[derive(Serialize)]
struct Tool {
    name: &'static str,
    description: &'static str,
    parameters: Schema,
}

fn manifest() -> String {
    MANIFEST.to_owned()
}

/// How many lines of a loaded file to show before cutting it.
const SHOWN_LINES: usize = 15;

fn main() {
    heading("L1: the listing in the system prompt");
    print!("{}", SKILLS.summary());

    heading("The tool definition the model is given");
    match serde_json::to_string_pretty(&tool_definition()) {
        Ok(json) => println!("{json}"),
        Err(e) => println!("cannot serialise the tool: {e}"),
    }

    // A real agent sends whatever the model produced to the handler; so does this session.
    let call = r#"{"skill":"pdf-forms","path":"SKILL.md"}"#;
    heading(&format!("L2: the model calls load_skill {call}"));
    show(&load_skill(call));
    // Agents often append what else the skill holds, so the model knows what it may ask for.
    let others: Vec<&str> = SKILLS
        .paths(SkillId::PdfForms)
        .filter(|p| *p != MANIFEST)
        .collect();
    println!("\n(other files in pdf-forms: {})", others.join(", "));

    let call = r#"{"skill":"pdf-forms","path":"references/forms.md"}"#;
    heading(&format!(
        "L3: the body mentions a reference; load_skill {call}"
    ));
    show(&load_skill(call));

    heading("Binary assets and scripts are described, not dumped");
    describe(SkillId::BrandGuidelines, "assets/logo.png");
    describe(SkillId::ReleaseNotes, "scripts/changelog.sh");
    describe(SkillId::PdfForms, "SKILL.md");

    heading("A wrong path: the error lists every file of the skill");
    match SKILLS.load(SkillId::PdfForms, "forms.md") {
        Ok(file) => println!("unexpected: found {}", file.path()),
        Err(e) => println!("{e}"),
    }

    heading("An unknown skill: every way in answers with the names that exist");
    println!("\"pdf\".parse::<SkillId>()");
    print_err("pdf".parse::<SkillId>());
    println!("\nSKILLS.get(\"pdf\")");
    print_err(SKILLS.get("pdf"));
    // The enum in the schema stops most of these, but not every model honours a schema.
    let call = r#"{"skill":"pdf","path":"SKILL.md"}"#;
    println!("\nload_skill {call}");
    println!("{}", load_skill(call));
}

/// The `load_skill` tool: its `skill` parameter is `SkillId`'s schema, an `enum` of the names.
fn tool_definition() -> Tool {
    // Inline `SkillId`'s schema instead of a `$ref` into `$defs`: several model APIs reject
    // or ignore references in tool parameters.
    let mut parameters = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
        .into_root_schema_for::<LoadSkill>();
    parameters.remove("title");
    Tool {
        name: "load_skill",
        description: "Loads a skill's instructions (path \"SKILL.md\") or one of the files \
                      they mention. The available skills are listed in the system prompt.",
        parameters,
    }
}

/// Answers one `load_skill` call with the text the model gets back. Errors are answers too:
/// their messages say what exists, so the model can correct itself on its next turn.
fn load_skill(arguments: &str) -> String {
    let call: LoadSkill = match serde_json::from_str(arguments) {
        Ok(call) => call,
        Err(e) => return format!("Error: {e}"),
    };
    match SKILLS.load(call.skill, &call.path) {
        Ok(file) => match file.text() {
            Some(text) => text.to_owned(),
            None => format!(
                "{} is a binary file ({}, {} bytes); it cannot be shown as text.",
                file.path(),
                file.media_type(),
                file.len()
            ),
        },
        Err(e) => format!("Error: {e}"),
    }
}

/// One line of facts about a file, for files that should not be pasted into a prompt.
fn describe(id: SkillId, path: &str) {
    match SKILLS.load(id, path) {
        Ok(file) => {
            let mut kind = vec![if file.text().is_some() {
                "text"
            } else {
                "binary, text() is None"
            }];
            if file.is_executable() {
                kind.push("executable");
            }
            if file.is_body() {
                kind.push("the body");
            }
            let name = format!("{id}/{}", file.path());
            println!(
                "{name:<36} {:<20} {:>5} bytes  {}",
                file.media_type(),
                file.len(),
                kind.join(", ")
            );
        }
        Err(e) => println!("{e}"),
    }
}

/// Prints the first lines of a tool result, then how much was left out.
fn show(text: &str) {
    let total = text.lines().count();
    for line in text.lines().take(SHOWN_LINES) {
        println!("│ {line}");
    }
    if total > SHOWN_LINES {
        println!(
            "│ … ({} more lines, {} bytes in all)",
            total - SHOWN_LINES,
            text.len()
        );
    }
}

fn print_err<T>(result: Result<T, SkillError>) {
    match result {
        Ok(_) => println!("unexpected: found it"),
        Err(e) => println!("{e}"),
    }
}

fn heading(title: &str) {
    println!("\n== {title} ==\n");
}
