//! Reading a file that must lie inside a root, through the handle that was checked, and
//! reading a file whole as it stood: never half of an in-place rewrite.

use std::fs::{self, File};
use std::io::{self, Read, Seek};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How long a file must have stood unchanged before it is read: a file changed more recently
/// may be in the middle of an in-place rewrite (truncated, not yet written).
pub(crate) const SETTLE: Duration = Duration::from_millis(50);

/// How many times a read is tried while the file keeps changing.
const TRIES: usize = 8;

/// Reads `path`, which must resolve (symbolic links included) to a regular file inside
/// `canonical_root`, of at most `cap` bytes.
///
/// The checks are made on the opened handle, and the path is resolved again after opening and
/// must still name the same file, so swapping a file or a link between the check and the read
/// is refused rather than followed out of the root.
pub(crate) fn read_inside(
    canonical_root: &Path,
    path: &Path,
    cap: Option<u64>,
) -> io::Result<Vec<u8>> {
    let resolved = fs::canonicalize(path)?;
    if !resolved.starts_with(canonical_root) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "resolves outside its skill's folder (links must stay inside the skill folder)",
        ));
    }
    // Opening a FIFO blocks until a writer comes, so the type is checked before opening too
    // (found by the fault tests: a file replaced by a FIFO after the scan hung the load). A
    // swap in the instant between this check and the open is still possible; the checks on the
    // handle below refuse anything but that one regular file once it is open.
    if !fs::symlink_metadata(&resolved)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is not a regular file",
        ));
    }
    let mut file = File::open(&resolved)?;
    let meta = file.metadata()?;
    check_regular(&meta, cap)?;
    if !same_file(&meta, &fs::metadata(&resolved)?) || fs::canonicalize(path)? != resolved {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "changed while being read; try again",
        ));
    }
    read_whole(&mut file, cap)
}

/// A skill's folder, opened once, that its files are read beneath: on Linux each file is
/// opened relative to the folder's handle with `openat2(RESOLVE_BENEATH)`, the kernel refusing
/// any step out of it in the one call that opens the file (for a folder of 10,000 files the
/// path checks of [`read_inside`], two `realpath`s a file, were most of a cold start's system
/// time). A file whose resolution the kernel refuses (an absolute link, a link that leaves and
/// comes back), and every file elsewhere, is read by [`read_inside`], which decides as before.
pub(crate) struct Home {
    /// The folder as the skill names it; files below it are opened relative to `dir`.
    #[cfg_attr(
        not(target_os = "linux"),
        allow(dead_code, reason = "openat2 is Linux's")
    )]
    path: std::path::PathBuf,
    /// Its canonical path, for [`read_inside`].
    canonical: std::path::PathBuf,
    #[cfg(target_os = "linux")]
    dir: Option<std::os::fd::OwnedFd>,
}

impl Home {
    /// The skill folder `path` opened for reading its files through, if it resolves inside
    /// `root` (canonical); else why not, the phrase a `read-error` diagnostic gives. A folder
    /// swapped for a link since the walk is refused here rather than read.
    pub(crate) fn inside(path: &Path, root: Option<&Path>) -> Result<Self, String> {
        let canonical = fs::canonicalize(path).map_err(|e| e.to_string())?;
        match root {
            Some(root) if canonical.starts_with(root) => Ok(Home::open(path, canonical)),
            _ => Err("its folder now resolves outside the skills folder; scan again".into()),
        }
    }

