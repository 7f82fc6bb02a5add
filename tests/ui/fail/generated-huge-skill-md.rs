// Fixtures made by tests/ui.rs: a 10 MB SKILL.md is refused by its size, before it is read or
// parsed, with the cap that applies to every file of a skill.
skills_embed::skills!("generated/huge-skill-md");

fn main() {}
