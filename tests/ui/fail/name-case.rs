skills::skills!("fixtures/fail/name-case");

fn main() {}
