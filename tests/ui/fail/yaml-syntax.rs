skills_embed::skills!("fixtures/fail/yaml-syntax");

fn main() {}
