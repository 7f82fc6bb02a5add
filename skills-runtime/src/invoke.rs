//! Skills the user invokes by name in a message, and the text a host inserts for each.
//!
//! Hosts let a user call a skill directly: Claude Code takes `/name args` at the start of a
//! message, goose takes `/name` anywhere (several at once), Codex takes `$name` and
//! `[$name](path)` mentions. [`parse`] finds all of these in one message; [`render`] turns an
//! invocation into the skill's body with its arguments substituted; [`menu`] lists the skills the
//! user may invoke (each one's [`InvocationFields::argument_hint`] for the menu line).
//!
//! ```
//! use skills_embed::{Fields, Skill, invoke};
//! let pdf = Skill::owned(
//!     Fields { name: "pdf".into(), description: "Fill PDF forms.".into(), ..Fields::default() },
//!     "Fill $0 with the values in $1.\n".into(),
//!     vec![],
//! );
//! let (invocations, _unknown) = invoke::parse(r#"/pdf form.pdf "my values.json""#, ["pdf"]);
//! assert_eq!(invocations[0].name, "pdf");
//! let text = invoke::render(&pdf, &invocations[0].args, None).unwrap();
//! assert_eq!(text, "Fill form.pdf with the values in my values.json.\n");
//! ```

use crate::model::error::SkillError;
pub use crate::model::invocation::InvocationFields;
use crate::model::skill::Skill;
use crate::text::closest;

/// A name the message writes like an invocation: a skill it invokes (first list of [`parse`]),
/// or a name that is not a skill the user may invoke, left as text (second list). How it was
/// written is the message's character at `at`: `/` (a command at the start of the message, or
/// a mention), `$` or `[` (a link).
///
/// ```
/// let (invoked, unknown) = skills_embed::invoke::parse("/pdf a.pdf", ["pdf"]);
/// assert_eq!((invoked[0].name.as_str(), invoked[0].args.as_str()), ("pdf", "a.pdf"));
/// let (_, unknown) = skills_embed::invoke::parse("try $pfd", ["pdf"]);
/// assert_eq!((unknown[0].text.as_str(), unknown[0].suggestion.as_deref()), ("$pfd", Some("pdf")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The name as written, without its `/`, `$` or link brackets.
    pub name: String,
    /// The arguments as typed (trimmed); only `/name args` at the start of the message has any.
    pub args: String,
    /// The link's target, for `[$name](path)`.
    pub path: Option<String>,
    /// Byte offset of the invocation in the message.
    pub at: usize,
    /// The invocation as written, without its arguments: `/pdf`, `$pdf`, `[$pdf](path)`.
    pub text: String,
    /// For a name that is not a skill the user may invoke: the closest invocable name, when one
    /// is close. `None` for a skill invoked.
    pub suggestion: Option<String>,
}

/// What [`scan`] found in a message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Parsed {
    /// The skills invoked, in message order, each once (the first time it is named).
    invocations: Vec<Invocation>,
    /// Names written like invocations that are unknown or not invocable.
    unknown: Vec<Invocation>,
}

/// Finds the skills a user's message invokes among `names`: the skills the user may invoke.
///
/// - `/name args` at the start of the message (after spaces) invokes `name` with the rest of
///   the message as arguments; nothing after it is parsed.
/// - Otherwise `/name` and `$name` are taken anywhere they start a word (after a space, the
///   start, or one of `(`, `[`, `{`, `"`, `'`, `` ` ``, `,`, `;`) and end one (before a space, the end, or punctuation
///   that does not go on into a path: `/usr/bin`, `a/b`, `http://x/y` and `/a.b` are not
///   invocations). `[$name](path)` is a Codex link.
/// - A name is letters, digits, `-` and `_`. A skill named twice is invoked once.
/// - A name that is not among `names` stays text and is reported in the second list; only
///   `names` are suggested, so a skill the user may not invoke is left out of `names` and
///   reported exactly like an unknown one. A `$word` is reported only when it is close to a
///   name, since `$HOME` or `$5` are ordinary text.
///
/// Returns the skills invoked, in message order, each once (the first time it is named), and
/// the names written like invocations that are unknown or not invocable. Never panics, whatever
/// the message.
///
/// ```
/// use skills_embed::invoke::parse;
/// let message = "use /pdf then $code-review, see [$pdf](skills/pdf/SKILL.md)";
/// let (invoked, _) = parse(message, ["pdf", "code-review"]);
/// let names: Vec<_> = invoked.iter().map(|i| (i.name.as_str(), &message[i.at..][..1])).collect();
/// assert_eq!(names, [("pdf", "/"), ("code-review", "$")]);
///
/// // `deploy` exists, but the user may not invoke it: it is not among the names given.
/// let (invoked, unknown) = parse("/deploy now, or /pfd", ["pdf"]);
/// assert!(invoked.is_empty());
/// let unknown: Vec<_> = unknown.iter().map(|u| (u.text.as_str(), u.suggestion.as_deref())).collect();
/// assert_eq!(unknown, [("/deploy", None), ("/pfd", Some("pdf"))]);
/// ```
pub fn parse<'a>(
    message: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> (Vec<Invocation>, Vec<Invocation>) {
    let found = scan(message, names);
    (found.invocations, found.unknown)
}

