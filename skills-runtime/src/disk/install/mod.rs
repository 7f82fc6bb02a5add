//! Installing a [`SkillSet`]'s skills into the folders coding agents read: [`Install`].

mod provenance;
mod report;
mod targets;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub use report::{InstallEntry, InstallReport, SkillState};
pub use targets::{Agent, Scope};

use self::provenance::Provenance;
use self::targets::Places;
use super::extract::{ExtractError, checked_paths, fingerprint_of, prepare_dest, write_files};
use super::folder::{Folder, Kind};
use crate::model::fields::MANIFEST;
use crate::model::file::{hex, sha256};
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::model::skill_md::manifest;

/// The most an installed skill folder may hold for its state to be read (64 MiB): a bigger one
/// was not written by an installer and is read as changed.
const MAX_READ: u64 = 64 << 20;

/// Why no destination could be worked out. Problems with one skill are in its
/// [`InstallEntry`] instead, and do not stop the others.
///
/// ```
/// use skills_embed::disk::{Agent, Install, InstallError};
///
/// let outside = tempfile::tempdir()?; // no `.git` above it
/// let err = Install::new("mytool", "1.0.0")
///     .project(outside.path())
///     .agents([Agent::ClaudeCode])
///     .status(&skills_embed::SkillSet::empty())
///     .unwrap_err();
/// assert!(matches!(err, InstallError::NoProject { .. }));
/// assert!(err.to_string().contains("--dir"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// User scope, or detection, needs the home folder and none was given or found.
    #[error(
        "No home folder: user scope and agent detection need one, and neither HOME nor USERPROFILE is set. Set HOME, or install into a folder with --dir."
    )]
    NoHome,
    /// Project scope found no repository around the start folder.
    #[error(
        "No project around \"{}\": no folder at or above it holds `.git`, and skills are never installed into an arbitrary working folder. Run this inside a repository, use --scope user, or name a folder with --dir.",
        start.display()
    )]
    NoProject {
        /// The folder the search started from.
        start: PathBuf,
    },
    /// The project found is the home folder (a dotfiles repository).
    #[error(
        "The project root \"{}\" is the home folder: a project install there would be a user-wide one. Use --scope user, or name a folder with --dir.",
        root.display()
    )]
    HomeProject {
        /// The root found.
        root: PathBuf,
    },
    /// A link in the project's agent folder leads out of the project.
    #[error(
        "Refusing to install through \"{}\": it is a link to {} outside the project \"{}\". Remove the link, or name the folder you mean with --dir.",
        path.display(),
        target.as_ref().map_or_else(|| "nothing".to_owned(), |t| format!("\"{}\"", t.display())),
        root.display()
    )]
    LeavesProject {
        /// The link.
        path: PathBuf,
        /// Where it leads, if anywhere.
        target: Option<PathBuf>,
        /// The project root.
        root: PathBuf,
    },
    /// No agent was named and none was found.
    #[error(
        "No agent named and none detected (looked for each agent's folder in the home folder and the project). Name one or more with --agent ({}), or all of them with --agent all.",
        <Agent as strum::VariantNames>::VARIANTS.join(", ")
    )]
    NoAgent,
    /// A file system call failed while resolving a destination.
    #[error(
        "Could not {op} \"{}\": {source}. Check that it exists and is readable, or name a folder with --dir.",
        path.display()
    )]
    Io {
        /// What was being done.
        op: &'static str,
        /// The path.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// Installs, lists and uninstalls a [`SkillSet`]'s skills in the folders coding agents read.
///
/// The destinations come from the [agents](Install::agents) (or those detected) and the
/// [scope](Install::scope), or from [`dir`](Install::dir). Agents sharing a folder get each
/// skill once. Every installed `SKILL.md` carries its provenance in the specification's
/// `metadata` map (`skills-embed-tool`, `-version`, `-installed-at`, `-digest`), so it stays
/// valid under the strict rules, and each skill's [`SkillState`] is read from the folder alone.
/// Writes go through the same folder handles as the extraction (no link followed), into a
/// fresh folder renamed into place, one skill at a time.
///
/// [`Install::new`] reads nothing from the environment (tests give a home and a project);
/// [`Install::from_env`] takes them from the process.
///
/// ```
/// use skills_embed::disk::{Agent, Install, SkillState};
/// use skills_embed::{Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
///
/// let skill = Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     "# Notes\n".into(),
///     vec![],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let home = tempfile::tempdir()?;
/// let repo = tempfile::tempdir()?;
/// std::fs::create_dir(repo.path().join(".git"))?;
///
/// let install = Install::new("mytool", "1.0.0")
///     .home(home.path())
///     .project(repo.path())
///     .agents([Agent::ClaudeCode, Agent::Codex]);
/// let report = install.install(&set)?;
/// assert_eq!(report.entries.len(), 2); // .claude/skills and .agents/skills
/// assert!(repo.path().join(".claude/skills/notes/SKILL.md").is_file());
/// let again = install.status(&set)?;
/// assert!(again.entries.iter().all(|e| e.state == SkillState::UpToDate));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Install {
    tool: String,
    version: String,
    agents: Vec<Agent>,
    scope: Scope,
    dir: Option<PathBuf>,
    home: Option<PathBuf>,
    start: Option<PathBuf>,
    vars: BTreeMap<String, String>,
    force: bool,
    dry_run: bool,
    partial: bool,
}

