//! A table of hostile paths (issue 5), each sent to the skill `target` of the `hostile` fixtures:
//! `..` in every position, absolute, drive and UNC paths, backslashes, NUL and control
//! characters, percent-encoded and overlong-UTF-8 dots, Unicode look-alike dots and slashes,
//! trailing dots and spaces, very long paths, and paths to another skill, to the skills root and
//! to another skill's SKILL.md.
//!
//! Every entry must be refused (`InvalidPath`), be a miss that lists the skill's files
//! (`FileNotFound`), or, for the few that normalise to a real file of `target`, give exactly
//! that file's bytes: never the bytes of another file, another skill, or anything outside the
//! root. The table runs against the embedded set, a disk set (scan + load), discovery with an
//! overlay, and disk trees holding symbolic links to another skill, to the root and out of it
//! (followed and not followed), directly and through the tool handler.
//!
//! Overlong UTF-8 cannot reach the library as bytes: every entry point takes `&str`, so such a
//! path arrives percent-encoded (refused), as the replacement characters of a lossy decoding,
//! or as its Latin-1 reading (`À®`); all three forms are in the table.

use skills_embed::tools::Settings;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;
use skills_embed::__private::check;
use skills_embed::__private::split;
use skills_embed::disk::Discovery;
use skills_embed::disk::Overlay;
use skills_embed::parse::{Profile, Rule, ScanOptions};
use skills_embed::{SkillError, SkillSet, listing::ListingFormat, tools::Tools};

skills_embed::skills!("fixtures/hostile");

const SELF: &str = "SENTINEL-SELF";
const OTHER: &str = "SENTINEL-OTHER";
const OUTSIDE: &str = "SENTINEL-OUTSIDE";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hostile")
}

/// The table: a few templates times a few targets, plus single entries. Distinct after dedup.
fn hostile_paths() -> Vec<String> {
    let targets = [
        "SKILL.md",
        "references/guide.md",
        "other/SKILL.md",
        "other/secret.md",
        "etc/passwd",
        "outside/secret.md",
    ];
    let templates = [
        // `..` first, in the middle, last, alone, doubled, behind `.` and empty segments.
        "../{t}",
        "../../{t}",
        "../../../../../../../../{t}",
        "./../{t}",
        ".././{t}",
        "..//{t}",
        "a/../{t}",
        "references/../../{t}",
        "references/./../../{t}",
        "a/b/../../../{t}",
        "{t}/..",
        "{t}/../..",
        "{t}/../../x",
        "../target/{t}",
        // Absolute, drive, UNC and URL-ish forms.
        "/{t}",
        "//{t}",
        "///{t}",
        "/./{t}",
        "/../{t}",
        "C:/{t}",
        "c:{t}",
        "C:\\{t}",
        "Z:..\\{t}",
        "\\\\server\\share\\{t}",
        "//server/share/{t}",
        "\\\\?\\C:\\{t}",
        "\\\\.\\{t}",
        "file:///{t}",
        "~/{t}",
        // Backslashes.
        "..\\{t}",
        "..\\..\\{t}",
        ".\\{t}",
        "a\\..\\..\\{t}",
        "{t}\\",
        // Percent-encoded and overlong-UTF-8 dots and slashes.
        "%2e%2e/{t}",
        "%2E%2E/{t}",
        ".%2e/{t}",
        "..%2f{t}",
        "..%2F{t}",
        "%2e%2e%2f{t}",
        "%2e%2e%5c{t}",
        "%252e%252e/{t}",
        "%c0%ae%c0%ae/{t}",
        "%e0%80%ae%e0%80%ae/{t}",
        "..%c0%af{t}",
        "{t}%00",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}/{t}",
        "À®À®/{t}",
        // Look-alike dots (one-dot leader, fullwidth, ideographic, small, halfwidth ideographic)
        // and look-alike slashes (division, fraction, fullwidth, big solidus, fullwidth reverse).
        "\u{2024}\u{2024}/{t}",
        "\u{FF0E}\u{FF0E}/{t}",
        "\u{3002}\u{3002}/{t}",
        "\u{FE52}\u{FE52}/{t}",
        "\u{FF61}\u{FF61}/{t}",
        "\u{2025}/{t}",
        "..\u{2215}{t}",
        "..\u{2044}{t}",
        "..\u{FF0F}{t}",
        "..\u{29F8}{t}",
        "..\u{FF3C}{t}",
        "\u{FF0E}\u{FF0E}\u{FF0F}{t}",
        // Trailing dots and spaces, Windows aliases.
        "{t}.",
        "{t}..",
        "{t} ",
        "{t}. ",
        "{t}::$DATA",
        " {t}",
    ];
    let mut table = BTreeSet::new();
    for template in templates {
        for target in targets {
            table.insert(template.replace("{t}", target));
        }
    }
    let singles = [
        // The skills root and the folders around it.
        "",
        ".",
        "./",
        "/",
        "..",
        "../",
        "../..",
        "...",
        "./.",
        "//",
        // Another skill, its SKILL.md, the root by the fixtures' own names.
        "other",
        "other/",
        "target",
        "target/SKILL.md",
        "hostile/other/SKILL.md",
        "fixtures/hostile/other/secret.md",
        "../../fixtures/hostile/other/secret.md",
        "./other/../SKILL.md",
        // Case, 8.3 and trailing forms of real files.
        "skill.md",
        "SKILL.MD",
        "SKILL~1.MD",
        "references./guide.md",
        "references /guide.md",
        "references/guide.md/.",
        "references/guide.md/",
        ".. /SKILL.md",
        ". ./SKILL.md",
        "dots..md",
        "dots../md",
        // NUL and control characters.
        "\0",
        "SKILL.md\0",
        "SKILL.md\0.png",
        "a\nb",
        "SKILL.md\n",
        "\r",
        "\t",
        "\u{7f}",
        "\u{1b}[31mSKILL.md",
        // Names that are only slashes and dots in other scripts.
        "\u{2215}",
        "\u{FF0F}",
        "\u{FF0E}",
        "\u{2024}",
    ];
    table.extend(singles.map(str::to_owned));
    // Very long paths.
    table.insert(format!("{}SKILL.md", "a/".repeat(5_000)));
    table.insert(format!("{}SKILL.md", "../".repeat(3_000)));
    table.insert(format!("{}SKILL.md", "./".repeat(20_000)));
    table.insert("x".repeat(100_000));
    table.insert("%2e".repeat(5_000));
    table.insert("é".repeat(10_000));
    table.insert(format!("{}/SKILL.md", "\u{FF0E}".repeat(4_000)));
    table.into_iter().collect()
}

