//! Every reference of the body resolves (a fragment, a query, `<...>` and `%20`, a folder); URLs,
//! anchors, a link into a sibling skill, a `script:` link, a project's `src/main.rs`, a bare
//! `scripts/` and code blocks are not files of this skill: no error, no warning.
#![deny(warnings)]

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: Form) -> Result<String, String> {
    Ok(form.name)
}

skills_embed::skills!(
    "fixtures/references-pass",
    scripts = { "forms" => [fill_form] },
);

fn main() {
    assert!(SKILLS.skill(SkillId::Forms).load("references/guide.md").is_ok());
}
