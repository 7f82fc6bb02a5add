skills::skills!("fixtures/fail/variant-collision");

fn main() {}
