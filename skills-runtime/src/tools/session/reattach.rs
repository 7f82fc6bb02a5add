//! What [`Session::compact`](Session::compact) gives back after the host summarises a
//! conversation: the blocks ([`Reattached`]) within the budget it is given, and where a skill's
//! text is cut to fit.

use std::borrow::Cow;
use std::fmt::Write;

use super::{Active, Content, Session, prompt::attribute};
use crate::invoke;
use crate::listing::TokenCounter;
use crate::tools::{READ_SKILL, READ_SKILL_RESOURCE, ToolStyle};

/// The heading [`Reattached`] writes before the skills.
pub(crate) const REATTACH_HEADING: &str = "Skills loaded earlier in this conversation, re-attached after it was summarised (most recent first):\n";

/// What [`Session::compact`](Session::compact) gives back: the skills re-attached, most
/// recent first, and the skills left out. Written out (`to_string()`, the text to insert after
/// the summary) it is the heading line, one `<skill name="…">` block per skill re-attached
/// (cut to fit, ending with how to load the rest), and a closing line naming the skills left
/// out; nothing at all when nothing was loaded.
///
/// ```
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, tools::Tools};
/// use skills_embed::tools::Session;
/// let fields = Fields { name: "pdf".into(), description: "D.".into(), ..Fields::default() };
/// let set = SkillSet::from_skills(vec![Skill::owned(fields, "Fill $0.\n".into(), vec![])], &ListingFormat::Markdown);
/// let mut session = Session::new(Tools::new(set, Default::default()));
/// let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
/// assert!(back.skills().next().is_none() && back.omitted.is_empty() && back.to_string().is_empty());
///
/// session.invoke("/pdf a.pdf", |_| None).unwrap();
/// let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
/// assert_eq!(back.skills().collect::<Vec<_>>(), ["pdf"]);
/// assert!(back.to_string().ends_with("<skill name=\"pdf\">\nFill a.pdf.\n</skill>\n"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reattached {
    /// The blocks, most recently loaded or invoked first.
    blocks: Vec<ReattachedSkill>,
    /// The skills left out because none of their content fitted, most recent first.
    pub omitted: Vec<String>,
    /// The line naming [`Reattached::omitted`] and how to load them, when any: written after
    /// the blocks, and not counted in the budget (it is never left out).
    pub closing: Option<String>,
}

impl Reattached {
    /// The names of the skills re-attached, most recently loaded or invoked first (see the
    /// example on [`Reattached`]).
    ///
    /// ```
    /// use skills_embed::tools::{Session, Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "D.".into(), ..Fields::default() },
    /// #     "Do it.\n".into(),
    /// #     vec![],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("docx"), skill("pdf")],
    ///     &ListingFormat::Markdown,
    /// );
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let _sent = session.handle("load_skill", r#"{"skill":"docx"}"#);
    /// let _sent = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    /// let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    /// assert_eq!(back.skills().collect::<Vec<_>>(), ["pdf", "docx"]); // most recent first
    /// ```
    pub fn skills(&self) -> impl Iterator<Item = &str> {
        self.blocks.iter().map(|b| b.skill.as_str())
    }
}

impl std::fmt::Display for Reattached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.blocks.is_empty() {
            f.write_str(REATTACH_HEADING)?;
        }
        for skill in &self.blocks {
            f.write_str(&skill.text)?;
        }
        if let Some(closing) = &self.closing {
            f.write_str(closing)?;
        }
        Ok(())
    }
}

/// One skill's block in a [`Reattached`], with what was counted and cut. Not a public API:
/// tests reach it through `__private` ([`blocks`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReattachedSkill {
    /// The skill's name.
    pub skill: String,
    /// The block to insert: `<skill name="…">`, the content, the cut line when cut, and
    /// `</skill>`.
    pub text: String,
    /// The tokens of `text`, by the budget's counter.
    pub tokens: usize,
    /// Whether the content was cut to fit; the block then ends with how to load the rest.
    pub cut: bool,
    /// When cut, the offset at which the load tool continues the body.
    pub next_offset: Option<usize>,
    /// Whether the content is a user invocation's, with its arguments filled in.
    pub invoked: bool,
}

