skills_embed::skills!("fixtures/fail/compatibility-length");

fn main() {}
