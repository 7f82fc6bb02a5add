skills_embed::skills!("fixtures/fail/frontmatter-too-large");

fn main() {}