/// What `target` serves at a normal path, read straight from a skill folder.
fn expected_bytes(skill_dir: &Path, normal: &str) -> Option<Vec<u8>> {
    let path = skill_dir.join(normal);
    let bytes = fs::read(path).ok()?;
    if normal == "SKILL.md" {
        let text = String::from_utf8(bytes).ok()?;
        let body_start = split(&text).ok()?.body_start;
        return Some(text.as_bytes()[body_start..].to_vec());
    }
    Some(bytes)
}

#[derive(Debug, Default)]
struct Tally {
    refused: usize,
    missed: usize,
    hits: BTreeSet<String>,
}

/// Sends every entry to `target` in `set`, directly and through the handler.
fn probe(label: &str, set: &SkillSet, skill_dir: &Path, may_hold_other: &[&str]) -> Tally {
    let table = hostile_paths();
    let target = set.get("target").unwrap_or_else(|e| panic!("{label}: {e}"));
    let listed: Vec<String> = target.paths().map(str::to_owned).collect();
    let tools = Tools::new(set.clone(), Settings::default());
    let mut tally = Tally::default();
    for raw in &table {
        let shown = raw.chars().take(60).collect::<String>();
        match target.load(raw) {
            Ok(file) => {
                let normal = check(raw).unwrap().to_string();
                assert_eq!(file.path(), normal, "{label}: {shown:?}");
                let expected = expected_bytes(skill_dir, &normal);
                assert_eq!(
                    Some(file.bytes()),
                    expected.as_deref(),
                    "{label}: {shown:?} gave other bytes than {normal}"
                );
                let text = String::from_utf8_lossy(file.bytes());
                assert!(!text.contains(OUTSIDE), "{label}: {shown:?}");
                if !may_hold_other.contains(&normal.as_str()) {
                    assert!(
                        text.contains(SELF) && !text.contains(OTHER),
                        "{label}: {shown:?}"
                    );
                }
                tally.hits.insert(normal);
            }
            Err(SkillError::InvalidPath { available, .. }) => {
                assert_eq!(available, listed, "{label}: {shown:?}");
                tally.refused += 1;
            }
            Err(SkillError::FileNotFound { available, .. }) => {
                assert_eq!(available, listed, "{label}: {shown:?}");
                tally.missed += 1;
            }
            Err(e) => panic!("{label}: {shown:?} gave {e:?}"),
        }
        for (tool, key) in [("load_skill", "path"), ("read_skill_resource", "file")] {
            let args = json!({"skill": "target", key: raw}).to_string();
            let out = tools.handle(tool, &args);
            assert!(!out.text.contains(OUTSIDE), "{label}: {shown:?}");
            if out.is_error {
                assert!(
                    out.text.contains("Available files"),
                    "{label}: {shown:?}: {}",
                    out.text.chars().take(300).collect::<String>()
                );
                assert!(!out.text.contains(SELF) && !out.text.contains(OTHER));
            } else {
                let normal = check(raw).unwrap().to_string();
                if !may_hold_other.contains(&normal.as_str()) {
                    assert!(!out.text.contains(OTHER), "{label}: {shown:?}");
                }
            }
        }
    }
    tally
}

