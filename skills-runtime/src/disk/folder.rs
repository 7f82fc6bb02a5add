//! The one way a skill is written to disk: through opened folder handles.
//!
//! A [`Folder`] is an open handle on a real folder (cap-std's [`Dir`]). Every folder below the
//! destination is opened one plain name at a time from its parent's handle, never following a
//! symbolic link, and every file is created, compared and renamed relative to the handle of
//! the folder holding it. Swapping a folder for a link after it was opened changes nothing:
//! the writes still go to the folder that was opened, inside the destination. A link met where
//! a folder should be is refused ([`ExtractError::Symlink`]); a link where a file should be is
//! replaced by the rename, never written through.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, OpenOptions};

/// Why a skill could not be written. Each message says what was in the way and what to do.
///
/// ```
/// use skills_embed::{Fields, Skill};
/// use skills_embed::__private::{ExtractError, extract};
///
/// let skill = Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     "# Notes\n".into(),
///     vec![],
/// );
/// let work = tempfile::tempdir()?;
/// let file = work.path().join("not-a-folder");
/// std::fs::write(&file, "")?;
/// let err = extract(&skill, &file).unwrap_err();
/// assert!(matches!(err, ExtractError::NotADirectory { .. }));
/// assert!(err.to_string().contains("is not a folder"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// A file system call failed.
    #[error(
        "Could not {op} \"{}\": {source}. Check that the folder exists, is writable and has free space, or extract to another folder.",
        path.display()
    )]
    Io {
        /// What was being done, as a verb phrase ("write", "create the folder", ...).
        op: &'static str,
        /// The path it was done to.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The skill's name or one of its file paths could reach outside the skill's folder, or is
    /// not a plain relative path. Embedded skills never have one; a skill built at run time can.
    #[error(
        "Refusing to extract \"{path}\" of skill \"{skill}\": {reason}. A skill's name must be a plain folder name and its file paths relative, made of plain names separated by `/`; fix the skill."
    )]
    UnsafePath {
        /// The skill's name.
        skill: String,
        /// The refused path (the name itself when the name was refused).
        path: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// Something that is not a folder is where a folder is needed: the destination, or a folder
    /// on the way to a file.
    #[error(
        "Cannot write skill files under \"{}\": it is not a folder. Move it away, or extract to another folder.",
        path.display()
    )]
    NotADirectory {
        /// What is in the way.
        path: PathBuf,
    },
    /// A symbolic link is where a folder of the skill should be; extraction never writes through
    /// one, since it could point anywhere.
    #[error(
        "Refusing to write through \"{}\": it is a symbolic link where a folder of the skill should be, and extraction never follows one (it could point outside the destination). Remove the link (and find out what put it there), or extract to another folder.",
        path.display()
    )]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// A folder is where the skill has a file.
    #[error(
        "Cannot write \"{}\": a folder is in its place. Move the folder away, or extract to another folder.",
        path.display()
    )]
    FolderInTheWay {
        /// The folder.
        path: PathBuf,
    },
}

/// An open folder and the path it was opened at (for messages and the paths handed back).
pub(crate) struct Folder {
    dir: Dir,
    path: PathBuf,
}

/// How often a folder that keeps changing between an open and a look at it is tried again.
const REOPENS: u32 = 8;

impl Folder {
    /// Opens `path`, the caller's own choice of destination: followed if it is a link. `path`
    /// should be absolute, since it prefixes the paths handed back.
    pub(crate) fn open_ambient(path: &Path) -> Result<Folder, ExtractError> {
        let dir = Dir::open_ambient_dir(path, cap_std::ambient_authority()).map_err(|source| {
            ExtractError::Io {
                op: "open the folder",
                path: path.to_owned(),
                source,
            }
        })?;
        Ok(Folder {
            dir,
            path: path.to_owned(),
        })
    }