/// [`parse`], its two lists in one value.
fn scan<'a>(message: &str, names: impl IntoIterator<Item = &'a str>) -> Parsed {
    let allowed: Vec<&str> = names.into_iter().collect();
    let mut out = Parsed::default();
    let start = message.len() - message.trim_start().len();
    let mut i = 0;
    if message[start..].starts_with('/') {
        let name_end = token_end(message, start + 1);
        let name = &message[start + 1..name_end];
        let ends = message[name_end..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace);
        if !name.is_empty() && ends {
            if allowed.contains(&name) {
                out.invocations.push(Invocation {
                    name: name.to_owned(),
                    args: message[name_end..].trim().to_owned(),
                    path: None,
                    at: start,
                    text: message[start..name_end].to_owned(),
                    suggestion: None,
                });
                return out;
            }
            out.unknown
                .push(unknown(message, start, name_end, &allowed));
            i = name_end;
        }
    }
    while let Some(c) = message[i..].chars().next() {
        let next = i + c.len_utf8();
        let starts_word = message[..i]
            .chars()
            .next_back()
            .is_none_or(|p| p.is_whitespace() || "([{\"'`,;".contains(p));
        if c == '[' && message[next..].starts_with('$') {
            if let Some(end) = link(message, i, &allowed, &mut out) {
                i = end;
                continue;
            }
        } else if (c == '/' || c == '$') && starts_word {
            let name_end = token_end(message, next);
            let name = &message[next..name_end];
            if !name.is_empty() && ends_word(&message[name_end..]) {
                if allowed.contains(&name) {
                    push(&mut out, name, None, &message[i..name_end], i);
                } else {
                    let u = unknown(message, i, name_end, &allowed);
                    if c == '/' || u.suggestion.is_some() {
                        out.unknown.push(u);
                    }
                }
                i = name_end;
                continue;
            }
        }
        i = next;
    }
    out
}

/// Tries `[$name](path)` at `at`; returns where it ends when it is one.
fn link(message: &str, at: usize, allowed: &[&str], out: &mut Parsed) -> Option<usize> {
    let name_start = at + 2;
    let name_end = token_end(message, name_start);
    let name = &message[name_start..name_end];
    let rest = message[name_end..].strip_prefix("](")?;
    let close = rest.find([')', '\n'])?;
    if name.is_empty() || !rest[close..].starts_with(')') {
        return None;
    }
    let end = name_end + 2 + close + 1;
    if allowed.contains(&name) {
        push(
            out,
            name,
            Some(rest[..close].to_owned()),
            &message[at..end],
            at,
        );
    } else {
        let mut u = unknown(message, at, end, allowed);
        u.path = Some(rest[..close].to_owned());
        out.unknown.push(u);
    }
    Some(end)
}

fn push(out: &mut Parsed, name: &str, path: Option<String>, text: &str, at: usize) {
    if out.invocations.iter().all(|i| i.name != name) {
        out.invocations.push(Invocation {
            name: name.to_owned(),
            args: String::new(),
            path,
            at,
            text: text.to_owned(),
            suggestion: None,
        });
    }
}

