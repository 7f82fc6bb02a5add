//! Embedded skills written out to disk so their scripts can run (`__private::extract`, what `Settings::with_workdir` and `skills extract` write through).

use skills_embed::tools::Settings;
use std::fs;
use std::path::{Path, PathBuf};

use skills_embed::__private::{ExtractError, Extracted, extract, extract_to_temp};
use skills_embed::__private::{MARKER, fingerprint};
use skills_embed::Skill;

skills_embed::skills!("fixtures/basic");

fn pdf() -> &'static Skill {
    SKILLS.skill(SkillId::Pdf)
}

fn work() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir for the test")
}

/// Every regular file under `dir`, relative, with `/` separators, sorted.
fn listing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap();
                let parts: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
                out.push(parts.join("/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn writes_every_file_byte_identical() {
    let work = work();
    let out = extract(pdf(), work.path()).unwrap();
    assert!(out.written);
    assert!(out.dir.is_absolute());
    assert_eq!(
        out.dir,
        std::path::absolute(work.path().join("pdf")).unwrap()
    );

    // The whole skill, not only `scripts/`: scripts rely on `references/` and `assets/`.
    let paths: Vec<&str> = pdf().paths().collect();
    assert_eq!(
        paths,
        [
            "SKILL.md",
            "assets/icon.png",
            "references/forms.md",
            "scripts/extract.sh"
        ]
    );
    let expected: Vec<PathBuf> = paths.iter().map(|p| out.dir.join(p)).collect();
    assert_eq!(out.files, expected);
    for file in pdf().files() {
        assert_eq!(
            fs::read(out.dir.join(file.path())).unwrap(),
            file.bytes(),
            "{}",
            file.path()
        );
    }
    let mut on_disk = paths.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    on_disk.push(MARKER.to_owned());
    on_disk.sort();
    assert_eq!(
        listing(&out.dir),
        on_disk,
        "nothing else, no temporary files left"
    );
}

#[test]
fn skill_md_is_the_served_body_without_frontmatter() {
    let work = work();
    let out = extract(pdf(), work.path()).unwrap();
    let written = fs::read_to_string(out.dir.join("SKILL.md")).unwrap();
    assert_eq!(written, pdf().body());
    assert!(!written.starts_with("---"));
    assert!(written.contains("scripts/extract.sh"));
}

#[test]
fn marker_holds_the_fingerprint() {
    let work = work();
    let out = extract(pdf(), work.path()).unwrap();
    let marker = fs::read_to_string(out.dir.join(MARKER)).unwrap();
    assert_eq!(
        marker,
        format!("{}\n", skills_embed::__private::hex(&fingerprint(pdf())))
    );
    assert_eq!(fingerprint(pdf()), fingerprint(pdf()));
    assert_ne!(
        fingerprint(pdf()),
        fingerprint(SKILLS.skill(SkillId::CodeReview))
    );
}

#[test]
fn skills_extract_side_by_side() {
    let work = work();
    let dirs: Vec<PathBuf> = SKILLS
        .skills()
        .iter()
        .map(|s| extract(s, work.path()).unwrap().dir)
        .collect();
    let names: Vec<_> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["code-review", "pdf"]);
    assert_eq!(listing(&dirs[0]), [MARKER, "SKILL.md"]);
}

#[test]
fn dest_is_created_if_missing() {
    let work = work();
    let dest = work.path().join("a").join("b");
    let out = extract(pdf(), &dest).unwrap();
    assert!(
        dest.join("pdf")
            .join("scripts")
            .join("extract.sh")
            .is_file()
    );
    assert!(out.dir.starts_with(std::path::absolute(&dest).unwrap()));
}

#[test]
fn dest_that_is_a_file_is_a_clear_error() {
    let work = work();
    let dest = work.path().join("dest");
    fs::write(&dest, "a file").unwrap();
    let err = extract(pdf(), &dest).unwrap_err();
    assert!(
        matches!(&err, ExtractError::NotADirectory { path } if *path == dest),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "Cannot write skill files under \"{}\": it is not a folder. Move it away, or extract \
             to another folder.",
            dest.display()
        )
    );
    assert_eq!(fs::read(&dest).unwrap(), b"a file");
}

