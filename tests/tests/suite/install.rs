//! Installing a set's skills into coding agents' folders (`disk::Install`): each client's
//! layout in temporary homes and repositories, every state, and the writes that must not
//! happen.

use std::fs;
use std::path::{Path, PathBuf};

use skills_embed::disk::{Agent, Install, InstallError, InstallReport, Scope, SkillState};
use skills_embed::listing::ListingFormat;
use skills_embed::parse::{ScanOptions, validate};
use skills_embed::{Fields, File, Skill, SkillSet};
use strum::VariantArray;

skills_embed::skills!("fixtures/basic");

/// A temporary home and a repository (a `.git` folder) beside it.
struct Place {
    home: tempfile::TempDir,
    repo: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let place = Place {
            home: tempfile::tempdir().unwrap(),
            repo: tempfile::tempdir().unwrap(),
        };
        fs::create_dir(place.repo.path().join(".git")).unwrap();
        place
    }

    fn install(&self, agents: &[Agent]) -> Install {
        Install::new("mytool", "1.0.0")
            .home(self.home.path())
            .project(self.repo.path())
            .agents(agents.iter().copied())
    }

    fn repo(&self, rel: &str) -> PathBuf {
        self.repo.path().join(rel)
    }
}

fn skill(name: &str, body: &str, files: Vec<File>) -> Skill {
    Skill::owned(
        Fields {
            name: name.into(),
            description: format!("The {name} skill. Use when testing."),
            ..Fields::default()
        },
        body.into(),
        files,
    )
}

fn set(skills: Vec<Skill>) -> SkillSet {
    SkillSet::from_skills(skills, &ListingFormat::Markdown)
}

fn notes(body: &str) -> SkillSet {
    set(vec![skill(
        "notes",
        body,
        vec![File::owned(
            "scripts/run.sh".into(),
            b"#!/bin/sh\necho hi\n".to_vec(),
            true,
        )],
    )])
}

fn states(report: &InstallReport) -> Vec<(String, SkillState)> {
    report
        .entries
        .iter()
        .map(|e| (e.skill.clone(), e.state))
        .collect()
}

/// Every file under `dir` with its bytes, for "nothing changed" checks.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if !dir.exists() {
        return out;
    }
    for entry in walk(dir) {
        let bytes = fs::read(&entry).unwrap_or_default();
        out.push((entry, bytes));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        out.push(path.clone());
        if meta.is_dir() {
            out.extend(walk(&path));
        }
    }
    out
}

#[test]
fn each_agent_gets_its_documented_folder_in_both_scopes() {
    let expected = [
        (Agent::Universal, ".agents/skills", ".agents/skills"),
        (Agent::ClaudeCode, ".claude/skills", ".claude/skills"),
        (Agent::Codex, ".agents/skills", ".agents/skills"),
        (Agent::GithubCopilot, ".agents/skills", ".agents/skills"),
        (Agent::Cursor, ".agents/skills", ".agents/skills"),
        (Agent::GeminiCli, ".agents/skills", ".agents/skills"),
        (Agent::Opencode, ".agents/skills", ".agents/skills"),
        (Agent::Goose, ".agents/skills", ".agents/skills"),
        (
            Agent::Windsurf,
            ".windsurf/skills",
            ".codeium/windsurf/skills",
        ),
    ];
    assert_eq!(expected.len(), Agent::VARIANTS.len());
    for (agent, project, user) in expected {
        let place = Place::new();
        let report = place.install(&[agent]).install(&SKILLS).unwrap();
        assert!(!report.left_alone(), "{agent}: {report}");
        for name in ["pdf", "code-review"] {
            let dir = place.repo(project).join(name);
            assert!(dir.join("SKILL.md").is_file(), "{agent}: {}", dir.display());
        }
        let report = place
            .install(&[agent])
            .scope(Scope::User)
            .install(&SKILLS)
            .unwrap();
        assert!(report.root.is_none());
        let dir = place.home.path().join(user).join("pdf");
        assert!(
            dir.join("scripts/extract.sh").is_file(),
            "{agent}: {}",
            dir.display()
        );
    }
}

#[test]
fn claude_config_dir_moves_the_user_folder() {
    let place = Place::new();
    let config = tempfile::tempdir().unwrap();
    place
        .install(&[Agent::ClaudeCode])
        .scope(Scope::User)
        .var("CLAUDE_CONFIG_DIR", config.path().to_str().unwrap())
        .install(&SKILLS)
        .unwrap();
    assert!(config.path().join("skills/pdf/SKILL.md").is_file());
    assert!(!place.home.path().join(".claude").exists());
}

