//! Reading a file that must lie inside a root, through the handle that was checked.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

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
    let limit = cap.map_or(u64::MAX, |c| c.saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.by_ref().take(limit).read_to_end(&mut bytes)?;
    if cap.is_some_and(|c| bytes.len() as u64 > c) {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            "grew past the cap while being read",
        ));
    }
    Ok(bytes)
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
}
