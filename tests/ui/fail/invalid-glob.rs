skills_embed::skills!("fixtures/basic", include = ["[unclosed"]);

fn main() {}