    /// The path this folder was opened at.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `name` in this one, created if missing, opened without following a link.
    pub(crate) fn child(&self, name: &str) -> Result<Folder, ExtractError> {
        let path = self.path.join(name);
        let io = |op, source| ExtractError::Io {
            op,
            path: path.clone(),
            source,
        };
        let mut last = None;
        for _ in 0..REOPENS {
            match self.dir.open_dir_nofollow(name) {
                Ok(dir) => return Ok(Folder { dir, path }),
                Err(e) => last = Some(e),
            }
            // Why it failed, from a look at the entry itself (error codes for a link differ
            // between systems); it may have changed since, so a folder found here is opened
            // again.
            match self.dir.symlink_metadata(name) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(ExtractError::Symlink { path });
                }
                Ok(meta) if !meta.is_dir() => return Err(ExtractError::NotADirectory { path }),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => match self.dir.create_dir(name) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(io("create the folder", e)),
                },
                Err(e) => return Err(io("inspect", e)),
            }
        }
        Err(io(
            "open the folder",
            last.unwrap_or_else(|| io::Error::other("it kept changing")),
        ))
    }

    /// A new folder in this one, readable by the current user only on Unix, with a name no
    /// other call or process got (`prefix` and a random part).
    pub(crate) fn fresh_child(&self, prefix: &str) -> Result<Folder, ExtractError> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o700));
        }
        let created = builder
            .tempdir_in(&self.path)
            .map_err(|source| ExtractError::Io {
                op: "create a fresh folder in",
                path: self.path.clone(),
                source,
            })?;
        let path = created.keep();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        // Opened from this folder's handle, so a link swapped in for it is refused.
        self.child(name)
    }

    /// The regular file `name` in this folder (never read through a link), or `None` when it
    /// is missing, a link or anything else that is not a regular file; a folder in its place
    /// is an error, since writing cannot replace it.
    pub(crate) fn file(&self, name: &str) -> Result<Option<std::fs::File>, ExtractError> {
        match self.dir.symlink_metadata(name) {
            Ok(meta) if meta.is_dir() => {
                return Err(ExtractError::FolderInTheWay {
                    path: self.path.join(name),
                });
            }
            Ok(meta) if meta.is_file() => {}
            // Missing, a link, or unreadable: writing it again either fixes it or reports a
            // clear error.
            _ => return Ok(None),
        }
        let opened = self.dir.open_with(
            name,
            OpenOptions::new().read(true).follow(FollowSymlinks::No),
        );
        let Ok(file) = opened.map(cap_std::fs::File::into_std) else {
            return Ok(None);
        };
        // Checked on the handle: what was opened is what is compared.
        Ok(file
            .metadata()
            .is_ok_and(|meta| meta.is_file())
            .then_some(file))
    }

    /// Whether `name` is a regular file (not a link) holding exactly `bytes`, with the mode
    /// `executable` asks for.
    pub(crate) fn holds(
        &self,
        name: &str,
        bytes: &[u8],
        executable: bool,
    ) -> Result<bool, ExtractError> {
        let Some(file) = self.file(name)? else {
            return Ok(false);
        };
        let Ok(meta) = file.metadata() else {
            return Ok(false);
        };
        if meta.len() != bytes.len() as u64 || !mode_is(&meta, executable) {
            return Ok(false);
        }
        // Compare the bytes, not a timestamp: an edit within the same second and size must be
        // seen. One byte more than expected is read, so a file that grew is seen too.
        let mut on_disk = Vec::with_capacity(bytes.len());
        let read = file.take(bytes.len() as u64 + 1).read_to_end(&mut on_disk);
        Ok(read.is_ok() && on_disk == bytes)
    }

    /// Writes `bytes` to a new file in this folder, then renames it over `name`: a rename
    /// replaces a link at `name` instead of writing through it, and readers never see a
    /// half-written file.
    pub(crate) fn replace(
        &self,
        name: &str,
        bytes: &[u8],
        executable: bool,
    ) -> Result<(), ExtractError> {
        let target = self.path.join(name);
        let io = |op, source| ExtractError::Io {
            op,
            path: target.clone(),
            source,
        };
        // Unnamed (O_TMPFILE) where the system has it, else a new random name: never a link
        // someone planted. Dropped on an error, it removes itself.
        let mut temp = cap_tempfile::TempFile::new(&self.dir).map_err(|e| io("create", e))?;
        temp.write_all(bytes).map_err(|e| io("write", e))?;
        set_mode(temp.as_file(), executable).map_err(|e| io("set permissions on", e))?;
        temp.replace(name).map_err(|e| io("replace", e))
    }
}

/// What stands at a name in a folder, looked at without following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Missing,
    Folder,
    Link,
    /// A file, or anything else that is not a folder or a link.
    File,
}

/// A file read from a folder tree: its `/`-separated path, executable bit and bytes.
pub(crate) type TreeFile = (String, bool, Vec<u8>);

