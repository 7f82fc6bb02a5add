skills::skills!("fixtures/fail/chunk-id");

fn main() {}
