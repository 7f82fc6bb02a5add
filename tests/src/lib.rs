//! Workspace tests, and the helpers several of them share.

use std::fs;
use std::path::Path;

/// Copies the folder `from` to `to`, recursively (files and folders only). Panics on any
/// error: it prepares a test's tree.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            fs::copy(entry.path(), dest).unwrap();
        }
    }
}
