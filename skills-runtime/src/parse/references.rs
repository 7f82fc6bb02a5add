//! What a SKILL.md body refers to, read as Markdown (pulldown-cmark): every link and image
//! destination (inline `[x](dest "title")`, `<dest with spaces>`, reference-style `[x][r]` with
//! `[r]: dest`, autolinks) and every inline code span, each with its line and column; and the
//! check that the ones naming a file of the skill exist.
//!
//! The rules, once (the guide's validation chapter says the same):
//!
//! - A link names a file of the skill when its destination has no URL scheme (`https:`,
//!   `mailto:`, `script:` are not files), does not start with `#` (an anchor) or `/`, and,
//!   after its `#fragment` and `?query` are cut, it is percent-decoded and a leading `./`
//!   dropped, stays inside the skill's folder. A path that leaves it (`../other/SKILL.md`) links
//!   into another skill or elsewhere and is left alone. It is read relative to the file holding
//!   the link. A destination ending in `/` names a folder, which must exist as one. One that
//!   starts with a placeholder for the skill's folder (`${CLAUDE_SKILL_DIR}/`, `${SKILL_DIR}/`,
//!   `{baseDir}/`, common in real collections) is read from the skill's folder; any other
//!   placeholder (`$`, `{`) names nothing we can check.
//! - An inline code span names a file of the skill when the whole span is one relative path
//!   (no whitespace, no pattern or placeholder characters such as `*`, `{`, `$`, `:`) of at least
//!   two parts whose first part is one of the specification's folders (`scripts`, `references`,
//!   `assets`) or a folder the skill has. So `src/main.rs` in a body about the user's project is
//!   not checked, nor `scripts/` alone (how authors talk about a skill's layout).
//! - Fenced and indented code blocks are skipped: a sample there shows syntax (often of another
//!   skill), it is not a promise of this one.
//! - A link or code span naming a missing file is a `broken-reference` error in the strict
//!   profile (a warning in the lenient one, as discovery reads), naming the closest existing
//!   path or listing what exists; a warning when the file is on disk but the options leave it
//!   out (an include/exclude glob, the size cap, a dot-file: the author's choice). An example path that names no file of the skill (skill-creator
//!   in anthropics/skills names `scripts/rotate_pdf.py`) belongs in a code block, which is not
//!   read.
//! - One level deep: a Markdown file the body references that itself refers to further files of
//!   the skill, which the body does not reference, gets a `nested-reference` warning.
//! - With [`ScanOptions::unreferenced_files`], a file nothing refers to gets an
//!   `unreferenced-file` warning.

use std::collections::BTreeSet;
use std::path::Path;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

use super::tree::{ScanOptions, SkillSource, read_regular};
use super::{Diagnostic, Profile, Rule};
use crate::model::fields::MANIFEST;
use crate::text::{closest, echo};

/// The link target that marks a Rust script, as in `[fill the form](script:fill_form)`.
pub const SCRIPT_SCHEME: &str = "script:";

/// What clients replace with the skill's folder in a body: `${SKILL_DIR}` and
/// `${CLAUDE_SKILL_DIR}` (Claude Code's; `invoke::render` replaces both) and `{baseDir}`
/// (OpenClaw's). A path after one is read from the skill's folder.
const SKILL_DIR_PLACEHOLDERS: &[&str] = &["${SKILL_DIR}/", "${CLAUDE_SKILL_DIR}/", "{baseDir}/"];

/// The folders the Agent Skills specification names inside a skill.
const SPEC_FOLDERS: &[&str] = &["scripts", "references", "assets"];

/// How a body refers to something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A link or image destination, written inline or as an autolink.
    Link,
    /// A reference definition, `[label]: dest` (what `[x][label]` links to).
    Definition,
    /// An inline code span.
    Code,
}

/// One destination or code span of a Markdown text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// How it is written.
    pub kind: Kind,
    /// The destination as Markdown reads it (escapes resolved, not percent-decoded), or the
    /// code span's text.
    pub target: String,
    /// The 1-based line in the text given.
    pub line: usize,
    /// The 1-based column, in characters, where the destination or the code starts.
    pub column: usize,
}

