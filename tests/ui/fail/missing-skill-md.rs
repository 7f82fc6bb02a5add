skills::skills!("fixtures/fail/missing-skill-md");

fn main() {}
