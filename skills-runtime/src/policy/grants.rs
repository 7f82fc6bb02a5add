//! What a person answered when asked, bound to the content they approved.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::permission::{Access, Permissions, Quoted};
use crate::model::file::hex;
use crate::model::skill::Skill;

/// A person's answer when asked whether a skill may be loaded.
///
/// Serialised in lowercase: `"once"`, `"always"`, `"reject"`.
///
/// ```
/// use skills_embed_runtime::policy::Answer;
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
/// [`Answer::Always`] replaces it, [`Answer::Reject`] and [`Grants::revoke`] remove it, and it
/// applies again if the skill comes back to the content that was approved.
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
/// use skills_embed_runtime::policy::{Access, Answer, Grants, Permissions};
/// use skills_embed_runtime::{Fields, Skill};
///
/// let deploy = |body: &str| {
///     let fields = Fields { name: "deploy-prod".into(), description: "Deploy.".into(), ..Fields::default() };
///     Skill::owned(fields, body.into(), Vec::new())
/// };
/// let permissions = Permissions::new().ask("deploy-*");
/// let mut grants = Grants::default();
/// let approved = deploy("Run make deploy.\n");
/// assert_eq!(grants.access(&permissions, &approved), Access::Ask);
/// // The host asks the person, who answers "always":
/// assert!(grants.answer(&approved, Answer::Always));
/// assert_eq!(grants.access(&permissions, &approved), Access::Allow);
/// // The same skill read again is still allowed; a changed one is asked for again.
/// assert_eq!(grants.access(&permissions, &deploy("Run make deploy.\n")), Access::Allow);
/// assert_eq!(grants.access(&permissions, &deploy("Run make deploy; rm -rf backups.\n")), Access::Ask);
///
/// // Grants serialise, and old name-only grants count for nothing.
/// let json = serde_json::to_string(&grants)?;
/// assert_eq!(serde_json::from_str::<Grants>(&json)?, grants);
/// assert!(serde_json::from_str::<Grants>(r#"["deploy-prod"]"#)?.is_empty());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants {
    // A `BTreeMap` so that `Debug` and serialised output are stable.
    always: BTreeMap<String, [u8; 32]>,
}

impl Grants {
    /// What `skill` gets under `permissions`, once earlier "always" answers are counted: a
    /// grant turns [`Access::Ask`] into [`Access::Allow`] when it was given for this skill's
    /// current content.
    ///
    /// The digest is computed only for a skill under `ask` that has a grant, so checking every
    /// skill of a listing stays cheap.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Access, Answer, Grants, Permissions};
    /// use skills_embed_runtime::{Fields, Skill};
    ///
    /// let fields = Fields { name: "shell".into(), description: "Run commands.".into(), ..Fields::default() };
    /// let shell = Skill::owned(fields, "Use bash.\n".into(), Vec::new());
    /// let mut grants = Grants::default();
    /// grants.answer(&shell, Answer::Always);
    /// assert_eq!(grants.access(&Permissions::new().ask("shell"), &shell), Access::Allow);
    /// assert_eq!(grants.access(&Permissions::new().deny("shell"), &shell), Access::Deny);
    /// ```
    pub fn access(&self, permissions: &Permissions, skill: &Skill) -> Access {
        match permissions.check(skill.name()) {
            Access::Ask if self.is_granted(skill) => Access::Allow,
            access => access,
        }
    }

    /// Records the person's answer for `skill`; returns whether this load may go ahead.
    ///
    /// [`Answer::Always`] is remembered for the skill's current content (replacing a grant
    /// for earlier content). [`Answer::Reject`] forgets an earlier "always" for the skill's
    /// name: when a person refuses, the safe reading is that they changed their mind.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Answer, Grants};
    /// use skills_embed_runtime::{Fields, Skill};
    ///
    /// let fields = Fields { name: "shell".into(), description: "Run commands.".into(), ..Fields::default() };
    /// let shell = Skill::owned(fields, "Use bash.\n".into(), Vec::new());
    /// let mut grants = Grants::default();
    /// assert!(grants.answer(&shell, Answer::Once));
    /// assert!(!grants.is_granted(&shell));
    /// assert!(grants.answer(&shell, Answer::Always));
    /// assert!(grants.is_granted(&shell));
    /// assert!(!grants.answer(&shell, Answer::Reject));
    /// assert!(!grants.is_granted(&shell));
    /// ```
    pub fn answer(&mut self, skill: &Skill, answer: Answer) -> bool {
        self.answer_as(skill.name(), skill, answer)
    }

