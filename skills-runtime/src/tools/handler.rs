//! [`Tools`]: the definitions offered, what the model may see, and the answer to each call:
//! whatever the model sends, an answer it can act on, never a panic. Decoding a call is in
//! `call.rs`, framing the answer in `render.rs`.

use std::fmt::Write;
use std::sync::{Arc, OnceLock};

use super::call::{self, Call, CallError, Known};
use super::definition::{self, ToolConfig, ToolDefinition, ToolStyle};
use super::render::{self, ToolOutput};
use super::run;
use crate::listing::{self, Entry, ListingOptions};
use crate::model::error::SkillError;
use crate::model::id::Dynamic;
use crate::model::script::{CancelToken, Script};
use crate::model::set::SkillSet;
use crate::model::skill::{Loaded, MANIFEST, Skill};
use crate::policy::{Access, Grants, Permissions};
use crate::text::{self, echo, excerpt};

/// Tool definitions and the call handler over a skill set.
///
/// ```
/// use skills_embed_runtime::{File, Fields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
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
    /// Shared, not copied: hosts build `Tools` per request (an MCP request, a rig call) from
    /// settings that do not change between requests.
    config: Arc<ToolConfig>,
    permissions: Arc<Permissions>,
    /// The "always" answers: an `ask` skill granted for its current content is allowed.
    /// Consulted per skill, never folded into the rules, so a granted name is never read as
    /// a pattern and nothing is rebuilt per call.
    grants: Grants,
    /// Skills a host cannot serve (MCP: names its skills extension cannot carry): treated as
    /// denied on every surface, whatever the rules say.
    hide: Option<fn(&Skill) -> bool>,
    /// Where skills with scripts are written so the model can run them.
    workdir: Option<std::path::PathBuf>,
    /// Who runs the skills' script files, when the host does ([`Tools::with_file_runner`]).
    file_runner: Option<std::sync::Arc<dyn super::FileRunner>>,
    /// Those files as scripts of the run tool: made on first need (a listing of the tools, a
    /// run), so a host that builds `Tools` per request copies no file for a request that
    /// reads a resource.
    file_scripts: std::sync::OnceLock<Vec<Script>>,
    /// Stops the script runs of the request these tools answer (the MCP server's, when its
    /// client cancels or hangs up).
    cancel: Option<CancelToken>,
}

