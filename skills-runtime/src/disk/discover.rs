//! Finding skills on disk: the folders they live in, scanned with the same validator as
//! `skills!`.
//!
//! A [`Discovery`] lists the *roots* (folders that hold skill folders) of each [`SourceKind`]:
//!
//! | kind | folders |
//! |---|---|
//! | [`Code`](SourceKind::Code) | [`Discovery::code_roots`], as given |
//! | [`Project`](SourceKind::Project) | `.agents/skills`, `.claude/skills` and `skills` in the start folder and each parent up to the repository root (the first folder holding `.git`), nearest first |
//! | [`Env`](SourceKind::Env) | the path list in `SKILLS_PATH` (or the variable [`Discovery::env_var`] names) |
//! | [`User`](SourceKind::User) | `~/.agents/skills`, `~/.claude/skills` |
//!
//! Each root is walked for skill folders (any folder with a `SKILL.md`, nested category folders
//! included) down to a depth limit, with a cap on the folders walked and the caps every walk
//! shares ([`crate::parse::walk`]: entries, depth, time, each real folder once); dot-folders are
//! skipped and symbolic links are followed only on request, never out of the root. A broken skill is
//! reported (path, line, rule) and skipped; it never stops the others. When two roots hold a
//! skill of one name, the root earlier in [`Discovery::precedence`] wins and the loser gets a
//! `duplicate-name` warning naming both places.
//!
//! ```
//! use std::fs;
//! use skills_embed::disk::{Discovery, SourceKind};
//!
//! let repo = tempfile::tempdir()?;
//! let home = tempfile::tempdir()?;
//! fs::create_dir(repo.path().join(".git"))?;
//! for (base, description) in [(repo.path(), "The project's."), (home.path(), "Mine.")] {
//!     let pdf = base.join(".agents/skills/pdf");
//!     fs::create_dir_all(&pdf)?;
//!     let text = format!("---\nname: pdf\ndescription: {description}\n---\nFill forms.\n");
//!     fs::write(pdf.join("SKILL.md"), text)?;
//! }
//!
//! let discovery = Discovery {
//!     start: repo.path().to_owned(),
//!     home: Some(home.path().to_owned()),
//!     env_var: None,
//!     ..Discovery::default()
//! };
//! let found = discovery.scan();
//! assert_eq!(found.skills.len(), 1);
//! assert_eq!(found.skills[0].skill.description(), "The project's.");
//! assert_eq!(found.skills[0].root.kind, SourceKind::Project);
//! // The user's copy is shadowed, and a warning says so.
//! assert!(found.diagnostics[0].message.contains("(project beats user)"));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use unicode_normalization::UnicodeNormalization;

use crate::Skill;
use crate::parse::walk::WalkSummary;
use crate::parse::{Diagnostic, Profile, Rule, ScanOptions, Severity};

/// The environment variable read for extra roots unless [`Discovery::env_var`] says otherwise.
const DEFAULT_ENV_VAR: &str = "SKILLS_PATH";

/// Roots looked for in the start folder and each parent, in priority order.
const PROJECT_DIRS: [&[&str]; 3] = [&[".agents", "skills"], &[".claude", "skills"], &["skills"]];

/// Roots looked for in the home folder, in priority order.
const USER_DIRS: [&[&str]; 2] = [&[".agents", "skills"], &[".claude", "skills"]];

/// Where a skill came from.
///
/// The declaration order is the default priority ([`SourceKind::ALL`]), highest first; the
/// derived `Ord` follows it.
///
/// ```
/// use skills_embed::disk::SourceKind;
/// assert_eq!(SourceKind::Project.to_string(), "project");
/// assert!(SourceKind::Project < SourceKind::User);
/// ```
#[derive(strum::IntoStaticStr, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    /// A root given in code ([`Discovery::code_roots`]).
    Code,
    /// A root of the project: `.agents/skills`, `.claude/skills` or `skills` in the start folder
    /// or a parent up to the repository root.
    Project,
    /// A root named in the environment variable ([`Discovery::env_var`]).
    Env,
    /// A root in the user's home folder: `~/.agents/skills` or `~/.claude/skills`.
    User,
    /// A skill embedded in the binary by `skills!`.
    Embedded,
}

