skills::skills!("fixtures/fail/yaml-duplicate-key");

fn main() {}
