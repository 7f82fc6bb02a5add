//! Reading and checking the fields of a SKILL.md.
//!
//! [`check`] (and `parse_manifest`, what the scanner and the fuzz oracle call) splits the file (see [`frontmatter`]), reads the YAML
//! and then checks every field, collecting all problems rather than stopping at the first. The
//! rules follow the reference validator (`skills-ref`) with two additions: diagnostics carry the
//! line and column of the field concerned, and the [`Profile::Lenient`] profile turns what
//! clients are advised to tolerate into warnings.
//!
//! This module ties the steps together; each lives in its own file: the bounded YAML load
//! (`yaml`), the event pass that checks nesting and places diagnostics (`events`), the unquoted-colon repair
//! (`colon`), the checks of the specification's fields (`fields`) and of the others (`extra`),
//! all writing to one `checker`.
//!
//! ```
//! use std::path::Path;
//! use skills_embed::parse::{Rule, ScanOptions, check};
//!
//! let text = "---\nname: PDF-Tools\ndescription: Fill PDF forms.\n---\n# PDF\n";
//! let diagnostics = check(text, Path::new("pdf-tools/SKILL.md"), &ScanOptions::default());
//! assert_eq!(diagnostics.len(), 2);
//! assert_eq!(diagnostics[0].rule, Rule::NameCase);
//! assert_eq!((diagnostics[0].line, diagnostics[0].column), (2, 1));
//! assert_eq!(diagnostics[0].message, r#"name "PDF-Tools" must be lowercase: use "pdf-tools""#);
//! assert_eq!(diagnostics[1].rule, Rule::NameDirMismatch);
//! ```

use std::path::Path;

use serde_yaml::{Mapping, Value};

use super::checker::Checker;
use super::colon::{ColonFix, load_repairing_colons};
use super::dialect::Dialects;
use super::events::{self, KeyEntry, NestingError};
use super::extra::{check_unknown_fields, read_client, read_invocation};
use super::fields::{
    check_allowed_tools, check_compatibility, check_description, check_license, check_metadata,
    check_name,
};
use super::frontmatter;
use super::value::kind;
use super::yaml::MAX_YAML_VALUES;
use super::yaml::{Duplicate, LoadError, relocate};
use super::{Diagnostic, Profile, Rule, ScanOptions, Severity};
use crate::model::fields::Fields;

/// The fields of a SKILL.md, read as far as they could be.
///
/// A field that is missing or invalid is left empty; the diagnostics say why. A manifest with no
/// error diagnostic is valid under the profile it was read with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// The fields, as a skill keeps them: `name` and `description` empty when missing or not
    /// text; `metadata` sorted by key; `allowed_tools` in order (from a space-separated string or
    /// a list); `extra` the fields the specification does not define, kept under the lenient
    /// profile, and the fields of the client dialects opted in to (any profile), as canonical
    /// JSON object text; `invocation` from the client fields read (see [`Dialect`](super::Dialect): Codex's
    /// `agents/openai.yaml` is another file, the scanner applies it).
    pub fields: Fields,
    /// Byte offset in the file's text where the body starts (after the closing fence and the
    /// blank lines that follow it).
    pub body_start: usize,
}

/// Checks the text of a SKILL.md under `options`' profile and dialects: every problem of its
/// frontmatter and fields, as [`validate`](super::validate()) reports them for a file on disk.
///
/// `file` places the diagnostics, and its folder's name is what the `name-dir-mismatch` rule
/// compares the name with (a bare `SKILL.md` skips that rule). The rest is as `parse_manifest`
/// below reads it. What the body refers to (`broken-reference`) needs the skill's files, so only
/// [`validate`](super::validate()) checks it.
///
/// ```
/// use std::path::Path;
/// use skills_embed::parse::{Profile, Rule, ScanOptions, check};
/// let text = "---\nname: pdf\ndescription: PDFs.\ncolour: blue\n---\n";
/// let strict = check(text, Path::new("pdf/SKILL.md"), &ScanOptions::default());
/// assert_eq!((strict[0].rule, strict[0].is_error()), (Rule::UnknownField, true));
/// let lenient = ScanOptions { profile: Profile::Lenient, ..ScanOptions::default() };
/// assert!(!check(text, Path::new("pdf/SKILL.md"), &lenient)[0].is_error());
/// ```
pub fn check(text: &str, file: &Path, options: &ScanOptions) -> Vec<Diagnostic> {
    let dir_name = file
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str());
    let (_, diagnostics) =
        parse_manifest_with(text, file, dir_name, options.profile, options.dialect_set());
    diagnostics
}

