//! One script name given twice for a skill (the name is the path's last segment, so two
//! functions from different modules collide too).

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: Form) -> Result<String, String> {
    Ok(form.name)
}

mod v2 {
    pub fn fill_form(form: super::Form) -> Result<String, String> {
        Ok(form.name.to_uppercase())
    }
}

skills_embed::skills!(
    "fixtures/fail/script-duplicate",
    scripts = { "pdf-forms" => [fill_form, v2::fill_form] },
);

fn main() {}
