skills::skills!("fixtures/fail/description-type");

fn main() {}
