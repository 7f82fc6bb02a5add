skills_embed::skills!("fixtures/fail/unknown-field");

fn main() {}
