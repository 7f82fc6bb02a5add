// Fixtures made by tests/ui.rs: a frontmatter whose YAML aliases would expand to 387 million
// values is refused quickly with a clear message, not expanded.
skills_embed::skills!("generated/alias-bomb");

fn main() {}
