//! A conversation's skill state: what the model has loaded, which tools that brings, what waits
//! for the user's approval, and the system prompt for the current disclosure mode.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::invoke::{self, Invocation, Unknown};
use crate::listing::ListingOptions;
use crate::model::id::Dynamic;
use crate::model::skill::Skill;
use crate::policy::{Access, Answer, Grants};
use crate::tools::{Call, ToolOutput, Tools};
use crate::tools::{Disclosure, match_skills};

/// Something the host may want to react to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A skill's body was loaded for the first time (or again after being unloaded).
    Loaded {
        /// The skill.
        skill: String,
    },
    /// A chunk was loaded.
    ChunkLoaded {
        /// The skill.
        skill: String,
        /// The chunk's id.
        chunk: String,
    },
    /// A skill was unloaded.
    Unloaded {
        /// The skill.
        skill: String,
        /// Why.
        reason: UnloadReason,
    },
    /// A tool declared in `allowed-tools` became active (a skill declaring it was loaded).
    ToolActivated(String),
    /// A tool is no longer declared by any active skill.
    ToolDeactivated(String),
    /// Loading a skill waits for the user: answer with [`Session::answer`].
    ApprovalRequested {
        /// The skill.
        skill: String,
    },
    /// The user invoked a skill in a message ([`Session::invoke`]).
    Invoked {
        /// The skill.
        skill: String,
    },
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Names as listings write them, so one event is one line whatever the names hold.
        use crate::text::quote_name as name;
        match self {
            Event::Loaded { skill } => write!(f, "loaded {}", name(skill)),
            Event::ChunkLoaded { skill, chunk } => {
                write!(f, "loaded chunk {}#{}", name(skill), name(chunk))
            }
            Event::Unloaded { skill, reason } => write!(f, "unloaded {} ({reason})", name(skill)),
            Event::ToolActivated(tool) => write!(f, "tool {tool} activated"),
            Event::ToolDeactivated(tool) => write!(f, "tool {tool} deactivated"),
            Event::ApprovalRequested { skill } => {
                write!(f, "approval requested for {}", name(skill))
            }
            Event::Invoked { skill } => write!(f, "invoked {} by the user", name(skill)),
        }
    }
}

impl std::fmt::Display for UnloadReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnloadReason::Idle => "idle",
            UnloadReason::Host => "unloaded by the host",
        })
    }
}

/// Why a skill was unloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnloadReason {
    /// Unused for the configured number of turns.
    Idle,
    /// The host unloaded it.
    Host,
}

/// A skill the user invoked in a message, and the text to insert for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoked {
    /// Where and how the message named it, with its arguments.
    pub invocation: Invocation,
    /// What to insert: the body with the arguments substituted ([`invoke::render`]), or, for a
    /// skill already loaded and invoked again without arguments, a short note saying so.
    pub text: String,
    /// Whether the skill's body was already loaded in this session.
    pub already_loaded: bool,
}

#[derive(Debug, Clone, Default)]
struct Active {
    last_used: u64,
    body_loaded: bool,
    chunks: BTreeSet<String>,
}

/// What a model has loaded in one conversation.
///
/// ```
/// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, Tools, tools::{Event, Session}};
/// let fields = Fields {
///     name: "demo".into(),
///     description: "A demo.".into(),
///     allowed_tools: vec!["Bash".into(), "Read".into()],
///     ..Fields::default()
/// };
/// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Do it well.\n".into(), vec![])], &ListingFormat::Markdown);
///
/// let mut session = Session::new(Tools::new(&set)).unload_after(2);
/// let first = session.handle("load_skill", r#"{"skill":"demo"}"#);
/// assert!(first.text.contains("Do it well."));
/// let again = session.handle("load_skill", r#"{"skill":"demo"}"#);
/// assert!(again.text.contains("already loaded"));
/// assert_eq!(session.active_tools(), ["Bash", "Read"]);
///
/// session.next_turn();
/// session.next_turn();
/// assert!(session.active_skills().next().is_none());
/// assert!(session.drain_events().contains(&Event::ToolDeactivated("Bash".into())));
/// ```
#[derive(Debug)]
pub struct Session<'s, Id: 'static = Dynamic> {
    tools: Tools<'s, Id>,
    grants: Grants,
    active: BTreeMap<String, Active>,
    pending: BTreeMap<String, Call>,
    turn: u64,
    unload_after: Option<u64>,
    events: Vec<Event>,
}

