//! Answering tool calls: whatever the model sends, an answer it can act on, never a panic.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::definition::{
    self, LOAD_SKILL_CHUNK, OutputShape, READ_SKILL, READ_SKILL_RESOURCE, ToolConfig,
    ToolDefinition,
};
use crate::listing::{self, Entry, ListingOptions};
use crate::model::error::SkillError;
use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::model::skill::{MANIFEST, Skill};
use crate::model::{file::hex, skill::Loaded};
use crate::policy::{Access, Permissions};
use crate::text::excerpt;
use crate::text::{self, echo as clip};

/// What a tool call returns to the model, and what the host may want to know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The text for the model.
    pub text: String,
    /// Whether the call failed (report it to the model as a tool error).
    pub is_error: bool,
    /// What was loaded, for logs and sessions.
    pub report: Option<LoadReport>,
    /// The skill whose loading waits for the user's approval (an `ask` permission).
    pub approval: Option<String>,
}

impl ToolOutput {
    fn error(text: impl Into<String>) -> Self {
        ToolOutput {
            text: text.into(),
            is_error: true,
            report: None,
            approval: None,
        }
    }
}

/// A call that cannot be answered with content: its text says what was wrong and what is
/// valid, for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CallError(String);

impl ToolOutput {
    /// The answer while loading `skill` waits for the user's approval.
    pub(crate) fn awaiting_approval(skill: &str) -> Self {
        ToolOutput {
            text: format!(
                "Loading skill {} needs the user's approval, which has been requested. \
                 Continue without it until the user answers.",
                text::json_string(skill)
            ),
            is_error: false,
            report: None,
            approval: Some(skill.to_owned()),
        }
    }
}

impl From<CallError> for ToolOutput {
    fn from(e: CallError) -> Self {
        ToolOutput::error(e.0)
    }
}

/// What one load returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadReport {
    /// The skill.
    pub skill: String,
    /// The file (`SKILL.md` for the body), or `#id` for a chunk.
    pub path: String,
    /// Where the skill came from: `embedded` or `disk`.
    pub source: &'static str,
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

/// A parsed tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// A skill's body.
    Body {
        /// The skill's name.
        skill: String,
        /// A heading to return alone.
        section: Option<String>,
        /// Where to continue a cut body.
        offset: usize,
    },
    /// One file of a skill.
    File {
        /// The skill's name.
        skill: String,
        /// The path relative to the skill's folder.
        path: String,
        /// A heading to return alone.
        section: Option<String>,
        /// Where to continue a cut file.
        offset: usize,
    },
    /// One chunk of a skill's body.
    Chunk {
        /// The skill's name.
        skill: String,
        /// The chunk's id.
        chunk: String,
    },
}

impl Call {
    /// The skill the call is for.
    pub fn skill(&self) -> &str {
        match self {
            Call::Body { skill, .. } | Call::File { skill, .. } | Call::Chunk { skill, .. } => {
                skill
            }
        }
    }
}

/// Tool definitions and the call handler over a skill set.
///
/// ```
/// use skills_embed_runtime::{File, Fields, Skill, SkillSet, listing::ListingFormat, Tools};
/// // `skills!` generates a static set; this one is built at run time.
/// let demo = Skill::owned(
///     Fields { name: "demo".into(), description: "A demo.".into(), ..Fields::default() },
///     "Read `references/a.md`.\n".into(),
///     vec![File::owned("references/a.md".into(), b"# A\nDetails.\n".to_vec(), false)],
/// );
/// let set = SkillSet::from_skills(vec![demo], &ListingFormat::Markdown);
///
/// let tools = Tools::new(&set);
/// let schema = tools.definitions()[0].json_schema();
/// assert_eq!(schema["properties"]["skill"]["enum"], serde_json::json!(["demo"]));
///
/// let out = tools.handle("load_skill", r#"{"skill": "demo"}"#);
/// assert!(!out.is_error);
/// assert!(out.text.contains("Read `references/a.md`."));
/// let out = tools.handle("load_skill", r#"{"skill": "demo", "path": "a.md"}"#);
/// assert!(out.is_error);
/// assert!(out.text.contains(r#"Did you mean "references/a.md"?"#));
/// let out = tools.handle("load_skill", "not json");
/// assert!(out.is_error && out.text.contains("not valid JSON"));
/// ```
#[derive(Debug, Clone)]
pub struct Tools<'s, Id: 'static = Dynamic> {
    set: &'s SkillSet<Id>,
    config: ToolConfig,
    permissions: Permissions,
    /// Where skills with scripts are written so the model can run them.
    workdir: Option<std::path::PathBuf>,
}