/// The blocks of `back`, most recent first (tests, through `__private`).
pub fn blocks(back: &Reattached) -> &[ReattachedSkill] {
    &back.blocks
}

/// The end of the longest beginning of `text` that costs at most `limit` tokens, cut after a
/// whole line ([`excerpt`](crate::text::excerpt::excerpt)), then moved back to a better boundary
/// ([`boundary`]); when that keeps nothing but headings and blank lines, cut inside the next
/// line after a word instead. 0 when nothing fits.
pub(crate) fn cut_point(text: &str, limit: usize, counter: TokenCounter) -> usize {
    let (mut lo, mut hi, mut end) = (0usize, text.chars().count(), 0usize);
    // Binary search on the characters allowed: the piece grows with them.
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let piece = crate::text::excerpt::excerpt(text, 0, mid);
        if counter(piece.text) <= limit {
            lo = mid;
            end = piece.end;
        } else {
            hi = mid - 1;
        }
    }
    if end >= text.len() {
        return end;
    }
    let end = boundary(text, end);
    let kept = text.get(..end).unwrap_or_default();
    if kept
        .lines()
        .any(|line| !line.trim().is_empty() && !is_heading(line))
    {
        return end;
    }
    // Only headings and blank lines fit whole (the next line is long): cut inside that line
    // instead, after a word.
    let (mut lo, mut hi, mut at) = (0usize, text.chars().count(), 0usize);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let probe = text.char_indices().nth(mid).map_or(text.len(), |(i, _)| i);
        if counter(text.get(..probe).unwrap_or(text)) <= limit {
            lo = mid;
            at = probe;
        } else {
            hi = mid - 1;
        }
    }
    if at <= end {
        return end;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    match text[line_start..at].rfind(' ') {
        Some(space) if line_start + space + 1 > end => line_start + space + 1,
        _ => at,
    }
}

/// A cut at `end` moved back: to the start of the last section (a heading outside code) when
/// it keeps three quarters, else, when `end` falls inside a fenced code block, to the last line
/// start outside code when that keeps half.
fn boundary(text: &str, end: usize) -> usize {
    use crate::text::lines::{Fences, Lines};
    let Some(kept) = text.get(..end) else {
        return end;
    };
    // Whether a fenced block is open: a plain line is code only inside one.
    let open = |fences: &Fences| {
        let mut probe = *fences;
        probe.is_code("x")
    };
    let mut fences = Fences::default();
    let (mut section, mut outside) = (0, 0);
    for line in Lines::new(kept) {
        if line.start > 0 && !open(&fences) {
            outside = line.start;
            if is_heading(line.text) {
                section = line.start;
            }
        }
        fences.is_code(line.text);
    }
    if section > 0 && section >= end - end / 4 {
        section
    } else if open(&fences) && outside >= end / 2 && outside > 0 {
        outside
    } else {
        end
    }
}

/// Whether a line (outside code) is an ATX heading: up to 3 spaces, 1 to 6 `#`s, then a space,
/// a tab or the end of the line.
fn is_heading(line: &str) -> bool {
    crate::text::excerpt::atx_heading(line).is_some()
}

