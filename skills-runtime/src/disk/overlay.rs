//! The embedded skills plus skills on disk, merged into one set, reloaded when the disk changes.
//!
//! Readers take a [`snapshot`](Overlay::snapshot): an `Arc` of a complete set. A reload builds
//! the next set aside and swaps it in whole, so a reader never sees a half-built set, and a
//! snapshot taken before a reload stays valid (and unchanged) for as long as it is held.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
#[cfg(feature = "watch")]
use std::time::Duration;

use super::discover::{Discovery, Found, Root, SourceKind, resolve, scan_root_walk, walk_path};
#[cfg(feature = "watch")]
use super::watch::{Seen, Tick};
use crate::listing::ListingFormat;
use crate::model::fields::MANIFEST;
use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::parse::scan::survey;
use crate::parse::walk::WalkSummary;
use crate::parse::{Diagnostic, Rule};

/// Where a skill of the merged set came from: the kind of source, and the SKILL.md it was read
/// from (`embedded:<name>` for embedded skills).
type Source = (SourceKind, PathBuf);

/// What a [`reload`](Overlay::reload) changed.
///
/// ```
/// use skills_embed::disk::{Discovery, Overlay};
/// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
/// # let write = |dir: &std::path::Path, name: &str, text: &str| -> std::io::Result<()> {
/// #     std::fs::create_dir_all(dir.join(name))?;
/// #     std::fs::write(dir.join(name).join("SKILL.md"), text)
/// # };
/// let root = tempfile::tempdir()?;
/// write(root.path(), "pdf", "---\nname: pdf\ndescription: Read PDFs.\n---\nUse it.\n")?;
/// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
/// write(root.path(), "pdf", "---\nname: pdf\n---\n")?; // broken: no description
/// let report = overlay.reload();
/// assert_eq!(report.kept[0].0, "pdf"); // the good version is still served
/// assert!(report.is_empty() && report.diagnostics.iter().any(|d| d.is_error()));
/// assert!(overlay.snapshot().get("pdf").is_ok());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReloadReport {
    /// Skills that appeared.
    pub added: Vec<String>,
    /// Skills that disappeared.
    pub removed: Vec<String>,
    /// Skills whose fields or files changed.
    pub changed: Vec<String>,
    /// Skills that broke on disk: the previous good version is kept, with the reason.
    pub kept: Vec<(String, String)>,
    /// The roots that were scanned again (their fingerprint changed).
    pub rescanned: Vec<PathBuf>,
    /// Every problem found by this reload.
    pub diagnostics: Vec<Diagnostic>,
}

impl ReloadReport {
    /// Whether the merged set changed.
    ///
    /// ```
    /// assert!(skills_embed::disk::ReloadReport::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

#[derive(Debug, Clone)]
struct RootState {
    root: Root,
    fingerprint: u64,
    /// Whether the scan stopped at the walk's time limit (the next reload scans again).
    timed_out: bool,
    found: Vec<Found>,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Debug)]
struct State {
    set: Arc<SkillSet<Dynamic>>,
    sources: BTreeMap<String, Source>,
    roots: Vec<RootState>,
    diagnostics: Vec<Diagnostic>,
}

/// An embedded skill set with skills from disk laid over it.
///
/// The listing, the tool schema's `enum` and lookups of a snapshot reflect the merged set;
/// embedded skills keep their `SkillId` (look them up by `id.name()`), disk skills are reached
/// by name. Same name in two places: the source earlier in
/// [`Discovery::precedence`] wins, and a warning names both.
///
/// ```no_run
/// use skills_embed::disk::{Discovery, Overlay};
/// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
/// let overlay = Overlay::new(&SKILLS, Discovery::default());
/// let set = overlay.snapshot();
/// let tools = skills_embed::tools::Tools::new(set, Default::default());
/// // ... later, when files may have changed:
/// let report = overlay.reload();
/// println!("added {:?}, removed {:?}, changed {:?}", report.added, report.removed, report.changed);
/// ```
#[derive(Debug)]
pub struct Overlay<Id: 'static = Dynamic> {
    embedded: &'static SkillSet<Id>,
    discovery: Discovery,
    state: RwLock<Arc<State>>,
    /// Held for a whole reload, so two reloads (a watcher's and the host's) never overlap: the
    /// slower one, built from an older scan, would otherwise replace the newer set (found by the
    /// concurrency tests: a skill published and reloaded was missing after that reload).
    reloading: Mutex<()>,
    /// The thread [`Overlay::watch`] started, stopped when the overlay is dropped.
    #[cfg(feature = "watch")]
    watcher: Mutex<Option<super::watch::Watcher>>,
}

