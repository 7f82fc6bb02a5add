skills::skills!("fixtures/fail/description-too-long");

fn main() {}