#[test]
fn installed_skills_are_valid_under_the_strict_rules_and_carry_provenance() {
    let place = Place::new();
    place
        .install(&[Agent::ClaudeCode])
        .install(&SKILLS)
        .unwrap();
    let dest = place.repo(".claude/skills");
    let problems = validate(&dest, &ScanOptions::default());
    assert!(problems.is_empty(), "{problems:?}");
    let text = fs::read_to_string(dest.join("pdf/SKILL.md")).unwrap();
    assert!(text.contains("metadata:\n  \"owner\": \"docs-team\"\n  \"version\": \"1.2\"\n  skills-embed-tool: \"mytool\"\n  skills-embed-version: \"1.0.0\"\n  skills-embed-installed-at: \""), "{text}");
    assert!(text.contains("  skills-embed-digest: \"sha256:"));
    // The installed skill reads back as the embedded one, less the provenance.
    let (loaded, problems) =
        skills_embed::load::set(&dest, &ScanOptions::default(), &ListingFormat::Markdown);
    assert!(problems.is_empty());
    let pdf = loaded.get("pdf").unwrap();
    assert_eq!(pdf.body(), SKILLS.get("pdf").unwrap().body());
    let keys: Vec<&str> = pdf.metadata().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "owner",
            "skills-embed-digest",
            "skills-embed-installed-at",
            "skills-embed-tool",
            "skills-embed-version",
            "version"
        ]
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dest.join("pdf/scripts/extract.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}

#[test]
fn every_state_is_seen() {
    let place = Place::new();
    let install = place.install(&[Agent::ClaudeCode]);
    let dest = place.repo(".claude/skills");
    // Missing.
    let v1 = set(vec![
        skill("kept", "v1\n", vec![]),
        skill("edited", "v1\n", vec![]),
        skill("dropped", "v1\n", vec![]),
        skill("bumped", "v1\n", vec![]),
    ]);
    let before = install.status(&v1).unwrap();
    assert!(
        before
            .entries
            .iter()
            .all(|e| e.state == SkillState::Missing)
    );
    install.install(&v1).unwrap();
    // Up to date.
    assert!(
        install
            .status(&v1)
            .unwrap()
            .entries
            .iter()
            .all(|e| e.state == SkillState::UpToDate)
    );
    // Foreign: written by hand, and one written by `gh skill install`.
    fs::create_dir_all(dest.join("by-hand")).unwrap();
    fs::write(
        dest.join("by-hand/SKILL.md"),
        "---\nname: by-hand\ndescription: Mine.\n---\nMine.\n",
    )
    .unwrap();
    fs::create_dir_all(dest.join("from-gh")).unwrap();
    fs::write(dest.join("from-gh/SKILL.md"), "---\nname: from-gh\ndescription: Theirs.\nmetadata:\n  github-repo: https://github.com/o/r\n---\nTheirs.\n").unwrap();
    // Another binary built on skills-embed is not us either.
    Install::new("othertool", "9.0.0")
        .dir(&dest)
        .install(&set(vec![skill("other", "x\n", vec![])]))
        .unwrap();
    // Modified.
    let edited = dest.join("edited/SKILL.md");
    let text = fs::read_to_string(&edited).unwrap();
    fs::write(&edited, text.replace("v1", "my edit")).unwrap();
    let v2 = set(vec![
        skill("kept", "v1\n", vec![]),
        skill("edited", "v2\n", vec![]),
        skill("bumped", "v2\n", vec![]),
        skill("by-hand", "ours\n", vec![]),
        skill("from-gh", "ours\n", vec![]),
        skill("other", "ours\n", vec![]),
    ]);
    let status = install.status(&v2).unwrap();
    let mut got = states(&status);
    got.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        got,
        [
            ("bumped".into(), SkillState::Outdated),
            ("by-hand".into(), SkillState::Foreign),
            ("dropped".into(), SkillState::Orphaned),
            ("edited".into(), SkillState::Modified),
            ("from-gh".into(), SkillState::Foreign),
            ("kept".into(), SkillState::UpToDate),
            ("other".into(), SkillState::Foreign),
        ]
    );
    let bumped = status.entries.iter().find(|e| e.skill == "bumped").unwrap();
    assert_eq!(bumped.installed_version.as_deref(), Some("1.0.0"));

    // Install: the outdated one updated, the orphan removed, the rest left alone.
    let report = install.install(&v2).unwrap();
    assert!(report.left_alone(), "{report}");
    assert!(!dest.join("dropped").exists());
    assert_eq!(
        fs::read_to_string(dest.join("by-hand/SKILL.md")).unwrap(),
        "---\nname: by-hand\ndescription: Mine.\n---\nMine.\n"
    );
    assert!(fs::read_to_string(&edited).unwrap().contains("my edit"));
    let mut after = states(&install.status(&v2).unwrap());
    after.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(after[0], ("bumped".into(), SkillState::UpToDate));
}

