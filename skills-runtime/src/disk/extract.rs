//! Writes a skill's files to a working directory, so its scripts can run: [`extract`].

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

pub use super::folder::ExtractError;
use super::folder::Folder;
use crate::model::file::hex;
use crate::model::path;
use crate::model::skill::{Loaded, Skill};

/// The name of the marker file written last in the skill's folder: the hex [`fingerprint`] of
/// the skill the folder holds, and a newline. A skill file with this path is refused.
pub const MARKER: &str = ".skills-fingerprint";

/// Where a skill was written.
///
/// ```
/// use skills_embed::{Fields, Skill};
/// use skills_embed::__private::extract;
///
/// let skill = Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     "# Notes\n".into(),
///     vec![],
/// );
/// let work = tempfile::tempdir()?;
/// let first = extract(&skill, work.path())?;
/// assert!(first.dir.is_absolute() && first.dir.ends_with("notes"));
/// assert_eq!(first.files, vec![first.dir.join("SKILL.md")]);
/// assert!(first.written);
/// assert!(!extract(&skill, work.path())?.written);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The skill's folder, absolute: `dest/<skill name>`.
    pub dir: PathBuf,
    /// Every file of the skill, absolute, sorted, `SKILL.md` included (the marker is not).
    pub files: Vec<PathBuf>,
    /// Whether anything was written; `false` when the folder already held this skill.
    pub written: bool,
}

/// The SHA-256 of every file's path, executable bit and content digest, in order: two skills
/// with the same fingerprint write the same folder.
///
/// It uses [`Loaded::sha256`](crate::Loaded::sha256): the digests kept for files read at run
/// time, hashed on the call for embedded ones.
pub fn fingerprint(skill: &Skill) -> [u8; 32] {
    fingerprint_of(
        skill
            .files()
            .map(|file| (file.path(), file.is_executable(), file.sha256())),
    )
}

/// [`fingerprint`] of files given as (path, executable, SHA-256 of the bytes), in path order:
/// what `disk::Install` records of a skill as written and compares the installed files with.
pub(crate) fn fingerprint_of<'a>(
    files: impl Iterator<Item = (&'a str, bool, [u8; 32])>,
) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    // A version tag, so a change to what is hashed can never match an old marker.
    hasher.update(b"skills-extract-v1\0");
    for (path, executable, sha256) in files {
        // Length-prefixed so that no two different lists hash the same input.
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        hasher.update([u8::from(executable)]);
        hasher.update(sha256);
    }
    hasher.finalize().into()
}

