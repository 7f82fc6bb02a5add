//! The one policy every walk of a folder follows: the scan behind `skills!`, `skills` and
//! discovery, and the fingerprint an overlay (and its watcher) compares to decide whether to
//! scan again. Both run the same walker ([`validate`](super::validate())'s), so they read the same
//! entries and stop at the same caps.
//!
//! - **Links never leave their skill, nor the root.** A symbolic link is followed only when
//!   [`ScanOptions::follow_symlinks`](super::ScanOptions::follow_symlinks) is on, and only when
//!   its canonical target lies inside the canonical folder of the skill holding it (and inside
//!   no nested skill's folder there), or, for a link outside any skill, inside the root's; any
//!   other is reported (`symlink-escape`, saying where it points) and neither entered, embedded
//!   nor served. So a skill never hands out another skill's files, which that skill's
//!   permissions may deny. A SKILL.md that is such a link makes no skill.
//! - **Each real folder is read once per skill** (and once outside skills), known by its device
//!   and inode on Unix (its canonical path elsewhere): a graph of links that reaches one folder
//!   by many paths costs one visit, and the folder reached again is reported (`scan-limit`),
//!   except a link outside skills to a folder also read where it really is (a repository's
//!   `.agents/skills -> ../skills`): its skills are reported once, under their real paths.
//!   A link to an ancestor is a loop, reported as a `read-error` (it cannot be read).
//! - **Caps** (the walk fields of [`ScanOptions`](super::ScanOptions)): how deep, how many entries (files and folders) in all and per
//!   skill, and optionally how long. What a cap cuts is reported with a `scan-limit` warning
//!   naming the folder and the cap; the rest of the walk goes on where it can.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Diagnostic, Rule};

/// Caps on a walk of a folder; every walk ([`validate`](super::validate()), an overlay's reload
/// fingerprint, its watcher) stops at them and reports what they cut with a `scan-limit`
/// warning.
///
/// The defaults are on everywhere (`skills!`, the `skills` tool, discovery) and leave room for
/// the largest trees we measure (1,000 skills of 10 files: about 20,000 entries), while keeping
/// a hostile tree (a link graph, a folder of millions of files) to a bounded amount of work.
/// They are the walk fields of [`ScanOptions`](super::ScanOptions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WalkLimits {
    /// How many levels below the root the walk goes, files and folders alike; a folder at this
    /// depth that holds anything is reported and not read. `None` for no limit.
    ///
    /// Unlike [`ScanOptions::max_depth`](super::ScanOptions::max_depth), which says where
    /// skill folders are looked for, this bounds every entry, the files of a skill included.
    pub(crate) max_depth: Option<usize>,
    /// How many entries (files, folders, links, whatever else) the walk meets in all before it
    /// stops; `None` for no limit.
    pub(crate) max_entries: Option<usize>,
    /// How many entries below one skill's folder are read; the rest of that skill is left out
    /// (the skill loads without them). `None` for no limit.
    pub(crate) max_skill_entries: Option<usize>,
    /// How long the walk may take before it stops; `None` for no limit. Off by default, so a
    /// build reads the same files however busy the machine; discovery sets it, so that a slow
    /// or hostile file system cannot hold a reload for ever.
    pub(crate) max_time: Option<Duration>,
}

impl Default for WalkLimits {
    /// Depth 128, 100,000 entries per walk, 10,000 per skill, no time limit.
    fn default() -> Self {
        WalkLimits {
            max_depth: Some(128),
            max_entries: Some(100_000),
            max_skill_entries: Some(10_000),
            max_time: None,
        }
    }
}

/// What a walk met, and whether a cap cut it short.
///
/// ```
/// use skills_embed::__private::scan;
/// use skills_embed::parse::ScanOptions;
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir(dir.path().join("pdf"))?;
/// std::fs::write(dir.path().join("pdf/SKILL.md"), "---\nname: pdf\ndescription: PDFs.\n---\n")?;
/// let tree = scan(dir.path(), &ScanOptions::default());
/// assert_eq!(tree.walk.entries, 3, "the root, pdf/ and pdf/SKILL.md");
/// assert!(!tree.walk.cut && !tree.walk.timed_out);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkSummary {
    /// Entries met, the root included.
    pub entries: usize,
    /// Whether a cap (or a folder met again) left something unread; a `scan-limit` warning
    /// says what.
    pub cut: bool,
    /// Whether the walk stopped at [`ScanOptions::max_time`](super::ScanOptions::max_time): what lies beyond is missing, not
    /// deleted.
    pub timed_out: bool,
    /// A hash of every entry walked (path, kind, size, modification time, permissions and
    /// status-change time) and of every problem met: two walks of an unchanged tree give the
    /// same value, and a `chmod` changes it.
    pub fingerprint: u64,
}

