skills_embed::skills!("fixtures/fail/does-not-exist");

fn main() {}
