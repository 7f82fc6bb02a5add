//! Framing what a tool call returns: the answer's header in the configured shape, the
//! continuation of a cut file, the lists of chunks and files after a body, and the refusals
//! every host words the same way.

use std::fmt::Write;

use super::call::CallError;
use super::definition::{LOAD_SKILL_CHUNK, READ_SKILL_RESOURCE};
use super::settings::{OutputShape, Settings, ToolStyle};
use crate::listing;
use crate::model::file::hex;
use crate::model::skill::Skill;
use crate::policy::Subject;
use crate::text::{self, echo, excerpt};

/// What a tool call returns to the model, and what the host may want to know about it.
///
/// ```
/// use skills_embed::policy::{Permissions, Subject};
/// use skills_embed::tools::{Settings, Tools};
/// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// # let pdf = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Use pdftotext.\n".into(),
/// #     vec![],
/// # );
/// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
/// let tools = Tools::new(set, Settings::default());
/// let out = tools.handle("load_skill", r#"{"skill":"pdf"}"#);
/// assert!(!out.is_error && out.text.contains("Use pdftotext."));
/// assert_eq!((out.report.unwrap().skill, out.approval), ("pdf".to_owned(), None));
/// let out = tools.handle("load_skill", r#"{"skill":"docx"}"#);
/// assert!(out.is_error && out.report.is_none());
/// assert!(out.text.starts_with(r#"Skill "docx" not found."#), "{}", out.text);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The text for the model.
    pub text: String,
    /// Whether the call failed (report it to the model as a tool error).
    pub is_error: bool,
    /// What was loaded, for logs and sessions.
    pub report: Option<LoadReport>,
    /// The skill whose loading waits for the user's approval (an `ask` permission).
    pub approval: Option<Subject>,
}

impl ToolOutput {
    pub(crate) fn error(text: impl Into<String>) -> Self {
        ToolOutput {
            text: text.into(),
            is_error: true,
            report: None,
            approval: None,
        }
    }
}

impl ToolOutput {
    /// The answer while `subject` (a skill's name, or `skill/script` for a run) waits for the
    /// user's approval.
    pub(crate) fn awaiting_approval(subject: Subject) -> Self {
        ToolOutput {
            text: format!(
                "{} needs the user's approval, which has been requested. \
                 Continue without it until the user answers.",
                capitalized(&act(&subject))
            ),
            is_error: false,
            report: None,
            approval: Some(subject),
        }
    }
}

/// What approving `subject` allows: `loading skill "pdf"` or `running script "fill" of skill
/// "pdf"` (a subject `skill/script`; no skill name holds a `/`).
pub(crate) fn act(subject: &Subject) -> String {
    match &subject.script {
        Some(script) => format!(
            "running script {} of skill {}",
            text::json_string(script),
            text::json_string(&subject.skill)
        ),
        None => format!("loading skill {}", text::json_string(&subject.skill)),
    }
}

pub(crate) fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

impl From<CallError> for ToolOutput {
    fn from(e: CallError) -> Self {
        ToolOutput::error(e.0)
    }
}

/// The refusal when the user declined `subject` (loading a skill, or running `skill/script`):
/// one wording for every host.
pub(crate) fn declined(subject: &Subject) -> String {
    format!(
        "The user declined {}. Do the task without it.",
        act(subject)
    )
}

/// The refusal when loading `skill` needs the user's approval and the host (a `server`, an
/// `agent`) has no way to ask: one wording for every host.
// Only hosts ask; without one, nothing refuses this way.
#[cfg_attr(not(any(feature = "mcp", feature = "rig")), allow(dead_code))]
pub(crate) fn cannot_ask(subject: &Subject, host: &str) -> String {
    format!(
        "{} needs the user's approval, and this {host} has no way to ask for it. \
         Do the task without {}.",
        capitalized(&act(subject)),
        if subject.script.is_some() {
            "running it"
        } else {
            "this skill"
        }
    )
}

