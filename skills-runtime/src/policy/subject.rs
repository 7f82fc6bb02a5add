//! [`Subject`]: what the user is asked to approve, a skill's load or a run of one of its scripts.

use std::fmt;

/// What waits for the user's approval: loading a skill, or running one of its scripts. Its
/// `Display` is the form permission rules and grants use: `skill`, or `skill/script`.
///
/// ```
/// use skills_embed::policy::Subject;
/// assert_eq!(Subject::load("deploy").to_string(), "deploy");
/// let run = Subject::run("calc", "add");
/// assert_eq!((run.skill.as_str(), run.script.as_deref()), ("calc", Some("add")));
/// assert_eq!(run.to_string(), "calc/add");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Subject {
    /// The skill.
    pub skill: String,
    /// The script to run, or `None` for loading the skill.
    pub script: Option<String>,
}

impl Subject {
    /// Loading `skill`.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// let permissions = Permissions::new().deny("internal-*");
    /// assert_eq!(permissions.check(&Subject::load("internal-billing")), Access::Deny);
    /// assert_eq!(permissions.check(&Subject::load("pdf")), Access::Allow);
    /// assert_eq!(Subject::load("pdf").to_string(), "pdf");
    /// ```
    pub fn load(skill: impl Into<String>) -> Self {
        Subject {
            skill: skill.into(),
            script: None,
        }
    }

    /// Running the script `script` of `skill`.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// // Script rules (`skill/script`) apply to runs only.
    /// let permissions = Permissions::new().ask("pdf-forms/fill_*");
    /// assert_eq!(permissions.check(&Subject::run("pdf-forms", "fill_form")), Access::Ask);
    /// assert_eq!(permissions.check(&Subject::load("pdf-forms")), Access::Allow);
    /// assert_eq!(Subject::run("pdf-forms", "fill_form").to_string(), "pdf-forms/fill_form");
    /// ```
    pub fn run(skill: impl Into<String>, script: impl Into<String>) -> Self {
        Subject {
            skill: skill.into(),
            script: Some(script.into()),
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.script {
            Some(script) => write!(f, "{}/{script}", self.skill),
            None => f.write_str(&self.skill),
        }
    }
}
