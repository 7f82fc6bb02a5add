//! Disclosure modes and the keyword matcher behind [`Disclosure::Eager`].

use std::cmp::Ordering;

/// How a host discloses skills to the model ([`Session::system_prompt`](super::Session::system_prompt)
/// writes the text for each mode).
///
/// ```
/// use skills_embed::tools::{Disclosure, Session, Settings, Tools};
/// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// # let skill = |name: &str, description: &str, body: &str| Skill::owned(
/// #     Fields { name: name.into(), description: description.into(), ..Fields::default() },
/// #     body.into(),
/// #     vec![],
/// # );
/// # let set = SkillSet::from_skills(vec![
/// #     skill("pdf", "Fill PDF forms.", "Use pdftk.\n"),
/// #     skill("house-style", "How we write.", "Be brief.\n"),
/// # ], &ListingFormat::Markdown);
/// let mut session = Session::new(Tools::new(set, Settings::default()));
/// assert_eq!(Disclosure::default(), Disclosure::Progressive); // listed, loaded by the model
/// let listed = session.system_prompt(&Disclosure::default(), "");
/// assert!(listed.contains("pdf: Fill PDF forms.") && !listed.contains("Use pdftk."));
/// let eager = Disclosure::Eager { max_skills: 1, min_score: 2 }; // picked from the input
/// let injected = session.system_prompt(&eager, "Fill in this PDF");
/// assert_eq!(injected, "<skill name=\"pdf\">\nUse pdftk.\n</skill>\n\n");
/// let hybrid = Disclosure::Hybrid { eager: vec!["house-style".to_owned()] }; // always in
/// let text = session.system_prompt(&hybrid, "");
/// assert!(text.starts_with("<skill name=\"house-style\">\nBe brief.\n</skill>\n"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Disclosure {
    /// The L1 listing plus a tool to load skills; the model decides what to load. The cheapest
    /// in tokens for large libraries and the best at picking, at the cost of a tool call.
    #[default]
    Progressive,
    /// The bodies of the skills whose names and descriptions share the most words with the
    /// user's input are injected up front; the other skills are not listed. No tool call, but
    /// only as good as the keywords.
    ///
    /// The matcher is deliberately simple, so that a skill author can predict what it picks. It
    /// uses no randomness, no hashing order and no locale: the same input and skills always give
    /// the same result, whatever the order the skills are given in.
    ///
    /// 1. **Words.** Text is cut into words at every character that is not alphanumeric in
    ///    Unicode ([`char::is_alphanumeric`]), so `pdf-forms`, `PDF/forms` and `pdf_forms` all
    ///    give `pdf` and `forms`. Each word is lowercased character by character
    ///    ([`char::to_lowercase`]).
    /// 2. **Dropped words.** Words of fewer than 3 characters are dropped, and so are stop
    ///    words: common English words of 3 letters or more and the words most skill
    ///    descriptions share ("use this skill when the user asks…"). Stop words are compared
    ///    before step 3.
    /// 3. **Suffixes.** Each word loses at most one suffix: the first rule of this list that
    ///    applies and leaves at least 3 characters is used; if none does, the word is kept whole.
    ///
    ///    | rule                                                  | examples                           |
    ///    |-------------------------------------------------------|------------------------------------|
    ///    | `ies` → `y`                                           | `policies` → `policy`              |
    ///    | `es` → removed                                        | `boxes` → `box`, `files` → `fil`   |
    ///    | `s` → removed, unless the word ends in `ss`           | `pdfs` → `pdf`; `class` stays      |
    ///    | `ing` → removed, if an ASCII vowel (`aeiouy`) remains | `filling` → `fill`; `string` stays |
    ///    | `ed` → removed, unless the word ends in `eed`         | `created` → `creat`; `speed` stays |
    ///    | `e` → removed                                         | `file` → `fil`, `create` → `creat` |
    ///
    ///    The last rule exists so that `file`, `files`, `filing` and `filed` all become `fil`.
    /// 4. **Keywords.** A skill's keywords are the words of its name (for a valid name, its
    ///    hyphen-separated parts), worth 3, and the words of its description, worth 1. A word in
    ///    both is worth 3.
    /// 5. **Score.** Each *distinct* word of the input (after step 3) adds the weight of the
    ///    skill keyword it equals, or nothing. Repeating a word in the input, or in a
    ///    description, adds nothing more.
    /// 6. **Selection.** Skills scoring at least `min_score` are kept (a skill scoring 0 never
    ///    is, even with `min_score: 0`), sorted by score, highest first, then by name in byte
    ///    order, and the first `max_skills` are injected.
    ///
    /// With `min_score: 2`, one word of a skill's name is enough to select it, one word of its
    /// description alone is not. There is no Unicode normalisation, scripts written without
    /// spaces give one long word per run of text, and the stop words and suffix rules are
    /// English: for anything smarter, let the model choose ([`Disclosure::Progressive`]).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// use skills_embed::tools::{Disclosure, Session, Settings, Tools};
    /// let skill = |name: &str, description: &str| Skill::owned(
    ///     Fields { name: name.into(), description: description.into(), ..Fields::default() },
    ///     format!("Body of {name}.\n"),
    ///     vec![],
    /// );
    /// let set = SkillSet::from_skills(vec![
    ///     skill("pdf-forms", "Fill in and validate PDF forms."),
    ///     skill("code-review", "Review code changes for bugs, style and missing tests."),
    /// ], &ListingFormat::Markdown);
    /// let mut session = Session::new(Tools::new(set, Settings::default()));
    /// let eager = Disclosure::Eager { max_skills: 3, min_score: 2 };
    /// // `pdf` and `form` are name words (3 each), `fill` a description word (1).
    /// let prompt = session.system_prompt(&eager, "Please fill in this PDF form");
    /// assert_eq!(prompt, "<skill name=\"pdf-forms\">\nBody of pdf-forms.\n</skill>\n\n");
    /// ```
    Eager {
        /// At most this many skills are injected (3 is a good start).
        max_skills: usize,
        /// Skills scoring less are left out (2 is a good start: a name word is enough, a
        /// single description word is not).
        min_score: u32,
    },
    /// The named skills are always injected; the rest are disclosed progressively.
    Hybrid {
        /// Names of the skills whose bodies are always injected.
        eager: Vec<String>,
    },
}

