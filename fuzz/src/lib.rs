//! The oracles of the fuzz targets: each function takes any bytes, feeds them to one entry point
//! that takes untrusted text, and panics only when an invariant breaks.
//!
//! The same file is compiled into the test suite (`tests/tests/suite/main.rs`, with `#[path]`,
//! used by `fuzz_regressions.rs` and `props.rs`), so every crash input kept there is checked by
//! exactly the code that found it.
//!
//! | function | entry point | input |
//! |---|---|---|
//! | [`frontmatter`] | `__private::split`, `__private::parse_manifest`, `chunk::find_chunks` | a SKILL.md |
//! | [`path`] | `__private::check`, `Skill::load`, `SkillSet::get` then `Skill::load` | a path a model sends |
//! | [`excerpt`] | `excerpt::{excerpt, section, headings}` | 4 bytes of settings, a heading, `\0`, a text |
//! | [`handler`] | `Tools::handle`, `Session::{handle, answer}` | 1 byte of settings, then `tool\targuments` lines |

use std::path::Path;
use std::sync::OnceLock;

use skills_embed_runtime::__private::check;
use skills_embed_runtime::__private::find_chunks;
use skills_embed_runtime::__private::parse_manifest;
use skills_embed_runtime::__private::split;
use skills_embed_runtime::__private::{excerpt as cut, headings, section};
use skills_embed_runtime::parse::Profile;
use skills_embed_runtime::policy::{Answer, Permissions};
use skills_embed_runtime::tools::Session;
use skills_embed_runtime::tools::{OutputShape, Settings, ToolStyle};
use skills_embed_runtime::{
    Fields, File, Skill, SkillError, SkillSet, listing::ListingFormat, tools::Tools,
};

/// Text that only a denied skill holds: no answer may contain it.
pub const SECRET: &str = "SECRET-INTERNAL-CONTENT";

/// The number of lines an editor shows for `text`: a final line without `\n` counts, and an
/// empty file has one (empty) line.
fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

/// `parse_manifest` and `split` on any text: no panic; offsets that slice the text; every
/// diagnostic on a line of the file, at a column of at least 1; chunk errors inside the body.
pub fn frontmatter(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let lines = line_count(text);
    let split = split(text);
    if let Ok(parts) = split {
        assert!(parts.yaml_offset <= parts.body_start && parts.body_start <= text.len());
        assert_eq!(
            text.get(parts.yaml_offset..parts.yaml_offset + parts.yaml.len()),
            Some(parts.yaml)
        );
        assert_eq!(text.get(parts.body_start..), Some(parts.body));
        assert!(parts.yaml_line >= 1 && parts.yaml_line <= lines);
    }
    for profile in [Profile::Strict, Profile::Lenient] {
        let file = Path::new("demo/SKILL.md");
        let (manifest, diagnostics) = parse_manifest(text, file, Some("demo"), profile);
        for d in &diagnostics {
            assert!(
                (1..=lines).contains(&d.line) && d.column >= 1,
                "{d} is outside a file of {lines} lines"
            );
            assert!(
                !d.message.contains('\n'),
                "a diagnostic on two lines: {d:?}"
            );
            assert_eq!(d.file, file);
        }
        match (&manifest, split) {
            (Some(m), Ok(parts)) => assert_eq!(m.body_start, parts.body_start),
            (Some(_), Err(e)) => panic!("a manifest from a file that does not split: {e}"),
            (None, _) => assert!(
                diagnostics.iter().any(|d| d.is_error()),
                "no manifest and no error"
            ),
        }
    }
    let body = split.map_or(text, |p| p.body);
    let (spans, errors) = find_chunks(body);
    let body_lines = line_count(body);
    for e in &errors {
        assert!((1..=body_lines).contains(&e.line) && e.column >= 1, "{e}");
    }
    let mut last = 0;
    for s in &spans {
        assert!(last <= s.start, "chunks overlap");
        assert!(s.start <= s.content_start && s.content_start <= s.content_end);
        assert!(s.content_end <= s.end && s.end <= body.len());
        assert!(
            body.get(s.start..s.end).is_some(),
            "a chunk splits a character"
        );
        assert!(s.content(body).is_some());
        last = s.end;
    }
}

/// The files of the skill paths are looked up in: names a model could aim at, and look-alikes.
const FILES: &[&str] = &[
    "SKILL.md",
    "a/b/c.md",
    "assets/blank.gif",
    "dots..md",
    "references/guide.md",
    "scripts/fill.py",
    "space .md",
    "ｆｕｌｌ．md",
];

