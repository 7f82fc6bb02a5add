skills::skills!("fixtures/fail/yaml-syntax");

fn main() {}