/// How many skills [`match_skills`] returns, and how good a match must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MatchConfig {
    /// At most this many skills are returned.
    pub(crate) max_skills: usize,
    /// Skills scoring less are dropped.
    pub(crate) min_score: u32,
}

#[cfg(test)]
impl Default for MatchConfig {
    fn default() -> Self {
        Self {
            max_skills: 3,
            min_score: 2,
        }
    }
}

/// One skill selected by [`match_skills`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Match {
    /// The skill's name.
    pub(crate) name: String,
    /// Its score (see [`Disclosure::Eager`]).
    pub(crate) score: u32,
    /// The input words that matched one of its keywords: lowercased, as they appeared in the
    /// input (before suffixes were removed), sorted by byte order, without duplicates. Words that
    /// share a key (`form`, `forms`) are all listed but scored once.
    pub(crate) matched: Vec<String>,
}

/// What a word of a skill's name adds to the score.
const NAME_WEIGHT: u32 = 3;

/// What a word of a skill's description adds to the score, when it is not also a name word.
const DESCRIPTION_WEIGHT: u32 = 1;

/// Words that never count, compared after lowercasing and before suffixes are removed.
///
/// Common English words of 3 letters or more, and the words most skill descriptions share
/// ("use this skill when the user asks…"), which would otherwise make every skill match every
/// request. Sorted, so it can be searched by bisection.
const STOP_WORDS: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "and", "any", "are", "aren",
    "ask", "asked", "asking", "asks", "because", "been", "before", "being", "below", "between",
    "both", "but", "can", "cannot", "could", "did", "does", "doing", "don", "done", "down",
    "during", "each", "etc", "few", "for", "from", "further", "get", "gets", "had", "has", "have",
    "having", "help", "helps", "her", "here", "hers", "him", "his", "how", "into", "its", "itself",
    "just", "like", "may", "might", "more", "most", "must", "need", "needs", "nor", "not", "now",
    "off", "once", "one", "only", "other", "our", "ours", "out", "over", "own", "please", "same",
    "she", "should", "skill", "skills", "some", "such", "than", "that", "the", "their", "theirs",
    "them", "then", "there", "these", "they", "this", "those", "through", "too", "under", "until",
    "upon", "use", "used", "user", "users", "uses", "using", "very", "via", "want", "wants", "was",
    "were", "what", "when", "whenever", "where", "whether", "which", "while", "who", "whom", "why",
    "will", "with", "within", "without", "would", "yet", "you", "your", "yours", "yourself",
];

