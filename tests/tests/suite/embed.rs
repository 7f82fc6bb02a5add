//! `skills!` end to end: a folder embedded at compile time, served at run time.

use std::collections::HashSet;

use skills_embed::{SkillError, SkillIdentifier};

skills_embed::skills!("fixtures/basic");

mod nested {
    skills_embed::skills!("fixtures/nested");
}

mod nested_with_dotfiles {
    skills_embed::skills!("fixtures/nested", dotfiles = true);
}

// Warnings from the lenient profile are `deprecated` lints; this is how a user silences them.
#[allow(deprecated)]
mod lenient {
    skills_embed::skills!("fixtures/fail/lenient-warning", profile = lenient);
}

mod custom {
    skills_embed::skills!(
        "fixtures/basic",
        enum_name = Tool,
        static_name = TOOLS,
        summary = xml,
        exclude = ["assets/**"]
    );
}

#[test]
fn one_variant_per_skill_sorted_by_name() {
    assert_eq!(SkillId::ALL, &[SkillId::CodeReview, SkillId::Pdf]);
    assert_eq!(SkillId::Pdf.name(), "pdf");
    assert_eq!(SkillId::CodeReview.to_string(), "code-review");
    assert_eq!("pdf".parse::<SkillId>().unwrap(), SkillId::Pdf);
    assert!(SkillId::CodeReview < SkillId::Pdf);
    assert_eq!(<SkillId as SkillIdentifier>::index(SkillId::Pdf), 1);
    let set: HashSet<SkillId> = SkillId::ALL.iter().copied().collect();
    assert_eq!(set.len(), 2);
}

#[test]
fn parse_error_lists_the_names() {
    let err = "pfd".parse::<SkillId>().unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Skill "pfd" not found. Available skills: code-review, pdf. Did you mean "pdf"?"#
    );
}

#[test]
fn summary_is_built_at_compile_time() {
    assert_eq!(
        SKILLS.summary(),
        "- code-review: Review a change for correctness, tests and style. Use before merging.\n\
         - pdf: Extract text and fill forms in PDF files. Use when the user hands you a PDF.\n"
    );
    assert!(
        custom::TOOLS
            .summary()
            .starts_with("<available_skills>\n<skill>\n<name>\ncode-review\n</name>")
    );
}

#[test]
fn body_has_no_frontmatter_and_keeps_later_fences() {
    let body = SKILLS.skill(SkillId::CodeReview).load("SKILL.md").unwrap();
    assert!(body.is_body());
    assert_eq!(
        body.text().unwrap(),
        "Read the diff twice. Check tests first.\n---\nA line of three dashes in the body stays in the body.\n"
    );
    assert_eq!(
        SKILLS.skill(SkillId::Pdf).body(),
        "# PDF\n\nRun `scripts/extract.sh FILE` to get the text. For forms, read `references/forms.md`.\n"
    );
}

#[test]
fn fields_are_embedded() {
    let pdf = SKILLS.skill(SkillId::Pdf);
    assert_eq!(pdf.name(), "pdf");
    assert_eq!(pdf.license(), Some("MIT"));
    assert_eq!(
        pdf.metadata().collect::<Vec<_>>(),
        [("owner", "docs-team"), ("version", "1.2")]
    );
    assert_eq!(
        pdf.allowed_tools().collect::<Vec<_>>(),
        ["Bash(pdftotext:*)", "Read"]
    );
    assert_eq!(pdf.compatibility(), None);
}

#[test]
fn every_file_is_served_byte_identical() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/basic/pdf/");
    for path in [
        "references/forms.md",
        "scripts/extract.sh",
        "assets/icon.png",
    ] {
        let loaded = SKILLS.skill(SkillId::Pdf).load(path).unwrap();
        assert_eq!(
            loaded.bytes(),
            std::fs::read(format!("{root}{path}")).unwrap(),
            "{path}"
        );
    }
    assert_eq!(
        SKILLS.skill(SkillId::Pdf).paths().collect::<Vec<_>>(),
        [
            "SKILL.md",
            "assets/icon.png",
            "references/forms.md",
            "scripts/extract.sh"
        ]
    );
}

#[test]
fn binary_files_have_no_text_and_scripts_keep_their_exec_bit() {
    let icon = SKILLS.skill(SkillId::Pdf).load("assets/icon.png").unwrap();
    assert_eq!(icon.text(), None);
    assert_eq!(icon.media_type(), "image/png");
    let script = SKILLS
        .skill(SkillId::Pdf)
        .load("scripts/extract.sh")
        .unwrap();
    assert!(script.text().is_some());
    #[cfg(unix)]
    assert!(script.is_executable());
    assert!(
        !SKILLS
            .skill(SkillId::Pdf)
            .load("references/forms.md")
            .unwrap()
            .is_executable()
    );
}