impl<'s, Id> Session<'s, Id> {
    /// A new conversation over `tools`.
    pub fn new(tools: Tools<'s, Id>) -> Self {
        Session {
            tools,
            grants: Grants::default(),
            active: BTreeMap::new(),
            pending: BTreeMap::new(),
            turn: 0,
            unload_after: None,
            events: Vec::new(),
        }
    }

    /// Unloads a skill (and its tools) after this many turns without use.
    pub fn unload_after(mut self, turns: u64) -> Self {
        self.unload_after = Some(turns.max(1));
        self
    }

    /// The tools this session answers for.
    pub fn tools(&self) -> &Tools<'s, Id> {
        &self.tools
    }

    /// Starts from `grants`: the "always" answers of an earlier session, say one over the set
    /// before a reload. Each holds only while its skill is unchanged (see [`Grants`]).
    ///
    /// ```
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, Tools};
    /// use skills_embed_runtime::policy::{Answer, Permissions};
    /// use skills_embed_runtime::tools::Session;
    ///
    /// let set = |body: &str| {
    ///     let fields = Fields { name: "deploy".into(), description: "Deploy.".into(), ..Fields::default() };
    ///     SkillSet::from_skills(vec![Skill::owned(fields, body.into(), vec![])], &ListingFormat::Markdown)
    /// };
    /// let rules = Permissions::new().ask("deploy");
    /// let load = r#"{"skill":"deploy"}"#;
    ///
    /// let before = set("Run make deploy.\n");
    /// let mut first = Session::new(Tools::new(&before).with_permissions(rules.clone()));
    /// assert!(first.handle("load_skill", load).approval.is_some());
    /// first.answer("deploy", Answer::Always);
    ///
    /// // The same skill in a new set: the answer still holds.
    /// let same = set("Run make deploy.\n");
    /// let mut second = Session::new(Tools::new(&same).with_permissions(rules.clone()))
    ///     .with_grants(first.grants().clone());
    /// assert!(second.handle("load_skill", load).approval.is_none());
    ///
    /// // A changed skill asks again.
    /// let changed = set("Run make deploy, then delete the backups.\n");
    /// let mut third = Session::new(Tools::new(&changed).with_permissions(rules))
    ///     .with_grants(first.grants().clone());
    /// assert!(third.handle("load_skill", load).approval.is_some());
    /// ```
    pub fn with_grants(mut self, grants: Grants) -> Self {
        self.grants = grants;
        self
    }

    /// The "always" answers given in this session, to keep (they serialise) or to carry into
    /// a session over a reloaded set with [`Session::with_grants`].
    ///
    /// ```
    /// use skills_embed_runtime::{SkillSet, listing::ListingFormat, Tools, tools::Session};
    /// let set = SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown);
    /// assert!(Session::new(Tools::new(&set)).grants().is_empty());
    /// ```
    pub fn grants(&self) -> &Grants {
        &self.grants
    }

    /// Answers a tool call and remembers what it loaded. A body already loaded is not sent
    /// again; see [`Session::handle_forced`].
    pub fn handle(&mut self, tool_name: &str, arguments: &str) -> ToolOutput {
        self.handle_with(tool_name, arguments, false)
    }

    /// Answers a tool call, sending a body again even when it is already loaded.
    pub fn handle_forced(&mut self, tool_name: &str, arguments: &str) -> ToolOutput {
        self.handle_with(tool_name, arguments, true)
    }

    fn handle_with(&mut self, tool_name: &str, arguments: &str, force: bool) -> ToolOutput {
        let call = match self.tools.parse(tool_name, arguments) {
            Ok(call) => call,
            Err(e) => return e.into(),
        };
        let skill = match self.tools.lookup(call.skill()) {
            Ok(skill) => skill,
            Err(e) => return e.into(),
        };
        match self.grants.access(self.tools.permissions(), skill) {
            Access::Deny => return self.tools.call(&call),
            Access::Ask => return self.request_approval(skill, call),
            Access::Allow => {}
        }
        self.perform(skill, &call, force)
    }

    fn request_approval(&mut self, skill: &Skill, call: Call) -> ToolOutput {
        let name = skill.name().to_owned();
        if !self.pending.contains_key(&name) {
            self.events.push(Event::ApprovalRequested {
                skill: name.clone(),
            });
        }
        self.pending.insert(name.clone(), call);
        ToolOutput::awaiting_approval(&name)
    }

    /// Finds the skills the user's `message` invokes ([`invoke::parse_with`]) among the visible
    /// skills the user may invoke ([`invoke::is_user_invocable`]), renders each, and records it
    /// like a load: the skill becomes active (its tools too), with an [`Event::Invoked`] each
    /// time and an [`Event::Loaded`] the first time. A body already loaded is not sent again
    /// unless the invocation has arguments. Skills the permissions deny are reported as unknown;
    /// `ask` skills are not asked about, since the user named them. `skill_dir` gives a skill's
    /// folder on disk, when it has one, for `${SKILL_DIR}`.
    ///
    /// ```
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, Tools, tools::{Event, Session}};
    /// let fields = Fields { name: "pdf".into(), description: "PDF.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Fill $0.\n".into(), vec![])], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(&set));
    ///
    /// let (invoked, unknown) = session.invoke("/pdf a.pdf", |_| None);
    /// assert_eq!(invoked[0].text, "Fill a.pdf.\n");
    /// assert!(unknown.is_empty());
    /// assert_eq!(session.drain_events(), [Event::Invoked { skill: "pdf".into() }, Event::Loaded { skill: "pdf".into() }]);
    ///
    /// let (again, unknown) = session.invoke("now $pdf, and /pfd", |_| None);
    /// assert!(again[0].already_loaded && again[0].text.contains("already loaded"));
    /// assert_eq!(unknown[0].suggestion.as_deref(), Some("pdf"));
    /// ```
    pub fn invoke(
        &mut self,
        message: &str,
        skill_dir: impl Fn(&Skill) -> Option<String>,
    ) -> (Vec<Invoked>, Vec<Unknown>) {
        let parsed = {
            let visible: Vec<&Skill> = self
                .tools
                .visible()
                .filter(|s| invoke::is_user_invocable(s))
                .filter(|s| self.grants.access(self.tools.permissions(), s) != Access::Deny)
                .collect();
            invoke::parse(message, visible.iter().map(|s| s.name()))
        };
        let mut invoked = Vec::new();
        for invocation in parsed.invocations {
            let Ok(skill) = self.tools.lookup(&invocation.name) else {
                continue;
            };
            let name = skill.name().to_owned();
            let already_loaded = self.active.get(&name).is_some_and(|a| a.body_loaded);
            let text = if already_loaded && invocation.args.is_empty() {
                format!(
                    "Skill {} is already loaded: its instructions are earlier in this conversation.",
                    crate::text::json_string(&name)
                )
            } else {
                invoke::render(skill, &invocation.args, skill_dir(skill).as_deref())
            };
            let before = self.active_tools_owned();
            self.events.push(Event::Invoked {
                skill: name.clone(),
            });
            let entry = self.active.entry(name.clone()).or_default();
            entry.last_used = self.turn;
            if !entry.body_loaded {
                entry.body_loaded = true;
                self.events.push(Event::Loaded { skill: name });
            }
            self.push_tool_changes(&before);
            invoked.push(Invoked {
                invocation,
                text,
                already_loaded,
            });
        }
        (invoked, parsed.unknown)
    }

    /// The skills waiting for the user's approval.
    pub fn pending_approvals(&self) -> impl Iterator<Item = &str> {
        self.pending.keys().map(String::as_str)
    }

    /// Answers a pending approval: `Once` and `Always` perform the waiting load (and `Always`
    /// is remembered for this session, for the skill's content as it is in this session's set:
    /// a session over a set where the skill changed asks again, see [`Grants`]), `Reject`
    /// refuses it. `None` when nothing waits for that skill.
    pub fn answer(&mut self, skill: &str, answer: Answer) -> Option<ToolOutput> {
        let call = self.pending.remove(skill)?;
        if answer == Answer::Reject {
            self.grants.revoke(skill);
            return Some(ToolOutput {
                text: format!(
                    "The user declined loading skill {}. Do the task without it.",
                    crate::text::json_string(skill)
                ),
                is_error: true,
                report: None,
                approval: None,
            });
        }
        let found = self.tools.lookup(skill).ok()?;
        self.grants.answer(found, answer);
        Some(self.perform(found, &call, false))
    }

    fn perform(&mut self, skill: &Skill, call: &Call, force: bool) -> ToolOutput {
        let name = skill.name().to_owned();
        if let Call::Body {
            section: None,
            offset: 0,
            ..
        } = call
        {
            let loaded = self.active.get(&name).is_some_and(|a| a.body_loaded);
            if loaded && !force {
                if let Some(a) = self.active.get_mut(&name) {
                    a.last_used = self.turn;
                }
                return ToolOutput {
                    text: format!(
                        "Skill {} is already loaded: its instructions are earlier in this \
                         conversation. Follow them, or load one of its files with `path`.",
                        crate::text::json_string(&name)
                    ),
                    is_error: false,
                    report: None,
                    approval: None,
                };
            }
        }
        let out = self.tools.call_allowed(skill, call);
        if out.is_error {
            return out;
        }
        let before = self.active_tools_owned();
        let entry = self.active.entry(name.clone()).or_default();
        entry.last_used = self.turn;
        match call {
            Call::Body { .. } if !entry.body_loaded => {
                entry.body_loaded = true;
                self.events.push(Event::Loaded { skill: name });
            }
            Call::Chunk { chunk, .. } if entry.chunks.insert(chunk.clone()) => {
                self.events.push(Event::ChunkLoaded {
                    skill: name,
                    chunk: chunk.clone(),
                });
            }
            _ => {}
        }
        self.push_tool_changes(&before);
        out
    }

    /// Starts the next turn: skills unused for the configured number of turns are unloaded.
    pub fn next_turn(&mut self) {
        self.turn += 1;
        let Some(limit) = self.unload_after else {
            return;
        };
        let idle: Vec<String> = self
            .active
            .iter()
            .filter(|(_, a)| self.turn - a.last_used >= limit)
            .map(|(name, _)| name.clone())
            .collect();
        for name in idle {
            self.remove(&name, UnloadReason::Idle);
        }
    }

    /// Unloads a skill now. Returns whether it was loaded.
    pub fn unload(&mut self, skill: &str) -> bool {
        self.remove(skill, UnloadReason::Host)
    }

    fn remove(&mut self, skill: &str, reason: UnloadReason) -> bool {
        let before = self.active_tools_owned();
        if self.active.remove(skill).is_none() {
            return false;
        }
        self.events.push(Event::Unloaded {
            skill: skill.to_owned(),
            reason,
        });
        self.push_tool_changes(&before);
        true
    }

    /// The loaded skills, sorted by name.
    pub fn active_skills(&self) -> impl Iterator<Item = &str> {
        self.active.keys().map(String::as_str)
    }

    /// The current turn (0 at the start).
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// The union of the active skills' `allowed-tools`, each once, in the order first declared
    /// (skills in name order). A tool is here exactly while an active skill declares it.
    pub fn active_tools(&self) -> Vec<&'s str> {
        let mut tools: Vec<&'s str> = Vec::new();
        for name in self.active.keys() {
            if let Ok(skill) = self.tools.set().get(name) {
                for tool in skill.allowed_tools() {
                    if !tools.contains(&tool) {
                        tools.push(tool);
                    }
                }
            }
        }
        tools
    }

    fn active_tools_owned(&self) -> Vec<String> {
        self.active_tools().into_iter().map(str::to_owned).collect()
    }

    fn push_tool_changes(&mut self, before: &[String]) {
        let after = self.active_tools_owned();
        for t in &after {
            if !before.contains(t) {
                self.events.push(Event::ToolActivated(t.clone()));
            }
        }
        for t in before {
            if !after.contains(t) {
                self.events.push(Event::ToolDeactivated(t.clone()));
            }
        }
    }

    /// The events since the last call.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The loaded chunks' text, to carry into the next system prompt (empty when none).
    pub fn carried_chunks(&self) -> String {
        let mut out = String::new();
        for (name, active) in &self.active {
            let Ok(skill) = self.tools.set().get(name) else {
                continue;
            };
            for id in &active.chunks {
                if let Ok(text) = skill.chunk(id) {
                    let _ = write!(
                        out,
                        "<skill_chunk skill=\"{}\" id=\"{}\">\n{text}",
                        attribute(name),
                        attribute(id)
                    );
                    if !text.ends_with('\n') {
                        out.push('\n');
                    }
                    out.push_str("</skill_chunk>\n");
                }
            }
        }
        out
    }

    /// The system-prompt text for a disclosure mode, given the user's latest input (used by
    /// the eager matcher).
    ///
    /// - `Progressive`: a short note on how to use skills, the listing of visible skills, and
    ///   the carried chunks.
    /// - `Eager`: the bodies of the skills the keyword matcher picks from `user_input` (those
    ///   skills count as loaded), and nothing about the others.
    /// - `Hybrid`: the named skills' bodies, then the progressive text for the rest.
    pub fn system_prompt(&mut self, disclosure: &Disclosure, user_input: &str) -> String {
        let eager: Vec<String> = match disclosure {
            Disclosure::Progressive => Vec::new(),
            Disclosure::Eager(config) => {
                let visible = self.tools.visible().map(|s| (s.name(), s.description()));
                match_skills(user_input, visible, config)
                    .into_iter()
                    .map(|m| m.name)
                    .collect()
            }
            Disclosure::Hybrid { eager } => eager.clone(),
        };
        let mut out = String::new();
        for name in &eager {
            let Ok(skill) = self.tools.lookup(name) else {
                continue;
            };
            if self.grants.access(self.tools.permissions(), skill) != Access::Allow {
                continue;
            }
            let body: String = skill.core_body().collect();
            let _ = write!(out, "<skill name=\"{}\">\n{body}", attribute(name));
            if !body.ends_with('\n') {
                out.push('\n');
            }
            out.push_str("</skill>\n\n");
            let before = self.active_tools_owned();
            let entry = self.active.entry(name.clone()).or_default();
            entry.last_used = self.turn;
            if !entry.body_loaded {
                entry.body_loaded = true;
                self.events.push(Event::Loaded {
                    skill: name.clone(),
                });
            }
            self.push_tool_changes(&before);
        }
        if !matches!(disclosure, Disclosure::Eager(_)) {
            let rest: Vec<&Skill> = self
                .tools
                .visible()
                .filter(|s| !eager.iter().any(|e| e == s.name()))
                .collect();
            if !rest.is_empty() {
                let entries: Vec<_> = rest.iter().map(|s| s.listing_entry()).collect();
                let listing = crate::listing::render(&entries, &ListingOptions::default());
                let _ = write!(
                    out,
                    "Skills are instructions for specific tasks. Before a task one of these covers, load \
                     it with the {} tool and follow it:\n{listing}",
                    self.tools.config().name
                );
            }
        }
        let chunks = self.carried_chunks();
        if !chunks.is_empty() {
            out.push('\n');
            out.push_str(&chunks);
        }
        out
    }
}

