//! Property tests for the entry points that take untrusted text (issue 5): the frontmatter
//! splitter and validator, path normalisation and lookup, and the excerpt cutter and section
//! finder, each on its own and through the tool handler. The handler's own properties are in
//! `handler_props.rs`.
//!
//! The invariants are those of the fuzz targets (`fuzz/src/lib.rs`, compiled in here as
//! `oracle`), so a property and a fuzz run check the same thing; the properties here add
//! generators that reach the interesting shapes quickly (fences, aliases, colons, dot segments,
//! multi-byte characters at cut points).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::json;
use skills_embed::__private::check;
use skills_embed::__private::parse_manifest;
use skills_embed::__private::split;
use skills_embed::__private::{excerpt, headings, section};
use skills_embed::parse::{Profile, ScanOptions};
use skills_embed::tools::{Settings, Tools};
use skills_embed::{Fields, File, Skill, SkillError, SkillSet, listing::ListingFormat};

use crate::oracle;

skills_embed::skills!("fixtures/tools");

// ---- Generators ----

/// Pieces a SKILL.md is made of, and the ones that break parsers: fences, BOM, CRLF, anchors and
/// aliases, flow collections, quotes, colons, tags, documents markers, chunk tags, multi-byte text.
fn skill_md() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            "---\n", "---", "--- \r\n", "\n", "\r\n", "\r", "name: ", "description: ", "license: ",
            "compatibility: ", "metadata:\n", "  k: v\n", "allowed-tools: ", "demo", "Demo",
            "Use when: asked", ": ", ":", "&a ", "*a", "&b [*a, *a, *a]", "[", "]", "{", "}",
            ", ", "'", "\"", "\\", "- ", "  ", "\t", "# ", "#", "\u{FEFF}", "? ", "|\n", ">-\n",
            "%YAML 1.2\n", "...\n", "!!str ", "!!binary ", "<<: *a\n", "~", "null", "123",
            "true", "<chunk id=\"x\" description=\"y\">\n", "</chunk>\n", "```\n", "日本",
            "é", "\u{0301}", "\0", "\u{2028}", "🎉",
        ])
        .prop_map(str::to_owned),
        1 => ".{0,12}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// A frontmatter with an opening fence, fields, and a closing fence most of the time.
fn structured_skill_md() -> impl Strategy<Value = String> {
    (skill_md(), skill_md(), any::<bool>(), skill_md()).prop_map(|(yaml, more, close, body)| {
        let close = if close { "\n---\n" } else { "\n" };
        format!("---\nname: demo\n{yaml}\ndescription: {more}{close}{body}")
    })
}

/// Path segments a model might send, hostile ones included.
fn request_path() -> impl Strategy<Value = String> {
    let segment = prop_oneof![
        4 => prop::sample::select(vec![
            "SKILL.md", "references", "guide.md", "assets", "blank.gif", "scripts", "fill.py",
            "a", "b", "c.md", "dots..md", "space .md", "ｆｕｌｌ．md", ".", "..", "", "...",
            "%2e%2e", "%2F", "%", "%zz", "\\", "..\\", "C:", "c:", "\0", "\n", "\u{7f}",
            "\u{2024}\u{2024}", "\u{ff0e}\u{ff0e}", "\u{2215}", "\u{ff0f}", "SKILL.md.",
            "SKILL.md ", "skill.md", "other", "one",
        ])
        .prop_map(str::to_owned),
        1 => "[^/]{0,8}",
    ];
    (prop::collection::vec(segment, 0..8), any::<bool>()).prop_map(|(segments, lead)| {
        let joined = segments.join("/");
        if lead { format!("/{joined}") } else { joined }
    })
}

/// Text with the characters that matter when cutting: newlines, CRLF, multi-byte and wide
/// characters, combining marks, headings and fences.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "\n", "\r\n", "a", "word ", "é", "日本", "🎉", "\u{0301}", "# ", "## ", "### ",
            "####### ", "```\n", "~~~\n", "    ", "\t", "#", "Usage", "usage", "Options",
            "Ünïcödé", "见出し",
        ])
        .prop_map(str::to_owned),
        1 => ".{0,20}",
    ];
    prop::collection::vec(piece, 0..80).prop_map(|pieces| pieces.concat())
}

