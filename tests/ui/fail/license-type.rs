skills_embed::skills!("fixtures/fail/license-type");

fn main() {}
