//! The L1 listing: every skill's name and description, for the system prompt or a tool
//! description.
//!
//! Formats: the reference `<available_skills>` XML (byte for byte what the reference
//! implementation prints), a Markdown list (the default, and the cheapest in tokens), or a
//! template of your own. An optional budget in characters shortens skills to their names, from
//! the end of the listing order, and the listing says how many were shortened: a skill never
//! disappears silently.

use std::fmt::Write;

use crate::skill::Skill;

/// How the listing is written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ListingFormat {
    /// `- name: description`, one line per skill.
    #[default]
    Markdown,
    /// The reference `<available_skills>` XML, one element per line, text XML-escaped.
    Xml,
    /// A template applied per skill: `{name}`, `{description}` (on one line), `{resources}`,
    /// `{scripts}` (`yes`/`no`) and `{chunks}` (comma-separated ids) are replaced.
    Template(String),
}

/// Listing options.
///
/// ```
/// use skills_embed_runtime::listing::{ListingFormat, ListingOptions};
/// let options = ListingOptions { budget_chars: Some(8_000), ..ListingOptions::default() };
/// assert_eq!(options.format, ListingFormat::Markdown);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListingOptions {
    /// The format.
    pub format: ListingFormat,
    /// At most this many characters; over it, skills from the end of the listing are shortened
    /// to their names and the listing says how many.
    pub budget_chars: Option<usize>,
    /// Say which skills have resources, scripts or chunks.
    pub hints: bool,
}

/// One skill as the listing sees it.
#[derive(Debug, Clone, Default)]
pub struct Entry<'a> {
    /// The name.
    pub name: &'a str,
    /// The description.
    pub description: &'a str,
    /// Where its SKILL.md is, for skills on disk (XML `<location>`).
    pub location: Option<&'a str>,
    /// Whether it has files other than SKILL.md.
    pub has_resources: bool,
    /// Whether it has files under `scripts/` or executable files.
    pub has_scripts: bool,
    /// Its chunk ids.
    pub chunks: Vec<&'a str>,
}

impl<'a> Entry<'a> {
    /// The entry for a skill.
    pub fn of(skill: &'a Skill) -> Self {
        Entry {
            name: skill.name(),
            description: skill.description(),
            location: None,
            has_resources: skill.resources().next().is_some(),
            has_scripts: skill
                .resources()
                .any(|f| f.is_executable() || f.path().starts_with("scripts/")),
            chunks: skill.chunks().iter().map(|c| c.id()).collect(),
        }
    }
}

