skills::skills!("fixtures/fail/empty-skill-md");

fn main() {}
