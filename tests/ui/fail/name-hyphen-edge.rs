skills::skills!("fixtures/fail/name-hyphen-edge");

fn main() {}
