// One broken skill is one error: the enum still has both variants, so code naming them compiles.
skills_embed::skills!("fixtures/fail/no-cascade");

fn main() {
    let _ = SKILLS.skill(SkillId::Good).load("SKILL.md");
    let _ = SKILLS.skill(SkillId::Broken).load("SKILL.md");
}
