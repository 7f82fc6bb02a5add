skills_embed::skills!("fixtures/fail/frontmatter-unclosed");

fn main() {}
