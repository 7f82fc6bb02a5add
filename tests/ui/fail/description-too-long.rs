skills_embed::skills!("fixtures/fail/description-too-long");

fn main() {}
