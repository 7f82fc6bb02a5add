skills_embed::skills!("fixtures/fail/name-type");

fn main() {}
