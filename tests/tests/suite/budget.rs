//! A listing budget that knows the model: budgets in characters, tokens or a share of a context
//! window, a pluggable token counter, per-entry caps, descriptions shortened before any skill is
//! reduced to its name, recently used skills kept whole longest, a closing line that counts what
//! was shortened, and no listing and no tool when no skill is visible.

use skills_embed::__private::estimate_tokens;
use skills_embed::listing::{Budget, ListingFormat, ListingOptions};
use skills_embed::policy::Permissions;
use skills_embed::tools::{Settings, Tools};
use skills_embed::{Fields, Skill, SkillSet};

const WORDS: &str = "Review pull requests for correctness, missing tests, unsafe code, naming, \
    error handling and documentation; suggest concrete fixes with file and line references, \
    explain the reasoning behind each finding, and rank the findings by severity so the author \
    knows what to address first. Use when the user asks for a review, a second opinion, or a \
    check before merging a branch into main.";

fn skill(name: &str, description: &str) -> Skill {
    Skill::owned(
        Fields {
            name: name.into(),
            description: description.into(),
            ..Fields::default()
        },
        format!("# {name}\n\nInstructions.\n"),
        Vec::new(),
    )
}

/// 50 skills, each with a description of about 400 characters.
fn fifty() -> SkillSet {
    let skills = (0..50)
        .map(|i| skill(&format!("skill-{i:02}"), &format!("Skill {i}. {WORDS}")))
        .collect();
    SkillSet::from_skills(skills, &ListingFormat::Markdown)
}

fn budgeted(budget: Budget) -> ListingOptions {
    ListingOptions {
        budget: Some(budget),
        ..ListingOptions::default()
    }
}

/// The Markdown entry lines (`- name...`), without the closing line.
fn entries(listing: &str) -> Vec<&str> {
    listing.lines().filter(|l| l.starts_with("- ")).collect()
}

fn is_name_only(line: &str) -> bool {
    !line.contains(": ")
}

fn is_shortened(line: &str) -> bool {
    line.ends_with('…')
}

fn is_whole(line: &str) -> bool {
    line.ends_with("into main.")
}

#[test]
fn without_a_budget_the_listing_is_unchanged() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let plain = tools.listing(&ListingOptions::default());
    assert_eq!(entries(&plain).len(), 50);
    assert!(entries(&plain).iter().all(|l| is_whole(l)));
    // A budget the listing already fits changes nothing.
    let roomy = tools.listing(&budgeted(Budget::Tokens(1_000_000)));
    assert_eq!(roomy, plain);
}

#[test]
fn descriptions_are_shortened_before_any_skill_is_named_only() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let full = estimate_tokens(&tools.listing(&ListingOptions::default()));
    // A budget of nothing: every skill by name only, over budget rather than dropped.
    let names = tools.listing(&budgeted(Budget::Tokens(0)));
    assert_eq!(entries(&names).len(), 50);
    assert!(entries(&names).iter().all(|l| is_name_only(l)), "{names}");
    assert!(names.ends_with("(50 skills listed by name only: load one to read it)\n"));
    let floor = estimate_tokens(&names);
    let tight = floor + 100;
    for limit in [full * 3 / 4, full / 2, full / 4, tight, floor] {
        let listing = tools.listing(&budgeted(Budget::Tokens(limit)));
        assert!(
            estimate_tokens(&listing) <= limit,
            "{limit}: {}",
            estimate_tokens(&listing)
        );
        let lines = entries(&listing);
        assert_eq!(lines.len(), 50, "every skill still named");
        for (i, line) in lines.iter().enumerate() {
            assert!(line.starts_with(&format!("- skill-{i:02}")), "{listing}");
        }
        let named_only = lines.iter().filter(|l| is_name_only(l)).count();
        let shortened = lines.iter().filter(|l| is_shortened(l)).count();
        if named_only > 0 {
            // Every description left is shortened to the minimum before any name-only entry.
            assert_eq!(shortened + named_only, 50, "{listing}");
        }
        let closing = listing.lines().last().unwrap_or_default();
        let descriptions = |n: usize| match n {
            1 => "1 description shortened".to_owned(),
            n => format!("{n} descriptions shortened"),
        };
        let skills = |n: usize| match n {
            1 => "1 skill listed".to_owned(),
            n => format!("{n} skills listed"),
        };
        let expected = match (shortened, named_only) {
            (s, 0) => format!(
                "({} to fit the listing budget: load a skill to read it whole)",
                descriptions(s)
            ),
            (0, n) => format!("({} by name only: load one to read it)", skills(n)),
            (s, n) => format!(
                "({}, {} by name only: load one to read it)",
                descriptions(s),
                skills(n)
            ),
        };
        assert_eq!(closing, expected, "{listing}");
    }
    // Near the floor, some skills must be listed by name only.
    let tight = tools.listing(&budgeted(Budget::Tokens(tight)));
    assert!(entries(&tight).iter().any(|l| is_name_only(l)), "{tight}");
    // Name-only entries come from the end of the listing.
    assert!(is_name_only(entries(&tight)[49]), "{tight}");
}

