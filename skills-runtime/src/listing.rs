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
                let _ = write!(out, "- {}", e.name);
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
                push_escaped(&mut out, e.name);
                out.push_str("\n</name>");
                if i < keep {
                    out.push_str("\n<description>\n");
                    push_escaped(&mut out, e.description);
                    out.push_str("\n</description>");
                }
                if let Some(location) = e.location {
                    out.push_str("\n<location>\n");
                    push_escaped(&mut out, location);
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
                        push_escaped(&mut out, &e.chunks.join(", "));
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
                    let line = template
                        .replace("{name}", e.name)
                        .replace("{description}", &description)
                        .replace("{resources}", yes_no(e.has_resources))
                        .replace("{scripts}", yes_no(e.has_scripts))
                        .replace("{chunks}", &e.chunks.join(", "));
                    out.push_str(&line);
                } else {
                    let _ = writeln!(out, "- {}", e.name);
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
        hints.push(format!("chunks: {}", e.chunks.join(", ")));
    }
    if !hints.is_empty() {
        let _ = write!(out, " ({})", hints.join("; "));
    }
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
