//! The client fields beyond the specification, typed (`ClientFields`): Claude Code's
//! `when_to_use`, `disallowed-tools`, `paths`, `context`, `agent`, `model`, and Codex's
//! `agents/openai.yaml` `interface` and `dependencies.tools`. Embedded by `skills!` and read
//! from disk, they are the same values and the same digest; `when_to_use` is in the listing.

use std::path::{Path, PathBuf};

use skills_embed::__private::scan;
use skills_embed::listing::{ListingFormat, ListingOptions};
use skills_embed::parse::{Dialect, Profile, ScanOptions};
use skills_embed::{ClientFields, CodexInterface, CodexTool};

mod client {
    skills_embed::skills!("fixtures/client", dialects = [claude_code, codex]);
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/client")
}

fn from_disk(profile: Profile, dialects: Vec<Dialect>) -> skills_embed::SkillSet {
    let options = ScanOptions {
        profile,
        dialects,
        ..ScanOptions::default()
    };
    let mut tree = scan(&fixture(), &options);
    let (set, _) = skills_embed::__private::set_of(&mut tree, &ListingFormat::default());
    set
}

#[test]
fn claude_code_fields_are_typed() {
    let review = client::SKILLS.skill(client::SkillId::Review).client();
    assert_eq!(
        review,
        ClientFields {
            when_to_use: Some(
                "The user asks for a review of a diff, a branch or a pull request.".into()
            ),
            disallowed_tools: vec!["Edit".into(), "Write".into()],
            paths: vec!["src/**/*.rs".into(), "docs/{guide,api}/*.md".into()],
            context: Some("fork".into()),
            agent: Some("Explore".into()),
            model: Some("sonnet".into()),
            ..ClientFields::default()
        }
    );
}

#[test]
fn codex_interface_and_tools_are_read() {
    let forms = client::SKILLS.skill(client::SkillId::Forms).client();
    assert_eq!(
        forms.interface,
        CodexInterface {
            display_name: Some("PDF forms".into()),
            short_description: Some("Fill PDF forms from a table".into()),
            icon_small: Some("./assets/forms.svg".into()),
            icon_large: None,
            brand_color: Some("#2F855A".into()),
            default_prompt: Some("Fill this form from my table.".into()),
        }
    );
    assert_eq!(
        forms.tools,
        [CodexTool {
            kind: "mcp".into(),
            value: "files".into(),
            description: Some("A file server for the forms".into()),
            transport: Some("streamable_http".into()),
            url: Some("https://example.com/mcp".into()),
        }]
    );
    // The file stays one of the skill's resources.
    let paths: Vec<&str> = client::SKILLS
        .skill(client::SkillId::Forms)
        .paths()
        .collect();
    assert!(paths.contains(&"agents/openai.yaml"), "{paths:?}");
}

#[test]
fn embedded_and_disk_skills_are_equal_to_the_digest() {
    // Opted in, as the macro was; and lenient, which reads the same fields with warnings.
    for disk in [
        from_disk(Profile::Strict, vec![Dialect::ClaudeCode, Dialect::Codex]),
        from_disk(Profile::Lenient, Vec::new()),
    ] {
        assert_eq!(disk.len(), client::SkillId::ALL.len());
        for id in client::SkillId::ALL {
            let embedded = client::SKILLS.skill(*id);
            let read = disk.get(id.name()).unwrap();
            assert_eq!(read.client(), embedded.client(), "{id}");
            assert_ne!(read.client(), ClientFields::default(), "{id}");
            assert_eq!(read.content_digest(), embedded.content_digest(), "{id}");
        }
        // The listing of the set read from disk is the embedded summary, `when_to_use` and all.
        assert_eq!(
            disk.listing(&ListingOptions::default()),
            client::SKILLS.summary()
        );
    }
    // Strict without the dialects: `review`'s fields are unknown fields (not valid), and
    // `agents/openai.yaml` is not read, so `forms` has no client fields and another digest.
    let strict = from_disk(Profile::Strict, Vec::new());
    assert!(strict.get("review").is_err());
    let forms = strict.get("forms").unwrap();
    assert_eq!(forms.client(), ClientFields::default());
    let embedded = client::SKILLS.skill(client::SkillId::Forms);
    assert_ne!(forms.content_digest(), embedded.content_digest());
}

