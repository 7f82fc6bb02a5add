//! Compile-time behaviour of `skills!`, pinned by trybuild `.stderr` snapshots.
//!
//! trybuild compiles each case as its own crate under `target/tests/`, so the macro would look
//! for fixtures there. `SKILLS_EMBED_BASE_DIR` points it back at this crate; the messages
//! show paths relative to it, so the snapshots hold no machine paths.
//!
//! Fixtures git cannot hold portably or should not hold at all (non-UTF-8 file and folder names,
//! a FIFO, a socket, a 10 MB SKILL.md, an alias bomb, 64 nested folders, a folder where SKILL.md
//! should be) are made under `generated/` (ignored by git) before the cases compile.
//!
//! A file that cannot be read is simulated by a folder named `SKILL.md`, a FIFO and a dangling
//! link (`fixtures/fail/broken-symlink`): CI runs as root, which reads a `chmod 000` file anyway.

use std::fs;
use std::io::Write;
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

    // A skill folder whose name is not UTF-8: its name cannot match the folder's.
    let dir = generated
        .join("non-utf8-folder")
        .join(OsStr::from_bytes(b"dem\xff"));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), VALID).unwrap();

    // A socket beside a skill: skipped with a warning, like a FIFO.
    let dir = skill(&generated.join("socket"));
    drop(std::os::unix::net::UnixListener::bind(dir.join("sock")).unwrap());

    // A 10 MB SKILL.md: refused by size before it is read or parsed.
    let dir = generated.join("huge-skill-md/demo");
    fs::create_dir_all(&dir).unwrap();
    let line = "A line of a body that goes on and on and on and on and on and on and on.\n";
    let body = line.repeat(10_000_000 / line.len() + 1);
    fs::write(dir.join("SKILL.md"), format!("{VALID}{body}")).unwrap();

    // A YAML alias bomb: nine levels of nine aliases would expand to 387 million values.
    let dir = generated.join("alias-bomb/demo");
    fs::create_dir_all(&dir).unwrap();
    let mut yaml = String::from(
        "name: demo\ndescription: Does a thing.\nmetadata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n",
    );
    for level in 1..9 {
        let previous = format!("*a{}", level - 1);
        let list = [previous.as_str(); 9].join(", ");
        yaml.push_str(&format!("  a{level}: &a{level} [{list}]\n"));
    }
    fs::write(dir.join("SKILL.md"), format!("---\n{yaml}---\nBody.\n")).unwrap();

    // 64 nested folders: a skill at the bottom (broken, so its diagnostic proves it was
    // reached) and a resource at the bottom of a good skill.
    let mut deep = generated.join("deep");
    let mut resource = skill(&deep);
    for _ in 0..64 {
        deep.push("d");
        resource.push("r");
    }
    fs::create_dir_all(&resource).unwrap();
    fs::write(resource.join("bottom.md"), "The bottom.\n").unwrap();
    let bottom = deep.join("bottom");
    fs::create_dir_all(&bottom).unwrap();
    fs::write(
        bottom.join("SKILL.md"),
        "---\nname: bottom\n---\nNo description.\n",
    )
    .unwrap();

    // A folder where SKILL.md should be: reported, not silently skipped.
    skill(&generated.join("manifest-is-folder"));
    fs::create_dir_all(generated.join("manifest-is-folder/broken/SKILL.md")).unwrap();
}

#[test]
fn ui() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    // SAFETY: set before trybuild starts any thread or child process; this binary has no other test.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("SKILLS_EMBED_BASE_DIR", base);
    }
    #[cfg(unix)]
    generate(base);
    // trybuild first checks this crate's dependencies again in a target folder of its own,
    // which takes minutes on a cold machine with nothing printed. Written to stderr directly,
    // not through `eprintln!`, so the test harness does not hold it back.
    let cases = fs::read_dir(base.join("ui/fail")).map_or(0, |d| d.count()) / 2;
    let _ = writeln!(
        std::io::stderr(),
        "ui: trybuild builds {cases} compile-fail cases and the pass cases under \
         target/tests/trybuild (dependencies first: minutes when cold)"
    );
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
