skills_embed::skills!("fixtures/fail/yaml-duplicate-key");

fn main() {}
