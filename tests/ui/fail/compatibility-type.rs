skills::skills!("fixtures/fail/compatibility-type");

fn main() {}
