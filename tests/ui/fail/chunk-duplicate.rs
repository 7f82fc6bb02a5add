skills::skills!("fixtures/fail/chunk-duplicate");

fn main() {}