/// Words shorter than this, in characters, are dropped.
const MIN_WORD_CHARS: usize = 3;

/// Picks the skills whose names and descriptions share the most words with `input`, scored as
/// [`Disclosure::Eager`] says. `skills` yields `(name, description)` pairs. It allocates only
/// for the input's words, a few scratch buffers reused across skills, and the returned matches.
pub(crate) fn match_skills<'a>(
    input: &str,
    skills: impl IntoIterator<Item = (&'a str, &'a str)>,
    config: &MatchConfig,
) -> Vec<Match> {
    let words = InputWords::new(input);
    if words.is_empty() || config.max_skills == 0 {
        return Vec::new();
    }
    let mut buffers = Buffers::default();
    // The best weight each distinct input word reached in the current skill; reused across
    // skills so scoring a skill allocates nothing.
    let mut best = vec![0_u32; words.len()];
    let mut found = Vec::new();
    for (name, description) in skills {
        best.fill(0);
        for (text, weight) in [(name, NAME_WEIGHT), (description, DESCRIPTION_WEIGHT)] {
            for_each_word(text, &mut buffers, |_, key| {
                if let Some(slot) = words.position(key).and_then(|index| best.get_mut(index)) {
                    *slot = (*slot).max(weight);
                }
            });
        }
        let score = best.iter().fold(0_u32, |sum, &w| sum.saturating_add(w));
        if score == 0 || score < config.min_score {
            continue;
        }
        let mut matched: Vec<String> = best
            .iter()
            .zip(&words.entries)
            .filter(|&(&weight, _)| weight > 0)
            .flat_map(|(_, (_, surfaces))| surfaces.iter().cloned())
            .collect();
        matched.sort_unstable();
        matched.dedup();
        found.push(Match {
            name: name.to_owned(),
            score,
            matched,
        });
    }
    // A name given twice keeps its best entry whatever the order: bring equal names together
    // with the best first, drop the rest, then order by score.
    found.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| b.score.cmp(&a.score))
            .then_with(|| a.matched.cmp(&b.matched))
    });
    found.dedup_by(|later, earlier| later.name == earlier.name);
    found.sort_by(by_score_then_name);
    found.truncate(config.max_skills);
    found
}

fn by_score_then_name(a: &Match, b: &Match) -> Ordering {
    b.score.cmp(&a.score).then_with(|| a.name.cmp(&b.name))
}

