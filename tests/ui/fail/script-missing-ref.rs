//! The body links `[x](script:missing_fn)` and no such script is registered for the skill:
//! the error is placed at the link's line and column in SKILL.md.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: Form) -> Result<String, String> {
    Ok(form.name)
}

skills_embed::skills!(
    "fixtures/fail/script-missing-ref",
    scripts = { "pdf-forms" => [fill_form] },
);

fn main() {}
