skills::skills!("fixtures/fail/frontmatter-unclosed");

fn main() {}