/// Writes every file of `skill` under `dest/<skill name>/` and returns the absolute paths.
///
/// `dest` is created if missing (with its parents); it may be a symbolic link to a folder,
/// since it is the caller's choice, but nothing below it may be.
///
/// An embedded skill lives in the binary, but a model can only run a script that exists on disk.
/// `extract` writes *every* file of the skill (not only `scripts/`: scripts read the skill's
/// `references/` and `assets/` by relative path) under `dest/<skill name>/`, and returns the
/// absolute paths to hand to the model in a tool output or the listing.
///
/// - **Executable bits** are the ones the file had in the source folder when the crate compiled:
///   on Unix, mode `0o755` for executables and `0o644` for the rest, whatever the umask.
/// - **`SKILL.md`** is written as the body the skill serves: the frontmatter is not part of it.
/// - **Nothing is written outside the skill's folder**, even while someone swaps its folders
///   for links. Every path is checked again, and every folder below `dest` is opened one plain
///   name at a time from its parent's open handle, never through a symbolic link; each file is
///   written, compared and renamed relative to the handle of the folder holding it (cap-std's
///   `Dir`). A folder swapped for a link after it was opened keeps receiving the writes; a link
///   met where a folder should be is refused ([`ExtractError::Symlink`]). A link already at a
///   file's place is replaced, never written through (each file is written to a temporary file
///   with a random name beside it, then renamed over the target). The tools' work folder
///   ([`Settings::with_workdir`](crate::tools::Settings::with_workdir)) and `skills extract` write through
///   this same function.
/// - **Idempotent.** A file that already holds the right bytes and mode is left alone, so a
///   second call writes nothing and reports [`Extracted::written`] `false`; a file changed or
///   deleted since is written again. The marker file `.skills-fingerprint` in the skill's folder holds the
///   skill's fingerprint in hex, written last: it records which version of the skill the
///   folder holds once complete.
/// - Files in the folder that the skill does not have (from an older version, or put there by
///   someone else) are left in place: deleting what we did not write is riskier than leaving it.
///
/// ```
/// use skills_embed::{File, Fields, Skill};
/// use skills_embed::__private::extract;
///
/// let skill = Skill::owned(
///     Fields { name: "pdf".into(), description: "Work with PDF files.".into(), ..Default::default() },
///     "Run `scripts/extract.sh FILE`.\n".into(),
///     vec![File::owned("scripts/extract.sh".into(), b"#!/bin/sh\npdftotext \"$1\" -\n".to_vec(), true)],
/// );
/// let work = tempfile::tempdir()?;
/// let out = extract(&skill, work.path())?;
/// let script = out.dir.join("scripts").join("extract.sh");
/// assert!(out.files.contains(&script));
/// // Tell the model where the script is.
/// println!("Run `{}` to get a PDF's text.", script.display());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```
/// use skills_embed::{File, Fields, Skill};
/// use skills_embed::__private::extract;
///
/// let skill = Skill::owned(
///     Fields { name: "pdf".into(), description: "Work with PDF files.".into(), ..Default::default() },
///     "Run `scripts/extract.sh FILE`; forms: `references/forms.md`.\n".into(),
///     vec![
///         File::owned("scripts/extract.sh".into(), b"#!/bin/sh\ncat \"$(dirname \"$0\")/../references/forms.md\"\n".to_vec(), true),
///         File::owned("references/forms.md".into(), b"Fill forms like this.\n".to_vec(), false),
///     ],
/// );
/// let work = tempfile::tempdir()?;
/// let out = extract(&skill, &work.path().join("skills"))?;
/// assert_eq!(out.files.len(), 3);
/// assert_eq!(std::fs::read(out.dir.join("references/forms.md"))?, b"Fill forms like this.\n");
/// #[cfg(unix)]
/// {
///     use std::os::unix::fs::PermissionsExt;
///     let mode = std::fs::metadata(out.dir.join("scripts/extract.sh"))?.permissions().mode();
///     assert_eq!(mode & 0o777, 0o755);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract(skill: &Skill, dest: &Path) -> Result<Extracted, ExtractError> {
    // Checked before anything is written (the destination included), so a bad path never
    // leaves a half-written folder or a new destination behind.
    let checked = checked_paths(skill)?;
    let dest = Folder::open_ambient(&prepare_dest(dest)?)?;
    write_skill(skill, &dest, checked)
}

/// The skill's name and every file's path, as plain segments, in the order they are written:
/// sorted by segments, so that the files of one folder come together.
pub(crate) type Checked<'a> = (&'a str, Vec<(Vec<&'a str>, Loaded<'a>)>);

pub(crate) fn checked_paths(skill: &Skill) -> Result<Checked<'_>, ExtractError> {
    let name = plain_segments(skill, skill.name())?;
    let [name] = name[..] else {
        return Err(ExtractError::UnsafePath {
            skill: skill.name().to_owned(),
            path: skill.name().to_owned(),
            reason: "a skill's name must be a single folder name",
        });
    };
    let mut targets = skill
        .files()
        .map(|file| Ok((plain_segments(skill, file.path())?, file)))
        .collect::<Result<Vec<_>, ExtractError>>()?;
    targets.sort_by(|a, b| a.0.cmp(&b.0));
    Ok((name, targets))
}

