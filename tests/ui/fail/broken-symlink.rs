skills::skills!("fixtures/fail/broken-symlink");

fn main() {}