#[test]
fn extract_to_temp_gives_a_fresh_folder_each_time() {
    let a = extract_to_temp(pdf()).unwrap();
    let b = extract_to_temp(pdf()).unwrap();
    let roots = [a.dir.parent().unwrap(), b.dir.parent().unwrap()];
    assert_ne!(roots[0], roots[1]);
    for (out, root) in [&a, &b].into_iter().zip(roots) {
        assert!(out.written, "a fresh folder always gets written");
        assert!(out.dir.is_absolute() && out.dir.ends_with("pdf"));
        assert!(root.starts_with(std::env::temp_dir()));
        assert!(out.files.iter().all(|f| f.is_file()));
    }
    for root in roots {
        fs::remove_dir_all(root).unwrap();
    }
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
    use std::process::{Command, Output};

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    /// (inode, mtime in ns) of every file: equal before and after means nothing was rewritten,
    /// since a rewrite renames a new file (a new inode) into place.
    fn stamps(out: &Extracted) -> Vec<(u64, i64, i64)> {
        out.files
            .iter()
            .chain([&out.dir.join(MARKER)])
            .map(|f| {
                let m = fs::symlink_metadata(f).unwrap();
                (m.ino(), m.mtime(), m.mtime_nsec())
            })
            .collect()
    }

    /// Runs a command; retries while the kernel says "text file busy", which a file just
    /// written can briefly be when another test thread forks at the same moment.
    fn run(command: &mut Command) -> Output {
        for _ in 0..50 {
            match command.output() {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => return other.unwrap(),
            }
        }
        panic!("still busy: {command:?}");
    }

    #[test]
    fn exec_bits_are_the_source_folders() {
        assert!(pdf().load("scripts/extract.sh").unwrap().is_executable());
        let work = work();
        let out = extract(pdf(), work.path()).unwrap();
        assert_eq!(mode(&out.dir.join("scripts/extract.sh")), 0o755);
        for plain in ["SKILL.md", "references/forms.md", "assets/icon.png", MARKER] {
            assert_eq!(mode(&out.dir.join(plain)), 0o644, "{plain}");
        }
        let check = run(Command::new("sh")
            .arg("-c")
            .arg(r#"test -x "$1" && test ! -x "$2""#)
            .arg("sh")
            .arg(out.dir.join("scripts/extract.sh"))
            .arg(out.dir.join("references/forms.md")));
        assert!(check.status.success(), "{check:?}");
    }

    #[test]
    fn the_script_runs_from_the_extracted_folder() {
        let work = work();
        let out = extract(pdf(), &work.path().join("skills")).unwrap();
        // The script calls `pdftotext`; a stand-in made here keeps the test hermetic.
        let bin = work.path().join("bin");
        fs::create_dir(&bin).unwrap();
        let stub = bin.join("pdftotext");
        fs::write(&stub, "#!/bin/sh\necho \"text of $1 to $2\"\n").unwrap();
        fs::set_permissions(&stub, fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![bin];
        dirs.extend(std::env::split_paths(&path));

        // Run directly: this needs the exec bit and the shebang line intact.
        let output = run(Command::new(out.dir.join("scripts/extract.sh"))
            .arg("input.pdf")
            .current_dir(&out.dir)
            .env("PATH", std::env::join_paths(dirs).unwrap()));
        assert!(output.status.success(), "{output:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "text of input.pdf to -\n"
        );
    }

    #[test]
    fn a_second_call_writes_nothing() {
        let work = work();
        let first = extract(pdf(), work.path()).unwrap();
        let before = stamps(&first);
        let second = extract(pdf(), work.path()).unwrap();
        assert!(!second.written);
        assert_eq!(second.dir, first.dir);
        assert_eq!(second.files, first.files);
        assert_eq!(stamps(&second), before);
    }

    #[test]
    fn changed_or_deleted_files_are_written_again() {
        let work = work();
        let out = extract(pdf(), work.path()).unwrap();
        let forms = out.dir.join("references/forms.md");
        let icon = out.dir.join("assets/icon.png");
        let script = out.dir.join("scripts/extract.sh");
        let body = out.dir.join("SKILL.md");
        let body_stamp = fs::metadata(&body).unwrap().ino();

        // Same length, so only the bytes tell.
        let original = fs::read(&forms).unwrap();
        let mut tampered = original.clone();
        tampered[0] ^= 0x20;
        fs::write(&forms, &tampered).unwrap();
        fs::remove_file(&icon).unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o644)).unwrap();

        let again = extract(pdf(), work.path()).unwrap();
        assert!(again.written);
        assert_eq!(fs::read(&forms).unwrap(), original);
        assert_eq!(
            fs::read(&icon).unwrap(),
            pdf().load("assets/icon.png").unwrap().bytes()
        );
        assert_eq!(mode(&script), 0o755);
        // What still matched was left alone.
        assert_eq!(fs::metadata(&body).unwrap().ino(), body_stamp);
        assert!(!extract(pdf(), work.path()).unwrap().written);
    }

    #[test]
    fn a_link_at_a_file_path_is_replaced_not_written_through() {
        let work = work();
        let outside = work.path().join("outside");
        fs::create_dir(&outside).unwrap();
        let secret = outside.join("secret.txt");
        fs::write(&secret, "do not touch").unwrap();
        fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
        let dest = work.path().join("dest");
        fs::create_dir_all(dest.join("pdf/scripts")).unwrap();
        let planted = dest.join("pdf/scripts/extract.sh");
        symlink(&secret, &planted).unwrap();
        // A dangling link too: writing through it would create a file outside.
        let dangling = outside.join("would-be-created");
        fs::create_dir_all(dest.join("pdf/references")).unwrap();
        symlink(&dangling, dest.join("pdf/references/forms.md")).unwrap();

        let out = extract(pdf(), &dest).unwrap();
        assert!(out.written);
        assert_eq!(fs::read(&secret).unwrap(), b"do not touch");
        assert_eq!(mode(&secret), 0o600);
        assert!(!dangling.exists());
        assert_eq!(listing(&outside), ["secret.txt"]);
        let meta = fs::symlink_metadata(&planted).unwrap();
        assert!(
            meta.is_file(),
            "the link itself was replaced by a regular file"
        );
        let script = pdf().load("scripts/extract.sh").unwrap();
        assert_eq!(fs::read(&planted).unwrap(), script.bytes());
        assert_eq!(mode(&planted), 0o755);
    }

    #[test]
    fn a_link_in_place_of_a_folder_is_refused() {
        let work = work();
        let outside = work.path().join("outside");
        fs::create_dir(&outside).unwrap();
        let dest = work.path().join("dest");
        fs::create_dir_all(dest.join("pdf")).unwrap();
        let link = dest.join("pdf/scripts");
        symlink(&outside, &link).unwrap();

        let err = extract(pdf(), &dest).unwrap_err();
        assert!(matches!(&err, ExtractError::Symlink { path } if path.ends_with("pdf/scripts")));
        let message = err.to_string();
        assert!(message.contains("is a symbolic link"), "{message}");
        assert!(message.contains("Remove the link"), "{message}");
        assert!(
            fs::read_dir(&outside).unwrap().next().is_none(),
            "nothing written outside"
        );
    }

    #[test]
    fn a_linked_destination_is_followed() {
        // `dest` is the caller's choice (on macOS the temp dir itself is behind a link).
        let work = work();
        let real = work.path().join("real");
        fs::create_dir(&real).unwrap();
        let dest = work.path().join("dest");
        symlink(&real, &dest).unwrap();
        let out = extract(pdf(), &dest).unwrap();
        assert!(out.dir.starts_with(&dest));
        assert!(real.join("pdf/scripts/extract.sh").is_file());
    }

    #[test]
    fn temp_folders_are_private() {
        let out = extract_to_temp(pdf()).unwrap();
        let root = out.dir.parent().unwrap();
        assert_eq!(mode(root), 0o700);
        fs::remove_dir_all(root).unwrap();
    }
}