impl Folder {
    /// What stands at `name` in this folder, never following a link.
    pub(crate) fn kind(&self, name: &str) -> Result<Kind, ExtractError> {
        match self.dir.symlink_metadata(name) {
            Ok(meta) if meta.file_type().is_symlink() => Ok(Kind::Link),
            Ok(meta) if meta.is_dir() => Ok(Kind::Folder),
            Ok(_) => Ok(Kind::File),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Kind::Missing),
            Err(source) => Err(ExtractError::Io {
                op: "inspect",
                path: self.path.join(name),
                source,
            }),
        }
    }

    /// The folder `name` in this one when it exists and is a real folder (never a link, never
    /// created).
    pub(crate) fn existing(&self, name: &str) -> Result<Option<Folder>, ExtractError> {
        match self.dir.open_dir_nofollow(name) {
            Ok(dir) => Ok(Some(Folder {
                dir,
                path: self.path.join(name),
            })),
            Err(_) if self.kind(name)? != Kind::Folder => Ok(None),
            Err(source) => Err(ExtractError::Io {
                op: "open the folder",
                path: self.path.join(name),
                source,
            }),
        }
    }

    /// The names in this folder that are valid UTF-8, sorted.
    pub(crate) fn names(&self) -> Result<Vec<String>, ExtractError> {
        let io = |source| ExtractError::Io {
            op: "list",
            path: self.path.clone(),
            source,
        };
        let mut names = Vec::new();
        for entry in self.dir.entries().map_err(io)? {
            if let Some(name) = entry.map_err(io)?.file_name().to_str() {
                names.push(name.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// Every regular file below this folder, sorted by path, read through handles without
    /// following a link; `None` when a link or anything but files and folders is found, the
    /// tree is deeper than 16 folders, or it holds more than `max_bytes` (such a tree was not
    /// written by an installer, which writes plain files only).
    pub(crate) fn read_tree(&self, max_bytes: u64) -> Result<Option<Vec<TreeFile>>, ExtractError> {
        let mut files = Vec::new();
        let mut budget = max_bytes;
        if !self.read_into("", 0, &mut budget, &mut files)? {
            return Ok(None);
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(files))
    }

    fn read_into(
        &self,
        prefix: &str,
        depth: usize,
        budget: &mut u64,
        files: &mut Vec<TreeFile>,
    ) -> Result<bool, ExtractError> {
        if depth > 16 {
            return Ok(false);
        }
        for name in self.names()? {
            let path = format!("{prefix}{name}");
            match self.kind(&name)? {
                Kind::Folder => match self.existing(&name)? {
                    Some(child) => {
                        if !child.read_into(&format!("{path}/"), depth + 1, budget, files)? {
                            return Ok(false);
                        }
                    }
                    None => return Ok(false),
                },
                Kind::File => {
                    let Some(file) = self.file(&name)? else {
                        return Ok(false);
                    };
                    let Ok(meta) = file.metadata() else {
                        return Ok(false);
                    };
                    if meta.len() > *budget {
                        return Ok(false);
                    }
                    let mut bytes = Vec::with_capacity(meta.len() as usize);
                    file.take(*budget + 1)
                        .read_to_end(&mut bytes)
                        .map_err(|source| ExtractError::Io {
                            op: "read",
                            path: self.path.join(&name),
                            source,
                        })?;
                    if bytes.len() as u64 > *budget {
                        return Ok(false);
                    }
                    *budget -= bytes.len() as u64;
                    files.push((path, is_executable(&meta), bytes));
                }
                Kind::Link | Kind::Missing => return Ok(false),
            }
        }
        Ok(true)
    }

    /// Renames `from` in this folder to `to` in `dest` (both opened handles; a link is moved
    /// as a link, never followed).
    pub(crate) fn rename(&self, from: &str, dest: &Folder, to: &str) -> Result<(), ExtractError> {
        self.dir
            .rename(from, &dest.dir, to)
            .map_err(|source| ExtractError::Io {
                op: "rename",
                path: self.path.join(from),
                source,
            })
    }

    /// Removes `name` from this folder: a folder with everything in it (links inside are
    /// removed, not followed), or a file or link.
    pub(crate) fn remove(&self, name: &str) -> Result<(), ExtractError> {
        let result = match self.kind(name)? {
            Kind::Missing => return Ok(()),
            Kind::Folder => self.dir.remove_dir_all(name),
            Kind::Link | Kind::File => self.dir.remove_file(name),
        };
        result.map_err(|source| ExtractError::Io {
            op: "remove",
            path: self.path.join(name),
            source,
        })
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn mode(executable: bool) -> u32 {
    if executable { 0o755 } else { 0o644 }
}

#[cfg(unix)]
fn mode_is(meta: &std::fs::Metadata, executable: bool) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777 == mode(executable)
}

#[cfg(not(unix))]
fn mode_is(_: &std::fs::Metadata, _: bool) -> bool {
    true
}

#[cfg(unix)]
fn set_mode(file: &cap_std::fs::File, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    // Set on the open file, not by path, and after creation, so the umask cannot change it.
    let mode = std::fs::Permissions::from_mode(mode(executable));
    file.set_permissions(cap_std::fs::Permissions::from_std(mode))
}

#[cfg(not(unix))]
fn set_mode(_: &cap_std::fs::File, _: bool) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_folder_swapped_for_a_link_after_opening_keeps_the_writes() {
        let work = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = Folder::open_ambient(work.path()).unwrap();
        let scripts = root.child("scripts").unwrap();
        std::fs::rename(work.path().join("scripts"), work.path().join("parked")).unwrap();
        std::os::unix::fs::symlink(outside.path(), work.path().join("scripts")).unwrap();
        scripts.replace("run.sh", b"#!/bin/sh\n", true).unwrap();
        assert!(work.path().join("parked/run.sh").is_file());
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        // Opened again, the link is refused.
        let err = root.child("scripts").err().unwrap();
        assert!(matches!(err, ExtractError::Symlink { .. }), "{err}");
    }
}
