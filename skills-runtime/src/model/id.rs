//! The closed set of skill identifiers that `skills!` generates as an enum.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Implemented by the `SkillId` enum that `skills!` generates: one variant per skill, in the
/// order of their names, so a variant's index is its skill's position in the set.
///
/// ```
/// use skills_embed::SkillIdentifier;
/// // `skills!("skills")` in your crate; here, this repository's example skills.
/// skills_embed::skills!("../skills/examples/skills");
/// // Code generic over any crate's generated enum.
/// fn names<Id: SkillIdentifier>() -> Vec<&'static str> {
///     Id::ALL.iter().map(|id| id.name()).collect()
/// }
/// assert_eq!(names::<SkillId>()[..3], ["brand-guidelines", "code-review", "pdf-forms"]);
/// assert_eq!(SkillId::PdfForms.to_string(), "pdf-forms");
/// // Each identifier picks its own skill from the set.
/// assert!(SkillId::ALL.iter().all(|&id| SKILLS.skill(id).name() == id.name()));
/// ```
pub trait SkillIdentifier:
    Copy + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static
{
    /// Every identifier, sorted by name.
    const ALL: &'static [Self];

    /// The skill's name, as the model sends it.
    ///
    /// ```
    /// use skills_embed::SkillIdentifier;
    /// // `skills!("skills")` in your crate; here, this repository's example skills.
    /// skills_embed::skills!("../skills/examples/skills");
    /// assert_eq!(SkillId::PdfForms.name(), "pdf-forms");
    /// // The name a model sends parses back to the identifier.
    /// assert_eq!(SkillId::PdfForms.name().parse::<SkillId>().unwrap(), SkillId::PdfForms);
    /// ```
    fn name(self) -> &'static str;

    /// The position in [`SkillIdentifier::ALL`] and in the skill set (generated code's).
    #[doc(hidden)]
    fn index(self) -> usize;
}

/// The `Id` of a set built at run time, `SkillSet`'s default: it has no enum, its skills are
/// looked up by name.
pub(crate) type Dynamic = ();
