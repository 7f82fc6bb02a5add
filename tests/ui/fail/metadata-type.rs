skills::skills!("fixtures/fail/metadata-type");

fn main() {}
