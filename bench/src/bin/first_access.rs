//! What `compress = true` costs at run time: the first access to each skill (which decompresses
//! its text once) and every access after it, next to the same set stored uncompressed.
//!
//! `SKILLS_BENCH_SKILLS=1000 cargo run --release -p skills-bench --bin first_access` (the tree is
//! `$OUT_DIR/lookup`, written by `build.rs`); `bench/scripts/first_access.sh` runs it on the
//! 10,000-file tree. The corpus (`../shared/corpus`) is measured too when it is there.

use std::hint::black_box;
use std::time::{Duration, Instant};

use skills_embed::{Skill, SkillSet};

mod lookup {
    pub mod stored {
        skills_bench::lookup_skills!();
    }
    pub mod packed {
        skills_bench::lookup_skills!(, compress = true);
    }
}

#[cfg(has_corpus)]
#[allow(deprecated)] // writing-skills is over the body-length guideline: a warning
mod corpus {
    pub mod stored {
        skills_embed::skills!("../../shared/corpus/superpowers/skills");
    }
    pub mod packed {
        skills_embed::skills!("../../shared/corpus/superpowers/skills", compress = true);
    }
}

/// Loads every file of a skill and sums its bytes (so nothing is optimised away).
fn touch(skill: &Skill) -> usize {
    skill.files().map(|f| black_box(f.bytes()).len()).sum()
}

fn report<A, B>(label: &str, stored: &'static SkillSet<A>, packed: &'static SkillSet<B>) {
    let text: usize = stored
        .skills()
        .iter()
        .flat_map(|s| s.files())
        .filter_map(|f| f.text())
        .map(str::len)
        .sum();
    let mut first = Vec::with_capacity(packed.len());
    for skill in packed.skills() {
        let t = Instant::now();
        black_box(skill.body().len());
        first.push(t.elapsed());
    }
    // Later accesses: every file of every skill, many times over, averaged.
    let rounds = (200_000
        / stored
            .skills()
            .iter()
            .map(|s| s.files().len())
            .sum::<usize>()
            .max(1))
    .max(1);
    let later = |set: &'static dyn Fn() -> usize| {
        let t = Instant::now();
        for _ in 0..rounds {
            black_box(set());
        }
        t.elapsed()
    };
    let files: usize = stored.skills().iter().map(|s| s.files().len()).sum();
    let stored_all: &'static dyn Fn() -> usize = Box::leak(Box::new(|| {
        stored.skills().iter().map(touch).sum::<usize>()
    }));
    let packed_all: &'static dyn Fn() -> usize = Box::leak(Box::new(|| {
        packed.skills().iter().map(touch).sum::<usize>()
    }));
    let per_file = |d: Duration| d.as_nanos() as f64 / (rounds * files) as f64;
    let (s, p) = (per_file(later(stored_all)), per_file(later(packed_all)));
    first.sort();
    let pick = |q: f64| first[((first.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6;
    println!(
        "| {label} | {} | {} | {text} | {:.1} | {:.1} | {:.1} | {s:.1} | {p:.1} |",
        packed.len(),
        files,
        pick(0.5),
        pick(0.9),
        pick(1.0),
    );
}

fn main() {
    println!(
        "| set | skills | files | text bytes | first access, median (µs) | p90 (µs) | slowest (µs) | \
         later access per file, stored (ns) | later access per file, compressed (ns) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    report(
        "synthetic (the lookup tree)",
        &lookup::stored::SKILLS,
        &lookup::packed::SKILLS,
    );
    #[cfg(has_corpus)]
    report(
        "superpowers (corpus)",
        &corpus::stored::SKILLS,
        &corpus::packed::SKILLS,
    );
}