/// Copies the `hostile` fixtures, and a folder outside them, into a temporary folder.
fn disk_tree() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    skills_tests::copy_dir(&fixtures(), &root);
    let outside = tmp.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("secret.md"), format!("{OUTSIDE} secret.md\n")).unwrap();
    fs::write(
        outside.join("SKILL.md"),
        format!("---\nname: manifest-out\ndescription: Outside the root.\n---\n{OUTSIDE} body\n"),
    )
    .unwrap();
    (tmp, root, outside)
}

fn only(root: &Path, follow_symlinks: bool) -> Discovery {
    let mut discovery = Discovery::only(root);
    discovery.scan.follow_symlinks = follow_symlinks;
    discovery
}

fn scan_set(root: &Path, follow_symlinks: bool) -> SkillSet {
    let options = ScanOptions {
        profile: Profile::Lenient,
        follow_symlinks,
        ..ScanOptions::default()
    };
    skills_embed::__private::set_of(
        &mut skills_embed::__private::scan(root, &options),
        &ListingFormat::Markdown,
    )
    .0
}

/// No file of any skill of `set` holds bytes from outside the root.
fn assert_nothing_from_outside(label: &str, set: &SkillSet) {
    for skill in set.skills() {
        for file in skill.files() {
            let text = String::from_utf8_lossy(file.bytes());
            assert!(
                !text.contains(OUTSIDE),
                "{label}: {}/{} holds bytes from outside the root",
                skill.name(),
                file.path()
            );
        }
    }
}

#[test]
fn the_table_has_over_200_distinct_entries() {
    let table = hostile_paths();
    println!("{} hostile paths", table.len());
    assert!(table.len() >= 200, "{} entries", table.len());
    assert_eq!(table.len(), table.iter().collect::<BTreeSet<_>>().len());
}

#[test]
fn embedded_set() {
    let set =
        skills_embed::SkillSet::from_skills(SKILLS.skills().to_vec(), &ListingFormat::Markdown);
    let tally = probe("embedded", &set, &fixtures().join("target"), &[]);
    // Only entries that normalise to a real file of `target` are hits; everything else is
    // refused or missed.
    assert_eq!(
        tally.hits.iter().collect::<Vec<_>>(),
        ["SKILL.md", "dots..md", "references/guide.md"]
    );
    assert!(tally.refused > 150 && tally.missed > 40, "{tally:?}");
    // The typed set serves the same as the set rebuilt from its skills.
    for raw in hostile_paths() {
        let a = SKILLS.skill(SkillId::Target).load(&raw).map(|f| f.bytes());
        let b = set
            .get("target")
            .and_then(|s| s.load(&raw))
            .map(|f| f.bytes());
        assert_eq!(a, b);
    }
}

