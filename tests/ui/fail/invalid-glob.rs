skills::skills!("fixtures/basic", include = ["[unclosed"]);

fn main() {}