impl<Id> Tools<'_, Id> {
    /// Whether no skill is visible (an empty set, or every skill denied): then there is nothing
    /// to list or load, the listing is the empty string and [`Tools::offered`] is empty.
    ///
    /// ```
    /// use skills_embed_runtime::listing::ListingOptions;
    /// use skills_embed_runtime::policy::Permissions;
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, Tools};
    /// let empty = SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown);
    /// let tools = Tools::new(&empty);
    /// assert!(tools.is_empty());
    /// assert!(tools.offered().is_empty());
    /// assert_eq!(tools.listing(&ListingOptions::default()), "");
    ///
    /// let demo = Skill::owned(
    ///     Fields { name: "demo".into(), description: "A demo.".into(), ..Fields::default() },
    ///     "Do it.\n".into(),
    ///     Vec::new(),
    /// );
    /// let set = SkillSet::from_skills(vec![demo], &ListingFormat::Markdown);
    /// assert_eq!(Tools::new(&set).offered().len(), 1);
    /// let denied = Tools::new(&set).with_permissions(Permissions::new().deny("*"));
    /// assert!(denied.is_empty() && denied.offered().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.visible().next().is_none()
    }

    /// The tool definitions to offer the model now: [`Tools::definitions`], or none when no
    /// skill is visible, since a tool whose `skill` enum is empty could never be called (and an
    /// empty `enum` is rejected by some providers' schema checks).
    pub fn offered(&self) -> Vec<ToolDefinition> {
        if self.is_empty() {
            Vec::new()
        } else {
            self.definitions()
        }
    }
}

impl<'s, Id> Tools<'s, Id> {
    /// Tools over `set` with the default configuration and no permission rules.
    pub fn new(set: &'s SkillSet<Id>) -> Self {
        Tools {
            set,
            config: ToolConfig::default(),
            permissions: Permissions::new(),
            workdir: None,
        }
    }

