skills_embed::skills!("fixtures/fail/description-type");

fn main() {}