#[test]
fn recently_used_skills_are_kept_whole_longest() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let full = estimate_tokens(&tools.listing(&ListingOptions::default()));
    let recent = ["skill-49", "skill-07", "skill-30"];
    let options = ListingOptions {
        budget: Some(Budget::Tokens(full / 3)),
        usage: recent.map(String::from).to_vec(),
        ..ListingOptions::default()
    };
    let listing = tools.listing(&options);
    assert!(estimate_tokens(&listing) <= full / 3);
    let lines = entries(&listing);
    for name in recent {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("- {name}:")))
            .unwrap_or_else(|| panic!("{name} kept: {listing}"));
        assert!(is_whole(line), "{line}");
    }
    assert!(
        lines.iter().filter(|l| is_whole(l)).count() == 3,
        "{listing}"
    );

    // Tighter: the others are listed by name only before the recent skills lose anything.
    let tighter = ListingOptions {
        budget: Some(Budget::Tokens(full / 8)),
        ..options.clone()
    };
    let listing = tools.listing(&tighter);
    let lines = entries(&listing);
    assert_eq!(lines.len(), 50);
    assert!(lines.iter().any(|l| is_name_only(l)), "{listing}");
    for name in recent {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("- {name}: "))),
            "{name} still described: {listing}"
        );
    }
}

#[test]
fn a_character_budget_and_a_context_share() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let listing = tools.listing(&budgeted(Budget::Chars(4_000)));
    assert!(listing.chars().count() <= 4_000);
    assert_eq!(entries(&listing).len(), 50);
    // 1% of a 200k-token window is 2,000 tokens.
    let share = Budget::ContextShare {
        window_tokens: 200_000,
        percent: 1,
    };
    let listing = tools.listing(&budgeted(share));
    assert!(estimate_tokens(&listing) <= 2_000);
    assert_eq!(listing, tools.listing(&budgeted(Budget::Tokens(2_000))));
}

/// A counter that says every character is a token.
fn per_char(text: &str) -> usize {
    text.chars().count()
}

#[test]
fn a_pluggable_counter_is_honoured() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let options = ListingOptions {
        budget: Some(Budget::Tokens(3_000)),
        counter: Some(per_char),
        ..ListingOptions::default()
    };
    let listing = tools.listing(&options);
    assert!(listing.chars().count() <= 3_000, "{}", listing.len());
    // The same as a budget of 3,000 characters.
    assert_eq!(listing, tools.listing(&budgeted(Budget::Chars(3_000))));
    // The estimate allows more text in 3,000 tokens.
    assert!(tools.listing(&budgeted(Budget::Tokens(3_000))).len() > listing.len());
}

