skills_embed::skills!("fixtures/fail/symlink-sibling");

fn main() {}
