skills_embed::skills!("fixtures/fail/frontmatter-empty");

fn main() {}