fn skill(name: &str) -> Skill {
    let files = FILES
        .iter()
        .filter(|p| **p != "SKILL.md")
        .map(|p| File::owned((*p).into(), format!("{name}:{p}").into_bytes(), false))
        .collect();
    let fields = Fields {
        name: name.into(),
        description: format!("The {name} skill."),
        ..Fields::default()
    };
    Skill::owned(fields, format!("{name}:SKILL.md"), files)
}

fn path_set() -> &'static SkillSet {
    static SET: OnceLock<SkillSet> = OnceLock::new();
    SET.get_or_init(|| {
        let skills = vec![skill("one"), skill("other")];
        SkillSet::from_skills(skills, &ListingFormat::Markdown)
    })
}

/// `path::check` and `Skill::load` on any path: normalisation is idempotent and never leaves the
/// skill; an accepted path gives the file it names (in this skill) or a miss listing the files;
/// a refused one is an `InvalidPath` that lists the files too.
pub fn path(data: &[u8]) {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let set = path_set();
    let one = set.get("one").expect("the skill exists");
    match check(raw) {
        Ok(request) => {
            let normal = request.to_string();
            assert!(!normal.is_empty());
            assert!(!normal.starts_with('/') && !normal.ends_with('/'));
            for segment in normal.split('/') {
                assert!(!matches!(segment, "" | "." | ".."), "{raw:?} -> {normal:?}");
            }
            assert!(!normal.contains('\\') && !normal.contains('\0'));
            let again = check(&normal).expect("a normal path passes again");
            assert_eq!(again.to_string(), normal, "normalisation is idempotent");
            assert_eq!(again.as_normal_str(), Some(normal.as_str()));
            if let Some(n) = request.as_normal_str() {
                assert_eq!(n, normal);
            }
            match one.load(raw) {
                Ok(file) => {
                    assert_eq!(file.path(), normal);
                    assert!(FILES.contains(&file.path()));
                    assert_eq!(file.bytes(), format!("one:{normal}").as_bytes());
                }
                Err(SkillError::FileNotFound {
                    requested,
                    available,
                    ..
                }) => {
                    assert_eq!(requested, normal);
                    assert!(!FILES.contains(&normal.as_str()), "{normal:?} exists");
                    assert_eq!(available, FILES);
                }
                Err(e) => panic!("{raw:?}: unexpected {e:?}"),
            }
        }
        Err(problem) => match one.load(raw) {
            Err(SkillError::InvalidPath {
                problem: p,
                available,
                requested,
                ..
            }) => {
                assert_eq!(p, problem.to_string());
                assert_eq!(requested, raw);
                assert_eq!(available, FILES);
            }
            other => panic!("{raw:?} refused by check but load gave {other:?}"),
        },
    }
    // By name: the skill's own bytes or an error, never another skill's.
    for name in ["one", "other"] {
        if let Ok(file) = set.get(name).and_then(|s| s.load(raw)) {
            let prefix = format!("{name}:");
            assert!(file.bytes().starts_with(prefix.as_bytes()));
        }
    }
}

/// `excerpt`, `section` and `headings` on any text: pieces never split a character, walking by
/// `next_offset` returns every byte once, in order; a section is a slice starting at its heading.
///
/// Input: 2 bytes of `max_chars`, 2 bytes of a start offset, the wanted heading up to a `\0`,
/// then the text.
pub fn excerpt(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let max_chars = usize::from(u16::from_le_bytes([data[0], data[1]])) % 300;
    let offset = usize::from(u16::from_le_bytes([data[2], data[3]]));
    let rest = String::from_utf8_lossy(&data[4..]);
    let (wanted, text) = rest.split_once('\0').unwrap_or(("", rest.as_ref()));

    walk(text, 0, max_chars);
    let piece = cut(text, offset, max_chars);
    assert!(piece.start >= offset.min(text.len()) && piece.start <= text.len());
    assert!(
        piece.start - offset.min(piece.start) < 4,
        "skipped more than a character"
    );
    walk(text, offset, max_chars);

    for h in headings(text) {
        assert!(text.is_char_boundary(h.start));
        assert!(h.start == 0 || text.as_bytes()[h.start - 1] == b'\n');
        assert!((1..=6).contains(&h.level));
        assert!(h.line >= 1 && h.line <= line_count(text));
    }
    if let Some(s) = section(text, wanted) {
        assert_eq!(s.start, s.heading.start);
        assert_eq!(text.get(s.start..s.start + s.text.len()), Some(s.text));
        assert!(!wanted.trim().trim_start_matches('#').trim().is_empty());
        // The section runs to a line start or the end of the text.
        let end = s.start + s.text.len();
        assert!(end == text.len() || text.as_bytes()[end - 1] == b'\n');
        walk(s.text, 0, max_chars);
    }
}

