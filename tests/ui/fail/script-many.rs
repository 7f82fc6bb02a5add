//! Several script mistakes at once, every one reported by the same build: an unknown skill
//! (with the closest name), a script given twice, a body link to a script not registered,
//! a link target that is not a script name, and a function that returns no `Result`.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Form {
    name: String,
}

fn fill_form(form: Form) -> Result<String, String> {
    Ok(form.name)
}

fn search(form: Form) -> Result<String, String> {
    Ok(form.name)
}

fn flatten(form: Form) -> String {
    form.name
}

skills_embed::skills!(
    "fixtures/fail/script-many",
    scripts = {
        "pdf-forms" => [fill_form, fill_form, flatten],
        "note" => [search],
    },
);

fn main() {}
