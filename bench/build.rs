//! Writes the tree the lookup benchmark embeds (`$OUT_DIR/lookup`, 10 skills unless
//! `SKILLS_BENCH_TREE` or `SKILLS_BENCH_SKILLS` says otherwise, so CI builds a small one), the
//! macros that embed it by its absolute path (`$OUT_DIR/lookup_tree.rs`: `skills!` and
//! rust-embed take a literal) and the prototype indexes of it (`$OUT_DIR/proto_{table,blob}.rs`).
//! Everything goes to `OUT_DIR`, as cargo asks of a build script: each profile has its own tree,
//! so a debug build and a release run no longer rewrite one folder in the source tree.

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
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let root = out.join("lookup");
    treegen::ensure_tree(&spec, &root).expect("writing $OUT_DIR/lookup");
    // `{:?}` of the path is a Rust string literal of it, whatever characters it holds.
    let macros = format!(
        "/// `skills!` over the lookup tree; the tokens given follow the path (`, compress = true`).\n\
         #[macro_export]\n\
         macro_rules! lookup_skills {{ ($($options:tt)*) => {{ ::skills_embed::skills!({root:?} $($options)*); }} }}\n\
         /// A rust-embed type named `$name` over the lookup tree.\n\
         #[macro_export]\n\
         macro_rules! lookup_rust_embed {{ ($name:ident) => {{\n\
             #[derive(::rust_embed::RustEmbed)]\n\
             #[folder = {root:?}]\n\
             struct $name;\n\
         }} }}\n"
    );
    std::fs::write(out.join("lookup_tree.rs"), macros).expect("writing lookup_tree.rs");
    for (layout, file) in [
        (emit::Layout::Table, "proto_table.rs"),
        (emit::Layout::Blob, "proto_blob.rs"),
    ] {
        let code = emit::emit(&spec, &root, layout, "crate::proto_rt", "SET");
        std::fs::write(out.join(file), code).expect("writing the prototype index");
    }
}
