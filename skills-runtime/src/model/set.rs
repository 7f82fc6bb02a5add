//! A set of skills: what `skills!` generates as `SKILLS`, or what is built at run time.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use crate::listing::{self, ListingFormat, ListingOptions};
use crate::model::error::SkillError;
use crate::model::id::{Dynamic, SkillIdentifier};
use crate::model::index::Index;
use crate::model::script::Script;
use crate::model::skill::Skill;
use crate::text::closest;

/// Skills sorted by name, with their L1 listing.
///
/// `skills!` generates one as a `static`: plain data, no start-up work, `Send + Sync`, every
/// byte borrowed from the binary. `Id` is the generated `SkillId` enum; a set built at run time
/// has none (plain `SkillSet`, whose `Id` is `()`) and is looked up by name.
///
/// ```
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// // `skills!` generates a static set; this one is built at run time.
/// let pdf = Skill::owned(
///     Fields { name: "pdf".into(), description: "Work with PDF files.".into(), ..Fields::default() },
///     "Use pdftotext.\n".into(),
///     vec![],
/// );
/// let SKILLS = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
/// assert_eq!(SKILLS.summary(), "- pdf: Work with PDF files.\n");
/// assert_eq!(SKILLS.get("pdf").unwrap().body(), "Use pdftotext.\n");
/// let miss = SKILLS.get("pfd").unwrap_err().to_string();
/// assert_eq!(miss, r#"Skill "pfd" not found. Available skills: pdf. Did you mean "pdf"?"#);
/// ```
pub struct SkillSet<Id: 'static = Dynamic> {
    skills: Cow<'static, [Skill]>,
    summary: Cow<'static, str>,
    /// The tables of an embedded set, for hashed name lookups.
    index: Option<&'static Index>,
    /// The skills' Rust scripts, sorted by skill, then name.
    scripts: Cow<'static, [Script]>,
    id: PhantomData<fn() -> Id>,
}

impl<Id> SkillSet<Id> {
    /// A set of embedded skills (used by generated code): `skills[i]` is the `i`-th skill of
    /// `index`, sorted by name, and when `Id` is an enum its variants are in the same order.
    pub(crate) const fn from_index(
        index: &'static Index,
        skills: &'static [Skill],
        summary: &'static str,
        scripts: &'static [Script],
    ) -> Self {
        SkillSet {
            skills: Cow::Borrowed(skills),
            summary: Cow::Borrowed(summary),
            index: Some(index),
            scripts: Cow::Borrowed(scripts),
            id: PhantomData,
        }
    }

    /// Every Rust script, sorted by skill, then by name (`skills!(..., scripts = {...})`, or
    /// [`SkillSet::with_scripts`]).
    ///
    /// ```
    /// use skills_embed::{Fields, Script, Skill, SkillSet, listing::ListingFormat};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct Name { name: String }
    /// # fn greet(args: Name) -> Result<String, String> { Ok(format!("Hello, {}!", args.name)) }
    /// # fn wave(_: Name) -> Result<String, String> { Ok("o/".into()) }
    /// # let fields = Fields { name: "hello".into(), ..Fields::default() };
    /// # let hello = Skill::owned(fields, String::new(), vec![]);
    /// let scripts = [Script::new("hello", "wave", wave), Script::new("hello", "greet", greet)];
    /// let set = SkillSet::from_skills(vec![hello], &ListingFormat::Xml).with_scripts(scripts);
    ///
    /// let names: Vec<_> = set.scripts().iter().map(|s| (s.skill(), s.name())).collect();
    /// assert_eq!(names, [("hello", "greet"), ("hello", "wave")]);
    /// ```
    pub fn scripts(&self) -> &[Script] {
        &self.scripts
    }

    /// The Rust script `name` of the skill named `skill`.
    ///
    /// ```
    /// use skills_embed::{Fields, Script, Skill, SkillSet, listing::ListingFormat};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct Name { name: String }
    /// # fn greet(args: Name) -> Result<String, String> { Ok(format!("Hello, {}!", args.name)) }
    /// # fn wave(_: Name) -> Result<String, String> { Ok("o/".into()) }
    /// # let fields = Fields { name: "hello".into(), ..Fields::default() };
    /// # let hello = Skill::owned(fields, String::new(), vec![]);
    /// let scripts = [Script::new("hello", "wave", wave), Script::new("hello", "greet", greet)];
    /// let set = SkillSet::from_skills(vec![hello], &ListingFormat::Xml).with_scripts(scripts);
    ///
    /// let greet = set.script("hello", "greet").unwrap();
    /// let args = serde_json::json!({"name": "Ann"});
    /// let out = greet.run(args, std::time::Duration::from_secs(1), &Default::default());
    /// assert_eq!(out.unwrap(), "Hello, Ann!");
    /// assert!(set.script("hello", "shout").is_none());
    /// ```
    pub fn script(&self, skill: &str, name: &str) -> Option<&Script> {
        self.scripts
            .binary_search_by(|s| s.key().cmp(&(skill, name)))
            .ok()
            .map(|i| &self.scripts[i])
    }

