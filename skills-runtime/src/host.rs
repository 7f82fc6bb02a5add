//! What every host (the MCP server, the rig tools) shares, written once: where the served skills
//! come from ([`Source`]), how tools are built over a snapshot ([`Host::tools`]), and how a skill
//! under `ask` gets the user's answer ([`Host::approve`]), recorded in the host's grants.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::policy::{Answer, Grants, Permissions};
use crate::tools::render::{cannot_ask, declined};
use crate::tools::{ToolConfig, Tools};

/// One snapshot of the served skills.
pub(crate) type Snapshot = Arc<SkillSet<Dynamic>>;

/// Where served skills come from: one set for the server's life, or a function asked again on
/// every request (an overlay's snapshot, say).
#[derive(Clone)]
pub(crate) enum Source {
    Fixed(Snapshot),
    Live(Arc<dyn Fn() -> Snapshot + Send + Sync>),
}

impl Source {
    /// An embedded set, looked up by name: servers never need the generated ids.
    pub(crate) fn embedded<Id>(set: &'static SkillSet<Id>) -> Self {
        Source::Fixed(Arc::new(set.by_name()))
    }

    /// The set as it is now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        match self {
            Source::Fixed(set) => Arc::clone(set),
            Source::Live(f) => f(),
        }
    }

    /// Whether the set can change between requests.
    pub(crate) fn is_live(&self) -> bool {
        matches!(self, Source::Live(_))
    }
}

/// How a host asks the user whether a skill under `ask` may be loaded.
type Approver = Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = Answer> + Send>> + Send + Sync>;

/// A host's settings and the answers its user gave: the one place the builders of every host
/// (`with_config`, `with_permissions`, `with_approval`, `with_workdir`) write to.
#[derive(Clone)]
pub(crate) struct Host {
    /// Tool names, style, limits, output shape.
    pub(crate) config: Arc<ToolConfig>,
    /// The rules, as the user wrote them: grants are never folded into them.
    pub(crate) permissions: Arc<Permissions>,
    /// Where skills with scripts are written when loaded.
    #[cfg(feature = "fs")]
    pub(crate) workdir: Option<std::path::PathBuf>,
    approval: Option<Approver>,
    /// Who runs the skills' script files, when the host does.
    pub(crate) file_runner: Option<Arc<dyn crate::tools::FileRunner>>,
    /// The "always" answers, shared by the clones of a host value (a rig tool and its copies,
    /// an MCP connection and its session), each for the content approved.
    grants: Arc<Mutex<Grants>>,
    /// What the host is called in its refusals: `server`, `agent`.
    noun: &'static str,
}

impl fmt::Debug for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Host")
            .field("config", &self.config)
            .field("permissions", &self.permissions)
            .field("approval", &self.approval.is_some())
            .finish_non_exhaustive()
    }
}

impl Host {
    /// Default settings, no rules, no way to ask; `noun` names the host in refusals.
    pub(crate) fn new(noun: &'static str) -> Self {
        Host {
            config: Arc::default(),
            permissions: Arc::default(),
            #[cfg(feature = "fs")]
            workdir: None,
            approval: None,
            file_runner: None,
            grants: Arc::new(Mutex::new(Grants::default())),
            noun,
        }
    }

    /// Sets how the user is asked: `approve(skill)` is awaited for a skill under `ask`.
    pub(crate) fn set_approval<F, Fut>(&mut self, approve: F)
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.approval = Some(Arc::new(move |skill| Box::pin(approve(skill))));
    }

    /// Tools over `set` with these settings and the answers given so far (a copy: answers given
    /// later are recorded here, not in tools already built).
    pub(crate) fn tools<'s, Id>(&self, set: &'s SkillSet<Id>) -> Tools<'s, Id> {
        let tools = Tools::new(set)
            .with_settings(&self.config, &self.permissions)
            .with_grants(self.grants());
        #[cfg(feature = "fs")]
        let tools = match &self.workdir {
            Some(dir) => tools.with_workdir(dir.clone()),
            None => tools,
        };
        match &self.file_runner {
            Some(runner) => tools.with_file_runner(Arc::clone(runner)),
            None => tools,
        }
    }

    /// The "always" answers given so far.
    pub(crate) fn grants(&self) -> Grants {
        lock(&self.grants).clone()
    }

    /// The user's answer about loading `skill`, or the refusal for the model when this host has
    /// no way to ask.
    pub(crate) async fn ask(&self, skill: &str) -> Result<Answer, String> {
        match &self.approval {
            Some(approve) => Ok(approve(skill.to_owned()).await),
            None => Err(cannot_ask(skill, self.noun)),
        }
    }

    /// Records `answer`, given for `subject` (`skill`'s name for a load, or `skill/script` for
    /// a run of one of its Rust scripts) as `skill` was shown (the content the user was asked
    /// about): `Always` holds for that content, `Reject` forgets an earlier `Always`. Returns
    /// the refusal for the model when the user declined.
    pub(crate) fn record_subject(
        &self,
        skill: &Skill,
        subject: &str,
        answer: Answer,
    ) -> Result<(), String> {
        if answer != Answer::Once {
            let mut grants = lock(&self.grants);
            match subject.split_once('/') {
                Some((_, script)) => grants.answer_script(skill, script, answer),
                None => grants.answer(skill, answer),
            };
        }
        match answer {
            Answer::Reject => Err(declined(subject)),
            Answer::Once | Answer::Always => Ok(()),
        }
    }

    /// Forgets an `Always` for the skill name `skill` (the user declined it where the skill as
    /// shown is no longer at hand).
    // Only MCP's session path declines by name.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn revoke(&self, skill: &str) {
        lock(&self.grants).revoke(skill);
    }

    /// Asks the user about loading `skill` and records the answer: `Ok` when the load may go
    /// ahead, else the refusal for the model (nobody to ask, or the user declined).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) async fn approve(&self, skill: &Skill) -> Result<(), String> {
        self.approve_subject(skill, skill.name()).await
    }

    /// Asks the user about `subject` (`skill`'s name, or `skill/script`) and records the answer,
    /// as [`Host::approve`] does.
    pub(crate) async fn approve_subject(&self, skill: &Skill, subject: &str) -> Result<(), String> {
        let answer = self.ask(subject).await?;
        self.record_subject(skill, subject, answer)
    }
}

/// Locks `mutex`, even one a panic poisoned: every value the hosts keep behind a lock is whole
/// between statements, so a panic elsewhere leaves nothing half-written.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
