skills::skills!("fixtures/fail/frontmatter-missing");

fn main() {}
