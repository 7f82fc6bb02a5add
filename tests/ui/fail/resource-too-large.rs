skills_embed::skills!("fixtures/fail/resource-too-large", max_resource_bytes = 1000);

fn main() {}
