skills_embed::skills!("fixtures/fail/body-too-long", max_body_lines = 10, body_limit = error);

fn main() {}
