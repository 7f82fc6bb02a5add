skills::skills!("fixtures/fail/name-dir-mismatch");

fn main() {}
