//! A body links to files its skill does not have, inline and reference-style: one error per
//! link at the line and column of its destination, with the closest path; the link in the
//! fenced block is a sample, not checked. The generated items still exist.

skills_embed::skills!("fixtures/fail/broken-reference");

fn main() {
    let _ = SKILLS.skill(SkillId::Forms).load("SKILL.md");
}
