//! Skill archives and the well-known index built from a set (`package::Archive`): the same
//! bytes for the same skills, the layout and modes read back with the `zip` crate, the upload
//! limits, and the index's digests computed again from the files written.

use std::fs;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};
use skills_embed::listing::ListingFormat;
use skills_embed::package::{Archive, ArchiveError};
use skills_embed::parse::ScanOptions;
use skills_embed::{Fields, File, Skill, SkillSet};

skills_embed::skills!("fixtures/basic");

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn loaded(root: &Path) -> SkillSet {
    let (set, problems) =
        skills_embed::load::set(root, &ScanOptions::default(), &ListingFormat::Markdown);
    assert!(problems.iter().all(|p| !p.is_error()), "{problems:?}");
    set
}

/// Each entry of a zip: name, modification time, Unix mode and content.
fn entries(bytes: &[u8]) -> Vec<(String, String, u32, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).unwrap();
            let time = entry
                .last_modified()
                .map(|t| t.to_string())
                .unwrap_or_default();
            let mode = entry.unix_mode().unwrap() & 0o7777;
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            (entry.name().to_owned(), time, mode, content)
        })
        .collect()
}

fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

#[test]
fn an_embedded_set_and_the_same_folder_loaded_give_the_same_bytes_every_time() {
    let embedded = Archive::new(&SKILLS).bytes().unwrap();
    assert_eq!(embedded, Archive::new(&SKILLS).bytes().unwrap());
    let names: Vec<&str> = embedded.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["code-review.zip", "pdf.zip"]);
    let from_disk = Archive::new(&loaded(&fixture("basic"))).bytes().unwrap();
    assert_eq!(embedded, from_disk);
}

#[test]
fn the_order_files_were_written_on_disk_changes_nothing() {
    let files = [
        (
            "SKILL.md",
            "---\nname: notes\ndescription: Take notes.\n---\nSee [a](references/a.md) and [b](references/b.md).\n",
        ),
        ("references/a.md", "A\n"),
        ("references/b.md", "B\n"),
        ("assets/x.txt", "x\n"),
    ];
    let write = |order: &[usize]| {
        let root = tempfile::tempdir().unwrap();
        for &i in order {
            let (path, text) = files[i];
            let path = root.path().join("notes").join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        root
    };
    let first = write(&[0, 1, 2, 3]);
    let second = write(&[3, 2, 1, 0]);
    let a = Archive::new(&loaded(first.path())).bytes().unwrap();
    let b = Archive::new(&loaded(second.path())).bytes().unwrap();
    assert_eq!(a, b);
}

#[test]
fn one_top_level_folder_fixed_times_and_modes() {
    let archives = Archive::new(&SKILLS).bytes().unwrap();
    let pdf = &archives.iter().find(|(n, _)| n == "pdf.zip").unwrap().1;
    let listing: Vec<(String, String, u32)> = entries(pdf)
        .into_iter()
        .map(|(name, time, mode, _)| (name, time, mode))
        .collect();
    let epoch = "1980-01-01 00:00:00".to_owned();
    let row = |name: &str, mode| (name.to_owned(), epoch.clone(), mode);
    assert_eq!(
        listing,
        [
            row("pdf/", 0o755),
            row("pdf/SKILL.md", 0o644),
            row("pdf/assets/", 0o755),
            row("pdf/assets/icon.png", 0o644),
            row("pdf/references/", 0o755),
            row("pdf/references/forms.md", 0o644),
            row("pdf/scripts/", 0o755),
            row("pdf/scripts/extract.sh", 0o755),
        ]
    );
    // SKILL.md is whole: the frontmatter written from the fields, then the body.
    let skill_md = entries(pdf)
        .into_iter()
        .find(|e| e.0 == "pdf/SKILL.md")
        .unwrap()
        .3;
    let text = String::from_utf8(skill_md).unwrap();
    assert!(text.starts_with("---\nname: \"pdf\"\n"), "{text}");
    assert!(text.ends_with(SKILLS.get("pdf").unwrap().body()));
    // Every entry deflated (folders stored, empty).
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(pdf.as_slice())).unwrap();
    let file = zip.by_name("pdf/SKILL.md").unwrap();
    assert_eq!(file.compression(), zip::CompressionMethod::Deflated);
}

