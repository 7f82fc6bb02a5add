//! Discovery of skills on disk, on real temporary trees: which roots are found, what a scan of
//! each finds and reports, and which copy of a name wins.
//!
//! No test reads the real environment or home folder: each names its own start folder, home
//! and environment variable (with its value given in `env_value`).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use skills_embed::__private::{Discovered, Found, Root};
use skills_embed::__private::{resolve, scan_root};
use skills_embed::disk::{Discovery, SourceKind};
use skills_embed::parse::{Profile, Rule};
use skills_embed::{Fields, Skill};

/// A temporary folder, and its canonical path (what discovery reports paths under).
fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = fs::canonicalize(dir.path()).unwrap();
    (dir, path)
}

/// Writes a skill folder `dir` whose SKILL.md names `name`.
fn write_skill(dir: &Path, name: &str, description: &str) {
    fs::create_dir_all(dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n");
    fs::write(dir.join("SKILL.md"), text).unwrap();
}

/// Discovery that looks only where the test says: no home, no environment variable.
fn isolated(start: &Path) -> Discovery {
    Discovery {
        start: start.to_owned(),
        home: None,
        env_var: None,
        ..Discovery::default()
    }
}

/// Discovery of one code root only.
fn only_root(root: &Path) -> Discovery {
    Discovery {
        project: false,
        user: false,
        code_roots: vec![root.to_owned()],
        ..isolated(root)
    }
}

fn names(found: &Discovered) -> Vec<&str> {
    found.skills.iter().map(|f| f.skill.name()).collect()
}

fn roots(discovery: &Discovery) -> Vec<(PathBuf, SourceKind)> {
    discovery
        .roots()
        .into_iter()
        .map(|r| (r.path, r.kind))
        .collect()
}

/// Each diagnostic as (rule, whether it is an error, file).
fn problems(found: &Discovered) -> Vec<(Rule, bool, PathBuf)> {
    found
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.is_error(), d.file.clone()))
        .collect()
}

/// Scans on another thread, failing (instead of hanging the suite) if the scan blocks.
fn scan_or_hang(discovery: Discovery) -> Discovered {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(discovery.scan());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the scan blocked (did it open a FIFO?)")
}

/// A fake repository: project roots at two levels, nested categories, a home with user skills,
/// and a `skills` folder above the repository that must not be searched.
#[test]
fn project_roots_are_found_walking_up_to_the_repository_root() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    let app = repo.join("app");
    let home = base.join("home");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(app.join("src")).unwrap();
    write_skill(&app.join(".agents/skills/a"), "a", "Skill a.");
    write_skill(&app.join(".claude/skills/b"), "b", "Skill b.");
    write_skill(
        &repo.join("skills/docs/office/c"),
        "c",
        "Nested two categories deep.",
    );
    write_skill(
        &base.join("skills/outside"),
        "outside",
        "Above the repository.",
    );
    write_skill(&home.join(".agents/skills/u"), "u", "The user's.");

    let discovery = Discovery {
        home: Some(home.clone()),
        ..isolated(&app.join("src"))
    };
    assert_eq!(
        roots(&discovery),
        [
            (app.join(".agents/skills"), SourceKind::Project),
            (app.join(".claude/skills"), SourceKind::Project),
            (repo.join("skills"), SourceKind::Project),
            (home.join(".agents/skills"), SourceKind::User),
        ]
    );
    let found = discovery.scan();
    assert_eq!(names(&found), ["a", "b", "c", "u"]);
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    let c = found.get("c").unwrap();
    assert_eq!(c.manifest, repo.join("skills/docs/office/c/SKILL.md"));
    assert_eq!(c.root.path, repo.join("skills"));
    assert_eq!(found.get("u").unwrap().root.kind, SourceKind::User);
    assert_eq!(found.roots.len(), 4);
}

