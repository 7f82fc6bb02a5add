skills_embed::skills!("fixtures/fail/name-hyphen-edge");

fn main() {}