fn unknown(message: &str, at: usize, end: usize, allowed: &[&str]) -> Invocation {
    let text = &message[at..end];
    let name = text.trim_start_matches(['[', '/', '$']);
    let name = &name[..token_end(name, 0)];
    Invocation {
        name: name.to_owned(),
        args: String::new(),
        path: None,
        at,
        text: text.to_owned(),
        suggestion: closest(name, allowed.iter().copied()),
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The end of the run of name characters from `from`.
fn token_end(text: &str, from: usize) -> usize {
    text[from..]
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(text.len(), |(j, _)| from + j)
}

/// Whether the text after a name ends the word: the end, a space, or punctuation not followed
/// by more of a path or address (`/`, or `.`/`:` then a non-space).
fn ends_word(after: &str) -> bool {
    let mut chars = after.chars();
    match chars.next() {
        None => true,
        Some(c) if c.is_whitespace() => true,
        Some('/' | '\\' | '@' | '$' | '[') => false,
        Some('.' | ':') => chars.next().is_none_or(char::is_whitespace),
        Some(c) => c.is_ascii_punctuation(),
    }
}

/// Splits arguments as a shell would: spaces separate words, `"..."` and `'...'` group, and `\`
/// escapes the next character (outside single quotes; inside double quotes only `"` and `\`).
///
/// An unbalanced quote runs to the end of the text: `a "b c` gives `["a", "b c"]`. A trailing
/// lone `\` is kept as is. Never panics.
pub(crate) fn split_args(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    w.push(c);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\')) => {
                            w.extend(chars.next());
                        }
                        c => w.push(c),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                w.push(chars.next().unwrap_or('\\'));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The names of a skill's named arguments: its `arguments` field (Claude Code's), a list of
/// names or one string of names separated by spaces or commas, as read into its
/// [invocation policy](Skill::invocation). Empty when it has none.
pub(crate) fn argument_names(skill: &Skill) -> Vec<String> {
    skill.policy().arguments().map(str::to_owned).collect()
}

/// The most bytes [`render`] gives: the default size cap of a SKILL.md file.
///
/// A body's placeholders multiply the arguments (a body of 1.98 MB with a 1 KB argument rendered
/// 180 MB), so the size is worked out before anything is allocated and a text over this cap is a
/// [`SkillError::TooLarge`] error instead.
///
/// ```
/// use skills_embed::invoke::{self, MAX_RENDERED_BYTES};
/// use skills_embed::{Fields, Skill, SkillError};
/// let skill = |body| Skill::owned(Fields { name: "pdf".into(), ..Default::default() }, body, vec![]);
/// // A body that fills the cap once the arguments are appended (`\n\nARGUMENTS: ab\n`).
/// let body = "x".repeat(MAX_RENDERED_BYTES - "\n\nARGUMENTS: ab\n".len());
/// assert_eq!(invoke::render(&skill(body.clone()), "ab", None).unwrap().len(), MAX_RENDERED_BYTES);
/// // One byte more is refused, and the error names the cap.
/// let err = invoke::render(&skill(body), "abc", None).unwrap_err();
/// let SkillError::TooLarge { rendered, cap, .. } = err else { panic!("{err}") };
/// assert_eq!((rendered, cap), (MAX_RENDERED_BYTES + 1, MAX_RENDERED_BYTES));
/// ```
pub const MAX_RENDERED_BYTES: usize = 2_000_000;

/// A substitution refused because its text would be over [`MAX_RENDERED_BYTES`]; nothing of that
/// size was allocated. [`render`] names the skill in a [`SkillError::TooLarge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TooLarge {
    /// The size of the text the substitution would give, in bytes (saturating).
    pub(crate) rendered: usize,
    /// The body's size in bytes.
    pub(crate) body: usize,
    /// The placeholders the body has (arguments and skill folder).
    pub(crate) placeholders: usize,
    /// The arguments' size in bytes, trimmed.
    pub(crate) args: usize,
    /// The limit, [`MAX_RENDERED_BYTES`].
    pub(crate) cap: usize,
}

impl TooLarge {
    /// The error for invoking `skill`.
    pub(crate) fn into_error(self, skill: &str) -> SkillError {
        SkillError::TooLarge {
            skill: skill.to_owned(),
            rendered: self.rendered,
            body: self.body,
            placeholders: self.placeholders,
            args: self.args,
            cap: self.cap,
        }
    }
}

