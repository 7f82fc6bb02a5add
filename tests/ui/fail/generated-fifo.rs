// Fixtures made by tests/ui.rs: a FIFO in a skill folder is skipped with a warning (reading it
// would hang the build); `deny` turns the warning into an error so the snapshot pins it.
#![deny(deprecated)]

skills_embed::skills!("generated/fifo");

fn main() {
    let _ = SKILLS.skill(SkillId::Demo).load("SKILL.md");
}
