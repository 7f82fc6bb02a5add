skills_embed::skills!("fixtures/fail/chunk-id");

fn main() {}