#[test]
fn disk_set_and_overlay() {
    let (_tmp, root, _outside) = disk_tree();
    let set = scan_set(&root, false);
    assert_eq!(set.names().collect::<Vec<_>>(), ["other", "target"]);
    probe("disk", &set, &root.join("target"), &[]);

    let overlay = Overlay::new(&SKILLS, only(&root, false));
    let snapshot = overlay.snapshot();
    probe("overlay", &snapshot, &root.join("target"), &[]);
    // Only the shadowing of the embedded copies by the disk ones is reported.
    let errors: Vec<_> = overlay
        .diagnostics()
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[cfg(unix)]
#[test]
fn symlinked_disk_trees() {
    use std::os::unix::fs::symlink;
    let (_tmp, root, outside) = disk_tree();
    let target = root.join("target");
    // Links from `target` to another skill, its SKILL.md, the root, and out of the root.
    symlink("../other", target.join("link-to-other")).unwrap();
    symlink("../other/SKILL.md", target.join("link-to-other-skill.md")).unwrap();
    symlink(
        "../other/secret.md",
        target.join("references/other-secret.md"),
    )
    .unwrap();
    symlink("..", target.join("link-to-root")).unwrap();
    symlink(&outside, target.join("link-to-outside")).unwrap();
    symlink(
        outside.join("secret.md"),
        target.join("references/escape.md"),
    )
    .unwrap();
    symlink(
        "../../../outside/secret.md",
        target.join("a/b/relative-escape.md"),
    )
    .unwrap();
    // Skills whose SKILL.md itself is a link: out of the root, and to another skill's.
    fs::create_dir(root.join("manifest-out")).unwrap();
    symlink(outside.join("SKILL.md"), root.join("manifest-out/SKILL.md")).unwrap();
    fs::create_dir(root.join("manifest-other")).unwrap();
    symlink("../other/SKILL.md", root.join("manifest-other/SKILL.md")).unwrap();
    // A whole skill folder reached through a link out of the root.
    symlink(&outside, root.join("outside-skill")).unwrap();

    // Not following links: no link is served, whatever it points to.
    let set = scan_set(&root, false);
    assert_nothing_from_outside("not following", &set);
    assert_eq!(set.names().collect::<Vec<_>>(), ["other", "target"]);
    let tally = probe("not following", &set, &target, &[]);
    assert_eq!(
        tally.hits.into_iter().collect::<Vec<_>>(),
        ["SKILL.md", "dots..md", "references/guide.md"]
    );
    for link in [
        "link-to-other-skill.md",
        "references/escape.md",
        "references/other-secret.md",
    ] {
        assert!(
            set.get("target").and_then(|s| s.load(link)).is_err(),
            "{link}"
        );
    }

    // Following links: a link is followed only when it stays inside its own skill's folder
    // (issue 25: `target` used to serve the other skill's files under its own link names,
    // which let a visible skill hand out a denied one's files). Links to another skill, to
    // the root and out of the root are reported (`symlink-escape`) and never served.
    let options = ScanOptions {
        profile: Profile::Lenient,
        follow_symlinks: true,
        ..ScanOptions::default()
    };
    let tree = skills_embed::__private::scan(&root, &options);
    // (`references/other-secret.md` and `a/b/relative-escape.md` resolve to nothing: they are
    // reported as broken links.)
    for link in [
        "link-to-other",
        "link-to-other-skill.md",
        "link-to-outside",
        "references/escape.md",
    ] {
        let path = target.join(link);
        assert!(
            tree.diagnostics
                .iter()
                .any(|d| d.rule == Rule::SymlinkEscape && d.file == path),
            "{link}: {:?}",
            tree.diagnostics
        );
    }
    let set = scan_set(&root, true);
    assert_nothing_from_outside("following", &set);
    probe("following", &set, &target, &[]);
    for refused in [
        "link-to-other-skill.md",
        "references/other-secret.md",
        "link-to-other/SKILL.md",
        "link-to-other/secret.md",
        "references/escape.md",
        "a/b/relative-escape.md",
        "link-to-outside/secret.md",
    ] {
        assert!(
            set.get("target").and_then(|s| s.load(refused)).is_err(),
            "{refused}"
        );
    }
    assert!(
        set.get("manifest-out").is_err(),
        "a SKILL.md out of the root is not read"
    );
    assert!(
        set.get("manifest-other").is_err() && set.get("other").is_ok(),
        "a SKILL.md linking to another skill's is not read as a skill"
    );

    for follow in [false, true] {
        let overlay = Overlay::new(&SKILLS, only(&root, follow));
        let snapshot = overlay.snapshot();
        assert_nothing_from_outside("overlay", &snapshot);
        let label = format!("overlay, following: {follow}");
        probe(&label, &snapshot, &target, &[]);
    }
}

/// A model can send megabytes where a name or a path belongs: the answer is short and quick.
/// (The closest-match suggestion used to compare such a request with every name by edit
/// distance, whose table is the product of the lengths: gigabytes for a 10 MB request; and the
/// error echoed the whole path back.)
#[test]
fn huge_requests_get_short_answers_quickly() {
    let set =
        skills_embed::SkillSet::from_skills(SKILLS.skills().to_vec(), &ListingFormat::Markdown);
    let tools = Tools::new(set.clone(), Settings::default());
    // 2 MB: the old suggestion table for this path against a 19-character one was 300 MB.
    let huge = "x".repeat(2_000_000);
    let calls = [
        json!({"skill": huge}),
        json!({"skill": "target", "path": huge}),
        json!({"skill": "target", "path": format!("{huge}/SKILL.md")}),
        json!({"skill": "target", "path": format!("../{huge}")}),
        json!({"skill": "target", "chunk": huge}),
        json!({"skill": "target", "section": huge}),
    ];
    for args in calls {
        let args = args.to_string();
        let start = std::time::Instant::now();
        let out = tools.handle("load_skill", &args);
        let took = start.elapsed();
        assert!(out.text.len() < 4_000, "{} bytes back", out.text.len());
        assert!(took < std::time::Duration::from_secs(10), "took {took:?}");
    }
    let direct = set.get("target").unwrap().load(&huge).unwrap_err();
    assert!(matches!(direct, SkillError::FileNotFound { .. }));
}
