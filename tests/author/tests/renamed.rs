//! The facade under another dependency key (`agent_kit = { package = "skills-embed", ... }`):
//! `agent_kit::skills!` expands to code that finds the runtime without the name `skills_embed`.

use skills_author_example::reexported::{REEXPORTED, Reexported};
use skills_author_example::{SKILLS, SkillId};

#[test]
fn the_facade_works_under_another_dependency_key() {
    assert_eq!(SkillId::ALL, &[SkillId::Greeting]);
    let body = SKILLS.skill(SkillId::Greeting).load("SKILL.md").unwrap();
    assert!(body.text().unwrap().starts_with("# Greeting"));
    assert!(
        SKILLS
            .skill(SkillId::Greeting)
            .load("references/phrases.md")
            .is_ok()
    );
    assert_eq!("greeting".parse::<SkillId>().unwrap(), SkillId::Greeting);
    assert!(SKILLS.summary().starts_with("- greeting: Greets the user"));
}

#[test]
fn the_crate_option_names_the_path_generated_code_uses() {
    let skill = REEXPORTED.get("greeting").unwrap();
    assert_eq!(skill.name(), Reexported::Greeting.name());
    let miss = REEXPORTED
        .skill(Reexported::Greeting)
        .load("phrases.md")
        .unwrap_err()
        .to_string();
    assert!(miss.contains("references/phrases.md"), "{miss}");
}

/// The hidden proc macro called without the `skills!` front gets no `$crate`: its default
/// path is `::skills_embed`, which does not exist here, so only `crate = ...` makes it work.
mod without_front {
    agent_kit::__skills_impl!("skills", crate = ::agent_kit);

    #[test]
    fn the_crate_option_alone_is_enough() {
        assert_eq!(SKILLS.skill(SkillId::Greeting).paths().count(), 2);
    }
}
