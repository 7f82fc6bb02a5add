// Fixtures made by tests/ui.rs: a Unix socket in a skill folder is skipped with a warning, like
// a FIFO (opening it would fail or block); `deny` turns the warning into an error so the
// snapshot pins it.
#![deny(deprecated)]

skills_embed::skills!("generated/socket");

fn main() {
    let _ = SKILLS.skill(SkillId::Demo).load("SKILL.md");
}
