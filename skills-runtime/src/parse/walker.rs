//! The walker every scan and survey runs: which folders it enters, which links it follows
//! (the policy of [`walk`](super::walk)), where the skill folders and their files are.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::read::below;
use super::tree::{ScanOptions, folder_name, is_dot, read_error};
use super::walk::{Budget, WalkSummary};
use super::{Diagnostic, Rule};
use crate::model::fields::MANIFEST;

/// What a walk found: skill folders and candidate resource files.
pub(super) struct Walk<'a> {
    root: &'a Path,
    pub(super) canonical_root: Option<PathBuf>,
    pub(super) options: &'a ScanOptions,
    pub(super) skill_dirs: Vec<PathBuf>,
    pub(super) files: Vec<(PathBuf, fs::Metadata)>,
}

/// A skill folder enclosing the walk's current entry.
struct OpenSkill {
    dir: PathBuf,
    /// Its canonical path, which every link inside it must resolve below: resolved at the
    /// first link met, since most skill folders hold none.
    real: std::cell::OnceCell<Option<PathBuf>>,
    /// Its place in [`Walk::skill_dirs`], which tells the skills apart for the folder check.
    index: usize,
    /// Entries met below it so far.
    entries: usize,
    /// Whether [`ScanOptions::max_skill_entries`](super::ScanOptions::max_skill_entries) cut it (reported once).
    cut: bool,
}

/// Kinds of entries, for the fingerprint.
const KIND_DIR: u8 = 1;
const KIND_FILE: u8 = 2;
const KIND_OTHER: u8 = 3;
const KIND_LINK_NOT_FOLLOWED: u8 = 4;

impl<'a> Walk<'a> {
    pub(super) fn new(root: &'a Path, options: &'a ScanOptions) -> Self {
        let canonical_root = fs::canonicalize(root).ok();
        Walk {
            root,
            canonical_root,
            options,
            skill_dirs: Vec::new(),
            files: Vec::new(),
        }
    }