/// Writes the skill under `dest` through folder handles (see [`Folder`]), then the marker.
fn write_skill(
    skill: &Skill,
    dest: &Folder,
    (name, targets): Checked<'_>,
) -> Result<Extracted, ExtractError> {
    let root = dest.child(name)?;
    let (files, mut written) = write_files(&root, targets, None)?;
    let stamp = format!("{}\n", hex(&fingerprint(skill)));
    if written || !root.holds(MARKER, stamp.as_bytes(), false)? {
        root.replace(MARKER, stamp.as_bytes(), false)?;
        written = true;
    }
    Ok(Extracted {
        dir: root.path().to_owned(),
        files,
        written,
    })
}

/// Writes `targets` (from [`checked_paths`]) into `root`, the skill's folder: each folder is
/// opened from its parent's handle without following a link, and each file is written relative
/// to the handle of the folder that holds it. `manifest`, when given, is written as `SKILL.md`
/// instead of the body (an installed skill carries its frontmatter). Returns the files'
/// absolute paths, sorted, and whether anything was written. The extraction and
/// `disk::Install` share it.
pub(crate) fn write_files(
    root: &Folder,
    targets: Vec<(Vec<&str>, Loaded<'_>)>,
    manifest: Option<&[u8]>,
) -> Result<(Vec<PathBuf>, bool), ExtractError> {
    // The folders open along the current file's path, below the skill's folder: files come
    // sorted, so a folder's files are written through one handle, and only as many handles are
    // open as the path is deep.
    let mut open: Vec<(&str, Folder)> = Vec::new();
    let mut written = false;
    let mut files = Vec::with_capacity(targets.len());
    for (segments, file) in targets {
        let Some((last, folders)) = segments.split_last() else {
            // `plain_segments` never returns an empty list; skip rather than panic.
            continue;
        };
        let common = open
            .iter()
            .zip(folders)
            .take_while(|((open, _), wanted)| open == *wanted)
            .count();
        open.truncate(common);
        for folder in &folders[common..] {
            let parent = open.last().map_or(root, |(_, f)| f);
            let child = parent.child(folder)?;
            open.push((folder, child));
        }
        let parent = open.last().map_or(root, |(_, f)| f);
        let bytes = match manifest {
            Some(text) if file.is_body() => text,
            _ => file.bytes(),
        };
        if !parent.holds(last, bytes, file.is_executable())? {
            parent.replace(last, bytes, file.is_executable())?;
            written = true;
        }
        files.push(parent.path().join(last));
    }
    files.sort();
    Ok((files, written))
}

/// [`extract`] into a fresh folder of its own under [`std::env::temp_dir`].
///
/// Each call makes a new folder (`skills-<process id>-<12 random hex digits>`, created
/// exclusively; on Unix readable by the current user only, so no other user can swap a script
/// before it runs), and the skill goes in `<that folder>/<skill name>`. Nothing removes it: delete
/// `extracted.dir.parent()` when done, or leave it to the system's temp cleaning.
///
/// ```
/// use skills_embed::{Fields, Skill};
/// use skills_embed::__private::extract_to_temp;
///
/// let skill = Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     "# Notes\n".into(),
///     vec![],
/// );
/// let a = extract_to_temp(&skill)?;
/// let b = extract_to_temp(&skill)?;
/// assert_ne!(a.dir, b.dir);
/// assert!(a.dir.is_absolute() && a.dir.ends_with("notes"));
/// assert!(a.dir.starts_with(std::env::temp_dir()));
/// for out in [a, b] {
///     if let Some(root) = out.dir.parent() {
///         std::fs::remove_dir_all(root)?;
///     }
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract_to_temp(skill: &Skill) -> Result<Extracted, ExtractError> {
    let checked = checked_paths(skill)?;
    let temp = Folder::open_ambient(&prepare_dest(&std::env::temp_dir())?)?;
    let root = temp.fresh_child(&format!("skills-{}-", std::process::id()))?;
    write_skill(skill, &root, checked)
}

/// The segments of `raw` (a skill name or a file path), refused unless each is a plain name.
fn plain_segments<'a>(skill: &Skill, raw: &'a str) -> Result<Vec<&'a str>, ExtractError> {
    let refuse = |reason| ExtractError::UnsafePath {
        skill: skill.name().to_owned(),
        path: raw.to_owned(),
        reason,
    };
    let checked = path::check(raw).map_err(|problem| refuse(problem.describe()))?;
    // Stored paths are normal; `./a` or `a//b` means the skill was built wrong, and writing it
    // under another name would hide that.
    if checked.as_normal_str().is_none() {
        return Err(refuse("it has an empty or `.` segment"));
    }
    if raw == MARKER {
        return Err(refuse("it is the name of the extraction marker file"));
    }
    let segments: Vec<&str> = checked.segments().collect();
    for segment in &segments {
        // `check` works on `/` paths; this catches what the platform reads differently
        // (a drive prefix, a root, `..`), so a segment can only ever name one entry.
        let mut components = Path::new(segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(c)), None) if c == *segment => {}
            _ => return Err(refuse("a segment is not a plain file name on this system")),
        }
    }
    Ok(segments)
}

