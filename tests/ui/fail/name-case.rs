skills_embed::skills!("fixtures/fail/name-case");

fn main() {}
