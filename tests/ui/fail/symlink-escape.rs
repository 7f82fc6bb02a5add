skills::skills!("fixtures/fail/symlink-escape");

fn main() {}
