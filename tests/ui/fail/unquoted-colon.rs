skills_embed::skills!("fixtures/fail/unquoted-colon");

fn main() {}
