skills_embed::skills!("fixtures/fail/name-missing");

fn main() {}