impl SourceKind {
    /// Every kind, in the default priority order (highest first).
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, SourceKind};
    /// assert_eq!(Discovery::default().precedence, SourceKind::ALL);
    /// ```
    pub const ALL: [SourceKind; 5] = [
        SourceKind::Code,
        SourceKind::Project,
        SourceKind::Env,
        SourceKind::User,
        SourceKind::Embedded,
    ];

    /// Whether someone named roots of this kind on purpose, so that a root of it that is a file
    /// or holds no skill is worth more than silence.
    fn is_explicit(self) -> bool {
        matches!(self, Self::Code | Self::Env)
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.into())
    }
}

/// A folder that holds skill folders, and what kind of source it is (for the command-line tool
/// and the tests, through `__private`; users see a skill's source through
/// [`Overlay::sources`](super::Overlay::sources)).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Root {
    /// The folder. [`Discovery::roots`] gives it canonical (absolute, symbolic links resolved).
    pub path: PathBuf,
    /// What kind of source it is.
    pub kind: SourceKind,
}

impl fmt::Display for Root {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.path.display(), self.kind)
    }
}

/// Where to look for skills on disk, and how to read them.
///
/// Every field is public; change the ones you need and take the rest from
/// [`Discovery::default`]. Nothing is read until an [`Overlay`](super::Overlay) is made from it,
/// and each reload reads it again.
///
/// ```
/// use std::path::PathBuf;
/// use skills_embed::disk::{Discovery, SourceKind};
///
/// // Only the roots this program names, with user skills beating project ones.
/// let discovery = Discovery {
///     project: false,
///     user: false,
///     env_var: None,
///     code_roots: vec![PathBuf::from("/opt/agent/skills")],
///     precedence: vec![SourceKind::Code, SourceKind::User, SourceKind::Project],
///     ..Discovery::default()
/// };
/// # assert!(discovery.roots().iter().all(|root| root.kind == SourceKind::Code));
/// ```
#[derive(Debug, Clone)]
pub struct Discovery {
    /// Where the walk up for project roots starts; relative code and environment roots are
    /// resolved against it too. Default: the current directory (or `.` if it is unavailable).
    pub start: PathBuf,
    /// The home folder holding user roots; `None` has no user roots. Default: `$HOME` (the
    /// platform's home folder where `HOME` is not used).
    pub home: Option<PathBuf>,
    /// Look for project roots. Default: `true`.
    pub project: bool,
    /// Look for user roots. Default: `true`.
    pub user: bool,
    /// The environment variable holding a path list of extra roots (`:`-separated on Unix,
    /// `;` on Windows); `None` switches environment roots off. Default: `Some("SKILLS_PATH")`.
    pub env_var: Option<String>,
    /// Used in place of the variable's value when set (for tests, or a value read from a
    /// configuration file); ignored when `env_var` is `None`. Default: `None`.
    pub env_value: Option<OsString>,
    /// Roots given in code, in priority order. Default: none.
    pub code_roots: Vec<PathBuf>,
    /// Which kind of source wins when two hold a skill of one name: earlier wins. Kinds left
    /// out rank after those listed, in [`SourceKind::ALL`] order. Default: [`SourceKind::ALL`]
    /// (code, project, env, user, embedded).
    pub precedence: Vec<SourceKind>,
    /// How each root is walked and checked. Default: [`Profile::Lenient`], skill folders down to
    /// depth 6, at most 2,000 folders per root, symbolic links not followed, dot-folders skipped,
    /// a resource over 2,000,000 bytes left out with a warning
    /// ([`skip_large_resources`](ScanOptions::skip_large_resources)), and the walk caps of
    /// [`ScanOptions::default`] with a time limit of 10
    /// seconds per walk (a reload cut by it keeps the root's previous skills), and no client
    /// dialect opted in: set [`scan.dialects`](ScanOptions::dialects) to accept Claude Code's,
    /// Codex's or OpenCode's invocation fields without warnings (lenient reads and honours them
    /// anyway, with a warning each).
    pub scan: ScanOptions,
    /// The most bytes read from any one file; `None` for no cap. Default: 2,000,000. A resource
    /// over it is left out of its skill with a `resource-too-large` warning (the skill loads
    /// without it); a SKILL.md over it leaves its skill out.
    pub max_file_bytes: Option<u64>,
}

