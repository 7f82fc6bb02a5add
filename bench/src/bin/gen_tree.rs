//! Writes a deterministic synthetic skill tree, or the prototype index source for one.
//!
//! ```text
//! gen_tree PRESET OUT_DIR                  # PRESET: tiny, s10, s100, s1000 (10mb), 100mb,
//!                                          # deep100, deep1000, flat1000
//! gen_tree --skills N [--files F] [--bytes B] [--per-category C] OUT_DIR
//! gen_tree --emit LAYOUT PRESET TREE_DIR OUT_FILE [BLOCKS_DIR]
//!                                          # LAYOUT: table, blob, cblob, lz4, deflate
//! ```
//!
//! The tree is written only if `OUT_DIR/.tree-spec` does not already name the same spec.

use std::path::PathBuf;
use std::process::ExitCode;

use skills_bench::compress::emit_source;
use skills_bench::compress_rt::Codec;
use skills_bench::emit::{Layout, emit};
use skills_bench::treegen::{TreeSpec, ensure_tree, stats};

fn usage() -> ExitCode {
    eprintln!(
        "usage: gen_tree PRESET OUT_DIR\n       gen_tree --skills N [--files F] [--bytes B] [--per-category C] OUT_DIR\n       gen_tree --emit table|blob|lz4|deflate PRESET TREE_DIR OUT_FILE [BLOCKS_DIR]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--emit") {
        let [_, layout, preset, tree, out, rest @ ..] = args.as_slice() else {
            return usage();
        };
        let Some(spec) = TreeSpec::preset(preset) else {
            return usage();
        };
        let tree = std::fs::canonicalize(tree).expect("tree folder");
        let code = if let Some(layout) = Layout::from_name(layout) {
            emit(&spec, &tree, layout, "crate::proto_rt", "SET")
        } else if let Some(codec) = Codec::from_name(layout) {
            let blocks = rest
                .first()
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(format!("{out}.blocks")));
            let blocks = {
                std::fs::create_dir_all(&blocks).expect("blocks folder");
                std::fs::canonicalize(&blocks).expect("blocks folder")
            };
            emit_source(&spec, &tree, &blocks, codec, "SET").expect("writing blocks")
        } else {
            return usage();
        };
        std::fs::write(out, code).expect("writing the source");
        return ExitCode::SUCCESS;
    }
    let (spec, out) = match args.as_slice() {
        [preset, out] => match TreeSpec::preset(preset) {
            Some(spec) => (spec, out),
            None => return usage(),
        },
        [flags @ .., out] if !flags.is_empty() => {
            let mut spec = TreeSpec::new(0);
            for pair in flags.chunks(2) {
                let [flag, value] = pair else {
                    return usage();
                };
                let Ok(value) = value.parse::<usize>() else {
                    return usage();
                };
                match flag.as_str() {
                    "--skills" => spec.skills = value,
                    "--files" => spec.files_per_skill = value,
                    "--bytes" => spec.file_bytes = value,
                    "--per-category" => spec.per_category = value,
                    _ => return usage(),
                }
            }
            (spec, out)
        }
        _ => return usage(),
    };
    let root = PathBuf::from(out);
    match ensure_tree(&spec, &root) {
        Ok(wrote) => {
            let s = stats(&spec);
            println!(
                "{}: {}: {} skills, {} files ({} text, {} binary), {} bytes{}",
                root.display(),
                spec.describe(),
                s.skills,
                s.files,
                s.text_files,
                s.binary_files,
                s.bytes,
                if wrote { "" } else { " (already there)" }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", root.display());
            ExitCode::FAILURE
        }
    }
}
