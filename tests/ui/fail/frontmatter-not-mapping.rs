skills::skills!("fixtures/fail/frontmatter-not-mapping");

fn main() {}
