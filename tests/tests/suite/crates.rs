//! Skills shipped in crates (`package::dependency_skills`) over a project written here, for the
//! rules the CLI test of `tests/fixtures/cargo-workspace` does not reach; and embedded sets of
//! several crates composed into one (`SkillSet::compose`).

use std::fs;
use std::path::Path;

use skills_embed::listing::ListingFormat;
use skills_embed::package::dependency_skills;
use skills_embed::parse::{Profile, ScanOptions};
use skills_embed::{SkillError, SkillSet};

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A library crate `name` (its manifest's extra lines `extra`) shipping `skill` in `skills/`.
fn library(root: &Path, name: &str, extra: &str, skill: &str) {
    write(
        root,
        &format!("{name}/Cargo.toml"),
        &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n{extra}"),
    );
    write(root, &format!("{name}/src/lib.rs"), "");
    write(
        root,
        &format!("{name}/skills/{skill}/SKILL.md"),
        &format!("---\nname: {skill}\ndescription: A skill of {name}.\n---\nBody.\n"),
    );
}

#[test]
fn names_that_clash_break_the_rules_or_leave_their_crate_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    library(root, "a", "", "b-c");
    library(root, "a-b", "", "c"); // `a-b-c` too: the first crate by name keeps it
    library(root, "x__y", "", "z"); // `x--y-z`: consecutive hyphens
    library(
        root,
        "escape",
        "\n[[package.metadata.symposium.skills]]\npath = \"../a/skills\"\n",
        "kept-out",
    );
    library(
        root,
        "silent",
        "\n[package.metadata.symposium]\nskills = []\n",
        "never",
    );
    library(
        root,
        "hosted",
        "\n[[package.metadata.symposium.skills]]\ncrate = { name = \"elsewhere\" }\n",
        "elsewhere",
    );
    let deps: String = ["a", "a-b", "x__y", "escape", "silent", "hosted"]
        .iter()
        .map(|d| format!("{d} = {{ path = \"../{d}\" }}\n"))
        .collect();
    write(
        root,
        "app/Cargo.toml",
        &format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{deps}\n[workspace]\n"
        ),
    );
    write(root, "app/src/main.rs", "fn main() {}\n");

    let strict = ScanOptions {
        profile: Profile::Strict,
        ..ScanOptions::default()
    };
    let found = dependency_skills(Some(&root.join("app/Cargo.toml")), true, &strict).unwrap();
    let shipped: Vec<(&str, Vec<&str>)> = found
        .crates
        .iter()
        .map(|(name, _, set)| (name.as_str(), set.names().collect()))
        .collect();
    assert_eq!(shipped, [("a", vec!["a-b-c"])]);
    assert_eq!(
        found.workspace_root,
        root.join("app").canonicalize().unwrap()
    );

    let problems = found.problems.join("\n");
    let expected = [
        "crate a-b 0.1.0: skill \"c\" left out: its installed name \"a-b-c\" is already that of skill \"b-c\" of crate a 0.1.0",
        "crate escape 0.1.0: skills path \"../a/skills\" left out: it must be a relative path inside the crate's folder",
        "crate hosted 0.1.0: its skills are hosted by another crate ({\"name\":\"elsewhere\"})",
        "crate x__y 0.1.0: skill \"z\" left out: its installed name \"x--y-z\" breaks the name rules: name \"x--y-z\" must not contain consecutive hyphens (\"--\") (a valid name near it: \"x-y-z\"",
    ];
    for line in expected {
        assert!(problems.contains(line), "{line:?} in\n{problems}");
    }
    assert_eq!(found.problems.len(), expected.len(), "{problems}");
}

mod pdf_kit {
    skills_embed::skills!("fixtures/basic");
}

mod ops_kit {
    skills_embed::skills!("fixtures/tools");
}

mod pdf_kit_fork {
    skills_embed::skills!("fixtures/basic");
}

#[test]
fn embedded_sets_of_several_crates_compose_and_clashes_name_their_sources() {
    let all = SkillSet::compose(
        [
            ("pdf_kit", pdf_kit::SKILLS.by_name()),
            ("ops_kit", ops_kit::SKILLS.by_name()),
        ],
        &ListingFormat::Markdown,
    )
    .unwrap();
    assert_eq!(
        all.names().collect::<Vec<_>>(),
        [
            "code-review",
            "deploy",
            "internal-notes",
            "pdf",
            "pdf-forms",
            "release-notes"
        ]
    );
    assert_eq!(
        all.get("pdf").unwrap().body(),
        pdf_kit::SKILLS.get("pdf").unwrap().body()
    );

    let err = SkillSet::compose(
        [
            ("pdf_kit", pdf_kit::SKILLS.by_name()),
            ("ops_kit", ops_kit::SKILLS.by_name()),
            ("pdf_kit_fork", pdf_kit_fork::SKILLS.by_name()),
        ],
        &ListingFormat::Markdown,
    )
    .unwrap_err();
    let SkillError::DuplicateSkills { clashes } = &err else {
        panic!("{err:?}");
    };
    let both = || vec!["pdf_kit".to_owned(), "pdf_kit_fork".to_owned()];
    assert_eq!(
        clashes,
        &[
            ("code-review".to_owned(), both()),
            ("pdf".to_owned(), both())
        ]
    );
    assert_eq!(
        err.to_string(),
        "Skill names given by more than one set: \"code-review\" (from pdf_kit, pdf_kit_fork); \
         \"pdf\" (from pdf_kit, pdf_kit_fork). A composed set holds one skill per name: rename \
         the skill in all but one of the crates, or compose without one of the sets."
    );
}