    /// The folder `path`, whose canonical path is `canonical`.
    pub(crate) fn open(path: &Path, canonical: std::path::PathBuf) -> Self {
        Home {
            path: path.to_owned(),
            #[cfg(target_os = "linux")]
            dir: rustix::fs::open(
                &canonical,
                rustix::fs::OFlags::RDONLY
                    | rustix::fs::OFlags::DIRECTORY
                    | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok(),
            canonical,
        }
    }

    /// Reads `file`, which must resolve inside this folder, of at most `cap` bytes, as
    /// [`read_inside`] does.
    pub(crate) fn read(&self, file: &Path, cap: Option<u64>) -> io::Result<Vec<u8>> {
        #[cfg(target_os = "linux")]
        if let (Some(dir), Some(relative)) = (&self.dir, relative(file, &self.path)) {
            use rustix::fs::{Mode, OFlags, ResolveFlags};
            // NONBLOCK: a FIFO swapped in opens at once and is refused as no regular file,
            // instead of blocking until a writer comes.
            let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
            let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(dir, relative, flags, Mode::empty(), resolve) {
                Ok(fd) => return read_whole(&mut File::from(fd), cap),
                // Out of the folder, or no openat2 here (old kernels, some sandboxes): the path
                // checks decide.
                Err(
                    rustix::io::Errno::XDEV
                    | rustix::io::Errno::NOSYS
                    | rustix::io::Errno::PERM
                    | rustix::io::Errno::AGAIN
                    | rustix::io::Errno::INVAL,
                ) => {}
                Err(e) => return Err(e.into()),
            }
        }
        read_inside(&self.canonical, file, cap)
    }
}

/// Reads a regular file of at most `cap` bytes that the walk saw, through one handle, with
/// [`read_whole`]. Opening a FIFO swapped in since would block for ever (found by the fault
/// tests): on Unix it is opened non-blocking and refused on the handle; elsewhere the path is
/// checked first.
pub(crate) fn read_regular(path: &Path, cap: Option<u64>) -> io::Result<Vec<u8>> {
    #[cfg(unix)]
    let mut file = {
        use std::os::unix::fs::OpenOptionsExt;
        let nonblock = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        fs::OpenOptions::new()
            .read(true)
            .custom_flags(i32::try_from(nonblock.bits()).unwrap_or(0))
            .open(path)?
    };
    #[cfg(not(unix))]
    let mut file = {
        check_regular(&fs::metadata(path)?, cap)?;
        File::open(path)?
    };
    read_whole(&mut file, cap)
}

/// Reads an open regular file whole, at most `cap` bytes, as it stood: its size, times and
/// permissions must be the same before and after the read, and it must have stood unchanged for
/// [`SETTLE`] before it (a file rewritten in place is empty or half-written for a moment, and
/// looks stable then). Tried [`TRIES`] times while the file changes, waiting for it to settle;
/// then an [`io::ErrorKind::Interrupted`] error saying to try again, never a torn read. Writers
/// that replace a file (write a temporary file, then rename it over the old) are never waited
/// for: the old handle reads the old file whole.
pub(crate) fn read_whole(file: &mut File, cap: Option<u64>) -> io::Result<Vec<u8>> {
    let limit = cap.map_or(u64::MAX, |c| c.saturating_add(1));
    for try_ in 0..TRIES {
        let before = file.metadata()?;
        check_regular(&before, cap)?;
        if let Some(wait) = unsettled(&before) {
            std::thread::sleep(wait);
            continue;
        }
        // A file is handed over just opened: only a second try starts over.
        if try_ > 0 {
            file.rewind()?;
        }
        let mut bytes = Vec::with_capacity(usize::try_from(before.len()).unwrap_or(0));
        file.by_ref().take(limit).read_to_end(&mut bytes)?;
        if cap.is_some_and(|c| bytes.len() as u64 > c) {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                "grew past the cap while being read",
            ));
        }
        let after = file.metadata()?;
        if stamp(&before) == stamp(&after) && bytes.len() as u64 == after.len() {
            return Ok(bytes);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::Interrupted,
        format!(
            "kept changing while being read ({TRIES} tries); try again, and have writers \
             replace skill files whole (write a temporary file, then rename it into place)"
        ),
    ))
}

/// How long to wait before a file changed less than [`SETTLE`] ago has stood that long; `None`
/// when it has. A time ahead of the clock by more than that (a file server's clock) is not
/// waited for: the comparison of before and after still holds.
fn unsettled(meta: &fs::Metadata) -> Option<Duration> {
    let changed = changed_at(meta)?;
    let age = match SystemTime::now().duration_since(changed) {
        Ok(age) => age,
        Err(ahead) if ahead.duration() < SETTLE => Duration::ZERO,
        Err(_) => return None,
    };
    SETTLE.checked_sub(age).filter(|wait| !wait.is_zero())
}