/// The variables that move agents' folders, read by [`Install::from_env`].
const VARS: [&str; 3] = ["CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "CODEX_HOME"];

impl Install {
    /// An installer recording `tool` and `version` (a binary's `CARGO_PKG_NAME` and
    /// `CARGO_PKG_VERSION`) in what it installs. It knows no home, project or variable: give
    /// them ([`home`](Install::home), [`project`](Install::project), [`var`](Install::var)),
    /// or use [`from_env`](Install::from_env).
    ///
    /// ```
    /// use skills_embed::disk::{Install, SkillState};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("mytool", "1.0.0").dir(dir.path());
    /// assert_eq!(install.status(&set)?.entries[0].state, SkillState::Missing);
    /// install.install(&set)?;
    /// let entry = &install.status(&set)?.entries[0];
    /// assert_eq!(entry.state, SkillState::UpToDate);
    /// assert_eq!(entry.installed_version.as_deref(), Some("1.0.0"));
    /// let skill_md = std::fs::read_to_string(dir.path().join("notes/SKILL.md"))?;
    /// assert!(skill_md.contains(r#"skills-embed-tool: "mytool""#), "{skill_md}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(tool: impl Into<String>, version: impl Into<String>) -> Install {
        Install {
            tool: tool.into(),
            version: version.into(),
            agents: Vec::new(),
            scope: Scope::Project,
            dir: None,
            home: None,
            start: None,
            vars: BTreeMap::new(),
            force: false,
            dry_run: false,
            partial: false,
        }
    }

    /// [`Install::new`] with the home folder (`HOME`, else `USERPROFILE`), the working folder as
    /// the project's start, and `CLAUDE_CONFIG_DIR`, `XDG_CONFIG_HOME` and `CODEX_HOME` taken
    /// from the process.
    ///
    /// ```
    /// use skills_embed::disk::{Install, SkillState};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// Install::new("mytool", "1.0.0").dir(dir.path()).install(&set)?;
    /// // The same tool and version, the destination named (here a temp dir, not the home).
    /// let install = Install::from_env("mytool", "1.0.0").dir(dir.path());
    /// let entry = &install.status(&set)?.entries[0];
    /// assert_eq!(entry.state, SkillState::UpToDate);
    /// assert_eq!(entry.installed_version.as_deref(), Some("1.0.0"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_env(tool: impl Into<String>, version: impl Into<String>) -> Install {
        let mut install = Install::new(tool, version);
        install.home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .filter(|h| !h.is_empty())
            .map(PathBuf::from);
        install.start = std::env::current_dir().ok();
        for name in VARS {
            if let Ok(value) = std::env::var(name) {
                install.vars.insert(name.to_owned(), value);
            }
        }
        install
    }

    /// The agents to install for; none (the default) means those detected (each agent's
    /// folder in the home folder or the project).
    ///
    /// ```
    /// use skills_embed::disk::{Agent, Install};
    /// use strum::VariantArray;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let (home, repo) = (tempfile::tempdir()?, tempfile::tempdir()?);
    /// # std::fs::create_dir(repo.path().join(".git"))?;
    /// let all = Install::new("mytool", "1.0.0").agents(Agent::VARIANTS.iter().copied());
    /// let report = all.home(home.path()).project(repo.path()).install(&set)?;
    /// // The agents share three folders, each written once.
    /// let folders: Vec<_> = report.destinations.iter()
    ///     .map(|(folder, _)| folder.strip_prefix(repo.path()).unwrap().to_str().unwrap())
    ///     .collect();
    /// assert_eq!(folders, [".agents/skills", ".claude/skills", ".windsurf/skills"]);
    /// assert!(report.destinations[0].1.contains(&Agent::Codex));
    /// assert!(repo.path().join(".windsurf/skills/notes/SKILL.md").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn agents(mut self, agents: impl IntoIterator<Item = Agent>) -> Install {
        self.agents = agents.into_iter().collect();
        self.agents.sort();
        self.agents.dedup();
        self
    }

    /// Project (the default) or user scope.
    ///
    /// ```
    /// use skills_embed::disk::{Agent, Install, Scope};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let home = tempfile::tempdir()?;
    /// let user = Install::new("mytool", "1.0.0").scope(Scope::User);
    /// let report = user.home(home.path()).agents([Agent::ClaudeCode]).install(&set)?;
    /// assert_eq!(report.root, None); // no project involved
    /// assert!(home.path().join(".claude/skills/notes/SKILL.md").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn scope(mut self, scope: Scope) -> Install {
        self.scope = scope;
        self
    }

    /// One folder to install into, whatever the agents and scope (`gh skill install --dir`).
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let tmp = tempfile::tempdir()?;
    /// let vendor = tmp.path().join("vendor/skills");
    /// let report = Install::new("mytool", "1.0.0").dir(&vendor).install(&set)?;
    /// assert_eq!(report.destinations, [(vendor.clone(), vec![])]); // no agent involved
    /// assert!(vendor.join("notes/SKILL.md").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Install {
        self.dir = Some(dir.into());
        self
    }

    /// The home folder (user scope and detection).
    ///
    /// ```
    /// use skills_embed::disk::{Agent, Install};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let repo = tempfile::tempdir()?;
    /// # std::fs::create_dir(repo.path().join(".git"))?;
    /// let home = tempfile::tempdir()?;
    /// std::fs::create_dir(home.path().join(".claude"))?; // Claude Code is used here
    /// let install = Install::new("mytool", "1.0.0").home(home.path()).project(repo.path());
    /// let report = install.install(&set)?; // no agent named: the detected ones
    /// assert_eq!(report.destinations[0].1, [Agent::ClaudeCode]);
    /// assert!(repo.path().join(".claude/skills/notes/SKILL.md").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn home(mut self, home: impl Into<PathBuf>) -> Install {
        self.home = Some(home.into());
        self
    }

    /// The folder the project is searched from (project scope walks up from it to the nearest
    /// folder holding `.git`). Without it, the search starts in the working folder.
    ///
    /// ```
    /// use skills_embed::disk::{Agent, Install};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let repo = tempfile::tempdir()?;
    /// std::fs::create_dir(repo.path().join(".git"))?;
    /// let cli = repo.path().join("crates/cli");
    /// std::fs::create_dir_all(&cli)?;
    /// let install = Install::new("mytool", "1.0.0").project(&cli).agents([Agent::ClaudeCode]);
    /// let report = install.install(&set)?;
    /// assert_eq!(report.root.as_deref(), Some(repo.path())); // the folder holding `.git`
    /// assert!(repo.path().join(".claude/skills/notes/SKILL.md").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn project(mut self, start: impl Into<PathBuf>) -> Install {
        self.start = Some(start.into());
        self
    }

    /// Sets an environment variable as the agents' folders read it (`CLAUDE_CONFIG_DIR`,
    /// `XDG_CONFIG_HOME`, `CODEX_HOME`), without touching the process's environment.
    ///
    /// ```
    /// use skills_embed::disk::{Agent, Install, Scope};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let (home, config) = (tempfile::tempdir()?, tempfile::tempdir()?);
    /// let install = Install::new("mytool", "1.0.0")
    ///     .var("CLAUDE_CONFIG_DIR", config.path().to_str().unwrap())
    ///     .home(home.path())
    ///     .scope(Scope::User)
    ///     .agents([Agent::ClaudeCode]);
    /// install.install(&set)?;
    /// assert!(config.path().join("skills/notes/SKILL.md").is_file());
    /// assert!(!home.path().join(".claude").exists()); // not `~/.claude/skills`
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn var(mut self, name: impl Into<String>, value: impl Into<String>) -> Install {
        self.vars.insert(name.into(), value.into());
        self
    }

    /// Replace modified and foreign skills too, each moved first to a backup folder beside the
    /// destination (`<destination>-backup/<skill>-<time>`).
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let tmp = tempfile::tempdir()?;
    /// let dir = tmp.path().join("skills"); // the backup goes beside it, in `tmp`
    /// Install::new("mytool", "1.0.0").dir(&dir).install(&set)?;
    /// std::fs::write(dir.join("notes/SKILL.md"), "edited by hand")?;
    /// let install = Install::new("mytool", "1.0.0").force(true);
    /// let entry = &install.dir(&dir).install(&set)?.entries[0];
    /// assert_eq!(entry.action, "replaced");
    /// let backup = entry.backup.as_ref().unwrap();
    /// assert!(backup.starts_with(tmp.path().join("skills-backup")));
    /// assert_eq!(std::fs::read_to_string(backup.join("SKILL.md"))?, "edited by hand");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn force(mut self, force: bool) -> Install {
        self.force = force;
        self
    }

    /// Work out and report what would be done, writing nothing.
    ///
    /// ```
    /// use skills_embed::disk::{Install, SkillState};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let plan = Install::new("mytool", "1.0.0").dry_run(true);
    /// let report = plan.dir(dir.path()).install(&set)?;
    /// let entry = &report.entries[0];
    /// assert_eq!(entry.state, SkillState::Missing);
    /// assert_eq!(entry.action, "would be installed");
    /// assert!(!dir.path().join("notes").exists()); // nothing written
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dry_run(mut self, dry_run: bool) -> Install {
        self.dry_run = dry_run;
        self
    }

    /// The set is only part of what this tool installs (some skills picked from a larger
    /// source, or some left out): the tool's other skills are not orphans, so they are
    /// neither reported nor removed.
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// use skills_embed::{Fields, Skill, SkillSet};
    /// use skills_embed::listing::ListingFormat;
    ///
    /// let skill = |name: &str| Skill::owned(
    ///     Fields { name: name.into(), description: "Notes.".into(), ..Default::default() },
    ///     "# Notes\n".into(),
    ///     vec![],
    /// );
    /// let set = |name| SkillSet::from_skills(vec![skill(name)], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("site", "1.0.0").dir(dir.path());
    /// install.install(&set("a"))?;
    /// install.clone().partial(true).install(&set("b"))?;
    /// assert!(dir.path().join("a").is_dir() && dir.path().join("b").is_dir());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partial(mut self, partial: bool) -> Install {
        self.partial = partial;
        self
    }

    /// The state of every skill of `set` in every destination, and of the orphans: writes
    /// nothing.
    ///
    /// ```
    /// use skills_embed::disk::{Install, SkillState};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let notes = |body: &str| SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     body.into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("mytool", "1.0.0").dir(dir.path());
    /// assert_eq!(install.status(&notes("v1\n"))?.entries[0].state, SkillState::Missing);
    /// install.install(&notes("v1\n"))?;
    /// let status = install.status(&notes("v2\n"))?;
    /// assert_eq!(status.entries[0].state, SkillState::Outdated);
    /// assert!(std::fs::read_to_string(dir.path().join("notes/SKILL.md"))?.ends_with("v1\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn status<Id>(&self, set: &SkillSet<Id>) -> Result<InstallReport, InstallError> {
        self.run(set, Op::Status, &mut |_| {})
    }

    /// Writes missing and outdated skills, removes orphans, and leaves modified and foreign
    /// ones alone unless [`force`](Install::force). A skill that cannot be written is reported
    /// in its entry and does not stop the others.
    ///
    /// ```
    /// use skills_embed::disk::{Install, SkillState};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let notes = |body: &str| SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     body.into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("mytool", "1.0.0").dir(dir.path());
    /// let first = install.install(&notes("v1\n"))?;
    /// let first = &first.entries[0];
    /// assert_eq!((first.state, first.action.as_str()), (SkillState::Missing, "installed"));
    /// let again = install.install(&notes("v2\n"))?;
    /// let again = &again.entries[0];
    /// assert_eq!((again.state, again.action.as_str()), (SkillState::Outdated, "updated"));
    /// assert!(std::fs::read_to_string(dir.path().join("notes/SKILL.md"))?.ends_with("v2\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn install<Id>(&self, set: &SkillSet<Id>) -> Result<InstallReport, InstallError> {
        self.run(set, Op::Install, &mut |_| {})
    }

    /// Removes the skills this tool installed that are unchanged (up to date, outdated or
    /// orphaned); modified and foreign ones are left alone.
    ///
    /// ```
    /// use skills_embed::disk::Install;
    /// use skills_embed::{Fields, Skill, SkillSet};
    /// use skills_embed::listing::ListingFormat;
    ///
    /// let skill = Skill::owned(
    ///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
    ///     "# Notes\n".into(),
    ///     vec![],
    /// );
    /// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// let dir = tempfile::tempdir()?;
    /// let install = Install::new("mytool", "1.0.0").dir(dir.path());
    /// install.install(&set)?;
    /// assert!(dir.path().join("notes").is_dir());
    /// assert!(!install.uninstall(&set)?.left_alone());
    /// assert!(!dir.path().join("notes").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn uninstall<Id>(&self, set: &SkillSet<Id>) -> Result<InstallReport, InstallError> {
        self.run(set, Op::Uninstall, &mut |_| {})
    }

    /// The destination folders, once each, with their agents; the project root.
    fn destinations(&self) -> Result<(Option<PathBuf>, Destinations), InstallError> {
        if let Some(dir) = &self.dir {
            let dir = std::path::absolute(dir).map_err(|source| InstallError::Io {
                op: "make an absolute path of",
                path: dir.clone(),
                source,
            })?;
            return Ok((None, vec![(dir, self.agents.clone())]));
        }
        let places = Places {
            home: self.home.as_deref(),
            vars: &self.vars,
        };
        let root = match self.scope {
            Scope::Project => {
                let start = self.start.as_deref().unwrap_or(Path::new("."));
                Some(targets::project_root(start, self.home.as_deref())?)
            }
            Scope::User => None,
        };
        let agents: Vec<Agent> = if self.agents.is_empty() {
            use strum::VariantArray;
            Agent::VARIANTS
                .iter()
                .copied()
                .filter(|a| a.detected(&places, root.as_deref()))
                .collect()
        } else {
            self.agents.clone()
        };
        if agents.is_empty() {
            return Err(InstallError::NoAgent);
        }
        let mut folders: Vec<(PathBuf, PathBuf, Vec<Agent>)> = Vec::new();
        for agent in agents {
            let folder = match &root {
                Some(root) => targets::inside(root, agent.project_folder())?,
                None => agent.user_folder(&places)?,
            };
            let key = targets::same_folder_key(&folder);
            match folders.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, agents)) => agents.push(agent),
                None => folders.push((key, folder, vec![agent])),
            }
        }
        Ok((root, folders.into_iter().map(|(_, f, a)| (f, a)).collect()))
    }

    /// Runs `op`, calling `progress` with the report so far after each entry (the new one
    /// last), so a command line can print each line as it is done.
    fn run<Id>(
        &self,
        set: &SkillSet<Id>,
        op: Op,
        progress: &mut dyn FnMut(&InstallReport),
    ) -> Result<InstallReport, InstallError> {
        let (root, destinations) = self.destinations()?;
        let mut report = InstallReport {
            root: root.clone(),
            destinations: destinations.clone(),
            ..InstallReport::default()
        };
        let gemini = destinations
            .iter()
            .any(|(_, agents)| agents.contains(&Agent::GeminiCli));
        if let (true, Some(root), Some(start)) = (gemini, &root, &self.start)
            && std::path::absolute(start).ok().as_deref() != Some(root.as_path())
        {
            report.hints.push(format!(
                "Gemini CLI reads project skills only from the folder it starts in, once that folder is trusted: start it in \"{}\".",
                root.display()
            ));
        }
        let now = provenance::timestamp(SystemTime::now());
        for (dest, agents) in destinations {
            let mut emit = |entry: InstallEntry| {
                report.entries.push(entry);
                progress(&report);
            };
            self.destination(set, &dest, &agents, op, &now, &mut emit);
        }
        Ok(report)
    }

    /// Every entry of one destination, acted on.
    fn destination<Id>(
        &self,
        set: &SkillSet<Id>,
        dest: &Path,
        agents: &[Agent],
        op: Op,
        now: &str,
        emit: &mut dyn FnMut(InstallEntry),
    ) {
        let folder = if dest.is_dir() {
            Folder::open_ambient(dest).map(Some)
        } else {
            Ok(None)
        };
        let entry = |skill: &str, state, installed_version| InstallEntry {
            skill: skill.to_owned(),
            folder: dest.join(skill),
            agents: agents.to_vec(),
            state,
            installed_version,
            action: String::new(),
            backup: None,
            error: None,
            left_alone: false,
        };
        let folder = match folder {
            Ok(folder) => folder,
            Err(e) => {
                // The destination cannot be read: each skill says so.
                for skill in set.skills() {
                    let mut failed = entry(skill.name(), SkillState::Foreign, None);
                    failed.action = "failed".into();
                    failed.error = Some(e.to_string());
                    failed.left_alone = true;
                    emit(failed);
                }
                return;
            }
        };
        for skill in set.skills() {
            let (state, found) = match &folder {
                Some(folder) => self.state_of(folder, skill.name(), Some(skill)),
                None => (SkillState::Missing, None),
            };
            let mut e = entry(skill.name(), state, found.map(|p| p.version));
            self.act(folder.as_ref(), dest, &mut e, Some(skill), op, now);
            emit(e);
        }
        if let Some(folder) = folder.as_ref().filter(|_| !self.partial) {
            let names = folder.names().unwrap_or_default();
            for name in names {
                if name.starts_with('.') || set.get(&name).is_ok() {
                    continue;
                }
                let (state, found) = self.state_of(folder, &name, None);
                if !matches!(state, SkillState::Orphaned | SkillState::Modified) {
                    continue;
                }
                let mut e = entry(&name, state, found.map(|p| p.version));
                self.act(Some(folder), dest, &mut e, None, op, now);
                emit(e);
            }
        }
    }

    /// The state of `name` in `folder`, compared with `skill` (`None` for a name the set
    /// no longer has), and the provenance found.
    fn state_of(
        &self,
        folder: &Folder,
        name: &str,
        skill: Option<&Skill>,
    ) -> (SkillState, Option<Provenance>) {
        match folder.kind(name) {
            Ok(Kind::Missing) => return (SkillState::Missing, None),
            Ok(Kind::Folder) => {}
            _ => return (SkillState::Foreign, None),
        }
        let Ok(Some(skill_folder)) = folder.existing(name) else {
            return (SkillState::Foreign, None);
        };
        let tree = skill_folder.read_tree(MAX_READ).ok().flatten();
        let manifest_text = match &tree {
            Some(files) => files
                .iter()
                .find(|(path, _, _)| path == MANIFEST)
                .and_then(|(_, _, bytes)| String::from_utf8(bytes.clone()).ok()),
            None => read_manifest(&skill_folder),
        };
        let Some(found) = manifest_text.as_deref().and_then(provenance::read) else {
            return (SkillState::Foreign, None);
        };
        if found.tool != self.tool {
            return (SkillState::Foreign, Some(found));
        }
        let unchanged = tree.is_some_and(|files| digest_of_installed(&files) == found.digest);
        let state = match (unchanged, skill) {
            (false, _) => SkillState::Modified,
            (true, None) => SkillState::Orphaned,
            (true, Some(skill)) if digest_of(skill) == found.digest => SkillState::UpToDate,
            (true, Some(_)) => SkillState::Outdated,
        };
        (state, Some(found))
    }

    /// Carries out (or, in a dry run or a status, describes) what `op` does with `entry`.
    fn act(
        &self,
        folder: Option<&Folder>,
        dest: &Path,
        entry: &mut InstallEntry,
        skill: Option<&Skill>,
        op: Op,
        now: &str,
    ) {
        use SkillState::*;
        let (verb, write, remove, blocked) = match (op, entry.state, skill) {
            (Op::Status, _, _) => ("", false, false, false),
            (Op::Install, Missing, Some(_)) => ("installed", true, false, false),
            (Op::Install, Outdated, Some(_)) => ("updated", true, false, false),
            (Op::Install, Modified | Foreign, Some(_)) if self.force => {
                ("replaced", true, false, false)
            }
            (Op::Install, Orphaned, _) => ("removed", false, true, false),
            (Op::Uninstall, UpToDate | Outdated | Orphaned, _) => ("removed", false, true, false),
            (_, Modified | Foreign, _) => ("left alone", false, false, true),
            _ => ("unchanged", false, false, false),
        };
        if verb.is_empty() {
            return;
        }
        if blocked {
            entry.left_alone = true;
            entry.action = if entry.state == Modified && skill.is_none() {
                "left alone: edited since it was installed".into()
            } else if op == Op::Install {
                "left alone: use --force to replace it (a backup is kept)".into()
            } else {
                "left alone: not removed, since it is not as installed".into()
            };
            return;
        }
        if !(write || remove) {
            entry.action = verb.into();
            return;
        }
        if self.dry_run {
            entry.action = format!("would be {verb}");
            return;
        }
        let backup = matches!(entry.state, Modified | Foreign);
        let result = match (write, skill) {
            (true, Some(skill)) => {
                let provenance = Provenance {
                    tool: self.tool.clone(),
                    version: self.version.clone(),
                    installed_at: now.to_owned(),
                    digest: digest_of(skill),
                };
                write_skill(dest, skill, &provenance, backup, now)
            }
            _ => match folder {
                Some(folder) => folder.remove(&entry.skill).map(|()| None),
                None => Ok(None),
            },
        };
        match result {
            Ok(backup) => {
                entry.action = verb.into();
                entry.backup = backup;
            }
            Err(e) => {
                entry.action = "failed".into();
                entry.error = Some(e.to_string());
                entry.left_alone = true;
            }
        }
    }
}