/// With a work folder, the tools write a skill with scripts to disk and give the model the
/// absolute paths, in the body's answer, a script's description and the listing.
#[test]
fn tools_with_a_workdir_give_the_model_absolute_paths() {
    let work = tempfile::tempdir().unwrap();
    let tools =
        skills_embed::tools::Tools::new(&SKILLS, Settings::default().with_workdir(work.path()));
    let out = tools.handle("load_skill", r#"{"skill":"pdf"}"#);
    let dir = work.path().join("pdf");
    let script = dir.join("scripts/extract.sh");
    assert!(
        out.text.contains(&format!(
            "This skill's files are on disk at {}: run its scripts from there, e.g. {}.",
            dir.display(),
            script.display()
        )),
        "{}",
        out.text
    );
    assert!(script.is_file());
    let out = tools.handle(
        "load_skill",
        r#"{"skill":"pdf","path":"scripts/extract.sh"}"#,
    );
    assert!(
        out.text
            .contains(&format!("It is on disk at {}.", script.display())),
        "{}",
        out.text
    );
    // code-review has no scripts: nothing is written for it.
    let out = tools.handle("load_skill", r#"{"skill":"code-review"}"#);
    assert!(!out.text.contains("on disk"));
    assert!(!work.path().join("code-review").exists());
    let xml = tools.listing(&skills_embed::listing::ListingOptions {
        format: skills_embed::listing::ListingFormat::Xml,
        ..Default::default()
    });
    assert!(
        xml.contains(&format!(
            "<location>\n{}\n</location>",
            dir.join("SKILL.md").display()
        )),
        "{xml}"
    );
}
