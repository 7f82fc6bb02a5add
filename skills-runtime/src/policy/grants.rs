//! What a person answered when asked, bound to the content they approved.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::permission::{Access, Permissions, quoted};
use super::subject::Subject;
use crate::model::file::hex;
use crate::model::skill::Skill;

/// A person's answer when asked whether a skill may be loaded.
///
/// Serialised in lowercase: `"once"`, `"always"`, `"reject"`.
///
/// ```
/// use skills_embed::policy::Answer;
/// assert_eq!(serde_json::from_str::<Answer>(r#""always""#).unwrap(), Answer::Always);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// Load it this time; ask again next time.
    Once,
    /// Load it, and do not ask again for this skill while its content stays as it is now
    /// (see [`Grants`]).
    Always,
    /// Do not load it this time.
    Reject,
}

/// The skills a person answered [`Answer::Always`] for, each bound to the skill as it was
/// when approved, so they are not asked again while it stays that way.
///
/// A grant records the skill's name and its [`Skill::content_digest`], which covers every field
/// and every file. It turns [`Access::Ask`] into [`Access::Allow`] only for a skill with that name
/// **and** that digest: when a reload changes the skill (its body, a script, its description,
/// any file), the next load asks again, since the person approved what they saw, not whatever
/// later lands under the name. The stale grant is kept but does not apply; a new
/// [`Answer::Always`] replaces it, [`Answer::Reject`] removes it, and it applies again if the
/// skill comes back to the content that was approved.
///
/// A grant never overrides [`Access::Deny`], so tightening the rules takes effect even for
/// skills granted earlier. Keep one per conversation, or per agent and person, as suits the
/// host.
///
/// # Serialised form
///
/// A JSON object from skill name (or `skill/script` for a Rust script) to the approved digest
/// in 64 lowercase hex digits (`{"deploy": "9f86d0…"}`), to remember answers across runs; uppercase digits are accepted.
/// The older form, an array of names, is accepted and read as **no** grants: those answers
/// carry no digest, so they cannot say which content was approved, and every such skill is
/// asked for again once. Anything else (a digest of the wrong length, a value that is not a
/// string) is an error.
///
/// ```
/// use skills_embed::policy::{Access, Answer, Grants, Permissions, Subject};
/// use skills_embed::{Fields, Skill};
///
/// let deploy = |body: &str| {
///     let fields = Fields { name: "deploy-prod".into(), description: "Deploy.".into(), ..Fields::default() };
///     Skill::owned(fields, body.into(), Vec::new())
/// };
/// let permissions = Permissions::new().ask("deploy-*");
/// let subject = Subject::load("deploy-prod");
/// let mut grants = Grants::default();
/// let approved = deploy("Run make deploy.\n");
/// assert_eq!(grants.access(&permissions, &subject, &approved), Access::Ask);
/// // The host asks the person, who answers "always":
/// assert!(grants.answer(&subject, &approved, Answer::Always));
/// assert_eq!(grants.access(&permissions, &subject, &approved), Access::Allow);
/// // The same skill read again is still allowed; a changed one is asked for again.
/// assert_eq!(grants.access(&permissions, &subject, &deploy("Run make deploy.\n")), Access::Allow);
/// let changed = deploy("Run make deploy; rm -rf backups.\n");
/// assert_eq!(grants.access(&permissions, &subject, &changed), Access::Ask);
///
/// // Grants serialise, and old name-only grants count for nothing.
/// let json = serde_json::to_string(&grants)?;
/// assert_eq!(serde_json::from_str::<Grants>(&json)?, grants);
/// assert_eq!(serde_json::from_str::<Grants>(r#"["deploy-prod"]"#)?, Grants::default());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants {
    // A `BTreeMap` so that `Debug` and serialised output are stable.
    always: BTreeMap<String, [u8; 32]>,
}

impl Grants {
    /// What `subject` (a load of `skill`, or a run of one of its scripts) gets under
    /// `permissions` ([`Permissions::check`]), once earlier "always" answers are counted: a
    /// grant turns [`Access::Ask`] into [`Access::Allow`] when it was given for this subject and
    /// this skill's current content. A grant for loading a skill does not cover its scripts.
    ///
    /// The rules and the grant are looked up for `subject`; `skill` is the skill it names, as it
    /// is now, whose content the grant must match. Its digest is computed only for a subject
    /// under `ask` that has a grant, so checking every skill of a listing stays cheap.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Answer, Grants, Permissions, Subject};
    /// use skills_embed::{Fields, Skill};
    ///
    /// let fields = Fields { name: "pdf-forms".into(), description: "Forms.".into(), ..Fields::default() };
    /// let forms = Skill::owned(fields, "Fill it.\n".into(), Vec::new());
    /// let (load, fill) = (Subject::load("pdf-forms"), Subject::run("pdf-forms", "fill_form"));
    /// let mut grants = Grants::default();
    /// grants.answer(&load, &forms, Answer::Always);
    /// grants.answer(&fill, &forms, Answer::Always);
    /// assert_eq!(grants.access(&Permissions::new().ask("*"), &load, &forms), Access::Allow);
    /// assert_eq!(grants.access(&Permissions::new().deny("*"), &load, &forms), Access::Deny);
    /// let scripts = Permissions::new().ask("pdf-forms/*");
    /// assert_eq!(grants.access(&scripts, &fill, &forms), Access::Allow);
    /// assert_eq!(grants.access(&scripts, &Subject::run("pdf-forms", "flatten"), &forms), Access::Ask);
    /// ```
    pub fn access(&self, permissions: &Permissions, subject: &Subject, skill: &Skill) -> Access {
        self.decide(
            permissions,
            &subject.skill,
            subject.script.as_deref(),
            skill,
        )
    }

