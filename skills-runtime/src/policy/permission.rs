//! Which skills an agent may load: `allow`, `ask` and `deny` rules on skill-name patterns.
//!
//! A [`Permissions`] is a list of rules and a default. [`Permissions::check`] walks the rules
//! and the **last** rule whose pattern matches the skill's name decides; when none matches, the
//! default does ([`Access::Allow`] unless a `default` line says otherwise). So a broad rule goes
//! first and its exceptions after it:
//!
//! ```
//! use skills_embed::policy::{Access, Permissions, Subject};
//!
//! let permissions = Permissions::parse(
//!     "# Internal skills are off limits, except the handbook.
//!      deny internal-*
//!      allow internal-handbook
//!      ask deploy-*",
//! )?;
//! let check = |skill| permissions.check(&Subject::load(skill));
//! assert_eq!(check("internal-billing"), Access::Deny);
//! assert_eq!(check("internal-handbook"), Access::Allow);
//! assert_eq!(check("deploy-prod"), Access::Ask);
//! assert_eq!(check("pdf"), Access::Allow);
//! # Ok::<(), skills_embed::policy::PermissionParseError>(())
//! ```
//!
//! # Patterns
//!
//! A pattern is matched against the whole skill name. `*` matches any run of characters,
//! including none; every other character matches itself, case-sensitively. There is no `?`, no
//! character class and no escaping: skill names hold only lowercase letters, digits and hyphens,
//! so none is needed. Matching takes time linear in the name's length for each `*`-separated
//! part of the pattern, and never allocates.
//!
//! # What the host does with each answer
//!
//! - [`Access::Deny`]: the skill is left out of the listing and refused if asked for anyway, as if
//!   it did not exist. Users report a denied skill that still shows as a bug.
//! - [`Access::Ask`]: the skill is listed; before its body is loaded the host asks the person,
//!   who answers [`Answer::Once`], [`Answer::Always`] or [`Answer::Reject`]. [`Grants`] remembers
//!   "always" for the skill as it was approved: when the skill changes, it asks again.
//! - [`Access::Allow`]: loaded without asking.
//!
//! Each agent can have its own rules: keep one [`Permissions`] per agent (a map from the
//! agent's name) and give each agent's tools its own.
//!
//! # Scripts
//!
//! A rule whose pattern holds a `/` is a script rule, `skill-pattern/script-pattern`, for the
//! Rust scripts a skill offers (`ask pdf-forms/fill_*`, `deny */delete_*`). It is read only for
//! a run ([`Subject::run`]): a denied skill's scripts are denied; otherwise the last script
//! rule matching the script decides, and without one the script gets what its skill gets. An
//! `ask` script goes through the same approval as a load, and "always" is remembered for the
//! script and its skill's content ([`Grants::answer`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::subject::Subject;

/// What a rule, or the default, says about a skill.
///
/// Serialised in lowercase: `"allow"`, `"ask"`, `"deny"`.
///
/// ```
/// use skills_embed::policy::Access;
/// assert_eq!(serde_json::to_string(&Access::Ask).unwrap(), r#""ask""#);
/// assert_eq!(Access::default(), Access::Allow);
/// ```
#[derive(strum::EnumString, strum::IntoStaticStr, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// Load it without asking.
    #[default]
    Allow,
    /// Ask the person first; see [`Grants`](super::Grants).
    Ask,
    /// Hide it from the listing and refuse to load it.
    Deny,
}

/// One rule: skills whose name matches `pattern` get `access`. In JSON:
/// `{"pattern": "internal-*", "access": "deny"}`; deserialising refuses an empty pattern and one
/// holding a character no skill name can hold, so a rule that can never match does not pass
/// silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rule {
    #[serde(deserialize_with = "checked_pattern")]
    pattern: String,
    access: Access,
}

impl Rule {
    /// Whether this is a script rule (`skill/script`), read for runs only.
    fn is_script_rule(&self) -> bool {
        self.pattern.contains('/')
    }

    /// Whether the script `script` of skill `skill` matches this script rule's pattern
    /// (`skill-pattern/script-pattern`). Never allocates.
    fn matches_script(&self, skill: &str, script: &str) -> bool {
        self.pattern
            .split_once('/')
            .is_some_and(|(s, n)| wildcard_match(s, skill) && wildcard_match(n, script))
    }
}

fn checked_pattern<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let pattern = String::deserialize(deserializer)?;
    match pattern_problem(&pattern) {
        None => Ok(pattern),
        Some(problem) => Err(serde::de::Error::custom(problem)),
    }
}

