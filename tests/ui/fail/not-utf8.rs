skills_embed::skills!("fixtures/fail/not-utf8");

fn main() {}