#[test]
fn outside_a_repository_only_the_start_folder_is_searched() {
    let (_tmp, base) = temp();
    if base.ancestors().any(|a| a.join(".git").exists()) {
        eprintln!("skipped: the temporary folder lies inside a repository");
        return;
    }
    let start = base.join("child");
    write_skill(
        &start.join(".agents/skills/near"),
        "near",
        "In the start folder.",
    );
    write_skill(
        &base.join("skills/far"),
        "far",
        "In a parent: not searched.",
    );
    let found = isolated(&start).scan();
    assert_eq!(names(&found), ["near"]);
}

#[test]
fn same_name_in_project_and_user_the_project_wins_and_a_warning_names_both() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    let home = base.join("home");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write_skill(&repo.join(".agents/skills/pdf"), "pdf", "The project's.");
    write_skill(&home.join(".claude/skills/pdf"), "pdf", "The user's.");
    let discovery = Discovery {
        home: Some(home.clone()),
        ..isolated(&repo)
    };
    let found = discovery.scan();
    assert_eq!(found.skills.len(), 1);
    assert_eq!(found.skills[0].skill.description(), "The project's.");
    assert_eq!(found.skills[0].root.kind, SourceKind::Project);
    let [warning] = &found.diagnostics[..] else {
        panic!("one warning expected: {:?}", found.diagnostics);
    };
    let loser = home.join(".claude/skills/pdf/SKILL.md");
    let winner = repo.join(".agents/skills/pdf/SKILL.md");
    assert_eq!(
        (warning.rule, warning.is_error(), &warning.file),
        (Rule::DuplicateName, false, &loser)
    );
    assert_eq!(
        warning.message,
        format!(
            "skill \"pdf\" here is shadowed by {} (project beats user)",
            winner.display()
        )
    );
    assert!(!found.has_errors());
}

#[test]
fn precedence_can_put_user_skills_before_project_ones() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    let home = base.join("home");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write_skill(&repo.join(".agents/skills/pdf"), "pdf", "The project's.");
    write_skill(&home.join(".agents/skills/pdf"), "pdf", "The user's.");
    let discovery = Discovery {
        home: Some(home.clone()),
        precedence: vec![SourceKind::User, SourceKind::Project],
        ..isolated(&repo)
    };
    assert_eq!(
        roots(&discovery),
        [
            (home.join(".agents/skills"), SourceKind::User),
            (repo.join(".agents/skills"), SourceKind::Project),
        ]
    );
    let found = discovery.scan();
    assert_eq!(found.skills[0].skill.description(), "The user's.");
    let warning = &found.diagnostics[0];
    assert_eq!(warning.file, repo.join(".agents/skills/pdf/SKILL.md"));
    assert!(
        warning.message.ends_with("(user beats project)"),
        "{warning}"
    );
}

#[test]
fn two_project_roots_the_nearer_wins() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write_skill(&repo.join("skills/pdf"), "pdf", "Repository level.");
    write_skill(&repo.join("app/.claude/skills/pdf"), "pdf", "App level.");
    let found = isolated(&repo.join("app")).scan();
    assert_eq!(found.skills[0].skill.description(), "App level.");
    let message = &found.diagnostics[0].message;
    assert!(
        message.contains("both are project skills, and"),
        "{message}"
    );
}

#[test]
fn skill_folders_deeper_than_the_limit_are_not_found() {
    let (_tmp, root) = temp();
    let five = root.join("l1/l2/l3/l4/l5");
    write_skill(&five.join("six"), "six", "At depth 6.");
    write_skill(&five.join("l6/seven"), "seven", "At depth 7.");

    let found = only_root(&root).scan();
    assert_eq!(names(&found), ["six"], "default limit is 6");

    let mut deeper = only_root(&root);
    deeper.scan.max_depth = Some(7);
    assert_eq!(names(&deeper.scan()), ["seven", "six"]);

    let mut shallow = only_root(&root);
    shallow.scan.max_depth = Some(5);
    assert!(shallow.scan().skills.is_empty());
}