/// An ordered list of rules and a default: the permissions of one agent.
///
/// Built in code, parsed from a small text format ([`Permissions::parse`], also [`FromStr`]), or
/// deserialised from JSON, where both fields are optional:
///
/// ```
/// use skills_embed::policy::Permissions;
///
/// let built = Permissions::new().deny("internal-*").allow("internal-handbook");
/// let parsed: Permissions = "deny internal-*\nallow internal-handbook".parse()?;
/// let json: Permissions = serde_json::from_str(
///     r#"{"rules": [{"pattern": "internal-*", "access": "deny"},
///                   {"pattern": "internal-handbook", "access": "allow"}]}"#,
/// )?;
/// assert_eq!(built, parsed);
/// assert_eq!(built, json);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Permissions {
    #[serde(default)]
    default: Access,
    #[serde(default)]
    rules: Vec<Rule>,
}

impl Permissions {
    /// No rules and the default [`Access::Allow`]: everything is allowed.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// assert_eq!(Permissions::new().check(&Subject::load("anything")), Access::Allow);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a rule allowing skills that match `pattern`.
    ///
    /// Patterns given in code are taken as they are; only [`Permissions::parse`] and
    /// deserialisation check them.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// let p = Permissions::new().with_default(Access::Deny).allow("pdf-*");
    /// assert_eq!(p.check(&Subject::load("pdf-forms")), Access::Allow);
    /// assert_eq!(p.check(&Subject::load("docx")), Access::Deny);
    /// ```
    pub fn allow(self, pattern: impl Into<String>) -> Self {
        self.rule(pattern, Access::Allow)
    }

    /// Appends a rule asking before skills that match `pattern` are loaded.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// assert_eq!(Permissions::new().ask("deploy").check(&Subject::load("deploy")), Access::Ask);
    /// ```
    pub fn ask(self, pattern: impl Into<String>) -> Self {
        self.rule(pattern, Access::Ask)
    }

    /// Appends a rule denying skills that match `pattern`.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// let p = Permissions::new().deny("internal-*");
    /// assert_eq!(p.check(&Subject::load("internal-x")), Access::Deny);
    /// ```
    pub fn deny(self, pattern: impl Into<String>) -> Self {
        self.rule(pattern, Access::Deny)
    }

    fn rule(mut self, pattern: impl Into<String>, access: Access) -> Self {
        self.rules.push(Rule {
            pattern: pattern.into(),
            access,
        });
        self
    }

    /// Sets what skills matched by no rule get (a rules file's `default` line).
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// let p = Permissions::new().with_default(Access::Ask);
    /// assert_eq!(p.check(&Subject::load("pdf")), Access::Ask);
    /// ```
    pub fn with_default(mut self, access: Access) -> Self {
        self.default = access;
        self
    }

    /// What `subject` gets. Loading a skill: the access of the last rule whose pattern matches
    /// its name, or the default. Running one of its scripts: [`Access::Deny`] when the skill is
    /// denied; else the access of the last script rule (`skill-pattern/script-pattern`) that
    /// matches it; else what the skill gets.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    /// let p = Permissions::parse("deny *\nallow pdf-*\nask */fill_*\ndeny pdf-old")?;
    /// assert_eq!(p.check(&Subject::load("pdf-forms")), Access::Allow);
    /// assert_eq!(p.check(&Subject::load("pdf-old")), Access::Deny);
    /// assert_eq!(p.check(&Subject::load("docx")), Access::Deny);
    /// assert_eq!(p.check(&Subject::run("pdf-forms", "fill_form")), Access::Ask);
    /// assert_eq!(p.check(&Subject::run("pdf-forms", "validate")), Access::Allow);
    /// assert_eq!(p.check(&Subject::run("pdf-old", "fill_form")), Access::Deny);
    /// # Ok::<(), skills_embed::policy::PermissionParseError>(())
    /// ```
    pub fn check(&self, subject: &Subject) -> Access {
        self.access(&subject.skill, subject.script.as_deref())
    }

    /// [`check`](Self::check) without building a [`Subject`]: it runs for every skill and
    /// script each time a listing or a schema is rendered, so it never allocates.
    pub(crate) fn access(&self, skill: &str, script: Option<&str>) -> Access {
        let for_skill = self
            .rules
            .iter()
            .rev()
            .find(|rule| !rule.is_script_rule() && wildcard_match(&rule.pattern, skill))
            .map_or(self.default, |rule| rule.access);
        match (for_skill, script) {
            (Access::Deny, _) | (_, None) => for_skill,
            (_, Some(script)) => self
                .rules
                .iter()
                .rev()
                .find(|rule| rule.matches_script(skill, script))
                .map_or(for_skill, |rule| rule.access),
        }
    }

