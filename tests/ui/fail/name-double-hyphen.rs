skills_embed::skills!("fixtures/fail/name-double-hyphen");

fn main() {}