#[test]
fn a_shebang_makes_a_file_executable_in_the_archive() {
    let skill = Skill::owned(
        Fields {
            name: "run".into(),
            description: "Runs.".into(),
            ..Default::default()
        },
        "Run `tool`.\n".into(),
        vec![
            File::owned(
                "tool".into(),
                b"#!/usr/bin/env python3\nprint(1)\n".to_vec(),
                false,
            ),
            File::owned("notes.txt".into(), b"#not a shebang\n".to_vec(), false),
        ],
    );
    let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    let modes: Vec<(String, u32)> = entries(&Archive::new(&set).bytes().unwrap()[0].1)
        .into_iter()
        .map(|(name, _, mode, _)| (name, mode))
        .collect();
    assert_eq!(
        modes,
        [
            ("run/".to_owned(), 0o755),
            ("run/SKILL.md".to_owned(), 0o644),
            ("run/notes.txt".to_owned(), 0o644),
            ("run/tool".to_owned(), 0o755),
        ]
    );
}

#[test]
fn one_archive_for_the_set_holds_each_skill_folder() {
    let archives = Archive::new(&SKILLS).whole_set("team").bytes().unwrap();
    assert_eq!(archives.len(), 1);
    assert_eq!(archives[0].0, "team.zip");
    let tops: std::collections::BTreeSet<String> = entries(&archives[0].1)
        .into_iter()
        .map(|e| e.0.split('/').next().unwrap().to_owned())
        .collect();
    assert_eq!(tops.into_iter().collect::<Vec<_>>(), ["code-review", "pdf"]);
    let err = Archive::new(&SKILLS).whole_set("../x").bytes().unwrap_err();
    assert!(matches!(err, ArchiveError::UnsafePath { .. }), "{err}");
}

#[test]
fn over_the_upload_limits_is_an_error_naming_the_skill_its_size_and_the_limit() {
    let skill = |name: &str, files: Vec<File>| {
        Skill::owned(
            Fields {
                name: name.into(),
                description: "Big.".into(),
                ..Default::default()
            },
            String::new(),
            files,
        )
    };
    let big = skill(
        "big",
        vec![File::owned(
            "assets/blob.bin".into(),
            vec![7; 8_000_001],
            false,
        )],
    );
    let set = SkillSet::from_skills(vec![big], &ListingFormat::Markdown);
    let err = Archive::new(&set).bytes().unwrap_err();
    let ArchiveError::TooLarge {
        skill: who,
        size,
        limit,
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!((who.as_str(), *limit), ("big", 8_000_000));
    assert!(*size > 8_000_001, "SKILL.md counts too: {size}");
    let message = err.to_string();
    assert!(
        message.contains("\"big\"") && message.contains("8,000,000"),
        "{message}"
    );
    assert!(
        message.contains("https://platform.claude.com/"),
        "{message}"
    );
    // Nothing is written when a skill is refused.
    let out = tempfile::tempdir().unwrap();
    assert!(Archive::new(&set).write(out.path()).is_err());
    assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0);

    let many = (0..500)
        .map(|i| File::owned(format!("r/{i}.md"), b"x".to_vec(), false))
        .collect();
    let set = SkillSet::from_skills(vec![skill("many", many)], &ListingFormat::Markdown);
    let err = Archive::new(&set).bytes().unwrap_err();
    assert!(
        matches!(err, ArchiveError::TooManyFiles { files: 501, limit: 500, ref skill } if skill == "many"),
        "{err}"
    );
}

#[test]
fn the_written_archives_are_the_bytes_with_their_sizes_and_digests() {
    let out = tempfile::tempdir().unwrap();
    let written = Archive::new(&SKILLS)
        .write(&out.path().join("dist"))
        .unwrap();
    for (artifact, (name, bytes)) in written.iter().zip(Archive::new(&SKILLS).bytes().unwrap()) {
        assert_eq!(artifact.path, out.path().join("dist").join(&name));
        let on_disk = fs::read(&artifact.path).unwrap();
        assert_eq!(on_disk, bytes);
        assert_eq!(artifact.size, on_disk.len() as u64);
        assert_eq!(artifact.sha256, sha256(&on_disk));
    }
}

