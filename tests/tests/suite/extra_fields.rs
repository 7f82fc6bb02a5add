//! The fields the specification does not define (`Fields::extra`), embedded and read from disk.
//!
//! The macro embeds `extra` as text and the disk loader builds it at run time; both go into
//! `Skill::content_digest`, which discovery compares to tell "the same skill as the embedded
//! one" and approvals bind to. The text was once printed by each side's `serde_json`, and a
//! workspace build turns on `preserve_order` for the runtime's copy only (the proc macro's copy
//! is built for the host): the same folder then gave two orders of keys and two digests. This
//! test crate turns on `preserve_order` itself (see its Cargo.toml) so `cargo test -p
//! skills-tests` builds what the workspace build does.

use std::path::{Path, PathBuf};

use skills_embed::__private::scan;
use skills_embed::listing::ListingFormat;
use skills_embed::parse::{Profile, ScanOptions};

// `report` has four extra fields written out of alphabetical order, nested mappings among them,
// and a nested metadata value; the lenient profile keeps them (with warnings, silenced here).
#[allow(deprecated)]
mod extra {
    skills_embed::skills!("fixtures/extra", profile = lenient);
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/extra")
}

fn from_disk() -> skills_embed::SkillSet {
    let options = ScanOptions {
        profile: Profile::Lenient,
        ..ScanOptions::default()
    };
    let mut tree = scan(&fixture(), &options);
    let (set, problems) = skills_embed::__private::set_of(&mut tree, &ListingFormat::default());
    assert!(problems.is_empty(), "{problems:#?}");
    set
}

#[test]
fn embedded_and_disk_skills_have_the_same_digest() {
    let disk = from_disk();
    assert_eq!(disk.len(), extra::SkillId::ALL.len());
    for id in extra::SkillId::ALL {
        let embedded = extra::SKILLS.skill(*id);
        let read = disk.get(id.name()).unwrap();
        assert_eq!(
            read.content_digest(),
            embedded.content_digest(),
            "{id}: extra from disk {} and embedded {}",
            serde_json::to_string(&read.extra()).unwrap(),
            serde_json::to_string(&embedded.extra()).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&read.extra()).unwrap(),
            serde_json::to_string(&embedded.extra()).unwrap(),
            "{id}"
        );
        let metadata = |s: &skills_embed::Skill| {
            s.metadata()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(metadata(read), metadata(embedded), "{id}");
    }
}

#[test]
fn extra_fields_are_canonical_json() {
    let embedded = extra::SKILLS.skill(extra::SkillId::Report);
    // Keys sorted at every level, no spaces: one text for one set of fields.
    assert_eq!(
        serde_json::to_string(&embedded.extra()).unwrap(),
        r#"{"alpha":[{"b":2,"y":1},"plain"],"owner":{"area":["writing","review"],"email":"docs@example.com","team":"docs"},"version":2,"zeta":"last in the alphabet, first in the file"}"#
    );
    assert_eq!(
        embedded.extra().get("owner").cloned().unwrap()["team"],
        serde_json::json!("docs")
    );
    assert_eq!(
        serde_json::to_string(&extra::SKILLS.skill(extra::SkillId::Plain).extra()).unwrap(),
        "{}"
    );
    // A nested metadata value (kept as JSON text, with a warning) is canonical too.
    let metadata: Vec<(&str, &str)> = embedded.metadata().collect();
    assert_eq!(
        metadata,
        [
            ("author", "Ann"),
            (
                "contacts",
                r#"{"alpha":"a@example.com","zeta":"z@example.com"}"#
            )
        ]
    );
}
