skills::skills!("fixtures/fail/does-not-exist");

fn main() {}
