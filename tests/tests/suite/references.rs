//! Issue 27, item 1: what a body refers to is checked by the one validator, so `skills!`,
//! `skills validate`, `load::set` and discovery agree: an error where the skill is checked
//! strictly, a warning where someone else's skills are read (the skill is still served).

use std::fs;
use std::path::Path;

use skills_embed::disk::Discovery;
use skills_embed::listing::ListingFormat;
use skills_embed::parse::{Profile, Rule, ScanOptions, validate};

/// A skill whose body links to `references/forms.md` when the file is `references/form.md`,
/// and whose `references/form.md` refers further to `references/fields.md`.
fn broken_skill(root: &Path) {
    let dir = root.join("pdf-forms");
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: pdf-forms\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\n\
         # PDF forms\n\nRead [the form guide](references/forms.md) first.\n",
    )
    .unwrap();
    fs::write(
        dir.join("references/form.md"),
        "Field names: see [fields](fields.md).\n",
    )
    .unwrap();
    fs::write(dir.join("references/fields.md"), "name, date\n").unwrap();
}

#[test]
fn validate_reports_a_broken_link_as_an_error_with_the_closest_path() {
    let root = tempfile::tempdir().unwrap();
    broken_skill(root.path());
    let found = validate(root.path(), &ScanOptions::for_repositories());
    let errors: Vec<String> = found
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.relative_to(root.path()).to_string())
        .collect();
    assert_eq!(
        errors,
        [
            "pdf-forms/SKILL.md:7:23: error[broken-reference]: the body links to the file \
          \"references/forms.md\", which this skill does not have; did you mean \
          \"references/form.md\"?"
        ]
    );
    // The file the body does reference is read one level further.
    let fixed = root.path().join("pdf-forms/SKILL.md");
    let text = fs::read_to_string(&fixed)
        .unwrap()
        .replace("forms.md", "form.md");
    fs::write(&fixed, text).unwrap();
    let found = validate(root.path(), &ScanOptions::for_repositories());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].rule, found[0].is_error()),
        (Rule::NestedReference, false)
    );
    assert!(
        found[0].file.ends_with("references/form.md"),
        "{}",
        found[0]
    );
    assert_eq!((found[0].line, found[0].column), (1, 27));
}

#[test]
fn discovery_and_lenient_loading_serve_the_skill_with_a_warning() {
    let root = tempfile::tempdir().unwrap();
    broken_skill(root.path());

    let discovered = Discovery::only(root.path()).scan();
    assert!(
        discovered.get("pdf-forms").is_some(),
        "{:?}",
        discovered.diagnostics
    );
    let d = discovered
        .diagnostics
        .iter()
        .find(|d| d.rule == Rule::BrokenReference)
        .expect("discovery reports the broken link");
    assert!(!d.is_error() && d.message.contains("did you mean"), "{d}");

    let lenient = ScanOptions {
        profile: Profile::Lenient,
        ..ScanOptions::default()
    };
    let (set, problems) = skills_embed::load::set(root.path(), &lenient, &ListingFormat::Markdown);
    assert_eq!(set.len(), 1);
    assert!(
        problems
            .iter()
            .any(|d| d.rule == Rule::BrokenReference && !d.is_error())
    );

    let (set, problems) = skills_embed::load::set(
        root.path(),
        &ScanOptions::default(),
        &ListingFormat::Markdown,
    );
    assert_eq!(
        set.len(),
        0,
        "strict: a skill with a broken link is not loaded"
    );
    assert!(
        problems
            .iter()
            .any(|d| d.rule == Rule::BrokenReference && d.is_error())
    );
}

/// Layouts found in public collections, in our own words (`fixtures/collections/body-references`):
/// a skill about writing skills that names example paths in code and shows a body in a fenced
/// block (anthropics/skills' and openai/skills' skill-creator), links with `./`, a fragment and
/// emoji text into a folder the specification does not name (`reference/`, mcp-builder), links
/// through `${CLAUDE_SKILL_DIR}` and `{baseDir}` (common in public collections), paths
/// in code outside the skill (`$APP_HOME/...`, `tmp/...`, `~/...`) and commands in code
/// (openai/skills' imagegen and skill-installer). Only the paths in inline code that name no file
/// of their skill are reported: errors when validating strictly (a model would try them), warnings
/// when the collection is read leniently (the skills are still served); nothing else is.
#[test]
fn real_layouts_report_only_paths_that_name_no_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/collections/body-references");
    let reported = |profile: Profile| -> Vec<(String, bool)> {
        let options = ScanOptions {
            profile,
            ..ScanOptions::for_repositories()
        };
        validate(&root, &options)
            .iter()
            .map(|d| {
                assert_eq!(d.rule, Rule::BrokenReference, "{d}");
                let skill = d
                    .file
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy();
                let target = d.message.split('"').nth(1).unwrap();
                (format!("{skill}: {target}"), d.is_error())
            })
            .collect()
    };
    let expected = [
        "image-maker: references/prompting.md",
        "skill-writer: scripts/rotate_pdf.py",
        "skill-writer: references/finance.md",
        "skill-writer: assets/logo.png",
        "skill-writer: assets/site-template",
    ];
    let strict = reported(Profile::Strict);
    assert_eq!(strict, expected.map(|t| (t.to_owned(), true)));
    let lenient = reported(Profile::Lenient);
    assert_eq!(lenient, expected.map(|t| (t.to_owned(), false)));
}

/// A file on disk that the options leave out (here an include glob) is the author's choice: the
/// body's reference to it is a warning saying so, not an error, and a missing file stays one.
#[test]
fn a_file_left_out_by_the_options_is_a_warning_and_a_missing_one_an_error() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("brand");
    fs::create_dir_all(dir.join("assets")).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: brand\ndescription: Brand rules. Use when styling a page.\n---\n\
         # Brand\n\nUse [the logo](assets/logo.png) and [the font](assets/font.woff).\n",
    )
    .unwrap();
    fs::write(dir.join("assets/logo.png"), b"\x89PNG").unwrap();
    let options = ScanOptions {
        include: vec!["**/*.md".into()],
        ..ScanOptions::for_repositories()
    };
    let found: Vec<(bool, String)> = validate(root.path(), &options)
        .iter()
        .filter(|d| d.rule == Rule::BrokenReference)
        .map(|d| {
            (
                d.is_error(),
                d.message.split('"').nth(1).unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (false, "assets/logo.png".to_owned()),
            (true, "assets/font.woff".to_owned())
        ]
    );
}