/// Parses and checks the text of a SKILL.md.
///
/// `file` is only used to place diagnostics. `dir_name` is the name of the skill's folder, for
/// the `name-dir-mismatch` rule (`None` skips that rule). Returns `None` when the frontmatter
/// could not be read as a mapping at all: no frontmatter, invalid YAML, a duplicate key, a list
/// or a scalar instead of a mapping. Otherwise the manifest holds every field that could be read,
/// even when there are errors.
///
/// A plain value holding `: ` (`description: Use when: asked`) is invalid YAML. The strict profile
/// reports it as `yaml-syntax` with the quoted form to write; the lenient one reads it as text and
/// warns (`unquoted-colon`).
///
/// Field values are read as the reference validator reads them: numbers and booleans are
/// accepted as the text written (`name: 123` is the name `"123"`), `name` is trimmed and
/// NFKC-normalised, `description` is trimmed (its length is measured before trimming), and YAML
/// tags are ignored.
pub fn parse_manifest(
    text: &str,
    file: &Path,
    dir_name: Option<&str>,
    profile: Profile,
) -> (Option<Manifest>, Vec<Diagnostic>) {
    parse_manifest_with(text, file, dir_name, profile, Dialects::NONE)
}

/// [`parse_manifest`], with the fields of the client `dialects` accepted as known fields: their
/// types are checked (a wrong type is a `client-field-type` error at its line), no warning is
/// given, and they are kept in [`Fields::extra`]. See [`dialect`](super::dialect) for what each profile does
/// with the fields of a dialect not opted in to.
pub fn parse_manifest_with(
    text: &str,
    file: &Path,
    dir_name: Option<&str>,
    profile: Profile,
    dialects: Dialects,
) -> (Option<Manifest>, Vec<Diagnostic>) {
    let split = match frontmatter::split(text) {
        Ok(split) => split,
        Err(error) => {
            let diagnostic =
                Diagnostic::error(error.rule(), file, error.line(), 1, error.to_string());
            return (None, vec![diagnostic]);
        }
    };
    let mut cx = Checker::new(file, profile, &split);
    cx.dialects = dialects;
    let Some(mapping) = read_mapping(&mut cx, split.yaml) else {
        return (None, cx.diagnostics);
    };
    let manifest = Manifest {
        fields: check_fields(&mut cx, &mapping, dir_name),
        body_start: split.body_start,
    };
    (Some(manifest), cx.diagnostics)
}

/// Checks every field, filling in what can be read. Diagnostics come in the order of the
/// checks: unknown and client fields, the specification's fields, then the invocation policy.
fn check_fields(cx: &mut Checker<'_>, mapping: &Mapping, dir_name: Option<&str>) -> Fields {
    let extra = check_unknown_fields(cx, mapping);
    let name = check_name(cx, mapping.get("name"), dir_name);
    let description = check_description(cx, mapping.get("description"));
    let compatibility = check_compatibility(cx, mapping.get("compatibility"));
    let license = check_license(cx, mapping.get("license"));
    let metadata = check_metadata(cx, mapping.get("metadata"));
    let allowed_tools = check_allowed_tools(cx, mapping.get("allowed-tools"));
    let invocation = read_invocation(cx, mapping, &metadata);
    let client = read_client(cx, mapping);
    Fields {
        name,
        description,
        license,
        compatibility,
        metadata,
        allowed_tools,
        extra,
        invocation,
        client,
    }
}