#[test]
fn paths_are_normalised() {
    for path in [
        "./references/forms.md",
        "references//forms.md",
        "references/./forms.md",
    ] {
        assert_eq!(
            SKILLS.skill(SkillId::Pdf).load(path).unwrap().path(),
            "references/forms.md"
        );
    }
}

#[test]
fn a_miss_lists_every_path_and_suggests() {
    let err = SKILLS.skill(SkillId::Pdf).load("forms.md").unwrap_err();
    assert_eq!(
        err.to_string(),
        "File \"forms.md\" not found in skill \"pdf\". Available files: SKILL.md, assets/icon.png, \
         references/forms.md, scripts/extract.sh. Did you mean \"references/forms.md\"? \
         Use \"SKILL.md\" for the skill's instructions."
    );
}

#[test]
fn escapes_are_refused_before_lookup() {
    for (path, problem) in [
        ("../code-review/SKILL.md", "it contains a `..` segment"),
        ("/etc/passwd", "it is absolute"),
        ("references\\forms.md", "it contains a backslash"),
        (
            "%2e%2e/code-review/SKILL.md",
            "it contains a percent-encoded byte",
        ),
        ("", "it is empty"),
        ("a\0b", "it contains a NUL or control character"),
    ] {
        match SKILLS.skill(SkillId::Pdf).load(path) {
            Err(SkillError::InvalidPath { problem: p, .. }) => assert_eq!(p, problem, "{path:?}"),
            other => panic!("{path:?}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn lookup_by_name() {
    assert_eq!(SKILLS.get("pdf").unwrap().name(), "pdf");
    assert_eq!(
        SKILLS
            .get("pdf")
            .and_then(|s| s.load("references/forms.md"))
            .unwrap()
            .path(),
        "references/forms.md"
    );
    let err = SKILLS.get("nope").unwrap_err().to_string();
    assert_eq!(
        err,
        r#"Skill "nope" not found. Available skills: code-review, pdf."#
    );
}

#[test]
fn options_rename_and_filter() {
    assert_eq!(custom::Tool::ALL.len(), 2);
    assert_eq!(
        custom::TOOLS
            .skill(custom::Tool::Pdf)
            .paths()
            .collect::<Vec<_>>(),
        ["SKILL.md", "references/forms.md", "scripts/extract.sh"]
    );
}

#[test]
fn serde_and_schema_use_the_name() {
    assert_eq!(
        serde_json::to_string(&SkillId::CodeReview).unwrap(),
        r#""code-review""#
    );
    assert_eq!(
        serde_json::from_str::<SkillId>(r#""pdf""#).unwrap(),
        SkillId::Pdf
    );
    let err = serde_json::from_str::<SkillId>(r#""pdx""#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("Available skills: code-review, pdf"), "{err}");
    // Inline and exact: no `$ref`, no title.
    let schema =
        skills_embed::__private::schemars::SchemaGenerator::default().subschema_for::<SkillId>();
    assert_eq!(
        serde_json::to_value(schema).unwrap(),
        serde_json::json!({"type": "string", "enum": ["code-review", "pdf"]})
    );
}

#[test]
fn the_set_is_plain_shared_data() {
    fn assert_send_sync<T: Send + Sync>(_: &T) {}
    assert_send_sync(&SKILLS);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(|| {
                SKILLS
                    .skill(SkillId::Pdf)
                    .load("references/forms.md")
                    .unwrap()
                    .len()
            })
        })
        .collect();
    for h in handles {
        let on_disk = include_bytes!("../../fixtures/basic/pdf/references/forms.md").len();
        assert_eq!(h.join().unwrap(), on_disk);
    }
}

#[test]
fn nested_category_folders_hold_skills() {
    assert_eq!(
        nested::SkillId::ALL,
        &[nested::SkillId::CodeReview, nested::SkillId::Pdf]
    );
    assert_eq!(
        nested::SKILLS.skill(nested::SkillId::Pdf).body(),
        "Nested two category folders deep.\n"
    );
    // A category folder's own files belong to no skill.
    assert!(
        nested::SKILLS
            .skills()
            .iter()
            .all(|s| s.paths().all(|p| p != "README.md"))
    );
}

#[test]
fn dotfiles_are_skipped_unless_asked() {
    let review = nested::SKILLS.skill(nested::SkillId::CodeReview);
    assert_eq!(
        review.paths().collect::<Vec<_>>(),
        ["SKILL.md", "references/style.md"]
    );
    let review = nested_with_dotfiles::SKILLS.skill(nested_with_dotfiles::SkillId::CodeReview);
    assert_eq!(
        review.paths().collect::<Vec<_>>(),
        [
            ".hidden/notes.md",
            ".swp",
            "SKILL.md",
            "references/style.md"
        ]
    );
}

#[test]
fn lenient_keeps_unknown_fields_as_json() {
    let skill = lenient::SKILLS.skill(lenient::SkillId::Other);
    assert_eq!(
        skill.extra().get("version").cloned(),
        Some(serde_json::json!("2"))
    );
    assert_eq!(skill.extra().get("missing").cloned(), None);
    assert_eq!(
        serde_json::to_string(&skill.extra()).unwrap(),
        r#"{"version":"2"}"#
    );
}

/// rustc records every `include_str!`/`include_bytes!` in the dep-info file next to this test
/// binary, which is how cargo knows to rebuild when an embedded file changes.
#[test]
fn embedded_files_are_build_dependencies() {
    let exe = std::env::current_exe().unwrap();
    let dep_info = std::fs::read_to_string(exe.with_extension("d")).unwrap();
    for file in [
        "pdf/SKILL.md",
        "pdf/references/forms.md",
        "pdf/assets/icon.png",
        "pdf/scripts/extract.sh",
    ] {
        let path = format!("fixtures/basic/{file}");
        assert!(
            dep_info.contains(&path),
            "{path} is not in {}",
            exe.with_extension("d").display()
        );
    }
}

// `body_limit = cut` keeps the lines that fit (and warns).
#[allow(deprecated)]
mod cut {
    skills_embed::skills!(
        "fixtures/fail/body-too-long",
        max_body_lines = 10,
        body_limit = cut
    );
}

#[test]
fn a_long_body_can_be_cut_at_compile_time() {
    let body = cut::SKILLS.skill(cut::SkillId::Demo).body();
    assert_eq!(body.lines().count(), 10);
    assert!(body.ends_with("Step 10: do the next thing.\n"));
    let loaded = cut::SKILLS
        .skill(cut::SkillId::Demo)
        .load("SKILL.md")
        .unwrap();
    assert_eq!(
        loaded.sha256(),
        skills_embed::__private::sha256(body.as_bytes())
    );
}

mod large {
    skills_embed::skills!("fixtures/large");
}

// An embedded file's digest is hashed once and kept: every file of two sets, asked twice in
// turn, answers its own bytes' digest (a digest kept under another file's key would not).
#[test]
fn every_embedded_file_keeps_its_own_digest() {
    use skills_embed::__private::sha256;
    let skills = || {
        SKILLS
            .skills()
            .iter()
            .chain(large::SKILLS.skills())
            .chain(cut::SKILLS.skills())
    };
    for _ in 0..2 {
        for file in skills().flat_map(|skill| skill.files()) {
            assert_eq!(file.sha256(), sha256(file.bytes()), "{}", file.path());
        }
    }
}

#[test]
fn a_skill_with_many_files_is_searched_by_path_and_serves_every_file() {
    use large::{SKILLS, SkillId};
    let paths: Vec<&str> = SKILLS.skill(SkillId::Atlas).paths().collect();
    assert_eq!(paths.len(), 21, "{paths:?}");
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/large/atlas/");
    for path in paths.iter().filter(|p| **p != "SKILL.md") {
        let file = SKILLS.skill(SkillId::Atlas).load(path).unwrap();
        assert_eq!(file.path(), *path);
        assert_eq!(
            file.bytes(),
            std::fs::read(format!("{root}{path}")).unwrap()
        );
        // The same file by a path in another form, and by name.
        let other = SKILLS
            .get("atlas")
            .and_then(|s| s.load(&format!("./{path}")))
            .unwrap();
        assert_eq!(other.bytes(), file.bytes());
    }
    assert!(
        SKILLS
            .skill(SkillId::Atlas)
            .load("scripts/run.sh")
            .unwrap()
            .is_executable()
    );
    let miss = SKILLS
        .skill(SkillId::Atlas)
        .load("references/region-19.md")
        .unwrap_err();
    assert!(miss.to_string().contains("Did you mean"), "{miss}");
}

/// Script functions named like the items `skills!` declares inside its static's initializer.
mod scripts_named_like_generated_items {
    /// A text.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Text {
        /// The text.
        pub text: String,
    }

    pub fn count(args: Text) -> Result<usize, String> {
        Ok(args.text.split_whitespace().count())
    }

    pub fn watched(args: Text) -> Result<usize, String> {
        Ok(args.text.len())
    }

    skills_embed::skills!(
        "fixtures/cli-scripts",
        scripts = { "word-count" => [count, watched] }
    );
}

#[test]
fn a_script_named_like_a_generated_item_runs_the_users_function() {
    let scripts = scripts_named_like_generated_items::SKILLS.scripts();
    let watched = scripts
        .iter()
        .find(|s| s.name() == "watched")
        .expect("registered");
    let out = watched.run(
        serde_json::json!({"text": "four words in here"}),
        std::time::Duration::from_secs(60),
        &skills_embed::tools::CancelToken::default(),
    );
    assert_eq!(out.as_deref(), Ok("18"));
}
