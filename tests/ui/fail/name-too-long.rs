skills_embed::skills!("fixtures/fail/name-too-long");

fn main() {}