/// What one load returned: [`ToolOutput::report`] in every host, and in the rig tools the
/// tool context's result metadata (`context.result::<LoadReport>()` after the call, under the
/// key `skills.load`; the model never sees it).
///
/// ```
/// use skills_embed::tools::{Settings, Tools};
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// let fields = Fields { name: "pdf".into(), description: "Read PDF files.".into(), ..Fields::default() };
/// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown);
/// let tools = Tools::new(set, Settings::default());
/// let report = tools.handle("load_skill", r#"{"skill": "pdf"}"#).report.unwrap();
/// assert_eq!((report.skill.as_str(), report.path.as_str(), &*report.source), ("pdf", "SKILL.md", "disk"));
/// assert!(!report.truncated && report.next_offset.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LoadReport {
    /// The skill.
    pub skill: String,
    /// The file (`SKILL.md` for the body), or `#id` for a chunk.
    pub path: String,
    /// Where the skill came from: `embedded` or `disk`.
    pub source: std::borrow::Cow<'static, str>,
    /// The SHA-256 digest of the whole file.
    pub sha256: [u8; 32],
    /// Bytes of the file that were returned.
    pub bytes_read: usize,
    /// Characters of content returned.
    pub chars_returned: usize,
    /// Whether part of the file was left out.
    pub truncated: bool,
    /// Where to continue, when the file was cut.
    pub next_offset: Option<usize>,
}

#[cfg(feature = "rig")]
impl rig_core::tool::ContextValue for LoadReport {
    const KEY: &'static str = "skills.load";
}

pub(crate) fn report(
    skill: &Skill,
    path: String,
    sha256: [u8; 32],
    returned: &str,
    cut: Option<&excerpt::Excerpt<'_>>,
) -> LoadReport {
    LoadReport {
        skill: skill.name().to_owned(),
        path,
        source: std::borrow::Cow::Borrowed(skill.source()),
        sha256,
        bytes_read: returned.len(),
        chars_returned: returned.chars().count(),
        truncated: cut.is_some_and(|c| c.truncated),
        next_offset: cut.and_then(excerpt::Excerpt::next_offset),
    }
}

pub(crate) fn frame(
    config: &Settings,
    report: LoadReport,
    content: &str,
    trailer: &str,
) -> ToolOutput {
    let mut text = String::with_capacity(content.len() + trailer.len() + 256);
    let digest = hex(&report.sha256);
    let (source, truncated) = (&*report.source, report.truncated);
    let (bytes, chars) = (report.bytes_read, report.chars_returned);
    match config.shape {
        OutputShape::Brackets => {
            let _ = write!(
                text,
                "[Skill: {} | source={source}]\n[Skill Path: {}]\n[Load Report: sha256={digest} \
                 truncated={truncated} bytes_read={bytes} chars_returned={chars}]\n\n",
                text::quote_name(&report.skill),
                text::quote_name(&report.path)
            );
        }
        OutputShape::Xml => {
            let (mut skill, mut path) = (String::new(), String::new());
            listing::push_escaped(&mut skill, &text::quote_name(&report.skill));
            listing::push_escaped(&mut path, &text::quote_name(&report.path));
            let _ = writeln!(
                text,
                "<skill_content name=\"{skill}\" source=\"{source}\" path=\"{path}\" sha256=\"{digest}\" \
                 truncated=\"{truncated}\" bytes_read=\"{bytes}\" chars_returned=\"{chars}\">"
            );
        }
    }
    text.push_str(content);
    if !trailer.is_empty() {
        ensure_blank_line(&mut text);
        text.push_str(trailer);
    }
    if config.shape == OutputShape::Xml {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("</skill_content>");
    }
    ToolOutput {
        text,
        is_error: false,
        report: Some(report),
        approval: None,
    }
}

pub(crate) fn push_chunks(config: &Settings, out: &mut String, skill: &Skill) {
    if skill.chunks().len() == 0 {
        return;
    }
    let how = match config.style {
        ToolStyle::Unified => format!("{} with `chunk`", config.name),
        ToolStyle::Split => LOAD_SKILL_CHUNK.to_owned(),
    };
    let _ = writeln!(
        out,
        "Optional blocks of these instructions (load one with {how}), id | description:"
    );
    for (id, description) in skill.chunks() {
        let _ = write!(out, "- {} | ", text::quote_name(id));
        listing::push_one_line(out, description);
        out.push('\n');
    }
    out.push('\n');
}