impl Discovery {
    /// Discovery of one code root and nothing else: no project, user or environment roots, no
    /// home folder, the walk starting at `root`. The other settings are the defaults.
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, SourceKind};
    ///
    /// let folder = tempfile::tempdir()?;
    /// std::fs::create_dir(folder.path().join("pdf"))?;
    /// let text = "---\nname: pdf\ndescription: Fill forms.\n---\nFill forms.\n";
    /// std::fs::write(folder.path().join("pdf/SKILL.md"), text)?;
    /// let discovery = Discovery::only(folder.path());
    /// assert_eq!(discovery.code_roots, [folder.path()]);
    /// assert!(!discovery.project && !discovery.user && discovery.env_var.is_none());
    /// let found = discovery.scan(); // the one code root, nothing else
    /// assert_eq!(found.skills.len(), 1);
    /// assert_eq!(found.skills[0].root.kind, SourceKind::Code);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn only(root: impl Into<PathBuf>) -> Discovery {
        let root = root.into();
        Discovery {
            start: root.clone(),
            home: None,
            project: false,
            user: false,
            env_var: None,
            code_roots: vec![root],
            ..Discovery::default()
        }
    }
}

impl Default for Discovery {
    /// The defaults listed on each field.
    ///
    /// ```
    /// use skills_embed::disk::Discovery;
    /// use skills_embed::parse::Profile;
    /// let d = Discovery::default();
    /// assert!(d.project && d.user);
    /// assert_eq!(d.env_var.as_deref(), Some("SKILLS_PATH"));
    /// assert_eq!(d.scan.profile, Profile::Lenient);
    /// assert_eq!((d.scan.max_depth, d.scan.max_dirs), (Some(6), Some(2000)));
    /// assert!(!d.scan.follow_symlinks && !d.scan.dot_folders);
    /// assert!(d.scan.skip_large_resources);
    /// assert_eq!(d.max_file_bytes, Some(2_000_000));
    /// assert_eq!(d.scan.max_time, Some(std::time::Duration::from_secs(10)));
    /// assert_eq!(d.scan.max_entries, Some(100_000));
    /// ```
    fn default() -> Self {
        Discovery {
            start: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            // `home_dir` reads `$HOME` first on Unix, and knows the platform's folder elsewhere.
            home: std::env::home_dir().filter(|h| !h.as_os_str().is_empty()),
            project: true,
            user: true,
            env_var: Some(DEFAULT_ENV_VAR.to_owned()),
            env_value: None,
            code_roots: Vec::new(),
            precedence: SourceKind::ALL.to_vec(),
            scan: ScanOptions {
                profile: Profile::Lenient,
                max_depth: Some(6),
                max_dirs: Some(2000),
                follow_symlinks: false,
                skip_large_resources: true,
                max_time: Some(std::time::Duration::from_secs(10)),
                ..ScanOptions::default()
            },
            max_file_bytes: Some(2_000_000),
        }
    }
}