impl<Id> Overlay<Id> {
    /// Scans the roots `discovery` finds and merges them with `embedded`. Problems are kept in
    /// [`Overlay::diagnostics`]; they never stop the others from loading.
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, Overlay};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # let write = |dir: &std::path::Path, name: &str, text: &str| -> std::io::Result<()> {
    /// #     std::fs::create_dir_all(dir.join(name))?;
    /// #     std::fs::write(dir.join(name).join("SKILL.md"), text)
    /// # };
    /// let root = tempfile::tempdir()?;
    /// write(root.path(), "pdf", "---\nname: pdf\ndescription: Read PDFs.\n---\nUse it.\n")?;
    /// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
    /// assert_eq!(overlay.snapshot().names().collect::<Vec<_>>(), ["pdf"]);
    /// assert!(overlay.diagnostics().is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(embedded: &'static SkillSet<Id>, discovery: Discovery) -> Self {
        // Roots that are files or cannot be read are reported here too, not only by
        // `Discovery::scan` (found by the fault tests: a root replaced by a file vanished
        // from the overlay without a word).
        let (roots, problems) = discovery.find_roots();
        let roots: Vec<RootState> = roots.into_iter().map(|r| scan(&discovery, r)).collect();
        let state = merge(embedded, &discovery, roots, problems);
        Overlay {
            embedded,
            discovery,
            state: RwLock::new(Arc::new(state)),
            reloading: Mutex::new(()),
            #[cfg(feature = "watch")]
            watcher: Mutex::new(None),
        }
    }

    fn current(&self) -> Arc<State> {
        // A poisoned lock still holds a complete state: readers only ever see whole sets.
        match self.state.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// The merged set as it is now. Hold it for as long as a tool call needs it; a reload
    /// meanwhile does not change it.
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, Overlay};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # let write = |dir: &std::path::Path, name: &str, text: &str| -> std::io::Result<()> {
    /// #     std::fs::create_dir_all(dir.join(name))?;
    /// #     std::fs::write(dir.join(name).join("SKILL.md"), text)
    /// # };
    /// let root = tempfile::tempdir()?;
    /// write(root.path(), "pdf", "---\nname: pdf\ndescription: Read PDFs.\n---\n")?;
    /// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
    /// let before = overlay.snapshot();
    /// write(root.path(), "docx", "---\nname: docx\ndescription: Read DOCX.\n---\n")?;
    /// let _report = overlay.reload();
    /// assert_eq!(before.names().collect::<Vec<_>>(), ["pdf"]); // unchanged while held
    /// assert_eq!(overlay.snapshot().names().collect::<Vec<_>>(), ["docx", "pdf"]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn snapshot(&self) -> Arc<SkillSet<Dynamic>> {
        Arc::clone(&self.current().set)
    }

    /// Where each skill of the current set came from, by name: the kind of source, and the
    /// SKILL.md it was read from (`embedded:<name>` for an embedded skill).
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, Overlay, SourceKind};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let root = tempfile::tempdir()?;
    /// std::fs::create_dir(root.path().join("pdf"))?;
    /// std::fs::write(root.path().join("pdf/SKILL.md"), "---\nname: pdf\ndescription: PDFs.\n---\n")?;
    /// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
    /// let (kind, manifest) = &overlay.sources()["pdf"];
    /// assert_eq!(*kind, SourceKind::Code);
    /// assert!(manifest.ends_with("pdf/SKILL.md"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn sources(&self) -> BTreeMap<String, (SourceKind, PathBuf)> {
        self.current().sources.clone()
    }

    /// The problems of the last scan: broken skills on disk, shadowed names, scan limits.
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, Overlay};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # let write = |dir: &std::path::Path, name: &str, text: &str| -> std::io::Result<()> {
    /// #     std::fs::create_dir_all(dir.join(name))?;
    /// #     std::fs::write(dir.join(name).join("SKILL.md"), text)
    /// # };
    /// let root = tempfile::tempdir()?;
    /// write(root.path(), "pdf", "---\nname: pdf\ndescription: Read PDFs.\n---\n")?;
    /// write(root.path(), "broken", "---\nname: broken\n---\n")?;
    /// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
    /// assert_eq!(overlay.snapshot().names().collect::<Vec<_>>(), ["pdf"]); // the others load
    /// let problems = overlay.diagnostics();
    /// assert!(problems[0].is_error() && problems[0].file.ends_with("broken/SKILL.md"));
    /// assert_eq!(problems[0].rule.to_string(), "description-missing");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.current().diagnostics.clone()
    }

    /// What the current set leaves out, one line per error: the file relative to its root,
    /// its line and the rule, never an absolute path or the message (what an MCP server logs to
    /// its clients; [`Overlay::diagnostics`] has the whole text). Each line comes with the name
    /// of the skill folder it is about, so that a server tells a client only of skills it may
    /// see.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP logs what an overlay left out")
    )]
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let state = self.current();
        let place = |file: &Path| {
            let mut roots = state.roots.iter();
            let found =
                roots.find_map(|r| Some((&r.root.path, file.strip_prefix(&r.root.path).ok()?)));
            let Some((root, rel)) = found else {
                let name = file.file_name().map(Path::new).unwrap_or(file);
                let folder = file.parent().and_then(Path::file_name).unwrap_or_default();
                return (
                    folder.to_string_lossy().into_owned(),
                    name.display().to_string(),
                );
            };
            let mut parts = rel.components();
            // A skill's folder is the first one below a collection's root; a root holding a
            // SKILL.md of its own is the skill.
            let folder = match (parts.next(), parts.next()) {
                (Some(first), Some(_)) => first.as_os_str(),
                (Some(first), None) if first.as_os_str() != MANIFEST => first.as_os_str(),
                _ => root.file_name().unwrap_or_default(),
            };
            (
                folder.to_string_lossy().into_owned(),
                rel.display().to_string(),
            )
        };
        let errors = state.diagnostics.iter().filter(|d| d.is_error());
        errors
            .map(|d| {
                let at = match d.line {
                    0 => String::new(),
                    line => format!(":{line}:{}", d.column),
                };
                let (folder, shown) = place(&d.file);
                (
                    folder,
                    format!("not served: {shown}{at}: error[{}]", d.rule),
                )
            })
            .collect()
    }

    /// Scans again the roots whose fingerprint changed (and roots that appeared), keeps the
    /// previous good version of a skill that is now broken, swaps in the new set, and says
    /// what changed.
    ///
    /// The fingerprint is every path's size, modification time, permissions and status-change
    /// time, so nothing is read when nothing changed, and a `chmod` is a change: a script's
    /// executable bit is part of its skill's [content digest](Skill::content_digest), so an
    /// approval given before it asks again. An edit that keeps a file's size within the file
    /// system's timestamp resolution (a second on some) is seen by the next reload after the
    /// clock moves on.
    ///
    /// The fingerprint and the scan walk under the one walk policy: no
    /// link out of the root, each real folder once per skill, capped depth and entries, and the
    /// time limit of the discovery's walks ([`ScanOptions::max_time`](crate::parse::ScanOptions::max_time)). A root whose walk runs out of time
    /// keeps its previous skills, with a `scan-limit` warning.
    ///
    /// Readers never wait for a reload: [`snapshot`](Overlay::snapshot) returns the last
    /// complete set at once while a reload runs on another thread (call `reload` from a thread
    /// of its own, or use [`Overlay::watch`], rather than on a request path).
    ///
    /// ```
    /// use skills_embed::disk::{Discovery, Overlay};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # let write = |dir: &std::path::Path, name: &str, text: &str| -> std::io::Result<()> {
    /// #     std::fs::create_dir_all(dir.join(name))?;
    /// #     std::fs::write(dir.join(name).join("SKILL.md"), text)
    /// # };
    /// let root = tempfile::tempdir()?;
    /// let overlay = Overlay::new(&SKILLS, Discovery::only(root.path()));
    /// write(root.path(), "pdf", "---\nname: pdf\ndescription: Read PDFs.\n---\n")?;
    /// let report = overlay.reload();
    /// assert_eq!(report.added, ["pdf"]);
    /// assert!(overlay.reload().is_empty()); // nothing changed since
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn reload(&self) -> ReloadReport {
        // A poisoned lock only means another reload panicked; the state it guards is whole.
        let _one_at_a_time = self
            .reloading
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let previous = self.current();
        let mut report = ReloadReport::default();
        let (roots, mut kept_diagnostics) = self.discovery.find_roots();
        let roots: Vec<RootState> = roots
            .into_iter()
            .map(|root| {
                let Some(old) = previous.roots.iter().find(|s| s.root == root) else {
                    report.rescanned.push(root.path.clone());
                    return scan(&self.discovery, root);
                };
                let walked = fingerprint(&root, &self.discovery);
                if walked.timed_out {
                    kept_diagnostics.push(cut_by_time(&root, &self.discovery));
                    return old.clone();
                }
                if walked.fingerprint == old.fingerprint && !old.timed_out {
                    return old.clone();
                }
                report.rescanned.push(root.path.clone());
                let mut fresh = scan(&self.discovery, root);
                if fresh.timed_out {
                    // Half a root is no news: its skills are not deleted, only not reached.
                    kept_diagnostics.push(cut_by_time(&fresh.root, &self.discovery));
                    return old.clone();
                }
                keep_broken(old, &mut fresh, &mut report.kept, &mut kept_diagnostics);
                fresh
            })
            .collect();
        let mut next = merge(self.embedded, &self.discovery, roots, kept_diagnostics);
        diff(&previous.set, &next.set, &mut report);
        let same_sources = || {
            let (old, new) = (previous.set.skills(), next.set.skills());
            old.iter()
                .map(Skill::is_embedded)
                .eq(new.iter().map(Skill::is_embedded))
        };
        if report.added.is_empty()
            && report.removed.is_empty()
            && report.changed.is_empty()
            && same_sources()
        {
            // The same skills: the same snapshot, so a holder of the last one (an MCP session
            // that hashed what its client sees, a cache) can tell nothing changed by pointer.
            next.set = Arc::clone(&previous.set);
        }
        report.diagnostics = next.diagnostics.clone();
        match self.state.write() {
            Ok(mut guard) => *guard = Arc::new(next),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(next),
        }
        report
    }
}

