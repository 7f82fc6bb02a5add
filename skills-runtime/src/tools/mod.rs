//! What an agent offers the model and how it answers: tool definitions, the handler that
//! decodes and answers calls ([`Tools`]), a conversation's [`Session`], and the disclosure
//! modes that pick what goes into the system prompt.
//!
//! # Disclosure modes
//!
//! A host shows skills to a model in one of three ways ([`Disclosure`]): as a listing the model
//! chooses from (progressive), by injecting the bodies of the skills that match the user's input
//! (eager), or a mix (hybrid). Eager disclosure needs a matcher that runs before the model sees
//! anything; [`match_skills`] is that matcher.
//!
//! ## How [`match_skills`] scores
//!
//! The matcher is deliberately simple, so that a skill author can predict what it picks. It uses
//! no randomness, no hashing order and no locale: the same input and skills always give the same
//! result, whatever the order the skills are given in.
//!
//! 1. **Words.** Text is cut into words at every character that is not alphanumeric in Unicode
//!    ([`char::is_alphanumeric`]), so `pdf-forms`, `PDF/forms` and `pdf_forms` all give `pdf` and
//!    `forms`. Each word is lowercased character by character ([`char::to_lowercase`]).
//! 2. **Dropped words.** Words of fewer than 3 characters are dropped, and so are the
//!    [`STOP_WORDS`]: common English words and the words most skill descriptions share ("use
//!    this skill when the user asks…"). Stop words are compared before step 3.
//! 3. **Suffixes.** Each word loses at most one suffix: the first rule of this list that applies
//!    and leaves at least 3 characters is used; if none does, the word is kept whole.
//!
//!    | rule                                                  | examples                           |
//!    |-------------------------------------------------------|------------------------------------|
//!    | `ies` → `y`                                           | `policies` → `policy`              |
//!    | `es` → removed                                        | `boxes` → `box`, `files` → `fil`   |
//!    | `s` → removed, unless the word ends in `ss`           | `pdfs` → `pdf`; `class` stays      |
//!    | `ing` → removed, if an ASCII vowel (`aeiouy`) remains | `filling` → `fill`; `string` stays |
//!    | `ed` → removed, unless the word ends in `eed`         | `created` → `creat`; `speed` stays |
//!    | `e` → removed                                         | `file` → `fil`, `create` → `creat` |
//!
//!    The last rule exists so that `file`, `files`, `filing` and `filed` all become `fil`. The
//!    result is a matching key, not a word: [`keywords`] shows the keys a text gives.
//! 4. **Keywords.** A skill's keywords are the words of its name (for a valid name, its
//!    hyphen-separated parts), worth [`NAME_WEIGHT`] (3), and the words of its description,
//!    worth [`DESCRIPTION_WEIGHT`] (1). A word in both is worth 3.
//! 5. **Score.** Each *distinct* word of the input (after step 3) adds the weight of the skill
//!    keyword it equals, or nothing. Repeating a word in the input, or in a description, adds
//!    nothing more.
//! 6. **Selection.** Skills scoring at least [`MatchConfig::min_score`] are kept (a skill scoring
//!    0 never is, even with `min_score: 0`), sorted by score, highest first, then by name in
//!    byte order, and the first [`MatchConfig::max_skills`] are returned. If a name is given more
//!    than once, only its best-scoring entry counts.
//!
//! With the default [`MatchConfig`] (`min_score` 2), one word of a skill's name is enough to
//! select it, one word of its description alone is not.
//!
//! ```
//! use skills_embed_runtime::tools::{match_skills, MatchConfig};
//!
//! let skills = [
//!     ("pdf-forms", "Fill in and validate PDF forms. Use when the user asks to fill a form."),
//!     ("code-review", "Review code changes for bugs, style and missing tests."),
//! ];
//! let found = match_skills("Please fill in this PDF form", skills, &MatchConfig::default());
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].name, "pdf-forms");
//! // `pdf` and `form` are name words (3 each), `fill` is a description word (1).
//! assert_eq!(found[0].score, 7);
//! assert_eq!(found[0].matched, ["fill", "form", "pdf"]);
//! ```
//!
//! ## Limits
//!
//! There is no Unicode normalisation: `é` written as one character and as `e` plus a combining
//! accent are different (the accent is not alphanumeric, so it splits the word). Scripts written
//! without spaces between words, such as Chinese or Japanese, give one long word per run of
//! text, which rarely equals a keyword. The stop words and suffix rules are English. For anything
//! smarter, let the model choose ([`Disclosure::Progressive`]).

mod call;
mod definition;
mod disclosure;
pub(crate) mod handler;
pub(crate) mod reattach;
pub(crate) mod render;
mod run;
mod runner;
mod session;
mod settings;

pub use crate::model::script::CancelToken;
pub use call::{Call, CallError};
pub use definition::{
    LOAD_SKILL_CHUNK, READ_SKILL, READ_SKILL_RESOURCE, ToolDefinition, script_tool_name,
    strict_compatible,
};
pub use disclosure::{
    DESCRIPTION_WEIGHT, Disclosure, Match, MatchConfig, NAME_WEIGHT, STOP_WORDS, keywords,
    match_skills,
};
pub use handler::{Decision, Tools};
pub use reattach::{Reattach, Reattached, ReattachedSkill};
pub use render::{LoadReport, ToolOutput};
pub use runner::{FileRun, FileRunner};
pub use session::{Event, Invoked, Session, UnloadReason};
#[cfg(any(feature = "mcp", feature = "rig"))]
pub(crate) use settings::Snapshot;
pub use settings::{
    Hooks, OutputShape, RUN_SKILL_SCRIPT, Settings, Source, ToolName, ToolNameError, ToolStyle,
};
