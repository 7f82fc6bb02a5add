skills_embed::skills!("fixtures/fail/name-chars");

fn main() {}