/// The depth limit says where skill folders are looked for; a skill found within it keeps all
/// its files, however deep (real skills have paths 8 levels deep).
#[test]
fn a_skill_found_within_the_limit_keeps_its_deep_files() {
    let (_tmp, root) = temp();
    let skill = root.join("cat/pdf");
    write_skill(&skill, "pdf", "Deep files.");
    let deep = skill.join("a/b/c/d/e/f");
    fs::create_dir_all(&deep).unwrap();
    fs::write(deep.join("deep.md"), "deep").unwrap();
    let found = only_root(&root).scan();
    let paths: Vec<&str> = found.skills[0].skill.paths().collect();
    assert_eq!(paths, ["SKILL.md", "a/b/c/d/e/f/deep.md"]);
}

#[test]
fn more_folders_than_the_cap_give_a_warning_not_a_failure() {
    let (_tmp, root) = temp();
    write_skill(&root.join("a"), "a", "Found before the cap.");
    for i in 0..2100 {
        fs::create_dir(root.join(format!("f{i:04}"))).unwrap();
    }
    let found = only_root(&root).scan();
    assert_eq!(names(&found), ["a"]);
    let limits: Vec<_> = found
        .diagnostics
        .iter()
        .filter(|d| d.rule == Rule::ScanLimit)
        .collect();
    assert_eq!(limits.len(), 1, "{:?}", found.diagnostics);
    assert!(!limits[0].is_error());
    assert_eq!(limits[0].file, root);
    assert!(limits[0].message.contains("2000"), "{}", limits[0]);

    let mut unlimited = only_root(&root);
    unlimited.scan.max_dirs = None;
    assert!(unlimited.scan().diagnostics.is_empty());
}

#[test]
fn dot_folders_are_skipped() {
    let (_tmp, root) = temp();
    write_skill(&root.join("visible"), "visible", "Seen.");
    write_skill(&root.join(".hidden"), "hidden", "A dot-folder skill.");
    write_skill(
        &root.join(".cache/deep/cached"),
        "cached",
        "Under a dot-folder.",
    );
    let found = only_root(&root).scan();
    assert_eq!(names(&found), ["visible"]);
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    // Discovery's rule stays its own: `skills validate` searches dot folders
    // (`ScanOptions::for_repositories`), the default discovery does not.
    assert!(!Discovery::default().scan.dot_folders);
}