pub(crate) fn push_files(config: &Settings, out: &mut String, skill: &Skill) {
    let files: Vec<&str> = skill.resources().map(|f| f.path()).collect();
    if files.is_empty() {
        return;
    }
    // One reservation for the whole list: growing the answer line by line cost a load five
    // reallocations.
    out.reserve(96 + config.name.len() + files.iter().map(|f| f.len() + 4).sum::<usize>());
    out.push_str("Files of this skill (load one with ");
    match config.style {
        ToolStyle::Unified => {
            out.push_str(&config.name);
            out.push_str(" with `path`");
        }
        ToolStyle::Split => out.push_str(READ_SKILL_RESOURCE),
    }
    out.push_str("):\n");
    let shown = files.len().min(config.max_listed_files);
    // One line per folder, in the order folders first appear (a folder's files are not
    // always next to each other in path order: `a.md`, `b/c.md`, `d.md`). Sorting by folder,
    // then by position, groups each folder's files and puts its first one in front: no
    // hashing, which cost more than the rest of a load's answer.
    let mut entries: Vec<(&str, usize, &str)> = files[..shown]
        .iter()
        .enumerate()
        .map(|(at, path)| {
            // A byte search: `rsplit_once('/')` ran a char searcher per file.
            match path.bytes().rposition(|b| b == b'/') {
                Some(slash) => (&path[..slash], at, &path[slash + 1..]),
                None => ("", at, *path),
            }
        })
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    // (first position, range in `entries`) of each folder, in the order folders appear.
    let mut groups: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match groups.last_mut() {
            Some((_, range)) if entries[range.start].0 == entry.0 => range.end = i + 1,
            _ => groups.push((entry.1, i..i + 1)),
        }
    }
    groups.sort_unstable_by_key(|(first, _)| *first);
    let mut names: Vec<&str> = Vec::new();
    for (_, range) in groups {
        let folder = entries[range.start].0;
        out.push_str("- ");
        match folder {
            "" => out.push_str("./"),
            // A folder named `.` is quoted, so it cannot pass for the skill's own folder.
            "." => out.push_str(&text::json_string(folder)),
            _ => out.push_str(&text::quote_name(folder)),
        }
        if !folder.is_empty() {
            out.push('/');
        }
        out.push_str(": ");
        names.clear();
        names.extend(entries[range].iter().map(|e| e.2));
        listing::push_names(out, &names);
        out.push('\n');
    }
    if files.len() > shown {
        let _ = writeln!(out, "- … and {} more", files.len() - shown);
    }
}

/// How to get the rest of a cut file, in the configured style.
pub(crate) fn continuation(
    config: &Settings,
    cut: &excerpt::Excerpt<'_>,
    skill: &str,
    path: &str,
) -> String {
    let Some(next) = cut.next_offset() else {
        return String::new();
    };
    let (tool, key) = match config.style {
        ToolStyle::Unified => (&*config.name, "path"),
        ToolStyle::Split => (READ_SKILL_RESOURCE, "file"),
    };
    // Each value is a JSON string, so the object is valid JSON whatever the names hold.
    format!(
        "[Cut at byte {next} of {}. To continue, call {tool} with {{\"skill\": {}, \"{key}\": {}, \"offset\": {next}}}.]\n",
        cut.total_bytes,
        text::json_string(skill),
        text::json_string(path),
    )
}

/// The body without its chunk blocks. Where a block was cut out, the blank lines on both sides
/// of it would add up: at those joins only, one blank line is kept.
pub(crate) fn join_core(skill: &Skill) -> String {
    let mut core = String::with_capacity(skill.body().len());
    for piece in skill.core_body() {
        let piece = if core.ends_with("\n\n") || core.is_empty() {
            piece.trim_start_matches(['\n', '\r'])
        } else {
            piece
        };
        core.push_str(piece);
    }
    core
}

/// A script to name in the example path: an executable one if any.
pub(crate) fn first_script(skill: &Skill) -> &str {
    skill
        .script_files()
        .find(|f| f.is_executable())
        .or_else(|| skill.script_files().next())
        .map_or("scripts", |f| f.path())
}

/// The section asked for, or the whole text with a note naming the headings that exist.
pub(crate) fn pick_section<'t>(text: &'t str, section: Option<&str>) -> (&'t str, String) {
    let Some(wanted) = section else {
        return (text, String::new());
    };
    if let Some(found) = excerpt::section(text, wanted) {
        return (found.text, String::new());
    }
    let headings: Vec<&str> = excerpt::headings(text).iter().map(|h| h.title).collect();
    let list = if headings.is_empty() {
        "it has no headings".to_owned()
    } else {
        format!("its headings are: {}", headings.join("; "))
    };
    (
        text,
        format!(
            "[Section {} not found, so this is the file from its start; {list}.]\n\n",
            text::json_string(&echo(wanted))
        ),
    )
}

fn ensure_blank_line(text: &mut String) {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    if !text.ends_with("\n\n") {
        text.push('\n');
    }
}