/// When the file last changed: its status-change time on Unix (a `chmod` or a truncation
/// sets it; nothing but the kernel can), its modification time elsewhere.
#[cfg(unix)]
fn changed_at(meta: &fs::Metadata) -> Option<SystemTime> {
    use std::os::unix::fs::MetadataExt;
    let at = Duration::new(
        u64::try_from(meta.ctime()).ok()?,
        u32::try_from(meta.ctime_nsec()).ok()?,
    );
    SystemTime::UNIX_EPOCH.checked_add(at)
}

#[cfg(not(unix))]
fn changed_at(meta: &fs::Metadata) -> Option<SystemTime> {
    meta.modified().ok()
}

/// What a write changes: size, times, permissions.
#[cfg(unix)]
fn stamp(meta: &fs::Metadata) -> impl PartialEq {
    use std::os::unix::fs::MetadataExt;
    (
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.mode(),
    )
}

#[cfg(not(unix))]
fn stamp(meta: &fs::Metadata) -> impl PartialEq {
    (meta.len(), meta.modified().ok())
}

/// A regular file of at most `cap` bytes.
pub(crate) fn check_regular(meta: &fs::Metadata, cap: Option<u64>) -> io::Result<()> {
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is not a regular file",
        ));
    }
    if let Some(cap) = cap.filter(|&c| meta.len() > c) {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("is {} bytes; the cap is {cap} bytes", meta.len()),
        ));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// Whether `path`, met by the walk, is `dir` or below it, where the walk met `dir` first. Both
/// paths are the walker's own joins from one root, so `dir`'s bytes begin `path`'s:
/// `Path::starts_with` parses both into components, a quarter of the walk's instructions.
pub(super) fn below(path: &Path, dir: &Path) -> bool {
    let separator = |b: &u8| std::path::is_separator(char::from(*b));
    let (path, dir) = (
        path.as_os_str().as_encoded_bytes(),
        dir.as_os_str().as_encoded_bytes(),
    );
    // A root given with a trailing separator ends in one already.
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.first().is_none_or(separator) || dir.last().is_some_and(separator))
}