    /// Parses rules written one per line.
    ///
    /// Each line is `allow PATTERN`, `ask PATTERN`, `deny PATTERN` or `default allow|ask|deny`.
    /// Everything from a `#` to the end of its line is a comment; blank lines are ignored;
    /// words are separated by any whitespace. Keywords are lowercase. At most one `default` line,
    /// anywhere in the text. Later rules win over earlier ones, as in [`check`](Self::check).
    ///
    /// A pattern must be non-empty and hold only what a skill name can hold (lowercase letters,
    /// digits, `-`) and `*`: a rule such as `deny Internal-*` could never match, and a deny rule
    /// that silently does nothing is worse than an error.
    ///
    /// # Errors
    ///
    /// The first line that does not follow the format, with its 1-based number and what was
    /// expected there.
    ///
    /// ```
    /// use skills_embed::policy::{Access, Permissions, Subject};
    ///
    /// let p = Permissions::parse("default deny\nallow pdf-*   # documents only\n")?;
    /// assert_eq!(p.check(&Subject::load("pdf-forms")), Access::Allow);
    /// assert_eq!(p.check(&Subject::load("shell")), Access::Deny);
    ///
    /// let error = Permissions::parse("deny internal-*\nalow pdf-*").unwrap_err();
    /// assert_eq!(error.line(), 2);
    /// assert_eq!(
    ///     error.to_string(),
    ///     "permissions line 2: unknown keyword \"alow\" (did you mean `allow`?); \
    ///      expected `allow PATTERN`, `ask PATTERN`, `deny PATTERN` or `default allow|ask|deny`",
    /// );
    /// # Ok::<(), skills_embed::policy::PermissionParseError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, PermissionParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut permissions = Self::new();
        let mut default_line = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let fail = |problem| PermissionParseError { line, problem };
            let content = raw.split_once('#').map_or(raw, |(before, _)| before);
            let mut words = content.split_whitespace();
            let Some(keyword) = words.next() else {
                continue;
            };
            let argument = words.next();
            // Checked after the keyword and its argument, so that a misspelt keyword is reported
            // as such even when the line also has too many words.
            let extra = words.next().map(|extra| ParseProblem::ExtraWord {
                found: extra.to_owned(),
            });
            if keyword == "default" {
                let Some(argument) = argument else {
                    return Err(fail(ParseProblem::MissingAccess));
                };
                let Ok(access) = argument.parse::<Access>() else {
                    return Err(fail(ParseProblem::UnknownAccess {
                        found: argument.to_owned(),
                    }));
                };
                if let Some(problem) = extra {
                    return Err(fail(problem));
                }
                if let Some(first) = default_line {
                    return Err(fail(ParseProblem::DuplicateDefault { first }));
                }
                default_line = Some(line);
                permissions.default = access;
                continue;
            }
            let Ok(access) = keyword.parse::<Access>() else {
                return Err(fail(ParseProblem::UnknownKeyword {
                    found: keyword.to_owned(),
                }));
            };
            let Some(pattern) = argument else {
                return Err(fail(ParseProblem::MissingPattern { keyword: access }));
            };
            if let Some(problem) = pattern_problem(pattern).or(extra) {
                return Err(fail(problem));
            }
            permissions = permissions.rule(pattern, access);
        }
        Ok(permissions)
    }
}

impl FromStr for Permissions {
    type Err = PermissionParseError;

