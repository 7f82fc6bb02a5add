//! What happened in a session that the host may want to react to: one [`Event`] per change,
//! drained with [`Session::drain_events`](super::Session::drain_events).

use crate::policy::Subject;

/// Something the host may want to react to.
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
/// session.unload("pdf");
/// let events = session.drain_events();
/// assert_eq!(events[0], Event::Loaded { skill: "pdf".into() });
/// // One line each, for a log:
/// assert_eq!(events[1].to_string(), "unloaded pdf (unloaded by the host)");
/// ```
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
    /// The host unloaded a skill ([`Session::unload`](super::Session::unload)).
    Unloaded {
        /// The skill.
        skill: String,
    },
    /// A skill was unloaded after the configured number of turns without use
    /// ([`Session::unload_after`](super::Session::unload_after)).
    Idle {
        /// The skill.
        skill: String,
    },
    /// A skill was unloaded because it did not fit the re-attach budget when the host compacted
    /// the conversation ([`Session::compact`](super::Session::compact)).
    Compacted {
        /// The skill.
        skill: String,
    },
    /// A skill was unloaded because it is not in the set the session moved to
    /// ([`Session::over`](super::Session::over)), or is denied there.
    Removed {
        /// The skill.
        skill: String,
    },
    /// A tool declared in `allowed-tools` became active (a skill declaring it was loaded).
    ToolActivated(String),
    /// A tool is no longer declared by any active skill.
    ToolDeactivated(String),
    /// Loading a skill or running one of its scripts waits for the user: answer with
    /// [`Session::answer`](super::Session::answer).
    ApprovalRequested(Subject),
    /// The user invoked a skill in a message ([`Session::invoke`](super::Session::invoke)).
    Invoked {
        /// The skill.
        skill: String,
    },
    /// A Rust script ran.
    ScriptRan {
        /// The skill.
        skill: String,
        /// The script.
        script: String,
        /// Whether it gave output (`false`: bad arguments, its own error, a panic, a timeout).
        ok: bool,
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
            Event::Unloaded { skill } => {
                write!(f, "unloaded {} (unloaded by the host)", name(skill))
            }
            Event::Idle { skill } => write!(f, "unloaded {} (idle)", name(skill)),
            Event::Compacted { skill } => write!(
                f,
                "unloaded {} (left out when the conversation was compacted)",
                name(skill)
            ),
            Event::Removed { skill } => {
                write!(f, "unloaded {} (no longer in the skill set)", name(skill))
            }
            Event::ToolActivated(tool) => write!(f, "tool {tool} activated"),
            Event::ToolDeactivated(tool) => write!(f, "tool {tool} deactivated"),
            Event::ApprovalRequested(Subject {
                skill,
                script: None,
            }) => write!(f, "approval requested for {}", name(skill)),
            Event::ApprovalRequested(Subject {
                skill,
                script: Some(script),
            }) => write!(
                f,
                "approval requested for script {}/{}",
                name(skill),
                name(script)
            ),
            Event::Invoked { skill } => write!(f, "invoked {} by the user", name(skill)),
            Event::ScriptRan { skill, script, ok } => write!(
                f,
                "ran script {}/{}{}",
                name(skill),
                name(script),
                if *ok { "" } else { " (failed)" }
            ),
        }
    }
}