    /// The same set with `scripts` added to its Rust scripts. Of two scripts with the same skill
    /// and name, the first given is kept (those already in the set come first). A script whose
    /// skill is not in the set is kept but never offered: only a visible skill's scripts are.
    ///
    /// ```
    /// use skills_embed::{Fields, Script, Skill, SkillSet, listing::ListingFormat};
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name { name: String }
    /// fn greet(args: Name) -> Result<String, std::convert::Infallible> {
    ///     Ok(format!("Hello, {}!", args.name))
    /// }
    /// let fields = Fields { name: "hello".into(), description: "Greets.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown)
    ///     .with_scripts([Script::new("hello", "greet", greet)]);
    /// assert_eq!(set.scripts().iter().map(|s| s.name()).collect::<Vec<_>>(), ["greet"]);
    /// assert!(set.script("hello", "greet").is_some() && set.script("hello", "wave").is_none());
    /// ```
    pub fn with_scripts(mut self, scripts: impl IntoIterator<Item = Script>) -> Self {
        let mut scripts = scripts.into_iter().peekable();
        if scripts.peek().is_none() {
            return self;
        }
        let mut all = self.scripts.into_owned();
        all.extend(scripts);
        // Stable: the first of two equal keys stays first, and `dedup` keeps it.
        all.sort_by(|a, b| a.key().cmp(&b.key()));
        all.dedup_by(|a, b| a.key() == b.key());
        self.scripts = Cow::Owned(all);
        self
    }