    /// Same as [`Permissions::parse`].
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

/// A line of a rules file that [`Permissions::parse`] could not read.
///
/// Its `Display` is one line naming the line number, what is wrong and what was expected:
///
/// ```
/// use skills_embed::policy::Permissions;
/// let error = Permissions::parse("\n\ndeny").unwrap_err();
/// assert_eq!(error.line(), 3);
/// assert_eq!(
///     error.to_string(),
///     "permissions line 3: `deny` needs a skill-name pattern, e.g. `deny internal-*`",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("permissions line {line}: {problem}")]
pub struct PermissionParseError {
    line: usize,
    problem: ParseProblem,
}

impl PermissionParseError {
    /// The 1-based number of the offending line.
    ///
    /// ```
    /// use skills_embed::policy::Permissions;
    /// assert_eq!(Permissions::parse("allow a\nallow a b").unwrap_err().line(), 2);
    /// ```
    pub fn line(&self) -> usize {
        self.line
    }
}

/// What is wrong with a line of a rules file (or a rule read from JSON, which has no line).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ParseProblem {
    /// The line does not start with `allow`, `ask`, `deny` or `default`.
    UnknownKeyword {
        /// The first word of the line.
        found: String,
    },
    /// `allow`, `ask` or `deny` with nothing after it.
    MissingPattern {
        /// The keyword that was given.
        keyword: Access,
    },
    /// `default` with nothing after it.
    MissingAccess,
    /// `default` followed by something other than `allow`, `ask` or `deny`.
    UnknownAccess {
        /// The word after `default`.
        found: String,
    },
    /// A third word on a line: patterns hold no spaces.
    ExtraWord {
        /// The first word past the pattern or access.
        found: String,
    },
    /// A second `default` line.
    DuplicateDefault {
        /// The line of the first one.
        first: usize,
    },
    /// An empty pattern; only possible in JSON, where it would match no skill.
    EmptyPattern,
    /// A pattern holding a character no skill name can hold, so part of it could never match.
    InvalidPatternCharacter {
        /// The pattern.
        pattern: String,
        /// The first character that no skill name can hold.
        character: char,
    },
}

const EXPECTED_LINE: &str =
    "expected `allow PATTERN`, `ask PATTERN`, `deny PATTERN` or `default allow|ask|deny`";

/// A word taken from the input, quoted for a message: clipped (the one clip) so that a runaway
/// line cannot flood it, then written as a JSON string (the one quoting) so that quotes and
/// control characters cannot break its single line.
pub(super) fn quoted(word: &str) -> String {
    crate::text::json_string(&crate::text::echo(word))
}

