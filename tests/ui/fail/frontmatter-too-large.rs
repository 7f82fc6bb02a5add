skills::skills!("fixtures/fail/frontmatter-too-large");

fn main() {}