impl<Id> Tools<'_, Id> {
    /// Whether no skill is visible (an empty set, or every skill denied): then there is nothing
    /// to list or load, the listing is the empty string and [`Tools::offered`] is empty.
    ///
    /// ```
    /// use skills_embed_runtime::listing::ListingOptions;
    /// use skills_embed_runtime::policy::Permissions;
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
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
        // The defaults, made once: a `Tools` per request copies two pointers, not the settings.
        static DEFAULTS: OnceLock<(Arc<ToolConfig>, Arc<Permissions>)> = OnceLock::new();
        let (config, permissions) = DEFAULTS.get_or_init(Default::default);
        Tools {
            set,
            config: Arc::clone(config),
            permissions: Arc::clone(permissions),
            grants: Grants::default(),
            hide: None,
            workdir: None,
            file_runner: None,
            file_scripts: std::sync::OnceLock::new(),
            cancel: None,
        }
    }

    /// Runs the skills' script files (under `scripts/`, or with an executable bit) through
    /// `runner` when the model asks: each becomes a script of the run tool named by its path
    /// (`pdf-forms/scripts/fill.py`), taking `{"argv": [...]}`, under the same permission
    /// rules (`pdf-forms/scripts/*`) and approvals as Rust scripts. See [`FileRunner`](super::FileRunner).
    pub fn with_file_runner(mut self, runner: std::sync::Arc<dyn super::FileRunner>) -> Self {
        self.file_runner = Some(runner);
        self.file_scripts = std::sync::OnceLock::new();
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

    /// The skills' script files as scripts, when a runner was given.
    fn file_scripts(&self) -> &[Script] {
        match &self.file_runner {
            Some(runner) => self
                .file_scripts
                .get_or_init(|| run::file_scripts(self.set.skills().iter(), runner)),
            None => &[],
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
        self.config = Arc::new(config);
        self
    }

    /// Sets the configuration and the rules a host keeps for every request it answers.
    #[cfg(any(feature = "mcp", feature = "rig"))]
    pub(crate) fn with_settings(
        mut self,
        config: &Arc<ToolConfig>,
        permissions: &Arc<Permissions>,
    ) -> Self {
        self.config = Arc::clone(config);
        self.permissions = Arc::clone(permissions);
        self
    }

    /// Sets the permission rules: denied skills vanish from the listing and the schema.
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.permissions = Arc::new(permissions);
        self
    }

    /// Counts the "always" answers in `grants`: a skill under `ask` whose grant was given for
    /// its current content is loaded without asking ([`Grants::access`]). The permission rules
    /// stay as they are: a grant is looked up by the skill's exact name, never as a pattern.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Access, Answer, Grants, Permissions};
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
    /// let fields = Fields { name: "deploy".into(), description: "Deploy.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Run make.\n".into(), vec![])], &ListingFormat::Markdown);
    /// let rules = Permissions::new().ask("deploy");
    /// let mut grants = Grants::default();
    /// grants.answer(set.get("deploy").unwrap(), Answer::Always);
    ///
    /// let tools = Tools::new(&set).with_permissions(rules.clone()).with_grants(grants);
    /// assert_eq!(tools.access(set.get("deploy").unwrap()), Access::Allow);
    /// assert!(tools.handle("load_skill", r#"{"skill":"deploy"}"#).approval.is_none());
    /// assert_eq!(tools.permissions(), &rules);
    /// ```
    pub fn with_grants(mut self, grants: Grants) -> Self {
        self.grants = grants;
        self
    }

    /// Treats every skill `hide` holds for as denied, on every surface (a host that cannot
    /// serve some skills); combined with the rules in [`Tools::shows`], not written into them.
    // Only the MCP host hides skills.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn hiding(mut self, hide: fn(&Skill) -> bool) -> Self {
        self.hide = Some(hide);
        self
    }

    /// The "always" answers counted ([`Tools::with_grants`]).
    pub fn grants(&self) -> &Grants {
        &self.grants
    }

    /// The answers a session records as the user gives them.
    pub(crate) fn grants_mut(&mut self) -> &mut Grants {
        &mut self.grants
    }

    /// What loading `skill` needs: [`Access::Deny`] when the rules deny it (or the host hides
    /// it), [`Access::Ask`] for an `ask` skill without a grant for its current content,
    /// [`Access::Allow`] otherwise. The digest is computed only for an `ask` skill with a grant.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Access, Permissions};
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
    /// let fields = Fields { name: "deploy".into(), description: "Deploy.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown);
    /// let tools = Tools::new(&set).with_permissions(Permissions::new().ask("deploy"));
    /// assert_eq!(tools.access(set.get("deploy").unwrap()), Access::Ask);
    /// ```
    pub fn access(&self, skill: &Skill) -> Access {
        if self.hidden(skill) {
            return Access::Deny;
        }
        self.grants.access(&self.permissions, skill)
    }

    /// Whether the rules deny `skill` or the host hides it (grants never lift a denial).
    fn denies(&self, skill: &Skill) -> bool {
        self.hidden(skill) || self.permissions.check(skill.name()) == Access::Deny
    }

    fn hidden(&self, skill: &Skill) -> bool {
        self.hide.is_some_and(|hide| hide(skill))
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
    /// use skills_embed_runtime::{Fields, invoke::InvocationFields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
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
        skill.invocation().model_may_invoke() && !self.denies(skill)
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
    /// use skills_embed_runtime::{Fields, invoke::InvocationFields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
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
        skill.invocation().user_may_invoke() && !self.denies(skill)
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

    /// The tool definitions, with the visible skills as the `skill` enum, and the run tool (or
    /// one tool per script in the split style) when a visible skill has a Rust script the
    /// permissions do not deny.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        let listing = self.config.listing_in_description.clone().map(|format| {
            self.listing(&ListingOptions {
                format,
                ..ListingOptions::default()
            })
        });
        let mut definitions = definition::definitions(&self.config, &names, listing.as_deref());
        definitions.extend(definition::run_definitions(&self.config, &self.runnable()));
        definitions
    }

    /// The Rust scripts the model may run: those of the visible skills ([`Tools::shows`]) that
    /// the permissions do not deny ([`Tools::script_access`]), sorted by skill and name.
    ///
    /// ```
    /// use skills_embed_runtime::policy::Permissions;
    /// use skills_embed_runtime::{Fields, Script, Skill, SkillSet, listing::ListingFormat, tools::Tools};
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
    /// let tools = Tools::new(&set).with_permissions(Permissions::new().deny("*/erase"));
    /// assert_eq!(tools.runnable().iter().map(|s| s.name()).collect::<Vec<_>>(), ["count"]);
    ///
    /// let out = tools.handle("run_skill_script", r#"{"script": "words/count", "args": {"text": "a b c"}}"#);
    /// assert!(!out.is_error && out.text.ends_with("3"), "{}", out.text);
    /// let out = tools.handle("run_skill_script", r#"{"script": "words/erase", "args": {"text": ""}}"#);
    /// assert!(out.is_error && out.text.contains(r#"Its scripts: "count""#), "{}", out.text);
    /// ```
    pub fn runnable(&self) -> Vec<&Script> {
        let set = self.set;
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
        if self.file_runner.is_some() {
            runnable.sort_by(|a, b| a.key().cmp(&b.key()));
        }
        runnable
    }

    /// What running the Rust script `script` of `skill` needs: [`Access::Deny`] when the
    /// skill is denied or hidden or a script rule denies it, [`Access::Ask`] when a script rule
    /// (or the skill's own rule) asks and no grant for this script and the skill's current
    /// content exists, unless the skill's `allowed-tools` names the script (`Script(name)` or
    /// `Script(*)`); [`Access::Allow`] otherwise. See [`Permissions::check_script`].
    pub fn script_access(&self, skill: &Skill, script: &str) -> Access {
        if self.hidden(skill) {
            return Access::Deny;
        }
        match self.grants.access_script(&self.permissions, skill, script) {
            Access::Ask if allowed_by_skill(skill, script) => Access::Allow,
            access => access,
        }
    }

    /// What answering `call` for `skill` needs: [`Tools::script_access`] for a script run,
    /// [`Tools::access`] for a load.
    pub fn call_access(&self, skill: &Skill, call: &Call) -> Access {
        match call {
            Call::Run { script, .. } => self.script_access(skill, script),
            _ => self.access(skill),
        }
    }

    /// For a script run, whether `call` names a script the model may run of `skill`; the error
    /// answers the model. Anything else passes.
    pub(crate) fn check_script(&self, skill: &Skill, call: &Call) -> Result<(), CallError> {
        match call {
            Call::Run { script, .. } => self.runnable_script(skill, script).map(drop),
            _ => Ok(()),
        }
    }

    /// A script the model may run ([`Tools::runnable`]) of the visible `skill`; a miss names
    /// the skill's runnable scripts and the closest one.
    fn runnable_script(&self, skill: &Skill, name: &str) -> Result<&Script, CallError> {
        let runnable = self.runnable();
        let mut of_skill = runnable.iter().filter(|s| s.skill() == skill.name());
        if let Some(found) = of_skill.clone().find(|s| s.name() == name) {
            return Ok(found);
        }
        let names: Vec<&str> = of_skill.by_ref().map(|s| s.name()).collect();
        let mut message = format!(
            "Skill {} has no script {}.",
            text::json_string(skill.name()),
            text::json_string(&echo(name))
        );
        if names.is_empty() {
            message.push_str(" It has no scripts you can run; follow its instructions instead.");
        } else {
            let quoted: Vec<String> = names.iter().map(|n| text::json_string(n)).collect();
            let _ = write!(message, " Its scripts: {}.", quoted.join(", "));
            if let Some(near) = crate::text::closest(name, names.iter().copied()) {
                let _ = write!(message, " Did you mean {}?", text::json_string(&near));
            }
        }
        Err(CallError(message))
    }

    /// Parses a call; the error is the answer for the model.
    pub fn parse(&self, tool_name: &str, arguments: &str) -> Result<Call, CallError> {
        self.decode(|config, known| call::decode(config, tool_name, arguments, known))
    }

    /// [`Tools::parse`] for arguments a protocol has already parsed into a JSON object.
    #[cfg(feature = "mcp")]
    pub(crate) fn parse_object(
        &self,
        tool_name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Call, CallError> {
        self.decode(|config, known| call::decode_object(config, tool_name, arguments, known))
    }

    /// Runs a decoder with what it may need to know about these tools.
    fn decode(
        &self,
        decoder: impl FnOnce(&ToolConfig, &Known<'_>) -> Result<Call, CallError>,
    ) -> Result<Call, CallError> {
        let script_tool = |name: &str| {
            if self.config.style != ToolStyle::Split || !name.contains("__") {
                return None;
            }
            self.runnable()
                .into_iter()
                .find(|s| definition::script_tool_name(s.skill(), s.name()) == name)
                .map(|s| (s.skill().to_owned(), s.name().to_owned()))
        };
        decoder(
            &self.config,
            &Known {
                names: &|| self.names_note(),
                tools: &|| self.definitions().into_iter().map(|d| d.name).collect(),
                script_tool: &script_tool,
            },
        )
    }

    /// Answers a call to any tool of either style, given its raw JSON arguments.
    pub fn handle(&self, tool_name: &str, arguments: &str) -> ToolOutput {
        match self.parse(tool_name, arguments) {
            Ok(call) => self.call(&call),
            Err(e) => e.into(),
        }
    }

    /// Answers a parsed call. A skill under `ask` without a grant for its content
    /// ([`Tools::with_grants`]) is not loaded: the answer names it in [`ToolOutput::approval`].
    pub fn call(&self, call: &Call) -> ToolOutput {
        let skill = match self.lookup(call.skill()) {
            Ok(skill) => skill,
            Err(e) => return e.into(),
        };
        if let Err(e) = self.check_script(skill, call) {
            return e.into();
        }
        if self.call_access(skill, call) == Access::Ask {
            return ToolOutput::awaiting_approval(&approval_subject(skill, call));
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
                    let report = render::report(skill, format!("#{chunk}"), digest, text, None);
                    render::frame(&self.config, report, text, "")
                }
                Err(e) => ToolOutput::error(SkillError::clipped(e).to_string()),
            },
            Call::Run { script, args, .. } => match self.runnable_script(skill, script) {
                Ok(script) => match &self.cancel {
                    Some(cancel) => run::run(&self.config, script, args.clone(), cancel),
                    None => run::run(&self.config, script, args.clone(), &Default::default()),
                },
                Err(e) => e.into(),
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
        let core = render::join_core(skill);
        let (text, note) = render::pick_section(&core, section);
        let cut = excerpt::excerpt(text, offset, self.config.max_body_chars);
        let digest = skill.load(MANIFEST).map_or([0; 32], |f| f.sha256());
        let mut report = render::report(skill, MANIFEST.into(), digest, cut.text, Some(&cut));
        report.bytes_read = cut.text.len();
        let mut trailer = render::continuation(&self.config, &cut, skill.name(), MANIFEST);
        if offset == 0 || cut.next_offset().is_none() {
            render::push_chunks(&self.config, &mut trailer, skill);
            render::push_files(&self.config, &mut trailer, skill);
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
        render::frame(&self.config, report, &content, &trailer)
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
            return render::frame(&self.config, report, &content, "");
        };
        let (picked, note) = render::pick_section(text, section);
        let cut = excerpt::excerpt(picked, offset, self.config.max_chars);
        let report = render::report(
            skill,
            loaded.path().into(),
            loaded.sha256(),
            cut.text,
            Some(&cut),
        );
        let trailer = render::continuation(&self.config, &cut, skill.name(), loaded.path());
        render::frame(
            &self.config,
            report,
            &format!("{note}{}", cut.text),
            &trailer,
        )
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
            crate::disk::extract(skill, _dir)
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

    fn names_note(&self) -> String {
        let names: Vec<&str> = self.visible().map(Skill::name).collect();
        if names.is_empty() {
            " There are no skills available.".into()
        } else {
            format!(" Available skills: {}.", listing::names(&names))
        }
    }
}

/// What the user approves for `call`: the skill's name for a load, `skill/script` for a run.
pub(crate) fn approval_subject(skill: &Skill, call: &Call) -> String {
    match call {
        Call::Run { script, .. } => format!("{}/{script}", skill.name()),
        _ => skill.name().to_owned(),
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
        requested: echo(name),
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
    use crate::policy::Answer;

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
        let out = Tools::new(&set).handle("load_skill", r#"{"skill": "tree"}"#);
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
        grants.answer(set.get("*").unwrap(), Answer::Always);
        let tools = Tools::new(&set)
            .with_permissions(rules.clone())
            .with_grants(grants);

        assert_eq!(tools.access(set.get("*").unwrap()), Access::Allow);
        assert_eq!(tools.access(set.get("deploy").unwrap()), Access::Ask);
        let star = tools.handle("load_skill", r#"{"skill": "*"}"#);
        assert!(
            star.approval.is_none() && star.text.contains("Body of *."),
            "{star:?}"
        );
        let deploy = tools.handle("load_skill", r#"{"skill": "deploy"}"#);
        assert_eq!(deploy.approval.as_deref(), Some("deploy"));
        assert_eq!(tools.permissions(), &rules);
    }

    #[test]
    fn grants_and_hiding_apply_without_changing_the_rules() {
        let set = SkillSet::from_skills(
            vec![skill("a*b"), skill("a-b"), skill("deploy")],
            &ListingFormat::Markdown,
        );
        let rules = Permissions::new().ask("deploy");
        let mut grants = Grants::default();
        grants.answer(set.get("deploy").unwrap(), Answer::Always);
        let tools = Tools::new(&set)
            .with_permissions(rules.clone())
            .with_grants(grants.clone())
            .hiding(|s| s.name().contains('*'));

        // The rules are the user's, untouched; the grants are kept as given.
        assert_eq!(tools.permissions(), &rules);
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
