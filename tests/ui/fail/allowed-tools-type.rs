skills_embed::skills!("fixtures/fail/allowed-tools-type");

fn main() {}
