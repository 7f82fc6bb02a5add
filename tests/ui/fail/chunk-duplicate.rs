skills_embed::skills!("fixtures/fail/chunk-duplicate");

fn main() {}