impl Discovery {
    /// The roots that exist, highest priority first.
    ///
    /// Kinds come in [`precedence`](Discovery::precedence) order; within a kind, code roots in
    /// the order given, project roots nearest the start folder first (`.agents/skills`, then
    /// `.claude/skills`, then `skills` in each folder), environment roots in list order, and
    /// `~/.agents/skills` before `~/.claude/skills`. The walk up for project roots stops at the
    /// first folder holding `.git` (a folder, or a file as in worktrees); outside a repository
    /// only the start folder is looked at. Missing folders are left out silently; a path that
    /// is a file is left out too, and [`scan`](Discovery::scan) reports it. A folder reached
    /// twice (say a code root that is also a project root) is listed once, at its highest
    /// priority.
    ///
    /// ```
    /// use std::fs;
    /// use skills_embed::disk::{Discovery, SourceKind};
    ///
    /// let repo = tempfile::tempdir()?;
    /// fs::create_dir(repo.path().join(".git"))?;
    /// fs::create_dir_all(repo.path().join(".claude/skills"))?;
    /// fs::create_dir_all(repo.path().join("app/skills"))?;
    /// let discovery = Discovery {
    ///     start: repo.path().join("app"),
    ///     user: false,
    ///     env_var: None,
    ///     ..Discovery::default()
    /// };
    /// let repo = fs::canonicalize(repo.path())?;
    /// let roots: Vec<_> = discovery.roots().into_iter().map(|r| (r.path, r.kind)).collect();
    /// assert_eq!(roots, [
    ///     (repo.join("app/skills"), SourceKind::Project),
    ///     (repo.join(".claude/skills"), SourceKind::Project),
    /// ]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    // The command-line tool and the tests read the roots and a scan's parts; users hold an
    // `Overlay`, which scans and reloads through these.
    #[doc(hidden)]
    pub fn roots(&self) -> Vec<Root> {
        self.find_roots().0
    }

    /// Scans every root and keeps, for each skill name, the copy from the highest-priority root.
    ///
    /// Never fails: a root that cannot be read, a broken skill, a shadowed one, a scan limit
    /// reached are all [`Discovered::diagnostics`], and every other skill still loads.
    ///
    /// ```
    /// use std::fs;
    /// use skills_embed::disk::Discovery;
    /// use skills_embed::parse::Rule;
    ///
    /// let root = tempfile::tempdir()?;
    /// for (name, front) in [("good", "description: Works."), ("bad", "description: [oops")] {
    ///     fs::create_dir(root.path().join(name))?;
    ///     let text = format!("---\nname: {name}\n{front}\n---\nBody\n");
    ///     fs::write(root.path().join(name).join("SKILL.md"), text)?;
    /// }
    /// let discovery = Discovery {
    ///     start: root.path().to_owned(),
    ///     project: false,
    ///     user: false,
    ///     env_var: None,
    ///     code_roots: vec![root.path().to_owned()],
    ///     ..Discovery::default()
    /// };
    /// let found = discovery.scan();
    /// assert_eq!(found.skills.len(), 1);
    /// assert_eq!(found.skills[0].skill.name(), "good");
    /// let bad = found.diagnostics.iter().find(|d| d.is_error()).unwrap();
    /// assert_eq!(bad.rule, Rule::YamlSyntax);
    /// assert!(bad.file.ends_with("bad/SKILL.md"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[doc(hidden)]
    pub fn scan(&self) -> Discovered {
        let (roots, mut diagnostics) = self.find_roots();
        let mut found = Vec::new();
        for root in &roots {
            let (skills, problems) = scan_root(root, &self.scan, self.max_file_bytes);
            found.extend(skills);
            diagnostics.extend(problems);
        }
        let (skills, shadowed) = resolve(found, &self.precedence);
        diagnostics.extend(shadowed);
        Discovered {
            skills,
            diagnostics,
            roots,
        }
    }

    /// The roots that exist, and a diagnostic for each path that is a file or cannot be read.
    pub(crate) fn find_roots(&self) -> (Vec<Root>, Vec<Diagnostic>) {
        let mut roots = Vec::new();
        let mut diagnostics = Vec::new();
        let mut seen = HashSet::new();
        for candidate in self.candidates() {
            let meta = match fs::metadata(&candidate.path) {
                Ok(meta) => meta,
                Err(e) if is_missing(&e) => continue,
                Err(e) => {
                    if seen.insert(candidate.path.clone()) {
                        diagnostics.push(cannot_read(&candidate, &e));
                    }
                    continue;
                }
            };
            let path = fs::canonicalize(&candidate.path).unwrap_or(candidate.path);
            if !seen.insert(path.clone()) {
                continue;
            }
            let root = Root {
                path,
                kind: candidate.kind,
            };
            if meta.is_dir() {
                roots.push(root);
            } else {
                diagnostics.push(not_a_folder(&root));
            }
        }
        (roots, diagnostics)
    }