#[cfg(feature = "watch")]
impl<Id: Send + Sync + 'static> Overlay<Id> {
    /// Reloads this overlay on a thread of its own when its folders change, and calls
    /// `on_change` with each report that changed the set or kept a broken skill's previous
    /// version. The thread stops when the overlay is dropped; a second call replaces the first
    /// watcher.
    ///
    /// The file system tells the thread of changes (through notify: inotify, FSEvents,
    /// ReadDirectoryChangesW), one watch per folder of the last walk; a burst of changes is one
    /// reload, `every` after its first. The thread also polls the roots' fingerprints: every
    /// `every` while a folder cannot be watched (a root that does not exist yet, the system's
    /// limit on watches, no notification API) and for 10 seconds after a change (a folder just
    /// made is not watched yet), every 10 seconds otherwise, for what no watch reports (a
    /// network file system changed from another machine, a file added to a folder that held
    /// none).
    ///
    /// The thread is named `skills-reload`. On Linux it runs at the lowest CPU priority (nice
    /// 19), so a walk of a large tree waits for idle time rather than delaying the threads that
    /// answer (on a busy server a reload takes longer, it is not skipped). The error is the
    /// operating system's refusal to start a thread.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use skills_embed::disk::{Discovery, Overlay};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # fn main() -> std::io::Result<()> {
    /// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
    /// overlay.watch(Duration::from_millis(200), |report| {
    ///     eprintln!("skills changed: +{:?} -{:?} ~{:?}", report.added, report.removed, report.changed);
    /// })?;
    /// // ... serve tool calls from overlay.snapshot() ...
    /// # Ok(())
    /// # }
    /// ```
    pub fn watch<F>(self: &Arc<Self>, every: Duration, on_change: F) -> std::io::Result<()>
    where
        F: FnMut(&ReloadReport) + Send + 'static,
    {
        self.watch_polling(every, super::watch::POLL, on_change)
    }

    /// [`Overlay::watch`] with the poll interval used while every folder is watched and nothing
    /// changed lately.
    fn watch_polling<F>(
        self: &Arc<Self>,
        every: Duration,
        poll: Duration,
        mut on_change: F,
    ) -> std::io::Result<()>
    where
        F: FnMut(&ReloadReport) + Send + 'static,
    {
        // Weakly held, so the thread does not keep the overlay alive: its last owner going
        // away stops the thread.
        let overlay = Arc::downgrade(self);
        let watcher = super::watch::spawn(every, poll, move |tick| {
            let overlay = overlay.upgrade()?;
            if let Tick::Reload = tick {
                let report = overlay.reload();
                if !report.is_empty() || !report.kept.is_empty() {
                    on_change(&report);
                }
                if report.rescanned.is_empty() {
                    return Some(Seen::Same);
                }
            }
            Some(Seen::Folders(overlay.folders()))
        })?;
        let previous = self
            .watcher
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .replace(watcher);
        drop(previous);
        Ok(())
    }

    /// The folders whose changes the next reload would see: each root, the folders from it
    /// down to each skill's folder (served, or left out with a diagnostic), and those holding
    /// a skill's files. All come from the last walk, so its caps bound them.
    fn folders(&self) -> BTreeSet<PathBuf> {
        let state = self.current();
        let mut folders = BTreeSet::new();
        for root in &state.roots {
            let top = &root.root.path;
            let mut down_to = |folder: &Path| {
                for folder in folder.ancestors() {
                    // An ancestor already in holds its own ancestors up to the root.
                    if !folder.starts_with(top) || !folders.insert(folder.to_path_buf()) {
                        break;
                    }
                }
            };
            down_to(top);
            for found in &root.found {
                let Some(skill) = found.manifest.parent() else {
                    continue;
                };
                down_to(skill);
                for path in found.skill.paths() {
                    if let Some(folder) = skill.join(path).parent() {
                        down_to(folder);
                    }
                }
            }
            for diagnostic in &root.diagnostics {
                if let Some(folder) = diagnostic.file.parent() {
                    down_to(folder);
                }
            }
        }
        folders
    }
}

