//! [`Tools`]: the definitions offered, what the model may see, the one decision on each call
//! (`Tools::resolve`), and the answer to it: whatever the model sends, an answer it can act
//! on, never a panic. Decoding a call is in `call.rs`, framing the answer in `render.rs`.

use std::fmt::Write;
use std::sync::{Arc, OnceLock};

use super::call::{self, Call, CallError, Known};
use super::definition::{self, ToolDefinition};
use super::render::{self, ToolOutput};
use super::run;
use super::settings::{Settings, Snapshot, Source, ToolStyle};
use crate::listing::{self, Entry, ListingOptions};
use crate::model::error::SkillError;
use crate::model::script::{CancelToken, Script};
use crate::model::set::SkillSet;
use crate::model::skill::{Loaded, MANIFEST, Skill};
use crate::policy::{Access, Grants, Subject};
use crate::text::{self, excerpt};

/// Tool definitions and the call handler over a skill set.
///
/// ```
/// use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
/// use skills_embed::tools::{Settings, Tools};
/// // `skills!` generates a static set; this one is built at run time.
/// let demo = Skill::owned(
///     Fields { name: "demo".into(), description: "A demo.".into(), ..Fields::default() },
///     "Read `references/a.md`.\n".into(),
///     vec![File::owned("references/a.md".into(), b"# A\nDetails.\n".to_vec(), false)],
/// );
/// let set = SkillSet::from_skills(vec![demo], &ListingFormat::Markdown);
///
/// let tools = Tools::new(set, Settings::default());
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
pub struct Tools {
    /// The set these tools answer from: a snapshot, so a host that builds `Tools` per request
    /// copies a pointer, not the skills.
    set: Snapshot,
    /// Shared, not copied: hosts build `Tools` per request from settings that do not change.
    settings: Arc<Settings>,
    /// The "always" answers: an `ask` skill granted for its current content is allowed.
    /// Consulted per skill, never folded into the rules, so a granted name is never read as
    /// a pattern and nothing is rebuilt per call.
    grants: Grants,
    /// Skills a host cannot serve (MCP: names its skills extension cannot carry): treated as
    /// denied on every surface, whatever the rules say.
    hide: Option<fn(&Skill) -> bool>,
    /// The skills' script files as scripts of the run tool: made on first need (a listing of
    /// the tools, a run), so a host that builds `Tools` per request copies no file for a
    /// request that reads a resource.
    file_scripts: OnceLock<Vec<Script>>,
    /// Stops the script runs of the request these tools answer (the MCP server's, when its
    /// client cancels or hangs up).
    cancel: Option<CancelToken>,
}

/// A call the rules let through: the skill it names and, for a run, the script.
pub(crate) struct Resolved<'t> {
    pub(crate) skill: &'t Skill,
    script: Option<&'t Script>,
    pub(crate) access: Access,
}

impl Resolved<'_> {
    /// What the user approves for this call.
    pub(crate) fn subject(&self) -> Subject {
        match self.script {
            Some(script) => Subject::run(self.skill.name(), script.name()),
            None => Subject::load(self.skill.name()),
        }
    }
}