    /// Every place a root may be, in priority order, whether it exists or not.
    fn candidates(&self) -> Vec<Root> {
        let start = absolute(&self.start);
        let mut candidates = Vec::new();
        let mut push = |path: PathBuf, kind| candidates.push(Root { path, kind });
        for path in &self.code_roots {
            push(start.join(path), SourceKind::Code);
        }
        if self.project {
            for dir in project_dirs(&start) {
                for rel in PROJECT_DIRS {
                    push(join_all(dir, rel), SourceKind::Project);
                }
            }
        }
        if let Some(value) = self.env_paths() {
            for path in std::env::split_paths(&value) {
                // An empty entry (`a::b`) would mean the start folder, which nobody means.
                if !path.as_os_str().is_empty() {
                    push(start.join(path), SourceKind::Env);
                }
            }
        }
        if let Some(home) = self.home.as_deref().filter(|_| self.user) {
            for rel in USER_DIRS {
                push(join_all(home, rel), SourceKind::User);
            }
        }
        // Stable: the order within a kind is kept.
        candidates.sort_by_key(|root| rank(&self.precedence, root.kind));
        candidates
    }

    /// The path list of environment roots: the override, else the variable's value.
    fn env_paths(&self) -> Option<OsString> {
        let name = self.env_var.as_deref()?;
        if let Some(value) = &self.env_value {
            return Some(value.clone());
        }
        // Some platforms reject such names outright; none of them can be set anyway.
        if name.is_empty() || name.contains(['=', '\0']) {
            return None;
        }
        std::env::var_os(name)
    }
}

/// What [`Discovery::scan`] found.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// The winning copy of each skill, sorted by name.
    pub skills: Vec<Found>,
    /// Every problem: roots that could not be read, broken skills (skipped), shadowed skills,
    /// limits reached. None of them stopped the scan.
    pub diagnostics: Vec<Diagnostic>,
    /// The roots scanned, highest priority first.
    pub roots: Vec<Root>,
}

impl Discovered {
    /// The skill with this name.
    ///
    pub fn get(&self, name: &str) -> Option<&Found> {
        self.skills.iter().find(|f| f.skill.name() == name)
    }

    /// Whether any diagnostic is an error (a skill, a file or a root was left out).
    ///
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// A skill, and where it came from.
#[derive(Debug, Clone)]
pub struct Found {
    /// The skill, with every file read.
    pub skill: Skill,
    /// The root it was found in.
    pub root: Root,
    /// Its SKILL.md (for a skill not read from disk, a label such as `embedded:pdf`).
    pub manifest: PathBuf,
}

/// Scans one root: the valid skills in it, and every problem.
///
/// Never fails. A missing root gives nothing. A root that is a file gives a `read-error`
/// diagnostic: an error for code and environment roots, which someone named on purpose, a
/// warning for the conventional project and user folders. A root holding no skill gives a
/// `missing-skill-md` warning, again only for code and environment roots. Skills with errors
/// are reported and left out. `max_file_bytes` lowers the scan's size cap: a resource over it
/// gets what `options.skip_large_resources` says (by default a warning, and the skill loads without
/// it), a SKILL.md over it leaves its skill out, and so does a file that cannot be read (or that
/// grew past the cap since the scan). Paths in the results lie under the root's canonical path.
pub fn scan_root(
    root: &Root,
    options: &ScanOptions,
    max_file_bytes: Option<u64>,
) -> (Vec<Found>, Vec<Diagnostic>) {
    let (found, diagnostics, _) = scan_root_walk(root, options, max_file_bytes);
    (found, diagnostics)
}

/// The path a root is walked at: resolved, so that a root reached through a link
/// (`~/.claude/skills` pointing into a dotfiles repository is common) is a plain folder to the
/// walker, not a link to skip, and the containment check for links inside it has one fixed base.
pub(crate) fn walk_path(root: &Root) -> PathBuf {
    fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone())
}