#[cfg(unix)]
#[test]
fn a_symlinked_skill_folder_is_followed_only_when_asked() {
    use std::os::unix::fs::symlink;
    let (_tmp, root) = temp();
    write_skill(&root.join("plain"), "plain", "A folder.");
    // The target sits in a dot-folder, so only the link can make it a skill.
    write_skill(
        &root.join(".store/linked"),
        "linked",
        "Reached through a link.",
    );
    symlink(".store/linked", root.join("linked")).unwrap();

    let found = only_root(&root).scan();
    assert_eq!(names(&found), ["plain"]);
    assert_eq!(
        problems(&found),
        [(Rule::SymlinkSkipped, false, root.join("linked"))]
    );

    let mut follow = only_root(&root);
    follow.scan.follow_symlinks = true;
    let found = follow.scan();
    assert_eq!(names(&found), ["linked", "plain"]);
    // Issue 27: a skill reached through a link is reported under its real path.
    assert_eq!(
        found.get("linked").unwrap().manifest,
        root.join(".store/linked/SKILL.md")
    );
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_root_is_never_read() {
    use std::os::unix::fs::symlink;
    let (_tmp, base) = temp();
    let root = base.join("root");
    let outside = base.join("outside");
    write_skill(&outside.join("secret"), "secret", "Outside the root.");
    fs::write(outside.join("secret.txt"), "password").unwrap();
    write_skill(&root.join("a"), "a", "Inside.");
    fs::create_dir(root.join("a/references")).unwrap();
    symlink(outside.join("secret"), root.join("secret")).unwrap();
    symlink(
        outside.join("secret.txt"),
        root.join("a/references/leak.txt"),
    )
    .unwrap();

    for follow_symlinks in [false, true] {
        let mut discovery = only_root(&root);
        discovery.scan.follow_symlinks = follow_symlinks;
        let found = discovery.scan();
        assert_eq!(names(&found), ["a"], "following: {follow_symlinks}");
        let a = found.get("a").unwrap();
        assert_eq!(a.skill.paths().collect::<Vec<_>>(), ["SKILL.md"]);
        let expected = if follow_symlinks {
            (Rule::SymlinkEscape, true)
        } else {
            (Rule::SymlinkSkipped, false)
        };
        assert_eq!(
            problems(&found),
            [
                (expected.0, expected.1, root.join("a/references/leak.txt")),
                (expected.0, expected.1, root.join("secret")),
            ]
        );
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_and_a_broken_symlink_are_reported_without_hanging() {
    use std::os::unix::fs::symlink;
    use std::process::Command;
    let (_tmp, root) = temp();
    write_skill(&root.join("a"), "a", "Has a FIFO beside it.");
    let mkfifo = |path: &Path| {
        let status = Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs");
        assert!(status.success(), "mkfifo {}", path.display());
    };
    mkfifo(&root.join("a/pipe"));
    // A FIFO where a SKILL.md should be: opening it would block until a writer comes.
    fs::create_dir(root.join("b")).unwrap();
    mkfifo(&root.join("b/SKILL.md"));
    // A folder where a SKILL.md should be.
    fs::create_dir_all(root.join("c/SKILL.md")).unwrap();
    symlink(root.join("nowhere"), root.join("a/dangling")).unwrap();

    let found = scan_or_hang(only_root(&root));
    assert_eq!(names(&found), ["a"]);
    // Issue 13: a FIFO named SKILL.md was only a `special-file` warning, while a folder so named
    // was an error. Both are the same fault (the skill beside it is lost), and both are a
    // `read-error` error now.
    assert_eq!(
        problems(&found),
        [
            (Rule::SymlinkSkipped, false, root.join("a/dangling")),
            (Rule::SpecialFile, false, root.join("a/pipe")),
            (Rule::ReadError, true, root.join("b/SKILL.md")),
            (Rule::ReadError, true, root.join("c/SKILL.md")),
        ]
    );
    for manifest in ["b/SKILL.md", "c/SKILL.md"] {
        let d = found
            .diagnostics
            .iter()
            .find(|d| d.file == root.join(manifest))
            .unwrap();
        assert!(
            d.message
                .contains("the folder holding it is not read as a skill"),
            "{d}"
        );
    }

    let mut follow = only_root(&root);
    follow.scan.follow_symlinks = true;
    let found = scan_or_hang(follow);
    assert_eq!(names(&found), ["a"]);
    let dangling = found
        .diagnostics
        .iter()
        .find(|d| d.file == root.join("a/dangling"))
        .expect("the broken link is reported");
    assert_eq!(dangling.rule, Rule::ReadError);
    assert!(
        dangling.message.contains("broken symbolic link"),
        "{dangling}"
    );
}

#[test]
fn a_broken_skill_is_reported_with_path_line_and_rule_and_the_others_load() {
    let (_tmp, root) = temp();
    write_skill(&root.join("good"), "good", "Fine.");
    fs::create_dir(root.join("bad")).unwrap();
    fs::write(
        root.join("bad/SKILL.md"),
        "---\nname: bad\ndescription: [never closed\n---\nBody\n",
    )
    .unwrap();
    write_skill(&root.join("zzz"), "zzz", "Also fine, after the broken one.");

    let found = only_root(&root).scan();
    assert_eq!(names(&found), ["good", "zzz"]);
    let errors: Vec<_> = found.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", found.diagnostics);
    assert_eq!(errors[0].rule, Rule::YamlSyntax);
    assert_eq!(errors[0].file, root.join("bad/SKILL.md"));
    assert!(errors[0].line > 1, "the line of the problem: {}", errors[0]);
}

#[test]
fn the_profile_is_the_callers_choice_and_lenient_by_default() {
    let (_tmp, root) = temp();
    // A name/folder mismatch: a warning when lenient, an error when strict.
    write_skill(&root.join("folder"), "other-name", "Mismatched.");
    let lenient = only_root(&root).scan();
    assert_eq!(names(&lenient), ["other-name"]);
    assert_eq!(
        problems(&lenient),
        [(Rule::NameDirMismatch, false, root.join("folder/SKILL.md"))]
    );

    let mut strict = only_root(&root);
    strict.scan.profile = Profile::Strict;
    let strict = strict.scan();
    assert!(strict.skills.is_empty());
    assert_eq!(strict.diagnostics[0].rule, Rule::NameDirMismatch);
    assert!(strict.has_errors());
}

/// Issue 12: a file over the cap used to leave its whole skill out; now only the file is.
#[test]
fn a_file_over_the_read_cap_is_left_out_and_its_skill_loads() {
    let (_tmp, root) = temp();
    write_skill(&root.join("big"), "big", "Has a large file.");
    fs::write(root.join("big/data.txt"), "x".repeat(3000)).unwrap();
    fs::write(root.join("big/notes.md"), "Notes.\n").unwrap();
    write_skill(&root.join("small"), "small", "Small.");
    let mut discovery = only_root(&root);
    discovery.max_file_bytes = Some(1000);
    let found = discovery.scan();
    assert_eq!(names(&found), ["big", "small"]);
    let big = &found.get("big").unwrap().skill;
    assert_eq!(big.paths().collect::<Vec<_>>(), ["SKILL.md", "notes.md"]);
    assert_eq!(
        problems(&found),
        [(Rule::ResourceTooLarge, false, root.join("big/data.txt"))]
    );
    let d = &found.diagnostics[0];
    assert!(d.message.contains("the cap is 1000 bytes"), "{d}");
    assert_eq!(d.line, 0, "a whole file has no line: {d}");
    assert!(!found.has_errors());

    // The same cap in the scan options does the same.
    let mut discovery = only_root(&root);
    discovery.scan.max_resource_bytes = Some(1000);
    assert_eq!(names(&discovery.scan()), ["big", "small"]);
}

/// One skill of each kind of root, so that switching a kind off shows in the result.
struct EveryKind {
    _tmp: tempfile::TempDir,
    repo: PathBuf,
    home: PathBuf,
    env: PathBuf,
    code: PathBuf,
}

impl EveryKind {
    fn new() -> Self {
        let (tmp, base) = temp();
        let kind = |dir: &str| base.join(dir);
        let every = EveryKind {
            repo: kind("repo"),
            home: kind("home"),
            env: kind("env"),
            code: kind("code"),
            _tmp: tmp,
        };
        fs::create_dir_all(every.repo.join(".git")).unwrap();
        write_skill(&every.repo.join("skills/p"), "p", "Project.");
        write_skill(&every.home.join(".agents/skills/u"), "u", "User.");
        write_skill(&every.env.join("e"), "e", "Environment.");
        write_skill(&every.code.join("c"), "c", "Code.");
        every
    }

    fn discovery(&self) -> Discovery {
        Discovery {
            start: self.repo.clone(),
            home: Some(self.home.clone()),
            env_var: Some("SKILLS_TEST_DISCOVER_EVERY_KIND".into()),
            env_value: Some(self.env.clone().into_os_string()),
            code_roots: vec![self.code.clone()],
            ..Discovery::default()
        }
    }
}

fn kinds(found: &Discovered) -> Vec<(&str, SourceKind)> {
    found
        .skills
        .iter()
        .map(|f| (f.skill.name(), f.root.kind))
        .collect()
}

#[test]
fn each_kind_of_root_can_be_switched_off() {
    use SourceKind::{Code, Env, Project, User};
    let every = EveryKind::new();
    let all = every.discovery().scan();
    assert_eq!(
        kinds(&all),
        [("c", Code), ("e", Env), ("p", Project), ("u", User)]
    );
    assert!(all.diagnostics.is_empty(), "{:?}", all.diagnostics);
    let root_kinds: Vec<_> = all.roots.iter().map(|r| r.kind).collect();
    assert_eq!(root_kinds, [Code, Project, Env, User]);

    let mut d = every.discovery();
    d.project = false;
    assert_eq!(kinds(&d.scan()), [("c", Code), ("e", Env), ("u", User)]);

    let mut d = every.discovery();
    d.user = false;
    assert_eq!(kinds(&d.scan()), [("c", Code), ("e", Env), ("p", Project)]);

    let mut d = every.discovery();
    d.home = None;
    assert_eq!(kinds(&d.scan()), [("c", Code), ("e", Env), ("p", Project)]);

    let mut d = every.discovery();
    d.env_var = None;
    assert_eq!(kinds(&d.scan()), [("c", Code), ("p", Project), ("u", User)]);

    let mut d = every.discovery();
    d.code_roots.clear();
    assert_eq!(kinds(&d.scan()), [("e", Env), ("p", Project), ("u", User)]);

    let nothing = Discovery {
        project: false,
        user: false,
        env_var: None,
        code_roots: Vec::new(),
        ..every.discovery()
    };
    assert!(nothing.roots().is_empty());
    assert!(nothing.scan().skills.is_empty());
}

#[test]
fn the_environment_variable_holds_a_path_list_in_priority_order() {
    let (_tmp, base) = temp();
    let first = base.join("first");
    let second = base.join("second");
    write_skill(&first.join("pdf"), "pdf", "First.");
    write_skill(&second.join("pdf"), "pdf", "Second.");
    write_skill(&second.join("docx"), "docx", "Only in the second.");
    // An empty entry and a missing folder in the list are passed over.
    let list = std::env::join_paths([
        first.clone(),
        PathBuf::new(),
        base.join("missing"),
        second.clone(),
    ])
    .unwrap();
    let discovery = Discovery {
        project: false,
        env_var: Some("SKILLS_TEST_DISCOVER_PATH_LIST".into()),
        env_value: Some(list),
        ..isolated(&base)
    };
    assert_eq!(
        roots(&discovery),
        [
            (first.clone(), SourceKind::Env),
            (second.clone(), SourceKind::Env)
        ]
    );
    let found = discovery.scan();
    assert_eq!(names(&found), ["docx", "pdf"]);
    assert_eq!(found.get("pdf").unwrap().skill.description(), "First.");
    assert_eq!(
        found.diagnostics[0].message,
        format!(
            "skill \"pdf\" here is shadowed by {} (both are env skills, and {} comes before {})",
            first.join("pdf/SKILL.md").display(),
            first.display(),
            second.display()
        )
    );
}

#[test]
fn the_environment_variable_is_read_when_no_value_is_given() {
    let (_tmp, base) = temp();
    let relative = Discovery {
        project: false,
        env_var: Some("SKILLS_TEST_DISCOVER_RELATIVE".into()),
        env_value: Some("rel".into()),
        ..isolated(&base)
    };
    fs::create_dir(base.join("rel")).unwrap();
    assert_eq!(
        roots(&relative),
        [(base.join("rel"), SourceKind::Env)],
        "relative entries are resolved against the start folder"
    );
    // A name nobody sets: read from the real environment, which has nothing under it.
    let unset = Discovery {
        env_var: Some("SKILLS_TEST_DISCOVER_SURELY_UNSET_4b1f".into()),
        env_value: None,
        project: false,
        ..isolated(&base)
    };
    assert!(unset.roots().is_empty());
}

#[cfg(unix)]
#[test]
fn the_same_folder_reached_twice_is_listed_once_at_its_highest_priority() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write_skill(&repo.join(".agents/skills/pdf"), "pdf", "Once.");
    std::os::unix::fs::symlink(repo.join(".agents/skills"), base.join("alias")).unwrap();
    let discovery = Discovery {
        // The project root again, spelled two other ways: through `..` and through a link.
        code_roots: vec![repo.join("x/../.agents/skills"), base.join("alias")],
        env_var: Some("SKILLS_TEST_DISCOVER_TWICE".into()),
        env_value: Some(repo.join(".agents/skills").into_os_string()),
        ..isolated(&repo)
    };
    fs::create_dir(repo.join("x")).unwrap();
    assert_eq!(
        roots(&discovery),
        [(repo.join(".agents/skills"), SourceKind::Code)]
    );
    let found = discovery.scan();
    assert_eq!(names(&found), ["pdf"]);
    assert!(
        found.diagnostics.is_empty(),
        "no shadowing of a skill by itself"
    );
}

#[test]
fn a_root_that_is_a_file_is_reported_and_a_missing_one_is_not() {
    let (_tmp, base) = temp();
    let home = base.join("home");
    fs::create_dir_all(home.join(".claude")).unwrap();
    fs::write(home.join(".claude/skills"), "not a folder").unwrap();
    fs::write(base.join("file"), "not a folder").unwrap();
    write_skill(&base.join("good/pdf"), "pdf", "Still loads.");
    let discovery = Discovery {
        project: false,
        home: Some(home.clone()),
        code_roots: vec![
            base.join("file"),
            base.join("missing"),
            base.join("file/below-a-file"),
            base.join("good"),
        ],
        ..isolated(&base)
    };
    assert_eq!(roots(&discovery), [(base.join("good"), SourceKind::Code)]);
    let found = discovery.scan();
    assert_eq!(names(&found), ["pdf"]);
    assert_eq!(
        problems(&found),
        [
            (Rule::ReadError, true, base.join("file")),
            (Rule::ReadError, false, home.join(".claude/skills")),
        ],
        "named on purpose: an error; a conventional folder: a warning"
    );

    let file = Root {
        path: base.join("file"),
        kind: SourceKind::Code,
    };
    let (skills, diagnostics) = scan_root(&file, &Discovery::default().scan, None);
    assert!(skills.is_empty());
    assert_eq!(diagnostics[0].rule, Rule::ReadError);
    let missing = Root {
        path: base.join("missing"),
        kind: SourceKind::Code,
    };
    let (skills, diagnostics) = scan_root(&missing, &Discovery::default().scan, None);
    assert!(skills.is_empty() && diagnostics.is_empty());
}

#[test]
fn an_empty_root_is_news_only_when_it_was_named() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("skills/empty-category")).unwrap();
    fs::create_dir(base.join("named")).unwrap();
    let discovery = Discovery {
        code_roots: vec![base.join("named")],
        ..isolated(&repo)
    };
    assert_eq!(discovery.roots().len(), 2);
    let found = discovery.scan();
    assert_eq!(
        problems(&found),
        [(Rule::MissingSkillMd, false, base.join("named"))]
    );
}