    /// The one walker behind every walk of a folder (see [the policy](super::walk)).
    pub(super) fn run(&mut self, diagnostics: &mut Vec<Diagnostic>) -> WalkSummary {
        let from = diagnostics.len();
        let follow = self.options.follow_symlinks;
        let limits = self.options.walk_limits();
        let mut walker = WalkDir::new(self.root)
            .follow_links(follow)
            .sort_by_file_name();
        if let Some(max) = limits.max_depth {
            walker = walker.max_depth(max);
        }
        let mut budget = Budget::new(self.root, limits);
        // `max_depth` bounds where skill folders are looked for, not the files of a skill found
        // within it: walkdir's own limit would drop those files silently.
        let max_depth = self.options.max_depth;
        // The skill folders enclosing the current entry (the walk is depth-first).
        let mut open: Vec<OpenSkill> = Vec::new();
        let mut it = walker.into_iter();
        let mut dirs = 0usize;
        // Whether a link to a folder was followed (only then may a skill lie elsewhere).
        let mut linked = false;
        while let Some(entry) = it.next() {
            if let Some(why) = budget.meet() {
                diagnostics.push(budget.stop(why));
                break;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let path = e.path().unwrap_or(self.root).to_owned();
                    let message = match (e.loop_ancestor(), e.io_error()) {
                        // An error, not a skip: the link cannot be read, and only its owner can fix it.
                        (Some(a), _) => format!(
                            "symbolic link to `{}` loops back to {}, a folder holding it, so it \
                             cannot be read; remove the link or point it at a folder outside that one",
                            link_text(&path),
                            a.display()
                        ),
                        (None, Some(io))
                            if io.kind() == io::ErrorKind::NotFound && path.is_symlink() =>
                        {
                            format!(
                                "broken symbolic link to `{}`: its target does not exist; remove \
                                 it or fix the target",
                                link_text(&path)
                            )
                        }
                        (None, Some(io)) => format!("cannot read: {io}"),
                        (None, None) => format!("cannot read: {e}"),
                    };
                    diagnostics.push(Diagnostic::path_error(Rule::ReadError, &path, message));
                    continue;
                }
            };
            while open.last().is_some_and(|s| !below(entry.path(), &s.dir)) {
                open.pop();
            }
            if entry.depth() > 0 && !self.enters(&entry, !open.is_empty()) {
                if entry.file_type().is_dir() {
                    it.skip_current_dir();
                }
                continue;
            }
            if !follow && entry.path_is_symlink() {
                budget.hash_entry(entry.path(), KIND_LINK_NOT_FOLLOWED, None);
                diagnostics.push(Diagnostic::path_warning(
                    Rule::SymlinkSkipped,
                    entry.path(),
                    "symbolic link not followed (following links is off)".into(),
                ));
                continue;
            }
            if entry.path_is_symlink() && entry.file_type().is_dir() {
                linked = true;
            }
            if entry.path_is_symlink()
                && let Some(message) = self.link_escape(entry.path(), open.last())
            {
                diagnostics.push(Diagnostic::path_error(
                    Rule::SymlinkEscape,
                    entry.path(),
                    message,
                ));
                if entry.file_type().is_dir() {
                    it.skip_current_dir();
                }
                continue;
            }
            if let Some(skill) = open.last_mut() {
                skill.entries += 1;
                if budget
                    .max_skill_entries()
                    .is_some_and(|max| skill.entries > max)
                {
                    if !skill.cut {
                        skill.cut = true;
                        diagnostics.push(budget.skill_cut(&skill.dir));
                    }
                    // The rest of this folder (for a file: of the folder holding it) is skipped.
                    it.skip_current_dir();
                    continue;
                }
            }
            let file_type = entry.file_type();
            if file_type.is_dir() {
                let meta = match entry.metadata() {
                    Ok(meta) => meta,
                    Err(e) => {
                        diagnostics.push(read_error(entry.path(), &e.into()));
                        it.skip_current_dir();
                        continue;
                    }
                };
                let owner = open.last().map_or(usize::MAX, |s| s.index);
                let real = |path: &Path| self.is_real(path);
                if !budget.first_visit(owner, entry.path(), entry.depth(), &meta, real) {
                    it.skip_current_dir();
                    continue;
                }
                budget.hash_entry(entry.path(), KIND_DIR, Some(&meta));
                dirs += 1;
                if self.options.max_dirs.is_some_and(|max| dirs > max) {
                    diagnostics.push(Diagnostic::path_warning(
                        Rule::ScanLimit,
                        self.root,
                        format!(
                            "holds more than {} folders; the rest were not scanned (raise the limit to see them)",
                            dirs - 1
                        ),
                    ));
                    break;
                }
                budget.check_depth(entry.path(), entry.depth());
                if self.is_manifest(&entry.path().join(MANIFEST), diagnostics) {
                    open.push(OpenSkill {
                        dir: entry.path().to_owned(),
                        real: std::cell::OnceCell::new(),
                        index: self.skill_dirs.len(),
                        entries: 0,
                        cut: false,
                    });
                    self.skill_dirs.push(entry.path().to_owned());
                } else if open.is_empty() && max_depth.is_some_and(|max| entry.depth() >= max) {
                    it.skip_current_dir();
                }
            } else if file_type.is_file() {
                match entry.metadata() {
                    Ok(meta) => {
                        budget.hash_entry(entry.path(), KIND_FILE, Some(&meta));
                        self.files.push((entry.into_path(), meta));
                    }
                    Err(e) => diagnostics.push(Diagnostic::path_error(
                        Rule::ReadError,
                        entry.path(),
                        format!("cannot read: {e}"),
                    )),
                }
            } else {
                budget.hash_entry(entry.path(), KIND_OTHER, None);
                // A SKILL.md that is no regular file is reported with its folder (see
                // `is_manifest`); anything else is skipped with a warning.
                if entry.file_name() != MANIFEST {
                    diagnostics.push(Diagnostic::path_warning(
                        Rule::SpecialFile,
                        entry.path(),
                        "is not a regular file (a FIFO, socket or device); skipped".into(),
                    ));
                }
            }
        }
        if linked {
            self.rebase_linked_skills(diagnostics, from);
        }
        budget.finish(diagnostics, from)
    }

    /// Whether `path` (below the root) is where its folder really is: no symbolic link on the
    /// way from the root to it.
    fn is_real(&self, path: &Path) -> bool {
        let (Some(root), Ok(rel)) = (&self.canonical_root, path.strip_prefix(self.root)) else {
            return false;
        };
        fs::canonicalize(path).is_ok_and(|real| real == root.join(rel))
    }

    /// Where the folder at `path`, reached through a symbolic link, really is below the root
    /// (`None` when it is already there, or lies outside the root).
    fn real_place(&self, path: &Path) -> Option<PathBuf> {
        let root = self.canonical_root.as_deref()?;
        let real = fs::canonicalize(path).ok()?;
        let rel = real.strip_prefix(root).ok()?;
        let place = if rel.as_os_str().is_empty() {
            self.root.to_owned()
        } else {
            self.root.join(rel)
        };
        (place != path).then_some(place)
    }

    /// A skill folder reached through a symbolic link that stays inside the root (a repository's
    /// `.agents/skills -> ../skills`) is reported under its real path, with its files and this
    /// walk's diagnostics about it; a second way to the same real skill folder adds nothing.
    fn rebase_linked_skills(&mut self, diagnostics: &mut [Diagnostic], from: usize) {
        let mut taken: std::collections::HashSet<PathBuf> = self
            .skill_dirs
            .iter()
            .filter(|d| self.is_real(d))
            .cloned()
            .collect();
        let mut moved: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
        for dir in &self.skill_dirs {
            let Some(place) = self.real_place(dir) else {
                continue;
            };
            let new = taken.insert(place.clone()).then_some(place);
            moved.push((dir.clone(), new));
        }
        if moved.is_empty() {
            return;
        }
        let skills: std::collections::HashSet<PathBuf> = self.skill_dirs.iter().cloned().collect();
        // A path's new place, by its nearest skill folder; `None` when that folder was a
        // second way to a skill already read.
        let rebase = |path: &Path| -> Option<Option<PathBuf>> {
            let owner = path.ancestors().find(|a| skills.contains(*a))?;
            let (_, to) = moved.iter().find(|(from, _)| from == owner)?;
            let rest = path.strip_prefix(owner).ok()?;
            Some(to.as_ref().map(|to| {
                if rest.as_os_str().is_empty() {
                    to.clone()
                } else {
                    to.join(rest)
                }
            }))
        };
        self.files.retain_mut(|(path, _)| match rebase(path) {
            None => true,
            Some(Some(to)) => {
                *path = to;
                true
            }
            Some(None) => false,
        });
        for d in diagnostics.get_mut(from..).unwrap_or_default() {
            if let Some(Some(to)) = rebase(&d.file) {
                d.file = to;
            }
        }
        self.skill_dirs = self
            .skill_dirs
            .iter()
            .filter_map(|dir| match moved.iter().find(|(from, _)| from == dir) {
                None => Some(dir.clone()),
                Some((_, to)) => to.clone(),
            })
            .collect();
    }

    /// Whether the walk goes into `entry` (below the root): a folder to search or read, a file
    /// that may be a resource. `in_skill` says whether a skill folder encloses it.
    ///
    /// A dot-file is never a resource without `dotfiles`, so it is passed over before anything
    /// reports on it (a link, a FIFO). Inside a skill, a folder is read for resources, except a
    /// dot folder without `dotfiles`, which is only searched for nested skills with
    /// `dot_folders`. Outside skills, a folder is searched unless `skip_folders` names it or it
    /// is a dot folder and neither `dotfiles` nor `dot_folders` is on.
    fn enters(&self, entry: &walkdir::DirEntry, in_skill: bool) -> bool {
        let options = self.options;
        let name = entry.file_name();
        let dot = is_dot(name);
        if !entry.file_type().is_dir() {
            return !dot || options.dotfiles;
        }
        let skipped = || {
            options.skip_folders.iter().any(|s| name == s.as_str())
                && !entry.path().join(MANIFEST).is_file()
        };
        if in_skill {
            !dot || options.dotfiles || (options.dot_folders && !skipped())
        } else {
            (!dot || options.dotfiles || options.dot_folders) && !skipped()
        }
    }

    /// Whether `manifest` makes its folder a skill: a regular file, reached through a link only
    /// when links are followed and the link stays inside that folder (a link to another skill's
    /// SKILL.md is reported here as `symlink-escape`). A link not followed, leaving
    /// the root or dangling is reported when the walk meets it as an entry. A SKILL.md that is
    /// a folder, a FIFO, a socket or a device is reported here, as one `read-error` error
    /// whatever it is, since nothing else would say why the skill is missing.
    ///
    /// Found by the hostile-path tests: the check used to follow any link, so a SKILL.md
    /// linking out of the root (or, with links off, to another skill's) was read and served
    /// as the body, though the walk itself refused that link. Issue 13: a FIFO named SKILL.md
    /// was only a `special-file` warning while a folder so named was an error; both lose the
    /// skill, so both are errors now.
    fn is_manifest(&self, manifest: &Path, diagnostics: &mut Vec<Diagnostic>) -> bool {
        let Ok(meta) = fs::symlink_metadata(manifest) else {
            return false;
        };
        let meta = if meta.file_type().is_symlink() {
            // A link leaving the root is reported when the walk meets it as an entry.
            if !self.options.follow_symlinks || !self.inside_root(manifest) {
                return false;
            }
            let folder = manifest.parent().unwrap_or(self.root);
            let real = fs::canonicalize(folder).ok();
            if let Some(why) = leaves_skill(manifest, real.as_deref()) {
                diagnostics.push(Diagnostic::path_error(
                    Rule::SymlinkEscape,
                    manifest,
                    escape_message(
                        manifest,
                        &why,
                        folder,
                        "the folder holding it is not read as a skill",
                    ),
                ));
                return false;
            }
            match fs::metadata(manifest) {
                Ok(target) => target,
                Err(_) => return false,
            }
        } else {
            meta
        };
        if meta.is_file() {
            return true;
        }
        let what = if meta.is_dir() {
            "is a folder, not a file"
        } else {
            "is not a regular file (a FIFO, socket or device)"
        };
        diagnostics.push(Diagnostic::path_error(
            Rule::ReadError,
            manifest,
            format!("{what}: the folder holding it is not read as a skill"),
        ));
        false
    }

    /// Why the walk does not follow the link at `link`, enclosed by `skill` (the innermost
    /// skill folder around it, if any); `None` when it may. Inside a skill a link must stay in
    /// that skill's own folder, so a visible skill never serves another's files; outside skills
    /// it must stay inside the root.
    fn link_escape(&self, link: &Path, skill: Option<&OpenSkill>) -> Option<String> {
        match skill {
            Some(skill) => {
                let real = skill.real.get_or_init(|| fs::canonicalize(&skill.dir).ok());
                let why = leaves_skill(link, real.as_deref())?;
                Some(escape_message(
                    link,
                    &why,
                    &skill.dir,
                    "it is not followed, embedded or served",
                ))
            }
            None if self.inside_root(link) => None,
            None => Some(format!(
                "symbolic link to `{}` points outside the skills folder; only links that stay \
                 inside it are followed",
                link_text(link)
            )),
        }
    }

    fn inside_root(&self, path: &Path) -> bool {
        match (&self.canonical_root, fs::canonicalize(path)) {
            (Some(root), Ok(target)) => target.starts_with(root),
            _ => false,
        }
    }
}