/// [`scan_root`], and what its walk met (the fingerprint an overlay compares, and whether a cap
/// or the time limit cut it).
pub(crate) fn scan_root_walk(
    root: &Root,
    options: &ScanOptions,
    max_file_bytes: Option<u64>,
) -> (Vec<Found>, Vec<Diagnostic>, WalkSummary) {
    let none = WalkSummary::default();
    match fs::metadata(&root.path) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return (Vec::new(), vec![not_a_folder(root)], none),
        Err(e) if is_missing(&e) => return (Vec::new(), Vec::new(), none),
        Err(e) => return (Vec::new(), vec![cannot_read(root, &e)], none),
    }
    let path = walk_path(root);
    let capped;
    let options = match (max_file_bytes, options.max_resource_bytes) {
        (Some(cap), current) if current.is_none_or(|c| c > cap) => {
            let mut lowered = options.clone();
            lowered.max_resource_bytes = Some(cap);
            capped = lowered;
            &capped
        }
        _ => options,
    };
    // Every file is read once, by the scan, through its skill folder's handle.
    let mut tree = crate::parse::scan::scan_keeping(&path, options, true);
    let (loaded, unreadable) = crate::load::skills(&mut tree, max_file_bytes);
    let found = loaded
        .into_iter()
        .filter_map(|(skill, i)| {
            let source = tree.skills.get(i)?;
            Some(Found {
                skill,
                root: root.clone(),
                manifest: source.manifest_path.clone(),
            })
        })
        .collect();
    let mut diagnostics = std::mem::take(&mut tree.diagnostics);
    // The scanner treats a folder without skills as a mistake, which it is when that folder was
    // named on purpose; an empty conventional folder is no news.
    let explicit = root.kind.is_explicit();
    diagnostics.retain_mut(|d| {
        if d.rule != Rule::MissingSkillMd || d.file != path {
            return true;
        }
        d.severity = Severity::Warning;
        explicit
    });
    diagnostics.extend(unreadable);
    (found, diagnostics, tree.walk)
}

/// Keeps, for each skill name, the [`Found`] from the highest-priority source, and warns about
/// every other.
///
/// A source ranks by its kind's place in `precedence` (earlier wins; kinds not listed come
/// after, in [`SourceKind::ALL`] order), then by its place in `found`, so list roots of one
/// kind in priority order. Names are compared after NFKC normalisation, as the scanner does.
/// Each loser gets a [`Rule::DuplicateName`] warning at its manifest naming the winner and why
/// it wins, except where one of the two is embedded and the other is the very same skill
/// (fields, body and files equal): the folder the binary was built from, found again on disk.
/// The winners come back sorted by name.
///
/// Not tied to the disk: embedded skills take part as [`Found`]s of kind
/// [`SourceKind::Embedded`] with a `manifest` such as `embedded:pdf`.
pub fn resolve(mut found: Vec<Found>, precedence: &[SourceKind]) -> (Vec<Found>, Vec<Diagnostic>) {
    found.sort_by_key(|f| rank(precedence, f.root.kind));
    let mut winners: Vec<Found> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut diagnostics = Vec::new();
    for f in found {
        let key: String = f.skill.name().nfkc().collect();
        match by_name.get(&key).and_then(|&i| winners.get(i)) {
            // The folder the binary embedded, found again on disk (an agent run from its own
            // crate's folder): one skill, not two, so nothing to warn about.
            Some(winner) if is_embedded_copy(&f, winner) => {}
            Some(winner) => diagnostics.push(shadowed(&f, winner)),
            None => {
                by_name.insert(key, winners.len());
                winners.push(f);
            }
        }
    }
    winners.sort_by(|a, b| a.skill.name().cmp(b.skill.name()));
    (winners, diagnostics)
}

/// Whether one of the two is embedded and the other holds exactly the same skill: the same
/// fields, body and files ([`Skill::content_digest`]).
fn is_embedded_copy(a: &Found, b: &Found) -> bool {
    let embedded = |f: &Found| f.root.kind == SourceKind::Embedded;
    embedded(a) != embedded(b) && a.skill.content_digest() == b.skill.content_digest()
}