/// Markdown made of lines: ATX headings of every level (with closing `#`s, tabs, empty and
/// multi-byte titles), text, fences and indented code.
fn markdown() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        4 => ("#{1,7}", "[ \t]{1,2}", "[A-Za-zé日 #]{0,10}", prop::sample::select(vec!["", " #", " ##", "#"]))
            .prop_map(|(hashes, space, title, close)| format!("{hashes}{space}{title}{close}")),
        3 => "[^\n\r]{0,30}",
        1 => prop::sample::select(vec!["```", "~~~~", "```sh", "    # indented", "   ## three", "#nospace"])
            .prop_map(str::to_owned),
    ];
    (
        prop::collection::vec(line, 1..30),
        prop::sample::select(vec!["\n", "\r\n"]),
    )
        .prop_map(|(lines, eol)| lines.join(eol))
}

/// The `tools` fixtures read from disk at run time, beside the embedded copy.
fn disk_set() -> &'static SkillSet {
    static SET: OnceLock<SkillSet> = OnceLock::new();
    SET.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tools");
        let mut tree = skills_embed::__private::scan(&root, &ScanOptions::default());
        let (set, diagnostics) =
            skills_embed::__private::set_of(&mut tree, &ListingFormat::Markdown);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        set
    })
}

/// A lookup that is either the file the normal path names, or a miss listing every file.
fn assert_file_or_listed_miss(skill: &Skill, raw: &str) -> Result<(), TestCaseError> {
    let paths: Vec<String> = skill.paths().map(str::to_owned).collect();
    match (check(raw), skill.load(raw)) {
        (Ok(request), Ok(file)) => {
            let normal = request.to_string();
            prop_assert_eq!(file.path(), normal.as_str());
            let stored = skill.files().find(|f| f.path() == normal).unwrap();
            prop_assert_eq!(file.bytes(), stored.bytes());
        }
        (
            Ok(request),
            Err(SkillError::FileNotFound {
                requested,
                available,
                ..
            }),
        ) => {
            prop_assert_eq!(&requested, &request.to_string());
            prop_assert!(!paths.contains(&requested));
            prop_assert_eq!(available, paths);
        }
        (
            Err(problem),
            Err(SkillError::InvalidPath {
                problem: p,
                available,
                ..
            }),
        ) => {
            prop_assert_eq!(problem.to_string(), p);
            prop_assert_eq!(available, paths);
        }
        (checked, loaded) => {
            prop_assert!(
                false,
                "{raw:?}: check gave {checked:?}, load gave {loaded:?}"
            );
        }
    }
    Ok(())
}

