skills::skills!("fixtures/fail/license-type");

fn main() {}