/// The warning at `loser`'s manifest.
fn shadowed(loser: &Found, winner: &Found) -> Diagnostic {
    let why = if winner.root.kind == loser.root.kind {
        format!(
            "both are {} skills, and {} comes before {}",
            winner.root.kind,
            winner.root.path.display(),
            loser.root.path.display()
        )
    } else {
        format!("{} beats {}", winner.root.kind, loser.root.kind)
    };
    Diagnostic::path_warning(
        Rule::DuplicateName,
        &loser.manifest,
        format!(
            "skill \"{}\" here is shadowed by {} ({why})",
            loser.skill.name(),
            winner.manifest.display()
        ),
    )
}

/// A kind's place in `precedence`; kinds not listed come after, in their declared order.
fn rank(precedence: &[SourceKind], kind: SourceKind) -> usize {
    precedence
        .iter()
        .position(|&k| k == kind)
        .unwrap_or(precedence.len() + kind as usize)
}

/// `start` and its parents up to the first one holding `.git`, or only `start` when none does.
fn project_dirs(start: &Path) -> Vec<&Path> {
    let mut dirs = Vec::new();
    for dir in start.ancestors() {
        dirs.push(dir);
        if fs::symlink_metadata(dir.join(".git")).is_ok() {
            return dirs;
        }
    }
    vec![start]
}

/// `path` made absolute, symbolic links resolved when it exists, so that the walk up follows
/// the folder's real parents (as the current directory already does).
fn absolute(path: &Path) -> PathBuf {
    fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_owned())
}

fn join_all(base: &Path, parts: &[&str]) -> PathBuf {
    parts.iter().fold(base.to_owned(), |p, part| p.join(part))
}