fn embedded(name: &str, description: &str) -> Found {
    let fields = Fields {
        name: name.into(),
        description: description.into(),
        ..Fields::default()
    };
    Found {
        skill: Skill::owned(fields, "Embedded body".into(), Vec::new()),
        root: Root {
            path: PathBuf::from("embedded"),
            kind: SourceKind::Embedded,
        },
        manifest: PathBuf::from(format!("embedded:{name}")),
    }
}

#[test]
fn resolve_merges_disk_skills_with_embedded_ones() {
    let (_tmp, base) = temp();
    let repo = base.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    write_skill(&repo.join("skills/pdf"), "pdf", "From disk.");
    let disk = isolated(&repo).scan();
    let mut all = disk.skills.clone();
    all.push(embedded("pdf", "Built in."));
    all.push(embedded("docx", "Only built in."));

    let (winners, warnings) = resolve(all.clone(), &SourceKind::ALL);
    let picked: Vec<_> = winners
        .iter()
        .map(|f| (f.skill.name(), f.skill.description()))
        .collect();
    assert_eq!(picked, [("docx", "Only built in."), ("pdf", "From disk.")]);
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        warnings[0].to_string(),
        format!(
            "embedded:pdf: warning[duplicate-name]: skill \"pdf\" here is shadowed by {} (project beats embedded)",
            repo.join("skills/pdf/SKILL.md").display()
        )
    );

    let (winners, warnings) = resolve(all, &[SourceKind::Embedded]);
    assert_eq!(winners[1].skill.description(), "Built in.");
    assert_eq!(warnings[0].file, repo.join("skills/pdf/SKILL.md"));
    assert!(warnings[0].message.ends_with("(embedded beats project)"));
}