/// Parses the frontmatter into a mapping, repairing unquoted colons under the lenient
/// profile. Reports why when it cannot.
fn read_mapping(cx: &mut Checker<'_>, yaml: &str) -> Option<Mapping> {
    // The parser's time grows with the square of the nesting: a deep file is refused
    // before it runs, in one linear pass.
    let (nesting, keys) = events::read(yaml, frontmatter::MAX_NESTING);
    if let Err(refused) = nesting {
        let (line, column) = refused.position();
        let rule = match refused {
            NestingError::TooDeep { .. } => Rule::FrontmatterTooDeep,
            NestingError::Unreadable { .. } => Rule::YamlSyntax,
        };
        cx.error(rule, cx.at(line, column), refused.to_string());
        return None;
    }
    let (loaded, colons) = load_repairing_colons(&mut cx.lines, cx.other_breaks);
    let colon_count = colons.len();
    for colon in colons {
        report_colon(cx, &colon);
    }
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            report_load_error(cx, &error);
            return None;
        }
    };
    // Positions are in `\n` lines and characters, so the frontmatter's own text gives them
    // unless a repair rewrote it.
    cx.keys = if colon_count == 0 {
        keys
    } else {
        events::read(&cx.lines.join("\n"), usize::MAX).1
    };
    if colon_count > 0 && !cx.lenient() {
        return None;
    }
    if !loaded.duplicates.is_empty() {
        for (index, duplicate) in loaded.duplicates.iter().enumerate() {
            // The third `a:` is the second duplicate of `a`: place it at that occurrence.
            let repeats = loaded.duplicates[..index]
                .iter()
                .filter(|earlier| *earlier == duplicate)
                .count();
            report_duplicate(cx, duplicate, repeats + 1);
        }
        return None;
    }
    match loaded.value {
        Value::Mapping(mapping) => Some(mapping),
        other => {
            let message = format!(
                "the frontmatter must be a mapping of fields such as `name: my-skill`, not {}",
                kind(&other)
            );
            cx.error(Rule::FrontmatterNotMapping, cx.at(0, 1), message);
            None
        }
    }
}

/// Reports why the YAML could not be loaded, at the parser's position moved to file lines.
fn report_load_error(cx: &mut Checker<'_>, error: &LoadError) {
    let (pos, message) = match error {
        LoadError::Syntax { message, location } => {
            let pos = match location {
                Some((line, column)) => cx.at(line.saturating_sub(1), *column),
                None => cx.at(0, 1),
            };
            (
                pos,
                format!(
                    "invalid YAML: {}",
                    relocate(message, cx.first_line.saturating_sub(1))
                ),
            )
        }
        LoadError::TooManyValues => (
            cx.at(0, 1),
            format!(
                "the frontmatter expands to more than {MAX_YAML_VALUES} YAML values (through \
                 aliases such as `*name`); write the values out instead"
            ),
        ),
        LoadError::Repetition => (
            cx.at(0, 1),
            "the frontmatter repeats YAML aliases (`*name`) too often to be read; write the \
             values out instead"
                .to_owned(),
        ),
    };
    cx.error(Rule::YamlSyntax, pos, message);
}

/// Reports an unquoted colon: an error with the quoted form to write when strict, a warning
/// at the value (which was read as text) when lenient.
fn report_colon(cx: &mut Checker<'_>, fix: &ColonFix) {
    let example = fix.quoted();
    if cx.lenient() {
        let message = format!(
            "the value of {:?} holds \": \", which strict YAML rejects; it was read as text, \
             quote it to be portable: {example}",
            fix.key
        );
        let pos = cx.at(fix.line, fix.value_column);
        cx.push(Severity::Warning, Rule::UnquotedColon, pos, message);
    } else {
        let message = format!(
            "invalid YAML: the value of {:?} holds \": \", which YAML reads as a new key; \
             put the value in quotes: {example}",
            fix.key
        );
        let pos = cx.at(fix.error_line, fix.error_column);
        cx.error(Rule::YamlSyntax, pos, message);
    }
}

