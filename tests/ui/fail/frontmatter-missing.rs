skills_embed::skills!("fixtures/fail/frontmatter-missing");

fn main() {}
