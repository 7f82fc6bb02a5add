skills_embed::skills!("fixtures/fail/variant-collision");

fn main() {}
