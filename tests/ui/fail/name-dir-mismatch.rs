skills_embed::skills!("fixtures/fail/name-dir-mismatch");

fn main() {}