impl Reference {
    /// The Rust script a link names (`script:NAME`), as written after the scheme.
    pub fn script(&self) -> Option<&str> {
        match self.kind {
            Kind::Link | Kind::Definition => self.target.strip_prefix(SCRIPT_SCHEME).map(str::trim),
            Kind::Code => None,
        }
    }
}

/// Whether `name` can be a Rust script's name as a reference writes it.
pub fn is_script_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every link and image destination, reference definition and inline code span of `text`
/// outside code blocks, in the order they are written.
pub fn references(text: &str) -> Vec<Reference> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut iter = Parser::new_ext(text, options).into_offset_iter();
    let events: Vec<_> = iter.by_ref().collect();
    // (offset, kind, target)
    let mut found: Vec<(usize, Kind, String)> = Vec::new();
    for (i, (event, range)) in events.iter().enumerate() {
        match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => {
                let at = match link_type {
                    LinkType::Inline => inline_destination(text, &events, i),
                    LinkType::Autolink | LinkType::Email => range.start + 1,
                    // Reported at their definition, where the path is written.
                    _ => continue,
                };
                found.push((at, Kind::Link, dest_url.to_string()));
            }
            Event::Code(code) => {
                let written = &text[range.clone()];
                let ticks = written.len() - written.trim_start_matches('`').len();
                let mut at = range.start + ticks;
                if !code.starts_with(' ') && text[at..].starts_with(' ') {
                    at += 1;
                }
                found.push((at, Kind::Code, code.to_string()));
            }
            _ => {}
        }
    }
    // A `script:` target Markdown does not read as a link (`[x](script:a b)`, no closing
    // parenthesis) is still reported as written, so that a typo does not pass as plain text.
    let taken: Vec<std::ops::Range<usize>> = events
        .iter()
        .filter(|(e, _)| {
            matches!(
                e,
                Event::Start(Tag::CodeBlock(_) | Tag::Link { .. } | Tag::Image { .. })
                    | Event::Code(_)
                    | Event::Html(_)
                    | Event::InlineHtml(_)
            )
        })
        .map(|(_, r)| r.clone())
        .collect();
    let marker = format!("]({SCRIPT_SCHEME}");
    for (at, _) in text.match_indices(&marker) {
        if taken.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let rest = &text[at + 2..];
        let end = rest.find([')', '\n']).unwrap_or(rest.len());
        found.push((at + 2, Kind::Link, rest[..end].trim().to_owned()));
    }
    for (_, def) in iter.reference_definitions().iter() {
        let written = &text[def.span.clone()];
        let at = written.find("]:").map_or(def.span.start, |i| {
            let rest = &written[i + 2..];
            let skipped = rest.len() - rest.trim_start().len();
            let angle = usize::from(rest.trim_start().starts_with('<'));
            def.span.start + i + 2 + skipped + angle
        });
        found.push((at, Kind::Definition, def.dest.to_string()));
    }
    found.sort_by_key(|(at, ..)| *at);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    found
        .into_iter()
        .map(|(at, kind, target)| {
            let line = starts.partition_point(|&s| s <= at);
            let start = starts[line - 1];
            let column = text.get(start..at).map_or(1, |s| s.chars().count() + 1);
            Reference {
                kind,
                target,
                line,
                column,
            }
        })
        .collect()
}

/// Where the destination of the inline link starting at `events[i]` is written: after the
/// `](` that follows its text.
fn inline_destination(
    text: &str,
    events: &[(Event<'_>, std::ops::Range<usize>)],
    i: usize,
) -> usize {
    let range = &events[i].1;
    let mut depth = 0usize;
    let mut inner_end = range.start + 1;
    for (event, r) in &events[i + 1..] {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) if depth == 0 => break,
            Event::End(_) => depth -= 1,
            _ => {}
        }
        inner_end = inner_end.max(r.end);
    }
    let inner_end = inner_end.min(range.end);
    text[inner_end..range.end]
        .find("](")
        .map_or(range.start, |at| {
            let rest = &text[inner_end + at + 2..range.end];
            let skipped = rest.len() - rest.trim_start().len();
            let angle = usize::from(rest.trim_start().starts_with('<'));
            inner_end + at + 2 + skipped + angle
        })
}

