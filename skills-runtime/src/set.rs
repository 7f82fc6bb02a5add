//! A set of skills: what `skills!` generates as `SKILLS`, or what is built at run time.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use crate::error::{SkillError, closest};
use crate::id::{Dynamic, SkillIdentifier};
use crate::skill::{Loaded, Skill};
use crate::summary::{self, Entry, SummaryFormat};

/// Skills sorted by name, with their L1 listing.
///
/// `skills!` generates one as a `static`: plain data, no start-up work, `Send + Sync`, every
/// byte borrowed from the binary. `Id` is the generated `SkillId` enum; sets built at run time
/// use [`Dynamic`] and are looked up by name.
///
/// ```
/// use skills_runtime::{File, Fields, Skill, SkillSet};
/// // `skills!` generates statics like these.
/// static PDF_FILES: [File; 1] = [File::from_text("SKILL.md", "Use pdftotext.\n", false, [0; 32])];
/// static ALL: [Skill; 1] = [Skill::embedded(
///     Fields { name: "pdf", description: "Work with PDF files.", ..Fields::EMPTY },
///     &PDF_FILES,
///     &[],
/// )];
/// static SKILLS: SkillSet = SkillSet::from_static(&ALL, "- pdf: Work with PDF files.\n");
/// assert_eq!(SKILLS.summary(), "- pdf: Work with PDF files.\n");
/// assert_eq!(SKILLS.get("pdf").unwrap().body(), "Use pdftotext.\n");
/// let miss = SKILLS.get("pfd").unwrap_err().to_string();
/// assert_eq!(miss, r#"Skill "pfd" not found. Available skills: pdf. Did you mean "pdf"?"#);
/// ```
pub struct SkillSet<Id: 'static = Dynamic> {
    skills: Cow<'static, [Skill]>,
    summary: Cow<'static, str>,
    id: PhantomData<fn() -> Id>,
}

impl<Id> SkillSet<Id> {
    /// A set of embedded skills (used by generated code). `skills` must be sorted by name, and
    /// when `Id` is an enum its variants must be in the same order.
    pub const fn from_static(skills: &'static [Skill], summary: &'static str) -> Self {
        SkillSet {
            skills: Cow::Borrowed(skills),
            summary: Cow::Borrowed(summary),
            id: PhantomData,
        }
    }

    /// The L1 listing: one entry per skill, built once (at compile time for `skills!`).
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// Every skill, sorted by name.
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// Every skill name, sorted.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.skills.iter().map(Skill::name)
    }

    /// The number of skills.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether the set has no skills.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// A skill by name, as a model sends it. A miss lists every name.
    pub fn get(&self, name: &str) -> Result<&Skill, SkillError> {
        match self.skills.binary_search_by(|s| s.name().cmp(name)) {
            Ok(i) => Ok(&self.skills[i]),
            Err(_) => Err(SkillError::UnknownSkill {
                requested: name.to_owned(),
                available: self.names().map(str::to_owned).collect(),
                suggestion: closest(name, self.names()),
            }),
        }
    }

    /// The body or a resource of a skill named by a string. Both misses list what exists.
    pub fn load_by_name(&self, name: &str, path: &str) -> Result<Loaded<'_>, SkillError> {
        self.get(name)?.load(path)
    }

    /// Renders the listing again in another format.
    pub fn render_summary(&self, format: SummaryFormat) -> String {
        summary::render(
            self.skills.iter().map(|s| Entry {
                name: s.name(),
                description: s.description(),
                ..Entry::default()
            }),
            format,
        )
    }
}

impl<Id: SkillIdentifier> SkillSet<Id> {
    /// A skill by its identifier: an index, no search.
    pub fn skill(&self, id: Id) -> &Skill {
        &self.skills[id.index()]
    }

    /// The body (`"SKILL.md"`) or a resource of a skill. A miss lists every path of the skill.
    pub fn load(&self, id: Id, path: &str) -> Result<Loaded<'_>, SkillError> {
        self.skill(id).load(path)
    }

    /// Every path [`SkillSet::load`] accepts for a skill, sorted.
    pub fn paths(&self, id: Id) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.skill(id).paths()
    }
}

impl SkillSet<Dynamic> {
    /// A set with no skills.
    pub const fn empty() -> Self {
        Self::from_static(&[], "")
    }

    /// A set built at run time. Skills are sorted by name; of two with the same name the first
    /// is kept. The listing is rendered in `format`.
    pub fn from_skills(mut skills: Vec<Skill>, format: SummaryFormat) -> Self {
        skills.sort_by(|a, b| a.name().cmp(b.name()));
        skills.dedup_by(|a, b| a.name() == b.name());
        let mut set = SkillSet {
            skills: Cow::Owned(skills),
            summary: Cow::Borrowed(""),
            id: PhantomData,
        };
        set.summary = Cow::Owned(set.render_summary(format));
        set
    }
}

impl<Id> fmt::Debug for SkillSet<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillSet")
            .field("skills", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
