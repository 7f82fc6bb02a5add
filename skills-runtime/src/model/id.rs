//! The closed set of skill identifiers that `skills!` generates as an enum.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Implemented by the `SkillId` enum that `skills!` generates: one variant per skill, in the
/// order of their names, so a variant's index is its skill's position in the set.
pub trait SkillIdentifier:
    Copy + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static
{
    /// Every identifier, sorted by name.
    const ALL: &'static [Self];

    /// The skill's name, as the model sends it.
    fn name(self) -> &'static str;

    /// The position in [`SkillIdentifier::ALL`] and in the skill set (generated code's).
    #[doc(hidden)]
    fn index(self) -> usize;
}

/// The `Id` of a set built at run time, `SkillSet`'s default: it has no enum, its skills are
/// looked up by name.
pub(crate) type Dynamic = ();
