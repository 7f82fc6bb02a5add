//! Functions whose types do not fit a script: an argument type without `JsonSchema`, and a
//! result that is not a `Result`. The type errors point at the paths given in `scripts`.

#[derive(serde::Deserialize)]
struct NoSchema {
    name: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: NoSchema) -> Result<String, String> {
    Ok(form.name)
}

fn flatten(form: Form) -> String {
    form.name
}

skills_embed::skills!(
    "fixtures/fail/script-signature",
    scripts = { "pdf-forms" => [fill_form, flatten] },
);

fn main() {}
