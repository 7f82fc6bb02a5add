//! A conversation's skill state: what the model has loaded, which tools that brings, what waits
//! for the user's approval, the system prompt for the current disclosure mode, and what to
//! re-attach when the host compacts the conversation ([`Session::compact`]).

mod event;
mod prompt;
pub(crate) mod reattach;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::invoke::{self, Invocation};
use crate::model::skill::Skill;
use crate::policy::{Access, Answer, Subject};
use crate::tools::Disclosure;
use crate::tools::handler::Resolved;
use crate::tools::render::declined;
use crate::tools::{Call, ToolOutput, Tools};
pub use event::Event;
pub use reattach::Reattached;

/// What [`Session::invoke`] found: each invocation with the text to insert for it.
type Rendered = Vec<(Invocation, String)>;

#[derive(Debug, Clone, Default)]
struct Active {
    /// The turn it was last used in, for unloading idle skills.
    last_used: u64,
    /// When it was last loaded or invoked, counted in uses across the session: orders
    /// re-attachment, most recent first.
    last_seq: u64,
    body_loaded: bool,
    /// How the model last received the body.
    content: Content,
    chunks: BTreeSet<String>,
}

/// How the model last received a skill's body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Content {
    /// From the load tool: the body without its chunk blocks.
    #[default]
    Tool,
    /// From a user invocation: the body with these arguments filled in.
    User { args: String, dir: Option<String> },
    /// In the system prompt ([`Session::system_prompt`]), which compaction does not touch.
    System,
}

/// What a model has loaded in one conversation.
///
/// ```
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// use skills_embed::tools::{Event, Session, Settings, Tools};
/// let fields = Fields {
///     name: "demo".into(),
///     description: "A demo.".into(),
///     allowed_tools: vec!["Bash".into(), "Read".into()],
///     ..Fields::default()
/// };
/// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Do it well.\n".into(), vec![])], &ListingFormat::Markdown);
///
/// let mut session = Session::new(Tools::new(set, Settings::default())).unload_after(2);
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
pub struct Session {
    /// The tools, holding this conversation's "always" answers ([`Tools::grants`]).
    tools: Tools,
    state: State,
}

/// What the conversation has loaded and what waits for the user.
#[derive(Debug, Default)]
struct State {
    active: BTreeMap<String, Active>,
    pending: BTreeMap<Subject, Call>,
    turn: u64,
    /// Uses so far: the clock behind [`Active::last_seq`].
    seq: u64,
    unload_after: Option<u64>,
    events: Vec<Event>,
}

impl Session {
    /// The default tokens per skill of [`Session::compact`]: 5,000, as Claude Code;
    /// [`Session::over`]'s example passes it.
    pub const REATTACH_PER_SKILL: usize = 5_000;
    /// The default tokens in all of [`Session::compact`]: 25,000, as Claude Code;
    /// [`Session::compact`]'s first example passes it.
    pub const REATTACH_TOTAL: usize = 25_000;

    /// A new conversation over `tools` (and the grants they hold: see
    /// [`Tools::with_grants`]).
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// assert!(session.active_skills().next().is_none());
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert_eq!(session.active_skills().collect::<Vec<_>>(), ["pdf"]);
    /// ```
    pub fn new(tools: Tools) -> Self {
        Session {
            tools,
            state: State::default(),
        }
    }

    /// The tools, to set a request's cancellation and the host's answers on them.
    #[cfg(feature = "mcp")]
    pub(crate) fn tools_mut(&mut self) -> &mut Tools {
        &mut self.tools
    }

    /// Marks `name` as used now and returns its entry, creating it.
    fn touch(&mut self, name: &str) -> &mut Active {
        touch(
            &mut self.state.active,
            &mut self.state.seq,
            self.state.turn,
            name,
        )
    }

    /// Unloads a skill (and its tools) after this many turns without use.
    ///
    /// ```
    /// use skills_embed::tools::{Event, Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default())).unload_after(1);
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// session.next_turn();
    /// assert!(session.active_skills().next().is_none());
    /// assert_eq!(session.drain_events().last(), Some(&Event::Idle { skill: "pdf".into() }));
    /// ```
    pub fn unload_after(mut self, turns: u64) -> Self {
        self.state.unload_after = Some(turns.max(1));
        self
    }

