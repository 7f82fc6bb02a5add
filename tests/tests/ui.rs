//! Compile-time behaviour of `skills!`, pinned by trybuild `.stderr` snapshots.
//!
//! trybuild compiles each case as its own crate under `target/tests/`, so the macro would look
//! for fixtures there. `SKILLS_MACRO_TEST_BASE_DIR` points it back at this crate; the messages
//! show paths relative to it, so the snapshots hold no machine paths.
//!
//! Fixtures git cannot hold portably (non-UTF-8 file names, a FIFO) are made under
//! `generated/` (ignored by git) before the cases compile.

use std::fs;
use std::path::Path;

const VALID: &str = "---\nname: demo\ndescription: Does a thing. Use when asked.\n---\nBody.\n";

fn skill(root: &Path) -> std::path::PathBuf {
    let dir = root.join("demo");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), VALID).unwrap();
    dir
}

#[cfg(unix)]
fn generate(base: &Path) {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let generated = base.join("generated");
    let _ = fs::remove_dir_all(&generated);

    let dir = skill(&generated.join("non-utf8-names"));
    fs::write(dir.join(OsStr::from_bytes(b"bad\xff.md")), "text").unwrap();

    let dir = skill(&generated.join("fifo"));
    let status = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe"))
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo failed");
}

#[test]
fn ui() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    // SAFETY: set before trybuild starts any thread or child process; this binary has no other test.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("SKILLS_MACRO_TEST_BASE_DIR", base);
    }
    #[cfg(unix)]
    generate(base);
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
