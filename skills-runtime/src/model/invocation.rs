//! Who may invoke a skill: the model (from the listing and the load tool), the user (from the
//! menu, `/name`), and with which arguments.
//!
//! The policy is read once, when the skill is read (by `skills!` at compile time, by the scanner
//! at run time), from the client fields of its dialect (see `parse::Dialect`): Claude Code's
//! `disable-model-invocation`, `user-invocable`, `argument-hint` and `arguments`, Codex's
//! `agents/openai.yaml` `policy.allow_implicit_invocation`, OpenCode's `opencode/autoinvoke`
//! metadata. It is stored typed (two flag bits and two string spans in an embedded skill's
//! record), so asking for it parses nothing.
//!
//! One filter uses it for every surface the model reaches: [`Tools::visible`](crate::tools::Tools::visible).

/// The invocation policy of one skill, as [`Skill::invocation`](crate::Skill::invocation)
/// gives it, read without allocating (the owned form is [`InvocationFields`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct InvocationPolicy<'a> {
    flags: u8,
    hint: Option<&'a str>,
    arguments: Names<'a>,
}

/// `flags` bit: the model may not invoke the skill.
pub(crate) const MODEL_HIDDEN: u8 = 1;
/// `flags` bit: the user may not invoke the skill.
pub(crate) const USER_HIDDEN: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names<'a> {
    /// Names separated by single spaces (an embedded skill's string-table span).
    Joined(&'a str),
    /// Names as owned by a skill read at run time.
    List(&'a [String]),
}

impl<'a> InvocationPolicy<'a> {
    /// The policy of a skill with no client fields: anyone may invoke it, no arguments declared.
    pub(crate) const DEFAULT: InvocationPolicy<'static> = InvocationPolicy {
        flags: 0,
        hint: None,
        arguments: Names::Joined(""),
    };

    /// An embedded skill's policy: its flag bits, hint and space-joined argument names.
    pub(crate) fn embedded(flags: u8, hint: Option<&'a str>, arguments: &'a str) -> Self {
        InvocationPolicy {
            flags,
            hint,
            arguments: Names::Joined(arguments),
        }
    }

    /// A view of an owned policy.
    pub(crate) fn of(owned: &'a InvocationFields) -> Self {
        InvocationPolicy {
            flags: owned.flags(),
            hint: owned.argument_hint.as_deref(),
            arguments: Names::List(&owned.arguments),
        }
    }

    /// Whether the model may invoke the skill: see it in the listing and the tool's `skill`
    /// enum and load it. When not, every surface the model reaches answers as if the skill did
    /// not exist; the host still can ([`SkillSet::get`](crate::SkillSet::get)).
    pub(crate) fn model_may_invoke(&self) -> bool {
        self.flags & MODEL_HIDDEN == 0
    }

    /// Whether the user may invoke the skill (`/name`): it is in the user's menu
    /// ([`invoke::menu`](crate::invoke::menu)).
    pub(crate) fn user_may_invoke(&self) -> bool {
        self.flags & USER_HIDDEN == 0
    }

    /// What the user's menu shows after the name, e.g. `[file] [values]`.
    pub(crate) fn argument_hint(&self) -> Option<&'a str> {
        self.hint
    }

    /// The named arguments, in order: `$name` in the body is the argument at that position.
    pub(crate) fn arguments(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        let (joined, list) = match self.arguments {
            Names::Joined(text) => (text, &[][..]),
            Names::List(list) => ("", list),
        };
        joined
            .split(' ')
            .filter(|n| !n.is_empty())
            .chain(list.iter().map(String::as_str))
    }

    /// The two flag bits, as an embedded skill stores them.
    pub(crate) fn flags(&self) -> u8 {
        self.flags
    }

    /// The owned form.
    pub(crate) fn to_fields(self) -> InvocationFields {
        InvocationFields {
            model_may_invoke: self.model_may_invoke(),
            user_may_invoke: self.user_may_invoke(),
            argument_hint: self.hint.map(str::to_owned),
            arguments: self.arguments().map(str::to_owned).collect(),
        }
    }
}

/// Two policies are equal when they say the same, however they are stored.
impl PartialEq for InvocationPolicy<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.flags == other.flags
            && self.hint == other.hint
            && self.arguments().eq(other.arguments())
    }
}

impl Eq for InvocationPolicy<'_> {}

impl Default for InvocationPolicy<'_> {
    fn default() -> Self {
        InvocationPolicy::DEFAULT
    }
}

