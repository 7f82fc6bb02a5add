//! A hit allocates nothing, and substitution never allocates past its cap: counted with a
//! global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread, so the test harness's own threads do not count; const-initialised, so
    // reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        let _ = LARGEST.try_with(|n| n.set(n.get().max(layout.size())));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

skills_embed::skills!("fixtures/basic");

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// The largest single allocation `f` makes on this thread (growing a buffer allocates anew).
fn largest_allocation_during<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = LARGEST.with(|n| n.replace(0));
    let out = f();
    let largest = LARGEST.with(|n| n.replace(before.max(n.get())));
    (largest, out)
}

#[test]
fn hits_allocate_nothing_and_misses_do() {
    let hits = allocations_during(|| {
        for _ in 0..100 {
            let body = SKILLS.skill(SkillId::Pdf).load("SKILL.md").unwrap();
            std::hint::black_box(body.text());
            let file = SKILLS
                .skill(SkillId::Pdf)
                .load("references/forms.md")
                .unwrap();
            std::hint::black_box(file.bytes());
            // Not in normal form: compared segment by segment, still no allocation.
            let file = SKILLS
                .skill(SkillId::Pdf)
                .load("./references//forms.md")
                .unwrap();
            std::hint::black_box(file.bytes());
            let skill = SKILLS.get("code-review").unwrap();
            std::hint::black_box(skill.load("SKILL.md").unwrap().bytes());
            std::hint::black_box(
                SKILLS
                    .get("pdf")
                    .and_then(|s| s.load("assets/icon.png"))
                    .unwrap()
                    .len(),
            );
            std::hint::black_box("pdf".parse::<SkillId>().unwrap());
            std::hint::black_box(SKILLS.summary());
            std::hint::black_box(SKILLS.skill(SkillId::Pdf).paths().count());
        }
    });
    assert_eq!(hits, 0, "a hit allocated");
    // The counter does see allocations: a miss builds its list of paths.
    let misses = allocations_during(|| {
        std::hint::black_box(SKILLS.skill(SkillId::Pdf).load("nope.md").unwrap_err());
    });
    assert!(misses > 0);
}

mod packed {
    skills_embed::skills!("../skills/examples/skills", compress = true);
}

#[test]
fn a_compressed_skill_allocates_once_on_first_access_then_never() {
    use packed::{SKILLS, SkillId};
    let first = allocations_during(|| {
        std::hint::black_box(
            SKILLS
                .skill(SkillId::CodeReview)
                .load("SKILL.md")
                .unwrap()
                .text(),
        );
    });
    assert_eq!(
        first, 1,
        "the first access decompresses the skill's text into one buffer"
    );
    let later = allocations_during(|| {
        for _ in 0..100 {
            let body = SKILLS.skill(SkillId::CodeReview).load("SKILL.md").unwrap();
            std::hint::black_box(body.text());
            let file = SKILLS
                .get("code-review")
                .and_then(|s| s.load("references/checklist.md"))
                .unwrap();
            std::hint::black_box(file.bytes());
        }
    });
    assert_eq!(later, 0, "a later hit allocated");
}

/// Issue 25: `$ARGUMENTS` substitution amplified without bound. A moderate case first (200 KB
/// of placeholders, 1 KB of arguments: 18 MB), then the issue's (1.98 MB, 128 KB: 25 GB).
mod substitution {
    use super::largest_allocation_during;
    use skills_embed::__private::reattached_blocks as blocks;
    use skills_embed::invoke::{self, MAX_RENDERED_BYTES};
    use skills_embed::listing::ListingFormat;
    use skills_embed::tools::Session;
    use skills_embed::{Fields, Skill, SkillSet, tools::Tools};

    fn set(body: String) -> SkillSet {
        let fields = Fields {
            name: "echo".into(),
            description: "Echo.".into(),
            ..Fields::default()
        };
        SkillSet::from_skills(
            vec![Skill::owned(fields, body, vec![])],
            &ListingFormat::Markdown,
        )
    }

    fn moderate() -> (String, String) {
        ("Use $ARGUMENTS here.\n".repeat(10_000), "a".repeat(1_000))
    }

    fn issue() -> (String, String) {
        (
            "Use $ARGUMENTS here.\n".repeat(94_000),
            "a".repeat(128 * 1024),
        )
    }

    #[test]
    fn the_function_refuses_before_allocating() {
        for (body, arg) in [moderate(), issue()] {
            let set = set(body.clone());
            let skill = set.get("echo").unwrap();
            let (largest, out) = largest_allocation_during(|| invoke::render(skill, &arg, None));
            assert!(
                largest <= MAX_RENDERED_BYTES,
                "largest allocation {largest} bytes, cap {MAX_RENDERED_BYTES}"
            );
            let Err(skills_embed::SkillError::TooLarge { rendered, .. }) = out else {
                panic!("not refused: {out:?}");
            };
            assert_eq!(
                rendered,
                body.len() + (arg.len() - "$ARGUMENTS".len()) * (body.len() / 21)
            );
        }
    }

    #[test]
    fn session_invoke_answers_an_error_and_records_nothing() {
        for (body, arg) in [moderate(), issue()] {
            let set = set(body);
            let mut session = Session::new(Tools::new(
                set.clone(),
                skills_embed::tools::Settings::default(),
            ));
            let message = format!("/echo {arg}");
            let (largest, out) = largest_allocation_during(|| session.invoke(&message, |_| None));
            assert!(
                largest <= MAX_RENDERED_BYTES,
                "largest allocation {largest} bytes, cap {MAX_RENDERED_BYTES}"
            );
            let err = out.unwrap_err();
            assert!(
                matches!(&err, skills_embed::SkillError::TooLarge { skill, .. } if skill == "echo"),
                "{err}"
            );
            assert!(
                err.to_string().contains("the limit is 2000000 bytes"),
                "{err}"
            );
            assert!(session.active_skills().next().is_none());
            assert!(session.drain_events().is_empty());
        }
    }

    #[test]
    fn reattach_after_compaction_cuts_within_the_cap() {
        // Invoked with arguments that fit, then re-attached after the skill's body grew on a
        // reload: the same arguments now fill far more placeholders.
        let (body, arg) = moderate();
        let small = set("Use $ARGUMENTS here.\n".into());
        let mut session = Session::new(Tools::new(
            small.clone(),
            skills_embed::tools::Settings::default(),
        ));
        session.invoke(&format!("/echo {arg}"), |_| None).unwrap();
        let grown = set(body);
        let mut session = session.over(Tools::new(
            grown.clone(),
            skills_embed::tools::Settings::default(),
        ));
        let (largest, back) =
            largest_allocation_during(|| session.compact(100_000_000, 100_000_000, None));
        assert!(
            largest <= MAX_RENDERED_BYTES + 4096,
            "largest allocation {largest} bytes, cap {MAX_RENDERED_BYTES}"
        );
        let echo = &blocks(&back)[0];
        assert!(echo.cut && echo.text.len() <= MAX_RENDERED_BYTES + 4096);
        assert!(echo.text.contains("Use aaaa"), "{}", &echo.text[..100]);
    }
}