/// A path inside a skill that a reference names, relative to the skill's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Local {
    /// `a/b.md`, with `/` separators, without `./` or `..`.
    pub(crate) path: String,
    /// Written with a trailing `/`: it must be a folder.
    pub(crate) folder: bool,
}

/// The file of the skill a link destination names, read relative to `base` (the folder of the
/// file holding the link, relative to the skill's folder; empty for SKILL.md).
pub(crate) fn link_target(dest: &str, base: &str) -> Option<Local> {
    let (dest, base) = match from_skill_dir(dest) {
        Some(rest) => (rest, ""),
        None => (dest, base),
    };
    // Another placeholder (`${CLAUDE_PLUGIN_ROOT}/...`, `{lang}/...`) names no file we can see.
    if dest.is_empty()
        || dest.starts_with(['#', '/', '\\'])
        || dest.contains(['$', '{', '}'])
        || has_scheme(dest)
    {
        return None;
    }
    let cut = dest.find(['#', '?']).unwrap_or(dest.len());
    let decoded = percent_encoding::percent_decode_str(&dest[..cut]).decode_utf8_lossy();
    normalise(base, &decoded)
}

/// The file of the skill an inline code span names, when the whole span is one relative path
/// whose first part is a folder of the specification or one of `folders` (the skill's own).
pub(crate) fn code_target(span: &str, folders: &BTreeSet<&str>) -> Option<Local> {
    const NOT_IN_PATHS: &[char] = &[
        '*', '?', '[', ']', '{', '}', '<', '>', '|', '$', ':', '=', ',', ';', '\'', '"', '(', ')',
        '`', '\\', '#', '%', '~', '@',
    ];
    let (span, anywhere) = match from_skill_dir(span) {
        Some(rest) => (rest, true),
        None => (span, false),
    };
    if span.is_empty()
        || span.contains(char::is_whitespace)
        || span.contains(NOT_IN_PATHS)
        || span.starts_with('/')
        || !(anywhere || span.contains('/'))
    {
        return None;
    }
    let local = normalise("", span)?;
    if anywhere {
        return Some(local);
    }
    let mut parts = local.path.split('/');
    let first = parts.next()?;
    let checked = SPEC_FOLDERS.contains(&first) || folders.contains(first);
    (checked && parts.next().is_some()).then_some(local)
}

/// The rest of a path that starts with a placeholder for the skill's folder.
fn from_skill_dir(path: &str) -> Option<&str> {
    SKILL_DIR_PLACEHOLDERS
        .iter()
        .find_map(|p| path.strip_prefix(p))
}

