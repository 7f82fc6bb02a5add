skills::skills!("fixtures/fail/chunk-syntax");

fn main() {}
