//! Benchmarks of `skills` against `include_dir` and `rust-embed`, side by side.
//!
//! - [`treegen`]: deterministic synthetic skill trees (`cargo run -p skills-bench --bin gen_tree`).
//! - [`proto_rt`] and [`emit`]: prototype index layouts, to measure what a changed `skills!`
//!   would cost (binary size, lookups, build time).
//! - [`compress`]: the prototype of compressed embedding (compressed when the crate compiles,
//!   decompressed once, on first access).
//! - [`tokens`]: L1 listing and first-turn prompt sizes in o200k tokens.
//!
//! `BENCHMARKS.md` at the repository root has the results and the commands; `bench/scripts/`
//! holds the drivers.

pub mod compress;
pub mod compress_rt;
pub mod emit;
pub mod proto_rt;
pub mod tokens;
pub mod treegen;

/// The tree the criterion benchmark embeds (written by `build.rs` into `OUT_DIR`;
/// `SKILLS_BENCH_TREE` names a preset of `treegen`, else `SKILLS_BENCH_SKILLS` sets its number
/// of skills, 10 by default so CI stays fast). `lookup_skills!` and `lookup_rust_embed!` embed it.
pub const LOOKUP_TREE: &str = concat!(env!("OUT_DIR"), "/lookup");

include!(concat!(env!("OUT_DIR"), "/lookup_tree.rs"));

/// The spec of [`LOOKUP_TREE`] with `skills` skills: the preset `build.rs` wrote, if any.
pub fn lookup_spec(skills: usize) -> treegen::TreeSpec {
    treegen::TreeSpec::preset(env!("SKILLS_BENCH_PRESET")).unwrap_or(treegen::TreeSpec::new(skills))
}

/// Prototype index of [`LOOKUP_TREE`] in the `table` layout.
pub mod lookup_table {
    include!(concat!(env!("OUT_DIR"), "/proto_table.rs"));
}

/// Prototype index of [`LOOKUP_TREE`] in the `blob` layout.
pub mod lookup_blob {
    include!(concat!(env!("OUT_DIR"), "/proto_blob.rs"));
}
