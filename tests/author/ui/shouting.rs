agent_kit::skills!("ui/skills");

fn main() {}