/// The text a host inserts when the user invokes `skill` with `args` (as typed): the body with
/// its placeholders filled, as Claude Code does:
///
/// - `$ARGUMENTS`: the arguments as typed; `$ARGUMENTS[N]` and `$N`: the `N`-th word of
///   the arguments split into words as a shell would, counting from 0 (empty when there are fewer);
/// - `$name` for each name of its `arguments` field: the word at that name's position;
/// - `${SKILL_DIR}` and `${CLAUDE_SKILL_DIR}`: `skill_dir`, the folder the skill was extracted
///   to, left as they are when it is `None`.
///
/// When the body has none of the argument placeholders and `args` is not empty, the arguments
/// are appended on a line `ARGUMENTS: <args>` after a blank line. Other `$` text is kept.
///
/// The size of the result is counted first: over [`MAX_RENDERED_BYTES`] it is a
/// [`SkillError::TooLarge`] naming the skill, and nothing of that size is allocated. Every path
/// that fills placeholders (the `skills invoke` command,
/// [`Session::invoke`](crate::tools::Session::invoke), re-attaching after compaction) fills them
/// the same way.
///
/// ```
/// use skills_embed::{Fields, Skill, SkillError, invoke};
/// let skill = |body: &str| Skill::owned(
///     Fields { name: "pdf".into(), ..Fields::default() },
///     body.into(),
///     vec![],
/// );
/// let convert = skill("Convert $0 to $ARGUMENTS[1] ($ARGUMENTS); keep $HOME. Run ${SKILL_DIR}/x.\n");
/// assert_eq!(
///     invoke::render(&convert, "a.md pdf", Some("/tmp/pdf")).unwrap(),
///     "Convert a.md to pdf (a.md pdf); keep $HOME. Run /tmp/pdf/x.\n"
/// );
/// assert_eq!(invoke::render(&skill("Review."), "src/lib.rs", None).unwrap(), "Review.\n\nARGUMENTS: src/lib.rs\n");
///
/// let err = invoke::render(&skill(&"$0 ".repeat(100_000)), &"a".repeat(100), None).unwrap_err();
/// assert!(matches!(err, SkillError::TooLarge { rendered: 10_100_000, .. }));
/// assert_eq!(
///     err.to_string(),
///     "Invoking skill \"pdf\" with these arguments would give 10100000 bytes of text (a body \
///      of 300000 bytes with 100000 placeholders, arguments of 100 bytes); the limit is 2000000 \
///      bytes. Invoke it with shorter arguments, or without them."
/// );
/// ```
pub fn render(skill: &Skill, args: &str, skill_dir: Option<&str>) -> Result<String, SkillError> {
    let names: Vec<&str> = skill.policy().arguments().collect();
    substitute(skill.body(), args, &names, skill_dir).map_err(|e| e.into_error(skill.name()))
}

/// Fills a body's placeholders from `args` (as typed), the named ones from `named`, as
/// [`render`] says; its error does not know the skill.
pub(crate) fn substitute(
    body: &str,
    args: &str,
    named: &[&str],
    skill_dir: Option<&str>,
) -> Result<String, TooLarge> {
    let args = args.trim();
    let words = split_args(args);
    let fill = Fill {
        args,
        words: &words,
        named,
        skill_dir,
    };
    // First the size, so that an amplifying body is refused before anything is allocated.
    let mut size = 0usize;
    let mut last = None;
    let counted = fill.run(body, &mut |piece: &str| {
        size = size.saturating_add(piece.len());
        last = piece.as_bytes().last().copied().or(last);
    });
    let append = counted.arguments == 0 && !args.is_empty();
    if append {
        let gap = match last {
            None => 0,
            Some(b'\n') => 1,
            Some(_) => 2,
        };
        size = size.saturating_add(gap + "ARGUMENTS: \n".len() + args.len());
    }
    if size > MAX_RENDERED_BYTES {
        return Err(TooLarge {
            rendered: size,
            body: body.len(),
            placeholders: counted.all,
            args: args.len(),
            cap: MAX_RENDERED_BYTES,
        });
    }
    let mut out = String::with_capacity(size);
    fill.run(body, &mut |piece: &str| out.push_str(piece));
    if append {
        if !out.is_empty() {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
        }
        out.push_str("ARGUMENTS: ");
        out.push_str(args);
        out.push('\n');
    }
    debug_assert_eq!(out.len(), size, "the count and the text disagree");
    Ok(out)
}

