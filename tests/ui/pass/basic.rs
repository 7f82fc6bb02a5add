//! The generated items are documented and lint-clean in a crate that denies both.
#![deny(missing_docs, warnings)]

skills_embed::skills!("fixtures/basic");

/// Options rename the generated items.
pub mod renamed {
    skills_embed::skills!("fixtures/basic", enum_name = Tool, static_name = TOOLS, profile = strict, summary = markdown, include = ["**/*.md"], exclude = [], dotfiles = false,);
}

fn main() {
    assert_eq!(SKILLS.len(), 2);
    assert_eq!(renamed::TOOLS.skill(renamed::Tool::Pdf).paths().count(), 2);
}