    /// [`access`](Self::access) without building a [`Subject`] (it runs for every skill and
    /// script of a listing): the load of `skill`, or a run of its script `script`.
    pub(crate) fn access_of(
        &self,
        permissions: &Permissions,
        skill: &Skill,
        script: Option<&str>,
    ) -> Access {
        self.decide(permissions, skill.name(), script, skill)
    }

    /// What the load of the skill `name` (or a run of its script `script`) gets, a grant
    /// counted when it was given for `skill`'s current content.
    fn decide(
        &self,
        permissions: &Permissions,
        name: &str,
        script: Option<&str>,
        skill: &Skill,
    ) -> Access {
        match permissions.access(name, script) {
            Access::Ask if self.is_granted(name, script, skill) => Access::Allow,
            access => access,
        }
    }

    /// Records the person's answer for `subject`, asked about `skill` as it is now; returns
    /// whether this load or run may go ahead.
    ///
    /// [`Answer::Always`] is remembered for the skill's current content (replacing a grant
    /// for earlier content). [`Answer::Reject`] forgets an earlier "always" for the subject:
    /// when a person refuses, the safe reading is that they changed their mind.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Answer, Grants, Permissions, Subject};
    /// use skills_embed::{Fields, Skill};
    ///
    /// let fields = Fields { name: "shell".into(), description: "Run commands.".into(), ..Fields::default() };
    /// let shell = Skill::owned(fields, "Use bash.\n".into(), Vec::new());
    /// let (ask, subject) = (Permissions::new().ask("shell"), Subject::load("shell"));
    /// let mut grants = Grants::default();
    /// assert!(grants.answer(&subject, &shell, Answer::Once));
    /// assert_eq!(grants.access(&ask, &subject, &shell), Access::Ask);
    /// assert!(grants.answer(&subject, &shell, Answer::Always));
    /// assert_eq!(grants.access(&ask, &subject, &shell), Access::Allow);
    /// assert!(!grants.answer(&subject, &shell, Answer::Reject));
    /// assert_eq!(grants.access(&ask, &subject, &shell), Access::Ask);
    /// ```
    pub fn answer(&mut self, subject: &Subject, skill: &Skill, answer: Answer) -> bool {
        let key = subject.to_string();
        match answer {
            Answer::Once => true,
            Answer::Always => {
                self.always.insert(key, skill.content_digest());
                true
            }
            Answer::Reject => {
                self.always.remove(&key);
                false
            }
        }
    }

    /// Forgets an "always" answer for `subject` (declined where the skill as shown is no
    /// longer at hand); returns whether there was one.
    pub(crate) fn revoke(&mut self, subject: &Subject) -> bool {
        self.always.remove(&subject.to_string()).is_some()
    }

    /// Whether "always" was answered for the load of the skill `name`, or a run of its script
    /// `script`, with `skill`'s current content. Computes the digest only when the subject has
    /// a grant.
    pub(super) fn is_granted(&self, name: &str, script: Option<&str>, skill: &Skill) -> bool {
        if self.always.is_empty() {
            return false;
        }
        let granted = match script {
            None => self.always.get(name),
            Some(script) => self.always.get(&format!("{name}/{script}")),
        };
        granted.is_some_and(|granted| *granted == skill.content_digest())
    }
}

impl Serialize for Grants {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.always.len()))?;
        for (name, digest) in &self.always {
            map.serialize_entry(name, &hex(digest))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Grants {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Grants;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object from skill name to content digest (64 hex digits)")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Grants, A::Error> {
                let mut always = BTreeMap::new();
                while let Some((name, digest)) = map.next_entry::<String, String>()? {
                    let Some(digest) = parse_digest(&digest) else {
                        return Err(serde::de::Error::custom(format_args!(
                            "the grant for skill {} is not a content digest (64 hex digits)",
                            quoted(&name)
                        )));
                    };
                    always.insert(name, digest);
                }
                Ok(Grants { always })
            }

            // The older form: names without digests. They cannot say what was approved, so
            // they grant nothing; the names must still be strings.
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Grants, A::Error> {
                while seq.next_element::<String>()?.is_some() {}
                Ok(Grants::default())
            }
        }

        deserializer.deserialize_any(Visitor)
    }
}

/// A digest written as 64 hex digits (either case).
fn parse_digest(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut digest = [0u8; 32];
    for (out, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
        let &[high, low] = pair else {
            return None;
        };
        let high = char::from(high).to_digit(16)?;
        let low = char::from(low).to_digit(16)?;
        *out = u8::try_from(high * 16 + low).ok()?;
    }
    Some(digest)
}