/// What fills the placeholders of one substitution.
struct Fill<'a> {
    args: &'a str,
    words: &'a [String],
    named: &'a [&'a str],
    skill_dir: Option<&'a str>,
}

/// How many placeholders [`Fill::run`] filled.
struct Filled {
    /// Argument placeholders: without any, the arguments are appended.
    arguments: usize,
    /// All of them, the skill folder's included.
    all: usize,
}

impl Fill<'_> {
    /// Hands `emit` the pieces of the filled body in order: the one scan behind both the size
    /// count and the text, so the two cannot disagree.
    fn run(&self, body: &str, emit: &mut impl FnMut(&str)) -> Filled {
        let word = |n: Option<usize>| n.and_then(|n| self.words.get(n)).map_or("", String::as_str);
        let mut filled = Filled {
            arguments: 0,
            all: 0,
        };
        let mut rest = body;
        while let Some(at) = rest.find('$') {
            emit(&rest[..at]);
            let after = &rest[at + 1..];
            let mut taken = 0;
            if let Some(dir) = self.skill_dir {
                for var in ["{SKILL_DIR}", "{CLAUDE_SKILL_DIR}"] {
                    if after.starts_with(var) {
                        emit(dir);
                        taken = var.len();
                        filled.all += 1;
                    }
                }
            }
            if taken == 0 {
                let digits =
                    after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let name_len = token_len(after);
                if let Some(index) = after.strip_prefix("ARGUMENTS[").and_then(|r| {
                    let d = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    (d > 0 && r[d..].starts_with(']')).then(|| (r[..d].parse().ok(), d))
                }) {
                    emit(word(index.0));
                    taken = "ARGUMENTS[".len() + index.1 + 1;
                } else if &after[..name_len] == "ARGUMENTS" {
                    emit(self.args);
                    taken = name_len;
                } else if digits > 0 {
                    emit(word(after[..digits].parse().ok()));
                    taken = digits;
                } else if name_len > 0
                    && let Some(n) = self.named.iter().position(|n| *n == &after[..name_len])
                {
                    emit(word(Some(n)));
                    taken = name_len;
                }
                if taken > 0 {
                    filled.arguments += 1;
                    filled.all += 1;
                }
            }
            if taken == 0 {
                emit("$");
            }
            rest = &after[taken..];
        }
        emit(rest);
        filled
    }
}

/// The length of a placeholder name (letters, digits, `_`, not starting with a digit).
fn token_len(text: &str) -> usize {
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        return 0;
    }
    text.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len())
}

/// Whether the user may invoke a skill: its [invocation policy](Skill::invocation) says so
/// (not when Claude Code's `user-invocable` is `false`). Reads a flag; parses nothing.
pub(crate) fn is_user_invocable(skill: &Skill) -> bool {
    skill.policy().user_may_invoke()
}

