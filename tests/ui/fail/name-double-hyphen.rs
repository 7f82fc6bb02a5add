skills::skills!("fixtures/fail/name-double-hyphen");

fn main() {}
