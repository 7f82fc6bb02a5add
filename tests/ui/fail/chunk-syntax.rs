skills_embed::skills!("fixtures/fail/chunk-syntax");

fn main() {}