/// Nothing there: the path, or a parent on its way, does not exist or is a file.
fn is_missing(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

fn not_a_folder(root: &Root) -> Diagnostic {
    let message = format!(
        "is a file, not a folder of skills; it is listed as a {} root",
        root.kind
    );
    if root.kind.is_explicit() {
        Diagnostic::path_error(Rule::ReadError, &root.path, message)
    } else {
        Diagnostic::path_warning(Rule::ReadError, &root.path, message)
    }
}

fn cannot_read(root: &Root, e: &io::Error) -> Diagnostic {
    Diagnostic::path_error(
        Rule::ReadError,
        &root.path,
        format!(
            "cannot read this {} root: {e}; its skills are left out",
            root.kind
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fields;

    fn found(name: &str, kind: SourceKind, manifest: &str) -> Found {
        let fields = Fields {
            name: name.into(),
            description: manifest.into(),
            ..Fields::default()
        };
        Found {
            skill: Skill::owned(fields, String::new(), Vec::new()),
            root: Root {
                path: PathBuf::from(manifest),
                kind,
            },
            manifest: PathBuf::from(manifest),
        }
    }

    #[test]
    fn resolve_ranks_by_kind_then_by_input_order() {
        let (winners, warnings) = resolve(
            vec![
                found("pdf", SourceKind::User, "u"),
                found("pdf", SourceKind::Project, "p1"),
                found("pdf", SourceKind::Project, "p2"),
                found("docx", SourceKind::Embedded, "embedded:docx"),
            ],
            &SourceKind::ALL,
        );
        let names: Vec<_> = winners
            .iter()
            .map(|f| (f.skill.name(), f.skill.description()))
            .collect();
        assert_eq!(names, [("docx", "embedded:docx"), ("pdf", "p1")]);
        let messages: Vec<_> = warnings
            .iter()
            .map(|d| (d.file.to_str(), d.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    Some("p2"),
                    "skill \"pdf\" here is shadowed by p1 (both are project skills, and p1 comes before p2)"
                ),
                (
                    Some("u"),
                    "skill \"pdf\" here is shadowed by p1 (project beats user)"
                ),
            ]
        );
        assert!(
            warnings
                .iter()
                .all(|d| d.severity == Severity::Warning && d.rule == Rule::DuplicateName)
        );
    }

    #[test]
    fn kinds_left_out_of_the_precedence_rank_last() {
        let precedence = [SourceKind::Embedded];
        assert!(rank(&precedence, SourceKind::Embedded) < rank(&precedence, SourceKind::Code));
        assert!(rank(&precedence, SourceKind::Code) < rank(&precedence, SourceKind::User));
        let (winners, _) = resolve(
            vec![
                found("pdf", SourceKind::Project, "p"),
                found("pdf", SourceKind::Embedded, "e"),
            ],
            &precedence,
        );
        assert_eq!(winners[0].root.kind, SourceKind::Embedded);
    }

    #[test]
    fn names_compare_after_nfkc() {
        // "ﬁ" (U+FB01) is "fi" under NFKC.
        let (winners, warnings) = resolve(
            vec![
                found("\u{FB01}le", SourceKind::Code, "a"),
                found("file", SourceKind::User, "b"),
            ],
            &SourceKind::ALL,
        );
        assert_eq!((winners.len(), warnings.len()), (1, 1));
    }

    #[test]
    fn the_walk_up_stops_at_the_repository_root() -> io::Result<()> {
        let top = tempfile::tempdir()?;
        let top = fs::canonicalize(top.path())?;
        let repo = top.join("repo");
        let deep = repo.join("a/b");
        fs::create_dir_all(&deep)?;
        assert_eq!(
            project_dirs(&deep),
            [deep.as_path()],
            "no .git: only the start"
        );
        fs::write(repo.join(".git"), "gitdir: elsewhere\n")?;
        assert_eq!(
            project_dirs(&deep),
            [deep.as_path(), &repo.join("a"), &repo]
        );
        Ok(())
    }

    #[test]
    fn an_env_name_that_cannot_be_set_reads_nothing() {
        for name in ["", "A=B", "A\0B"] {
            let d = Discovery {
                env_var: Some(name.into()),
                ..Discovery::default()
            };
            assert_eq!(d.env_paths(), None);
        }
        let d = Discovery {
            env_var: None,
            env_value: Some("/x".into()),
            ..Discovery::default()
        };
        assert_eq!(
            d.env_paths(),
            None,
            "no variable: environment roots are off"
        );
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn scan_root_example() {
        let run = || {
            use crate::disk::discover::Root;
            use crate::disk::discover::scan_root;
            use crate::disk::{Discovery, SourceKind};
            use std::fs;

            let dir = tempfile::tempdir()?;
            let pdf = dir.path().join("documents/pdf");
            fs::create_dir_all(&pdf)?;
            fs::write(
                pdf.join("SKILL.md"),
                "---\nname: pdf\ndescription: PDFs.\n---\nBody\n",
            )?;
            fs::write(pdf.join("forms.md"), "# Forms\n")?;

            let root = Root {
                path: dir.path().to_owned(),
                kind: SourceKind::User,
            };
            let options = Discovery::default().scan;
            let (found, diagnostics) = scan_root(&root, &options, Some(1_000));
            assert!(diagnostics.is_empty());
            assert_eq!(
                found[0].skill.paths().collect::<Vec<_>>(),
                ["SKILL.md", "forms.md"]
            );
            assert!(found[0].manifest.ends_with("documents/pdf/SKILL.md"));
            Ok::<(), std::io::Error>(())
        };
        run().unwrap();
    }
    #[test]
    fn resolve_example() {
        use crate::disk::SourceKind;
        use crate::disk::discover::resolve;
        use crate::disk::discover::{Found, Root};
        use crate::{Fields, Skill};
        use std::path::PathBuf;

        let found = |kind, manifest: &str, description: &str| Found {
            skill: Skill::owned(
                Fields {
                    name: "pdf".into(),
                    description: description.into(),
                    ..Default::default()
                },
                String::new(),
                Vec::new(),
            ),
            root: Root {
                path: PathBuf::from("/r"),
                kind,
            },
            manifest: PathBuf::from(manifest),
        };
        let (winners, warnings) = resolve(
            vec![
                found(SourceKind::Embedded, "embedded:pdf", "built in"),
                found(
                    SourceKind::User,
                    "/home/me/.agents/skills/pdf/SKILL.md",
                    "mine",
                ),
            ],
            &SourceKind::ALL,
        );
        assert_eq!(winners[0].skill.description(), "mine");
        assert_eq!(
            warnings[0].to_string(),
            "embedded:pdf: warning[duplicate-name]: skill \"pdf\" here is shadowed by \
             /home/me/.agents/skills/pdf/SKILL.md (user beats embedded)"
        );
    }
}