/// Each destination folder with the agents that read it.
type Destinations = Vec<(PathBuf, Vec<Agent>)>;

/// What a run does (`__private` for the CLI's progress lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// [`Install::status`].
    Status,
    /// [`Install::install`].
    Install,
    /// [`Install::uninstall`].
    Uninstall,
}

/// [`Install::status`], [`Install::install`] or [`Install::uninstall`], calling `progress` with
/// the report so far after each entry: what the `skills` CLI and `SkillCommand` print line by
/// line (in `__private`).
pub fn run_with_progress<Id>(
    install: &Install,
    set: &SkillSet<Id>,
    op: Op,
    progress: &mut dyn FnMut(&InstallReport),
) -> Result<InstallReport, InstallError> {
    install.run(set, op, progress)
}

/// The `SKILL.md` of a folder whose tree could not be read whole, if it is a plain file.
fn read_manifest(folder: &Folder) -> Option<String> {
    use std::io::Read;
    let file = folder.file(MANIFEST).ok().flatten()?;
    let mut text = String::new();
    file.take(1 << 20).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The digest recorded for `skill`: [`fingerprint_of`] its files as installed, `SKILL.md`
/// without the provenance lines.
fn digest_of(skill: &Skill) -> String {
    let text = manifest(skill);
    let digest = fingerprint_of(skill.files().map(|file| {
        let sha = if file.is_body() {
            sha256(text.as_bytes())
        } else {
            file.sha256()
        };
        (file.path(), file.is_executable(), sha)
    }));
    format!("sha256:{}", hex(&digest))
}

/// The digest of an installed folder's files, its `SKILL.md` with the provenance lines taken
/// out: equal to the recorded one when nothing was edited.
fn digest_of_installed(files: &[(String, bool, Vec<u8>)]) -> String {
    let digest = fingerprint_of(files.iter().map(|(path, executable, bytes)| {
        let sha = if path == MANIFEST {
            match std::str::from_utf8(bytes) {
                Ok(text) => sha256(provenance::strip(text).as_bytes()),
                Err(_) => sha256(bytes),
            }
        } else {
            sha256(bytes)
        };
        (path.as_str(), *executable, sha)
    }));
    format!("sha256:{}", hex(&digest))
}

/// Writes `skill` with `provenance` into `dest/<name>`: into a fresh folder beside it, then
/// renamed into place (what was there is moved to the backup folder when `backup`, else
/// removed). Returns where the backup went.
fn write_skill(
    dest: &Path,
    skill: &Skill,
    provenance: &Provenance,
    backup: bool,
    now: &str,
) -> Result<Option<PathBuf>, ExtractError> {
    let (name, targets) = checked_paths(skill)?;
    let text = provenance::insert(&manifest(skill), provenance).ok_or_else(|| {
        ExtractError::UnsafePath {
            skill: skill.name().to_owned(),
            path: MANIFEST.to_owned(),
            reason: "its frontmatter could not take the provenance lines",
        }
    })?;
    let dest = Folder::open_ambient(&prepare_dest(dest)?)?;
    let temp = dest.fresh_child(".skills-install-")?;
    let temp_name = temp
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let result = (|| {
        let root = temp.child(name)?;
        write_files(&root, targets, Some(text.as_bytes()))?;
        let mut moved = None;
        if dest.kind(name)? != Kind::Missing {
            if backup {
                let backups = backup_folder(dest.path())?;
                let stamp: String = now.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
                let mut label = format!("{name}-{stamp}");
                let mut n = 1;
                while backups.kind(&label)? != Kind::Missing {
                    n += 1;
                    label = format!("{name}-{stamp}-{n}");
                }
                dest.rename(name, &backups, &label)?;
                moved = Some(backups.path().join(label));
            } else {
                dest.rename(name, &temp, ".old")?;
            }
        }
        temp.rename(name, &dest, name)?;
        Ok(moved)
    })();
    // The fresh folder (and an old version moved into it) goes whatever happened.
    let cleaned = dest.remove(&temp_name);
    let moved = result?;
    cleaned?;
    Ok(moved)
}

/// `<destination>-backup`, beside the destination, where agents do not look.
fn backup_folder(dest: &Path) -> Result<Folder, ExtractError> {
    let name = dest
        .file_name()
        .map(|n| format!("{}-backup", n.to_string_lossy()))
        .unwrap_or_else(|| "skills-backup".into());
    let path = dest.parent().unwrap_or(dest).join(name);
    Folder::open_ambient(&prepare_dest(&path)?)
}