    /// The L1 listing: one entry per skill, built once (at compile time for `skills!`).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// let skills = vec![skill("sql", "Write migrations."), skill("pdf", "Read PDFs.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    /// // What goes into the system prompt, so the model knows what it can load.
    /// assert_eq!(set.summary(), "- pdf: Read PDFs.\n- sql: Write migrations.\n");
    /// ```
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// Every skill, sorted by name.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// let skills = vec![skill("sql", "Write migrations."), skill("pdf", "Read PDFs.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    /// let described: Vec<_> = set.skills().iter().map(|s| (s.name(), s.description())).collect();
    /// assert_eq!(described, [("pdf", "Read PDFs."), ("sql", "Write migrations.")]);
    /// ```
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// Every skill name, sorted.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// let skills = vec![skill("sql", "Write migrations."), skill("pdf", "Read PDFs.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    /// assert_eq!(set.names().collect::<Vec<_>>(), ["pdf", "sql"]);
    /// ```
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.skills.iter().map(Skill::name)
    }

    /// The number of skills.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// // Of two skills with the same name, the first is kept.
    /// let skills = vec![skill("pdf", "Read PDFs."), skill("sql", "SQL."), skill("pdf", "Old.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    /// assert_eq!(set.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether the set has no skills.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// assert!(SkillSet::from_skills(vec![], &ListingFormat::Markdown).is_empty());
    /// let fields = Fields { name: "pdf".into(), ..Default::default() };
    /// let pdf = Skill::owned(fields, "".into(), vec![]);
    /// assert!(!SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// A skill by name, as a model sends it. A miss lists every name.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// let skills = vec![skill("pdf", "Read PDFs."), skill("sql", "Write migrations.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Markdown);
    /// assert_eq!(set.get("sql").unwrap().description(), "Write migrations.");
    /// let miss = set.get("docx").unwrap_err().to_string();
    /// assert_eq!(miss, r#"Skill "docx" not found. Available skills: pdf, sql."#);
    /// ```
    #[inline(always)]
    pub fn get(&self, name: &str) -> Result<&Skill, SkillError> {
        self.find(name).ok_or_else(|| self.unknown(name))
    }

    #[inline(always)]
    fn find(&self, name: &str) -> Option<&Skill> {
        self.position(name).and_then(|i| self.skills.get(i))
    }

    #[cold]
    fn unknown(&self, name: &str) -> SkillError {
        SkillError::UnknownSkill {
            requested: name.to_owned(),
            available: self.names().map(str::to_owned).collect(),
            suggestion: closest(name, self.names()),
        }
    }

    /// A skill's position by name: hashed for embedded sets, a binary search otherwise.
    #[inline(always)]
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        match self.index {
            Some(index) if !index.names.is_empty() => index.find_name(name),
            _ => self.skills.binary_search_by(|s| s.name().cmp(name)).ok(),
        }
    }

    /// The same skills as a set looked up by name only, as servers, run-time code and
    /// [`SkillSet::compose`] take them; nothing is copied.
    ///
    /// ```
    /// use skills_embed::SkillSet;
    /// static EMPTY: SkillSet = SkillSet::empty(); // `skills!`'s `SKILLS` is such a static
    /// let by_name: SkillSet = EMPTY.by_name();
    /// assert!(by_name.is_empty());
    /// ```
    pub fn by_name(&'static self) -> SkillSet<Dynamic> {
        SkillSet {
            skills: Cow::Borrowed(self.skills()),
            summary: Cow::Borrowed(self.summary()),
            index: self.index,
            scripts: Cow::Borrowed(self.scripts()),
            id: PhantomData,
        }
    }

    /// The listing of the skills a model may invoke, rendered with `options` (format, budgets,
    /// hints); [`SkillSet::summary`] is the same in the default options, built once.
    ///
    /// ```
    /// use skills_embed::listing::{Budget, ListingFormat, ListingOptions};
    /// use skills_embed::{Fields, Skill, SkillSet};
    /// let skill = |name: &str, description: &str| {
    ///     let fields = Fields { name: name.into(), description: description.into(), ..Fields::default() };
    ///     Skill::owned(fields, String::new(), vec![])
    /// };
    /// let set = SkillSet::from_skills(
    ///     vec![skill("pdf", "Read, fill and merge PDF files."), skill("sql", "Write safe schema migrations.")],
    ///     &ListingFormat::Markdown,
    /// );
    /// assert_eq!(set.listing(&ListingOptions::default()), set.summary());
    /// let xml = set.listing(&ListingOptions { format: ListingFormat::Xml, ..ListingOptions::default() });
    /// assert!(xml.starts_with("<available_skills>"));
    /// // Over a budget, skills from the end are listed by name only, and the listing says so.
    /// let short = set.listing(&ListingOptions { budget: Some(Budget::Chars(40)), ..ListingOptions::default() });
    /// assert!(short.contains("- sql") && !short.contains("migrations"), "{short}");
    /// ```
    pub fn listing(&self, options: &ListingOptions) -> String {
        let entries: Vec<listing::Entry<'_>> = self
            .skills
            .iter()
            .filter(|s| s.policy().model_may_invoke())
            .map(|s| listing::Entry {
                name: s.name(),
                description: s.description(),
                when_to_use: s.when_to_use(),
                ..listing::Entry::default()
            })
            .collect();
        listing::render(&entries, options)
    }
}

impl<Id: SkillIdentifier> SkillSet<Id> {
    /// A skill by its identifier: an index, no search. [`Skill::load`] serves its body and files.
    ///
    /// ```
    /// // `skills!("skills")` in your crate; here, this repository's example skills.
    /// skills_embed::skills!("../skills/examples/skills");
    /// let pdf = SKILLS.skill(SkillId::PdfForms);
    /// assert_eq!(pdf.name(), "pdf-forms");
    /// assert!(pdf.load("SKILL.md").unwrap().text().is_some());
    /// ```
    #[inline]
    pub fn skill(&self, id: Id) -> &Skill {
        // In bounds: the enum and the array come from the same expansion.
        &self.skills[id.index()]
    }
}

impl SkillSet<Dynamic> {
    /// A set with no skills.
    ///
    /// ```
    /// use skills_embed::SkillSet;
    /// // A static, where no skills are shipped yet.
    /// static NONE: SkillSet = SkillSet::empty();
    /// assert_eq!((NONE.len(), NONE.summary()), (0, ""));
    /// let miss = NONE.get("pdf").unwrap_err().to_string();
    /// assert_eq!(miss, r#"Skill "pdf" not found. There are no skills available."#);
    /// ```
    pub const fn empty() -> Self {
        SkillSet {
            skills: Cow::Borrowed(&[]),
            summary: Cow::Borrowed(""),
            index: None,
            scripts: Cow::Borrowed(&[]),
            id: PhantomData,
        }
    }

