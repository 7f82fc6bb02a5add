//! A hit allocates nothing: counted with a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread, so the test harness's own threads do not count; const-initialised, so
    // reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
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

#[test]
fn hits_allocate_nothing_and_misses_do() {
    let hits = allocations_during(|| {
        for _ in 0..100 {
            let body = SKILLS.load(SkillId::Pdf, "SKILL.md").unwrap();
            std::hint::black_box(body.text());
            let file = SKILLS.load(SkillId::Pdf, "references/forms.md").unwrap();
            std::hint::black_box(file.bytes());
            // Not in normal form: compared segment by segment, still no allocation.
            let file = SKILLS.load(SkillId::Pdf, "./references//forms.md").unwrap();
            std::hint::black_box(file.bytes());
            let skill = SKILLS.get("code-review").unwrap();
            std::hint::black_box(skill.load("SKILL.md").unwrap().bytes());
            std::hint::black_box(SKILLS.load_by_name("pdf", "assets/icon.png").unwrap().len());
            std::hint::black_box("pdf".parse::<SkillId>().unwrap());
            std::hint::black_box(SKILLS.summary());
            std::hint::black_box(SKILLS.paths(SkillId::Pdf).count());
        }
    });
    assert_eq!(hits, 0, "a hit allocated");
    // The counter does see allocations: a miss builds its list of paths.
    let misses = allocations_during(|| {
        std::hint::black_box(SKILLS.load(SkillId::Pdf, "nope.md").unwrap_err());
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
        std::hint::black_box(SKILLS.load(SkillId::CodeReview, "SKILL.md").unwrap().text());
    });
    assert_eq!(
        first, 1,
        "the first access decompresses the skill's text into one buffer"
    );
    let later = allocations_during(|| {
        for _ in 0..100 {
            let body = SKILLS.load(SkillId::CodeReview, "SKILL.md").unwrap();
            std::hint::black_box(body.text());
            let file = SKILLS
                .load_by_name("code-review", "references/checklist.md")
                .unwrap();
            std::hint::black_box(file.bytes());
        }
    });
    assert_eq!(later, 0, "a later hit allocated");
}