#[test]
fn a_per_entry_cap() {
    let long = "word ".repeat(400);
    let set = SkillSet::from_skills(
        vec![skill("long", &long), skill("short", "Short.")],
        &ListingFormat::Markdown,
    );
    let tools = Tools::new(set.clone(), Settings::default());
    let listing = tools.listing(&budgeted(Budget::Tokens(100_000)));
    let first = entries(&listing)[0];
    assert!(first.ends_with('…'));
    assert!(first.chars().count() <= "- long: ".len() + 1_536);
    assert!(listing.ends_with(
        "- short: Short.\n(1 description shortened to fit the listing budget: load a skill to read it whole)\n"
    ));
    let capped = tools.listing(&ListingOptions {
        description_cap: Some(100),
        ..budgeted(Budget::Tokens(100_000))
    });
    assert!(entries(&capped)[0].chars().count() <= "- long: ".len() + 100);
}

#[test]
fn xml_says_it_in_a_comment() {
    let set = fifty();
    let tools = Tools::new(set.clone(), Settings::default());
    let listing = tools.listing(&ListingOptions {
        format: ListingFormat::Xml,
        budget: Some(Budget::Tokens(1_500)),
        ..ListingOptions::default()
    });
    assert!(estimate_tokens(&listing) <= 1_500);
    assert_eq!(listing.matches("<name>").count(), 50);
    assert!(
        listing
            .contains("skills listed by name only: load one to read it -->\n</available_skills>"),
        "{listing}"
    );
}

#[test]
fn no_visible_skill_no_listing_and_no_tool() {
    let empty = SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown);
    let tools = Tools::new(empty.clone(), Settings::default());
    assert!(tools.definitions().is_empty());
    for format in [ListingFormat::Markdown, ListingFormat::Xml] {
        let options = ListingOptions {
            format,
            budget: Some(Budget::Tokens(100)),
            ..ListingOptions::default()
        };
        assert_eq!(tools.listing(&options), "");
    }
    // Every skill denied: the same.
    let set = fifty();
    assert!(
        !Tools::new(set.clone(), Settings::default())
            .definitions()
            .is_empty()
    );
    assert_eq!(
        Tools::new(set.clone(), Settings::default())
            .definitions()
            .len(),
        1
    );
    let denied = Tools::new(
        set.clone(),
        Settings {
            permissions: Permissions::new().deny("*"),
            ..Settings::default()
        },
    );
    assert_eq!(denied.visible().count(), 0);
    assert!(denied.definitions().is_empty());
    assert_eq!(denied.listing(&ListingOptions::default()), "");
}

#[test]
fn prints_a_budgeted_listing() {
    // The guide example (`docs/src/listing.md`): 6 skills in 120 estimated tokens, `sql` recently used.
    let skills = [
        (
            "code-review",
            "Review a change for bugs, missing tests and style problems, and suggest fixes. Use before merging a branch.",
        ),
        (
            "deploy",
            "Deploy the service to staging or production with the release checklist. Use when the user asks to ship.",
        ),
        (
            "pdf",
            "Read, fill and merge PDF files, including scanned forms. Use when the user gives you a PDF.",
        ),
        (
            "release-notes",
            "Write release notes from merged pull requests, grouped by area. Use when preparing a release.",
        ),
        (
            "sql",
            "Write safe schema migrations with rollbacks. Use when a table or an index changes.",
        ),
        (
            "translate",
            "Translate user-facing strings and keep placeholders intact. Use for any localisation work.",
        ),
    ];
    let set = SkillSet::from_skills(
        skills.iter().map(|(n, d)| skill(n, d)).collect(),
        &ListingFormat::Markdown,
    );
    let tools = Tools::new(set.clone(), Settings::default());
    let listing = tools.listing(&ListingOptions {
        budget: Some(Budget::Tokens(120)),
        usage: vec!["sql".into()],
        ..ListingOptions::default()
    });
    println!("{listing}");
    assert!(estimate_tokens(&listing) <= 120);
    assert!(listing.contains(
        "- sql: Write safe schema migrations with rollbacks. Use when a table or an index changes.\n"
    ));
}
