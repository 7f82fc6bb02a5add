// Fixtures made by tests/ui.rs: 64 nested folders. A skill at the bottom is found (its error is
// reported with its full path) and a resource 64 folders down in a good skill is embedded.
skills_embed::skills!("generated/deep");

fn main() {
    let _ = SKILLS.skill(SkillId::Demo).load("r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/r/bottom.md");
}
