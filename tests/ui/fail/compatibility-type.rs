skills_embed::skills!("fixtures/fail/compatibility-type");

fn main() {}
