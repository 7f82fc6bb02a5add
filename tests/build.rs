//! Finds the shared corpus of real skills (`../shared/corpus` beside the repository), which CI
//! always has and a user's clone does not. Its tests compile only when it is there (`has_corpus`)
//! and say plainly that they were skipped otherwise.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_corpus)");
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/superpowers/skills");
    println!("cargo::rerun-if-changed={}", corpus.display());
    if corpus.is_dir() {
        println!("cargo::rustc-cfg=has_corpus");
    }
}
