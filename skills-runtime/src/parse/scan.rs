//! Scanning a folder into a [`Tree`]: the walk, then each skill folder read and each file
//! handed to the skill holding it.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::Path;

use super::tree::{
    Resource, ResourceAction, ResourceFilter, ScanOptions, SkillSource, Tree,
    check_duplicate_names, is_dot, is_executable, oversized, read_error, read_regular, read_skill,
    slash_path,
};
#[cfg(feature = "fs")]
use super::walk::WalkSummary;
use super::walker::Walk;
use super::{Diagnostic, Profile, Rule};
use crate::model::fields::MANIFEST;
use crate::text::is_text;

/// Checks `root` (a folder holding skills at any depth, a skill folder, or a SKILL.md) as
/// `skills!` and `skills validate` do: every problem, in every skill and in the folder itself,
/// in path order. The skills are valid when no diagnostic [is an error](Diagnostic::is_error).
///
/// Any folder holding a SKILL.md is a skill; every other file below it is one of its resources,
/// except files of a nested skill. Problems are collected, never fatal.
///
/// ```
/// use skills_embed::parse::{ScanOptions, validate};
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir(dir.path().join("pdf"))?;
/// std::fs::write(dir.path().join("pdf/SKILL.md"), "---\nname: pdf\ndescription: PDFs.\n---\nBody.\n")?;
/// assert!(validate(dir.path(), &ScanOptions::default()).is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn validate(root: &Path, options: &ScanOptions) -> Vec<Diagnostic> {
    scan(root, options).diagnostics
}

/// Scans `root` as [`validate`] does, keeping what it found: each skill's folder, text,
/// fields and resources (what the macro embeds and `load` reads).
pub fn scan(root: &Path, options: &ScanOptions) -> Tree {
    scan_keeping(root, options, false)
}

/// [`scan`], keeping each resource's bytes in [`Resource::bytes`] when `keep` (each read
/// through its skill folder's handle, as `load` reads): for a loader that reads every file
/// anyway, one read a file instead of two. The macro does not keep them: rustc reads the files
/// it embeds itself.
pub(crate) fn scan_keeping(root: &Path, options: &ScanOptions, keep: bool) -> Tree {
    let mut tree = Tree {
        root: root.to_owned(),
        ..Tree::default()
    };
    let walk_root = match fs::metadata(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            tree.diagnostics.push(Diagnostic::path_error(
                Rule::MissingPath,
                root,
                format!(
                    "no such file or folder: {}: give a folder of skills, a skill folder or a \
                     SKILL.md",
                    std::path::absolute(root)
                        .unwrap_or_else(|_| root.to_owned())
                        .display()
                ),
            ));
            return tree;
        }
        Err(e) => {
            tree.diagnostics.push(read_error(root, &e));
            return tree;
        }
        Ok(meta) if meta.is_dir() => root.to_owned(),
        Ok(_) if root.file_name().is_some_and(|n| n == MANIFEST) => {
            root.parent().map(Path::to_owned).unwrap_or_default()
        }
        Ok(_) => {
            tree.diagnostics.push(Diagnostic::path_error(
                Rule::MissingSkillMd,
                root,
                "is a file, not a skill folder or a SKILL.md".into(),
            ));
            return tree;
        }
    };
    let filter = match ResourceFilter::new(options) {
        Ok(filter) => filter,
        Err(d) => {
            tree.diagnostics.push(d.with_file(root));
            return tree;
        }
    };
    let mut walk = Walk::new(&walk_root, options);
    tree.walk = walk.run(&mut tree.diagnostics);
    // A SKILL.md the walk refused (a link out of its folder, a FIFO) has its own error already.
    let refused = |d: &Diagnostic| d.is_error() && d.file.file_name() == Some(MANIFEST.as_ref());
    if walk.skill_dirs.is_empty() && !tree.diagnostics.iter().any(refused) {
        tree.diagnostics.push(Diagnostic::path_error(
            Rule::MissingSkillMd,
            root,
            "holds no SKILL.md: a skill is a folder with a SKILL.md file".into(),
        ));
    }
    tree.skills = read_skills(walk, &filter, keep, &mut tree.diagnostics);
    check_duplicate_names(&mut tree);
    tree.diagnostics
        .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    tree
}

/// Walks `root` as [`scan`] does, without reading any file: what the walk met and its
/// fingerprint (equal to the one [`scan`] puts in [`Tree::walk`] for an unchanged tree), and the
/// problems the walk itself found. An overlay compares it to decide whether to scan again.
#[cfg(feature = "fs")]
pub(crate) fn survey(root: &Path, options: &ScanOptions) -> (WalkSummary, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut walk = Walk::new(root, options);
    let summary = walk.run(&mut diagnostics);
    (summary, diagnostics)
}