impl Tools {
    /// Tools over the skills of `source` as they are now (`&SKILLS`, a `SkillSet`, an
    /// `Arc` of one, an overlay: see [`Source`]), served with `settings`.
    ///
    /// ```
    /// use skills_embed::policy::Permissions;
    /// use skills_embed::tools::{Settings, Tools};
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingOptions, listing::ListingFormat};
    /// let empty = SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown);
    /// let tools = Tools::new(empty, Settings::default());
    /// assert!(tools.definitions().is_empty());
    /// assert_eq!(tools.listing(&ListingOptions::default()), "");
    ///
    /// let demo = || Skill::owned(
    ///     Fields { name: "demo".into(), description: "A demo.".into(), ..Fields::default() },
    ///     "Do it.\n".into(),
    ///     Vec::new(),
    /// );
    /// let set = || SkillSet::from_skills(vec![demo()], &ListingFormat::Markdown);
    /// assert_eq!(Tools::new(set(), Settings::default()).definitions().len(), 1);
    /// let denied = Settings { permissions: Permissions::new().deny("*"), ..Settings::default() };
    /// assert!(Tools::new(set(), denied).definitions().is_empty());
    /// ```
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        Self::shared(source.into().snapshot(), Arc::new(settings))
    }

    /// Tools over `set` with settings a host keeps for every request it answers.
    pub(crate) fn shared(set: Snapshot, settings: Arc<Settings>) -> Self {
        Tools {
            set,
            settings,
            grants: Grants::default(),
            hide: None,
            file_scripts: OnceLock::new(),
            cancel: None,
        }
    }

    /// Counts the "always" answers in `grants`: a skill under `ask` whose grant was given for
    /// its current content is loaded without asking. The permission rules stay as they are: a
    /// grant is looked up by the skill's exact name, never as a pattern. A session carries its
    /// answers into tools over a reloaded set this way; each holds only while its skill is
    /// unchanged (see [`Grants`]).
    ///
    /// ```
    /// use skills_embed::policy::{Answer, Grants, Permissions, Subject};
    /// use skills_embed::tools::{Settings, Tools};
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// let fields = Fields { name: "deploy".into(), description: "Deploy.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Run make.\n".into(), vec![])], &ListingFormat::Markdown);
    /// let mut grants = Grants::default();
    /// grants.answer(&Subject::load("deploy"), set.get("deploy").unwrap(), Answer::Always);
    /// let settings = Settings { permissions: Permissions::new().ask("deploy"), ..Settings::default() };
    ///
    /// let tools = Tools::new(set, settings).with_grants(grants);
    /// let out = tools.handle("load_skill", r#"{"skill":"deploy"}"#);
    /// assert!(out.approval.is_none() && out.text.contains("Run make."));
    /// ```
    pub fn with_grants(mut self, grants: Grants) -> Self {
        self.grants = grants;
        self
    }

    /// Stops the script runs these tools start when `cancel` is cancelled.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only the MCP host cancels")
    )]
    pub(crate) fn cancelled_by(mut self, cancel: CancelToken) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// Treats every skill `hide` holds for as denied, on every surface (a host that cannot
    /// serve some skills); combined with the rules, not written into them.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP hides skills")
    )]
    pub(crate) fn hiding(mut self, hide: fn(&Skill) -> bool) -> Self {
        self.hide = Some(hide);
        self
    }

    /// The "always" answers counted ([`Tools::with_grants`], and those a
    /// [`Session`](super::Session) records).
    ///
    /// ```
    /// use skills_embed::policy::{Answer, Permissions, Subject};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = || {
    /// #     let pdf = Skill::owned(
    /// #         Fields { name: "pdf".into(), description: "D.".into(), ..Fields::default() },
    /// #         "Use pdftotext.\n".into(),
    /// #         vec![],
    /// #     );
    /// #     SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown)
    /// # };
    /// let ask = || Settings { permissions: Permissions::new().ask("pdf"), ..Settings::default() };
    /// let mut session = Session::new(Tools::new(set(), ask()));
    /// let _waiting = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let _sent = session.answer(&Subject::load("pdf"), Answer::Always);
    /// // Tools for the next request, with the answers given so far: not asked again.
    /// let tools = Tools::new(set(), ask()).with_grants(session.tools().grants().clone());
    /// assert!(tools.handle("load_skill", r#"{"skill":"pdf"}"#).approval.is_none());
    /// ```
    pub fn grants(&self) -> &Grants {
        &self.grants
    }

    /// The answers a session records as the user gives them.
    pub(crate) fn grants_mut(&mut self) -> &mut Grants {
        &mut self.grants
    }

    /// The settings.
    pub(crate) fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The skill set.
    pub(crate) fn set(&self) -> &SkillSet {
        &self.set
    }

    /// The snapshot, shared.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP keeps snapshots")
    )]
    pub(crate) fn snapshot(&self) -> &Snapshot {
        &self.set
    }

    /// The skills' script files as scripts, when a runner was given.
    fn file_scripts(&self) -> &[Script] {
        match self.settings.file_runner() {
            Some(runner) => self
                .file_scripts
                .get_or_init(|| run::file_scripts(self.set.skills().iter(), runner)),
            None => &[],
        }
    }

    /// Whether no skill is visible (an empty set, or every skill denied): then there is nothing
    /// to list or load, the listing is the empty string and [`Tools::definitions`] is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.visible().next().is_none()
    }

    /// What loading `skill` needs: `Deny` when the rules deny it (or the host hides it), `Ask`
    /// for an `ask` skill without a grant for its current content, `Allow` otherwise.
    pub(crate) fn access(&self, skill: &Skill) -> Access {
        if self.hidden(skill) {
            return Access::Deny;
        }
        self.grants
            .access_of(&self.settings.permissions, skill, None)
    }

    /// Whether the rules deny `skill` or the host hides it (grants never lift a denial).
    fn denies(&self, skill: &Skill) -> bool {
        self.hidden(skill) || self.settings.permissions.access(skill.name(), None) == Access::Deny
    }

    fn hidden(&self, skill: &Skill) -> bool {
        self.hide.is_some_and(|hide| hide(skill))
    }

    /// Whether the model may see `skill`: its [invocation policy](Skill::invocation) lets the
    /// model invoke it and the permissions do not deny it.
    fn shows(&self, skill: &Skill) -> bool {
        skill.policy().model_may_invoke() && !self.denies(skill)
    }

    /// The skills the model may see, sorted by name: those whose
    /// [invocation policy](Skill::invocation) lets the model invoke them and that the
    /// permissions do not deny. The one filter behind every surface the model reaches: the
    /// listing, the tools' `skill` enum, the answers to tool calls, the MCP server and the rig
    /// tools. Skills it leaves out answer exactly like unknown ones.
    ///
    /// ```
    /// use skills_embed::tools::{Settings, Tools};
    /// use skills_embed::{Fields, invoke::InvocationFields, Skill, SkillSet, listing::ListingFormat};
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
    /// let tools = Tools::new(set, Settings::default());
    /// assert_eq!(tools.visible().map(|s| s.name()).collect::<Vec<_>>(), ["pdf"]);
    /// ```
    pub fn visible(&self) -> impl Iterator<Item = &Skill> + '_ {
        self.set.skills().iter().filter(|s| self.shows(s))
    }

    /// The skills the user may invoke: their [invocation policy](Skill::invocation) lets the
    /// user invoke them and the permissions do not deny them, whether or not the model may.
    /// Sorted by name.
    pub(crate) fn user_invocable(&self) -> impl Iterator<Item = &Skill> + '_ {
        self.set.skills().iter().filter(|s| self.user_may_invoke(s))
    }

    fn user_may_invoke(&self, skill: &Skill) -> bool {
        skill.policy().user_may_invoke() && !self.denies(skill)
    }

    /// A skill the user may invoke, by name; any other answers like an unknown skill, naming
    /// only the skills the user may invoke.
    pub(crate) fn lookup_for_user(&self, name: &str) -> Result<&Skill, CallError> {
        match self.set.get(name) {
            Ok(skill) if self.user_may_invoke(skill) => Ok(skill),
            _ => Err(unknown(name, self.user_invocable())),
        }
    }

    /// The L1 listing of the visible skills.
    ///
    /// ```
    /// use skills_embed::policy::Permissions;
    /// use skills_embed::tools::{Settings, Tools};
    /// use skills_embed::listing::ListingOptions;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, description: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: description.into(), ..Fields::default() },
    /// #     String::new(),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("pdf", "Read PDFs."), skill("secret", "Internal.")],
    ///     &ListingFormat::Markdown,
    /// );
    /// let deny = Permissions::new().deny("secret");
    /// let tools = Tools::new(set, Settings { permissions: deny, ..Settings::default() });
    /// assert_eq!(tools.listing(&ListingOptions::default()), "- pdf: Read PDFs.\n");
    /// ```
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

    /// The tool definitions to offer the model now, with the visible skills as the `skill` enum,
    /// and the run tool (or one tool per script in the split style) when a visible skill has a
    /// script the permissions do not deny. None when no skill is visible: a tool whose `skill`
    /// enum is empty could never be called (and an empty `enum` is rejected by some providers'
    /// schema checks).
    ///
    /// ```
    /// use skills_embed::policy::Permissions;
    /// use skills_embed::tools::{Settings, Tools};
    /// use skills_embed::{Fields, Script, Skill, SkillSet, listing::ListingFormat};
    /// /// Counts words.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Text { text: String }
    /// fn count(args: Text) -> Result<usize, std::convert::Infallible> {
    ///     Ok(args.text.split_whitespace().count())
    /// }
    /// fn erase(args: Text) -> Result<String, std::convert::Infallible> { Ok(String::new()) }
    /// let fields = Fields { name: "words".into(), description: "Words.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown)
    ///     .with_scripts([Script::new("words", "count", count), Script::new("words", "erase", erase)]);
    /// let settings = Settings { permissions: Permissions::new().deny("*/erase"), ..Settings::default() };
    /// let tools = Tools::new(set, settings);
    /// let run_tool = &tools.definitions()[1];
    /// assert_eq!(run_tool.json_schema()["properties"]["script"]["enum"], serde_json::json!(["words/count"]));
    ///
    /// let out = tools.handle("run_skill_script", r#"{"script": "words/count", "args": {"text": "a b c"}}"#);
    /// assert!(!out.is_error && out.text.ends_with("3"), "{}", out.text);
    /// let out = tools.handle("run_skill_script", r#"{"script": "words/erase", "args": {"text": ""}}"#);
    /// assert!(out.is_error && out.text.contains(r#"Its scripts: "count""#), "{}", out.text);
    /// ```
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        if self.is_empty() {
            return Vec::new();
        }
        self.all_definitions()
    }

    /// The tool definitions even when no skill is visible (an empty `skill` enum): what a tool
    /// registered once (rig's typed tool) describes itself with, and the tools a wrong call is
    /// told about.
    pub(crate) fn all_definitions(&self) -> Vec<ToolDefinition> {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        let listing = self.settings.listing_in_description.clone().map(|format| {
            self.listing(&ListingOptions {
                format,
                ..ListingOptions::default()
            })
        });
        let mut definitions = definition::definitions(&self.settings, &names, listing.as_deref());
        definitions.extend(definition::run_definitions(
            &self.settings,
            &self.runnable(),
        ));
        definitions
    }

    /// The scripts the model may run: those of the visible skills that the permissions do not
    /// deny, sorted by skill and name.
    pub(crate) fn runnable(&self) -> Vec<&Script> {
        let set = &self.set;
        let mut runnable: Vec<&Script> = set
            .scripts()
            .iter()
            .chain(self.file_scripts())
            .filter(|script| {
                set.get(script.skill()).is_ok_and(|skill| {
                    self.shows(skill) && self.script_access(skill, script.name()) != Access::Deny
                })
            })
            .collect();
        if self.settings.file_runner().is_some() {
            runnable.sort_by(|a, b| a.key().cmp(&b.key()));
        }
        runnable
    }

    /// What running the script `script` of `skill` needs: `Deny` when the skill is denied or
    /// hidden or a script rule denies it, `Ask` when a script rule (or the skill's own rule)
    /// asks and no grant for this script and the skill's current content exists, unless the
    /// skill's `allowed-tools` names the script (`Script(name)` or `Script(*)`); `Allow`
    /// otherwise.
    fn script_access(&self, skill: &Skill, script: &str) -> Access {
        if self.hidden(skill) {
            return Access::Deny;
        }
        match self
            .grants
            .access_of(&self.settings.permissions, skill, Some(script))
        {
            Access::Ask if allowed_by_skill(skill, script) => Access::Allow,
            access => access,
        }
    }

    /// A script the model may run of the visible `skill`, with what running it needs (asked
    /// once: the skill is not looked up again, other skills' scripts are not checked); a miss
    /// names the skill's runnable scripts and the closest one.
    fn runnable_script(&self, skill: &Skill, name: &str) -> Result<(&Script, Access), CallError> {
        let of_skill = || {
            self.set
                .scripts()
                .iter()
                .chain(self.file_scripts())
                .filter(|s| s.skill() == skill.name())
        };
        if let Some(found) = of_skill().find(|s| s.name() == name) {
            let access = self.script_access(skill, name);
            if access != Access::Deny {
                return Ok((found, access));
            }
        }
        let mut names: Vec<&str> = of_skill()
            .filter(|s| self.script_access(skill, s.name()) != Access::Deny)
            .map(Script::name)
            .collect();
        names.sort_unstable();
        let mut message = format!(
            "Skill {} has no script {}.",
            text::json_string(skill.name()),
            text::json_string(&text::echo(name))
        );
        if names.is_empty() {
            message.push_str(" It has no scripts you can run; follow its instructions instead.");
        } else {
            let quoted: Vec<String> = names.iter().map(|n| text::json_string(n)).collect();
            let _ = write!(message, " Its scripts: {}.", quoted.join(", "));
            if let Some(near) = text::closest(name, names.iter().copied()) {
                let _ = write!(message, " Did you mean {}?", text::json_string(&near));
            }
        }
        Err(CallError(message))
    }

    /// Parses a call; the error is the answer for the model.
    pub(crate) fn parse(&self, tool_name: &str, arguments: &str) -> Result<Call, CallError> {
        self.decode(|settings, known| call::decode(settings, tool_name, arguments, known))
    }

    /// [`Tools::parse`] for arguments a protocol has already parsed into a JSON object.
    #[cfg(feature = "mcp")]
    pub(crate) fn parse_object(
        &self,
        tool_name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Call, CallError> {
        self.decode(|settings, known| call::decode_object(settings, tool_name, arguments, known))
    }

    /// Runs a decoder with what it may need to know about these tools.
    fn decode(
        &self,
        decoder: impl FnOnce(&Settings, &Known<'_>) -> Result<Call, CallError>,
    ) -> Result<Call, CallError> {
        let script_tool = |name: &str| {
            if self.settings.style != ToolStyle::Split || !name.contains("__") {
                return None;
            }
            self.runnable()
                .into_iter()
                .find(|s| definition::script_tool_name(s.skill(), s.name()) == name)
                .map(|s| (s.skill().to_owned(), s.name().to_owned()))
        };
        decoder(
            &self.settings,
            &Known {
                names: &|| self.names_note(),
                tools: &|| self.all_definitions().into_iter().map(|d| d.name).collect(),
                script_tool: &script_tool,
            },
        )
    }

    /// The one decision on `call`: the skill (and script) it names among what the model may
    /// use, with what the rules say about it (allow, or ask the user first); the error answers
    /// the model. A skill the model may not see answers like one that does not exist, a script
    /// it may not run like one the skill does not have.
    pub(crate) fn resolve(&self, call: &Call) -> Result<Resolved<'_>, CallError> {
        let skill = match self.set.get(call.skill()) {
            Ok(skill) if self.shows(skill) => skill,
            _ => return Err(unknown(call.skill(), self.visible())),
        };
        match call {
            Call::Run { script, .. } => {
                let (found, access) = self.runnable_script(skill, script)?;
                Ok(Resolved {
                    skill,
                    script: Some(found),
                    access,
                })
            }
            _ => Ok(Resolved {
                skill,
                script: None,
                access: self.access(skill),
            }),
        }
    }

    /// Answers a call to any tool of either style, given its raw JSON arguments, decided once:
    /// a call under `ask` without a grant for the skill's content is not answered, its answer
    /// names the subject in [`ToolOutput::approval`] (a [`Session`](super::Session) keeps it
    /// until the user answers).
    ///
    /// ```
    /// use skills_embed::policy::{Permissions, Subject};
    /// use skills_embed::tools::{Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "D.".into(), ..Fields::default() },
    /// #     format!("Body of {name}.\n"),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("pdf"), skill("deploy")],
    ///     &ListingFormat::Markdown,
    /// );
    /// let ask = Permissions::new().ask("deploy");
    /// let tools = Tools::new(set, Settings { permissions: ask, ..Settings::default() });
    /// assert!(tools.handle("load_skill", r#"{"skill":"pdf"}"#).text.contains("Body of pdf."));
    /// let waiting = tools.handle("load_skill", r#"{"skill":"deploy"}"#);
    /// assert_eq!(waiting.approval, Some(Subject::load("deploy")));
    /// let wrong = tools.handle("load_skill", r#"{"skill":"pfd"}"#);
    /// assert!(wrong.is_error && wrong.text.contains(r#"Did you mean "pdf"?"#), "{}", wrong.text);
    /// ```
    #[must_use = "the call was answered (a script may have run): give `text` to the model"]
    pub fn handle(&self, tool_name: &str, arguments: &str) -> ToolOutput {
        let call = match self.parse(tool_name, arguments) {
            Ok(call) => call,
            Err(e) => return e.into(),
        };
        match self.resolve(&call) {
            Ok(resolved) if resolved.access == Access::Ask => {
                ToolOutput::awaiting_approval(resolved.subject())
            }
            Ok(resolved) => self.answer(&resolved, &call),
            Err(e) => e.into(),
        }
    }

    /// Answers a call already decided (or approved by the user).
    pub(crate) fn answer(&self, resolved: &Resolved<'_>, call: &Call) -> ToolOutput {
        let skill = resolved.skill;
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
                    let report = render::report(skill, format!("#{chunk}"), digest, text, None);
                    render::frame(&self.settings, report, text, "")
                }
                Err(e) => ToolOutput::error(SkillError::clipped(e).to_string()),
            },
            Call::Run { args, .. } => match resolved.script {
                Some(script) => match &self.cancel {
                    Some(cancel) => run::run(&self.settings, script, args.clone(), cancel),
                    None => run::run(&self.settings, script, args.clone(), &Default::default()),
                },
                None => ToolOutput::error("This call names no script."),
            },
        }
    }

    /// A visible skill by name; denied skills and skills the model may not invoke answer
    /// exactly like unknown ones, and are never named or suggested.
    pub(crate) fn lookup(&self, name: &str) -> Result<&Skill, CallError> {
        match self.set.get(name) {
            Ok(skill) if self.shows(skill) => Ok(skill),
            _ => Err(unknown(name, self.visible())),
        }
    }

    fn body(&self, skill: &Skill, section: Option<&str>, offset: usize) -> ToolOutput {
        let core = render::join_core(skill);
        let (text, note) = render::pick_section(&core, section);
        let cut = excerpt::excerpt(text, offset, self.settings.max_body_chars);
        let digest = skill.load(MANIFEST).map_or([0; 32], |f| f.sha256());
        let mut report = render::report(skill, MANIFEST.into(), digest, cut.text, Some(&cut));
        report.bytes_read = cut.text.len();
        let mut trailer = render::continuation(&self.settings, &cut, skill.name(), MANIFEST);
        if offset == 0 || cut.next_offset().is_none() {
            render::push_chunks(&self.settings, &mut trailer, skill);
            render::push_files(&self.settings, &mut trailer, skill);
            match self.on_disk(skill) {
                Ok(Some(dir)) => {
                    let _ = writeln!(
                        trailer,
                        "This skill's files are on disk at {}: run its scripts from there, e.g. {}.",
                        text::one_line(&dir.display().to_string()),
                        text::one_line(
                            &dir.join(render::first_script(skill)).display().to_string()
                        )
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
        render::frame(&self.settings, report, &content, &trailer)
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
            let mut report = render::report(skill, loaded.path().into(), loaded.sha256(), "", None);
            report.bytes_read = 0;
            return render::frame(&self.settings, report, &content, "");
        };
        let (picked, note) = render::pick_section(text, section);
        let cut = excerpt::excerpt(picked, offset, self.settings.max_chars);
        let report = render::report(
            skill,
            loaded.path().into(),
            loaded.sha256(),
            cut.text,
            Some(&cut),
        );
        let trailer = render::continuation(&self.settings, &cut, skill.name(), loaded.path());
        render::frame(
            &self.settings,
            report,
            &format!("{note}{}", cut.text),
            &trailer,
        )
    }

    /// Where a skill with scripts is on disk, written there first by the settings' extractor
    /// (injected: this layer never writes itself); `None` without a work folder or for a skill
    /// without scripts.
    pub(crate) fn on_disk(
        &self,
        skill: &Skill,
    ) -> Result<Option<std::path::PathBuf>, Box<dyn std::error::Error + Send + Sync>> {
        match self.settings.extractor() {
            Some(extract) if skill.has_scripts() => extract(skill).map(Some),
            _ => Ok(None),
        }
    }

    fn served_as_text(&self, loaded: &Loaded<'_>) -> bool {
        if loaded.is_executable() && !self.settings.dump_executables {
            return false;
        }
        let ext = loaded.path().rsplit_once('.').map_or("", |(_, e)| e);
        self.settings
            .text_extensions
            .iter()
            .any(|t| t.eq_ignore_ascii_case(ext))
    }

    fn names_note(&self) -> String {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        if names.is_empty() {
            " There are no skills available.".into()
        } else {
            format!(" Available skills: {}.", listing::names(&names))
        }
    }
}

/// Whether `skill`'s `allowed-tools` names its script `script`: `Script(script)` or
/// `Script(*)`, as `Bash(git:*)` names a shell command.
fn allowed_by_skill(skill: &Skill, script: &str) -> bool {
    skill.allowed_tools().any(|tool| {
        tool.strip_prefix("Script(")
            .and_then(|rest| rest.strip_suffix(')'))
            .is_some_and(|named| named == script || named == "*")
    })
}

/// The answer to a name that is not among `among`: what exists, and the closest name.
#[cold]
fn unknown<'s>(name: &str, among: impl Iterator<Item = &'s Skill>) -> CallError {
    let names: Vec<&str> = among.map(Skill::name).collect();
    let err = SkillError::UnknownSkill {
        requested: text::echo(name),
        available: names.iter().map(|s| s.to_string()).collect(),
        suggestion: crate::text::closest(name, names.iter().copied()),
    };
    CallError(err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::ListingFormat;
    use crate::model::fields::Fields;
    use crate::model::file::File;
    use crate::policy::{Answer, Permissions, Subject};

    fn ruled(set: SkillSet, permissions: Permissions) -> Tools {
        Tools::new(
            set,
            Settings {
                permissions,
                ..Settings::default()
            },
        )
    }

    fn skill(name: &str) -> Skill {
        let fields = Fields {
            name: name.into(),
            description: "D.".into(),
            ..Fields::default()
        };
        Skill::owned(fields, format!("Body of {name}.\n"), Vec::new())
    }

    #[test]
    fn a_body_lists_each_folders_files_on_one_line_in_the_order_folders_appear() {
        let fields = Fields {
            name: "tree".into(),
            description: "D.".into(),
            ..Fields::default()
        };
        let file = |path: &str| File::owned(path.into(), b"x".to_vec(), false);
        // In path order, the skill's own files are split by `b/c/`'s and `b/`'s, and `b/c/`
        // comes before `b/`.
        let paths = ["a.md", "b/c/e.md", "b/d.md", "d.md", "z/a.md", "b/c/f.md"];
        let skill = Skill::owned(fields, "Body.\n".into(), paths.map(file).to_vec());
        let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
        let out = Tools::new(set, Settings::default()).handle("load_skill", r#"{"skill": "tree"}"#);
        let listed = out.text.split_once("with `path`):\n").map(|(_, l)| l);
        assert_eq!(
            listed,
            Some("- ./: a.md, d.md\n- b/c/: e.md, f.md\n- b/: d.md\n- z/: a.md\n"),
            "{}",
            out.text
        );
    }

    #[test]
    fn a_grant_for_a_skill_named_star_lets_no_other_skill_through() {
        // A set built in code may hold a name the validator would refuse. Granting it must not
        // read as the rule `allow *`.
        let set =
            SkillSet::from_skills(vec![skill("*"), skill("deploy")], &ListingFormat::Markdown);
        let rules = Permissions::new().ask("*");
        let mut grants = Grants::default();
        grants.answer(&Subject::load("*"), set.get("*").unwrap(), Answer::Always);
        let tools = ruled(set, rules.clone()).with_grants(grants);
        let set = tools.set();

        assert_eq!(tools.access(set.get("*").unwrap()), Access::Allow);
        assert_eq!(tools.access(set.get("deploy").unwrap()), Access::Ask);
        let star = tools.handle("load_skill", r#"{"skill": "*"}"#);
        assert!(
            star.approval.is_none() && star.text.contains("Body of *."),
            "{star:?}"
        );
        let deploy = tools.handle("load_skill", r#"{"skill": "deploy"}"#);
        assert_eq!(deploy.approval, Some(Subject::load("deploy")));
        assert_eq!(tools.settings().permissions, rules);
    }

    #[test]
    fn grants_and_hiding_apply_without_changing_the_rules() {
        let set = SkillSet::from_skills(
            vec![skill("a*b"), skill("a-b"), skill("deploy")],
            &ListingFormat::Markdown,
        );
        let rules = Permissions::new().ask("deploy");
        let mut grants = Grants::default();
        grants.answer(
            &Subject::load("deploy"),
            set.get("deploy").unwrap(),
            Answer::Always,
        );
        let tools = ruled(set, rules.clone())
            .with_grants(grants.clone())
            .hiding(|s| s.name().contains('*'));
        let set = tools.set();

        // The rules are the user's, untouched; the grants are kept as given.
        assert_eq!(tools.settings().permissions, rules);
        assert_eq!(tools.grants(), &grants);
        // Hiding is by skill, not by pattern: `a*b` is hidden, `a-b` (which it would match as
        // a pattern) is not.
        let visible: Vec<&str> = tools.visible().map(Skill::name).collect();
        assert_eq!(visible, ["a-b", "deploy"]);
        assert_eq!(tools.access(set.get("a*b").unwrap()), Access::Deny);
        assert!(tools.lookup("a*b").is_err() && tools.lookup_for_user("a*b").is_err());
        assert!(
            tools
                .handle("load_skill", r#"{"skill": "deploy"}"#)
                .approval
                .is_none()
        );
    }
}