/// The skills a user may invoke (their invocation policy allows it), in the order given: a menu
/// line is a skill's name, description and [`InvocationFields::argument_hint`]. Skills the model
/// may not invoke are in it: the user can still run them.
///
/// ```
/// use skills_embed::{Fields, invoke::InvocationFields, Skill, invoke};
/// let skill = |name: &str, invocation: InvocationFields| Skill::owned(
///     Fields { name: name.into(), description: "D.".into(), invocation, ..Fields::default() },
///     String::new(),
///     vec![],
/// );
/// let skills = [
///     skill("pdf", InvocationFields { argument_hint: Some("[file]".into()), ..InvocationFields::default() }),
///     skill("internal", InvocationFields { user_may_invoke: false, ..InvocationFields::default() }),
///     skill("deploy", InvocationFields { model_may_invoke: false, ..InvocationFields::default() }),
/// ];
/// let menu: Vec<&Skill> = invoke::menu(&skills).collect();
/// assert_eq!(menu.iter().map(|s| s.name()).collect::<Vec<_>>(), ["pdf", "deploy"]);
/// assert_eq!(menu[0].invocation().argument_hint.as_deref(), Some("[file]"));
/// ```
pub fn menu(skills: &[Skill]) -> impl Iterator<Item = &Skill> {
    skills.iter().filter(|s| is_user_invocable(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fields;

    fn sub(body: &str, args: &str, named: &[&str], dir: Option<&str>) -> String {
        substitute(body, args, named, dir).unwrap()
    }

    const NAMES: [&str; 3] = ["pdf", "code-review", "caf\u{e9}"];

    /// How an invocation was written, read from the message at its offset.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Syntax {
        Command,
        Slash,
        Dollar,
        Link,
    }

    fn names<'a>(message: &str, p: &'a Parsed) -> Vec<(&'a str, Syntax)> {
        let start = message.len() - message.trim_start().len();
        p.invocations
            .iter()
            .map(|i| {
                let syntax = match message.as_bytes()[i.at] {
                    b'/' if i.at == start => Syntax::Command,
                    b'/' => Syntax::Slash,
                    b'$' => Syntax::Dollar,
                    _ => Syntax::Link,
                };
                (i.name.as_str(), syntax)
            })
            .collect()
    }

    #[test]
    fn a_command_at_the_start_takes_the_rest_as_arguments() {
        let message = r#"  /pdf fill a.pdf "b c" and /code-review"#;
        let p = scan(message, NAMES);
        assert_eq!(names(message, &p), [("pdf", Syntax::Command)]);
        assert_eq!(
            p.invocations[0].args,
            r#"fill a.pdf "b c" and /code-review"#
        );
        assert_eq!(p.invocations[0].at, 2);
        assert!(p.unknown.is_empty());
        let p = scan("/pdf", NAMES);
        assert_eq!(p.invocations[0].args, "");
    }

    #[test]
    fn several_mentions_in_one_message() {
        let message =
            "Please /pdf this, then ($code-review) and [$caf\u{e9}](a/SKILL.md). /pdf again";
        let p = scan(message, NAMES);
        assert_eq!(
            names(message, &p),
            [
                ("pdf", Syntax::Slash),
                ("code-review", Syntax::Dollar),
                ("caf\u{e9}", Syntax::Link)
            ]
        );
        assert_eq!(p.invocations[2].path.as_deref(), Some("a/SKILL.md"));
        assert_eq!(p.invocations[0].at, 7);
    }

    #[test]
    fn paths_and_urls_are_not_invocations() {
        for text in [
            "see a/pdf",
            "http://x/pdf",
            "https://example.com/pdf/x",
            "/pdf/forms.md",
            "open /pdf.txt",
            "cost $pdf5",
            "x$pdf",
            "/pdfs",
            "mail me@/pdf",
            "C:\\pdf\\x",
        ] {
            let p = scan(text, NAMES);
            assert!(p.invocations.is_empty(), "{text}: {p:?}");
        }
        // Sentence punctuation after a name is fine.
        let message = "run /pdf. Then /code-review: ok, $pdf!";
        let p = scan(message, NAMES);
        assert_eq!(
            names(message, &p),
            [("pdf", Syntax::Slash), ("code-review", Syntax::Slash)]
        );
    }

    #[test]
    fn unknown_and_refused_names_are_reported_as_text() {
        let p = scan(
            "/pfd x and /tmp and $HOME and $pfd and [$nope](x) and /code-review",
            NAMES.iter().copied().filter(|n| *n != "code-review"),
        );
        assert!(p.invocations.is_empty());
        let reported: Vec<_> = p
            .unknown
            .iter()
            .map(|u| (u.text.as_str(), u.at, u.suggestion.as_deref()))
            .collect();
        assert_eq!(
            reported,
            [
                ("/pfd", 0, Some("pdf")),
                ("/tmp", 11, None),
                ("$pfd", 30, Some("pdf")),
                ("[$nope](x)", 39, None),
                ("/code-review", 54, None),
            ]
        );
        // After an unknown command, mentions are still found.
        let message = "/pfd but /pdf";
        assert_eq!(
            names(message, &scan(message, NAMES)),
            [("pdf", Syntax::Slash)]
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(split_args(r#"fill a.pdf "b c""#), ["fill", "a.pdf", "b c"]);
        assert_eq!(split_args(r#"a"b c"d 'e f'g"#), ["ab cd", "e fg"]);
        assert_eq!(split_args(r#""" ''"#), ["", ""]);
        assert_eq!(split_args(r#"a "b c"#), ["a", "b c"]);
        assert_eq!(split_args("a 'b c"), ["a", "b c"]);
        assert_eq!(split_args(r#"a\ b "q\"x" \"#), ["a b", "q\"x", "\\"]);
        assert_eq!(split_args(r#""unbalanced \"#), [r#"unbalanced \"#]);
        assert!(split_args("").is_empty());
    }

    #[test]
    fn each_substitution_form() {
        let args = r#"a.pdf "b c" d"#;
        assert_eq!(sub("[$ARGUMENTS]", args, &[], None), format!("[{args}]"));
        assert_eq!(sub("$ARGUMENTS[1]|$ARGUMENTS[9]", args, &[], None), "b c|");
        assert_eq!(sub("$0 $1 $2 $3.", args, &[], None), "a.pdf b c d .");
        assert_eq!(
            sub("$file/$values/$other", args, &["file", "values"], None),
            "a.pdf/b c/$other"
        );
        assert_eq!(
            sub("${SKILL_DIR}/x ${CLAUDE_SKILL_DIR}", "", &[], Some("/s")),
            "/s/x /s"
        );
        assert_eq!(sub("${SKILL_DIR}/x", "", &[], None), "${SKILL_DIR}/x");
        assert_eq!(
            sub(
                "$ARGUMENTSX $ARGUMENTS[x] $99999999999999999999999",
                "a",
                &[],
                None
            ),
            "$ARGUMENTSX a[x] "
        );
        // `$ARGUMENTS[x]` is `$ARGUMENTS` then text, so no arguments are appended.
    }

    #[test]
    fn arguments_are_appended_only_without_placeholders() {
        assert_eq!(
            sub("Do it.\n", " x y ", &[], None),
            "Do it.\n\nARGUMENTS: x y\n"
        );
        assert_eq!(sub("Do $0.\n", "x y", &[], None), "Do x.\n");
        assert_eq!(sub("Do it.\n", "", &[], None), "Do it.\n");
        assert_eq!(sub("", "x", &[], None), "ARGUMENTS: x\n");
        // A named placeholder counts only for a declared name.
        assert_eq!(sub("Cost $5 for $who", "x", &["who"], None), "Cost  for x");
    }

    /// Issue 25: placeholders multiplied the arguments without bound (a 1.98 MB body with a
    /// 1 KB argument rendered 180 MB; 128 KB aborted on a multi-GB allocation).
    #[test]
    fn what_substitution_renders_is_capped_for_every_placeholder() {
        let arg = "a".repeat(1_000);
        let dir = "/d".repeat(500);
        for (one, named) in [
            ("$ARGUMENTS ", &[][..]),
            ("$0 ", &[]),
            ("$ARGUMENTS[0] ", &[]),
            ("$file ", &["file"]),
            ("${SKILL_DIR} ", &[]),
            ("${CLAUDE_SKILL_DIR} ", &[]),
        ] {
            let count = 1_980_000 / one.len();
            let body = one.repeat(count);
            let err = substitute(&body, &arg, named, Some(&dir)).unwrap_err();
            // Without an argument placeholder the arguments are appended after a blank line.
            let appended = if one.starts_with("${") { 1_014 } else { 0 };
            let rendered = count * 1_001 + appended;
            assert_eq!(err.rendered, rendered, "{one}");
            assert_eq!(
                (err.body, err.placeholders, err.args, err.cap),
                (body.len(), count, 1_000, MAX_RENDERED_BYTES),
                "{one}"
            );
            let err = err.into_error("pdf").to_string();
            assert!(
                err.starts_with(&format!(
                    "Invoking skill \"pdf\" with these arguments would give {rendered} bytes of text"
                )),
                "{err}"
            );
        }
        // The issue's abort: 128 KB arguments, refused before anything is allocated.
        let body = "$ARGUMENTS".repeat(198_000);
        let err = substitute(&body, &"b".repeat(128 * 1024), &[], None).unwrap_err();
        assert_eq!(err.rendered, 198_000 * 128 * 1024);
        // Exactly at the cap is fine, one byte over is not; the appended line counts.
        let body = "x".repeat(MAX_RENDERED_BYTES - "\n\nARGUMENTS: ab\n".len());
        assert_eq!(
            substitute(&body, "ab", &[], None).unwrap().len(),
            MAX_RENDERED_BYTES
        );
        let err = substitute(&body, "abc", &[], None).unwrap_err();
        assert_eq!(
            (err.rendered, err.placeholders),
            (MAX_RENDERED_BYTES + 1, 0)
        );
    }

    #[test]
    fn render_uses_named_arguments_and_menu_reads_hints() {
        let skill = Skill::owned(
            Fields {
                name: "pdf".into(),
                description: "PDF.".into(),
                invocation: crate::model::invocation::InvocationFields {
                    argument_hint: Some("[file] [out]".into()),
                    arguments: vec!["file".into(), "out".into()],
                    ..crate::model::invocation::InvocationFields::default()
                },
                ..Fields::default()
            },
            "From $file to $out.\n".into(),
            vec![],
        );
        assert_eq!(render(&skill, "a 'b c'", None).unwrap(), "From a to b c.\n");
        let menu: Vec<&Skill> = menu(std::slice::from_ref(&skill)).collect();
        assert_eq!(
            menu[0].invocation().argument_hint.as_deref(),
            Some("[file] [out]")
        );
        assert!(is_user_invocable(&skill));
    }

    #[test]
    fn odd_input_never_panics() {
        let odd = [
            "",
            "/",
            "$",
            "[$",
            "[$]",
            "[$](",
            "[$pdf](",
            "[$pdf](x",
            "[$pdf](x\n)",
            "/ ",
            "$ ",
            "//",
            "$$",
            "/\u{e9}",
            "$\u{1F600}",
            "\u{1F600}/pdf",
            "é/pdf",
            "/pdf\u{301}",
            "\\",
            "\"",
            "'",
            "$ARGUMENTS[",
            "$ARGUMENTS[1",
            "${SKILL_DIR",
            "${",
            "$0$",
            "\u{0}/pdf",
            "/pdf\u{2028}x",
            "[$pdf](x)",
            "[[$pdf](x)](y)",
        ];
        for a in odd {
            for b in odd {
                let text = format!("{a}{b}");
                let p = scan(&text, NAMES);
                for i in &p.invocations {
                    assert!(text.is_char_boundary(i.at));
                }
                let _ = split_args(&text);
                let _ = substitute(&text, &text, &["pdf", ""], Some("/d"));
                let _ = substitute(&text, "", &[], None);
            }
        }
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn max_rendered_bytes_example() {
        use crate::invoke::{MAX_RENDERED_BYTES, substitute};
        let body = "$ARGUMENTS ".repeat(1_000);
        let err = substitute(&body, &"x".repeat(10_000), &[], None).unwrap_err();
        assert_eq!((err.cap, err.rendered), (MAX_RENDERED_BYTES, 10_001_000));
    }

    #[test]
    fn split_args_example() {
        use crate::invoke::split_args;
        assert_eq!(split_args(r#"fill a.pdf "b c""#), ["fill", "a.pdf", "b c"]);
        assert_eq!(split_args(r#"it\'s 'x y' "z"#), ["it's", "x y", "z"]);
        assert!(split_args("   ").is_empty());
    }
    #[test]
    fn argument_names_example() {
        use crate::{Fields, Skill, invoke, invoke::InvocationFields};
        let invocation = InvocationFields {
            arguments: vec!["file".into(), "values".into()],
            ..InvocationFields::default()
        };
        let skill = Skill::owned(
            Fields {
                name: "pdf".into(),
                invocation,
                ..Fields::default()
            },
            "Fill $file.\n".into(),
            vec![],
        );
        assert_eq!(invoke::argument_names(&skill), ["file", "values"]);
    }
    #[test]
    fn is_user_invocable_example() {
        use crate::{Fields, Skill, invoke, invoke::InvocationFields};
        let invocation = InvocationFields {
            user_may_invoke: false,
            ..InvocationFields::default()
        };
        let skill = Skill::owned(
            Fields {
                name: "style".into(),
                invocation,
                ..Fields::default()
            },
            String::new(),
            vec![],
        );
        assert!(!invoke::is_user_invocable(&skill));
    }
}