/// The matching keys `text` gives: its words after steps 1 to 3 of [`Disclosure::Eager`],
/// without duplicates, sorted.
#[cfg(test)]
fn keywords(text: &str) -> Vec<String> {
    let mut buffers = Buffers::default();
    let mut keys = Vec::new();
    for_each_word(text, &mut buffers, |_, key| keys.push(key.to_owned()));
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The distinct keys of the input, sorted for bisection, each with the input words that gave it.
struct InputWords {
    entries: Vec<(String, Vec<String>)>,
}

impl InputWords {
    fn new(input: &str) -> Self {
        let mut buffers = Buffers::default();
        let mut pairs: Vec<(String, String)> = Vec::new();
        for_each_word(input, &mut buffers, |surface, key| {
            pairs.push((key.to_owned(), surface.to_owned()));
        });
        pairs.sort_unstable();
        pairs.dedup();
        let mut entries: Vec<(String, Vec<String>)> = Vec::new();
        for (key, surface) in pairs {
            match entries.last_mut() {
                Some((last, surfaces)) if *last == key => surfaces.push(surface),
                _ => entries.push((key, vec![surface])),
            }
        }
        Self { entries }
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries
            .binary_search_by(|(candidate, _)| candidate.as_str().cmp(key))
            .ok()
    }
}

/// Scratch space for [`for_each_word`], kept between calls so that words cost no allocation.
#[derive(Default)]
struct Buffers {
    word: String,
    key: String,
}

/// Calls `f(lowercased word, key)` for each word of `text` that is not dropped.
fn for_each_word(text: &str, buffers: &mut Buffers, mut f: impl FnMut(&str, &str)) {
    for piece in text.split(|c: char| !c.is_alphanumeric()) {
        if piece.is_empty() {
            continue;
        }
        let Buffers { word, key } = buffers;
        word.clear();
        word.extend(piece.chars().flat_map(char::to_lowercase));
        if word.chars().nth(MIN_WORD_CHARS - 1).is_none() || is_stop_word(word.as_str()) {
            continue;
        }
        key.clear();
        strip_suffix(word, key);
        f(word.as_str(), key.as_str());
    }
}

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Writes `word` less at most one suffix into `key`, by the rules of the module documentation.
fn strip_suffix(word: &str, key: &mut String) {
    // (suffix, replacement, an ending that keeps the suffix on, whether the stem needs a vowel)
    // The vowel test is for `ing` alone: it keeps `string` and `spring` whole, and would wrongly
    // keep acronyms such as `pdfs` whole if applied to `s`.
    const RULES: [(&str, &str, &str, bool); 6] = [
        ("ies", "y", "", false),
        ("es", "", "", false),
        ("s", "", "ss", false),
        ("ing", "", "", true),
        ("ed", "", "eed", false),
        ("e", "", "", false),
    ];
    for (suffix, replacement, keep, needs_vowel) in RULES {
        if !keep.is_empty() && word.ends_with(keep) {
            continue;
        }
        let Some(stem) = word.strip_suffix(suffix) else {
            continue;
        };
        let chars = stem.chars().count() + replacement.chars().count();
        let vowel_ok = !needs_vowel || stem.contains(['a', 'e', 'i', 'o', 'u', 'y']);
        if chars >= MIN_WORD_CHARS && vowel_ok {
            key.push_str(stem);
            key.push_str(replacement);
            return;
        }
    }
    key.push_str(word);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(word: &str) -> String {
        let mut key = String::new();
        strip_suffix(word, &mut key);
        key
    }

    fn names(found: &[Match]) -> Vec<&str> {
        found.iter().map(|m| m.name.as_str()).collect()
    }

    const LIBRARY: &[(&str, &str)] = &[
        (
            "pdf-forms",
            "Fill in, validate and flatten PDF forms. Use when the user asks to fill a PDF form \
             or extract form fields.",
        ),
        (
            "pdf-merge",
            "Merge, split and reorder pages of PDF documents.",
        ),
        (
            "code-review",
            "Review code changes for bugs, style problems and missing tests. Use this skill when \
             the user asks for a review of a pull request or a diff.",
        ),
        (
            "xlsx",
            "Create, edit and analyse spreadsheets: formulas, charts, pivot tables. Use when \
             working with Excel files.",
        ),
        (
            "git-commit",
            "Write clear commit messages and split changes into focused commits.",
        ),
        (
            "brand-guidelines",
            "Apply the company's colours, fonts and tone of voice to documents and slides.",
        ),
    ];

    fn pick(input: &str) -> Vec<Match> {
        match_skills(input, LIBRARY.iter().copied(), &MatchConfig::default())
    }

    #[test]
    fn stop_words_are_sorted_unique_lowercase_and_long_enough() {
        for pair in STOP_WORDS.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?}");
        }
        for word in STOP_WORDS {
            assert_eq!(*word, word.to_lowercase());
            assert!(word.chars().count() >= MIN_WORD_CHARS, "{word}");
            assert!(word.chars().all(char::is_alphanumeric), "{word}");
        }
        for required in [
            "use", "when", "user", "asks", "this", "skill", "with", "the", "for",
        ] {
            assert!(is_stop_word(required), "{required}");
        }
    }

    #[test]
    fn suffix_rules() {
        let cases = [
            ("policies", "policy"),
            ("flies", "fly"),
            ("ties", "tie"),
            ("boxes", "box"),
            ("classes", "class"),
            ("files", "fil"),
            ("file", "fil"),
            ("filing", "fil"),
            ("filed", "fil"),
            ("uses", "use"),
            ("forms", "form"),
            ("form", "form"),
            ("class", "class"),
            ("process", "process"),
            ("processes", "process"),
            ("processing", "process"),
            ("processed", "process"),
            ("string", "string"),
            ("strings", "string"),
            ("spring", "spring"),
            ("filling", "fill"),
            ("created", "creat"),
            ("create", "creat"),
            ("creates", "creat"),
            ("creating", "creat"),
            ("speed", "speed"),
            ("speeds", "speed"),
            ("pdf", "pdf"),
            ("pdfs", "pdf"),
            ("apis", "api"),
            ("yes", "yes"),
            ("2024", "2024"),
            ("écoles", "écol"),
            ("навыки", "навыки"),
        ];
        for (word, expected) in cases {
            assert_eq!(key(word), expected, "{word}");
        }
    }

    #[test]
    fn realistic_requests_pick_the_right_skill() {
        let found = pick("please fill in this PDF form");
        // `pdf-merge` shares the name word `pdf`; `code-review` shares nothing.
        assert_eq!(names(&found), ["pdf-forms", "pdf-merge"]);
        assert_eq!((found[0].score, found[1].score), (7, 3));
        assert_eq!(found[0].matched, ["fill", "form", "pdf"]);
        assert_eq!(found[1].matched, ["pdf"]);

        assert_eq!(
            names(&pick("Can you review the code in my pull request?")),
            ["code-review"]
        );
        assert_eq!(
            names(&pick("merge these PDFs into one document")),
            ["pdf-merge", "pdf-forms"]
        );
        assert_eq!(
            names(&pick("write a commit message for my changes")),
            ["git-commit"]
        );
        assert_eq!(
            names(&pick("build a pivot table in Excel")),
            ["xlsx"],
            "{:?}",
            pick("build a pivot table in Excel")
        );
        assert!(pick("what's the weather like tomorrow?").is_empty());
    }

    #[test]
    fn scores_follow_the_documented_weights() {
        let skills = [("pdf-forms", "Fill forms fill FORMS.")];
        let config = MatchConfig {
            max_skills: 10,
            min_score: 0,
        };
        let score = |input: &str| {
            match_skills(input, skills, &config)
                .first()
                .map_or(0, |m| m.score)
        };
        assert_eq!(score("fill"), DESCRIPTION_WEIGHT);
        assert_eq!(score("pdf"), NAME_WEIGHT);
        // In both the name and the description: the name's weight, once.
        assert_eq!(score("forms"), NAME_WEIGHT);
        // Repeated input words, and words sharing a key, count once.
        assert_eq!(score("form forms FORM filling fill"), NAME_WEIGHT + 1);
        assert_eq!(score("pdf fill form"), 2 * NAME_WEIGHT + DESCRIPTION_WEIGHT);
        let found = match_skills("form forms FORM", skills, &config);
        assert_eq!(found[0].matched, ["form", "forms"]);
    }

    #[test]
    fn min_score_and_max_skills() {
        let skills = [("alpha", "about tables"), ("beta", "tables and charts")];
        let config = |max_skills, min_score| MatchConfig {
            max_skills,
            min_score,
        };
        // One description word scores 1: under the default threshold.
        assert!(match_skills("tables", skills, &MatchConfig::default()).is_empty());
        assert_eq!(
            names(&match_skills("tables", skills, &config(3, 1))),
            ["alpha", "beta"]
        );
        assert_eq!(
            names(&match_skills("tables charts", skills, &config(3, 2))),
            ["beta"]
        );
        assert_eq!(
            names(&match_skills("tables", skills, &config(1, 1))),
            ["alpha"]
        );
        assert!(match_skills("tables", skills, &config(0, 0)).is_empty());
        // A skill that matched nothing is never returned, even with no threshold.
        assert!(match_skills("weather", skills, &config(3, 0)).is_empty());
    }

    #[test]
    fn ties_are_broken_by_name() {
        let skills = [
            ("zeta-report", "x"),
            ("alpha-report", "x"),
            ("mid-report", "x"),
            ("beta-other", "report"),
        ];
        let found = match_skills("report", skills, &MatchConfig::default());
        assert_eq!(names(&found), ["alpha-report", "mid-report", "zeta-report"]);
        assert!(found.iter().all(|m| m.score == NAME_WEIGHT));
    }

    #[test]
    fn order_of_skills_does_not_change_the_result() {
        let inputs = [
            "please fill in this PDF form",
            "merge and split pdf pages, review the changes, commit",
            "documents",
            "tables charts slides fonts colours",
        ];
        let config = MatchConfig {
            max_skills: 4,
            min_score: 1,
        };
        for input in inputs {
            let expected = match_skills(input, LIBRARY.iter().copied(), &config);
            let mut skills = LIBRARY.to_vec();
            for rotation in 0..skills.len() {
                skills.rotate_left(1);
                assert_eq!(
                    match_skills(input, skills.iter().copied(), &config),
                    expected,
                    "{input} rotated {rotation}"
                );
                let reversed: Vec<_> = skills.iter().rev().copied().collect();
                assert_eq!(match_skills(input, reversed, &config), expected, "{input}");
            }
        }
    }

    #[test]
    fn a_name_given_twice_keeps_its_best_entry_in_any_order() {
        let config = MatchConfig {
            max_skills: 5,
            min_score: 1,
        };
        let a = [
            ("dup", "tables"),
            ("other", "charts"),
            ("dup", "tables charts"),
        ];
        let mut b = a;
        b.reverse();
        let expected = vec![
            Match {
                name: "dup".into(),
                score: 2,
                matched: vec!["charts".into(), "tables".into()],
            },
            Match {
                name: "other".into(),
                score: 1,
                matched: vec!["charts".into()],
            },
        ];
        assert_eq!(match_skills("tables charts", a, &config), expected);
        assert_eq!(match_skills("tables charts", b, &config), expected);
    }

    #[test]
    fn deterministic_across_runs() {
        let input = "review my PDF forms and the spreadsheet formulas, then commit";
        let first = pick(input);
        for _ in 0..20 {
            assert_eq!(pick(input), first);
        }
    }

    #[test]
    fn unicode_input() {
        // German: `pdf` and `formular` are split out of `PDF-Formular`, and `ÜBER` lowercases.
        let skills = [
            ("pdf-formular", "Füllt PDF-Formulare aus."),
            ("übersetzung", "Übersetzt Texte über Sprachen hinweg."),
            ("навык-отчёт", "Готовит отчёты по продажам."),
        ];
        let config = MatchConfig::default();
        assert_eq!(
            names(&match_skills(
                "Bitte das PDF-Formular ausfüllen",
                skills,
                &config
            )),
            ["pdf-formular"]
        );
        let found = match_skills("ÜBERSETZUNG bitte", skills, &config);
        assert_eq!(names(&found), ["übersetzung"]);
        assert_eq!(found[0].matched, ["übersetzung"]);
        assert_eq!(
            names(&match_skills("Сделай ОТЧЁТ", skills, &config)),
            ["навык-отчёт"]
        );
        // Chinese has no spaces: the whole run is one word and matches only itself.
        let chinese = [("销售报告", "生成销售报告")];
        assert_eq!(
            names(&match_skills("销售报告", chinese, &config)),
            ["销售报告"]
        );
        assert!(match_skills("请帮我写销售报告", chinese, &config).is_empty());
    }

    #[test]
    fn empty_and_stop_word_only_input_match_nothing() {
        let config = MatchConfig {
            max_skills: 10,
            min_score: 0,
        };
        for input in [
            "",
            "   ",
            "?!…",
            "a an to of",
            "use this skill when the user asks for it, please",
            "Use THIS Skill With The User",
        ] {
            assert!(
                match_skills(input, LIBRARY.iter().copied(), &config).is_empty(),
                "{input:?}"
            );
        }
        assert!(match_skills("pdf", [], &config).is_empty());
        assert!(match_skills("pdf", [("", "")], &config).is_empty());
    }

    #[test]
    fn no_panic_on_odd_input() {
        // A small deterministic generator over characters that stress lowercasing (`İ` grows),
        // combining marks, surrogates' neighbours, control and wide characters.
        let alphabet: Vec<char> =
            "aZ9-_ İıßΣσς\u{301}\u{0}\u{7f}\u{200b}\u{feff}\u{fffd}😀日本語ﬁ\n\t"
                .chars()
                .collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..300 {
            let mut text = String::new();
            let len = next() % 40;
            for _ in 0..len {
                let index = usize::try_from(next() % alphabet.len() as u64).unwrap_or(0);
                text.push(alphabet[index]);
            }
            let skills = [(text.as_str(), text.as_str()), ("pdf", "iii ßßß")];
            let _ = match_skills(&text, skills, &MatchConfig::default());
            let _ = keywords(&text);
        }
        let big = "pdf forms ".repeat(5_000);
        let found = match_skills(&big, LIBRARY.iter().copied(), &MatchConfig::default());
        assert_eq!(found[0].name, "pdf-forms");
    }

    #[test]
    fn keywords_lists_the_keys() {
        assert_eq!(keywords("Files, FILES and filing!"), ["fil"]);
        assert!(keywords("use the skill").is_empty());
    }
}