    /// The tools this session answers for, and the "always" answers given in it
    /// ([`Tools::grants`]: they serialise, and carry into a session over a reloaded set with
    /// [`Tools::with_grants`]).
    ///
    /// ```
    /// use skills_embed::policy::{Answer, Permissions, Subject};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let ask = Settings { permissions: Permissions::new().ask("pdf"), ..Settings::default() };
    /// let mut session = Session::new(Tools::new(set, ask));
    /// let _waiting = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let _sent = session.answer(&Subject::load("pdf"), Answer::Always);
    /// // The "always" answer, saved to carry into the next conversation:
    /// let saved = serde_json::to_string(session.tools().grants())?;
    /// assert!(saved.starts_with(r#"{"pdf":""#), "{saved}");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn tools(&self) -> &Tools {
        &self.tools
    }

    /// Answers a tool call and remembers what it loaded. A body already loaded is not sent
    /// again ([`Session::unload`] it first to send it again).
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let first = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert!(first.text.contains("Use pdftotext."));
    /// let again = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert!(again.text.starts_with(r#"Skill "pdf" is already loaded"#));
    /// session.unload("pdf");
    /// assert!(session.handle("load_skill", r#"{"skill":"pdf"}"#).text.contains("Use pdftotext."));
    /// ```
    #[must_use = "the session now counts this load as sent: give `text` to the model (or `unload` the skill)"]
    pub fn handle(&mut self, tool_name: &str, arguments: &str) -> ToolOutput {
        match self.tools.parse(tool_name, arguments) {
            Ok(call) => self.handle_call(call, false),
            Err(e) => e.into(),
        }
    }

    /// Answers a call already decoded (by [`Tools::parse`] or its twin for parsed arguments);
    /// `force` sends a body again even when it is already loaded.
    pub(crate) fn handle_call(&mut self, call: Call, force: bool) -> ToolOutput {
        // Decided once: an unknown or denied skill or script is answered here, before anyone
        // is asked about it.
        let answered = match self.tools.resolve(&call) {
            Err(e) => return e.into(),
            Ok(resolved) if resolved.access == Access::Ask => Err(resolved.subject()),
            Ok(resolved) => Ok(answer_allowed(
                &self.tools,
                &self.state,
                &resolved,
                &call,
                force,
            )),
        };
        match answered {
            Ok(answered) => self.record(&call, answered),
            Err(subject) => {
                if !self.state.pending.contains_key(&subject) {
                    self.state
                        .events
                        .push(Event::ApprovalRequested(subject.clone()));
                }
                self.state.pending.insert(subject.clone(), call);
                ToolOutput::awaiting_approval(subject)
            }
        }
    }

    /// Finds the skills the user's `message` invokes ([`invoke::parse`]) among the skills
    /// the user may invoke (including those the model may not
    /// invoke), renders each, and records it like a load. Each invocation comes with the text
    /// to insert for it: the body with the arguments substituted ([`invoke::render`]), or, for
    /// a skill whose body is already loaded and invoked again without arguments, a short note
    /// saying so. The skill becomes active (its tools too), with an [`Event::Invoked`] each
    /// time and an [`Event::Loaded`] the first time (no `Loaded`: the body was already loaded). Skills the permissions deny are reported as unknown;
    /// `ask` skills are not asked about, since the user named them. `skill_dir` gives a skill's
    /// folder on disk, when it has one, for `${SKILL_DIR}`.
    ///
    /// A skill whose text with the arguments filled in would be over
    /// [`MAX_RENDERED_BYTES`](invoke::MAX_RENDERED_BYTES) makes the whole call an `Err`
    /// ([`SkillError::TooLarge`](crate::SkillError::TooLarge), for the host to show the user)
    /// and records nothing.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, invoke, listing::ListingFormat};
    /// use skills_embed::tools::{Event, Session, Settings, Tools};
    /// let fields = Fields { name: "pdf".into(), description: "PDF.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Fill $0.\n".into(), vec![])], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    ///
    /// let (invoked, unknown) = session.invoke("/pdf a.pdf", |_| None).unwrap();
    /// assert_eq!((invoked[0].0.name.as_str(), invoked[0].1.as_str()), ("pdf", "Fill a.pdf.\n"));
    /// assert!(unknown.is_empty());
    /// assert_eq!(session.drain_events(), [Event::Invoked { skill: "pdf".into() }, Event::Loaded { skill: "pdf".into() }]);
    ///
    /// let (again, unknown) = session.invoke("now $pdf, and /pfd", |_| None).unwrap();
    ///
    /// let huge = "x".repeat(invoke::MAX_RENDERED_BYTES);
    /// let err = session.invoke(&format!("/pdf {huge}"), |_| None).unwrap_err();
    /// assert!(err.to_string().contains("the limit is 2000000 bytes"));
    /// assert!(again[0].1.contains("already loaded"));
    /// assert_eq!(session.drain_events(), [Event::Invoked { skill: "pdf".into() }]);
    /// assert_eq!(unknown[0].suggestion.as_deref(), Some("pdf"));
    /// ```
    pub fn invoke(
        &mut self,
        message: &str,
        skill_dir: impl Fn(&Skill) -> Option<String>,
    ) -> Result<(Rendered, Vec<Invocation>), crate::SkillError> {
        let (invocations, unknown) = {
            // `user_invocable` already leaves out what the rules deny or the host hides.
            let visible: Vec<&Skill> = self.tools.user_invocable().collect();
            invoke::parse(message, visible.iter().map(|s| s.name()))
        };
        // Rendered first, so that a refusal leaves the session as it was.
        let mut rendered = Vec::new();
        for invocation in invocations {
            let Ok(skill) = self.tools.lookup_for_user(&invocation.name) else {
                continue;
            };
            let name = skill.name().to_owned();
            let already_loaded = self.state.active.get(&name).is_some_and(|a| a.body_loaded);
            let (text, content) = if already_loaded && invocation.args.is_empty() {
                let note = format!(
                    "Skill {} is already loaded: its instructions are earlier in this conversation.",
                    crate::text::json_string(&name)
                );
                (note, None)
            } else {
                let dir = skill_dir(skill);
                let text = invoke::render(skill, &invocation.args, dir.as_deref())?;
                let args = invocation.args.clone();
                (text, Some(Content::User { args, dir }))
            };
            rendered.push((name, content, (invocation, text)));
        }
        let mut invoked = Vec::new();
        for (name, content, done) in rendered {
            let before = self.active_tools_owned();
            self.state.events.push(Event::Invoked {
                skill: name.clone(),
            });
            let entry = touch(
                &mut self.state.active,
                &mut self.state.seq,
                self.state.turn,
                &name,
            );
            if let Some(content) = content {
                entry.content = content;
            }
            if !entry.body_loaded {
                entry.body_loaded = true;
                self.state.events.push(Event::Loaded { skill: name });
            }
            self.push_tool_changes(&before);
            invoked.push(done);
        }
        Ok((invoked, unknown))
    }

    /// What waits for the user's approval.
    ///
    /// ```
    /// use skills_embed::policy::{Permissions, Subject};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let ask = Settings { permissions: Permissions::new().ask("pdf"), ..Settings::default() };
    /// let mut session = Session::new(Tools::new(set, ask));
    /// assert!(session.pending_approvals().next().is_none());
    /// let waiting = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert_eq!(waiting.approval, Some(Subject::load("pdf")));
    /// assert_eq!(session.pending_approvals().collect::<Vec<_>>(), [&Subject::load("pdf")]);
    /// ```
    pub fn pending_approvals(&self) -> impl Iterator<Item = &Subject> {
        self.state.pending.keys()
    }

    /// Answers a pending approval: `Once` and `Always` perform the waiting call (and `Always`
    /// is remembered for this session, for the skill's content as it is in this session's set:
    /// a session over a set where the skill changed asks again, see
    /// [`Grants`](crate::policy::Grants)), `Reject` refuses it. `None` when nothing waits for
    /// that subject.
    ///
    /// ```
    /// use skills_embed::policy::{Answer, Permissions, Subject};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let ask = Settings { permissions: Permissions::new().ask("pdf"), ..Settings::default() };
    /// let mut session = Session::new(Tools::new(set, ask));
    /// let _waiting = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let out = session.answer(&Subject::load("pdf"), Answer::Once).unwrap();
    /// assert!(out.text.contains("Use pdftotext."));
    /// assert!(session.answer(&Subject::load("pdf"), Answer::Once).is_none()); // nothing waits
    ///
    /// let _waiting = session.handle("load_skill", r#"{"skill":"pdf"}"#); // asked again: `Once`
    /// let out = session.answer(&Subject::load("pdf"), Answer::Reject).unwrap();
    /// assert_eq!(out.text, r#"The user declined loading skill "pdf". Do the task without it."#);
    /// ```
    #[must_use = "this is the load or run that waited for approval: give its `text` to the model"]
    pub fn answer(&mut self, subject: &Subject, answer: Answer) -> Option<ToolOutput> {
        let call = self.state.pending.remove(subject)?;
        if answer == Answer::Reject {
            self.tools.grants_mut().revoke(subject);
            return Some(ToolOutput {
                text: declined(subject),
                is_error: true,
                report: None,
                approval: None,
            });
        }
        // The skill as this session serves it now: the content the user was asked about.
        let set = Arc::clone(self.tools.snapshot());
        self.tools.lookup(call.skill()).ok()?;
        let found = set.get(call.skill()).ok()?;
        let grants = self.tools.grants_mut();
        grants.answer(subject, found, answer);
        Some(self.perform(&call, false))
    }

    /// Answers a call the user approved: looked up again (the set may have moved on while
    /// the user thought), then answered whatever its rule says.
    fn perform(&mut self, call: &Call, force: bool) -> ToolOutput {
        let answered = match self.tools.resolve(call) {
            Ok(resolved) => answer_allowed(&self.tools, &self.state, &resolved, call, force),
            Err(e) => return e.into(),
        };
        self.record(call, answered)
    }

    /// Records what an answered call changed: the skill used now, loaded the first time, its
    /// chunks, the tools it brings, a script's run.
    fn record(&mut self, call: &Call, answered: Answered) -> ToolOutput {
        let (name, out) = match answered {
            Answered::Again { skill, out } => {
                self.touch(&skill);
                return out;
            }
            Answered::Now { skill, out } => (skill, out),
        };
        if let Call::Run { script, .. } = call {
            self.state.events.push(Event::ScriptRan {
                skill: name,
                script: script.clone(),
                ok: !out.is_error,
            });
            return out;
        }
        if out.is_error {
            return out;
        }
        let before = self.active_tools_owned();
        let entry = touch(
            &mut self.state.active,
            &mut self.state.seq,
            self.state.turn,
            &name,
        );
        if let Call::Body { .. } = call {
            entry.content = Content::Tool;
        }
        match call {
            Call::Body { .. } if !entry.body_loaded => {
                entry.body_loaded = true;
                self.state.events.push(Event::Loaded { skill: name });
            }
            Call::Chunk { chunk, .. } if entry.chunks.insert(chunk.clone()) => {
                self.state.events.push(Event::ChunkLoaded {
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
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default())).unload_after(2);
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// session.next_turn();
    /// assert_eq!(session.active_skills().collect::<Vec<_>>(), ["pdf"]); // one turn idle
    /// session.next_turn();
    /// assert!(session.active_skills().next().is_none()); // two: unloaded
    /// ```
    pub fn next_turn(&mut self) {
        self.state.turn += 1;
        let Some(limit) = self.state.unload_after else {
            return;
        };
        let idle: Vec<String> = self
            .state
            .active
            .iter()
            .filter(|(_, a)| self.state.turn - a.last_used >= limit)
            .map(|(name, _)| name.clone())
            .collect();
        for name in idle {
            self.remove(&name, |skill| Event::Idle { skill });
        }
    }

    /// Unloads a skill now. Returns whether it was loaded.
    ///
    /// ```
    /// use skills_embed::tools::{Event, Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert!(session.unload("pdf"));
    /// assert!(!session.unload("pdf"));
    /// assert_eq!(session.drain_events().last(), Some(&Event::Unloaded { skill: "pdf".into() }));
    /// ```
    pub fn unload(&mut self, skill: &str) -> bool {
        self.remove(skill, |skill| Event::Unloaded { skill })
    }

    /// Unloads `skill`, with the event `unloaded` makes of its name.
    fn remove(&mut self, skill: &str, unloaded: fn(String) -> Event) -> bool {
        let before = self.active_tools_owned();
        if self.state.active.remove(skill).is_none() {
            return false;
        }
        self.state.events.push(unloaded(skill.to_owned()));
        self.push_tool_changes(&before);
        true
    }

    /// The loaded skills, sorted by name.
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, tools: &[&str]| Skill::owned(
    /// #     Fields {
    /// #         name: name.into(),
    /// #         description: "D.".into(),
    /// #         allowed_tools: tools.iter().map(|t| t.to_string()).collect(),
    /// #         ..Fields::default()
    /// #     },
    /// #     "Do it.\n".into(),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("pdf", &[]), skill("docx", &[])],
    ///     &ListingFormat::Markdown,
    /// );
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let _sent = session.handle("load_skill", r#"{"skill":"docx"}"#);
    /// assert_eq!(session.active_skills().collect::<Vec<_>>(), ["docx", "pdf"]);
    /// ```
    pub fn active_skills(&self) -> impl Iterator<Item = &str> {
        self.state.active.keys().map(String::as_str)
    }

    /// The union of the active skills' `allowed-tools`, each once, in the order first declared
    /// (skills in name order). A tool is here exactly while an active skill declares it.
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, tools: &[&str]| Skill::owned(
    /// #     Fields {
    /// #         name: name.into(),
    /// #         description: "D.".into(),
    /// #         allowed_tools: tools.iter().map(|t| t.to_string()).collect(),
    /// #         ..Fields::default()
    /// #     },
    /// #     "Do it.\n".into(),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("docx", &["Read", "Write"]), skill("pdf", &["Bash", "Read"])],
    ///     &ListingFormat::Markdown,
    /// );
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let _sent = session.handle("load_skill", r#"{"skill":"docx"}"#);
    /// assert_eq!(session.active_tools(), ["Read", "Write", "Bash"]);
    /// session.unload("docx");
    /// assert_eq!(session.active_tools(), ["Bash", "Read"]);
    /// ```
    pub fn active_tools(&self) -> Vec<&str> {
        let mut tools: Vec<&str> = Vec::new();
        for name in self.state.active.keys() {
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
                self.state.events.push(Event::ToolActivated(t.clone()));
            }
        }
        for t in before {
            if !after.contains(t) {
                self.state.events.push(Event::ToolDeactivated(t.clone()));
            }
        }
    }

    /// The events since the last call.
    ///
    /// ```
    /// use skills_embed::tools::{Event, Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str, tools: &[&str]| Skill::owned(
    /// #     Fields {
    /// #         name: name.into(),
    /// #         description: "D.".into(),
    /// #         allowed_tools: tools.iter().map(|t| t.to_string()).collect(),
    /// #         ..Fields::default()
    /// #     },
    /// #     "Do it.\n".into(),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(vec![skill("pdf", &["Bash"])], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// assert_eq!(
    ///     session.drain_events(),
    ///     [Event::Loaded { skill: "pdf".into() }, Event::ToolActivated("Bash".into())]
    /// );
    /// assert!(session.drain_events().is_empty()); // drained
    /// ```
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.state.events)
    }

    /// The system-prompt text for a disclosure mode, given the user's latest input (used by
    /// the eager matcher).
    ///
    /// - `Progressive`: a short note on how to use skills, the listing of visible skills, and
    ///   the carried chunks.
    /// - `Eager`: the bodies of the skills the keyword matcher picks from `user_input` (those
    ///   skills count as loaded), and nothing about the others.
    /// - `Hybrid`: the named skills' bodies, then the progressive text for the rest.
    ///
    /// ```
    /// use skills_embed::tools::{Disclosure, Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let listed = session.system_prompt(&Disclosure::Progressive, "");
    /// assert!(listed.contains("pdf: Read PDFs.") && !listed.contains("Use pdftotext."));
    /// assert!(session.active_skills().next().is_none());
    ///
    /// let hybrid = Disclosure::Hybrid { eager: vec!["pdf".into()] };
    /// let injected = session.system_prompt(&hybrid, "");
    /// assert!(injected.starts_with("<skill name=\"pdf\">\nUse pdftotext.\n</skill>\n"));
    /// assert_eq!(session.active_skills().collect::<Vec<_>>(), ["pdf"]); // counts as loaded
    /// ```
    #[must_use = "eager bodies in it now count as loaded: put the text in the system prompt"]
    pub fn system_prompt(&mut self, disclosure: &Disclosure, user_input: &str) -> String {
        prompt::system_prompt(self, disclosure, user_input)
    }

    /// What the model had loaded, for the host to insert again after it compacts (summarises)
    /// the conversation, as Claude Code does: each skill's current content, most recently loaded
    /// or invoked first, within `per_skill` tokens per skill and `total` in all
    /// ([`Session::REATTACH_PER_SKILL`] and [`Session::REATTACH_TOTAL`], Claude Code's, unless
    /// you have reasons), tokens counted by `counter` (the listing's estimate when `None`, as for
    /// [`ListingOptions::counter`](crate::listing::ListingOptions::counter)). The skills left out are
    /// unloaded ([`Event::Compacted`], with their tools), so that loading one again sends
    /// its body instead of saying it is already loaded.
    ///
    /// - **Which skills**: those whose body the model received in the conversation, by the load
    ///   tool or a user invocation ([`Session::invoke`]), and that are still loaded. A skill
    ///   unloaded (idle, by the host, by an earlier compaction) is not re-attached: the session
    ///   no longer counts it as loaded, so the model can load it again. Skills the model only
    ///   read files or chunks of are not re-attached (the system prompt carries loaded
    ///   chunks), nor are those [`Session::system_prompt`] put in the system prompt, which
    ///   compaction does not touch.
    /// - **What content**: the skill as it is in the session's set now (after a reload, see
    ///   [`Session::over`]), not a copy of what was sent: the body as the load tool serves it
    ///   (without its chunk blocks), or, for a skill the user invoked last, that body with the
    ///   invocation's arguments filled in (as [`invoke::render`] fills them; where filled in it
    ///   would be over [`MAX_RENDERED_BYTES`](invoke::MAX_RENDERED_BYTES), it is cut as if over
    ///   the budget, never built whole).
    /// - **Order and budget**: most recent first. Each skill gets at most
    ///   `per_skill` tokens, and no more than what is left of `total`.
    ///   Tokens are counted by `counter` on each skill's whole block as inserted
    ///   (its `<skill>` block), and the sum of the blocks and the heading line stays
    ///   within the total.
    /// - **Cuts**: a skill over its share keeps its beginning, cut after a whole line, at the
    ///   start of a section when one starts in the last quarter of what fits, and never inside
    ///   a fenced code block when a line outside it keeps half; when whole lines would keep
    ///   nothing but headings and blank lines, the cut falls inside the next line, after a
    ///   word. The cut ends with the call that loads the rest, worded as the load tool words
    ///   its own cuts (the offset is where the tool's answer continues); for a skill only the
    ///   user may invoke, it says the user can invoke it again.
    /// - **Left out**: a skill of which nothing fits beside its frame and that line is named
    ///   in a closing line, never dropped silently ([`Reattached::omitted`]).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// let skill = |name: &str, body: &str| Skill::owned(
    ///     Fields { name: name.into(), description: "D.".into(), ..Fields::default() },
    ///     body.into(),
    ///     vec![],
    /// );
    /// let long = "# Deploy\nBuild first.\n".to_owned() + &"## Step\nRun the step.\n".repeat(50);
    /// let set = SkillSet::from_skills(
    ///     vec![skill("deploy", &long), skill("pdf", "Use pdftotext.\n")],
    ///     &ListingFormat::Markdown,
    /// );
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"deploy"}"#);
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    ///
    /// let back = session.compact(100, Session::REATTACH_TOTAL, None);
    /// assert_eq!(back.skills().collect::<Vec<_>>(), ["pdf", "deploy"]);
    /// let text = back.to_string();
    /// assert!(text.contains("<skill name=\"pdf\">\nUse pdftotext.\n</skill>\n"));
    /// let deploy = &text[text.find("<skill name=\"deploy\">").unwrap()..];
    /// assert!(deploy.starts_with("<skill name=\"deploy\">\n# Deploy\nBuild first.\n## Step\n"));
    /// assert!(deploy.contains(r#"To continue, call load_skill with {"skill": "deploy", "path": "SKILL.md", "offset": "#));
    /// ```
    ///
    /// A budget too small for anything names the skill in the closing line and unloads it:
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// use skills_embed::tools::{Event, Session, Settings, Tools};
    /// let fields = Fields { name: "pdf".into(), description: "D.".into(), ..Fields::default() };
    /// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// session.drain_events();
    ///
    /// // A budget too small for anything: the closing line names the skill, and it is unloaded.
    /// let back = session.compact(5, 5, None);
    /// assert_eq!(back.omitted, ["pdf"]);
    /// assert!(back.to_string().contains("Not re-attached"));
    /// assert_eq!(session.drain_events(), [Event::Compacted { skill: "pdf".into() }]);
    /// assert!(session.handle("load_skill", r#"{"skill":"pdf"}"#).text.contains("Use pdftotext."));
    /// ```
    #[must_use = "the skills are unloaded now: insert the re-attached text after the summary"]
    pub fn compact(
        &mut self,
        per_skill: usize,
        total: usize,
        counter: Option<fn(&str) -> usize>,
    ) -> Reattached {
        let out = reattach::reattach(self, per_skill, total, counter);
        for name in &out.omitted {
            self.remove(name, |skill| Event::Compacted { skill });
        }
        out
    }

    /// The same conversation over other tools, typically over the set a reload produced (an
    /// overlay's new snapshot): what was loaded stays loaded, with its recency, and
    /// [`Session::compact`] gives the new content. Skills the new set lacks, or its
    /// permissions deny, are unloaded ([`Event::Removed`], with their tools) and their
    /// pending approvals dropped. The grants carry over; each holds only while its skill is
    /// unchanged (see [`Grants`](crate::policy::Grants)).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// let set = |body: &str| {
    ///     let fields = Fields { name: "pdf".into(), description: "D.".into(), ..Fields::default() };
    ///     SkillSet::from_skills(vec![Skill::owned(fields, body.into(), vec![])], &ListingFormat::Markdown)
    /// };
    /// let before = set("Use pdftotext.\n");
    /// let mut session = Session::new(Tools::new(before, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    ///
    /// let after = set("Use pdftotext -layout.\n");
    /// let mut session = session.over(Tools::new(after, Settings::default()));
    /// assert_eq!(session.active_skills().collect::<Vec<_>>(), ["pdf"]);
    /// assert!(session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None).to_string().contains("pdftotext -layout"));
    /// ```
    pub fn over(mut self, tools: Tools) -> Session {
        let before = self.active_tools_owned();
        // The conversation's answers carry over, whatever the new tools held.
        let grants = std::mem::take(self.tools.grants_mut());
        let mut next = Session {
            tools: tools.with_grants(grants),
            state: self.state,
        };
        let gone: Vec<String> = next
            .state
            .active
            .keys()
            .filter(|name| !next.serves(name))
            .cloned()
            .collect();
        for name in gone {
            next.state.active.remove(&name);
            next.state.events.push(Event::Removed { skill: name });
        }
        let pending: Vec<Subject> = next
            .state
            .pending
            .iter()
            .filter(|(_, call)| !next.serves(call.skill()))
            .map(|(subject, _)| subject.clone())
            .collect();
        for subject in pending {
            next.state.pending.remove(&subject);
        }
        next.push_tool_changes(&before);
        next
    }

    /// Whether the set has a skill of this name that the permissions do not deny.
    fn serves(&self, name: &str) -> bool {
        self.tools
            .set()
            .get(name)
            .is_ok_and(|s| self.tools.access(s) != Access::Deny)
    }
}

/// A call the rules allowed, answered, before the session records it.
enum Answered {
    /// Answered now.
    Now { skill: String, out: ToolOutput },
    /// A body already loaded, not sent again.
    Again { skill: String, out: ToolOutput },
}

/// The answer to a call the rules allowed (or the user approved), given what `state` has
/// loaded: a body already loaded is not sent again unless `force`.
fn answer_allowed(
    tools: &Tools,
    state: &State,
    resolved: &Resolved<'_>,
    call: &Call,
    force: bool,
) -> Answered {
    let skill = resolved.skill.name().to_owned();
    let again = matches!(
        call,
        Call::Body {
            section: None,
            offset: 0,
            ..
        }
    ) && !force
        && state.active.get(&skill).is_some_and(|a| a.body_loaded);
    if again {
        let out = ToolOutput {
            text: format!(
                "Skill {} is already loaded: its instructions are earlier in this \
                 conversation. Follow them, or load one of its files with `path`.",
                crate::text::json_string(&skill)
            ),
            is_error: false,
            report: None,
            approval: None,
        };
        return Answered::Again { skill, out };
    }
    let out = tools.answer(resolved, call);
    Answered::Now { skill, out }
}

/// Marks `name` as used in `turn` and returns its entry, creating it. A free function so that
/// callers can push events while they hold the entry.
fn touch<'a>(
    active: &'a mut BTreeMap<String, Active>,
    clock: &mut u64,
    turn: u64,
    name: &str,
) -> &'a mut Active {
    *clock += 1;
    let entry = active.entry(name.to_owned()).or_default();
    entry.last_used = turn;
    entry.last_seq = *clock;
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::ListingFormat;
    use crate::policy::Permissions;
    use crate::tools::ToolStyle;
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

    /// The last line of a cut answer before `</skill>` or the end, with its numbers as `#`.
    fn cut_line(text: &str) -> String {
        let line = text
            .lines()
            .rfind(|l| l.starts_with("[Cut at byte "))
            .unwrap_or_default();
        line.chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect()
    }

    #[test]
    fn a_cut_is_worded_as_the_load_tool_words_its_own() {
        use crate::tools::Settings;
        let body = "# T\n".to_owned() + &"A line of the body.\n".repeat(100);
        for style in [ToolStyle::Unified, ToolStyle::Split] {
            let set =
                SkillSet::from_skills(vec![skill("t", "", &[], &body)], &ListingFormat::Markdown);
            let config = Settings {
                style,
                max_body_chars: 200,
                ..Settings::default()
            };
            let tools = Tools::new(set, config);
            let call = match style {
                ToolStyle::Unified => ("load_skill", r#"{"skill":"t"}"#),
                ToolStyle::Split => ("read_skill", r#"{"skill":"t"}"#),
            };
            let served = tools.handle(call.0, call.1).text;
            let mut session = Session::new(tools);
            let _ = session.handle(call.0, call.1);
            let back = session.compact(100, Session::REATTACH_TOTAL, None);
            let ours = cut_line(&reattach::blocks(&back)[0].text);
            assert!(ours.contains("To continue"), "{ours}");
            assert_eq!(ours, cut_line(&served));
        }
    }

    #[test]
    fn a_skill_only_the_user_may_invoke_is_reattached_without_a_load_call() {
        use crate::model::invocation::InvocationFields;
        let body = "Deploy $0.\n".to_owned() + &"A line of the steps.\n".repeat(100);
        let fields = Fields {
            name: "deploy".into(),
            description: "D.".into(),
            invocation: InvocationFields {
                model_may_invoke: false,
                ..InvocationFields::default()
            },
            ..Fields::default()
        };
        let set = SkillSet::from_skills(
            vec![Skill::owned(fields, body, vec![])],
            &ListingFormat::Markdown,
        );
        let mut session = Session::new(Tools::new(set, crate::tools::Settings::default()));
        let (invoked, unknown) = session.invoke("/deploy prod", |_| None).unwrap();
        assert!(unknown.is_empty());
        assert!(invoked[0].1.starts_with("Deploy prod.\n"));
        let back = session.compact(100, Session::REATTACH_TOTAL, None);
        let deploy = &reattach::blocks(&back)[0];
        assert!(deploy.cut && deploy.invoked);
        assert!(
            deploy
                .text
                .starts_with("<skill name=\"deploy\">\nDeploy prod.\n")
        );
        assert!(deploy.text.contains(
            "The rest is left out: the user can invoke /deploy again for the whole skill.]"
        ));
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
        let settings = crate::tools::Settings {
            permissions: rules,
            ..crate::tools::Settings::default()
        };
        let mut session = Session::new(Tools::new(set, settings));
        let (invoked, unknown) = session
            .invoke("/pdf a.pdf", |s| Some(format!("/x/{}", s.name())))
            .unwrap();
        assert_eq!(invoked[0].1, "Fill a.pdf in /x/pdf.\n");
        // Not loaded before: the events below have a `Loaded`.
        assert!(unknown.is_empty());
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
        let (invoked, _) = session.invoke("/pdf b.pdf", |_| None).unwrap();
        assert_eq!(invoked[0].1, "Fill b.pdf in ${SKILL_DIR}.\n");
        // Already loaded: the events below have no second `Loaded`.
        assert_eq!(
            session.drain_events(),
            [Event::Invoked {
                skill: "pdf".into()
            }]
        );
        // `ask` skills are the user's call; denied and non-invocable ones are unknown.
        let (invoked, unknown) = session
            .invoke("$deploy /secret /internal", |_| None)
            .unwrap();
        assert_eq!(invoked.len(), 1);
        assert_eq!(invoked[0].1, "Deploy.\n");
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
