skills::skills!("fixtures/fail/duplicate-name");

fn main() {}
