// Fixtures made by tests/ui.rs: a skill folder whose name is not UTF-8. Its name field cannot
// equal the folder's name, so the skill is an error naming the rule; nothing panics.
skills_embed::skills!("generated/non-utf8-folder");

fn main() {}