/// Pieces of Markdown bodies: every link form, code spans and fences, escapes and multi-byte
/// text.
fn body_markdown() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        "`",
        "``",
        "```\n",
        "~~~\n",
        "    ",
        "\n",
        "\r\n",
        "!",
        "\\",
        "#",
        "?",
        "%20",
        "./",
        "../",
        "references/",
        "a.md",
        " \"t\"",
        "[r]: ",
        "[r]",
        "script:",
        "https://x",
        "${CLAUDE_SKILL_DIR}/",
        "{baseDir}/",
        "*",
        "é",
        "日本",
        "🎉",
        "> ",
        "- ",
        "[^1]: ",
        "| a | b |\n",
        "<!-- ",
        " -->",
        "&amp;",
        " ",
    ]);
    prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    // ---- Frontmatter splitter and validator ----

    #[test]
    fn split_slices_the_text_it_was_given(text in prop_oneof![skill_md(), structured_skill_md(), any::<String>()]) {
        if let Ok(parts) = split(&text) {
            prop_assert_eq!(&text[parts.yaml_offset..parts.yaml_offset + parts.yaml.len()], parts.yaml);
            prop_assert_eq!(&text[parts.body_start..], parts.body);
            prop_assert!(parts.yaml_offset <= parts.body_start);
            prop_assert!(!parts.yaml.trim().is_empty());
            prop_assert!(parts.yaml.len() <= skills_embed::__private::MAX_FRONTMATTER_BYTES);
        }
    }

    /// Issue 27: the body scanner takes any text; every reference it finds is placed on a line
    /// of the text, at a column of that line.
    #[test]
    fn the_body_scanner_places_every_reference_in_the_text(
        text in prop_oneof![body_markdown(), any::<String>()],
    ) {
        let lines: Vec<&str> = text.split('\n').collect();
        for r in skills_embed::__private::references(&text) {
            prop_assert!(r.line >= 1 && r.line <= lines.len(), "{r:?}");
            let width = lines[r.line - 1].chars().count();
            prop_assert!(r.column >= 1 && r.column <= width + 1, "{r:?} in {:?}", lines[r.line - 1]);
        }
    }

    #[test]
    fn the_validator_never_panics_and_places_every_diagnostic_in_the_file(
        text in prop_oneof![skill_md(), structured_skill_md()],
    ) {
        oracle::frontmatter(text.as_bytes());
    }

    #[test]
    fn any_valid_name_and_description_are_read_back(
        name in "[a-z0-9]{1,10}(-[a-z0-9]{1,10}){0,3}",
        description in "[a-zA-Z0-9 .,:;!?'\"\\\\_()#&*%@`|>{}\\[\\]éü日本🎉-]{1,200}",
        crlf in any::<bool>(),
    ) {
        prop_assume!(!description.trim().is_empty());
        // YAML reads these plain names as null or a boolean; the validator's handling of them is
        // covered by the conformance tests.
        prop_assume!(!["null", "true", "false", "yes", "no", "on", "off", "y", "n"].contains(&name.as_str()));
        let quoted = serde_json::to_string(&description).unwrap();
        let eol = if crlf { "\r\n" } else { "\n" };
        let text = format!("---{eol}name: {name}{eol}description: {quoted}{eol}---{eol}Body{eol}");
        let file = Path::new("x/SKILL.md");
        let (manifest, diagnostics) = parse_manifest(&text, file, Some(&name), Profile::Strict);
        let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
        prop_assert!(errors.is_empty(), "{errors:?}");
        let manifest = manifest.unwrap();
        prop_assert_eq!(manifest.fields.name, name);
        prop_assert_eq!(manifest.fields.description, description.trim());
        prop_assert_eq!(&text[manifest.body_start..], format!("Body{eol}"));
    }

    // ---- Path normalisation and lookup ----

    #[test]
    fn normalisation_is_idempotent_and_never_leaves_the_skill(raw in request_path()) {
        oracle::path(raw.as_bytes());
    }

    #[test]
    fn accepted_paths_name_a_real_file_or_a_listed_miss(raw in request_path(), which in 0..4usize) {
        let embedded = &SKILLS.skills()[which];
        assert_file_or_listed_miss(embedded, &raw)?;
        let disk = disk_set().get(embedded.name()).unwrap();
        assert_file_or_listed_miss(disk, &raw)?;
        // The two copies serve the same bytes for the same request.
        match (embedded.load(&raw), disk.load(&raw)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.bytes(), b.bytes()),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "embedded {a:?} but disk {b:?}"),
        }
    }

    #[test]
    fn a_real_path_dressed_up_still_finds_its_file(
        which in 0..4usize,
        pick in any::<prop::sample::Index>(),
        noise in prop::collection::vec(prop::sample::select(vec!["./", "/", "", "././"]), 1..6),
        trailing in prop::sample::select(vec!["", "/", "/.", "//./"]),
    ) {
        let skill = &SKILLS.skills()[which];
        let paths: Vec<&str> = skill.paths().collect();
        let real = paths[pick.index(paths.len())];
        let mut dressed = String::new();
        for (i, segment) in real.split('/').enumerate() {
            let noise = noise[i % noise.len()];
            if i > 0 {
                dressed.push('/');
                dressed.push_str(noise);
            } else {
                // A leading `/` would make the path absolute.
                dressed.push_str(noise.trim_start_matches('/'));
            }
            dressed.push_str(segment);
        }
        dressed.push_str(trailing);
        let file = skill.load(&dressed).unwrap();
        prop_assert_eq!(file.path(), real);
        prop_assert_eq!(check(&dressed).unwrap().to_string(), real);
    }

    // ---- Excerpts and sections ----

    #[test]
    fn excerpts_walk_every_byte_once_and_never_split_a_character(
        text in text(),
        max_chars in 0..60u16,
        offset in 0..400u16,
        wanted in prop_oneof![Just(String::new()), "#{0,3} ?(usage|Usage|options|Ünïcödé|见|a)"],
    ) {
        let mut data = Vec::new();
        data.extend(max_chars.to_le_bytes());
        data.extend(offset.to_le_bytes());
        data.extend(wanted.as_bytes());
        data.push(0);
        data.extend(text.as_bytes());
        oracle::excerpt(&data);
        // Any offset lands on the next character boundary, at most 3 bytes on.
        let piece = excerpt(&text, usize::from(offset), usize::from(max_chars));
        prop_assert!(text.is_char_boundary(piece.start));
        prop_assert!(piece.start >= usize::from(offset).min(text.len()));
        prop_assert!(piece.start <= usize::from(offset) + 3);
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level_or_higher(text in markdown(), pick in any::<prop::sample::Index>()) {
        let all = headings(&text);
        // A title starting or ending with `#` cannot be asked for as written (a request's leading
        // `#`s and closing sequence are dropped), nor one that is only whitespace (an empty
        // request finds nothing).
        let askable: Vec<_> = all
            .iter()
            .filter(|h| {
                let title = h.title;
                !title.trim().is_empty() && !title.starts_with('#') && !title.ends_with('#')
            })
            .collect();
        prop_assume!(!askable.is_empty());
        let wanted = askable[pick.index(askable.len())];
        let found = section(&text, wanted.title);
        // An exact title always finds a section (the first heading with that title).
        let s = found.unwrap();
        let fold = |t: &str| -> String {
            t.chars().flat_map(char::to_lowercase).map(|c| if c == 'ς' { 'σ' } else { c }).collect()
        };
        prop_assert_eq!(fold(s.heading.title.trim()), fold(wanted.title.trim()));
        let end = s.start + s.text.len();
        prop_assert_eq!(&text[s.start..end], s.text);
        for h in &all {
            if h.start > s.start && h.start < end {
                prop_assert!(h.level > s.heading.level, "{h:?} inside the section of {:?}", s.heading);
            }
        }
        if end < text.len() {
            let next = all.iter().find(|h| h.start == end);
            prop_assert!(next.is_some_and(|h| h.level <= s.heading.level), "ends at {end} without a heading");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Through the handler: following `next_offset` returns the whole file, piece by piece, with
    /// no gap, no overlap and no split character, for resources and bodies alike.
    #[test]
    fn the_handler_continues_exactly_where_it_cut(
        resource in text(),
        body in text(),
        max_chars in 1..40usize,
    ) {
        // A NUL makes a file binary, which is described rather than served.
        let resource = resource.replace('\0', "");
        prop_assume!(!resource.is_empty());
        let fields = Fields {
            name: "notes".into(),
            description: "Notes.".into(),
            ..Fields::default()
        };
        let files = vec![File::owned("notes.md".into(), resource.clone().into_bytes(), false)];
        let body = body.replace("<chunk", "chunk");
        let skill = Skill::owned(fields, body.clone(), files);
        let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
        let config = Settings { max_chars, max_body_chars: max_chars, ..Settings::default() };
        let tools = Tools::new(set.clone(), config);
        // The body is served without its leading blank lines.
        let served_body = body.trim_start_matches(['\n', '\r']).to_owned();
        for (path, whole) in [("notes.md", &resource), ("SKILL.md", &served_body)] {
            let mut offset = 0;
            let mut seen = String::new();
            for _ in 0..=whole.len() {
                let args = json!({"skill": "notes", "path": path, "offset": offset}).to_string();
                let out = tools.handle("load_skill", &args);
                prop_assert!(!out.is_error, "{}", out.text);
                let report = out.report.unwrap();
                let piece = &whole[offset..offset + report.bytes_read];
                prop_assert!(out.text.contains(piece));
                prop_assert!(piece.chars().count() <= max_chars);
                seen.push_str(piece);
                match report.next_offset {
                    Some(next) => {
                        prop_assert_eq!(next, offset + report.bytes_read);
                        prop_assert!(report.bytes_read > 0);
                        offset = next;
                    }
                    None => break,
                }
            }
            prop_assert_eq!(&seen, whole);
        }
    }
}

#[test]
fn the_generators_reach_what_they_are_for() {
    // A cheap guard that the path generator is not all refusals or all hits.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = request_path();
    let mut outcomes = BTreeSet::new();
    for _ in 0..2000 {
        let raw = strategy.new_tree(&mut runner).unwrap().current();
        let skill = SKILLS.skill(SkillId::PdfForms);
        outcomes.insert(match skill.load(&raw) {
            Ok(_) => "hit",
            Err(SkillError::FileNotFound { .. }) => "miss",
            Err(SkillError::InvalidPath { .. }) => "refused",
            Err(_) => "other",
        });
    }
    assert_eq!(
        outcomes.into_iter().collect::<Vec<_>>(),
        ["hit", "miss", "refused"]
    );
}

/// What the properties found, pinned as plain tests.
#[test]
fn property_findings_stay_fixed() {
    // `./C:` normalised to `C:`, which is refused: normalisation was not idempotent.
    assert!(check("./C:").is_err() && check("././c:/x").is_err());
    assert!(
        check("a/C:").is_ok(),
        "a colon later in a path is a name like any other"
    );
    // A title with a no-break space at its edge could not be found by its own text.
    let text = "# \u{a0}Usage\u{a0}\nText.\n# Next\n";
    let title = headings(text)[0].title;
    assert_eq!(
        section(text, title).unwrap().text,
        "# \u{a0}Usage\u{a0}\nText.\n"
    );
    assert_eq!(section(text, "usage").unwrap().start, 0);
}

/// The name a message suggests after `: use "` or `name: `, up to its closing quote or
/// backtick.
fn suggested_names(message: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (start, end) in [(": use \"", '"'), ("`name: ", '`'), ("folder to \"", '"')] {
        let mut rest = message;
        while let Some(at) = rest.find(start) {
            rest = &rest[at + start.len()..];
            if let Some(stop) = rest.find(end) {
                names.push(rest[..stop].to_owned());
            }
        }
    }
    names
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Every name a message suggests (the name rules' `use "..."`, the missing name's
    /// `name: ...`, the folder mismatch's rename) passes the validator's name rules itself.
    #[test]
    fn every_suggested_name_passes_the_name_rules(
        name in "[ A-Za-z0-9_.\\-+/!éÉİΣß\u{301}\u{FB01}🚀]{0,80}",
        folder in "[ A-Za-z0-9_.\\-éÉ]{1,70}",
    ) {
        let folder = folder.replace('/', "_");
        prop_assume!(folder.trim() == folder && folder != "." && folder != "..");
        let text = format!("---\nname: {}\ndescription: d\n---\n", json!(name));
        let file = format!("{folder}/SKILL.md");
        for d in skills_embed::parse::check(&text, Path::new(&file), &ScanOptions::default()) {
            for suggested in suggested_names(&d.message) {
                let again = format!("---\nname: {suggested}\ndescription: d\n---\n");
                let file = format!("{suggested}/SKILL.md");
                let problems = skills_embed::parse::check(&again, Path::new(&file), &ScanOptions::default());
                prop_assert!(problems.is_empty(), "{:?} suggested {suggested:?}: {problems:?}", d.message);
            }
        }
    }
}
