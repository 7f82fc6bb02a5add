skills::skills!("fixtures/fail/name-type");

fn main() {}
