//! What an install found and did: each skill's [`SkillState`] in each destination, the
//! [`InstallEntry`] for it and the [`InstallReport`] of a run, each with the line it prints.

use std::fmt;
use std::path::PathBuf;

use super::targets::Agent;

/// What an installed skill is, compared with the set being installed.
///
/// Its name (`missing`, `up-to-date`, ...) is what `to_string` writes.
///
/// ```
/// use skills_embed::disk::SkillState;
/// assert_eq!(SkillState::UpToDate.to_string(), "up-to-date");
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum SkillState {
    /// No folder of that name in the destination.
    Missing,
    /// Ours, unchanged, and the same as the skill shipped now.
    UpToDate,
    /// Ours, unchanged, from another version of the skill.
    Outdated,
    /// Ours, edited since it was installed (or unreadable as written).
    Modified,
    /// Not ours: no provenance of this tool (another installer's, or written by hand), or not a
    /// plain folder.
    Foreign,
    /// Ours, unchanged, and no longer shipped.
    Orphaned,
}

/// One skill in one destination: its state before the run and what the run did.
///
/// ```
/// use skills_embed::disk::{Install, SkillState};
/// use skills_embed::{Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
///
/// let skill = |body: &str| Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     body.into(),
///     vec![],
/// );
/// let dir = tempfile::tempdir()?;
/// let install = Install::new("mytool", "1.0.0").dir(dir.path());
/// install.install(&SkillSet::from_skills(vec![skill("v1\n")], &ListingFormat::Markdown))?;
/// std::fs::write(dir.path().join("notes/extra.md"), "my own notes")?;
/// let v2 = SkillSet::from_skills(vec![skill("v2\n")], &ListingFormat::Markdown);
/// let report = install.install(&v2)?;
/// let entry = &report.entries[0];
/// assert_eq!((entry.skill.as_str(), entry.state), ("notes", SkillState::Modified));
/// assert_eq!(entry.installed_version.as_deref(), Some("1.0.0"));
/// assert!(entry.left_alone() && entry.action.contains("--force"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstallEntry {
    /// The skill's name (its folder's name).
    pub skill: String,
    /// The skill's folder: `<destination>/<skill>`.
    pub folder: PathBuf,
    /// The agents that read this destination (empty for `dir`).
    pub agents: Vec<Agent>,
    /// The state found before the run.
    pub state: SkillState,
    /// The version of the tool that installed what is there, when ours.
    pub installed_version: Option<String>,
    /// What was done (or, in a dry run, what would be): `installed`, `updated`, `removed`,
    /// `replaced`, `unchanged`, `left alone` (and why), `failed`, with `would be ` before a write
    /// or removal a dry run left out. Empty in a status, which only reads the states.
    pub action: String,
    /// Where a replaced skill was moved (`--force`).
    pub backup: Option<PathBuf>,
    /// Why the action failed.
    pub error: Option<String>,
    pub(super) left_alone: bool,
}

impl InstallEntry {
    /// Whether the skill was left as it was although the run was asked to change it: modified
    /// or foreign without `force`, or a write that failed.
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let notes = |body: &str| SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     body.into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("mytool", "1.0.0").dir(dir.path());
    /// assert!(!install.install(&notes("v1\n"))?.entries[0].left_alone()); // installed
    /// std::fs::write(dir.path().join("notes/SKILL.md"), "edited by hand")?;
    /// let report = install.install(&notes("v2\n"))?;
    /// assert!(report.entries[0].left_alone()); // modified: not overwritten
    /// assert_eq!(std::fs::read_to_string(dir.path().join("notes/SKILL.md"))?, "edited by hand");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_alone(&self) -> bool {
        self.left_alone
    }
}

impl fmt::Display for InstallEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<10} {:<24} {}",
            self.state,
            self.skill,
            self.folder.display()
        )?;
        if let Some(version) = &self.installed_version {
            write!(f, " (installed by version {version})")?;
        }
        if !self.action.is_empty() {
            write!(f, ": {}", self.action)?;
        }
        if let Some(backup) = &self.backup {
            write!(f, ", backup at {}", backup.display())?;
        }
        if let Some(error) = &self.error {
            write!(f, ": {error}")?;
        }
        Ok(())
    }
}

/// What [`Install::status`](super::Install::status), [`Install::install`](super::Install::install) or
/// [`Install::uninstall`](super::Install::uninstall) found and did,
/// per skill and destination. Its `Display` is one line per entry, then the hints.
///
/// ```
/// use skills_embed::disk::{Install, SkillState};
/// use skills_embed::{Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
///
/// let skill = |body: &str| Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     body.into(),
///     vec![],
/// );
/// let tmp = tempfile::tempdir()?;
/// let dir = tmp.path().join("skills"); // a forced run's backups go beside it, in `tmp`
/// let install = Install::new("mytool", "1.0.0").dir(&dir);
/// install.install(&SkillSet::from_skills(vec![skill("v1\n")], &ListingFormat::Markdown))?;
/// std::fs::write(dir.join("notes/extra.md"), "my own notes")?;
/// let v2 = SkillSet::from_skills(vec![skill("v2\n")], &ListingFormat::Markdown);
/// let report = install.install(&v2)?;
/// assert!(report.left_alone()); // the edited skill was not updated
/// assert_eq!(report.destinations.len(), 1);
/// assert!(report.to_string().contains("modified"));
/// let forced = install.force(true).install(&v2)?;
/// assert!(!forced.left_alone() && forced.entries[0].backup.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstallReport {
    /// The project root the destinations were resolved against (project scope).
    pub root: Option<PathBuf>,
    /// Each destination folder and the agents that read it, once per folder.
    pub destinations: Vec<(PathBuf, Vec<Agent>)>,
    /// Every skill in every destination: the set's, then the orphans.
    pub entries: Vec<InstallEntry>,
    /// Advice for what an installer cannot fix (a client that reads only the folder it
    /// started in, or only trusted folders).
    pub hints: Vec<String>,
}

impl InstallReport {
    /// Whether anything was left alone (the `skills` CLI then exits with status 1).
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let notes = |body: &str| SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     body.into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let tmp = tempfile::tempdir()?;
    /// let dir = tmp.path().join("skills"); // the forced run's backup goes beside it, in `tmp`
    /// std::fs::create_dir_all(dir.join("notes"))?; // someone else's folder
    /// let install = Install::new("mytool", "1.0.0").dir(&dir);
    /// let report = install.install(&notes("v1\n"))?;
    /// assert!(report.left_alone()); // a command line would exit with status 1
    /// assert!(!install.force(true).install(&notes("v1\n"))?.left_alone());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_alone(&self) -> bool {
        self.entries.iter().any(InstallEntry::left_alone)
    }
}

impl fmt::Display for InstallReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(root) = &self.root {
            writeln!(f, "Project root: {}", root.display())?;
        }
        for entry in &self.entries {
            writeln!(f, "{entry}")?;
        }
        for hint in &self.hints {
            writeln!(f, "hint: {hint}")?;
        }
        Ok(())
    }
}
