skills::skills!("fixtures/fail/name-missing");

fn main() {}
