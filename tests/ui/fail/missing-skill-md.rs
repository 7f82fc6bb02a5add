skills_embed::skills!("fixtures/fail/missing-skill-md");

fn main() {}
