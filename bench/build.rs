//! Writes the tree the lookup benchmark embeds (`trees/lookup`, 10 skills unless
//! `SKILLS_BENCH_SKILLS` says otherwise, so CI builds a small one) and the prototype indexes of
//! it (`$OUT_DIR/proto_{table,blob}.rs`).

#[allow(dead_code)]
#[path = "src/treegen.rs"]
mod treegen;

#[allow(dead_code)]
#[path = "src/emit.rs"]
mod emit;

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/treegen.rs");
    println!("cargo::rerun-if-changed=src/emit.rs");
    println!("cargo::rerun-if-env-changed=SKILLS_BENCH_SKILLS");
    // A debug build (CI's 10 skills) and a release run (1,000) share the folder: rewrite it
    // when the other one changed it. Writing only what is missing keeps this from looping.
    println!("cargo::rerun-if-changed=trees/lookup");
    println!("cargo::rustc-check-cfg=cfg(has_corpus)");
    if std::path::Path::new("../../shared/corpus/superpowers/skills").is_dir() {
        println!("cargo::rustc-cfg=has_corpus");
    }
    println!("cargo::rerun-if-env-changed=SKILLS_BENCH_TREE");
    // A named tree (`SKILLS_BENCH_TREE=deep1000`) wins over a number of skills of the default
    // shape; the benchmark finds the same spec again through `LOOKUP_SPEC`.
    let preset = std::env::var("SKILLS_BENCH_TREE").unwrap_or_default();
    let spec = match treegen::TreeSpec::preset(&preset) {
        Some(spec) => spec,
        None => {
            let skills = std::env::var("SKILLS_BENCH_SKILLS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(10);
            treegen::TreeSpec::new(skills)
        }
    };
    let preset = if treegen::TreeSpec::preset(&preset).is_some() {
        preset
    } else {
        String::new()
    };
    println!("cargo::rustc-env=SKILLS_BENCH_PRESET={preset}");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("trees/lookup");
    treegen::ensure_tree(&spec, &root).expect("writing trees/lookup");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    for (layout, file) in [
        (emit::Layout::Table, "proto_table.rs"),
        (emit::Layout::Blob, "proto_blob.rs"),
    ] {
        let code = emit::emit(&spec, &root, layout, "crate::proto_rt", "SET");
        std::fs::write(out.join(file), code).expect("writing the prototype index");
    }
}