/// Reports the `nth` (1-based) repetition of a key, placed at that occurrence when found.
fn report_duplicate(cx: &mut Checker<'_>, duplicate: &Duplicate, nth: usize) {
    let occurrences: Vec<KeyEntry> = match duplicate.parents.as_slice() {
        [] => cx.keys.top.clone(),
        [parent] => cx.children_of(parent),
        _ => Vec::new(),
    };
    let mut same = occurrences
        .into_iter()
        .filter(|entry| entry.key == duplicate.key);
    let first = same.next();
    let (pos, first_line) = match (same.nth(nth - 1), &first) {
        (Some(second), Some(first)) => (
            cx.at(second.line, second.column),
            Some(cx.first_line + first.line),
        ),
        _ => (cx.at(0, 1), None),
    };
    let place = match duplicate.parents.as_slice() {
        [] => String::new(),
        parents => format!(" in {:?}", parents.join(".")),
    };
    let message = match first_line {
        Some(line) => format!(
            "key {:?}{place} appears more than once (first on line {line}); write each key once",
            duplicate.key
        ),
        None => format!(
            "key {:?}{place} appears more than once; write each key once",
            duplicate.key
        ),
    };
    cx.error(Rule::YamlDuplicateKey, pos, message);
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::parse::fields::split_tools;
    use crate::parse::testing::*;

    #[test]
    fn reads_every_field() {
        let text = "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when asked.\nlicense: Apache-2.0\n\
                    compatibility: Needs python3\nmetadata:\n  version: 1.10\n  author: Ann\nallowed-tools: \
                    Bash(git:*)  Read\n---\n\n# PDF\n";
        let (manifest, diagnostics) = parse(text, Some("pdf-tools"), Profile::Strict);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        let manifest = manifest.unwrap();
        assert_eq!(manifest.fields.name, "pdf-tools");
        assert_eq!(
            manifest.fields.description,
            "Fill PDF forms. Use when asked."
        );
        assert_eq!(manifest.fields.license.as_deref(), Some("Apache-2.0"));
        assert_eq!(
            manifest.fields.compatibility.as_deref(),
            Some("Needs python3")
        );
        let metadata = vec![
            ("author".to_owned(), "Ann".to_owned()),
            ("version".to_owned(), "1.10".to_owned()),
        ];
        assert_eq!(manifest.fields.metadata, metadata);
        assert_eq!(manifest.fields.allowed_tools, ["Bash(git:*)", "Read"]);
        assert!(extra_of(&manifest).is_empty());
        assert_eq!(
            split_tools("Bash(git diff:*)  Read\tWrite(src/a b.rs) Bash(("),
            ["Bash(git diff:*)", "Read", "Write(src/a b.rs)", "Bash(("]
        );
        assert_eq!(split_tools("a) b"), ["a)", "b"]);
        // Claude Code's documentation separates them with commas; a comma in a pattern stays.
        assert_eq!(
            split_tools("Read, Grep,Glob Bash(git add:*, git commit:*)"),
            ["Read", "Grep", "Glob", "Bash(git add:*, git commit:*)"]
        );
        assert_eq!(&text[manifest.body_start..], "# PDF\n");
    }

    #[test]
    fn flow_style_is_accepted() {
        let text =
            "---\n{name: my-skill, description: Does things, allowed-tools: [Read, Write]}\n---\n";
        let (manifest, diagnostics) = strict(text);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().fields.allowed_tools, ["Read", "Write"]);
    }

    #[test]
    fn bom_crlf_and_fence_in_body() {
        let text = "\u{FEFF}---\r\nname: My-Skill\r\ndescription: Does things.\r\n---\r\n\r\nBody\r\n---\r\nmore\r\n";
        let (manifest, diagnostics) = strict(text);
        assert_eq!(found(&diagnostics), [("name-case", E, 2, 1)]);
        let manifest = manifest.unwrap();
        assert_eq!(manifest.fields.description, "Does things.");
        assert_eq!(&text[manifest.body_start..], "Body\r\n---\r\nmore\r\n");
    }

    #[test]
    fn dashes_inside_a_value_stay_in_the_frontmatter() {
        let text = "---\nname: my-skill\ndescription: |\n  Before\n  ---\n  After\n---\nBody\n";
        let (manifest, diagnostics) = strict(text);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().fields.description, "Before\n---\nAfter");
    }

    #[test]
    fn split_failures_are_reported_at_line_one() {
        let cases = [
            ("# Title\n", "frontmatter-missing"),
            ("---\nname: a\n", "frontmatter-unclosed"),
            ("---\n \n---\n", "frontmatter-empty"),
        ];
        for (text, rule) in cases {
            for profile in [Profile::Strict, Profile::Lenient] {
                let (manifest, diagnostics) = parse(text, None, profile);
                assert!(manifest.is_none());
                assert_eq!(found(&diagnostics), [(rule, E, 1, 1)], "{text:?}");
            }
        }
        let huge = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(70_000));
        assert_eq!(
            found(&strict(&huge).1),
            [("frontmatter-too-large", E, 1, 1)]
        );
    }

    #[test]
    fn yaml_syntax_errors_use_file_lines() {
        let (manifest, diagnostics) = strict("---\nname: a\ndescription: [b\n---\n");
        assert!(manifest.is_none());
        let diagnostic = single(&diagnostics);
        assert_eq!(
            (diagnostic.rule, diagnostic.line, diagnostic.column),
            (Rule::YamlSyntax, 4, 1)
        );
        assert!(
            diagnostic.message.starts_with("invalid YAML: "),
            "{}",
            diagnostic.message
        );
        assert!(
            diagnostic.message.contains("at line 3 column 14"),
            "{}",
            diagnostic.message
        );
        assert!(!diagnostic.message.contains('\n'));
    }

    #[test]
    fn yaml_syntax_error_after_a_bom_and_crlf() {
        let diagnostics = lenient("\u{FEFF}---\r\nname: a\r\n\tdescription: b\r\n---\r\n").1;
        assert_eq!(found(&diagnostics), [("yaml-syntax", E, 3, 1)]);
    }

    #[test]
    fn duplicate_keys_are_reported_at_the_second_occurrence() {
        for profile in [Profile::Strict, Profile::Lenient] {
            let text = "---\nname: a\ndescription: b\nname: c\nmetadata:\n  k: 1\n  k: 2\n---\n";
            let (manifest, diagnostics) = parse(text, None, profile);
            assert!(manifest.is_none());
            assert_eq!(
                found(&diagnostics),
                [
                    ("yaml-duplicate-key", E, 4, 1),
                    ("yaml-duplicate-key", E, 7, 3)
                ]
            );
            assert!(
                diagnostics[0].message.contains("first on line 2"),
                "{}",
                diagnostics[0].message
            );
            assert!(
                diagnostics[1].message.contains("in \"metadata\""),
                "{}",
                diagnostics[1].message
            );
        }
    }

    #[test]
    fn each_repetition_of_a_key_is_placed_at_its_own_line() {
        let text = "---\nname: a\nname: b\ndescription: d\nname: c\n---\n";
        let diagnostics = strict(text).1;
        let expected = [
            ("yaml-duplicate-key", E, 3, 1),
            ("yaml-duplicate-key", E, 5, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
    }

    #[test]
    fn a_duplicate_in_flow_style_is_still_found() {
        let diagnostics = strict("---\n{name: a, name: b}\n---\n").1;
        assert_eq!(found(&diagnostics), [("yaml-duplicate-key", E, 2, 11)]);
    }

    #[test]
    fn deep_nesting_is_rejected_before_parsing() {
        // Each is under the 64 KiB cap and nests far past the limit: flow brackets, flow
        // mappings, compact block sequences (`- - - x`) and plain indentation.
        let indented: String = (0..250)
            .map(|level| format!("{}a:\n", "  ".repeat(level)))
            .collect();
        let cases = [
            (
                "flow [",
                format!("name: {}{}\n", "[".repeat(32_000), "]".repeat(32_000)),
                2,
                70,
            ),
            (
                "flow {",
                format!("a: {}{}\n", "{".repeat(32_000), "}".repeat(32_000)),
                2,
                67,
            ),
            (
                "block -",
                format!("a:\n  {}x\n", "- ".repeat(32_000)),
                3,
                129,
            ),
            ("indented", indented, 66, 129),
        ];
        for (style, yaml, line, column) in cases {
            assert!(yaml.len() <= frontmatter::MAX_FRONTMATTER_BYTES, "{style}");
            let text = format!("---\n{yaml}---\n");
            let (manifest, diagnostics) = finishes(move || strict(&text));
            assert!(manifest.is_none(), "{style}");
            let diagnostic = single(&diagnostics);
            assert_eq!(
                (
                    <&str>::from(diagnostic.rule),
                    diagnostic.line,
                    diagnostic.column
                ),
                ("frontmatter-too-deep", line, column),
                "{style}: {}",
                diagnostic.message
            );
            assert!(
                diagnostic.message.contains("more than 64 levels"),
                "{style}: {}",
                diagnostic.message
            );
        }
    }

    #[test]
    fn frontmatter_must_be_a_mapping() {
        for yaml in [
            "- a\n- b\n",
            "just text\n",
            "# only a comment\n",
            "~\n",
            "[a, b]\n",
        ] {
            let (manifest, diagnostics) = lenient(&format!("---\n{yaml}---\n"));
            assert!(manifest.is_none());
            assert_eq!(
                found(&diagnostics),
                [("frontmatter-not-mapping", E, 2, 1)],
                "{yaml:?}"
            );
        }
    }

    #[test]
    fn problems_accumulate_and_the_manifest_is_still_returned() {
        let text =
            "---\nname: Bad_Name\ndescription: ''\nextra: 1\ncompatibility: ''\nmetadata: 3\n---\n";
        let (manifest, diagnostics) = parse(text, Some("bad-name"), Profile::Strict);
        let expected = [
            ("unknown-field", E, 4, 1),
            ("name-case", E, 2, 1),
            ("name-chars", E, 2, 1),
            ("name-dir-mismatch", E, 2, 1),
            ("description-missing", E, 3, 1),
            ("compatibility-length", E, 5, 1),
            ("metadata-type", E, 6, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
        assert_eq!(manifest.unwrap().fields.name, "Bad_Name");
    }

    #[test]
    fn messages_are_one_line() {
        let text = "---\nname: \"a\\nb\"\ndescription: \"\\n\"\n\"x\\ny\": 1\n---\n";
        let diagnostics = strict(text).1;
        assert!(!diagnostics.is_empty());
        for diagnostic in diagnostics {
            assert!(!diagnostic.message.contains('\n'), "{}", diagnostic.message);
        }
    }

    #[test]
    fn odd_inputs_never_panic() {
        let mut inputs: Vec<String> = [
            "",
            "---",
            "---\n",
            "\u{FEFF}",
            "\u{FEFF}---",
            "---\n---\n",
            "---\r\n---\r\n",
            "---\n---",
            "\0\u{1}\u{7f}",
            "---\n\0\u{1}: \u{2}\n---\n",
            "---\n: :\n---\n",
            "---\n? \n---\n",
            "---\n*a\n---\n",
            "---\n&a\n---\n",
            "---\n!!binary x\n---\n",
            "---\nname: !tag\n---\n",
            "---\n{\n---\n",
            "---\n'\n---\n",
            "---\n\"\\\n---\n",
            "---\n...\n---\n",
            "---\na: 1\n...\nb: 2\n---\n",
            "---\n%YAML 1.2\n---\n",
            "---\n- : - :\n---\n",
            "---\nname: a\u{85}b: c\n---\n",
            "---\nname: a\rdescription: b: c\n---\n",
            "---\n\u{2028}: x\n---\n",
            "---\n  name: a\n  description: b: c\n---\n",
            "---\nname: a\n  b: c\n d: e\n---\n",
            "---\n\"a: b: c\n---\n",
            "---\nname: 99999999999999999999999999\ndescription: -99999999999999999999999\n---\n",
            "---\nmetadata: {1: {2: [3]}}\nx: .nan\ny: -.inf\n---\n",
            "---\n<<: {name: a}\n---\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        inputs.push(format!("---\nname: {}\n---\n", "x".repeat(60_000)));
        inputs.push(format!("---\n{}\n---\n", "a: b: ".repeat(10_000)));
        inputs.push(format!("---\n{}---\n", "a: b: c\n".repeat(3_000)));
        inputs.push("-".repeat(100_000));
        inputs.push(
            String::from_utf8_lossy(&(0..=255u8).cycle().take(5_000).collect::<Vec<u8>>())
                .into_owned(),
        );
        for input in &inputs {
            for profile in [Profile::Strict, Profile::Lenient] {
                let input = input.clone();
                finishes(move || {
                    let _ = parse(&input, Some("dir"), profile);
                    let _ = frontmatter::split(&input);
                });
            }
        }
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn parse_manifest_with_example() {
        use crate::parse::{Dialect, Profile, Rule, parse_manifest_with};
        use std::path::Path;

        let text = "---\nname: deploy\ndescription: Deploy.\ndisable-model-invocation: true\nargument-hint: \"[env]\"\n---\n";
        let file = Path::new("deploy/SKILL.md");
        let (manifest, diagnostics) = parse_manifest_with(
            text,
            file,
            Some("deploy"),
            Profile::Strict,
            Dialect::ClaudeCode.into(),
        );
        let manifest = manifest.unwrap();
        assert!(diagnostics.is_empty());
        assert!(!manifest.fields.invocation.model_may_invoke);
        assert_eq!(
            manifest.fields.invocation.argument_hint.as_deref(),
            Some("[env]")
        );
        // Kept as canonical JSON: keys sorted, so the same fields are always the same text.
        assert_eq!(
            manifest.fields.extra,
            r#"{"argument-hint":"[env]","disable-model-invocation":true}"#
        );

        let wrong = text.replace("invocation: true", "invocation: \"yes\"");
        let (_, diagnostics) = parse_manifest_with(
            &wrong,
            file,
            Some("deploy"),
            Profile::Strict,
            Dialect::ClaudeCode.into(),
        );
        assert_eq!(diagnostics[0].rule, Rule::ClientFieldType);
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (4, 1));
        assert_eq!(
            diagnostics[0].message,
            "field \"disable-model-invocation\" (Claude Code) must be a boolean (true or false), not a string"
        );
    }
}
