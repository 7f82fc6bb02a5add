skills::skills!("fixtures/fail/frontmatter-empty");

fn main() {}
