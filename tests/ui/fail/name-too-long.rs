skills::skills!("fixtures/fail/name-too-long");

fn main() {}
