// A path in inline code naming a file the skill does not have is a warning (a path in prose
// may be an example); `deny` turns it into an error so the snapshot pins its text.
#![deny(deprecated)]

skills_embed::skills!("fixtures/fail/broken-reference-code");

fn main() {
    let _ = SKILLS.skill(SkillId::Forms).load("SKILL.md");
}