/// What a `chmod` changes, and an edit that puts the modification time back (`touch -r`,
/// `rsync -t`) does not hide: the mode (a script's executable bit is part of its skill's
/// content digest) and the status-change time, which only the kernel sets.
#[cfg(unix)]
fn hash_status(meta: &fs::Metadata, hasher: &mut DefaultHasher) {
    use std::os::unix::fs::MetadataExt;
    (meta.mode(), meta.ctime(), meta.ctime_nsec()).hash(hasher);
}

#[cfg(not(unix))]
fn hash_status(meta: &fs::Metadata, hasher: &mut DefaultHasher) {
    meta.permissions().readonly().hash(hasher);
}

/// The identity of a real folder.
#[cfg(unix)]
type FolderId = (u64, u64);
#[cfg(not(unix))]
type FolderId = PathBuf;

#[cfg(unix)]
fn folder_id(_: &Path, meta: &fs::Metadata) -> Option<FolderId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn folder_id(path: &Path, _: &fs::Metadata) -> Option<FolderId> {
    fs::canonicalize(path).ok()
}

/// The first place a cap cut, and how many more places it cut.
#[derive(Default)]
struct Cut {
    first: Option<(PathBuf, usize)>,
    more: usize,
}

impl Cut {
    fn record(&mut self, path: &Path, depth: usize) {
        if self.first.is_none() {
            self.first = Some((path.to_owned(), depth));
        } else {
            self.more += 1;
        }
    }

    /// `; 1 more {one} too` or `; N more {many} too`, or nothing.
    fn more(&self, one: &str, many: &str) -> String {
        match self.more {
            0 => String::new(),
            1 => format!("; 1 more {one} too"),
            n => format!("; {n} more {many} too"),
        }
    }
}

/// The bookkeeping of one walk under [`WalkLimits`]: entry and time budgets, folders already
/// read, what was cut, and the fingerprint.
pub(crate) struct Budget<'a> {
    root: &'a Path,
    limits: WalkLimits,
    started: Instant,
    /// Each real folder read, by the skill reading it, with the path it was first read at.
    seen: HashMap<(usize, FolderId), PathBuf>,
    repeated: Cut,
    too_deep: Cut,
    hasher: DefaultHasher,
    pub(crate) summary: WalkSummary,
}

/// Why the walk stops.
pub(crate) enum Stop {
    Entries,
    Time,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(root: &'a Path, limits: WalkLimits) -> Self {
        Budget {
            root,
            limits,
            started: Instant::now(),
            seen: HashMap::new(),
            repeated: Cut::default(),
            too_deep: Cut::default(),
            hasher: DefaultHasher::new(),
            summary: WalkSummary::default(),
        }
    }

    /// Counts one entry met; says whether the walk must stop first.
    pub(crate) fn meet(&mut self) -> Option<Stop> {
        if self
            .limits
            .max_time
            .is_some_and(|max| self.started.elapsed() >= max)
        {
            return Some(Stop::Time);
        }
        if self
            .limits
            .max_entries
            .is_some_and(|max| self.summary.entries >= max)
        {
            return Some(Stop::Entries);
        }
        self.summary.entries += 1;
        None
    }

    /// The warning for a walk that stops here.
    pub(crate) fn stop(&mut self, why: Stop) -> Diagnostic {
        self.summary.cut = true;
        let message = match why {
            Stop::Time => {
                self.summary.timed_out = true;
                format!(
                    "the walk took longer than {:?} (`max_time`) and stopped after {} files and \
                     folders; what lies beyond was not read this time (the previous skills stay \
                     in a live overlay): raise the limit, or keep fewer files under the root",
                    self.limits.max_time.unwrap_or_default(),
                    self.summary.entries
                )
            }
            Stop::Entries => format!(
                "holds more than {} files and folders (`max_entries`); the walk stopped there \
                 and what lies beyond was not read: raise the cap (`max_entries` in `skills!`, \
                 `--max-entries` in `skills`, `ScanOptions::walk`), or point at a smaller folder",
                self.summary.entries
            ),
        };
        Diagnostic::path_warning(Rule::ScanLimit, self.root, message)
    }