/// A name as an XML attribute value: written as listings write names, then XML-escaped.
fn attribute(name: &str) -> String {
    let mut out = String::new();
    crate::listing::push_escaped(&mut out, &crate::text::quote_name(name));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::ListingFormat;
    use crate::policy::Permissions;
    use crate::{Fields, SkillSet};

    fn skill(name: &str, extra: &str, tools: &[&str], body: &str) -> Skill {
        let fields = Fields {
            name: name.into(),
            description: "D.".into(),
            allowed_tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            extra: extra.into(),
            ..Fields::default()
        };
        Skill::owned(fields, body.into(), vec![])
    }

    #[test]
    fn user_invocations_are_recorded_like_loads() {
        let set = SkillSet::from_skills(
            vec![
                skill("pdf", "", &["Bash"], "Fill $0 in ${SKILL_DIR}.\n"),
                skill("deploy", "", &[], "Deploy.\n"),
                skill("secret", "", &[], "Secret.\n"),
                skill("internal", r#"{"user-invocable":false}"#, &[], "I.\n"),
            ],
            &ListingFormat::Markdown,
        );
        let rules = Permissions::new().ask("deploy").deny("secret");
        let mut session = Session::new(Tools::new(&set).with_permissions(rules));
        let (invoked, unknown) = session.invoke("/pdf a.pdf", |s| Some(format!("/x/{}", s.name())));
        assert_eq!(invoked[0].text, "Fill a.pdf in /x/pdf.\n");
        assert!(!invoked[0].already_loaded && unknown.is_empty());
        assert_eq!(session.active_tools(), ["Bash"]);
        assert_eq!(
            session.drain_events(),
            [
                Event::Invoked {
                    skill: "pdf".into()
                },
                Event::Loaded {
                    skill: "pdf".into()
                },
                Event::ToolActivated("Bash".into()),
            ]
        );
        // Again with arguments: rendered again, no second `Loaded`.
        let (invoked, _) = session.invoke("/pdf b.pdf", |_| None);
        assert_eq!(invoked[0].text, "Fill b.pdf in ${SKILL_DIR}.\n");
        assert!(invoked[0].already_loaded);
        assert_eq!(
            session.drain_events(),
            [Event::Invoked {
                skill: "pdf".into()
            }]
        );
        // `ask` skills are the user's call; denied and non-invocable ones are unknown.
        let (invoked, unknown) = session.invoke("$deploy /secret /internal", |_| None);
        assert_eq!(invoked.len(), 1);
        assert_eq!(invoked[0].text, "Deploy.\n");
        let texts: Vec<_> = unknown.iter().map(|u| u.text.as_str()).collect();
        assert_eq!(texts, ["/secret", "/internal"]);
        assert!(session.pending_approvals().next().is_none());
        assert_eq!(
            Event::Invoked {
                skill: "pdf".into()
            }
            .to_string(),
            "invoked pdf by the user"
        );
    }
}