/// Why the link at `link` leaves the skill whose canonical folder is `real`: `None` when its
/// target lies inside that folder and inside no nested skill's folder (whose files are that
/// skill's own). A link that cannot be resolved is not followed either.
fn leaves_skill(link: &Path, real: Option<&Path>) -> Option<String> {
    let (Some(real), Ok(target)) = (real, fs::canonicalize(link)) else {
        return Some("cannot be resolved".into());
    };
    if !target.starts_with(real) {
        return Some("leaves its skill's folder".into());
    }
    let mut at = target.as_path();
    while at != real {
        if fs::symlink_metadata(at.join(MANIFEST)).is_ok() {
            let nested = at.strip_prefix(real).unwrap_or(at);
            return Some(format!(
                "points into `{}`, the folder of another skill",
                nested.display()
            ));
        }
        at = at.parent()?;
    }
    None
}

/// The `symlink-escape` message for a link inside the skill folder `dir`: where it points, why
/// that is refused, what happens to it (`outcome`) and what to do.
fn escape_message(link: &Path, why: &str, dir: &Path, outcome: &str) -> String {
    format!(
        "symbolic link to `{}` {why} (`{}`): a link inside a skill must stay inside that \
         skill's own folder, so {outcome}; copy the file into the skill, or remove the link",
        link_text(link),
        folder_name(dir)
    )
}

/// What a link says it points to, as written (not resolved, so no machine path is added).
fn link_text(link: &Path) -> String {
    fs::read_link(link).map_or_else(|_| "?".into(), |t| t.display().to_string())
}