    /// Whether the real folder at `path` is read for the first time by the skill numbered
    /// `owner` (`usize::MAX` outside skills); a folder met again is recorded as cut, except
    /// outside skills when one of the two ways is where the folder really is (`is_real`): a
    /// link laid over a folder of skills (`.agents/skills -> ../skills`) is a layout, and the
    /// walker reports its skills once, under their real paths.
    pub(crate) fn first_visit(
        &mut self,
        owner: usize,
        path: &Path,
        depth: usize,
        meta: &fs::Metadata,
        is_real: impl Fn(&Path) -> bool,
    ) -> bool {
        let Some(id) = folder_id(path, meta) else {
            return true;
        };
        let first = match self.seen.entry((owner, id)) {
            Entry::Vacant(place) => {
                place.insert(path.to_owned());
                return true;
            }
            Entry::Occupied(place) => place.get().clone(),
        };
        if owner == usize::MAX && (is_real(path) || is_real(&first)) {
            return false;
        }
        self.summary.cut = true;
        self.repeated.record(path, depth);
        false
    }

    /// Whether a folder at `depth` may be entered; one at the cap that holds anything is
    /// recorded as cut (the walker does not go below it).
    pub(crate) fn check_depth(&mut self, path: &Path, depth: usize) {
        if self.limits.max_depth == Some(depth)
            && fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_some())
        {
            self.summary.cut = true;
            self.too_deep.record(path, depth);
        }
    }

    /// Adds an entry to the fingerprint: its path, kind, size, modification time, permissions
    /// and (on Unix) status-change time.
    pub(crate) fn hash_entry(&mut self, path: &Path, kind: u8, meta: Option<&fs::Metadata>) {
        // Its bytes: the walk spells a path the same way each time, and `Path`'s hash parses
        // it into components first.
        path.as_os_str().hash(&mut self.hasher);
        kind.hash(&mut self.hasher);
        if let Some(meta) = meta {
            meta.len().hash(&mut self.hasher);
            if let Ok(modified) = meta.modified() {
                modified.hash(&mut self.hasher);
            }
            hash_status(meta, &mut self.hasher);
        }
    }

    /// The warning for a skill folder whose entries reached [`WalkLimits::max_skill_entries`].
    pub(crate) fn skill_cut(&mut self, skill: &Path) -> Diagnostic {
        self.summary.cut = true;
        Diagnostic::path_warning(
            Rule::ScanLimit,
            skill,
            format!(
                "this skill holds more than {} files and folders (`max_skill_entries`); the \
                 rest were not read and the skill loads without them: raise the cap \
                 (`max_skill_entries` in `skills!`, `--max-skill-entries` in `skills`, \
                 `ScanOptions::walk`), or move files out of the skill",
                self.limits.max_skill_entries.unwrap_or_default()
            ),
        )
    }

    /// The cap on entries per skill.
    pub(crate) fn max_skill_entries(&self) -> Option<usize> {
        self.limits.max_skill_entries
    }

    /// Ends the walk: the warnings for folders met again and folders too deep, and the
    /// fingerprint over the entries and `problems` (the diagnostics this walk produced).
    pub(crate) fn finish(mut self, problems: &mut Vec<Diagnostic>, from: usize) -> WalkSummary {
        if let Some((path, _)) = self.repeated.first.take() {
            let message = format!(
                "is a folder already read (reached again through a symbolic link); each real \
                 folder is read once per skill, so it was skipped here{}",
                self.repeated.more(
                    "folder reached again was skipped",
                    "folders reached again were skipped"
                )
            );
            problems.push(Diagnostic::path_warning(Rule::ScanLimit, &path, message));
        }
        if let Some((path, depth)) = self.too_deep.first.take() {
            let message = format!(
                "is {depth} levels below {}; walks go {depth} levels deep (`max_depth`), so what \
                 it holds was not read: raise the cap (`max_depth` in `skills!`, `--max-depth` \
                 in `skills`, `ScanOptions::walk`), or move the files up{}",
                self.root.display(),
                self.too_deep.more(
                    "folder at that depth was cut",
                    "folders at that depth were cut"
                )
            );
            problems.push(Diagnostic::path_warning(Rule::ScanLimit, &path, message));
        }
        for d in problems.get(from..).unwrap_or_default() {
            d.file.hash(&mut self.hasher);
            d.message.hash(&mut self.hasher);
        }
        self.summary.fingerprint = self.hasher.finish();
        self.summary
    }
}
