skills::skills!("fixtures/fail/unquoted-colon");

fn main() {}
