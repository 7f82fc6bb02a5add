skills_embed::skills!("fixtures/fail/description-missing");

fn main() {}