fn scan(discovery: &Discovery, root: Root) -> RootState {
    let (found, diagnostics, walked) =
        scan_root_walk(&root, &discovery.scan, discovery.max_file_bytes);
    RootState {
        root,
        fingerprint: walked.fingerprint,
        timed_out: walked.timed_out,
        found,
        diagnostics,
    }
}

/// The warning for a reload of `root` that the walk's time limit cut.
fn cut_by_time(root: &Root, discovery: &Discovery) -> Diagnostic {
    Diagnostic::path_warning(
        Rule::ScanLimit,
        &root.path,
        format!(
            "reloading this {} root took longer than the walk's time limit ({:?}); its previous \
             skills stay until a reload finishes in time: keep fewer files under it, or raise \
             `Discovery::scan.max_time`",
            root.kind,
            discovery.scan.max_time.unwrap_or_default()
        ),
    )
}

/// A skill that was good and is now present but broken keeps its previous version.
fn keep_broken(
    old: &RootState,
    fresh: &mut RootState,
    kept: &mut Vec<(String, String)>,
    notes: &mut Vec<Diagnostic>,
) {
    for prev in &old.found {
        if fresh.found.iter().any(|f| f.manifest == prev.manifest) {
            continue;
        }
        // A SKILL.md deleted on purpose takes its skill with it. Anything else in its place (a
        // folder, a FIFO, a dangling link) is a fault, and the good version stays (found by the
        // fault tests: those made a good skill disappear with at most a warning).
        let Ok(meta) = fs::symlink_metadata(&prev.manifest) else {
            continue;
        };
        let dir = prev.manifest.parent().unwrap_or(&prev.manifest);
        let mut why: Vec<String> = fresh
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && d.file.starts_with(dir))
            .map(ToString::to_string)
            .collect();
        if why.is_empty() && !meta.is_file() {
            why.push(format!(
                "{}: is no longer a regular file",
                prev.manifest.display()
            ));
        }
        if why.is_empty() {
            continue;
        }
        let name = prev.skill.name().to_owned();
        let reason = why.join("; ");
        notes.push(Diagnostic::warning(
            Rule::ReadError,
            &prev.manifest,
            1,
            1,
            format!("skill \"{name}\" is broken on disk; the previous version stays loaded until it is fixed"),
        ));
        kept.push((name, reason));
        fresh.found.push(prev.clone());
    }
}