/// Renders the listing of `entries` in order.
///
/// ```
/// use skills_embed_runtime::listing::{render, Entry, ListingFormat, ListingOptions};
/// let entries = [
///     Entry { name: "code-review", description: "Review a change for bugs, tests and style. Use before merging.", ..Entry::default() },
///     Entry { name: "pdf", description: "Read, fill and merge PDF files. Use when the user gives you a PDF.", ..Entry::default() },
///     Entry { name: "sql", description: "Write safe schema migrations. Use when a table or index changes.", ..Entry::default() },
/// ];
/// let text = render(&entries, &ListingOptions::default());
/// assert!(text.starts_with("- code-review: Review a change for bugs, tests and style. Use before merging.\n"));
/// assert_eq!(text.lines().count(), 3);
///
/// // Over budget: skills are shortened to names from the end, and the listing says so.
/// let tight = ListingOptions { budget_chars: Some(220), ..ListingOptions::default() };
/// let text = render(&entries, &tight);
/// assert!(text.contains("\n- pdf: Read, fill and merge PDF files."));
/// assert!(text.contains("\n- sql\n(1 skill shown by name only"));
/// assert!(text.chars().count() <= 220);
/// ```
pub fn render(entries: &[Entry<'_>], options: &ListingOptions) -> String {
    let full = render_with(entries, options, entries.len());
    let Some(budget) = options.budget_chars else {
        return full;
    };
    if full.chars().count() <= budget {
        return full;
    }
    // Shorten from the end until it fits (or everything is a name).
    for keep in (0..entries.len()).rev() {
        let text = render_with(entries, options, keep);
        if text.chars().count() <= budget || keep == 0 {
            return text;
        }
    }
    full
}

/// Renders with the first `keep` entries in full and the rest as names only.
fn render_with(entries: &[Entry<'_>], options: &ListingOptions, keep: usize) -> String {
    let shortened = entries.len() - keep;
    let mut out = String::new();
    match &options.format {
        ListingFormat::Markdown => {
            for (i, e) in entries.iter().enumerate() {
                let _ = write!(out, "- {}", quote_name(e.name));
                if i < keep {
                    out.push_str(": ");
                    push_one_line(&mut out, e.description);
                    if options.hints {
                        push_hints(&mut out, e);
                    }
                }
                out.push('\n');
            }
            if shortened > 0 {
                let _ = writeln!(out, "({})", shortened_note(shortened));
            }
        }
        ListingFormat::Xml => {
            out.push_str("<available_skills>");
            for (i, e) in entries.iter().enumerate() {
                out.push_str("\n<skill>\n<name>\n");
                push_escaped(&mut out, &quote_name(e.name));
                out.push_str("\n</name>");
                if i < keep {
                    out.push_str("\n<description>\n");
                    push_escaped(&mut out, e.description);
                    out.push_str("\n</description>");
                }
                if let Some(location) = e.location {
                    out.push_str("\n<location>\n");
                    push_escaped(&mut out, &one_line(location));
                    out.push_str("\n</location>");
                }
                if options.hints && i < keep {
                    for (tag, on) in [
                        ("has_resources", e.has_resources),
                        ("has_scripts", e.has_scripts),
                    ] {
                        let _ = write!(out, "\n<{tag}>\n{on}\n</{tag}>");
                    }
                    if !e.chunks.is_empty() {
                        out.push_str("\n<chunks>\n");
                        push_escaped(&mut out, &names(&e.chunks));
                        out.push_str("\n</chunks>");
                    }
                }
                out.push_str("\n</skill>");
            }
            if shortened > 0 {
                let _ = write!(out, "\n<!-- {} -->", shortened_note(shortened));
            }
            out.push_str("\n</available_skills>");
        }
        ListingFormat::Template(template) => {
            for (i, e) in entries.iter().enumerate() {
                if i < keep {
                    let mut description = String::new();
                    push_one_line(&mut description, e.description);
                    fill(
                        &mut out,
                        template,
                        &[
                            ("{name}", &quote_name(e.name)),
                            ("{description}", &description),
                            ("{resources}", yes_no(e.has_resources)),
                            ("{scripts}", yes_no(e.has_scripts)),
                            ("{chunks}", &names(&e.chunks)),
                        ],
                    );
                } else {
                    let _ = writeln!(out, "- {}", quote_name(e.name));
                }
            }
            if shortened > 0 {
                let _ = writeln!(out, "({})", shortened_note(shortened));
            }
        }
    }
    out
}

fn shortened_note(n: usize) -> String {
    let skills = if n == 1 { "skill" } else { "skills" };
    format!("{n} {skills} shown by name only, to fit the listing budget")
}

/// Writes `template` with each placeholder replaced by its value, in one pass: a value that
/// holds a placeholder's text (a description saying `{name}`) is written as it is.
fn fill(out: &mut String, template: &str, values: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match values.iter().find(|(key, _)| rest.starts_with(key)) {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[key.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

fn yes_no(on: bool) -> &'static str {
    if on { "yes" } else { "no" }
}

fn push_hints(out: &mut String, e: &Entry<'_>) {
    let mut hints = Vec::new();
    if e.has_resources {
        hints.push("has files".to_owned());
    }
    if e.has_scripts {
        hints.push("has scripts".to_owned());
    }
    if !e.chunks.is_empty() {
        hints.push(format!("chunks: {}", names(&e.chunks)));
    }
    if !hints.is_empty() {
        let _ = write!(out, " ({})", hints.join("; "));
    }
}

/// Names joined with `, `, each written by [`quote_name`].
pub(crate) fn names<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&quote_name(item.as_ref()));
    }
    out
}

/// Collapses every run of whitespace to one space, so a description stays one list item.
pub(crate) fn push_one_line(out: &mut String, text: &str) {
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// A file or skill name as every listing and message writes it: bare when it is plain, else
/// as a JSON string (see [`json_string`]).
///
/// A name is written bare unless it is empty, starts or ends with whitespace, or holds a
/// character that could break a line, hide, or make one entry pass for two or for another
/// field: a control or format character (zero-width, bidirectional), a line or paragraph
/// separator, any whitespace but the space, or one of `"` `\` `,` `:`. So `references/a.md`
/// stays as it is, and `a"b.md`, `e` + newline + `f.md` or `x, y.md` become `"a\"b.md"`,
/// `"e\nf.md"` and `"x, y.md"`: one entry, on one line, that a JSON parser reads back.
///
/// Hosts that print names (a command-line tool, a log) can use it to write them the same way.
///
/// ```
/// use skills_embed_runtime::listing::quote_name;
/// assert_eq!(quote_name("references/forms.md"), "references/forms.md");
/// assert_eq!(quote_name("a\"b.md"), r#""a\"b.md""#);
/// assert_eq!(quote_name("e\nf.md"), r#""e\nf.md""#);
/// assert_eq!(quote_name("x, y.md"), r#""x, y.md""#);
/// ```
pub fn quote_name(name: &str) -> std::borrow::Cow<'_, str> {
    if needs_quoting(name) {
        std::borrow::Cow::Owned(json_string(name))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// A path written alone (a `<location>`, "on disk at ..."): as it is, unless it holds a
/// character that could break the line or hide (a control or format character, whitespace
/// other than the space), when it is written as a JSON string. Separators such as `,` and `:`
/// (`C:\skills`) stay bare, since nothing follows that they could be taken to split.
pub(crate) fn one_line(path: &str) -> std::borrow::Cow<'_, str> {
    let breaks = path
        .chars()
        .any(|c| (c.is_whitespace() && c != ' ') || c.is_control() || is_invisible(c));
    if breaks {
        std::borrow::Cow::Owned(json_string(path))
    } else {
        std::borrow::Cow::Borrowed(path)
    }
}

/// Whether [`quote_name`] quotes `name`.
pub(crate) fn needs_quoting(name: &str) -> bool {
    name.is_empty()
        || name.starts_with(char::is_whitespace)
        || name.ends_with(char::is_whitespace)
        || name.chars().any(|c| {
            matches!(c, '"' | '\\' | ',' | ':')
                || (c.is_whitespace() && c != ' ')
                || c.is_control()
                || is_invisible(c)
        })
}

/// `text` as a JSON string literal, with quotes: what `serde_json` writes, and besides every
/// character that JSON leaves raw but that could break a line or hide (DEL, C1 controls such
/// as NEL, line and paragraph separators, zero-width and bidirectional marks) written as a
/// `\uXXXX` escape. Any JSON parser reads it back to `text`.
///
/// ```
/// use skills_embed_runtime::listing::json_string;
/// assert_eq!(json_string("a.md"), r#""a.md""#);
/// let awkward = "a\"b\\c\nd\u{2028}e\u{200b}f";
/// let quoted = json_string(awkward);
/// assert_eq!(quoted, r#""a\"b\\c\nd\u2028e\u200bf""#);
/// assert_eq!(serde_json::from_str::<String>(&quoted).unwrap(), awkward);
/// ```
pub fn json_string(text: &str) -> String {
    let quoted =
        serde_json::to_string(text).unwrap_or_else(|_| format!("\"{}\"", text.escape_default()));
    if !quoted.chars().any(escaped_beyond_json) {
        return quoted;
    }
    let mut out = String::with_capacity(quoted.len() + 16);
    for c in quoted.chars() {
        if escaped_beyond_json(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters JSON may leave raw that [`json_string`] escapes.
fn escaped_beyond_json(c: char) -> bool {
    (c.is_control() && !c.is_ascii_control()) || c == '\u{7f}' || is_invisible(c)
}

/// Format characters and separators that render as nothing or move text: soft hyphen, Arabic
/// letter mark, Mongolian vowel separator, zero-width and directional marks, line and paragraph
/// separators, bidirectional embeddings and isolates, word joiners, the byte order mark,
/// interlinear annotations and tag characters.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// Escapes like Python's `html.escape(s, quote=True)`, which the reference implementation uses.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<Entry<'static>> {
        vec![
            Entry {
                name: "a",
                description: "First <skill> & \"more\"",
                has_resources: true,
                ..Entry::default()
            },
            Entry {
                name: "b",
                description: "Second\nskill",
                location: Some("/s/b/SKILL.md"),
                ..Entry::default()
            },
        ]
    }

    #[test]
    fn xml_matches_the_reference_format() {
        let text = render(
            &entries(),
            &ListingOptions {
                format: ListingFormat::Xml,
                ..Default::default()
            },
        );
        assert_eq!(
            text,
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nFirst &lt;skill&gt; &amp; &quot;more&quot;\n</description>\n</skill>\n\
             <skill>\n<name>\nb\n</name>\n<description>\nSecond\nskill\n</description>\n<location>\n/s/b/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            render(
                &[],
                &ListingOptions {
                    format: ListingFormat::Xml,
                    ..Default::default()
                }
            ),
            "<available_skills>\n</available_skills>"
        );
    }

    #[test]
    fn budget_never_drops_a_skill_silently() {
        for budget in [0, 10, 30, 1000] {
            for format in [ListingFormat::Markdown, ListingFormat::Xml] {
                let options = ListingOptions {
                    format,
                    budget_chars: Some(budget),
                    hints: false,
                };
                let text = render(&entries(), &options);
                assert!(text.contains("\na\n") || text.contains("- a"), "{text}");
                assert!(text.contains("\nb\n") || text.contains("- b"), "{text}");
                let full = render(
                    &entries(),
                    &ListingOptions {
                        budget_chars: None,
                        ..options.clone()
                    },
                );
                if text != full {
                    assert!(text.contains("shown by name only"), "{text}");
                }
            }
        }
    }

    #[test]
    fn a_template_is_filled_in_one_pass() {
        let entries = [Entry {
            name: "a\nb",
            description: "Say {name} and {chunks}; keep {braces}",
            ..Entry::default()
        }];
        let template = ListingOptions {
            format: ListingFormat::Template("{name} = {description} {\n".into()),
            ..Default::default()
        };
        assert_eq!(
            render(&entries, &template),
            "\"a\\nb\" = Say {name} and {chunks}; keep {braces} {\n"
        );
    }

    #[test]
    fn hints_and_templates() {
        let options = ListingOptions {
            hints: true,
            ..Default::default()
        };
        assert!(
            render(&entries(), &options).starts_with("- a: First <skill> & \"more\" (has files)\n")
        );
        let template = ListingOptions {
            format: ListingFormat::Template("* {name} [{resources}] {description}\n".into()),
            ..Default::default()
        };
        assert_eq!(
            render(&entries(), &template),
            "* a [yes] First <skill> & \"more\"\n* b [no] Second skill\n"
        );
    }
}
