//! Sync and `async` scripts registered with `scripts = {...}`: the generated table is
//! documented and lint-clean, sorted, and runs through the tools.
#![deny(missing_docs, warnings)]

skills_embed::skills!(
    "fixtures/script-pass",
    scripts = { "notes" => [count_words, async fetch::fetch_note] },
);

/// Counts the words of a text.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    /// The text.
    text: String,
}

fn count_words(args: Text) -> Result<usize, std::convert::Infallible> {
    Ok(args.text.split_whitespace().count())
}

mod fetch {
    /// Fetches a note by its number.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Id {
        /// The note's number.
        pub id: u32,
    }

    pub async fn fetch_note(args: Id) -> Result<String, String> {
        match args.id {
            1 => Ok("Buy milk.".to_owned()),
            other => Err(format!("no note {other}")),
        }
    }
}

fn main() {
    let names: Vec<(&str, &str)> = SKILLS
        .scripts()
        .iter()
        .map(|s| (s.skill(), s.name()))
        .collect();
    assert_eq!(names, [("notes", "count_words"), ("notes", "fetch_note")]);
    let tools = skills_embed::tools::Tools::new(&SKILLS, skills_embed::tools::Settings::default());
    let out = tools.handle(
        "run_skill_script",
        r#"{"script": "notes/count_words", "args": {"text": "one two three"}}"#,
    );
    assert!(!out.is_error && out.text.ends_with('3'), "{}", out.text);
    let out = tools.handle(
        "run_skill_script",
        r#"{"script": "notes/fetch_note", "args": {"id": 1}}"#,
    );
    assert!(
        !out.is_error && out.text.ends_with("Buy milk."),
        "{}",
        out.text
    );
}
