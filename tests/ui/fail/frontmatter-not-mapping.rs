skills_embed::skills!("fixtures/fail/frontmatter-not-mapping");

fn main() {}
