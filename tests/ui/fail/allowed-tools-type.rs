skills::skills!("fixtures/fail/allowed-tools-type");

fn main() {}