/// What the model had loaded, for the reattach after a compaction (the budget and cuts of
/// [`Session::compact`]).
pub(super) fn reattach(
    session: &Session,
    per_skill: usize,
    total: usize,
    counter: Option<fn(&str) -> usize>,
) -> Reattached {
    let counter = counter.unwrap_or(crate::listing::estimate_tokens);
    let mut out = Reattached::default();
    let mut left = total.saturating_sub(counter(REATTACH_HEADING));
    let mut below = u64::MAX;
    while let Some((name, active)) = session
        .state
        .active
        .iter()
        .filter(|(_, a)| a.body_loaded && a.content != Content::System && a.last_seq < below)
        .max_by_key(|(_, a)| a.last_seq)
    {
        below = active.last_seq;
        match reattach_one(session, name, active, per_skill.min(left), counter) {
            Some(entry) => {
                left = left.saturating_sub(entry.tokens);
                out.blocks.push(entry);
            }
            None => out.omitted.push(name.clone()),
        }
    }
    if !out.omitted.is_empty() {
        let tool = match session.tools.settings().style {
            ToolStyle::Unified => &*session.tools.settings().name,
            ToolStyle::Split => READ_SKILL,
        };
        out.closing = Some(format!(
            "(Not re-attached, over the budget for skills after compaction: {}. To use one \
             again, load it with {tool}.)\n",
            crate::listing::names(&out.omitted)
        ));
    }
    out
}

/// One skill's block for [`Session::compact`] within `limit` tokens, or `None` when none
/// of it fits (or it is no longer in the set).
fn reattach_one(
    session: &Session,
    name: &str,
    active: &Active,
    limit: usize,
    counter: TokenCounter,
) -> Option<ReattachedSkill> {
    if !session.serves(name) {
        return None;
    }
    let skill = session.tools.set().get(name).ok()?;
    // What the load tool serves, and what its offsets count in.
    let core: Cow<'_, str> = if skill.chunks().len() == 0 {
        Cow::Borrowed(skill.body().trim_start_matches(['\n', '\r']))
    } else {
        Cow::Owned(crate::tools::render::join_core(skill))
    };
    let names = match active.content {
        Content::User { .. } => invoke::argument_names(skill),
        _ => Vec::new(),
    };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // The model can load the rest itself unless only the user may invoke the skill.
    let loadable = session.tools.lookup(name).is_ok();
    let open = format!("<skill name=\"{}\">\n", attribute(name));
    let close = "</skill>\n";
    let build = |end: usize| {
        let kept = core.get(..end).unwrap_or(&core);
        let filled = match &active.content {
            Content::User { args, dir } => {
                Cow::Owned(invoke::substitute(kept, args, &names, dir.as_deref())?)
            }
            _ => Cow::Borrowed(kept),
        };
        // Room for the frame and the cut line, so the text is allocated once.
        let mut text = String::with_capacity(open.len() + filled.len() + 2 * name.len() + 200);
        text.push_str(&open);
        text.push_str(&filled);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        if end < core.len() {
            push_cut(session, &mut text, name, end, core.len(), loadable);
        }
        text.push_str(close);
        Ok::<_, invoke::TooLarge>(text)
    };
    let entry = |end: usize, text: String, tokens: usize| ReattachedSkill {
        skill: name.to_owned(),
        text,
        tokens,
        cut: end < core.len(),
        next_offset: (end < core.len()).then_some(end),
        invoked: matches!(active.content, Content::User { .. }),
    };
    let frame = counter(&open) + counter(close);
    // The whole skill, when the parts say it may fit.
    if counter(&core) + frame <= limit
        && let Ok(text) = build(core.len())
    {
        let tokens = counter(&text);
        if tokens <= limit {
            return Some(entry(core.len(), text, tokens));
        }
    }
    let mut marker = String::new();
    push_cut(session, &mut marker, name, core.len(), core.len(), loadable);
    let mut room = limit.saturating_sub(frame + counter(&marker));
    // The parts are counted apart; a counter that is not additive, or arguments filled in,
    // may make the block dearer: cut shorter by the excess and try again.
    for _ in 0..8 {
        let end = cut_point(&core, room, counter);
        if end == 0 {
            return None;
        }
        match build(end) {
            Ok(text) => {
                let tokens = counter(&text);
                if tokens <= limit {
                    return Some(entry(end, text, tokens));
                }
                room = room.saturating_sub(tokens - limit);
            }
            // Filled in, this much of the body is over substitution's cap: keep the share
            // of it that the cap holds.
            Err(e) => {
                let kept = counter(core.get(..end).unwrap_or(&core));
                let share = kept as u128 * e.cap as u128 / e.rendered.max(1) as u128;
                room = usize::try_from(share)
                    .unwrap_or(room)
                    .min(room.saturating_sub(1));
            }
        }
    }
    None
}

