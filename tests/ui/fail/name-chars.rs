skills::skills!("fixtures/fail/name-chars");

fn main() {}