#[test]
fn a_second_install_changes_nothing() {
    let place = Place::new();
    let install = place.install(&[Agent::ClaudeCode, Agent::Codex]);
    install.install(&SKILLS).unwrap();
    let before = (
        snapshot(&place.repo(".claude")),
        snapshot(&place.repo(".agents")),
    );
    let report = install.install(&SKILLS).unwrap();
    assert!(
        report.entries.iter().all(|e| e.action == "unchanged"),
        "{report}"
    );
    assert_eq!(
        before,
        (
            snapshot(&place.repo(".claude")),
            snapshot(&place.repo(".agents"))
        )
    );
}

#[test]
fn an_edit_blocks_an_update_until_force_which_keeps_a_backup() {
    let place = Place::new();
    let install = place.install(&[Agent::ClaudeCode]);
    install.install(&notes("v1\n")).unwrap();
    let script = place.repo(".claude/skills/notes/scripts/run.sh");
    fs::write(&script, "#!/bin/sh\necho mine\n").unwrap();
    let report = install.install(&notes("v2\n")).unwrap();
    assert!(report.left_alone());
    assert_eq!(report.entries[0].state, SkillState::Modified);
    assert!(report.entries[0].action.contains("--force"), "{report}");
    assert_eq!(
        fs::read_to_string(&script).unwrap(),
        "#!/bin/sh\necho mine\n"
    );

    let forced = install.clone().force(true).install(&notes("v2\n")).unwrap();
    assert!(!forced.left_alone(), "{forced}");
    let backup = forced.entries[0].backup.clone().unwrap();
    assert!(backup.starts_with(place.repo(".claude/skills-backup")));
    assert_eq!(
        fs::read_to_string(backup.join("scripts/run.sh")).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    assert_eq!(fs::read_to_string(&script).unwrap(), "#!/bin/sh\necho hi\n");
    assert_eq!(
        install.status(&notes("v2\n")).unwrap().entries[0].state,
        SkillState::UpToDate
    );
}

#[test]
fn two_agents_sharing_agents_skills_get_each_skill_once() {
    let place = Place::new();
    let report = place
        .install(&[Agent::Codex, Agent::Cursor, Agent::GeminiCli])
        .install(&SKILLS)
        .unwrap();
    assert_eq!(report.destinations.len(), 1);
    assert_eq!(
        report.destinations[0].1,
        [Agent::Codex, Agent::Cursor, Agent::GeminiCli]
    );
    assert_eq!(report.entries.len(), 2);
    assert!(report.entries.iter().all(|e| e.action == "installed"));
}

#[test]
fn a_dry_run_writes_nothing() {
    let place = Place::new();
    let report = place
        .install(&[Agent::ClaudeCode, Agent::Codex])
        .dry_run(true)
        .install(&SKILLS)
        .unwrap();
    assert!(
        report
            .entries
            .iter()
            .all(|e| e.action == "would be installed"),
        "{report}"
    );
    assert_eq!(snapshot(place.repo.path()).len(), 1, "only .git");
}

#[test]
fn uninstall_removes_only_unchanged_skills_of_ours() {
    let place = Place::new();
    let install = place.install(&[Agent::ClaudeCode]);
    let dest = place.repo(".claude/skills");
    let both = set(vec![
        skill("a", "a\n", vec![]),
        skill("b", "b\n", vec![]),
        skill("c", "c\n", vec![]),
    ]);
    install.install(&both).unwrap();
    fs::write(dest.join("b/extra.md"), "mine\n").unwrap();
    fs::remove_dir_all(dest.join("c")).unwrap();
    fs::create_dir(dest.join("c")).unwrap();
    fs::write(
        dest.join("c/SKILL.md"),
        "---\nname: c\ndescription: Mine.\n---\n",
    )
    .unwrap();
    let report = install.uninstall(&both).unwrap();
    assert!(report.left_alone());
    assert!(!dest.join("a").exists());
    assert!(dest.join("b/extra.md").is_file());
    assert!(dest.join("c/SKILL.md").is_file());
}

#[cfg(unix)]
#[test]
fn links_planted_in_the_destination_are_refused() {
    use std::os::unix::fs::symlink;
    let place = Place::new();
    let outside = tempfile::tempdir().unwrap();
    let install = place.install(&[Agent::ClaudeCode]);
    let dest = place.repo(".claude/skills");
    fs::create_dir_all(&dest).unwrap();
    // A link where a skill's folder goes: not ours, never written through.
    symlink(outside.path(), dest.join("pdf")).unwrap();
    let report = install.install(&SKILLS).unwrap();
    let pdf = report.entries.iter().find(|e| e.skill == "pdf").unwrap();
    assert_eq!(pdf.state, SkillState::Foreign);
    assert!(report.left_alone());
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    // With --force the link itself is moved aside, still not followed.
    let forced = install.clone().force(true).install(&SKILLS).unwrap();
    assert!(!forced.left_alone(), "{forced}");
    assert!(
        dest.join("pdf").is_dir()
            && !fs::symlink_metadata(dest.join("pdf"))
                .unwrap()
                .file_type()
                .is_symlink()
    );
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);

    // A link inside an installed skill: read as an edit, left alone, not followed.
    fs::remove_file(dest.join("code-review/SKILL.md")).unwrap();
    symlink(outside.path().join("x"), dest.join("code-review/SKILL.md")).unwrap();
    let status = install.status(&SKILLS).unwrap();
    let review = status
        .entries
        .iter()
        .find(|e| e.skill == "code-review")
        .unwrap();
    assert_eq!(review.state, SkillState::Foreign);

    // The agent's folder itself a link out of the project: refused before anything.
    let place = Place::new();
    symlink(outside.path(), place.repo(".claude")).unwrap();
    let err = place
        .install(&[Agent::ClaudeCode])
        .install(&SKILLS)
        .unwrap_err();
    assert!(matches!(err, InstallError::LeavesProject { .. }), "{err}");
    assert!(err.to_string().contains("outside the project"), "{err}");
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    // A link that stays inside the project is followed.
    let place = Place::new();
    fs::create_dir(place.repo("shared")).unwrap();
    symlink(place.repo("shared"), place.repo(".claude")).unwrap();
    place
        .install(&[Agent::ClaudeCode])
        .install(&SKILLS)
        .unwrap();
    assert!(place.repo("shared/skills/pdf/SKILL.md").is_file());
}

