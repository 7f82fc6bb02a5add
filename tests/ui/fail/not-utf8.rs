skills::skills!("fixtures/fail/not-utf8");

fn main() {}
