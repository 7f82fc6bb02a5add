//! The L1 listing: every skill's name and description, for the system prompt or a tool
//! description.
//!
//! Formats: the reference `<available_skills>` XML (byte for byte what the reference
//! implementation prints), a Markdown list (the default, and the cheapest in tokens), or a
//! template of your own.
//!
//! One budget, [`ListingOptions::budget`] (a [`Budget`] in characters, in tokens or as a share of
//! a context window): it caps each description (1,536 characters by default), then shortens
//! every description before any skill is reduced to its name, keeps the skills named in
//! [`ListingOptions::usage`] whole longest, and counts tokens with a pluggable counter (an
//! estimate unless you give one). A closing line says what was shortened: a skill never
//! disappears silently.
//!
//! A set renders its listing with [`SkillSet::listing`](crate::SkillSet::listing) (the embedded
//! set's default listing is precomputed: [`SkillSet::summary`](crate::SkillSet::summary)); tools
//! render the skills a model may see with [`Tools::listing`](crate::tools::Tools::listing). Both take
//! a [`ListingOptions`].
//!
//! With no skills the listing is the empty string, in every format: there is nothing to list, and
//! no tool to offer either ([`Tools::definitions`](crate::tools::Tools::definitions) is empty).

use std::fmt::Write;

use crate::text::{one_line, quote_name};

/// How the listing is written, named as options and the command line write it: `markdown`
/// (or `md`), `xml`; a template is given as [`ListingFormat::Template`].
///
/// ```
/// use skills_embed::listing::ListingFormat;
/// assert_eq!("xml".parse(), Ok(ListingFormat::Xml));
/// assert!("html".parse::<ListingFormat>().is_err());
/// ```
#[derive(
    Debug,
    Clone,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum ListingFormat {
    /// `- name: description`, one line per skill.
    #[default]
    #[strum(to_string = "markdown", serialize = "md")]
    Markdown,
    /// The reference `<available_skills>` XML, one element per line, text XML-escaped.
    Xml,
    /// A template applied per skill: `{name}`, `{description}` (on one line), `{resources}`,
    /// `{scripts}` (`yes`/`no`) and `{chunks}` (comma-separated ids) are replaced.
    #[strum(disabled)]
    Template(String),
}

/// Listing options.
///
/// ```
/// use skills_embed::listing::{Budget, ListingFormat, ListingOptions};
/// let options = ListingOptions { budget: Some(Budget::Chars(8_000)), ..ListingOptions::default() };
/// assert_eq!(options.format, ListingFormat::Markdown);
///
/// // 1% of a 200k-token window, tokens counted by your tokenizer, `pdf` used last.
/// fn count(text: &str) -> usize { text.split_whitespace().count() * 4 / 3 }
/// let options = ListingOptions {
///     budget: Some(Budget::ContextShare { window_tokens: 200_000, percent: 1 }),
///     counter: Some(count),
///     usage: vec!["pdf".into()],
///     ..ListingOptions::default()
/// };
/// assert_ne!(options, ListingOptions::default());
/// ```
#[derive(Debug, Clone, Default)]
pub struct ListingOptions {
    /// The format.
    pub format: ListingFormat,
    /// Say which skills have resources, scripts or chunks.
    pub hints: bool,
    /// The most the listing may take, in characters or tokens; see [`Budget`] for what is
    /// shortened first.
    pub budget: Option<Budget>,
    /// Counts the tokens of a listing for [`Budget::Tokens`] and [`Budget::ContextShare`]: any
    /// `fn(&str) -> usize`, such as a closure that captures nothing and calls a real tokenizer
    /// held in a `static`. When `None`, an estimate that needs no tokenizer: a run of ASCII
    /// letters costs one token per 8 letters, a run of digits one per 3, a run of punctuation
    /// one per 2, a line break one, other spaces nothing, any other character one, never below
    /// a fifth of the characters. It errs high on English text; give a real tokenizer when the
    /// budget must hold exactly.
    pub counter: Option<fn(&str) -> usize>,
    /// The most characters of one description, applied when `budget` is set; 1,536 (what
    /// Claude Code allows) when `None`.
    pub description_cap: Option<usize>,
    /// Skill names, most recently used first: under `budget`, these are shortened last, the
    /// most recent last of all.
    pub usage: Vec<String>,
}