/// Walks `text` from `offset` by `next_offset`: pieces are contiguous, non-empty, whole
/// characters, and together they are the text from the first character at or after `offset`.
fn walk(text: &str, offset: usize, max_chars: usize) {
    let mut at = offset;
    let mut first_start = None;
    let mut joined = String::new();
    let mut calls = 0;
    loop {
        let piece = cut(text, at, max_chars);
        calls += 1;
        assert!(calls <= text.len() + 2, "no progress");
        assert!(text.is_char_boundary(piece.start) && text.is_char_boundary(piece.end));
        assert_eq!(text.get(piece.start..piece.end), Some(piece.text));
        assert_eq!(piece.total_bytes, text.len());
        assert!(piece.chars() <= max_chars.max(1), "over the cap");
        if let Some(previous_end) = first_start.map(|_| at) {
            assert_eq!(piece.start, previous_end, "a gap or an overlap");
        }
        first_start.get_or_insert(piece.start);
        joined.push_str(piece.text);
        match piece.next_offset() {
            Some(next) => {
                assert!(!piece.text.is_empty() && next == piece.end);
                assert!(piece.truncated);
                at = next;
            }
            None => {
                assert_eq!(piece.end, text.len());
                break;
            }
        }
    }
    let start = first_start.unwrap_or(text.len());
    assert_eq!(joined, &text[start..]);
}

/// The skills the handler serves: the `tools` fixtures of the test suite, read from disk once.
fn handler_set() -> &'static SkillSet {
    static SET: OnceLock<SkillSet> = OnceLock::new();
    SET.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tools");
        let mut tree = skills_embed_runtime::__private::scan(&root, &Default::default());
        let (set, diagnostics) =
            skills_embed_runtime::__private::set_of(&mut tree, &ListingFormat::Markdown);
        assert!(diagnostics.is_empty() && set.len() == 4, "{diagnostics:?}");
        set
    })
}

/// `Tools::handle` and a `Session` on any calls: an answer every time, never the denied skill's
/// text; a refused path never returns content.
///
/// Input: 1 byte of settings (style, shape, small caps, how approvals are answered), then one
/// call per line, `tool` and `arguments` separated by a tab.
pub fn handler(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let config = Settings {
        style: if flags & 1 == 0 {
            ToolStyle::Unified
        } else {
            ToolStyle::Split
        },
        shape: if flags & 2 == 0 {
            OutputShape::Brackets
        } else {
            OutputShape::Xml
        },
        max_chars: if flags & 4 == 0 { 12_000 } else { 7 },
        max_body_chars: if flags & 4 == 0 { 40_000 } else { 11 },
        max_listed_files: usize::from(flags >> 5),
        ..Settings::default()
    };
    let permissions = Permissions::new().deny("internal-*").ask("deploy");
    let tools = Tools::new(
        handler_set(),
        Settings {
            permissions,
            ..config
        },
    );
    let answer = match (flags >> 3) & 3 {
        0 => Answer::Once,
        1 => Answer::Always,
        _ => Answer::Reject,
    };
    let mut session = Session::new(tools.clone()).unload_after(u64::from(flags >> 6));
    // Answers may echo what the model sent (a section name, a path): the secret only counts as
    // leaked when the calls did not hold it themselves.
    let secret = (!text.contains(SECRET)).then_some(SECRET);
    for line in text.split('\n').take(64) {
        let (tool, arguments) = line.split_once('\t').unwrap_or((line, ""));
        let out = tools.handle(tool, arguments);
        assert_answer(&out.text, out.is_error, secret);
        let out = session.handle(tool, arguments);
        assert_answer(&out.text, out.is_error, secret);
        if let Some(out) = out
            .approval
            .and_then(|skill| session.answer(&skill, answer))
        {
            assert_answer(&out.text, out.is_error, secret);
        }
        session.next_turn();
    }
    for event in session.drain_events() {
        assert!(secret.is_none_or(|s| !format!("{event:?}").contains(s)));
    }
}

fn assert_answer(text: &str, is_error: bool, secret: Option<&str>) {
    assert!(!text.is_empty(), "an empty answer");
    if let Some(secret) = secret {
        assert!(!text.contains(secret), "the denied skill leaked: {text}");
    }
    if is_error {
        assert!(!text.starts_with("[Skill:"), "an error framed as content");
    }
}