/// Whether `dest` starts with a URL scheme (`https:`, `mailto:`, `script:`, `C:`).
fn has_scheme(dest: &str) -> bool {
    let Some(colon) = dest.find(':') else {
        return false;
    };
    let scheme = &dest[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// `path` joined to `base` without `.` and `..` parts; `None` when it leaves the skill or names
/// its folder itself.
fn normalise(base: &str, path: &str) -> Option<Local> {
    let folder = path.ends_with('/');
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    (!parts.is_empty()).then(|| Local {
        path: parts.join("/"),
        folder,
    })
}

/// What a skill holds, as references are checked against it.
struct Files<'a> {
    files: BTreeSet<&'a str>,
    folders: BTreeSet<String>,
    top_folders: BTreeSet<&'a str>,
}

impl<'a> Files<'a> {
    fn of(source: &'a SkillSource) -> Self {
        let mut files = Files {
            files: source.resources.iter().map(|r| r.path.as_str()).collect(),
            folders: BTreeSet::new(),
            top_folders: BTreeSet::new(),
        };
        files.files.insert(MANIFEST);
        for r in &source.resources {
            let mut end = 0;
            while let Some(slash) = r.path[end..].find('/') {
                end += slash;
                files.folders.insert(r.path[..end].to_owned());
                if !files.top_folders.contains(&r.path[..end]) && !r.path[..end].contains('/') {
                    files.top_folders.insert(&r.path[..end]);
                }
                end += 1;
            }
        }
        files
    }

    fn has(&self, local: &Local) -> bool {
        self.folders.contains(&local.path) || (!local.folder && self.files.contains(&*local.path))
    }

    /// The file of the skill `reference` names, read in the file at `base`.
    fn target(&self, reference: &Reference, base: &str) -> Option<Local> {
        match reference.kind {
            Kind::Link | Kind::Definition => link_target(&reference.target, base),
            Kind::Code => code_target(&reference.target, &self.top_folders),
        }
    }
}

/// The `broken-reference`, `nested-reference` and `unreferenced-file` diagnostics of a skill
/// whose files are known.
pub(crate) fn check(source: &SkillSource, options: &ScanOptions) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let files = Files::of(source);
    let start = source.body_start();
    let first_line = source.text[..start.min(source.text.len())]
        .matches('\n')
        .count();
    let mut referenced: BTreeSet<String> = BTreeSet::new();
    for reference in references(source.body()) {
        let Some(local) = files.target(&reference, "") else {
            continue;
        };
        if files.has(&local) {
            referenced.insert(local.path);
            continue;
        }
        if in_nested_skill(&source.dir, &local.path) {
            // A skill of its own inside this one: a link into another skill, left alone.
            continue;
        }
        let (message, left_out) = broken(source, &files, &reference, &local);
        let line = first_line + reference.line;
        // Lenient reading serves someone else's skill anyway: the model may still use the rest.
        // A file on disk that the options leave out (a glob, the size cap, a dot-file) was the
        // author's choice, already reported where it was made: the body is right about its folder.
        let warn = options.profile == Profile::Lenient || left_out;
        found.push(match warn {
            true => Diagnostic::warning(
                Rule::BrokenReference,
                &source.manifest_path,
                line,
                reference.column,
                message,
            ),
            false => Diagnostic::error(
                Rule::BrokenReference,
                &source.manifest_path,
                line,
                reference.column,
                message,
            ),
        });
    }
    let mut nested: BTreeSet<String> = BTreeSet::new();
    for path in &referenced {
        let markdown = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"));
        let Some(resource) = source.resources.iter().find(|r| &r.path == path) else {
            continue;
        };
        if !markdown || !resource.text {
            continue;
        }
        // Only files the body references, each read once, through the skill's size cap.
        let Ok(bytes) = read_regular(&resource.file, options.max_resource_bytes) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let base = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let further: Vec<(Reference, String)> = references(&text)
            .into_iter()
            .filter_map(|r| {
                let local = files.target(&r, base)?;
                let onward = files.has(&local)
                    && local.path != *path
                    && local.path != MANIFEST
                    && !referenced.contains(&local.path);
                onward.then_some((r, local.path))
            })
            .collect();
        let Some((first, _)) = further.first() else {
            continue;
        };
        let targets: BTreeSet<&str> = further.iter().map(|(_, p)| p.as_str()).collect();
        nested.extend(targets.iter().map(|p| (*p).to_owned()));
        found.push(Diagnostic::warning(
            Rule::NestedReference,
            &resource.file,
            first.line,
            first.column,
            format!(
                "{path}, which SKILL.md references, refers further to {}; the specification \
                 keeps references one level deep from SKILL.md: reference them from SKILL.md",
                list(targets.iter().copied(), 5)
            ),
        ));
    }
    if options.unreferenced_files {
        for resource in &source.resources {
            let covered = |p: &String| {
                resource.path == *p
                    || resource
                        .path
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            };
            let quiet =
                resource.path == super::dialect::CODEX_FILE || resource.path.starts_with("LICENSE");
            if quiet || referenced.iter().any(covered) || nested.iter().any(covered) {
                continue;
            }
            found.push(Diagnostic::path_warning(
                Rule::UnreferencedFile,
                &resource.file,
                "nothing in SKILL.md refers to this file, so a model reading the skill never \
                 learns of it: link it from the body, or exclude it"
                    .into(),
            ));
        }
    }
    found
}

