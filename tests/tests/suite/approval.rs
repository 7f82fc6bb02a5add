//! An `always` answer holds for the skill as it was approved: a reload that changes the skill
//! asks again, one that leaves it as it was does not.

use skills_embed::tools::Settings;
use std::fs;
use std::path::Path;

use skills_embed::disk::{Discovery, Overlay};
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::Session;
use skills_embed::tools::Tools;

skills_embed::skills!("fixtures/basic");

const LOAD: &str = r#"{"skill":"deploy"}"#;

fn write_deploy(root: &Path, body: &str) {
    let dir = root.join("deploy");
    fs::create_dir_all(&dir).unwrap();
    let text = format!("---\nname: deploy\ndescription: Deploy the service.\n---\n{body}");
    fs::write(dir.join("SKILL.md"), text).unwrap();
}

#[test]
fn always_holds_until_a_reload_changes_the_skill() {
    let tmp = tempfile::tempdir().unwrap();
    write_deploy(tmp.path(), "Run make deploy.\n");
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    let rules = || Permissions::new().ask("deploy");

    // Approved "always" on the first snapshot.
    let first = overlay.snapshot();
    let mut session = Session::new(Tools::new(
        std::sync::Arc::clone(&first),
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    let asked = session.handle("load_skill", LOAD);
    assert_eq!(
        asked.approval.as_ref().map(ToString::to_string).as_deref(),
        Some("deploy")
    );
    let loaded = session
        .answer(
            &skills_embed::policy::Subject::load("deploy"),
            Answer::Always,
        )
        .unwrap();
    assert!(loaded.text.contains("Run make deploy."), "{}", loaded.text);
    session.unload("deploy");
    let again = session.handle("load_skill", LOAD);
    assert!(again.approval.is_none(), "always holds: {}", again.text);
    let grants = session.tools().grants().clone();

    // A reload that changes nothing: the answer still holds.
    let report = overlay.reload();
    assert!(report.changed.is_empty(), "{report:?}");
    let same = overlay.snapshot();
    let mut session = Session::new(
        Tools::new(
            std::sync::Arc::clone(&same),
            Settings {
                permissions: rules(),
                ..Settings::default()
            },
        )
        .with_grants(grants.clone()),
    );
    let unchanged = session.handle("load_skill", LOAD);
    assert!(
        unchanged.approval.is_none() && unchanged.text.contains("Run make deploy."),
        "an unchanged skill is not asked for again: {}",
        unchanged.text
    );

    // The skill is edited on disk: the next load asks again and serves nothing before.
    write_deploy(
        tmp.path(),
        "Run make deploy, then delete every backup older than a day.\n",
    );
    let report = overlay.reload();
    assert_eq!(report.changed, ["deploy"], "{report:?}");
    let edited = overlay.snapshot();
    let mut session = Session::new(
        Tools::new(
            std::sync::Arc::clone(&edited),
            Settings {
                permissions: rules(),
                ..Settings::default()
            },
        )
        .with_grants(grants),
    );
    let changed = session.handle("load_skill", LOAD);
    assert_eq!(
        changed
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("deploy"),
        "a changed skill is asked for again: {}",
        changed.text
    );
    assert!(!changed.text.contains("delete every backup"));
    // Answered again, it holds for the new content.
    let loaded = session
        .answer(
            &skills_embed::policy::Subject::load("deploy"),
            Answer::Always,
        )
        .unwrap();
    assert!(loaded.text.contains("delete every backup"));
    session.unload("deploy");
    assert!(session.handle("load_skill", LOAD).approval.is_none());
}

/// Issue 25: a `chmod` of an approved script was not seen by a reload until another change
/// forced a rescan (the walk's fingerprint read sizes and modification times only). A script's
/// executable bit is part of its skill's content: a reload sees the chmod, an approval asks again.
#[cfg(unix)]
#[test]
fn a_chmod_is_seen_by_reload_and_asks_again() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    write_deploy(tmp.path(), "Run scripts/go.sh.\n");
    let script = tmp.path().join("deploy/scripts/go.sh");
    fs::create_dir_all(script.parent().unwrap()).unwrap();
    fs::write(&script, "#!/bin/sh\necho gone\n").unwrap();
    let chmod = |mode| fs::set_permissions(&script, fs::Permissions::from_mode(mode)).unwrap();
    chmod(0o644);
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    let rules = || Permissions::new().ask("deploy");

    let first = overlay.snapshot();
    let mut session = Session::new(Tools::new(
        std::sync::Arc::clone(&first),
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    ));
    assert_eq!(
        session
            .handle("load_skill", LOAD)
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("deploy")
    );
    session
        .answer(
            &skills_embed::policy::Subject::load("deploy"),
            Answer::Always,
        )
        .unwrap();
    let grants = session.tools().grants().clone();

    // Each mode change, and back: a change each time, the answer asked for again.
    for mode in [0o755, 0o644, 0o744] {
        chmod(mode);
        let report = overlay.reload();
        assert_eq!(report.changed, ["deploy"], "chmod {mode:o}: {report:?}");
        let now = overlay.snapshot();
        let mut session = Session::new(
            Tools::new(
                std::sync::Arc::clone(&now),
                Settings {
                    permissions: rules(),
                    ..Settings::default()
                },
            )
            .with_grants(grants.clone()),
        );
        let mode_now = now
            .get("deploy")
            .unwrap()
            .files()
            .find(|f| f.path() == "scripts/go.sh");
        assert_eq!(mode_now.map(|f| f.is_executable()), Some(mode != 0o644));
        let asked = session.handle("load_skill", LOAD);
        if mode == 0o644 {
            // Back to the content that was approved: the answer holds again.
            assert!(asked.approval.is_none(), "chmod {mode:o}: {}", asked.text);
        } else {
            assert_eq!(
                asked.approval.as_ref().map(ToString::to_string).as_deref(),
                Some("deploy"),
                "chmod {mode:o}"
            );
        }
    }
    // A chmod that leaves the executable bits as they were is read again, and is no change.
    chmod(0o700);
    let report = overlay.reload();
    assert!(
        report.changed.is_empty() && !report.rescanned.is_empty(),
        "{report:?}"
    );
}
