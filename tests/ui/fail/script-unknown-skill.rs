//! `scripts` names a skill that is not in the folder: the error names the skills and the
//! closest one.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: Form) -> Result<String, String> {
    Ok(form.name)
}

skills_embed::skills!(
    "fixtures/fail/script-unknown-skill",
    scripts = { "pdf-form" => [fill_form] },
);

fn main() {}
