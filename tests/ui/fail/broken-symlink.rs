skills_embed::skills!("fixtures/fail/broken-symlink");

fn main() {}
