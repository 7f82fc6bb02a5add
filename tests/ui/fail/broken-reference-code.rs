// A path in inline code naming a file the skill does not have is an error, as a broken link is:
// a model reads it and tries it.
skills_embed::skills!("fixtures/fail/broken-reference-code");

fn main() {
    let _ = SKILLS.skill(SkillId::Forms).load("SKILL.md");
}