/// The line ending a cut block: how to load the rest, worded as the load tool words the
/// end of its own cut answers.
fn push_cut(
    session: &Session,
    out: &mut String,
    name: &str,
    end: usize,
    total: usize,
    loadable: bool,
) {
    use crate::text::json_string;
    if loadable {
        let config = session.tools.settings();
        let (tool, key) = match config.style {
            ToolStyle::Unified => (&*config.name, "path"),
            ToolStyle::Split => (READ_SKILL_RESOURCE, "file"),
        };
        let _ = writeln!(
            out,
            "[Cut at byte {end} of {total}. To continue, call {tool} with {{\"skill\": {}, \
             \"{key}\": {}, \"offset\": {end}}}.]",
            json_string(name),
            json_string(crate::model::fields::MANIFEST),
        );
    } else {
        let _ = writeln!(
            out,
            "[Cut at byte {end} of {total}. The rest is left out: the user can invoke /{} \
             again for the whole skill.]",
            crate::text::quote_name(name)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_move_back_to_a_section_or_out_of_code() {
        // A heading in the last quarter of what fits: cut there.
        let text = "# A\n".to_owned() + &"line\n".repeat(10) + "## B\nfour\nfive\n";
        let end = text.find("five").unwrap();
        assert_eq!(boundary(&text, end), text.find("## B").unwrap());
        // A heading earlier than that: keep the line cut.
        let text = "# A\n## B\n".to_owned() + &"line\n".repeat(20);
        assert_eq!(boundary(&text, text.len() - 5), text.len() - 5);
        // Inside a fence: back to the line before it, when that keeps half.
        let text = "one\ntwo\nthree\nfour\n```\ncode\nmore\n```\n";
        let end = text.find("more").unwrap();
        assert_eq!(boundary(text, end), text.find("```").unwrap());
        // A `#` line inside a fence is not a heading.
        let text = "one two three four\n```\n# not\nx\n```\n";
        assert_eq!(
            boundary(text, text.find("x\n").unwrap()),
            text.find("```").unwrap()
        );
        // Nothing to move to.
        assert_eq!(boundary("", 0), 0);
        assert_eq!(boundary("abc", 2), 2);
    }

    #[test]
    fn headings_are_atx() {
        for yes in ["# A", "###### A", "   ## A", "#", "##\tA"] {
            assert!(is_heading(yes), "{yes}");
        }
        for no in ["####### A", "    # A", "#A", "text", ""] {
            assert!(!is_heading(no), "{no}");
        }
    }

    #[test]
    fn cut_points_fit_and_make_progress() {
        let text = "0123456789\n".repeat(10);
        for limit in 0..60 {
            let end = cut_point(&text, limit, crate::listing::estimate_tokens);
            assert!(crate::listing::estimate_tokens(&text[..end]) <= limit);
            // A whole line (5 tokens) fits from a limit of 5: then the cut is after one.
            assert_eq!(limit >= 5, text[..end].ends_with('\n'), "{limit}");
        }
        // One huge line: cut inside it rather than not at all.
        let line = "word ".repeat(100);
        let end = cut_point(&line, 10, crate::listing::estimate_tokens);
        assert!(end > 0 && end < line.len());
        // A heading, then a paragraph on one long line: not the heading alone, but the heading
        // and the paragraph's first words, cut after a word.
        let text = "# Title\n\n".to_owned() + &line;
        let end = cut_point(&text, 12, crate::listing::estimate_tokens);
        assert!(text[..end].starts_with("# Title\n\nword ") && text[..end].ends_with(' '));
        assert!(crate::listing::estimate_tokens(&text[..end]) <= 12);
    }
}