/// Options are equal when every field is; two counters are equal when they are the same
/// function pointer (which the compiler may or may not merge: compare options without counters
/// when that matters).
impl PartialEq for ListingOptions {
    fn eq(&self, other: &Self) -> bool {
        let counters = match (self.counter, other.counter) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::fn_addr_eq(a, b),
            _ => false,
        };
        counters
            && self.format == other.format
            && self.hints == other.hints
            && self.budget == other.budget
            && self.description_cap == other.description_cap
            && self.usage == other.usage
    }
}

impl Eq for ListingOptions {}

/// What [`ListingOptions::budget`] counts and how much of it the listing may take.
///
/// Under a budget the listing is reduced in this order, stopping as soon as it fits:
///
/// 1. every description is cut to the per-entry cap ([`ListingOptions::description_cap`],
///    1,536 characters by default);
/// 2. the descriptions of the skills not named in [`ListingOptions::usage`] are cut to one
///    common length, as long as fits, down to 32 characters;
/// 3. the same for the recently used skills;
/// 4. skills are listed by name only: first those not recently used, from the end of the
///    listing, then the recently used ones, least recent first.
///
/// A cut description ends with `…`. A closing line counts what was shortened and what is listed
/// by name only. Every skill stays named: if even the names do not fit, the listing of names is
/// returned over budget.
///
/// ```
/// use skills_embed::listing::{Budget, ListingOptions};
/// // 1% of a 200k-token window: 2,000 tokens.
/// let budget = Budget::ContextShare { window_tokens: 200_000, percent: 1 };
/// let options = ListingOptions { budget: Some(budget), ..ListingOptions::default() };
/// assert_eq!(options.budget, Some(budget));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Budget {
    /// At most this many characters.
    Chars(usize),
    /// At most this many tokens, by [`ListingOptions::counter`].
    Tokens(usize),
    /// At most `percent` percent of a context window of `window_tokens` tokens.
    ContextShare {
        /// The model's context window, in tokens.
        window_tokens: usize,
        /// The share of it the listing may take, in percent.
        percent: u32,
    },
}

impl Budget {
    /// The limit, in characters for [`Budget::Chars`], else in tokens.
    pub(crate) fn limit(&self) -> usize {
        match *self {
            Budget::Chars(n) | Budget::Tokens(n) => n,
            Budget::ContextShare {
                window_tokens,
                percent,
            } => window_tokens.saturating_mul(percent as usize) / 100,
        }
    }

    /// Whether the limit is in tokens.
    pub(crate) fn counts_tokens(&self) -> bool {
        !matches!(self, Budget::Chars(_))
    }
}

/// A token counter: the number of tokens of a text, for the model's tokenizer.
pub(crate) type TokenCounter = fn(&str) -> usize;

/// The most characters of one description under a budget, unless
/// [`ListingOptions::description_cap`] says otherwise (what Claude Code allows).
pub(crate) const DEFAULT_DESCRIPTION_CAP: usize = 1_536;

/// The shortest a budget cuts a description to before listing its skill by name only.
pub(crate) const MIN_DESCRIPTION_CHARS: usize = 32;

/// An estimate of the tokens of `text` for a BPE tokenizer such as OpenAI's o200k, with no
/// tokenizer: the default counter (see [`ListingOptions::counter`] for the method). Tests and
/// benchmarks reach it through `__private`.
pub(crate) fn estimate_tokens(text: &str) -> usize {
    #[derive(PartialEq, Clone, Copy)]
    enum Run {
        None,
        Letters,
        Digits,
        Punct,
    }
    let mut tokens = 0usize;
    let mut run = Run::None;
    let mut len = 0usize;
    let close = |run: Run, len: usize| match run {
        Run::None => 0,
        Run::Letters => len.div_ceil(8),
        Run::Digits => len.div_ceil(3),
        Run::Punct => len.div_ceil(2),
    };
    for c in text.chars() {
        let kind = if c.is_ascii_alphabetic() {
            Run::Letters
        } else if c.is_ascii_digit() {
            Run::Digits
        } else if c.is_ascii_punctuation() {
            Run::Punct
        } else {
            Run::None
        };
        if kind != run || kind == Run::None {
            tokens += close(run, len);
            run = kind;
            len = 0;
        }
        match kind {
            Run::None if c == '\n' => tokens += 1,
            Run::None if c.is_whitespace() => {}
            Run::None => tokens += 1,
            _ => len += 1,
        }
    }
    tokens += close(run, len);
    tokens.max(text.chars().count().div_ceil(5))
}