#[test]
fn a_client_field_changes_the_digest() {
    use skills_embed::{Fields, Skill};
    let skill = |client: ClientFields| {
        let fields = Fields {
            name: "review".into(),
            description: "Review.".into(),
            client,
            ..Fields::default()
        };
        Skill::owned(fields, "Body\n".into(), vec![]).content_digest()
    };
    let model = ClientFields {
        model: Some("sonnet".into()),
        ..ClientFields::default()
    };
    assert_ne!(skill(ClientFields::default()), skill(model));
}

#[test]
fn when_to_use_is_appended_to_the_description_in_the_listing() {
    let summary = client::SKILLS.summary();
    assert!(
        summary.contains(
            "- review: Review a change for correctness and style. - The user asks for a review \
             of a diff, a branch or a pull request.\n"
        ),
        "{summary}"
    );
    let xml = client::SKILLS.listing(&ListingOptions {
        format: ListingFormat::Xml,
        ..ListingOptions::default()
    });
    assert!(
        xml.contains(
            "<description>\nReview a change for correctness and style. - The user asks for a \
             review of a diff, a branch or a pull request.\n</description>"
        ),
        "{xml}"
    );
    // The description itself is what the field says.
    assert_eq!(
        client::SKILLS.skill(client::SkillId::Review).description(),
        "Review a change for correctness and style."
    );
}

/// A collection in the layout of a real one (display names in `name`, folders with spaces or
/// underscores, Claude Code fields): every name a message suggests passes the name rules,
/// and a client field's error says which option accepts it.
#[test]
fn messages_on_a_real_layout_suggest_valid_names_and_the_dialect() {
    use skills_embed::parse::validate;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/collections/title-case-names");
    let diagnostics = validate(&root, &ScanOptions::default());
    let line = |file: &str, rule: &str| {
        diagnostics
            .iter()
            .find(|d| d.file.ends_with(file) && <&str>::from(d.rule) == rule)
            .map(|d| d.message.clone())
            .unwrap_or_else(|| panic!("no {rule} in {file}: {diagnostics:#?}"))
    };
    assert_eq!(
        line("ahrefs-automation/SKILL.md", "name-case"),
        r#"name "Ahrefs Automation" must be lowercase: use "ahrefs-automation""#
    );
    assert_eq!(
        line("ahrefs-automation/SKILL.md", "name-dir-mismatch"),
        r#"name "Ahrefs Automation" must match the folder name "ahrefs-automation": use `name: ahrefs-automation`"#
    );
    assert_eq!(
        line("pdf_tools/SKILL.md", "name-dir-mismatch"),
        r#"name "PDF_Tools v2.0" must match the folder name "pdf_tools": rename the folder to "pdf-tools" and use `name: pdf-tools`"#
    );
    assert_eq!(
        line("My Notes/SKILL.md", "name-missing"),
        "name is required: add `name: my-notes` and rename the folder to match"
    );
    assert!(
        line("review-helper/SKILL.md", "unknown-field").contains("--dialect claude-code"),
        "{diagnostics:#?}"
    );
    // Every suggestion, checked by the validator itself.
    let mut checked = 0;
    for d in &diagnostics {
        for marker in [": use \"", "`name: ", "folder to \""] {
            for (at, _) in d.message.match_indices(marker) {
                let rest = &d.message[at + marker.len()..];
                let name = &rest[..rest.find(['"', '`']).unwrap()];
                let text = format!("---\nname: {name}\ndescription: d\n---\n");
                let file = format!("{name}/SKILL.md");
                let problems =
                    skills_embed::parse::check(&text, Path::new(&file), &ScanOptions::default());
                assert!(
                    problems.is_empty(),
                    "{} suggests {name:?}: {problems:#?}",
                    d.message
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "{checked}");
    // With the dialect, the Claude Code skill is valid and its fields typed.
    let options = ScanOptions {
        dialects: vec![Dialect::ClaudeCode],
        ..ScanOptions::default()
    };
    let mut tree = scan(&root, &options);
    let (set, _) = skills_embed::__private::set_of(&mut tree, &ListingFormat::default());
    let review = set.get("review-helper").unwrap().client();
    assert_eq!(review.disallowed_tools, ["Edit", "Write"]);
    assert_eq!(review.model.as_deref(), Some("sonnet"));
}
