skills_embed::skills!("fixtures/fail/many");

fn main() {}
