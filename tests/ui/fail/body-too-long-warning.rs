// The default for a long body is a warning (a real one: `deny` pins its text here).
#![deny(deprecated)]

skills_embed::skills!("fixtures/fail/body-too-long", max_body_lines = 10);

fn main() {}