/// Who may invoke a skill and with which arguments: a field of [`Fields`](crate::Fields) for a
/// skill built at run time, and what [`Skill::invocation`](crate::Skill::invocation) gives for
/// any skill. The default lets anyone invoke the skill.
///
/// ```
/// use skills_embed::invoke::InvocationFields;
/// let policy = InvocationFields::default();
/// assert!(policy.model_may_invoke && policy.user_may_invoke);
/// assert!(policy.argument_hint.is_none() && policy.arguments.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InvocationFields {
    /// Whether the model may invoke the skill (Claude Code's `disable-model-invocation: true`,
    /// Codex's `allow_implicit_invocation: false` and OpenCode's `opencode/autoinvoke: "false"`
    /// make it `false`).
    pub model_may_invoke: bool,
    /// Whether the user may invoke the skill (Claude Code's `user-invocable: false` makes it
    /// `false`).
    pub user_may_invoke: bool,
    /// Claude Code's `argument-hint`.
    pub argument_hint: Option<String>,
    /// Claude Code's `arguments`: the names of the positional arguments, in order.
    pub arguments: Vec<String>,
}

impl Default for InvocationFields {
    fn default() -> Self {
        InvocationFields {
            model_may_invoke: true,
            user_may_invoke: true,
            argument_hint: None,
            arguments: Vec::new(),
        }
    }
}

impl InvocationFields {
    /// The flag bits an embedded skill stores (`__private::invocation_flags` for the macro).
    pub(crate) fn flags(&self) -> u8 {
        let mut flags = 0;
        if !self.model_may_invoke {
            flags |= MODEL_HIDDEN;
        }
        if !self.user_may_invoke {
            flags |= USER_HIDDEN;
        }
        flags
    }

    /// Whether this is the default policy (no client field changed anything).
    pub(crate) fn is_default(&self) -> bool {
        *self == InvocationFields::default()
    }

    /// The policy Claude Code's fields in a JSON object text say (`disable-model-invocation`,
    /// `user-invocable`, `argument-hint`, `arguments`); the default when there are none or the
    /// text is not a JSON object. For skills built in code with those fields in
    /// [`Fields::extra`](crate::Fields::extra); the scanner reads them typed.
    pub(crate) fn from_extra(extra: &str) -> InvocationFields {
        use serde_json::Value;
        let mut policy = InvocationFields::default();
        let keys = [
            "disable-model-invocation",
            "user-invocable",
            "argument-hint",
            "arguments",
        ];
        if !keys.iter().any(|key| extra.contains(key)) {
            return policy;
        }
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(extra) else {
            return policy;
        };
        policy.model_may_invoke = map.get(keys[0]) != Some(&Value::Bool(true));
        policy.user_may_invoke = map.get(keys[1]) != Some(&Value::Bool(false));
        policy.argument_hint = match map.get(keys[2]) {
            Some(Value::String(hint)) if !hint.trim().is_empty() => Some(hint.trim().to_owned()),
            _ => None,
        };
        let words = |text: &str| -> Vec<String> {
            text.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        };
        policy.arguments = match map.get(keys[3]) {
            Some(Value::String(text)) => words(text),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .flat_map(words)
                .collect(),
            _ => Vec::new(),
        };
        policy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_agree() {
        let owned = InvocationFields {
            model_may_invoke: false,
            user_may_invoke: false,
            argument_hint: Some("[a] [b]".into()),
            arguments: vec!["a".into(), "b".into()],
        };
        let view = InvocationPolicy::of(&owned);
        let embedded = InvocationPolicy::embedded(owned.flags(), Some("[a] [b]"), "a b");
        for p in [view, embedded] {
            assert!(!p.model_may_invoke() && !p.user_may_invoke());
            assert_eq!(p.arguments().collect::<Vec<_>>(), ["a", "b"]);
            assert_eq!(p.argument_hint(), Some("[a] [b]"));
        }
        assert_eq!(view, embedded);
        assert_ne!(view, InvocationPolicy::DEFAULT);
        assert!(InvocationPolicy::DEFAULT.model_may_invoke());
        assert_eq!(InvocationPolicy::DEFAULT.arguments().count(), 0);
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn is_default_example() {
        use crate::invoke::InvocationFields;
        assert!(InvocationFields::default().is_default());
        assert!(
            !InvocationFields {
                user_may_invoke: false,
                ..InvocationFields::default()
            }
            .is_default()
        );
    }
    #[test]
    fn from_extra_example() {
        use crate::invoke::InvocationFields;
        let policy = InvocationFields::from_extra(
            r#"{"disable-model-invocation":true,"argument-hint":"[env]"}"#,
        );
        assert!(!policy.model_may_invoke && policy.user_may_invoke);
        assert_eq!(policy.argument_hint.as_deref(), Some("[env]"));
        assert!(InvocationFields::from_extra("not json").is_default());
    }
}