/// `dest`, created if missing, as an absolute path.
pub(crate) fn prepare_dest(dest: &Path) -> Result<PathBuf, ExtractError> {
    let io = |op, source| ExtractError::Io {
        op,
        path: dest.to_owned(),
        source,
    };
    match fs::metadata(dest) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(ExtractError::NotADirectory {
                path: dest.to_owned(),
            });
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(dest).map_err(|e| io("create the folder", e))?;
        }
        Err(e) => return Err(io("inspect", e)),
    }
    // Not `canonicalize`: on Windows it gives `\\?\` paths that many scripts cannot handle.
    std::path::absolute(dest).map_err(|e| io("make an absolute path of", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fields::Fields;
    use crate::model::file::File;

    fn skill(name: &str, files: Vec<File>) -> Skill {
        let fields = Fields {
            name: name.into(),
            description: "A test skill.".into(),
            ..Fields::default()
        };
        Skill::owned(fields, "# Body\n".into(), files)
    }

    fn file(path: &str, bytes: &[u8], executable: bool) -> File {
        File::owned(path.into(), bytes.to_vec(), executable)
    }

    fn refused(skill: &Skill) -> (String, &'static str) {
        let work = tempfile::tempdir().unwrap();
        match extract(skill, work.path()) {
            Err(ExtractError::UnsafePath { path, reason, .. }) => {
                // Checked before anything is written: the destination stays empty.
                assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
                (path, reason)
            }
            other => panic!("expected UnsafePath, got {other:?}"),
        }
    }

    #[test]
    fn refuses_paths_that_could_leave_the_folder() {
        for bad in [
            "../escape",
            "/etc/passwd",
            "a/../../b",
            "a\\b",
            "C:/x",
            "%2e%2e/x",
        ] {
            let (path, _) = refused(&skill("s", vec![file(bad, b"x", false)]));
            assert_eq!(path, bad);
        }
    }

    #[test]
    fn refuses_paths_that_are_not_normal() {
        for bad in ["./a", "a//b", "a/./b", "a/"] {
            let (path, reason) = refused(&skill("s", vec![file(bad, b"x", false)]));
            assert_eq!(
                (path.as_str(), reason),
                (bad, "it has an empty or `.` segment")
            );
        }
    }

    #[test]
    fn refuses_unsafe_skill_names() {
        for bad in ["..", "a/b", "", "/abs", "."] {
            let (path, _) = refused(&skill(bad, vec![]));
            assert_eq!(path, bad);
        }
    }

    #[test]
    fn refuses_a_file_named_like_the_marker() {
        let (_, reason) = refused(&skill("s", vec![file(MARKER, b"x", false)]));
        assert!(reason.contains("marker"));
    }

    #[test]
    fn unsafe_path_message_says_what_and_what_to_do() {
        let s = skill("s", vec![file("../x", b"x", false)]);
        let work = tempfile::tempdir().unwrap();
        let message = extract(&s, work.path()).unwrap_err().to_string();
        assert_eq!(
            message,
            "Refusing to extract \"../x\" of skill \"s\": it contains a `..` segment. A skill's \
             name must be a plain folder name and its file paths relative, made of plain names \
             separated by `/`; fix the skill."
        );
    }

    #[test]
    fn fingerprint_covers_path_bit_and_content() {
        let base = fingerprint(&skill("s", vec![file("a", b"x", false)]));
        assert_eq!(base, fingerprint(&skill("s", vec![file("a", b"x", false)])));
        // The folder is named by the skill, so the name is not part of what the folder holds.
        assert_eq!(base, fingerprint(&skill("t", vec![file("a", b"x", false)])));
        for other in [
            skill("s", vec![file("b", b"x", false)]),
            skill("s", vec![file("a", b"y", false)]),
            skill("s", vec![file("a", b"x", true)]),
            skill("s", vec![file("a", b"x", false), file("b", b"", false)]),
        ] {
            assert_ne!(base, fingerprint(&other));
        }
    }

    #[test]
    fn writes_files_and_a_marker_then_nothing() {
        let s = skill(
            "s",
            vec![
                file("bin/run", b"#!/bin/sh\n", true),
                file("a.md", b"A", false),
            ],
        );
        let work = tempfile::tempdir().unwrap();
        let out = extract(&s, work.path()).unwrap();
        assert!(out.written);
        let dir = work.path().join("s");
        assert_eq!(
            out.files,
            vec![
                dir.join("SKILL.md"),
                dir.join("a.md"),
                dir.join("bin").join("run")
            ]
        );
        assert_eq!(fs::read(dir.join("SKILL.md")).unwrap(), b"# Body\n");
        let marker = fs::read_to_string(dir.join(MARKER)).unwrap();
        assert_eq!(marker, format!("{}\n", hex(&fingerprint(&s))));
        assert!(!extract(&s, work.path()).unwrap().written);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 4, "{names:?}");
    }

    #[test]
    fn a_changed_skill_rewrites_the_marker() {
        let work = tempfile::tempdir().unwrap();
        let v1 = skill("s", vec![file("a", b"1", false)]);
        let v2 = skill("s", vec![file("a", b"2", false)]);
        extract(&v1, work.path()).unwrap();
        assert!(extract(&v2, work.path()).unwrap().written);
        let marker = fs::read_to_string(work.path().join("s").join(MARKER)).unwrap();
        assert_eq!(marker.trim_end(), hex(&fingerprint(&v2)));
        assert_eq!(fs::read(work.path().join("s/a")).unwrap(), b"2");
    }

    #[test]
    fn a_lost_marker_is_written_again() {
        let work = tempfile::tempdir().unwrap();
        let s = skill("s", vec![]);
        extract(&s, work.path()).unwrap();
        fs::remove_file(work.path().join("s").join(MARKER)).unwrap();
        assert!(extract(&s, work.path()).unwrap().written);
        assert!(work.path().join("s").join(MARKER).is_file());
    }

    #[test]
    fn a_folder_in_place_of_a_file_is_an_error() {
        let work = tempfile::tempdir().unwrap();
        fs::create_dir_all(work.path().join("s/a.md")).unwrap();
        let err = extract(&skill("s", vec![file("a.md", b"A", false)]), work.path()).unwrap_err();
        assert!(matches!(err, ExtractError::FolderInTheWay { .. }), "{err}");
        assert!(err.to_string().contains("a folder is in its place"));
    }

    #[test]
    fn a_file_in_place_of_a_folder_is_an_error() {
        let work = tempfile::tempdir().unwrap();
        fs::create_dir_all(work.path().join("s")).unwrap();
        fs::write(work.path().join("s/bin"), "not a folder").unwrap();
        let err = extract(&skill("s", vec![file("bin/run", b"x", true)]), work.path()).unwrap_err();
        match err {
            ExtractError::NotADirectory { path } => assert!(path.ends_with("s/bin")),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            fs::read(work.path().join("s/bin")).unwrap(),
            b"not a folder"
        );
    }

    #[test]
    fn a_relative_destination_gives_absolute_paths() {
        let s = skill("s", vec![]);
        let work = tempfile::tempdir().unwrap();
        // A relative path that resolves into the temp dir without changing the working directory.
        let cwd = std::env::current_dir().unwrap();
        let relative: PathBuf = cwd
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .map(|_| Component::ParentDir)
            .collect::<PathBuf>()
            .join(work.path().strip_prefix("/").unwrap_or(work.path()));
        if relative.is_relative() {
            let out = extract(&s, &relative).unwrap();
            assert!(out.dir.is_absolute());
            assert!(out.files.iter().all(|f| f.is_absolute()));
            assert!(work.path().join("s/SKILL.md").is_file());
        }
    }

    #[cfg(unix)]
    #[test]
    fn modes_are_exact_whatever_was_there() {
        use std::os::unix::fs::PermissionsExt;
        let work = tempfile::tempdir().unwrap();
        let s = skill(
            "s",
            vec![file("run", b"#!/bin/sh\n", true), file("doc", b"d", false)],
        );
        extract(&s, work.path()).unwrap();
        let dir = work.path().join("s");
        let mode = |p: &str| fs::metadata(dir.join(p)).unwrap().permissions().mode() & 0o7777;
        assert_eq!((mode("run"), mode("doc")), (0o755, 0o644));
        // A changed mode counts as a change.
        fs::set_permissions(dir.join("run"), fs::Permissions::from_mode(0o600)).unwrap();
        fs::set_permissions(dir.join("doc"), fs::Permissions::from_mode(0o777)).unwrap();
        assert!(extract(&s, work.path()).unwrap().written);
        assert_eq!((mode("run"), mode("doc")), (0o755, 0o644));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_skill_folder_is_refused() {
        let work = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), work.path().join("s")).unwrap();
        let err = extract(&skill("s", vec![]), work.path()).unwrap_err();
        assert!(matches!(err, ExtractError::Symlink { .. }), "{err}");
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_marker_is_replaced() {
        let work = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        fs::write(&secret, "keep").unwrap();
        fs::create_dir(work.path().join("s")).unwrap();
        std::os::unix::fs::symlink(&secret, work.path().join("s").join(MARKER)).unwrap();
        let s = skill("s", vec![]);
        assert!(extract(&s, work.path()).unwrap().written);
        assert_eq!(fs::read(&secret).unwrap(), b"keep");
        let marker = work.path().join("s").join(MARKER);
        assert!(fs::symlink_metadata(&marker).unwrap().is_file());
    }

    #[test]
    fn fresh_dirs_are_distinct() {
        let parent = tempfile::tempdir().unwrap();
        let parent = Folder::open_ambient(parent.path()).unwrap();
        let a = parent.fresh_child("skills-").unwrap();
        let b = parent.fresh_child("skills-").unwrap();
        assert_ne!(a.path(), b.path());
        assert!(a.path().is_dir() && b.path().is_dir());
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn marker_example() {
        let run = || {
            use crate::disk::extract::{MARKER, extract, fingerprint};
            use crate::{__private::hex, Fields, Skill};

            let skill = Skill::owned(
                Fields {
                    name: "notes".into(),
                    description: "Take notes.".into(),
                    ..Default::default()
                },
                "# Notes\n".into(),
                vec![],
            );
            let work = tempfile::tempdir()?;
            let out = extract(&skill, work.path())?;
            let marker = std::fs::read_to_string(out.dir.join(MARKER))?;
            assert_eq!(marker.trim_end(), hex(&fingerprint(&skill)));
            Ok::<(), Box<dyn std::error::Error>>(())
        };
        run().unwrap();
    }
    #[test]
    fn fingerprint_example() {
        use crate::disk::extract::fingerprint;
        use crate::{Fields, File, Skill};

        let fields = Fields {
            name: "s".into(),
            description: "d".into(),
            ..Default::default()
        };
        let script = |exec| File::owned("run.sh".into(), b"#!/bin/sh\n".to_vec(), exec);
        let a = Skill::owned(fields.clone(), "body\n".into(), vec![script(true)]);
        let b = Skill::owned(fields, "body\n".into(), vec![script(false)]);
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        assert_ne!(fingerprint(&a), fingerprint(&b));
    }
}
