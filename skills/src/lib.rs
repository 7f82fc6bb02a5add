//! Agent Skills baked into your binary.
//!
//! `skills!("skills")` reads a folder of skills when your crate compiles, checks every SKILL.md
//! against the Agent Skills rules (a broken skill is a compile error naming the file, the line
//! and the rule), and embeds every file. It generates a closed `SkillId` enum and a `SKILLS`
//! static serving bodies and resources by path.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets `::skills::...` paths in generated code resolve inside this crate's own doctests.
extern crate self as skills;

pub use skills_runtime::*;

/// Embeds a folder of Agent Skills, validated when the crate compiles.
///
/// ```ignore
/// skills::skills!("skills");
/// ```
pub use skills_macros::skills;
