skills_embed::skills!("fixtures/fail/empty-skill-md");

fn main() {}
