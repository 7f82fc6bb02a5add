//! Surviving compaction: `Session::compact` gives back what the model had loaded, most recent
//! first, within a token budget per skill and in total, each cut ending with the call that loads
//! the rest, and a closing line naming what did not fit.

use skills_embed::__private::{estimate_tokens, reattached_blocks as blocks};
use skills_embed::tools::{Disclosure, Event, Reattached, Session};
use skills_embed::tools::{Settings, ToolStyle, Tools};
use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};

fn skill(name: &str, body: &str) -> Skill {
    Skill::owned(
        Fields {
            name: name.into(),
            description: format!("The {name} skill."),
            ..Fields::default()
        },
        body.into(),
        Vec::new(),
    )
}

fn set(skills: Vec<Skill>) -> SkillSet {
    SkillSet::from_skills(skills, &ListingFormat::Markdown)
}

/// A body of `sections` sections, about 48 estimated tokens each.
fn long_body(title: &str, sections: usize) -> String {
    let mut body = format!("# {title}\n\nRead this first.\n");
    for i in 0..sections {
        body.push_str(&format!(
            "\n## Step {i}\n\nCheck the inputs, run the command for step {i}, compare the output \
             with the expected result, and write down what differed before going on.\n\
             Repeat until the output matches; never skip the comparison.\n"
        ));
    }
    body
}