#[test]
fn the_well_known_index_names_one_artifact_per_skill_with_its_digest() {
    let site = tempfile::tempdir().unwrap();
    let written = Archive::new(&SKILLS).well_known(site.path()).unwrap();
    let base = site.path().join(".well-known/agent-skills");
    assert_eq!(written[0].path, base.join("index.json"));
    let index: serde_json::Value =
        serde_json::from_slice(&fs::read(base.join("index.json")).unwrap()).unwrap();
    // The RFC's revision of 2026-03-12: `$schema`, no `version`, no per-file lists.
    assert_eq!(
        index["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    assert!(index.get("version").is_none(), "{index}");
    let skills = index["skills"].as_array().unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["code-review", "pdf"]);
    for skill in skills {
        let name = skill["name"].as_str().unwrap();
        assert_eq!(
            skill["description"],
            SKILLS.get(name).unwrap().description()
        );
        assert!(skill.get("files").is_none() && skill.get("package").is_none());
        let url = skill["url"].as_str().unwrap();
        let artifact = fs::read(base.join(url)).unwrap();
        assert_eq!(skill["digest"], sha256(&artifact).as_str(), "{name}");
    }
    // SKILL.md alone: the file itself.
    assert_eq!(skills[0]["type"], "skill-md");
    assert_eq!(skills[0]["url"], "code-review/SKILL.md");
    // More files: a zip with SKILL.md at its root, each entry the file served beside it.
    assert_eq!(skills[1]["type"], "archive");
    assert_eq!(skills[1]["url"], "pdf.zip");
    let zip = fs::read(base.join("pdf.zip")).unwrap();
    let listed = entries(&zip);
    assert_eq!(listed[0].0, "SKILL.md");
    assert!(
        listed.iter().all(|(e, ..)| !e.starts_with("pdf/")),
        "{listed:?}"
    );
    for (entry, _, _, content) in &listed {
        if !entry.ends_with('/') {
            assert_eq!(
                content,
                &fs::read(base.join("pdf").join(entry)).unwrap(),
                "{entry}"
            );
        }
    }
    // The same set written again gives the same index and archive, byte for byte.
    let again = tempfile::tempdir().unwrap();
    Archive::new(&loaded(&fixture("basic")))
        .well_known(again.path())
        .unwrap();
    let again = again.path().join(".well-known/agent-skills");
    assert_eq!(
        fs::read(base.join("index.json")).unwrap(),
        fs::read(again.join("index.json")).unwrap()
    );
    assert_eq!(zip, fs::read(again.join("pdf.zip")).unwrap());
}

#[test]
fn a_path_the_index_does_not_allow_is_refused() {
    let skill = Skill::owned(
        Fields {
            name: "odd".into(),
            description: "Odd.".into(),
            ..Default::default()
        },
        String::new(),
        vec![File::owned("a#b.md".into(), b"x".to_vec(), false)],
    );
    let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    let site = tempfile::tempdir().unwrap();
    let err = Archive::new(&set).well_known(site.path()).unwrap_err();
    assert!(
        matches!(err, ArchiveError::UnsafePath { ref path, .. } if path == "a#b.md"),
        "{err}"
    );
    assert!(err.to_string().contains("printable ASCII"), "{err}");
}

#[test]
fn the_well_known_folder_reads_back_through_the_index_reader() {
    use skills_embed::package::IndexReader;
    let site = tempfile::tempdir().unwrap();
    Archive::new(&SKILLS).well_known(site.path()).unwrap();
    let fetched = IndexReader::new(site.path().to_str().unwrap())
        .read(|url, _| Err(format!("no network here ({url})")))
        .unwrap();
    assert!(fetched.refused.is_empty() && !fetched.unverified);
    for skill in SKILLS.skills() {
        let read = fetched.set.get(skill.name()).unwrap();
        assert_eq!(read.description(), skill.description());
        let paths: Vec<&str> = skill.paths().collect();
        assert_eq!(read.paths().collect::<Vec<_>>(), paths, "{}", skill.name());
        for path in paths.iter().filter(|p| **p != "SKILL.md") {
            assert_eq!(
                read.load(path).unwrap().bytes(),
                skill.load(path).unwrap().bytes(),
                "{path}"
            );
        }
    }
}