/// Whether `path` lies in a skill nested in the skill at `dir` (a folder on the way holds a
/// SKILL.md); asked only of paths the skill does not have, so a body costs no file system
/// probes while its references resolve.
fn in_nested_skill(dir: &Path, path: &str) -> bool {
    let mut folder = dir.to_owned();
    path.split('/').any(|part| {
        folder.push(part);
        folder.join(MANIFEST).is_file()
    })
}

/// The message of a reference to a file the skill does not have, and whether the file is on
/// disk but left out of the skill.
fn broken(
    source: &SkillSource,
    files: &Files<'_>,
    reference: &Reference,
    local: &Local,
) -> (String, bool) {
    let what = if local.folder { "folder" } else { "file" };
    let how = match reference.kind {
        Kind::Code => "names",
        Kind::Link | Kind::Definition => "links to",
    };
    let path = echo(&local.path);
    let mut message =
        format!("the body {how} the {what} \"{path}\", which this skill does not have");
    let left_out = std::fs::symlink_metadata(source.dir.join(&local.path)).is_ok();
    if left_out {
        message.push_str(
            " among its files (it exists, but is left out: a dot-file, an include/exclude glob or \
             the size cap, or a link out of the skill)",
        );
    }
    match suggestion(files, local) {
        Some(near) => message.push_str(&format!("; did you mean \"{near}\"?")),
        None if files.files.len() <= 1 => {
            message.push_str("; it has no files besides SKILL.md: add the file or fix the path");
        }
        None => message.push_str(&format!(
            "; its files are: {}: fix the path or add the file",
            list(files.files.iter().copied().filter(|f| *f != MANIFEST), 10)
        )),
    }
    (message, left_out)
}

/// The existing path closest to `local`: a near name in the same folder, the same name in
/// another folder, or (when its folder does not exist) a near path. Whole paths are not compared
/// when the folder exists: their shared `references/` makes `finance.md` look like `schemas.md`.
fn suggestion(files: &Files<'_>, local: &Local) -> Option<String> {
    let all: Vec<&str> = if local.folder {
        files.folders.iter().map(String::as_str).collect()
    } else {
        let folders = files.folders.iter().map(String::as_str);
        files.files.iter().copied().chain(folders).collect()
    };
    let (folder, name) = local.path.rsplit_once('/').unwrap_or(("", &local.path));
    let in_folder = |p: &&str| p.rsplit_once('/').map_or("", |(f, _)| f) == folder;
    let tail = |p: &str| p.rsplit_once('/').map_or(p, |(_, t)| t).to_owned();
    let siblings: Vec<&str> = all.iter().copied().filter(in_folder).collect();
    if let Some(near) = closest(
        name,
        siblings
            .iter()
            .map(|p| p.rsplit_once('/').map_or(*p, |(_, t)| t)),
    ) {
        return siblings
            .into_iter()
            .find(|p| tail(p) == near)
            .map(str::to_owned);
    }
    if let Some(moved) = all.iter().find(|p| tail(p) == name && **p != local.path) {
        return Some((*moved).to_owned());
    }
    let folder_exists = folder.is_empty() || files.folders.contains(folder);
    (!folder_exists)
        .then(|| closest(&local.path, all.iter().copied()))
        .flatten()
}

