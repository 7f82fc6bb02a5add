skills::skills!("fixtures/fail/description-missing");

fn main() {}
