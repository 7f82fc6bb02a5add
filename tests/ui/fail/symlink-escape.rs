skills_embed::skills!("fixtures/fail/symlink-escape");

fn main() {}
