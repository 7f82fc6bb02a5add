skills::skills!("fixtures/fail/unknown-field");

fn main() {}