fn merge<Id>(
    embedded: &'static SkillSet<Id>,
    discovery: &Discovery,
    roots: Vec<RootState>,
    extra: Vec<Diagnostic>,
) -> State {
    let mut found: Vec<Found> = embedded
        .skills()
        .iter()
        .map(|skill| Found {
            skill: skill.clone(),
            root: Root {
                path: PathBuf::from("embedded"),
                kind: SourceKind::Embedded,
            },
            manifest: PathBuf::from(format!("embedded:{}", skill.name())),
        })
        .collect();
    let mut diagnostics = extra;
    for r in &roots {
        found.extend(r.found.iter().cloned());
        diagnostics.extend(r.diagnostics.iter().cloned());
    }
    let (winners, shadowed) = resolve(found, &discovery.precedence);
    diagnostics.extend(shadowed);
    let sources = winners
        .iter()
        .map(|f| (f.skill.name().to_owned(), (f.root.kind, f.manifest.clone())))
        .collect();
    let skills = winners.into_iter().map(|f| f.skill).collect();
    // The embedded set's Rust scripts stay with their skills' names, whichever copy of a skill
    // wins: they are the binary's code, not files a disk copy could replace.
    let set = Arc::new(
        SkillSet::from_skills(skills, &ListingFormat::Markdown)
            .with_scripts(embedded.scripts().iter().cloned()),
    );
    State {
        set,
        sources,
        roots,
        diagnostics,
    }
}

