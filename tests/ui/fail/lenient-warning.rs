// Under the lenient profile a name/folder mismatch and an unknown field are real compiler
// warnings; `deny` turns them into errors so the snapshot pins their text.
#![deny(deprecated)]

skills_embed::skills!("fixtures/fail/lenient-warning", profile = lenient);

fn main() {
    let _ = SKILLS.skill(SkillId::Other).load("SKILL.md");
}