/// `path` relative to `dir`, as `Path::strip_prefix` makes it; compared as bytes first, since
/// the walk joins both from one root (parsing both into components was 8% of a scan's
/// instructions).
pub(super) fn relative<'p>(path: &'p Path, dir: &Path) -> Option<&'p Path> {
    #[cfg(unix)]
    if below(path, dir) {
        use std::os::unix::ffi::OsStrExt;
        let rest = &path.as_os_str().as_bytes()[dir.as_os_str().len()..];
        let rest = rest.strip_prefix(b"/").unwrap_or(rest);
        return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
    }
    path.strip_prefix(dir).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_inside_and_refuses_outside_and_oversized() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let canonical = fs::canonicalize(root.path()).unwrap();
        fs::write(root.path().join("a.md"), "hello").unwrap();
        fs::write(outside.path().join("secret"), "secret").unwrap();
        assert_eq!(
            read_inside(&canonical, &root.path().join("a.md"), None).unwrap(),
            b"hello"
        );
        let err = read_inside(&canonical, &root.path().join("a.md"), Some(3)).unwrap_err();
        assert!(err.to_string().contains("the cap is 3 bytes"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(outside.path().join("secret"), root.path().join("link"))
                .unwrap();
            let err = read_inside(&canonical, &root.path().join("link"), None).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        }
        assert!(
            read_inside(&canonical, root.path(), None).is_err(),
            "a folder is not a file"
        );
    }

    /// A skill's folder read through its handle: a file and a link that stays inside are read;
    /// a link out of it (to another skill, anywhere), an absolute link back inside it, a FIFO
    /// and a folder are decided as [`read_inside`] decides (refused, read, refused without
    /// blocking, refused).
    #[cfg(unix)]
    #[test]
    fn a_home_reads_beneath_itself_as_read_inside_decides() {
        use std::os::unix::fs::symlink;
        let root = tempfile::tempdir().unwrap();
        let skill = root.path().join("skill");
        let other = root.path().join("other");
        fs::create_dir_all(skill.join("references")).unwrap();
        fs::create_dir_all(&other).unwrap();
        fs::write(skill.join("references/a.md"), "inside").unwrap();
        fs::write(other.join("secret"), "secret").unwrap();
        symlink("references/a.md", skill.join("relative")).unwrap();
        symlink(skill.join("references/a.md"), skill.join("absolute")).unwrap();
        symlink("../other/secret", skill.join("escape")).unwrap();
        let home = Home::open(&skill, fs::canonicalize(&skill).unwrap());
        for inside in ["references/a.md", "relative", "absolute"] {
            assert_eq!(
                home.read(&skill.join(inside), None).unwrap(),
                b"inside",
                "{inside}"
            );
        }
        let escape = home.read(&skill.join("escape"), None).unwrap_err();
        assert_eq!(escape.kind(), io::ErrorKind::PermissionDenied, "{escape}");
        assert!(home.read(&skill.join("references"), None).is_err());
        assert_eq!(
            home.read(&skill.join("missing"), None).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert!(home.read(&skill.join("references/a.md"), Some(3)).is_err());
        let fifo = skill.join("fifo");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert!(
                home.read(&fifo, None).is_err(),
                "a FIFO is refused, not waited on"
            );
        }
    }

    /// Issue 25: 14% of reads during in-place rewrites returned a half-written file. A writer
    /// rewrites the file in place, in bursts; every read racing it gives one whole version or a
    /// "try again" error, and the last version once the writer stops. `truncate` rewrites as
    /// `fs::write` does (truncate, then write), which leave the file empty between the two
    /// calls; a read may then give that empty file when the writer stalls longer than
    /// [`SETTLE`] (it is the file as it stood), never part of a version.
    #[cfg(unix)]
    fn racing_reads(truncate: bool) -> (usize, usize) {
        use std::os::unix::fs::FileExt;
        let root = tempfile::tempdir().unwrap();
        let canonical = fs::canonicalize(root.path()).unwrap();
        let path = canonical.join("SKILL.md");
        let versions = ["a".repeat(96 * 1024), "b".repeat(96 * 1024)];
        fs::write(&path, &versions[0]).unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        let (mut whole, mut changing) = (0, 0);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
                // Bursts of rewrites, with pauses longer than a read waits for a file to settle.
                for _ in 0..6 {
                    for version in versions.iter().cycle().take(40) {
                        if truncate {
                            fs::write(&path, version).unwrap();
                        } else {
                            file.write_all_at(version.as_bytes(), 0).unwrap();
                        }
                    }
                    std::thread::sleep(SETTLE * 2);
                }
                done.store(true, std::sync::atomic::Ordering::Release);
            });
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                match read_inside(&canonical, &path, None) {
                    Ok(bytes) => {
                        assert!(
                            versions.iter().any(|v| v.as_bytes() == bytes)
                                || (truncate && bytes.is_empty()),
                            "a torn read: {} bytes, {} of them 'a', after {whole} whole reads",
                            bytes.len(),
                            bytes.iter().filter(|&&b| b == b'a').count(),
                        );
                        whole += 1;
                    }
                    Err(e) => {
                        assert_eq!(e.kind(), io::ErrorKind::Interrupted, "{e}");
                        assert!(e.to_string().contains("rename it into place"), "{e}");
                        changing += 1;
                    }
                }
            }
        });
        let last = read_inside(&canonical, &path, None).unwrap();
        assert_eq!(last, versions[1].as_bytes());
        (whole, changing)
    }

    #[cfg(unix)]
    #[test]
    fn a_read_racing_an_in_place_rewrite_is_never_torn() {
        let overwrites = racing_reads(false);
        let truncations = racing_reads(true);
        println!(
            "whole and refused reads: {overwrites:?} over writes, {truncations:?} truncations"
        );
    }
}
