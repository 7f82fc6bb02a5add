//! Issue 25, unclear point decided: a symbolic link may not leave its own skill's folder. A
//! link from a visible skill to a denied skill's file used to serve that file to the client
//! the skill was denied to (the walk only checked that links stay inside the scanned root).
//! Now the one walk policy reports such a link (`symlink-escape`) and leaves the file out, so
//! the macro, `validate`, discovery and serving agree.
#![cfg(unix)]

use skills_embed::tools::Settings;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use skills_embed::__private::scan;
use skills_embed::disk::Discovery;
use skills_embed::disk::Overlay;
use skills_embed::parse::{Rule, ScanOptions};
use skills_embed::policy::Permissions;
use skills_embed::{SkillSet, tools::Tools};

static NONE: SkillSet = SkillSet::empty();

const SECRET: &str = "INTERNAL-SECRET";

fn write_skill(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody of {name}.\n");
    fs::write(dir.join("SKILL.md"), text).unwrap();
}

/// `visible` links to the files of `internal` (a sibling skill) and of `internal-nested` (a
/// skill nested in its own folder), by file and by folder; one link stays inside `visible`.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let visible = root.join("visible");
    write_skill(&visible, "visible");
    fs::create_dir_all(visible.join("references")).unwrap();
    fs::write(visible.join("references/guide.md"), "The guide.\n").unwrap();
    write_skill(&root.join("internal"), "internal");
    fs::write(root.join("internal/secret.md"), format!("{SECRET} 1\n")).unwrap();
    write_skill(&visible.join("internal-nested"), "internal-nested");
    fs::write(
        visible.join("internal-nested/secret.md"),
        format!("{SECRET} 2\n"),
    )
    .unwrap();

    symlink(
        "../../internal/secret.md",
        visible.join("references/secret.md"),
    )
    .unwrap();
    symlink("../internal", visible.join("shared")).unwrap();
    symlink("internal-nested/secret.md", visible.join("peek.md")).unwrap();
    symlink("internal-nested", visible.join("inner-alias")).unwrap();
    // Inside the skill's own folder: still followed.
    symlink("references/guide.md", visible.join("guide-link.md")).unwrap();
    (tmp, root)
}

const ESCAPES: [&str; 4] = ["references/secret.md", "shared", "peek.md", "inner-alias"];

#[test]
fn the_walk_reports_every_link_out_of_its_skill_and_keeps_the_file_out() {
    let (_tmp, root) = tree();
    let options = ScanOptions {
        follow_symlinks: true,
        ..ScanOptions::default()
    };
    let tree = scan(&root, &options);
    // The links are the only errors: every skill, the nested one included, is valid.
    let errors: Vec<_> = tree.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.iter().all(|d| d.rule == Rule::SymlinkEscape),
        "{errors:?}"
    );
    for link in ESCAPES {
        let path = root.join("visible").join(link);
        let d = tree
            .diagnostics
            .iter()
            .find(|d| d.file == path)
            .unwrap_or_else(|| panic!("{link} not reported: {:?}", tree.diagnostics));
        assert_eq!(d.rule, Rule::SymlinkEscape, "{d}");
        assert!(d.is_error(), "{d}");
        let target = fs::read_link(&path).unwrap();
        assert!(
            d.message
                .contains(&format!("symbolic link to `{}`", target.display())),
            "says where it points: {d}"
        );
        assert!(
            d.message
                .contains("a link inside a skill must stay inside that skill's own folder"),
            "{d}"
        );
    }
    let visible = tree.skills.iter().find(|s| s.name() == "visible").unwrap();
    let paths: Vec<&str> = visible.resources.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["guide-link.md", "references/guide.md"]);
}

#[test]
fn discovery_and_serving_never_hand_a_denied_skills_file_to_a_visible_one() {
    let (_tmp, root) = tree();
    let mut discovery = Discovery::only(&root);
    discovery.scan.follow_symlinks = true;
    let overlay = Overlay::new(&NONE, discovery);
    let snapshot = overlay.snapshot();
    assert_eq!(
        snapshot.names().collect::<Vec<_>>(),
        ["internal", "internal-nested", "visible"]
    );
    for skill in snapshot.skills() {
        if skill.name() == "visible" {
            for file in skill.files() {
                let text = String::from_utf8_lossy(file.bytes());
                assert!(!text.contains(SECRET), "visible serves {}", file.path());
            }
        }
    }
    let tools = Tools::new(
        snapshot.clone(),
        Settings {
            permissions: Permissions::new().deny("internal*"),
            ..Settings::default()
        },
    );
    for path in [
        "references/secret.md",
        "shared/secret.md",
        "peek.md",
        "inner-alias/secret.md",
    ] {
        let args = serde_json::json!({"skill": "visible", "path": path}).to_string();
        let out = tools.handle("load_skill", &args);
        assert!(out.is_error, "{path}: {}", out.text);
        assert!(!out.text.contains(SECRET), "{path}: {}", out.text);
    }
    let out = tools.handle(
        "load_skill",
        r#"{"skill":"visible","path":"guide-link.md"}"#,
    );
    assert!(
        !out.is_error && out.text.contains("The guide."),
        "{}",
        out.text
    );
    assert!(
        overlay
            .diagnostics()
            .iter()
            .any(|d| d.rule == Rule::SymlinkEscape
                && d.file == root.join("visible/references/secret.md")),
        "{:?}",
        overlay.diagnostics()
    );
}

#[test]
fn a_skill_md_linking_to_another_skills_is_no_skill() {
    let (_tmp, root) = tree();
    fs::create_dir(root.join("copycat")).unwrap();
    symlink("../internal/SKILL.md", root.join("copycat/SKILL.md")).unwrap();
    let options = ScanOptions {
        follow_symlinks: true,
        ..ScanOptions::default()
    };
    let tree = scan(&root, &options);
    assert!(tree.skills.iter().all(|s| s.dir != root.join("copycat")));
    let d = tree
        .diagnostics
        .iter()
        .find(|d| d.file == root.join("copycat/SKILL.md"))
        .unwrap_or_else(|| panic!("{:?}", tree.diagnostics));
    assert_eq!(d.rule, Rule::SymlinkEscape, "{d}");
    assert!(d.message.contains("not read as a skill"), "{d}");
}