impl fmt::Display for ParseProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKeyword { found } => {
                write!(f, "unknown keyword {}", quoted(found))?;
                if let Some(near) = crate::text::closest(found, ["allow", "ask", "deny", "default"])
                {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                write!(f, "; {EXPECTED_LINE}")
            }
            Self::MissingPattern { keyword } => {
                let example = match keyword {
                    Access::Allow => "pdf-*",
                    Access::Ask => "deploy-*",
                    Access::Deny => "internal-*",
                };
                write!(
                    f,
                    "`{keyword}` needs a skill-name pattern, e.g. `{keyword} {example}`"
                )
            }
            Self::MissingAccess => {
                f.write_str("`default` needs `allow`, `ask` or `deny`, e.g. `default deny`")
            }
            Self::UnknownAccess { found } => {
                write!(
                    f,
                    "`default` takes `allow`, `ask` or `deny`, not {}",
                    quoted(found)
                )?;
                if let Some(near) = crate::text::closest(found, ["allow", "ask", "deny"]) {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                Ok(())
            }
            Self::ExtraWord { found } => write!(
                f,
                "unexpected {}: a line holds one keyword and one pattern, patterns hold no \
                 spaces, and comments start with `#`",
                quoted(found)
            ),
            Self::DuplicateDefault { first } => write!(
                f,
                "`default` is already set on line {first}; keep a single `default` line"
            ),
            Self::EmptyPattern => {
                f.write_str("empty pattern: it would match no skill; use `*` to match every skill")
            }
            Self::InvalidPatternCharacter { pattern, character } => {
                write!(
                    f,
                    "pattern {} contains {character:?}, which no skill name can contain, so it \
                     would never match; patterns are case-sensitive and names hold only lowercase \
                     letters, digits and `-` (`*` matches any run of characters)",
                    quoted(pattern)
                )?;
                if pattern.contains('/') {
                    f.write_str(
                        "; a script rule is `skill-pattern/script-pattern`, e.g. `pdf-*/fill_*`, \
                         both parts non-empty",
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// Why `pattern` can never be what the author meant, if it cannot.
fn pattern_problem(pattern: &str) -> Option<ParseProblem> {
    if pattern.is_empty() {
        return Some(ParseProblem::EmptyPattern);
    }
    // `skill/script`: the script part may also hold what a Rust function's name or a script
    // file's path holds (`pdf-forms/scripts/*.py`).
    let (skill, script) = match pattern.split_once('/') {
        Some((skill, script)) => (skill, Some(script)),
        None => (pattern, None),
    };
    let bad_skill = skill
        .chars()
        .find(|&c| !(c == '*' || c == '-' || is_name_character(c)));
    let bad_script = script.and_then(|script| {
        if script.is_empty() || skill.is_empty() {
            return Some('/');
        }
        script
            .chars()
            .find(|&c| !(matches!(c, '*' | '-' | '_' | '.' | '/') || c.is_alphanumeric()))
    });
    bad_skill
        .or(bad_script)
        .map(|character| ParseProblem::InvalidPatternCharacter {
            pattern: pattern.to_owned(),
            character,
        })
}

/// A letter or digit that a valid skill name may hold: alphanumeric and already lowercase, the
/// same test the SKILL.md validator applies.
fn is_name_character(c: char) -> bool {
    c.is_alphanumeric() && c.to_lowercase().eq(std::iter::once(c))
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters.
///
/// With only `*` as a wildcard, taking the leftmost occurrence of each literal part between stars
/// is always safe: a later occurrence would leave less room for the parts after it, never more.
/// So no backtracking is needed, and the cost is one substring search per part.
fn wildcard_match(pattern: &str, text: &str) -> bool {
    let Some((prefix, after_first_star)) = pattern.split_once('*') else {
        return pattern == text;
    };
    let (middle, suffix) = after_first_star
        .rsplit_once('*')
        .unwrap_or(("", after_first_star));
    // Prefix and suffix are stripped one after the other so that they cannot overlap.
    let Some(rest) = text.strip_prefix(prefix) else {
        return false;
    };
    let Some(mut rest) = rest.strip_suffix(suffix) else {
        return false;
    };
    for part in middle.split('*').filter(|part| !part.is_empty()) {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::file::hex;
    use crate::model::skill::Skill;
    use crate::policy::grants::*;

    #[test]
    fn wildcard_matching() {
        let cases: &[(&str, &str, bool)] = &[
            ("pdf", "pdf", true),
            ("pdf", "pdf-forms", false),
            ("pdf", "pd", false),
            ("", "", true),
            ("", "a", false),
            ("*", "", true),
            ("*", "anything-at-all", true),
            ("**", "x", true),
            ("pdf-*", "pdf-", true),
            ("pdf-*", "pdf-forms", true),
            ("pdf-*", "pdf", false),
            ("*-review", "code-review", true),
            ("*-review", "review", false),
            ("a*b*c", "abc", true),
            ("a*b*c", "aXbYc", true),
            ("a*b*c", "acb", false),
            ("a*a", "a", false),
            ("a*a", "aa", true),
            ("ab*ba", "aba", false),
            ("ab*ba", "abba", true),
            ("*a*b*", "xxbxxaxx", false),
            ("*a*b*", "xxaxxbxx", true),
            ("a*", "A", false),
            ("*ü*", "grün", true),
            ("gr*n", "grün", true),
            ("*.*", "a.b", true),
            ("*?", "a", false),
        ];
        for &(pattern, text, expected) in cases {
            assert_eq!(
                wildcard_match(pattern, text),
                expected,
                "{pattern:?} against {text:?}"
            );
        }
    }

    #[test]
    fn many_stars_do_not_backtrack() {
        let text = "a".repeat(10_000);
        assert!(!wildcard_match("a*a*a*a*a*a*b", &text));
        // The suffix check rejects the one above early; these force every part to be searched.
        assert!(!wildcard_match("*a*a*a*a*a*a*a*a*a*a*a*a*b*", &text));
        assert!(wildcard_match(&"*a".repeat(5_000), &text));
        assert!(!wildcard_match(&"*a".repeat(10_001), &text));
        // Exponential backtracking would never return here; the matcher's speed is the
        // benchmarks' to show, not a timed test's.
        assert!(wildcard_match("a*a*a*a*a*a*a", &text));
    }

    #[test]
    fn last_matching_rule_wins_and_default_applies() {
        let p = Permissions::new()
            .deny("*")
            .allow("pdf-*")
            .ask("pdf-sign")
            .with_default(Access::Ask);
        assert_eq!(p.access("pdf-forms", None), Access::Allow);
        assert_eq!(p.access("pdf-sign", None), Access::Ask);
        assert_eq!(p.access("docx", None), Access::Deny);
        let none = Permissions::new().with_default(Access::Deny).allow("pdf");
        assert_eq!(none.access("docx", None), Access::Deny);
        assert_eq!(none.access("pdf", None), Access::Allow);
        assert_eq!(Permissions::new().access("", None), Access::Allow);
    }

    #[test]
    fn parse_reads_every_form() {
        let text = "\u{feff}# header comment\n\
                    \n\
                    \tdefault   deny  # trailing\r\n\
                    allow pdf-*\n\
                    ask\tdeploy\n\
                    deny internal-*#no space before comment\n\
                    allow *\n";
        let p = Permissions::parse(text).expect("valid");
        assert_eq!(
            p,
            Permissions::new()
                .with_default(Access::Deny)
                .allow("pdf-*")
                .ask("deploy")
                .deny("internal-*")
                .allow("*")
        );
        assert_eq!(Permissions::parse("").expect("empty"), Permissions::new());
        assert_eq!(
            Permissions::parse("# only\n\n   \n").expect("comments"),
            Permissions::new()
        );
        assert_eq!(
            "allow a-*".parse::<Permissions>().expect("from_str"),
            Permissions::new().allow("a-*")
        );
    }

    #[test]
    fn parse_errors_name_the_line_and_what_is_expected() {
        let cases: &[(&str, usize, &str)] = &[
            (
                "allow a\nAllow b",
                2,
                "permissions line 2: unknown keyword \"Allow\" (did you mean `allow`?); expected \
                 `allow PATTERN`, `ask PATTERN`, `deny PATTERN` or `default allow|ask|deny`",
            ),
            (
                "permit x",
                1,
                "permissions line 1: unknown keyword \"permit\"; expected `allow PATTERN`, `ask \
                 PATTERN`, `deny PATTERN` or `default allow|ask|deny`",
            ),
            (
                "ask",
                1,
                "permissions line 1: `ask` needs a skill-name pattern, e.g. `ask deploy-*`",
            ),
            (
                "default",
                1,
                "permissions line 1: `default` needs `allow`, `ask` or `deny`, e.g. `default deny`",
            ),
            (
                "default dny",
                1,
                "permissions line 1: `default` takes `allow`, `ask` or `deny`, not \"dny\" (did \
                 you mean `deny`?)",
            ),
            (
                "deny pdf forms",
                1,
                "permissions line 1: unexpected \"forms\": a line holds one keyword and one \
                 pattern, patterns hold no spaces, and comments start with `#`",
            ),
            (
                "permit pdf forms",
                1,
                "permissions line 1: unknown keyword \"permit\"; expected `allow PATTERN`, `ask \
                 PATTERN`, `deny PATTERN` or `default allow|ask|deny`",
            ),
            (
                "default deny now",
                1,
                "permissions line 1: unexpected \"now\": a line holds one keyword and one \
                 pattern, patterns hold no spaces, and comments start with `#`",
            ),
            (
                "default deny\n\ndefault allow",
                3,
                "permissions line 3: `default` is already set on line 1; keep a single `default` \
                 line",
            ),
            (
                "deny Internal-*",
                1,
                "permissions line 1: pattern \"Internal-*\" contains 'I', which no skill name can \
                 contain, so it would never match; patterns are case-sensitive and names hold \
                 only lowercase letters, digits and `-` (`*` matches any run of characters)",
            ),
            (
                "deny pdf_*",
                1,
                "permissions line 1: pattern \"pdf_*\" contains '_', which no skill name can \
                 contain, so it would never match; patterns are case-sensitive and names hold \
                 only lowercase letters, digits and `-` (`*` matches any run of characters)",
            ),
        ];
        for &(text, line, message) in cases {
            let error = Permissions::parse(text).expect_err(text);
            assert_eq!(error.line(), line, "{text:?}");
            assert_eq!(error.to_string(), message, "{text:?}");
        }
    }

    #[test]
    fn parse_error_display_is_one_line_for_any_input() {
        for text in [
            "\u{7}bell x",
            "default \"\u{0}\"",
            "allow a \u{1b}[31m",
            "deny a\u{b}b",
            "deny \u{9b}x",
        ] {
            let message = Permissions::parse(text).expect_err(text).to_string();
            assert!(
                !message.chars().any(char::is_control),
                "{text:?} gave {message:?}"
            );
        }
    }

    #[test]
    fn long_words_are_cut_in_messages() {
        let long = "x".repeat(10_000);
        let message = Permissions::parse(&format!("{long} pdf"))
            .expect_err("unknown keyword")
            .to_string();
        assert!(message.len() < 250, "{message}");
        assert!(
            message.contains(&format!("\"{}…\"", "x".repeat(99))),
            "{message}"
        );
        assert_eq!(quoted(&"é".repeat(100)), format!("\"{}\"", "é".repeat(100)));
    }

    #[test]
    fn parse_accepts_unicode_lowercase_patterns() {
        let p = Permissions::parse("deny навык-*\nallow 数据-*").expect("valid");
        assert_eq!(p.access("навык-pdf", None), Access::Deny);
        assert_eq!(p.access("数据-x", None), Access::Allow);
        assert!(Permissions::parse("deny НАВЫК").is_err());
    }

    #[test]
    fn serde_round_trip_and_optional_fields() {
        let p: Permissions = serde_json::from_str(
            r#"{"default":"allow","rules":[{"pattern":"internal-*","access":"deny"}]}"#,
        )
        .expect("full");
        assert_eq!(p, Permissions::new().deny("internal-*"));
        let only_default: Permissions =
            serde_json::from_str(r#"{"default":"deny"}"#).expect("default only");
        assert_eq!(only_default, Permissions::new().with_default(Access::Deny));
        let empty: Permissions = serde_json::from_str("{}").expect("empty");
        assert_eq!(empty, Permissions::new());

        let p = Permissions::new().with_default(Access::Ask).allow("a-*");
        let json = serde_json::to_string(&p).expect("serialise");
        assert_eq!(
            json,
            r#"{"default":"ask","rules":[{"pattern":"a-*","access":"allow"}]}"#
        );
        assert_eq!(serde_json::from_str::<Permissions>(&json).expect("back"), p);
    }

    #[test]
    fn serde_refuses_what_would_silently_do_nothing() {
        for json in [
            r#"{"rule":[{"pattern":"x","access":"deny"}]}"#,
            r#"{"rules":[{"pattern":"x","access":"Deny"}]}"#,
            r#"{"rules":[{"pattern":"","access":"deny"}]}"#,
            r#"{"rules":[{"pattern":"Internal-*","access":"deny"}]}"#,
            r#"{"rules":[{"pattern":"x","access":"deny","note":1}]}"#,
            r#"{"default":"maybe"}"#,
        ] {
            assert!(serde_json::from_str::<Permissions>(json).is_err(), "{json}");
        }
        let error = serde_json::from_str::<Permissions>(
            r#"{"rules":[{"pattern":"Internal-*","access":"deny"}]}"#,
        )
        .expect_err("uppercase");
        assert!(
            error.to_string().contains("no skill name can contain"),
            "{error}"
        );
    }

    #[test]
    fn script_rules_are_read_for_runs_only() {
        let p = Permissions::parse("ask */*\nallow pdf-forms/validate\ndeny internal-*")
            .expect("valid");
        assert_eq!(p.access("pdf-forms", Some("fill_form")), Access::Ask);
        assert_eq!(p.access("pdf-forms", Some("validate")), Access::Allow);
        assert_eq!(p.access("internal-tools", Some("validate")), Access::Deny);
        // Script rules say nothing about loading the skill itself.
        assert_eq!(p.access("pdf-forms", None), Access::Allow);
        assert_eq!(
            p.check(&Subject::run("pdf-forms", "fill_form")),
            p.access("pdf-forms", Some("fill_form"))
        );
    }

    fn load(skill: &Skill) -> Subject {
        Subject::load(skill.name())
    }

    fn skill(name: &str, body: &str) -> Skill {
        let fields = crate::model::fields::Fields {
            name: name.into(),
            description: "A skill.".into(),
            ..Default::default()
        };
        Skill::owned(fields, body.into(), Vec::new())
    }

    #[test]
    fn grants_remember_always_only_and_never_override_deny() {
        let permissions = Permissions::new().ask("ask-*").deny("ask-denied");
        let mut grants = Grants::default();
        let once = skill("ask-once", "");
        assert!(grants.answer(&load(&once), &once, Answer::Once));
        assert_eq!(grants.access_of(&permissions, &once, None), Access::Ask);
        let no = skill("ask-no", "");
        assert!(!grants.answer(&load(&no), &no, Answer::Reject));
        assert_eq!(grants.access_of(&permissions, &no, None), Access::Ask);
        let yes = skill("ask-yes", "");
        assert!(grants.answer(&load(&yes), &yes, Answer::Always));
        assert!(grants.answer(&load(&yes), &yes, Answer::Always));
        assert_eq!(grants.access_of(&permissions, &yes, None), Access::Allow);
        let denied = skill("ask-denied", "");
        assert!(grants.answer(&load(&denied), &denied, Answer::Always));
        assert_eq!(grants.access_of(&permissions, &denied, None), Access::Deny);
        assert_eq!(
            grants.access_of(&permissions, &skill("other", ""), None),
            Access::Allow
        );
        let json = serde_json::to_string(&grants).expect("serialise");
        assert_eq!(
            json,
            format!(
                r#"{{"ask-denied":"{}","ask-yes":"{}"}}"#,
                hex(&denied.content_digest()),
                hex(&yes.content_digest())
            )
        );
        assert_eq!(serde_json::from_str::<Grants>(&json).expect("back"), grants);
    }

    #[test]
    fn a_grant_holds_for_the_content_approved() {
        let permissions = Permissions::new().ask("deploy");
        let approved = skill("deploy", "Run make deploy.\n");
        let changed = skill("deploy", "Run make deploy; drop the backups.\n");
        let mut grants = Grants::default();
        grants.answer(&load(&approved), &approved, Answer::Always);
        assert_eq!(
            grants.access_of(&permissions, &skill("deploy", "Run make deploy.\n"), None),
            Access::Allow
        );
        // Any change asks again: the body, or a field.
        assert_eq!(grants.access_of(&permissions, &changed, None), Access::Ask);
        assert!(!grants.is_granted("deploy", None, &changed));
        let mut fields = crate::model::fields::Fields {
            name: "deploy".into(),
            description: "A skill.".into(),
            ..Default::default()
        };
        fields.license = Some("MIT".into());
        let relicensed = Skill::owned(fields, "Run make deploy.\n".into(), Vec::new());
        assert_eq!(
            grants.access_of(&permissions, &relicensed, None),
            Access::Ask
        );
        // The stale grant is kept: it applies again to the approved content...
        assert_eq!(
            serde_json::to_value(&grants).expect("serialise")["deploy"],
            hex(&approved.content_digest())
        );
        assert_eq!(
            grants.access_of(&permissions, &approved, None),
            Access::Allow
        );
        // ... until a new "always" replaces it.
        grants.answer(&load(&changed), &changed, Answer::Always);
        assert_eq!(
            grants.access_of(&permissions, &changed, None),
            Access::Allow
        );
        assert_eq!(grants.access_of(&permissions, &approved, None), Access::Ask);
        // A grant is for a name: another skill with the same content is not granted.
        let other = skill("deploy-two", "Run make deploy; drop the backups.\n");
        assert_eq!(
            grants.access_of(&Permissions::new().ask("*"), &other, None),
            Access::Ask
        );
        // Reject forgets it whatever the content.
        assert!(!grants.answer(&load(&approved), &approved, Answer::Reject));
        assert_eq!(grants, Grants::default());
        assert_eq!(grants.access_of(&permissions, &changed, None), Access::Ask);
    }

    #[test]
    fn grants_deserialise_digests_and_read_old_names_as_nothing() {
        let deploy = skill("deploy", "Run make deploy.\n");
        let upper = format!(
            r#"{{"deploy":"{}"}}"#,
            hex(&deploy.content_digest()).to_uppercase()
        );
        let grants: Grants = serde_json::from_str(&upper).expect("uppercase hex");
        assert!(grants.is_granted("deploy", None, &deploy));
        assert_eq!(
            serde_json::from_str::<Grants>("{}").expect("empty"),
            Grants::default()
        );
        // The older form, names without digests: accepted, and grants nothing.
        let old: Grants = serde_json::from_str(r#"["deploy","pdf"]"#).expect("old form");
        assert_eq!(old, Grants::default());
        assert_eq!(
            old.access_of(&Permissions::new().ask("deploy"), &deploy, None),
            Access::Ask
        );
        let long = "x".repeat(1_000);
        for json in [
            r#"{"deploy":"abc"}"#.to_owned(),
            format!(r#"{{"deploy":"{}"}}"#, "g".repeat(64)),
            format!(r#"{{"deploy":"{}"}}"#, "é".repeat(32)),
            format!(r#"{{"deploy":"{}"}}"#, "0".repeat(65)),
            r#"{"deploy":1}"#.to_owned(),
            r#"{"deploy":null}"#.to_owned(),
            r#"[1]"#.to_owned(),
            r#""deploy""#.to_owned(),
            "null".to_owned(),
            format!(r#"{{"{long}":"0"}}"#),
        ] {
            let error = serde_json::from_str::<Grants>(&json).expect_err(&json);
            assert!(error.to_string().len() < 250, "{error}");
        }
        let error = serde_json::from_str::<Grants>(r#"{"deploy":"abc"}"#).expect_err("short");
        assert!(
            error
                .to_string()
                .contains("the grant for skill \"deploy\" is not a content digest"),
            "{error}"
        );
    }
}