fn diff(old: &SkillSet<Dynamic>, new: &SkillSet<Dynamic>, report: &mut ReloadReport) {
    let old_names: BTreeSet<&str> = old.names().collect();
    let new_names: BTreeSet<&str> = new.names().collect();
    report.added = new_names
        .difference(&old_names)
        .map(|s| s.to_string())
        .collect();
    report.removed = old_names
        .difference(&new_names)
        .map(|s| s.to_string())
        .collect();
    report.changed = old_names
        .intersection(&new_names)
        .filter(|name| match (old.get(name), new.get(name)) {
            // An embedded skill on both sides is unchanged without reading its files.
            (Ok(a), Ok(b)) => match (a.embedded_identity(), b.embedded_identity()) {
                (Some(x), Some(y)) if x == y => false,
                _ => a.content_digest() != b.content_digest(),
            },
            _ => false,
        })
        .map(|s| s.to_string())
        .collect();
}

/// A cheap summary of a root: every path the scan would walk with its size, times and
/// permissions, and every problem the walk meets, no file read.
///
/// It is the scan's own walk ([`crate::parse::walk`]): the same links followed (never out of
/// the root), each real folder once per skill, the same caps on depth, entries and time, so it
/// costs at most what a scan costs, and equals the fingerprint the last scan recorded when
/// nothing changed.
fn fingerprint(root: &Root, discovery: &Discovery) -> WalkSummary {
    survey(&walk_path(root), &discovery.scan).0
}

#[cfg(all(test, feature = "watch"))]
mod tests {
    use super::*;

    static NONE: SkillSet = SkillSet::empty();

    fn write_skill(root: &Path, name: &str, body: &str) {
        let folder = root.join(name);
        fs::create_dir_all(&folder).unwrap();
        let text =
            format!("---\nname: {name}\ndescription: Take notes. Use when asked.\n---\n{body}");
        fs::write(folder.join("SKILL.md"), text).unwrap();
    }

    /// What is watched: the root, the folders down to each skill and those holding its
    /// files, and the folder of a skill left out with an error; nothing outside the root.
    #[test]
    fn the_folders_watched_are_those_of_the_last_walk() {
        let tmp = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(tmp.path()).unwrap();
        write_skill(&root.join("group"), "notes", "One.\n");
        fs::create_dir_all(root.join("group/notes/references/deep")).unwrap();
        fs::write(
            root.join("group/notes/references/deep/guide.md"),
            "Guide.\n",
        )
        .unwrap();
        fs::create_dir_all(root.join("broken")).unwrap();
        fs::write(root.join("broken/SKILL.md"), "---\nname: Broken!\n---\n").unwrap();
        let overlay = Overlay::new(&NONE, Discovery::only(&root));
        let folders: Vec<String> = overlay
            .folders()
            .iter()
            .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            folders,
            [
                "",
                "broken",
                "group",
                "group/notes",
                "group/notes/references",
                "group/notes/references/deep"
            ]
        );
    }
}