/// One skill as the listing sees it.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct Entry<'a> {
    /// The name.
    pub name: &'a str,
    /// The description.
    pub description: &'a str,
    /// Claude Code's `when_to_use`: listed after the description, as `description - when_to_use`,
    /// the two cut together to the description cap.
    pub when_to_use: Option<&'a str>,
    /// Where its SKILL.md is, for skills on disk (XML `<location>`).
    pub location: Option<&'a str>,
    /// Whether it has files other than SKILL.md.
    pub has_resources: bool,
    /// Whether it has files under `scripts/` or executable files.
    pub has_scripts: bool,
    /// Its chunk ids.
    pub chunks: Vec<&'a str>,
}

/// Renders the listing of `entries` in order.
#[doc(hidden)]
pub fn render(entries: &[Entry<'_>], options: &ListingOptions) -> String {
    if entries.is_empty() {
        return String::new();
    }
    // Claude Code's `when_to_use`: appended to the description in every format, the two cut
    // together to the description cap, budget or not (what Claude Code lists).
    if entries.iter().any(|e| e.when_to_use.is_some()) {
        let cap = options
            .description_cap
            .unwrap_or(DEFAULT_DESCRIPTION_CAP)
            .max(MIN_DESCRIPTION_CHARS);
        let combined: Vec<Option<String>> = entries
            .iter()
            .map(|e| {
                let when = e.when_to_use.filter(|w| !w.trim().is_empty())?;
                let text = format!("{} - {}", e.description, when.trim());
                Some(crate::text::clip(&text, cap).into_owned())
            })
            .collect();
        let resolved: Vec<Entry<'_>> = entries
            .iter()
            .zip(&combined)
            .map(|(e, text)| Entry {
                description: text.as_deref().unwrap_or(e.description),
                when_to_use: None,
                chunks: e.chunks.clone(),
                ..*e
            })
            .collect();
        return render(&resolved, options);
    }
    match options.budget {
        Some(budget) => render_budgeted(entries, options, budget),
        None => render_with(entries, options, &vec![false; entries.len()], None),
    }
}

/// How far a budget has reduced the listing: each entry's description limit in characters and
/// whether it is listed by name only.
#[derive(Clone)]
struct Plan {
    limits: Vec<usize>,
    name_only: Vec<bool>,
}

/// Renders under a [`Budget`]: see its documentation for the order of reductions.
fn render_budgeted(entries: &[Entry<'_>], options: &ListingOptions, budget: Budget) -> String {
    let counter = options.counter.unwrap_or(estimate_tokens);
    let cost = |text: &str| {
        if budget.counts_tokens() {
            counter(text)
        } else {
            text.chars().count()
        }
    };
    let limit = budget.limit();
    let cap = options
        .description_cap
        .unwrap_or(DEFAULT_DESCRIPTION_CAP)
        .max(MIN_DESCRIPTION_CHARS);
    let n = entries.len();
    // Position in the usage order (most recent first), for the recently used skills.
    let recency: Vec<Option<usize>> = entries
        .iter()
        .map(|e| options.usage.iter().position(|u| u == e.name))
        .collect();
    let attempt = |plan: &Plan| render_plan(entries, options, plan);
    let fits = |plan: &Plan| cost(&attempt(plan)) <= limit;

    // 1. The per-entry cap.
    let mut plan = Plan {
        limits: vec![cap; n],
        name_only: vec![false; n],
    };
    if fits(&plan) {
        return attempt(&plan);
    }
    let group = |recent: bool| -> Vec<usize> {
        (0..n).filter(|&i| recency[i].is_some() == recent).collect()
    };
    // `plan` with the descriptions of `members` cut to `length`.
    let with_length = |plan: &Plan, members: &[usize], length: usize| {
        let mut p = plan.clone();
        for &i in members {
            p.limits[i] = length;
        }
        p
    };
    // 2 and 3. One common length for the others, then for the recently used skills.
    for recent in [false, true] {
        let members = group(recent);
        if fits(&with_length(&plan, &members, MIN_DESCRIPTION_CHARS)) {
            let length = largest(MIN_DESCRIPTION_CHARS, cap, |l| {
                fits(&with_length(&plan, &members, l))
            });
            return attempt(&with_length(&plan, &members, length));
        }
        plan = with_length(&plan, &members, MIN_DESCRIPTION_CHARS);
    }
    // 4. Names only: the others from the end of the listing, then the recent, least recent first.
    let mut order: Vec<usize> = (0..n).rev().filter(|&i| recency[i].is_none()).collect();
    let mut recent: Vec<usize> = (0..n).filter(|&i| recency[i].is_some()).collect();
    recent.sort_by_key(|&i| std::cmp::Reverse(recency[i]));
    order.extend(recent);
    let with = |k: usize| {
        let mut p = plan.clone();
        for &i in order.iter().take(k) {
            p.name_only[i] = true;
        }
        p
    };
    // The fewest names-only that fit: the most that do not, plus one.
    if !fits(&with(n)) {
        return attempt(&with(n));
    }
    let k = largest(0, n, |k| k == 0 || !fits(&with(k))) + 1;
    let mut plan = with(k.min(n));
    // What the names-only entries freed goes back to the descriptions left: the recently used
    // skills first, then the others.
    for recent in [true, false] {
        let members = group(recent);
        let length = largest(MIN_DESCRIPTION_CHARS, cap, |l| {
            fits(&with_length(&plan, &members, l))
        });
        plan = with_length(&plan, &members, length);
    }
    attempt(&plan)
}

/// The largest value in `lo..=hi` for which `ok` holds, given that it holds for `lo`, searching
/// as if `ok` held up to some value and not beyond.
fn largest(lo: usize, hi: usize, ok: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Renders a [`Plan`]: descriptions cut to their limits, names only where it says, and a closing
/// line counting both.
fn render_plan(entries: &[Entry<'_>], options: &ListingOptions, plan: &Plan) -> String {
    let mut cut_count = 0;
    let descriptions: Vec<std::borrow::Cow<'_, str>> = entries
        .iter()
        .zip(&plan.limits)
        .zip(&plan.name_only)
        .map(|((e, &limit), &name_only)| {
            let text = crate::text::clip(e.description, limit);
            if !name_only && matches!(text, std::borrow::Cow::Owned(_)) {
                cut_count += 1;
            }
            text
        })
        .collect();
    let cut_entries: Vec<Entry<'_>> = entries
        .iter()
        .zip(&descriptions)
        .map(|(e, d)| Entry {
            description: d,
            chunks: e.chunks.clone(),
            ..*e
        })
        .collect();
    let names = plan.name_only.iter().filter(|&&b| b).count();
    let note = budget_note(cut_count, names);
    render_with(&cut_entries, options, &plan.name_only, note.as_deref())
}

/// The closing line under a [`Budget`], if anything was shortened.
fn budget_note(cut: usize, names: usize) -> Option<String> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (cut, names) {
        (0, 0) => None,
        (c, 0) => Some(format!(
            "{} to fit the listing budget: load a skill to read it whole",
            plural(c, "description shortened", "descriptions shortened")
        )),
        (0, n) => Some(format!(
            "{} by name only: load one to read it",
            plural(n, "skill listed", "skills listed")
        )),
        (c, n) => Some(format!(
            "{}, {} by name only: load one to read it",
            plural(c, "description shortened", "descriptions shortened"),
            plural(n, "skill listed", "skills listed")
        )),
    }
}

/// Renders `entries`, those flagged in `name_only` as names only, then `note` as a closing line.
fn render_with(
    entries: &[Entry<'_>],
    options: &ListingOptions,
    name_only: &[bool],
    note: Option<&str>,
) -> String {
    let full = |i: usize| !name_only.get(i).copied().unwrap_or(false);
    let mut out = String::new();
    match &options.format {
        ListingFormat::Markdown => {
            for (i, e) in entries.iter().enumerate() {
                let _ = write!(out, "- {}", quote_name(e.name));
                if full(i) {
                    out.push_str(": ");
                    push_one_line(&mut out, e.description);
                    if options.hints {
                        push_hints(&mut out, e);
                    }
                }
                out.push('\n');
            }
            if let Some(note) = note {
                let _ = writeln!(out, "({note})");
            }
        }
        ListingFormat::Xml => {
            out.push_str("<available_skills>");
            for (i, e) in entries.iter().enumerate() {
                out.push_str("\n<skill>\n<name>\n");
                push_escaped(&mut out, &quote_name(e.name));
                out.push_str("\n</name>");
                if full(i) {
                    out.push_str("\n<description>\n");
                    push_escaped(&mut out, e.description);
                    out.push_str("\n</description>");
                }
                if let Some(location) = e.location {
                    out.push_str("\n<location>\n");
                    push_escaped(&mut out, &one_line(location));
                    out.push_str("\n</location>");
                }
                if options.hints && full(i) {
                    for (tag, on) in [
                        ("has_resources", e.has_resources),
                        ("has_scripts", e.has_scripts),
                    ] {
                        let _ = write!(out, "\n<{tag}>\n{on}\n</{tag}>");
                    }
                    if !e.chunks.is_empty() {
                        out.push_str("\n<chunks>\n");
                        push_escaped(&mut out, &names(&e.chunks));
                        out.push_str("\n</chunks>");
                    }
                }
                out.push_str("\n</skill>");
            }
            if let Some(note) = note {
                let _ = write!(out, "\n<!-- {note} -->");
            }
            out.push_str("\n</available_skills>");
        }
        ListingFormat::Template(template) => {
            for (i, e) in entries.iter().enumerate() {
                if full(i) {
                    let mut description = String::new();
                    push_one_line(&mut description, e.description);
                    fill(
                        &mut out,
                        template,
                        &[
                            ("{name}", &quote_name(e.name)),
                            ("{description}", &description),
                            ("{resources}", yes_no(e.has_resources)),
                            ("{scripts}", yes_no(e.has_scripts)),
                            ("{chunks}", &names(&e.chunks)),
                        ],
                    );
                } else {
                    let _ = writeln!(out, "- {}", quote_name(e.name));
                }
            }
            if let Some(note) = note {
                let _ = writeln!(out, "({note})");
            }
        }
    }
    out
}

/// Writes `template` with each placeholder replaced by its value, in one pass: a value that
/// holds a placeholder's text (a description saying `{name}`) is written as it is.
fn fill(out: &mut String, template: &str, values: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match values.iter().find(|(key, _)| rest.starts_with(key)) {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[key.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

fn yes_no(on: bool) -> &'static str {
    if on { "yes" } else { "no" }
}

fn push_hints(out: &mut String, e: &Entry<'_>) {
    let mut hints = Vec::new();
    if e.has_resources {
        hints.push("has files".to_owned());
    }
    if e.has_scripts {
        hints.push("has scripts".to_owned());
    }
    if !e.chunks.is_empty() {
        hints.push(format!("chunks: {}", names(&e.chunks)));
    }
    if !hints.is_empty() {
        let _ = write!(out, " ({})", hints.join("; "));
    }
}

/// Names joined with `, `, each written by [`quote_name`].
pub(crate) fn names<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    push_names(&mut out, items);
    out
}

/// [`names`], written at the end of `out`.
pub(crate) fn push_names<S: AsRef<str>>(out: &mut String, items: &[S]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&quote_name(item.as_ref()));
    }
}

/// Collapses every run of whitespace to one space, so a description stays one list item.
pub(crate) fn push_one_line(out: &mut String, text: &str) {
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// Escapes like Python's `html.escape(s, quote=True)`, which the reference implementation uses.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}

/// Renders the listing of `entries`, in the order given, with no budget and no hints: the
/// listing `skills!` renders when the crate compiles (`SKILLS.summary()`) and the one the
/// `skills prompt` command prints, byte-identical.
///
/// ```
/// use skills_embed::listing::{summary, Entry, ListingFormat};
/// let entries = [Entry { name: "pdf", description: "Read\nPDFs.", ..Entry::default() }];
/// assert_eq!(summary(entries.clone(), &ListingFormat::Markdown), "- pdf: Read PDFs.\n");
/// assert_eq!(
///     summary(entries, &ListingFormat::Xml),
///     "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead\nPDFs.\n</description>\n</skill>\n</available_skills>"
/// );
/// ```
#[doc(hidden)]
pub fn summary<'a>(entries: impl IntoIterator<Item = Entry<'a>>, format: &ListingFormat) -> String {
    let entries: Vec<Entry<'a>> = entries.into_iter().collect();
    render(
        &entries,
        &ListingOptions {
            format: format.clone(),
            ..ListingOptions::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_counts_runs() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("Fill PDF forms."), 4);
        assert!(estimate_tokens("- code-review: Review a change for bugs.\n") >= 10);
        let share = Budget::ContextShare {
            window_tokens: 200_000,
            percent: 1,
        };
        assert_eq!(
            (share.limit(), Budget::Tokens(2_000).limit()),
            (2_000, 2_000)
        );
    }

    fn entries() -> Vec<Entry<'static>> {
        vec![
            Entry {
                name: "a",
                description: "First <skill> & \"more\"",
                has_resources: true,
                ..Entry::default()
            },
            Entry {
                name: "b",
                description: "Second\nskill",
                location: Some("/s/b/SKILL.md"),
                ..Entry::default()
            },
        ]
    }

    #[test]
    fn xml_matches_the_reference_format() {
        let text = render(
            &entries(),
            &ListingOptions {
                format: ListingFormat::Xml,
                ..Default::default()
            },
        );
        assert_eq!(
            text,
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nFirst &lt;skill&gt; &amp; &quot;more&quot;\n</description>\n</skill>\n\
             <skill>\n<name>\nb\n</name>\n<description>\nSecond\nskill\n</description>\n<location>\n/s/b/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        for format in [
            ListingFormat::Markdown,
            ListingFormat::Xml,
            ListingFormat::Template("{name}\n".into()),
        ] {
            let options = ListingOptions {
                format,
                budget: Some(Budget::Tokens(63)),
                ..Default::default()
            };
            assert_eq!(render(&[], &options), "", "no skills, no listing");
        }
    }

    #[test]
    fn budget_never_drops_a_skill_silently() {
        for budget in [0, 10, 30, 1000] {
            for format in [ListingFormat::Markdown, ListingFormat::Xml] {
                let options = ListingOptions {
                    format,
                    budget: Some(Budget::Chars(budget)),
                    ..Default::default()
                };
                let text = render(&entries(), &options);
                assert!(text.contains("\na\n") || text.contains("- a"), "{text}");
                assert!(text.contains("\nb\n") || text.contains("- b"), "{text}");
                let full = render(
                    &entries(),
                    &ListingOptions {
                        budget: None,
                        ..options.clone()
                    },
                );
                if text != full {
                    assert!(
                        text.contains("shortened") || text.contains("by name only"),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_budget_keeps_every_name_and_says_what_it_cut() {
        let long: Vec<String> = (0..20)
            .map(|i| format!("Skill {i} does a great many things, described at length. ").repeat(5))
            .collect();
        let names: Vec<String> = (0..20).map(|i| format!("s{i:02}")).collect();
        let entries: Vec<Entry<'_>> = names
            .iter()
            .zip(&long)
            .map(|(name, description)| Entry {
                name,
                description,
                ..Entry::default()
            })
            .collect();
        for format in [
            ListingFormat::Markdown,
            ListingFormat::Xml,
            ListingFormat::Template("* {name}: {description}\n".into()),
        ] {
            for limit in [0, 50, 200, 400, 1_000, 100_000] {
                let options = ListingOptions {
                    format: format.clone(),
                    budget: Some(Budget::Chars(limit)),
                    usage: vec!["s19".into()],
                    ..Default::default()
                };
                let text = render(&entries, &options);
                for name in &names {
                    assert!(text.contains(name.as_str()), "{name}: {text}");
                }
                let fits = text.chars().count() <= limit;
                let all_names = text.contains("20 skills listed by name only");
                assert!(fits || all_names, "{limit}: {text}");
                if limit < 100_000 {
                    assert!(text.contains("load"), "{text}");
                }
            }
        }
    }

    #[test]
    fn a_template_is_filled_in_one_pass() {
        let entries = [Entry {
            name: "a\nb",
            description: "Say {name} and {chunks}; keep {braces}",
            ..Entry::default()
        }];
        let template = ListingOptions {
            format: ListingFormat::Template("{name} = {description} {\n".into()),
            ..Default::default()
        };
        assert_eq!(
            render(&entries, &template),
            "\"a\\nb\" = Say {name} and {chunks}; keep {braces} {\n"
        );
    }

    #[test]
    fn when_to_use_is_appended_in_every_format_within_the_cap() {
        let entries = [
            Entry {
                name: "review",
                description: "Review a change.",
                when_to_use: Some("The user asks for a review."),
                ..Entry::default()
            },
            Entry {
                name: "plain",
                description: "No when_to_use.",
                when_to_use: Some("  "),
                ..Entry::default()
            },
        ];
        let format = |format| ListingOptions {
            format,
            ..Default::default()
        };
        assert_eq!(
            render(&entries, &format(ListingFormat::Markdown)),
            render(
                &[
                    Entry {
                        description: "Review a change. - The user asks for a review.",
                        when_to_use: None,
                        ..entries[0].clone()
                    },
                    Entry {
                        when_to_use: None,
                        ..entries[1].clone()
                    },
                ],
                &format(ListingFormat::Markdown)
            )
        );
        assert!(
            render(&entries, &format(ListingFormat::Markdown))
                .contains("- review: Review a change. - The user asks for a review.\n")
        );
        let xml = render(&entries, &format(ListingFormat::Xml));
        assert!(
            xml.contains(
                "<description>\nReview a change. - The user asks for a review.\n</description>"
            ),
            "{xml}"
        );
        let template = format(ListingFormat::Template("{name}: {description}\n".into()));
        assert!(
            render(&entries, &template).starts_with("review: Review a change. - The user asks")
        );
        // The combined text is cut to the cap (1,536 by default, as Claude Code does), with
        // no budget set; a description alone is not.
        let long = "w ".repeat(1_000);
        let entries = [Entry {
            name: "long",
            description: "Short.",
            when_to_use: Some(&long),
            ..Entry::default()
        }];
        let listed = render(&entries, &ListingOptions::default());
        let text = listed.trim_end().strip_prefix("- long: ").unwrap();
        assert!(
            text.ends_with('…') && text.starts_with("Short. - w w"),
            "{text}"
        );
        assert!(
            text.chars().count() <= DEFAULT_DESCRIPTION_CAP,
            "{}",
            text.chars().count()
        );
        let capped = ListingOptions {
            description_cap: Some(100),
            ..Default::default()
        };
        let listed = render(&entries, &capped);
        assert!(listed.trim_end().chars().count() <= 100 + "- long: ".len());
    }

    #[test]
    fn hints_and_templates() {
        let options = ListingOptions {
            hints: true,
            ..Default::default()
        };
        assert!(
            render(&entries(), &options).starts_with("- a: First <skill> & \"more\" (has files)\n")
        );
        let template = ListingOptions {
            format: ListingFormat::Template("* {name} [{resources}] {description}\n".into()),
            ..Default::default()
        };
        assert_eq!(
            render(&entries(), &template),
            "* a [yes] First <skill> & \"more\"\n* b [no] Second skill\n"
        );
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn render_example() {
        use crate::listing::{Budget, Entry, ListingOptions, estimate_tokens, render};
        let entries = [
            Entry {
                name: "code-review",
                description: "Review a change for bugs, tests and style. Use before merging.",
                ..Entry::default()
            },
            Entry {
                name: "pdf",
                description: "Read, fill and merge PDF files. Use when the user gives you a PDF.",
                ..Entry::default()
            },
            Entry {
                name: "sql",
                description: "Write safe schema migrations. Use when a table or index changes.",
                ..Entry::default()
            },
        ];
        let text = render(&entries, &ListingOptions::default());
        assert!(text.starts_with(
            "- code-review: Review a change for bugs, tests and style. Use before merging.\n"
        ));
        assert_eq!(text.lines().count(), 3);

        // Over a budget in characters: descriptions are shortened, every skill stays named, and
        // the listing says so.
        let tight = ListingOptions {
            budget: Some(Budget::Chars(220)),
            ..ListingOptions::default()
        };
        let text = render(&entries, &tight);
        for name in ["code-review", "pdf", "sql"] {
            assert!(text.contains(&format!("- {name}")), "{text}");
        }
        assert!(text.contains("shortened"), "{text}");
        assert!(text.chars().count() <= 220, "{text}");

        // A budget in tokens, one short of the full listing: every description is shortened before
        // a skill is listed by name only, and `sql`, used recently, keeps the most.
        let full = estimate_tokens(&render(&entries, &ListingOptions::default()));
        assert_eq!(full, 59);
        let model = ListingOptions {
            budget: Some(Budget::Tokens(full - 1)),
            usage: vec!["sql".into()],
            ..ListingOptions::default()
        };
        let text = render(&entries, &model);
        assert!(estimate_tokens(&text) < full);
        assert_eq!(
            text,
            "- code-review: Review a change for bugs…\n\
             - pdf: Read, fill and merge PDF…\n\
             - sql: Write safe schema migrations. Use when a…\n\
             (3 descriptions shortened to fit the listing budget: load a skill to read it whole)\n"
        );
    }
}
