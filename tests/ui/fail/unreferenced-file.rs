// With `unreferenced_files = true`, a file nothing in its skill refers to is a warning;
// `deny` turns it into an error so the snapshot pins its text.
#![deny(deprecated)]

skills_embed::skills!("fixtures/fail/unreferenced-file", unreferenced_files = true);

fn main() {
    let _ = SKILLS.skill(SkillId::Notes).load("SKILL.md");
}