fn load(session: &mut Session, name: &str) {
    let out = session.handle("load_skill", &format!(r#"{{"skill":"{name}"}}"#));
    assert!(!out.is_error, "{}", out.text);
}

fn names(back: &Reattached) -> Vec<&str> {
    back.skills().collect()
}

const HEADING: &str = "Skills loaded earlier in this conversation, re-attached after it was summarised (most recent first):\n";

#[test]
fn defaults_are_claude_codes() {
    assert_eq!(
        (Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL),
        (5_000, 25_000)
    );
}

#[test]
fn most_recently_loaded_or_invoked_first() {
    let set = set(vec![
        skill("alpha", "Alpha.\n"),
        skill("beta", "Beta.\n"),
        skill("gamma", "Gamma.\n"),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "alpha");
    load(&mut session, "beta");
    session.next_turn();
    load(&mut session, "gamma");
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(names(&back), ["gamma", "beta", "alpha"]);
    // Loading alpha again (answered "already loaded") makes it the most recent.
    load(&mut session, "alpha");
    // So does a user invocation of beta.
    session.invoke("/beta", |_| None).unwrap();
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(names(&back), ["beta", "alpha", "gamma"]);
    assert_eq!(
        back.to_string(),
        format!(
            "{HEADING}<skill name=\"beta\">\nBeta.\n</skill>\n<skill name=\"alpha\">\nAlpha.\n</skill>\n\
             <skill name=\"gamma\">\nGamma.\n</skill>\n"
        )
    );
    assert!(back.omitted.is_empty() && back.closing.is_none());
}

#[test]
fn a_skill_over_its_share_is_cut_with_the_call_that_loads_the_rest() {
    let body = long_body("Deploy", 20);
    let set = set(vec![skill("deploy", &body)]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "deploy");
    let back = session.compact(400, Session::REATTACH_TOTAL, None);
    let deploy = &blocks(&back)[0];
    assert!(deploy.cut);
    assert!(
        deploy.tokens <= 400 && deploy.tokens > 300,
        "{}",
        deploy.tokens
    );
    assert_eq!(deploy.tokens, estimate_tokens(&deploy.text));
    let offset = deploy.next_offset.unwrap();
    // Cut at the start of a section, and the rest is what the named call returns.
    assert!(body[offset..].starts_with("\n## Step ") || body[offset..].starts_with("## Step "));
    let marker = format!(
        "[Cut at byte {offset} of {}. To continue, call load_skill with {{\"skill\": \"deploy\", \"path\": \"SKILL.md\", \"offset\": {offset}}}.]\n</skill>\n",
        body.len()
    );
    assert!(deploy.text.ends_with(&marker), "{}", deploy.text);
    assert!(
        deploy
            .text
            .starts_with("<skill name=\"deploy\">\n# Deploy\n\nRead this first.\n")
    );
    let kept = &deploy.text["<skill name=\"deploy\">\n".len()..deploy.text.len() - marker.len()];
    assert_eq!(kept, &body[..offset]);

    let rest = session.handle(
        "load_skill",
        &format!(r#"{{"skill": "deploy", "path": "SKILL.md", "offset": {offset}}}"#),
    );
    assert!(!rest.is_error);
    assert!(rest.text.contains(&body[offset..]), "{}", rest.text);
}

#[test]
fn the_default_budget_keeps_the_first_5000_tokens() {
    let body = long_body("Huge", 120);
    assert!(estimate_tokens(&body) > 5_000);
    let set = set(vec![skill("huge", &body)]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "huge");
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    let huge = &blocks(&back)[0];
    assert!(
        huge.cut && huge.tokens <= 5_000 && huge.tokens > 4_500,
        "{}",
        huge.tokens
    );
}

#[test]
fn the_total_cuts_then_leaves_out_later_skills_and_names_them() {
    // Each about 490 tokens; a total of 800 holds the first whole and part of the second.
    let set = set(vec![
        skill("first", &long_body("First", 10)),
        skill("second", &long_body("Second", 10)),
        skill("third", &long_body("Third", 10)),
        skill("tiny", "Tiny.\n"),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    for name in ["tiny", "third", "second", "first"] {
        load(&mut session, name);
    }
    let back = session.compact(Session::REATTACH_PER_SKILL, 800, None);
    assert_eq!(names(&back), ["first", "second", "tiny"]);
    assert!(!blocks(&back)[0].cut && blocks(&back)[1].cut && !blocks(&back)[2].cut);
    assert_eq!(back.omitted, ["third"]);
    let used: usize =
        blocks(&back).iter().map(|s| s.tokens).sum::<usize>() + estimate_tokens(HEADING);
    assert!(used <= 800, "{used}");
    let closing = back.closing.as_deref().unwrap();
    assert_eq!(
        closing,
        "(Not re-attached, over the budget for skills after compaction: third. To use one again, \
         load it with load_skill.)\n"
    );
    assert!(back.to_string().ends_with(closing));
}

#[test]
fn a_budget_too_small_for_any_skill_still_names_them_all() {
    let set = set(vec![skill("a", "A.\n"), skill("b", "B.\n")]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "a");
    load(&mut session, "b");
    let back = session.compact(3, 3, None);
    assert!(back.skills().next().is_none());
    assert_eq!(back.omitted, ["b", "a"]);
    assert_eq!(
        back.to_string(),
        "(Not re-attached, over the budget for skills after compaction: b, a. To use one again, \
         load it with load_skill.)\n"
    );
}

#[test]
fn user_invocations_are_included_with_their_arguments() {
    let set = set(vec![
        skill("pdf", "Fill $0 with $1.\n"),
        skill("review", "Review the change.\n"),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    session
        .invoke(r#"/pdf form.pdf "my values.json""#, |_| None)
        .unwrap();
    load(&mut session, "review");
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(names(&back), ["review", "pdf"]);
    assert!(blocks(&back)[1].invoked && !blocks(&back)[0].invoked);
    assert_eq!(
        blocks(&back)[1].text,
        "<skill name=\"pdf\">\nFill form.pdf with my values.json.\n</skill>\n"
    );
    // The model loading it afterwards sends the plain body: that is the latest content.
    session.unload("pdf");
    let _ = session.handle("load_skill", r#"{"skill":"pdf"}"#);
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(
        blocks(&back)[0].text,
        "<skill name=\"pdf\">\nFill $0 with $1.\n</skill>\n"
    );
}

#[test]
fn a_cut_user_invocation_keeps_its_arguments() {
    let body = format!("Work on $ARGUMENTS.\n{}", long_body("Steps", 10));
    let set = set(vec![skill("work", &body)]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    session.invoke("/work src/lib.rs", |_| None).unwrap();
    let back = session.compact(300, Session::REATTACH_TOTAL, None);
    let work = &blocks(&back)[0];
    assert!(work.cut && work.invoked && work.tokens <= 300);
    assert!(
        work.text
            .starts_with("<skill name=\"work\">\nWork on src/lib.rs.\n# Steps\n")
    );
    assert!(work.text.contains("To continue, call load_skill with"));
}

#[test]
fn unloaded_skills_are_not_reattached() {
    let set = set(vec![
        skill("idle", "Idle.\n"),
        skill("gone", "Gone.\n"),
        skill("kept", "Kept.\n"),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default())).unload_after(2);
    load(&mut session, "idle");
    session.next_turn();
    load(&mut session, "gone");
    load(&mut session, "kept");
    session.next_turn();
    assert!(session.unload("gone"));
    assert_eq!(session.active_skills().collect::<Vec<_>>(), ["kept"]);
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(names(&back), ["kept"]);
    // Unloaded is not "left out": the model can load them again, so nothing is named.
    assert!(back.omitted.is_empty());
}

#[test]
fn files_and_chunks_alone_are_not_reattached_and_chunk_blocks_are_left_out() {
    let body = "Intro.\n\n<chunk id=\"examples\" description=\"Worked examples\">\nExample one.\n</chunk>\n\nOutro.\n";
    let chunky = skill("chunky", body);
    let set = set(vec![chunky, skill("other", "Other.\n")]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    let out = session.handle("load_skill", r#"{"skill":"other","chunk":"nope"}"#);
    assert!(out.is_error);
    let out = session.handle("load_skill", r#"{"skill":"chunky","chunk":"examples"}"#);
    assert!(!out.is_error, "{}", out.text);
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert!(back.skills().next().is_none() && back.omitted.is_empty());
    load(&mut session, "chunky");
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    // The body as the load tool serves it; the chunk is carried by the system prompt.
    assert_eq!(
        blocks(&back)[0].text,
        "<skill name=\"chunky\">\nIntro.\n\nOutro.\n</skill>\n"
    );
    assert!(
        session
            .system_prompt(&Disclosure::Progressive, "")
            .contains("<skill_chunk skill=\"chunky\" id=\"examples\">\nExample one.\n")
    );
}

#[test]
fn a_reloaded_skill_gives_its_current_content() {
    let before = set(vec![
        skill("pdf", "Use pdftotext.\n"),
        skill("old", "Old.\n"),
    ]);
    let mut session = Session::new(Tools::new(before.clone(), Settings::default()));
    load(&mut session, "pdf");
    load(&mut session, "old");
    session.drain_events();
    let after = set(vec![skill("pdf", "Use pdftotext -layout.\n")]);
    let mut session = session.over(Tools::new(after.clone(), Settings::default()));
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert_eq!(names(&back), ["pdf"]);
    assert_eq!(
        blocks(&back)[0].text,
        "<skill name=\"pdf\">\nUse pdftotext -layout.\n</skill>\n"
    );
    let mut session = session;
    assert_eq!(
        session.drain_events(),
        [Event::Removed {
            skill: "old".into()
        }]
    );
}

#[test]
fn compact_unloads_what_was_left_out_so_it_loads_again() {
    let set = set(vec![
        skill("big", &long_body("Big", 10)),
        skill("small", "Small.\n"),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "big");
    load(&mut session, "small");
    session.drain_events();
    let back = session.compact(5_000, 60, None);
    assert_eq!(names(&back), ["small"]);
    assert_eq!(back.omitted, ["big"]);
    assert_eq!(
        session.drain_events(),
        [Event::Compacted {
            skill: "big".into()
        }]
    );
    let again = session.handle("load_skill", r#"{"skill":"big"}"#);
    assert!(again.text.contains("# Big"), "{}", again.text);
    // The one re-attached is still loaded.
    let small = session.handle("load_skill", r#"{"skill":"small"}"#);
    assert!(small.text.contains("already loaded"));
}

#[test]
fn the_split_style_names_its_own_tools() {
    let body = long_body("Deploy", 10);
    let set = set(vec![
        skill("deploy", &body),
        skill("big", &long_body("Big", 10)),
    ]);
    let config = Settings {
        style: ToolStyle::Split,
        ..Settings::default()
    };
    let mut session = Session::new(Tools::new(set.clone(), config));
    let _ = session.handle("read_skill", r#"{"skill":"big"}"#);
    let _ = session.handle("read_skill", r#"{"skill":"deploy"}"#);
    let back = session.compact(300, 320, None);
    let deploy = &blocks(&back)[0];
    let offset = deploy.next_offset.unwrap();
    assert!(deploy.text.contains(&format!(
        "To continue, call read_skill_resource with {{\"skill\": \"deploy\", \"file\": \"SKILL.md\", \"offset\": {offset}}}.]"
    )));
    let rest = session.handle(
        "read_skill_resource",
        &format!(r#"{{"skill": "deploy", "file": "SKILL.md", "offset": {offset}}}"#),
    );
    assert!(rest.text.contains(&body[offset..]), "{}", rest.text);
    assert_eq!(back.omitted, ["big"]);
    assert!(back.closing.unwrap().contains("load it with read_skill."));
}

#[test]
fn a_host_counter_is_used() {
    fn chars(text: &str) -> usize {
        text.chars().count()
    }
    let body = long_body("Deploy", 5);
    let set = set(vec![skill("deploy", &body)]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "deploy");
    let back = session.compact(500, 10_000, Some(chars));
    let deploy = &blocks(&back)[0];
    assert!(deploy.cut);
    assert_eq!(deploy.tokens, deploy.text.chars().count());
    assert!(deploy.tokens <= 500);
}

#[test]
fn nothing_loaded_gives_nothing() {
    let set = set(vec![skill("a", "A.\n")]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    let back = session.compact(Session::REATTACH_PER_SKILL, Session::REATTACH_TOTAL, None);
    assert!(back.skills().next().is_none() && back.omitted.is_empty());
    assert_eq!(back.to_string(), "");
}

#[test]
fn prints_a_reattach_after_compaction() {
    // The guide example (`docs/src/tools.md`): four skills used, re-attached in 200 estimated tokens, 100 each.
    let deploy = "# Deploy\n\nShip the service with the release checklist.\n\n\
        ## Build\n\nRun `make release` and check that the version matches the tag.\n\n\
        ## Staging\n\nDeploy to staging with `./deploy.sh staging` and run the smoke tests.\n\n\
        ## Production\n\nOnly after staging passes: `./deploy.sh production`, then watch the \
        error rate for ten minutes.\n\n\
        ## Rollback\n\nRun `./deploy.sh rollback` if the error rate doubles.\n";
    let set = set(vec![
        skill(
            "code-review",
            "Review $ARGUMENTS for bugs, missing tests and unclear names.\n",
        ),
        skill("deploy", deploy),
        skill(
            "pdf",
            "Extract text with `pdftotext -layout`; fill forms with `scripts/fill.py`.\n",
        ),
        skill(
            "release-notes",
            &format!(
                "# Release notes\n\n{}",
                "Group merged pull requests by area. ".repeat(30)
            ),
        ),
    ]);
    let mut session = Session::new(Tools::new(set.clone(), Settings::default()));
    load(&mut session, "release-notes");
    load(&mut session, "deploy");
    session
        .invoke("/code-review src/session.rs", |_| None)
        .unwrap();
    load(&mut session, "pdf");

    let back = session.compact(100, 200, None);
    print!("{back}");
    assert_eq!(names(&back), ["pdf", "code-review", "deploy"]);
    assert!(blocks(&back)[2].cut);
    assert!(
        blocks(&back)[2].text.contains("## Build") && !blocks(&back)[2].text.contains("## Staging")
    );
    assert_eq!(back.omitted, ["release-notes"]);
    // `compact` unloaded it, so the model can load it again.
    assert_eq!(
        session.active_skills().collect::<Vec<_>>(),
        ["code-review", "deploy", "pdf"]
    );
}
