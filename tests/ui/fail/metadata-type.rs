skills_embed::skills!("fixtures/fail/metadata-type");

fn main() {}