#[test]
fn project_scope_walks_up_to_the_repository_and_refuses_home_and_no_repository() {
    let place = Place::new();
    let sub = place.repo("crates/cli/src");
    fs::create_dir_all(&sub).unwrap();
    let report = place
        .install(&[Agent::ClaudeCode])
        .project(&sub)
        .install(&SKILLS)
        .unwrap();
    assert_eq!(report.root.as_deref(), Some(place.repo.path()));
    assert!(place.repo(".claude/skills/pdf").is_dir());

    let bare = tempfile::tempdir().unwrap();
    let err = place
        .install(&[Agent::ClaudeCode])
        .project(bare.path())
        .install(&SKILLS)
        .unwrap_err();
    assert!(matches!(err, InstallError::NoProject { .. }), "{err}");
    assert!(err.to_string().contains("--dir"));
    assert_eq!(fs::read_dir(bare.path()).unwrap().count(), 0);

    fs::create_dir(place.home.path().join(".git")).unwrap();
    let err = place
        .install(&[Agent::ClaudeCode])
        .project(place.home.path())
        .install(&SKILLS)
        .unwrap_err();
    assert!(matches!(err, InstallError::HomeProject { .. }), "{err}");
}

#[test]
fn agents_are_detected_by_their_folders() {
    let place = Place::new();
    let err = place.install(&[]).install(&SKILLS).unwrap_err();
    assert!(matches!(err, InstallError::NoAgent), "{err}");
    assert!(err.to_string().contains("--agent all"));
    fs::create_dir(place.home.path().join(".claude")).unwrap();
    fs::create_dir(place.repo(".cursor")).unwrap();
    let report = place.install(&[]).status(&SKILLS).unwrap();
    let agents: Vec<Vec<Agent>> = report.destinations.iter().map(|(_, a)| a.clone()).collect();
    assert_eq!(agents, [vec![Agent::ClaudeCode], vec![Agent::Cursor]]);
}

#[test]
fn a_skill_that_cannot_be_written_does_not_stop_the_others() {
    let place = Place::new();
    let dest = place.repo(".claude/skills");
    fs::create_dir_all(&dest).unwrap();
    // A skill whose name is not a plain folder name cannot be written; the next one is.
    let bad = set(vec![
        skill("a/b", "x\n", vec![]),
        skill("good", "x\n", vec![]),
    ]);
    let report = place.install(&[Agent::ClaudeCode]).install(&bad).unwrap();
    let failed = report.entries.iter().find(|e| e.skill == "a/b").unwrap();
    assert_eq!(failed.action, "failed");
    assert!(failed.error.as_deref().unwrap().contains("fix the skill"));
    assert!(report.left_alone());
    assert!(dest.join("good/SKILL.md").is_file());
}