/// `a, b, c` and how many more past `limit`.
fn list<'a>(items: impl Iterator<Item = &'a str>, limit: usize) -> String {
    let items: Vec<&str> = items.collect();
    let mut out = items
        .iter()
        .take(limit)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > limit {
        out.push_str(&format!(" and {} more", items.len() - limit));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(text: &str) -> Vec<(Kind, String, usize, usize)> {
        references(text)
            .into_iter()
            .map(|r| (r.kind, r.target, r.line, r.column))
            .collect()
    }

    #[test]
    fn every_link_form_is_found_at_its_destination() {
        let text = "See [a](references/a.md) and ![img](assets/i.png \"t\").\n\
                    Also [b][r], [r] and <https://x.org>, [sp](<my file.md>).\n\
                    \n\
                    [r]: references/b.md \"Title\"\n";
        assert_eq!(
            targets(text),
            [
                (Kind::Link, "references/a.md".into(), 1, 9),
                (Kind::Link, "assets/i.png".into(), 1, 37),
                (Kind::Link, "https://x.org".into(), 2, 23),
                (Kind::Link, "my file.md".into(), 2, 45),
                (Kind::Definition, "references/b.md".into(), 4, 6),
            ]
        );
    }

    #[test]
    fn code_spans_are_found_and_code_blocks_skipped() {
        let text = "Run `scripts/x.py` or `` a`b ``.\n\
                    ```\n[no](fenced.md) `scripts/fenced.py`\n```\n\
                    \n    [no](indented.md)\n\n~~~md\n[r]: defined-in-fence.md\n~~~\n";
        assert_eq!(
            targets(text),
            [
                (Kind::Code, "scripts/x.py".into(), 1, 6),
                (Kind::Code, "a`b".into(), 1, 26),
            ]
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "ünïcødé → [x](references/ü.md)\n";
        assert_eq!(
            targets(text),
            [(Kind::Link, "references/ü.md".into(), 1, 15)]
        );
        assert_eq!(
            &text.chars().skip(14).collect::<String>()[..10],
            "references"
        );
    }

    #[test]
    fn script_links_are_links_with_their_scheme() {
        let found = references(
            "[a](script:fill_form) and [b](script:) and `script:x` and `[c](script:y)`\n\
             [d](script:a b) [e](script:z\n```\n[f](script:fenced)\n```\n",
        );
        let names: Vec<Option<&str>> = found.iter().map(Reference::script).collect();
        assert_eq!(
            names,
            [
                Some("fill_form"),
                Some(""),
                None,
                None,
                Some("a b"),
                Some("z")
            ],
            "what Markdown does not read as a link is reported as written, outside code"
        );
        assert_eq!((found[4].line, found[4].column), (2, 5));
        assert!(is_script_name("x_1") && !is_script_name("1x") && !is_script_name("a b"));
    }

    #[test]
    fn what_a_link_names_inside_the_skill() {
        let file = |d: &str| link_target(d, "").map(|l| (l.path, l.folder));
        assert_eq!(
            file("references/a.md"),
            Some(("references/a.md".into(), false))
        );
        assert_eq!(
            file("./references/a.md#part?x"),
            Some(("references/a.md".into(), false))
        );
        assert_eq!(
            file("references/my%20file.md"),
            Some(("references/my file.md".into(), false))
        );
        assert_eq!(file("references/"), Some(("references".into(), true)));
        for not_a_file in [
            "https://x.org/a.md",
            "mailto:a@b.c",
            "script:fill",
            "#anchor",
            "/etc/passwd",
            "../other/SKILL.md",
            "a/../../b.md",
            "",
            "./",
            "?q",
        ] {
            assert_eq!(file(not_a_file), None, "{not_a_file}");
        }
        assert_eq!(
            file("${CLAUDE_SKILL_DIR}/references/a.md"),
            Some(("references/a.md".into(), false))
        );
        let placeholder = link_target("{baseDir}/scripts/x.py", "references").unwrap();
        assert_eq!(
            placeholder.path, "scripts/x.py",
            "read from the skill's folder"
        );
        for not_a_file in [
            "${CLAUDE_SKILL_DIR}/../other/SKILL.md",
            "${CLAUDE_PLUGIN_ROOT}/a.md",
            "{lang}/a.md",
        ] {
            assert_eq!(file(not_a_file), None, "{not_a_file}");
        }
        let nested = link_target("b.md", "references").unwrap();
        assert_eq!(nested.path, "references/b.md");
        assert_eq!(
            link_target("../SKILL.md", "references").unwrap().path,
            "SKILL.md"
        );
    }

    #[test]
    fn what_a_code_span_names_inside_the_skill() {
        let folders: BTreeSet<&str> = ["templates"].into();
        let file = |s: &str| code_target(s, &folders).map(|l| l.path);
        assert_eq!(file("scripts/fill.py").as_deref(), Some("scripts/fill.py"));
        assert_eq!(
            file("./references/a.md").as_deref(),
            Some("references/a.md")
        );
        assert_eq!(
            file("templates/x.html").as_deref(),
            Some("templates/x.html")
        );
        assert_eq!(file("${SKILL_DIR}/notes.md").as_deref(), Some("notes.md"));
        assert_eq!(
            file("{baseDir}/scripts/x.py").as_deref(),
            Some("scripts/x.py")
        );
        for not_checked in [
            "src/main.rs",
            "scripts/",
            "scripts",
            "python scripts/fill.py",
            "scripts/*.py",
            "{lang}/scripts/x.py",
            "$SKILL_DIR/scripts/x.py",
            "scripts/x.py:12",
            "https://x.org/scripts/a",
            "/scripts/x.py",
            "../scripts/x.py",
        ] {
            assert_eq!(file(not_checked), None, "{not_checked}");
        }
    }

    mod checked {
        use std::fs;
        use std::path::Path;

        use crate::parse::scan::scan;
        use crate::parse::{Diagnostic, Profile, Rule, ScanOptions};

        const BODY: &str = "---\nname: forms\ndescription: Fills forms.\n---\n# Forms\n\n\
            Read [the guide](references/forms.md), [the folder](references/), [top](#forms),\n\
            [site](https://example.org/x.md), [other](../other/SKILL.md), [b][r] and `scripts/fil.py`.\n\
            Talk of `src/main.rs` and `scripts/` is not checked.\n\
            ```\n[sample](references/sample.md)\n```\n\
            [r]: references/missing.md\n";

        fn skill(root: &Path, body: &str) {
            let dir = root.join("forms");
            fs::create_dir_all(dir.join("references")).unwrap();
            fs::create_dir_all(dir.join("scripts")).unwrap();
            fs::write(dir.join("SKILL.md"), body).unwrap();
            fs::write(dir.join("references/form.md"), "See [more](more.md).\n").unwrap();
            fs::write(dir.join("references/more.md"), "More.\n").unwrap();
            fs::write(dir.join("scripts/fill.py"), "print()\n").unwrap();
            fs::write(dir.join("notes.txt"), "n\n").unwrap();
        }

        fn problems(root: &Path, options: &ScanOptions) -> Vec<(Rule, bool, usize, usize, String)> {
            scan(root, options)
                .diagnostics
                .into_iter()
                .map(|d: Diagnostic| (d.rule, d.is_error(), d.line, d.column, d.message))
                .collect()
        }

        #[test]
        fn a_broken_link_is_an_error_at_its_place_with_the_closest_path() {
            let root = tempfile::tempdir().unwrap();
            skill(root.path(), BODY);
            let tree = scan(root.path(), &ScanOptions::default());
            assert!(!tree.skills[0].valid);
            let found = problems(root.path(), &ScanOptions::default());
            let [link, code, definition] = &found[..] else {
                panic!("{found:#?}")
            };
            assert_eq!(
                (link.0, link.1, link.2, link.3),
                (Rule::BrokenReference, true, 7, 18)
            );
            assert!(
                link.4.contains("\"references/forms.md\"")
                    && link.4.contains("did you mean \"references/form.md\""),
                "{}",
                link.4
            );
            assert_eq!(
                (code.0, code.1, code.2, code.3),
                (Rule::BrokenReference, true, 8, 75)
            );
            assert!(
                code.4.contains("did you mean \"scripts/fill.py\""),
                "{}",
                code.4
            );
            assert_eq!(
                (definition.0, definition.1, definition.2, definition.3),
                (Rule::BrokenReference, true, 13, 6)
            );
            assert!(
                definition
                    .4
                    .contains("its files are: notes.txt, references/form.md"),
                "{}",
                definition.4
            );

            let lenient = ScanOptions {
                profile: Profile::Lenient,
                ..ScanOptions::default()
            };
            let tree = scan(root.path(), &lenient);
            assert!(
                tree.skills[0].valid,
                "lenient: a broken link is a warning and the skill loads"
            );
            assert!(
                tree.diagnostics
                    .iter()
                    .all(|d| d.rule == Rule::BrokenReference && !d.is_error())
            );
        }

        #[test]
        fn a_link_into_a_nested_skill_is_a_link_into_another_skill() {
            let root = tempfile::tempdir().unwrap();
            skill(
                root.path(),
                "---\nname: forms\ndescription: Fills forms.\n---\n[inner](inner/SKILL.md) [its file](inner/a.md) [gone](inner2/SKILL.md)\n",
            );
            let inner = root.path().join("forms/inner");
            fs::create_dir_all(&inner).unwrap();
            fs::write(
                inner.join("SKILL.md"),
                "---\nname: inner\ndescription: Inner.\n---\nBody.\n",
            )
            .unwrap();
            let found = problems(root.path(), &ScanOptions::default());
            let [gone] = &found[..] else {
                panic!("{found:#?}")
            };
            assert_eq!((gone.0, gone.3), (Rule::BrokenReference, 55));
        }

        #[test]
        fn references_one_level_deep_and_unreferenced_files() {
            let root = tempfile::tempdir().unwrap();
            skill(
                root.path(),
                "---\nname: forms\ndescription: Fills forms.\n---\nSee [form](references/form.md).\n",
            );
            let found = problems(root.path(), &ScanOptions::default());
            let [nested] = &found[..] else {
                panic!("{found:#?}")
            };
            assert_eq!(
                (nested.0, nested.1, nested.2, nested.3),
                (Rule::NestedReference, false, 1, 12)
            );
            assert!(
                nested.4.contains("refers further to references/more.md"),
                "{}",
                nested.4
            );

            // Linked from SKILL.md too, it is one level deep.
            skill(
                root.path(),
                "---\nname: forms\ndescription: Fills forms.\n---\n[a](references/form.md) [b](references/more.md)\n",
            );
            assert!(problems(root.path(), &ScanOptions::default()).is_empty());
            let unreferenced = ScanOptions {
                unreferenced_files: true,
                ..ScanOptions::default()
            };
            let found = problems(root.path(), &unreferenced);
            let paths: Vec<String> = scan(root.path(), &unreferenced)
                .diagnostics
                .iter()
                .map(|d| {
                    d.file
                        .strip_prefix(root.path())
                        .unwrap()
                        .display()
                        .to_string()
                })
                .collect();
            assert_eq!(
                paths,
                ["forms/notes.txt", "forms/scripts/fill.py"],
                "{found:#?}"
            );
            assert!(
                found
                    .iter()
                    .all(|d| d.0 == Rule::UnreferencedFile && !d.1 && d.2 == 0)
            );
        }
    }
}

/// Examples of items this module keeps to the crate (the macro reaches them through
/// `__private`).
#[cfg(test)]
mod examples {
    #[test]
    fn references_example() {
        use crate::parse::references::{Kind, references};
        let body = "Fill it with [the filler](script:fill_form), read [the guide](references/guide.md)\nand run `scripts/fill.py`.\n```\n[x](script:ignored)\n```\n";
        let found = references(body);
        let seen: Vec<(Kind, &str, usize, usize)> = found
            .iter()
            .map(|r| (r.kind, r.target.as_str(), r.line, r.column))
            .collect();
        assert_eq!(
            seen,
            [
                (Kind::Link, "script:fill_form", 1, 27),
                (Kind::Link, "references/guide.md", 1, 63),
                (Kind::Code, "scripts/fill.py", 2, 10),
            ]
        );
        assert_eq!(found[0].script(), Some("fill_form"));
        assert_eq!(found[1].script(), None);
    }

    #[test]
    fn is_script_name_example() {
        use crate::parse::references::is_script_name;
        assert!(is_script_name("fill_form"));
        assert!(!is_script_name("fill form") && !is_script_name("2fill"));
    }
}
