//! What can go wrong when a skill or a file is asked for. Every message is written for a model:
//! what was asked, what exists, what to do next.

use std::fmt;

/// An error from looking up a skill or one of its files.
///
/// ```
/// use skills_embed::{SkillError, SkillSet};
/// let set = SkillSet::empty();
/// let err = set.get("pdf").unwrap_err();
/// assert!(matches!(err, SkillError::UnknownSkill { .. }));
/// assert_eq!(err.to_string(), r#"Skill "pdf" not found. There are no skills available."#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SkillError {
    /// No skill has that name.
    #[error(
        "Skill {} not found. {}{}",
        Quoted(requested),
        Available("Available skills", "There are no skills available.", available),
        DidYouMean(suggestion.as_deref())
    )]
    UnknownSkill {
        /// The name that was asked for.
        requested: String,
        /// Every skill name, sorted.
        available: Vec<String>,
        /// The closest name, when one is close.
        suggestion: Option<String>,
    },
    /// The skill has no file at that path.
    #[error(
        "File {} not found in skill {}. {}{} Use \"SKILL.md\" for the skill's instructions.",
        Quoted(requested),
        Quoted(skill),
        Available("Available files", "It has no files.", available),
        DidYouMean(suggestion.as_deref())
    )]
    FileNotFound {
        /// The skill that was searched.
        skill: String,
        /// The path that was asked for, normalised.
        requested: String,
        /// Every path the skill serves, sorted.
        available: Vec<String>,
        /// The closest path, when one is close.
        suggestion: Option<String>,
    },
    /// The skill has no chunk with that id.
    #[error(
        "Chunk {} not found in skill {}. {}{}",
        Quoted(requested),
        Quoted(skill),
        Available("Available chunks", "It has no chunks.", available),
        DidYouMean(suggestion.as_deref())
    )]
    ChunkNotFound {
        /// The skill that was searched.
        skill: String,
        /// The chunk id that was asked for.
        requested: String,
        /// Every chunk id of the skill, in body order.
        available: Vec<String>,
        /// The closest id, when one is close.
        suggestion: Option<String>,
    },
    /// The path was refused before any lookup.
    #[error(
        "Path {} was refused because {problem}. Paths are relative to the skill's folder and use '/', like \"SKILL.md\" or \"references/guide.md\". {}",
        Quoted(requested),
        Available("Available files", "It has no files.", available)
    )]
    InvalidPath {
        /// The skill the path was meant for.
        skill: String,
        /// The path as sent.
        requested: String,
        /// What is wrong with it, the phrase the message uses: "it is empty", "it is absolute",
        /// "it contains a `..` segment", "... a backslash", "... a NUL or control character"
        /// or "... a percent-encoded byte".
        problem: &'static str,
        /// Every path the skill serves, sorted.
        available: Vec<String>,
    },
    /// Invoking the skill with these arguments ([`invoke::render`](crate::invoke::render))
    /// would give more text than [`MAX_RENDERED_BYTES`](crate::invoke::MAX_RENDERED_BYTES):
    /// a body's placeholders multiply the arguments. Nothing of that size was allocated.
    #[error(
        "Invoking skill {} with these arguments would give {rendered} bytes of text (a body of \
         {body} bytes with {placeholders} placeholders, arguments of {args} bytes); the limit is \
         {cap} bytes. Invoke it with shorter arguments, or without them.",
        Quoted(skill)
    )]
    TooLarge {
        /// The skill invoked.
        skill: String,
        /// The size of the text the substitution would give, in bytes (saturating).
        rendered: usize,
        /// The body's size in bytes.
        body: usize,
        /// The placeholders the body has (arguments and skill folder).
        placeholders: usize,
        /// The arguments' size in bytes, trimmed.
        args: usize,
        /// The limit.
        cap: usize,
    },
    /// Sets composed into one ([`SkillSet::compose`](crate::SkillSet::compose)) give two skills
    /// of one name.
    #[error(
        "Skill names given by more than one set: {}. A composed set holds one skill per name: rename the skill in all but one of the crates, or compose without one of the sets.",
        Clashes(clashes)
    )]
    DuplicateSkills {
        /// Each name given more than once, with where each copy came from (the labels the sets
        /// were given with), in the order given.
        clashes: Vec<(String, Vec<String>)>,
    },
}

/// A name or a path the model sent or the skill holds, as a JSON string: `"a.md"`, and
/// `"a\"b.md"` or `"e\nf.md"` for awkward ones, so it stays one line and reads back.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::json_string(self.0))
    }
}

/// Renders `"pdf" (from a, b); "notes" (from c, d)`.
struct Clashes<'a>(&'a [(String, Vec<String>)]);

impl fmt::Display for Clashes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, sources)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{} (from {})", Quoted(name), sources.join(", "))?;
        }
        Ok(())
    }
}

/// Renders `Label: a, b, c.` or the text for an empty list, each name written as listings
/// write names (bare when plain, else a JSON string).
struct Available<'a>(&'static str, &'static str, &'a [String]);

impl fmt::Display for Available<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Available(label, none, items) = *self;
        if items.is_empty() {
            return f.write_str(none);
        }
        write!(f, "{label}: ")?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&crate::text::quote_name(item))?;
        }
        f.write_str(".")
    }
}

impl SkillError {
    /// The error with the path or chunk id that was asked for cut short, as an unknown skill's
    /// name is: a model that sends 100 KB of path gets a short answer, not its path back.
    pub(crate) fn clipped(mut self) -> Self {
        match &mut self {
            SkillError::FileNotFound { requested, .. }
            | SkillError::InvalidPath { requested, .. }
            | SkillError::ChunkNotFound { requested, .. } => {
                *requested = crate::text::echo(requested)
            }
            _ => {}
        }
        self
    }
}

struct DidYouMean<'a>(Option<&'a str>);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, " Did you mean {}?", Quoted(s)),
            None => Ok(()),
        }
    }
}