    /// One set of the skills of several, each set given with where it came from (the crate
    /// that embeds it, say): an application composing what the crates it uses embed. The
    /// Rust scripts come along. A name given by two sets is an error listing each clashing
    /// name and its sources, never one skill silently taken over another. The listing is
    /// rendered in `format`.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillError, SkillSet, listing::ListingFormat};
    /// let set = |names: &[&str]| {
    ///     let skills = names.iter().map(|name| {
    ///         let fields = Fields { name: (*name).into(), description: "Does a thing.".into(), ..Fields::default() };
    ///         Skill::owned(fields, String::new(), vec![])
    ///     });
    ///     SkillSet::from_skills(skills.collect(), &ListingFormat::Markdown)
    /// };
    /// // With `skills!`, each crate's `SKILLS.by_name()`.
    /// let all = SkillSet::compose(
    ///     [("pdf_kit", set(&["pdf-forms"])), ("sql_kit", set(&["sql-migrations"]))],
    ///     &ListingFormat::Markdown,
    /// )?;
    /// assert_eq!(all.names().collect::<Vec<_>>(), ["pdf-forms", "sql-migrations"]);
    ///
    /// let err = SkillSet::compose(
    ///     [("pdf_kit", set(&["notes", "pdf-forms"])), ("sql_kit", set(&["notes"]))],
    ///     &ListingFormat::Markdown,
    /// ).unwrap_err();
    /// assert_eq!(err, SkillError::DuplicateSkills {
    ///     clashes: vec![("notes".into(), vec!["pdf_kit".into(), "sql_kit".into()])],
    /// });
    /// assert!(err.to_string().starts_with(r#"Skill names given by more than one set: "notes" (from pdf_kit, sql_kit)."#));
    /// # Ok::<(), SkillError>(())
    /// ```
    pub fn compose<'a>(
        sets: impl IntoIterator<Item = (&'a str, SkillSet)>,
        format: &ListingFormat,
    ) -> Result<SkillSet, SkillError> {
        let mut sources: Vec<(String, Vec<String>)> = Vec::new();
        // Each name's place in `sources`, so the clashes keep the order the names came in.
        let mut places: std::collections::HashMap<String, usize> = Default::default();
        let mut skills = Vec::new();
        let mut scripts = Vec::new();
        for (label, set) in sets {
            for skill in set.skills() {
                match places.get(skill.name()) {
                    Some(&at) => sources[at].1.push(label.to_owned()),
                    None => {
                        places.insert(skill.name().to_owned(), sources.len());
                        sources.push((skill.name().to_owned(), vec![label.to_owned()]));
                    }
                }
                skills.push(skill.clone());
            }
            scripts.extend(set.scripts().iter().cloned());
        }
        let clashes: Vec<(String, Vec<String>)> = sources
            .into_iter()
            .filter(|(_, from)| from.len() > 1)
            .collect();
        if !clashes.is_empty() {
            return Err(SkillError::DuplicateSkills { clashes });
        }
        Ok(SkillSet::from_skills(skills, format).with_scripts(scripts))
    }

    /// A set built at run time. Skills are sorted by name; of two with the same name the first
    /// is kept. The listing is rendered in `format`.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, d: &str| {
    /// #     let fields = Fields { name: name.into(), description: d.into(), ..Default::default() };
    /// #     Skill::owned(fields, String::new(), vec![])
    /// # };
    /// let skills = vec![skill("sql", "SQL."), skill("pdf", "Read PDFs."), skill("pdf", "Old.")];
    /// let set = SkillSet::from_skills(skills, &ListingFormat::Xml);
    /// assert_eq!(set.names().collect::<Vec<_>>(), ["pdf", "sql"]);
    /// assert_eq!(set.get("pdf").unwrap().description(), "Read PDFs.");
    /// assert!(set.summary().starts_with("<available_skills>"));
    /// ```
    pub fn from_skills(mut skills: Vec<Skill>, format: &ListingFormat) -> Self {
        skills.sort_by(|a, b| a.name().cmp(b.name()));
        skills.dedup_by(|a, b| a.name() == b.name());
        let mut set = SkillSet {
            skills: Cow::Owned(skills),
            summary: Cow::Borrowed(""),
            index: None,
            scripts: Cow::Borrowed(&[]),
            id: PhantomData,
        };
        set.summary = Cow::Owned(set.listing(&ListingOptions {
            format: format.clone(),
            ..ListingOptions::default()
        }));
        set
    }
}

/// Copies the skills' handles, not their files (owned skills are shared).
impl<Id> Clone for SkillSet<Id> {
    fn clone(&self) -> Self {
        SkillSet {
            skills: self.skills.clone(),
            summary: self.summary.clone(),
            index: self.index,
            scripts: self.scripts.clone(),
            id: PhantomData,
        }
    }
}

impl<Id> fmt::Debug for SkillSet<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillSet")
            .field("skills", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
