skills_embed::skills!("fixtures/fail/duplicate-name");

fn main() {}
