//! Lookups on one tree, side by side: `skills` by id + path and by name + path, a miss, the
//! `include_dir`'s `get_file` and `rust-embed`'s `get` (the prototype layouts are checked to
//! serve the same bytes, and their allocations counted).
//!
//! The tree is `$OUT_DIR/lookup`, written by `build.rs`: 10 skills by default (what CI
//! compiles), 1,000 skills (10,000 files) with `SKILLS_BENCH_SKILLS=1000`, or a preset of
//! `treegen` with `SKILLS_BENCH_TREE` (`s1000`, `deep1000`), as `bench/scripts/lookup.sh`
//! runs them. Before criterion starts, a counting allocator prints the
//! allocations per call of each method.
// `criterion_group!` writes an undocumented `pub fn`.
#![allow(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use include_dir::{Dir, include_dir};
use skills_bench::treegen::skill;
use skills_bench::{lookup_blob, lookup_spec, lookup_table};

skills_bench::lookup_skills!();

static INCLUDE_DIR: Dir<'static> = include_dir!("$OUT_DIR/lookup");

skills_bench::lookup_rust_embed!(Embedded);

struct Counting;

thread_local! {
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

/// One file to look up, in every form the contenders take.
struct Query {
    id: SkillId,
    index: usize,
    name: &'static str,
    path: &'static str,
    full: String,
}

/// 64 files spread over the tree and over the kinds of files.
fn queries() -> Vec<Query> {
    let spec = lookup_spec(SKILLS.len());
    let n = SKILLS.len().max(1);
    (0..64)
        .map(|q| {
            let i = (q * 7919) % n;
            let g = skill(&spec, i);
            let id: SkillId = g.name.parse().expect("the generated name is a skill");
            let file = &g.files[(q * 3) % g.files.len()];
            let loaded = SKILLS
                .skill(id)
                .load(&file.path)
                .expect("the generated file is served");
            Query {
                id,
                index: SKILLS
                    .skills()
                    .iter()
                    .position(|s| s.name() == g.name)
                    .unwrap_or(0),
                name: id.name(),
                path: loaded.path(),
                full: format!("{}/{}", g.dir, file.path),
            }
        })
        .collect()
}

fn allocations_per_call(queries: &[Query], f: impl Fn(&Query)) -> f64 {
    let before = ALLOCATIONS.with(Cell::get);
    for q in queries {
        f(q);
    }
    (ALLOCATIONS.with(Cell::get) - before) as f64 / queries.len() as f64
}

/// Every contender serves the same bytes for every query.
fn verify(queries: &[Query]) {
    for q in queries {
        let want = SKILLS.skill(q.id).load(q.path).expect("hit").bytes();
        let table = lookup_table::SET.load(q.index, q.path).expect("table hit");
        let blob = lookup_blob::SET
            .load_by_name(q.name, q.path)
            .expect("blob hit");
        let fast = lookup_blob::SET
            .load_by_name_fast(q.name, q.path)
            .expect("fast hit");
        assert_eq!(fast.bytes, want, "blob fast {}", q.full);
        assert_eq!(table.bytes, want, "table {}", q.full);
        assert_eq!(blob.bytes, want, "blob {}", q.full);
        let raw = INCLUDE_DIR
            .get_file(&q.full)
            .expect("include_dir hit")
            .contents();
        assert!(raw.ends_with(want), "include_dir {}", q.full);
        let embedded = Embedded::get(&q.full).expect("rust-embed hit");
        assert_eq!(&embedded.data[..], raw, "rust-embed {}", q.full);
    }
}

fn report_allocations(queries: &[Query]) {
    let rows: [(&str, f64); 9] = [
        (
            "skills: hit by id + path",
            allocations_per_call(queries, |q| {
                black_box(
                    SKILLS
                        .skill(q.id)
                        .load(q.path)
                        .map(|f| f.bytes().len())
                        .ok(),
                );
            }),
        ),
        (
            "skills: hit by name + path",
            allocations_per_call(queries, |q| {
                black_box(
                    SKILLS
                        .get(q.name)
                        .and_then(|s| s.load(q.path))
                        .map(|f| f.bytes().len())
                        .ok(),
                );
            }),
        ),
        (
            "skills: hit by parse + path",
            allocations_per_call(queries, |q| {
                black_box(
                    q.name
                        .parse::<SkillId>()
                        .and_then(|id| SKILLS.skill(id).load(q.path))
                        .map(|f| f.bytes().len())
                        .ok(),
                );
            }),
        ),
        (
            "skills: miss",
            allocations_per_call(queries, |q| {
                black_box(SKILLS.skill(q.id).load("references/missing.md").is_err());
            }),
        ),
        (
            "prototype table: hit by id + path",
            allocations_per_call(queries, |q| {
                black_box(
                    lookup_table::SET
                        .load(q.index, q.path)
                        .map(|h| h.bytes.len()),
                );
            }),
        ),
        (
            "prototype blob: hit by name + path",
            allocations_per_call(queries, |q| {
                black_box(
                    lookup_blob::SET
                        .load_by_name(q.name, q.path)
                        .map(|h| h.bytes.len()),
                );
            }),
        ),
        (
            "include_dir: get_file",
            allocations_per_call(queries, |q| {
                black_box(INCLUDE_DIR.get_file(&q.full).map(|f| f.contents().len()));
            }),
        ),
        (
            "rust-embed: get",
            allocations_per_call(queries, |q| {
                black_box(Embedded::get(&q.full).map(|f| f.data.len()));
            }),
        ),
        (
            "rust-embed: miss",
            allocations_per_call(queries, |q| {
                black_box(Embedded::get(&format!("{}.missing", q.full)).is_none());
            }),
        ),
    ];
    println!(
        "sizes: file entry {} B, skill entry {} B, skills_embed::Skill {} B",
        size_of::<skills_embed::__private::FileEntry>(),
        size_of::<skills_embed::__private::SkillEntry>(),
        size_of::<skills_embed::Skill>(),
    );
    println!(
        "allocations per call ({} skills, {} queries):",
        SKILLS.len(),
        queries.len()
    );
    for (name, n) in rows {
        println!("  {name}: {n}");
    }
}

fn lookups(c: &mut Criterion) {
    let queries = queries();
    verify(&queries);
    report_allocations(&queries);
    let mask = queries.len() - 1;
    let mut group = c.benchmark_group("lookup");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));

    // Each lookup returns a plain `usize` (0 for a miss) to `black_box`: an `Option<usize>` is
    // written as two words and read back as one 16-byte load, a store-forwarding stall of about
    // 4 ns that every contender paid and that was a quarter of a hit's time (BENCHMARKS.md).
    macro_rules! bench {
        ($name:expr, |$q:ident| $body:expr) => {{
            let mut i = 0usize;
            group.bench_function($name, |b| {
                b.iter(|| {
                    let $q = &queries[i & mask];
                    i = i.wrapping_add(1);
                    black_box($body)
                })
            });
        }};
    }

    bench!("skills_id_path", |q| SKILLS
        .skill(black_box(q.id))
        .load(black_box(q.path))
        .map_or(0, |f| f.bytes().len()));
    bench!("skills_name_path", |q| SKILLS
        .get(black_box(q.name))
        .and_then(|s| s.load(black_box(q.path)))
        .map_or(0, |f| f.bytes().len()));
    bench!("skills_parse_path", |q| black_box(q.name)
        .parse::<SkillId>()
        .and_then(|id| SKILLS.skill(id).load(black_box(q.path)))
        .map_or(0, |f| f.bytes().len()));
    bench!("skills_id_path_text", |q| SKILLS
        .skill(black_box(q.id))
        .load(black_box(q.path))
        .ok()
        .and_then(|f| f.text())
        .map_or(0, str::len));
    bench!("skills_miss", |q| SKILLS
        .skill(black_box(q.id))
        .load(black_box("references/missing.md"))
        .is_err());
    // Where the time goes.
    bench!("part_harness", |q| black_box(q.path).len());
    bench!("part_path_check", |q| skills_embed::__private::check(
        black_box(q.path)
    )
    .is_ok());
    bench!("part_skills_get_name", |q| SKILLS
        .get(black_box(q.name))
        .is_ok());
    bench!("part_parse_id", |q| black_box(q.name)
        .parse::<SkillId>()
        .is_ok());
    bench!("include_dir_get_file", |q| INCLUDE_DIR
        .get_file(black_box(&q.full))
        .map_or(0, |f| f.contents().len()));
    bench!("rust_embed_get", |q| Embedded::get(black_box(&q.full))
        .map_or(0, |f| f.data.len()));
    bench!("rust_embed_miss", |q| Embedded::get(black_box(q.name))
        .is_none());
    group.finish();
}

criterion_group!(benches, lookups);
criterion_main!(benches);
