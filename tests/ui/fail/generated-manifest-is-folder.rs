// Fixtures made by tests/ui.rs: a folder named SKILL.md where the file should be (how an
// unreadable SKILL.md is simulated when the tests run as root). It is reported, not skipped in
// silence; the good skill beside it still gets its variant.
skills_embed::skills!("generated/manifest-is-folder");

fn main() {
    let _ = SKILLS.skill(SkillId::Demo).load("SKILL.md");
}
