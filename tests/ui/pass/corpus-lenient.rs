//! A folder with warnings compiles under the lenient profile.
skills_embed::skills!("fixtures/fail/lenient-warning", profile = lenient);

fn main() {
    assert_eq!(SkillId::ALL, &[SkillId::Other]);
}
