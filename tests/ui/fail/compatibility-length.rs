skills::skills!("fixtures/fail/compatibility-length");

fn main() {}