/// Reads each skill folder the walk found and hands each file found to the nearest skill
/// folder holding it, as a resource.
fn read_skills(
    walk: Walk<'_>,
    filter: &ResourceFilter,
    keep: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<SkillSource> {
    // Keyed by the paths' bytes: `Path`'s order compares component by component, which was a
    // quarter of a 10,000-file scan's instructions (each file looks up its ancestors).
    let owners: BTreeMap<OsString, usize> = walk
        .skill_dirs
        .iter()
        .enumerate()
        .map(|(i, dir)| (dir.clone().into_os_string(), i))
        .collect();
    let mut files: Vec<Vec<(std::path::PathBuf, fs::Metadata)>> = std::iter::repeat_with(Vec::new)
        .take(walk.skill_dirs.len())
        .collect();
    for (path, meta) in walk.files {
        // The nearest enclosing skill folder owns the file.
        let owner = path
            .ancestors()
            .skip(1)
            .find_map(|a| owners.get(a.as_os_str()).copied());
        if let Some(slot) = owner.and_then(|i| files.get_mut(i)) {
            slot.push((path, meta));
        }
    }
    let folders: Vec<_> = walk.skill_dirs.into_iter().zip(files).collect();
    let reader = Reader {
        options: walk.options,
        canonical_root: walk.canonical_root.as_deref(),
        filter,
        keep,
    };
    let mut skills = Vec::with_capacity(folders.len());
    for (skill, found) in in_parallel(folders, |(dir, files)| reader.skill(dir, files)) {
        skills.push(skill);
        diagnostics.extend(found);
    }
    // By name, then by folder as `Path` orders them (the order skills of one name were met in).
    skills.sort_by_cached_key(|s| (s.name(), s.dir.clone()));
    skills
}

/// The skill folders per thread below which a scan reads them on one thread: spawning costs
/// about what reading a few small skills does.
const SKILLS_PER_THREAD: usize = 32;

/// `work` applied to each item, the results in the items' order, on this thread and up to one
/// more per core (skills are independent: reading and checking one never looks at another).
/// Each thread takes the next item when done with one, so a large skill holds up no run; a
/// thread that cannot be started leaves its share to the others.
fn in_parallel<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let helpers = cores.min(items.len() / SKILLS_PER_THREAD).saturating_sub(1);
    if helpers == 0 {
        return items.into_iter().map(work).collect();
    }
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let drain = || {
        let mut done = Vec::new();
        loop {
            let next = queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .next();
            let Some((i, item)) = next else {
                return done;
            };
            done.push((i, work(item)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (0..helpers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("skills-scan".into())
                    .spawn_scoped(scope, drain)
                    .ok()
            })
            .collect();
        let mut done = drain();
        for helper in helpers {
            match helper.join() {
                Ok(theirs) => done.extend(theirs),
                // A bug in a check, not bad input: raised here as it would have been inline.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// What reading one skill folder needs, shared by the threads reading them.
struct Reader<'a> {
    options: &'a ScanOptions,
    canonical_root: Option<&'a Path>,
    filter: &'a ResourceFilter,
    keep: bool,
}

impl Reader<'_> {
    /// The skill folder `dir` read, with `files` (the files the walk found that it owns) as its
    /// resources and what the body promises checked; and the problems found, in that order.
    fn skill(
        &self,
        dir: std::path::PathBuf,
        files: Vec<(std::path::PathBuf, fs::Metadata)>,
    ) -> (SkillSource, Vec<Diagnostic>) {
        let options = self.options;
        let profile = options.profile;
        let mut diagnostics = Vec::new();
        let mut skill = read_skill(dir, options, &mut diagnostics);
        // When the bytes are kept the folder is opened once, before its files are read (the
        // load's checked read). The loader takes those bytes as they are, so a folder that no
        // longer resolves inside the walked one (swapped for a link since the walk) leaves the
        // skill out here, as `load` did when it opened the folder again.
        let home = if self.keep {
            match super::read::Home::inside(&skill.dir, self.canonical_root) {
                Ok(home) => Some(home),
                Err(why) => {
                    skill.valid = false;
                    let message = format!("cannot read the skill's files: {why}");
                    diagnostics.push(Diagnostic::path_error(Rule::ReadError, &skill.dir, message));
                    return (skill, diagnostics);
                }
            }
        } else {
            None
        };
        let limits = options.limits();
        for (path, meta) in files {
            let Some(relative) = super::read::relative(&path, &skill.dir) else {
                continue;
            };
            if relative == Path::new(MANIFEST) {
                continue;
            }
            // Reached through a dot folder searched for nested skills: not a resource.
            if !options.dotfiles && relative.iter().any(is_dot) {
                continue;
            }
            let Some(rel) = slash_path(relative) else {
                let d = Diagnostic::path_error(
                    Rule::ReadError,
                    &path,
                    "file name is not valid UTF-8; rename it (paths are served as text)".into(),
                );
                if profile == Profile::Lenient {
                    diagnostics.push(Diagnostic {
                        severity: super::Severity::Warning,
                        ..d
                    });
                } else {
                    skill.valid = false;
                    diagnostics.push(d);
                }
                continue;
            };
            if !self.filter.keeps(&rel) {
                continue;
            }
            if let Some(cap) = limits.max_resource_bytes.filter(|&c| meta.len() > c) {
                diagnostics.push(oversized(&path, meta.len(), cap, limits.resource));
                if limits.resource == ResourceAction::Error {
                    skill.valid = false;
                }
                continue;
            }
            let read = match &home {
                Some(home) => home.read(&path, None),
                None => read_regular(&path, None),
            };
            match read {
                Ok(bytes) => skill.resources.push(Resource {
                    path: rel,
                    len: bytes.len() as u64,
                    text: is_text(&bytes),
                    executable: is_executable(&meta),
                    file: path,
                    bytes: self.keep.then_some(bytes),
                }),
                Err(e) => {
                    skill.valid = false;
                    diagnostics.push(read_error(&path, &e));
                }
            }
        }
        skill.resources.sort_by(|a, b| a.path.cmp(&b.path));
        // What the body promises is checked once the skill's files are known.
        if skill.manifest.is_some() {
            let found = super::references::check(&skill, options);
            skill.valid &= !found.iter().any(Diagnostic::is_error);
            diagnostics.extend(found);
        }
        (skill, diagnostics)
    }
}
