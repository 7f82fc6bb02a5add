skills::skills!("fixtures/fail/many");

fn main() {}
