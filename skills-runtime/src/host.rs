//! What every host (the MCP server, the rig tools) shares, written once: the settings they are
//! given ([`Settings`]) held for every request, tools over a snapshot ([`Host::tools`]), and how
//! a [`Subject`] under `ask` gets the user's answer ([`Host::approve`]), recorded in the host's
//! grants.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::model::skill::Skill;
use crate::policy::{Answer, Grants, Subject};
use crate::tools::render::{cannot_ask, declined};
use crate::tools::{Settings, Snapshot, Tools};

/// Why a host does not go ahead with a call under `ask`: the refusal for the model, worded
/// the same for every host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    /// The host has no way to ask its user (no [`Settings::with_approval`]).
    #[error("{}", cannot_ask(.subject, .noun))]
    CannotAsk {
        /// What needed the user's approval.
        subject: Subject,
        /// What the host is called: `server`, `agent`.
        noun: &'static str,
    },
    /// The user declined.
    #[error("{}", declined(.0))]
    Declined(Subject),
}

/// A host's settings and the answers its user gave.
#[derive(Debug, Clone)]
pub(crate) struct Host {
    /// Shared with every `Tools` built per request.
    pub(crate) settings: Arc<Settings>,
    /// The "always" answers, shared by the clones of a host value (a rig tool and its copies,
    /// an MCP connection and its session), each for the content approved.
    grants: Arc<Mutex<Grants>>,
    /// What the host is called in its refusals: `server`, `agent`.
    noun: &'static str,
}

impl Host {
    /// `settings`, no answers yet; `noun` names the host in refusals.
    pub(crate) fn new(settings: Settings, noun: &'static str) -> Self {
        Host {
            settings: Arc::new(settings),
            grants: Arc::new(Mutex::new(Grants::default())),
            noun,
        }
    }

    /// The same host keeping its "always" answers in `grants`, a value shared with others (an
    /// MCP server's sessions of one caller).
    #[cfg(feature = "mcp")]
    pub(crate) fn with_grants(mut self, grants: Arc<Mutex<Grants>>) -> Self {
        self.grants = grants;
        self
    }

    /// Tools over `set` with these settings and the answers given so far (a copy: answers given
    /// later are recorded here, not in tools already built).
    pub(crate) fn tools(&self, set: &Snapshot) -> Tools {
        Tools::shared(Arc::clone(set), Arc::clone(&self.settings)).with_grants(self.grants())
    }

    /// The "always" answers given so far.
    pub(crate) fn grants(&self) -> Grants {
        lock(&self.grants).clone()
    }

    /// The user's answer about `subject`, or the refusal for the model when this host has no
    /// way to ask.
    pub(crate) async fn ask(&self, subject: &Subject) -> Result<Answer, Refusal> {
        match self.settings.approval() {
            Some(approve) => Ok(approve(subject.clone()).await),
            None => Err(Refusal::CannotAsk {
                subject: subject.clone(),
                noun: self.noun,
            }),
        }
    }

    /// Records `answer`, given for `subject` as `skill` was shown (the content the user was
    /// asked about): `Always` holds for that content, `Reject` forgets an earlier `Always`.
    /// Returns the refusal for the model when the user declined.
    pub(crate) fn record(
        &self,
        skill: &Skill,
        subject: &Subject,
        answer: Answer,
    ) -> Result<(), Refusal> {
        if answer != Answer::Once {
            let mut grants = lock(&self.grants);
            grants.answer(subject, skill, answer);
        }
        match answer {
            Answer::Reject => Err(Refusal::Declined(subject.clone())),
            Answer::Once | Answer::Always => Ok(()),
        }
    }

    /// Forgets an `Always` for `subject` (the user declined it where the skill as shown is no
    /// longer at hand).
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP declines by name")
    )]
    pub(crate) fn revoke(&self, subject: &Subject) {
        lock(&self.grants).revoke(subject);
    }

    /// Asks the user about `subject` of `skill` and records the answer: `Ok` when the call may
    /// go ahead, else the refusal for the model (nobody to ask, or the user declined).
    #[cfg_attr(
        not(feature = "rig"),
        allow(dead_code, reason = "MCP asks through its own flow")
    )]
    pub(crate) async fn approve(&self, skill: &Skill, subject: &Subject) -> Result<(), Refusal> {
        let answer = self.ask(subject).await?;
        self.record(skill, subject, answer)
    }
}

/// Locks `mutex`, even one a panic poisoned: every value the hosts keep behind a lock is whole
/// between statements, so a panic elsewhere leaves nothing half-written.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