    /// Writes a skill that has scripts under `dir/<skill>/` (the whole skill, executable bits
    /// kept, unchanged skills not rewritten) when its body is loaded or the listing is made,
    /// and tells the model the absolute paths, so it can run the scripts.
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn with_workdir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.workdir = Some(dir.into());
        self
    }

    /// Sets the configuration.
    pub fn with_config(mut self, config: ToolConfig) -> Self {
        self.config = config;
        self
    }

    /// Sets the permission rules: denied skills vanish from the listing and the schema.
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.permissions = permissions;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &ToolConfig {
        &self.config
    }

    /// The permission rules.
    pub fn permissions(&self) -> &Permissions {
        &self.permissions
    }

    /// The skill set.
    pub fn set(&self) -> &'s SkillSet<Id> {
        self.set
    }

    /// Whether the model may see `skill`: its [invocation policy](Skill::invocation) lets the
    /// model invoke it and the permissions do not deny it. The one filter behind every surface
    /// the model reaches: the listing, the tools' `skill` enum, the answers to tool calls
    /// ([`Tools::lookup`]), the MCP server and the rig tool.
    ///
    /// ```
    /// use skills_embed_runtime::{Fields, InvocationFields, Skill, SkillSet, listing::ListingFormat, Tools};
    /// let skill = |name: &str, model_may_invoke| Skill::owned(
    ///     Fields {
    ///         name: name.into(),
    ///         description: "D.".into(),
    ///         invocation: InvocationFields { model_may_invoke, ..InvocationFields::default() },
    ///         ..Fields::default()
    ///     },
    ///     String::new(),
    ///     vec![],
    /// );
    /// let set = SkillSet::from_skills(vec![skill("pdf", true), skill("deploy", false)], &ListingFormat::Markdown);
    /// let tools = Tools::new(&set);
    /// assert_eq!(tools.visible().map(|s| s.name()).collect::<Vec<_>>(), ["pdf"]);
    /// assert!(!tools.shows(set.get("deploy").unwrap()));
    /// // The host still has it.
    /// assert!(set.get("deploy").is_ok());
    /// ```
    pub fn shows(&self, skill: &Skill) -> bool {
        skill.invocation().model_may_invoke()
            && self.permissions.check(skill.name()) != Access::Deny
    }

    /// The skills the model may see ([`Tools::shows`]), sorted by name.
    pub fn visible(&self) -> impl Iterator<Item = &'s Skill> + '_ {
        self.set.skills().iter().filter(|s| self.shows(s))
    }

    /// The skills the user may invoke: their [invocation policy](Skill::invocation) lets the
    /// user invoke them and the permissions do not deny them, whether or not the model may.
    /// Sorted by name.
    ///
    /// ```
    /// use skills_embed_runtime::{Fields, InvocationFields, Skill, SkillSet, listing::ListingFormat, Tools};
    /// let skill = |name: &str, model_may_invoke, user_may_invoke| Skill::owned(
    ///     Fields {
    ///         name: name.into(),
    ///         invocation: InvocationFields { model_may_invoke, user_may_invoke, ..InvocationFields::default() },
    ///         ..Fields::default()
    ///     },
    ///     String::new(),
    ///     vec![],
    /// );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("deploy", false, true), skill("style", true, false)],
    ///     &ListingFormat::Markdown,
    /// );
    /// let tools = Tools::new(&set);
    /// assert_eq!(tools.user_invocable().map(|s| s.name()).collect::<Vec<_>>(), ["deploy"]);
    /// assert!(tools.lookup_for_user("deploy").is_ok() && tools.lookup("deploy").is_err());
    /// assert!(tools.lookup_for_user("style").is_err() && tools.lookup("style").is_ok());
    /// ```
    pub fn user_invocable(&self) -> impl Iterator<Item = &'s Skill> + '_ {
        self.set.skills().iter().filter(|s| self.user_may_invoke(s))
    }

    fn user_may_invoke(&self, skill: &Skill) -> bool {
        skill.invocation().user_may_invoke() && self.permissions.check(skill.name()) != Access::Deny
    }

    /// A skill the user may invoke ([`Tools::user_invocable`]), by name; any other answers
    /// like an unknown skill, naming only the skills the user may invoke.
    pub fn lookup_for_user(&self, name: &str) -> Result<&'s Skill, CallError> {
        match self.set.get(name) {
            Ok(skill) if self.user_may_invoke(skill) => Ok(skill),
            _ => Err(unknown(name, self.user_invocable())),
        }
    }

    /// The L1 listing of the visible skills.
    pub fn listing(&self, options: &ListingOptions) -> String {
        let located: Vec<(&Skill, Option<String>)> = self
            .visible()
            .map(|s| {
                (
                    s,
                    self.on_disk(s)
                        .ok()
                        .flatten()
                        .map(|dir| dir.join(MANIFEST).display().to_string()),
                )
            })
            .collect();
        let entries: Vec<Entry<'_>> = located
            .iter()
            .map(|(s, location)| Entry {
                location: location.as_deref(),
                ..s.listing_entry()
            })
            .collect();
        listing::render(&entries, options)
    }

    /// The tool definitions, with the visible skills as the `skill` enum.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        let listing = self.config.listing_in_description.clone().map(|format| {
            self.listing(&ListingOptions {
                format,
                ..ListingOptions::default()
            })
        });
        definition::definitions(&self.config, &names, listing.as_deref())
    }

    /// Answers a call to any tool of either style, given its raw JSON arguments.
    pub fn handle(&self, tool_name: &str, arguments: &str) -> ToolOutput {
        match self.parse(tool_name, arguments) {
            Ok(call) => self.call(&call),
            Err(e) => e.into(),
        }
    }

    /// Parses a call; the error is the answer for the model.
    pub fn parse(&self, tool_name: &str, arguments: &str) -> Result<Call, CallError> {
        let args = parse_object(arguments).map_err(|e| CallError(e + &self.usage(tool_name)))?;
        let skill = || self.required_str(&args, "skill", tool_name);
        let name = tool_name.trim();
        if name == self.config.name {
            let chunk = optional_str(&args, "chunk")?;
            let section = optional_str(&args, "section")?;
            let offset = optional_offset(&args)?;
            let path = optional_str(&args, "path")?.unwrap_or_else(|| MANIFEST.to_owned());
            let skill = skill()?;
            Ok(match chunk {
                Some(chunk) => Call::Chunk { skill, chunk },
                None if is_manifest(&path) => Call::Body {
                    skill,
                    section,
                    offset,
                },
                None => Call::File {
                    skill,
                    path,
                    section,
                    offset,
                },
            })
        } else if name == READ_SKILL {
            Ok(Call::Body {
                skill: skill()?,
                section: None,
                offset: 0,
            })
        } else if name == READ_SKILL_RESOURCE {
            let offset = optional_offset(&args)?;
            let path = self.required_str(&args, "file", tool_name)?;
            Ok(Call::File {
                skill: skill()?,
                path,
                section: None,
                offset,
            })
        } else if name == LOAD_SKILL_CHUNK {
            let chunk = self.required_str(&args, "chunk", tool_name)?;
            Ok(Call::Chunk {
                skill: skill()?,
                chunk,
            })
        } else {
            let names: Vec<String> = self.definitions().into_iter().map(|d| d.name).collect();
            Err(CallError(format!(
                "Unknown tool {}. The skill tools are: {}.",
                text::json_string(&clip(tool_name)),
                names.join(", ")
            )))
        }
    }

    /// Answers a parsed call.
    pub fn call(&self, call: &Call) -> ToolOutput {
        let skill = match self.lookup(call.skill()) {
            Ok(skill) => skill,
            Err(e) => return e.into(),
        };
        if self.permissions.check(skill.name()) == Access::Ask {
            return ToolOutput::awaiting_approval(skill.name());
        }
        self.call_allowed(skill, call)
    }

    /// Answers a call whose permission was already granted.
    pub(crate) fn call_allowed(&self, skill: &Skill, call: &Call) -> ToolOutput {
        match call {
            Call::Body {
                section, offset, ..
            } => self.body(skill, section.as_deref(), *offset),
            Call::File {
                path,
                section,
                offset,
                ..
            } => match skill.load(path) {
                Ok(loaded) if loaded.is_body() => self.body(skill, section.as_deref(), *offset),
                Ok(loaded) => self.file(skill, loaded, section.as_deref(), *offset),
                Err(e) => ToolOutput::error(SkillError::clipped(e).to_string()),
            },
            Call::Chunk { chunk, .. } => match skill.chunk(chunk) {
                Ok(text) => {
                    let digest = crate::model::file::sha256(text.as_bytes());
                    let report = self.report(skill, format!("#{chunk}"), digest, text, None);
                    self.frame(report, text, "")
                }
                Err(e) => ToolOutput::error(SkillError::clipped(e).to_string()),
            },
        }
    }

    /// A visible skill by name ([`Tools::shows`]); denied skills and skills the model may not
    /// invoke answer exactly like unknown ones, and are never named or suggested.
    pub fn lookup(&self, name: &str) -> Result<&'s Skill, CallError> {
        match self.set.get(name) {
            Ok(skill) if self.shows(skill) => Ok(skill),
            _ => Err(unknown(name, self.visible())),
        }
    }

    fn body(&self, skill: &Skill, section: Option<&str>, offset: usize) -> ToolOutput {
        let core = join_core(skill);
        let (text, note) = pick_section(&core, section);
        let cut = excerpt::excerpt(text, offset, self.config.max_body_chars);
        let digest = skill.load(MANIFEST).map_or([0; 32], |f| f.sha256());
        let mut report = self.report(skill, MANIFEST.into(), digest, cut.text, Some(&cut));
        report.bytes_read = cut.text.len();
        let mut trailer = self.continuation(&cut, skill.name(), MANIFEST);
        if offset == 0 || cut.next_offset().is_none() {
            self.push_chunks(&mut trailer, skill);
            self.push_files(&mut trailer, skill);
            match self.on_disk(skill) {
                Ok(Some(dir)) => {
                    let _ = writeln!(
                        trailer,
                        "This skill's files are on disk at {}: run its scripts from there, e.g. {}.",
                        text::one_line(&dir.display().to_string()),
                        text::one_line(&dir.join(first_script(skill)).display().to_string())
                    );
                }
                Ok(None) => {}
                Err(e) => {
                    let _ = writeln!(
                        trailer,
                        "The skill's scripts could not be written to disk, so they cannot be run: {e}"
                    );
                }
            }
        }
        let content = format!("{note}{}", cut.text);
        self.frame(report, &content, &trailer)
    }

    fn file(
        &self,
        skill: &Skill,
        loaded: Loaded<'_>,
        section: Option<&str>,
        offset: usize,
    ) -> ToolOutput {
        let text = loaded.text().filter(|_| self.served_as_text(&loaded));
        let Some(text) = text else {
            let kind = if loaded.text().is_none() {
                "a binary file"
            } else if loaded.is_executable() {
                "an executable file"
            } else {
                "a file of a type not shown as text"
            };
            let mut content = format!(
                "{} is {kind} ({}, {} bytes); its contents are not shown.",
                text::quote_name(loaded.path()),
                loaded.media_type(),
                loaded.len()
            );
            if let Ok(Some(dir)) = self.on_disk(skill) {
                let _ = write!(
                    content,
                    " It is on disk at {}.",
                    text::one_line(&dir.join(loaded.path()).display().to_string())
                );
            }
            let mut report = self.report(skill, loaded.path().into(), loaded.sha256(), "", None);
            report.bytes_read = 0;
            return self.frame(report, &content, "");
        };
        let (picked, note) = pick_section(text, section);
        let cut = excerpt::excerpt(picked, offset, self.config.max_chars);
        let report = self.report(
            skill,
            loaded.path().into(),
            loaded.sha256(),
            cut.text,
            Some(&cut),
        );
        let trailer = self.continuation(&cut, skill.name(), loaded.path());
        self.frame(report, &format!("{note}{}", cut.text), &trailer)
    }

    /// Where a skill with scripts is on disk, writing it there first; `None` without a work
    /// folder or for a skill without scripts.
    fn on_disk(&self, skill: &Skill) -> Result<Option<std::path::PathBuf>, String> {
        let Some(_dir) = &self.workdir else {
            return Ok(None);
        };
        if !skill.has_scripts() {
            return Ok(None);
        }
        #[cfg(feature = "fs")]
        {
            crate::disk::extract::extract(skill, _dir)
                .map(|done| Some(done.dir))
                .map_err(|e| e.to_string())
        }
        #[cfg(not(feature = "fs"))]
        Ok(None)
    }

    fn served_as_text(&self, loaded: &Loaded<'_>) -> bool {
        if loaded.is_executable() && !self.config.dump_executables {
            return false;
        }
        let ext = loaded.path().rsplit_once('.').map_or("", |(_, e)| e);
        self.config
            .text_extensions
            .iter()
            .any(|t| t.eq_ignore_ascii_case(ext))
    }

    fn report(
        &self,
        skill: &Skill,
        path: String,
        sha256: [u8; 32],
        returned: &str,
        cut: Option<&excerpt::Excerpt<'_>>,
    ) -> LoadReport {
        LoadReport {
            skill: skill.name().to_owned(),
            path,
            source: skill.source(),
            sha256,
            bytes_read: returned.len(),
            chars_returned: returned.chars().count(),
            truncated: cut.is_some_and(|c| c.truncated),
            next_offset: cut.and_then(excerpt::Excerpt::next_offset),
        }
    }

    fn frame(&self, report: LoadReport, content: &str, trailer: &str) -> ToolOutput {
        let mut text = String::with_capacity(content.len() + trailer.len() + 256);
        let digest = hex(&report.sha256);
        let (source, truncated) = (report.source, report.truncated);
        let (bytes, chars) = (report.bytes_read, report.chars_returned);
        match self.config.shape {
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
        if self.config.shape == OutputShape::Xml {
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

    fn push_chunks(&self, out: &mut String, skill: &Skill) {
        if skill.chunks().is_empty() {
            return;
        }
        let how = match self.config.style {
            definition::ToolStyle::Unified => format!("{} with `chunk`", self.config.name),
            definition::ToolStyle::Split => LOAD_SKILL_CHUNK.to_owned(),
        };
        let _ = writeln!(
            out,
            "Optional blocks of these instructions (load one with {how}), id | description:"
        );
        for c in skill.chunks() {
            let _ = write!(out, "- {} | ", text::quote_name(c.id()));
            listing::push_one_line(out, c.description());
            out.push('\n');
        }
        out.push('\n');
    }

    fn push_files(&self, out: &mut String, skill: &Skill) {
        let files: Vec<&str> = skill.resources().map(|f| f.path()).collect();
        if files.is_empty() {
            return;
        }
        let how = match self.config.style {
            definition::ToolStyle::Unified => format!("{} with `path`", self.config.name),
            definition::ToolStyle::Split => READ_SKILL_RESOURCE.to_owned(),
        };
        let _ = writeln!(out, "Files of this skill (load one with {how}):");
        let shown = files.len().min(self.config.max_listed_files);
        // One line per folder, in the order folders first appear (a folder's files are not
        // always next to each other in path order: `a.md`, `b/c.md`, `d.md`).
        let mut folders: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut position: std::collections::HashMap<&str, usize> = Default::default();
        for path in &files[..shown] {
            let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
            let at = *position.entry(folder).or_insert_with(|| {
                folders.push((folder, Vec::new()));
                folders.len() - 1
            });
            folders[at].1.push(name);
        }
        for (folder, names) in &folders {
            let label = match *folder {
                "" => "./".to_owned(),
                // A folder named `.` is quoted, so it cannot pass for the skill's own folder.
                "." => format!("{}/", text::json_string(folder)),
                _ => format!("{}/", text::quote_name(folder)),
            };
            let _ = writeln!(out, "- {label}: {}", listing::names(names));
        }
        if files.len() > shown {
            let _ = writeln!(out, "- … and {} more", files.len() - shown);
        }
    }

    /// How to get the rest of a cut file, in the configured style.
    fn continuation(&self, cut: &excerpt::Excerpt<'_>, skill: &str, path: &str) -> String {
        let Some(next) = cut.next_offset() else {
            return String::new();
        };
        let (tool, key) = match self.config.style {
            definition::ToolStyle::Unified => (self.config.name.as_str(), "path"),
            definition::ToolStyle::Split => (READ_SKILL_RESOURCE, "file"),
        };
        // Each value is a JSON string, so the object is valid JSON whatever the names hold.
        format!(
            "[Cut at byte {next} of {}. To continue, call {tool} with {{\"skill\": {}, \"{key}\": {}, \"offset\": {next}}}.]\n",
            cut.total_bytes,
            text::json_string(skill),
            text::json_string(path),
        )
    }

    fn usage(&self, tool_name: &str) -> String {
        let example = match tool_name.trim() {
            READ_SKILL => r#"{"skill": "NAME"}"#,
            READ_SKILL_RESOURCE => r#"{"skill": "NAME", "file": "references/guide.md"}"#,
            LOAD_SKILL_CHUNK => r#"{"skill": "NAME", "chunk": "ID"}"#,
            _ => r#"{"skill": "NAME", "path": "SKILL.md"}"#,
        };
        format!(" Send a JSON object like {example}.{}", self.names_note())
    }

    fn names_note(&self) -> String {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        if names.is_empty() {
            " There are no skills available.".into()
        } else {
            format!(" Available skills: {}.", listing::names(&names))
        }
    }

    fn required_str(
        &self,
        args: &Map<String, Value>,
        key: &str,
        tool_name: &str,
    ) -> Result<String, CallError> {
        match args.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            None | Some(Value::Null) => Err(CallError(format!(
                "Missing \"{key}\".{}",
                self.usage(tool_name)
            ))),
            Some(other) => Err(CallError(format!(
                "\"{key}\" must be a string, not {}.{}",
                kind(other),
                self.usage(tool_name)
            ))),
        }
    }
}

/// The answer to a name that is not among `among`: what exists, and the closest name.
#[cold]
fn unknown<'s>(name: &str, among: impl Iterator<Item = &'s Skill>) -> CallError {
    let names: Vec<&str> = among.map(Skill::name).collect();
    let err = SkillError::UnknownSkill {
        requested: clip(name),
        available: names.iter().map(|s| s.to_string()).collect(),
        suggestion: crate::text::closest(name, names.iter().copied()),
    };
    CallError(err.to_string())
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
fn first_script(skill: &Skill) -> &str {
    skill
        .resources()
        .find(|f| f.is_executable())
        .or_else(|| skill.resources().find(|f| f.path().starts_with("scripts/")))
        .map_or("scripts", |f| f.path())
}

fn parse_object(arguments: &str) -> Result<Map<String, Value>, String> {
    let trimmed = arguments.trim();
    if trimmed.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "The arguments must be a JSON object, not {}.",
            kind(&other)
        )),
        Err(e) => Err(format!("The arguments are not valid JSON ({e}).")),
    }
}

fn optional_str(args: &Map<String, Value>, key: &str) -> Result<Option<String>, CallError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() && key != "path" => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(CallError(format!(
            "\"{key}\" must be a string, not {}.",
            kind(other)
        ))),
    }
}

fn optional_offset(args: &Map<String, Value>) -> Result<usize, CallError> {
    match args.get("offset") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Ok(n),
            None => Err(CallError(format!(
                "\"offset\" must be a whole number of 0 or more, as given at the end of a cut answer; got {n}."
            ))),
        },
        // Some models send numbers as strings.
        Some(Value::String(s)) if s.trim().parse::<usize>().is_ok() => {
            Ok(s.trim().parse().unwrap_or(0))
        }
        Some(other) => Err(CallError(format!(
            "\"offset\" must be a whole number of 0 or more, not {}.",
            kind(other)
        ))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_manifest(path: &str) -> bool {
    crate::model::path::check(path).is_ok_and(|p| p.to_string() == MANIFEST)
}

/// The section asked for, or the whole text with a note naming the headings that exist.
fn pick_section<'t>(text: &'t str, section: Option<&str>) -> (&'t str, String) {
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
            text::json_string(&clip(wanted))
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