    /// Whether "always" was answered for `skill` as it is now (its name and its current
    /// content). Computes the digest only when the name has a grant.
    ///
    /// ```
    /// use skills_embed_runtime::policy::Grants;
    /// use skills_embed_runtime::{Fields, Skill};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// assert!(!Grants::default().is_granted(&Skill::owned(fields, String::new(), Vec::new())));
    /// ```
    pub fn is_granted(&self, skill: &Skill) -> bool {
        self.is_granted_as(skill.name(), skill)
    }

    /// The content digest that "always" was answered for under the skill name `skill`, if
    /// any, whether or not the skill still has that content.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Answer, Grants};
    /// use skills_embed_runtime::{Fields, Skill};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// let pdf = Skill::owned(fields, String::new(), Vec::new());
    /// let mut grants = Grants::default();
    /// assert_eq!(grants.granted_digest("pdf"), None);
    /// grants.answer(&pdf, Answer::Always);
    /// assert_eq!(grants.granted_digest("pdf"), Some(pdf.content_digest()));
    /// ```
    pub fn granted_digest(&self, skill: &str) -> Option<[u8; 32]> {
        self.always.get(skill).copied()
    }

    /// Forgets an "always" answer for the skill name `skill`; returns whether there was one.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Answer, Grants};
    /// use skills_embed_runtime::{Fields, Skill};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// let mut grants = Grants::default();
    /// grants.answer(&Skill::owned(fields, String::new(), Vec::new()), Answer::Always);
    /// assert!(grants.revoke("pdf"));
    /// assert!(!grants.revoke("pdf"));
    /// ```
    pub fn revoke(&mut self, skill: &str) -> bool {
        self.always.remove(skill).is_some()
    }

    /// What running the Rust script `script` of `skill` gets under `permissions`
    /// ([`Permissions::check_script`]), once earlier "always" answers for that script are
    /// counted. A grant for the script is bound to its skill's content, like a skill's; a grant
    /// for loading the skill does not cover its scripts.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Access, Answer, Grants, Permissions};
    /// use skills_embed_runtime::{Fields, Skill};
    /// let fields = Fields { name: "pdf-forms".into(), description: "Forms.".into(), ..Fields::default() };
    /// let forms = Skill::owned(fields, "Fill it.\n".into(), Vec::new());
    /// let rules = Permissions::new().ask("pdf-forms/*");
    /// let mut grants = Grants::default();
    /// assert_eq!(grants.access_script(&rules, &forms, "fill_form"), Access::Ask);
    /// grants.answer_script(&forms, "fill_form", Answer::Always);
    /// assert_eq!(grants.access_script(&rules, &forms, "fill_form"), Access::Allow);
    /// assert_eq!(grants.access_script(&rules, &forms, "flatten"), Access::Ask);
    /// ```
    pub fn access_script(&self, permissions: &Permissions, skill: &Skill, script: &str) -> Access {
        match permissions.check_script(skill.name(), script) {
            Access::Ask if self.is_granted_as(&script_subject(skill.name(), script), skill) => {
                Access::Allow
            }
            access => access,
        }
    }

    /// Records the person's answer for running the script `script` of `skill`, as
    /// [`Grants::answer`] does for loads; returns whether this run may go ahead.
    pub fn answer_script(&mut self, skill: &Skill, script: &str, answer: Answer) -> bool {
        self.answer_as(&script_subject(skill.name(), script), skill, answer)
    }

    /// Records `answer` under `subject` (a skill's name, or `skill/script`) for `skill`'s
    /// current content.
    fn answer_as(&mut self, subject: &str, skill: &Skill, answer: Answer) -> bool {
        match answer {
            Answer::Once => true,
            Answer::Always => {
                let digest = skill.content_digest();
                match self.always.get_mut(subject) {
                    Some(granted) => *granted = digest,
                    None => {
                        self.always.insert(subject.to_owned(), digest);
                    }
                }
                true
            }
            Answer::Reject => {
                self.always.remove(subject);
                false
            }
        }
    }

    fn is_granted_as(&self, subject: &str, skill: &Skill) -> bool {
        self.always
            .get(subject)
            .is_some_and(|granted| *granted == skill.content_digest())
    }

    /// Whether no "always" answer is kept.
    ///
    /// ```
    /// assert!(skills_embed_runtime::policy::Grants::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.always.is_empty()
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
                            Quoted(&name)
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

/// The key of a script's grant: `skill/script` (no skill name holds a `/`).
fn script_subject(skill: &str, script: &str) -> String {
    format!("{skill}/{script}")
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
