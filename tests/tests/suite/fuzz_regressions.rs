//! Every input the fuzz targets (`fuzz/`) ever crashed on, kept under
//! `fixtures/fuzz/<target>/` and run through the very oracle that found it (`fuzz/src/lib.rs`,
//! compiled in here), plus the seed corpus of each target, so CI checks them on every run
//! without cargo-fuzz or a nightly feature.
//!
//! To add a finding: copy `fuzz/artifacts/<target>/crash-*` to `fixtures/fuzz/<target>/` under
//! a name that says what it broke, fix the bug, and add the name to the table below.

use std::fs;
use std::path::Path;

use crate::oracle;

type Oracle = fn(&[u8]);

const TARGETS: [(&str, Oracle); 4] = [
    ("frontmatter", oracle::frontmatter),
    ("path", oracle::path),
    ("excerpt", oracle::excerpt),
    ("handler", oracle::handler),
];

/// The findings, by target, with what each one broke.
const FINDINGS: &[(&str, &str, &str)] = &[
    (
        "frontmatter",
        "lone-cr-line-numbers",
        "a lone \\r is a line break to the YAML parser only: a syntax error on line 58 of an 8-line file",
    ),
    (
        "path",
        "dot-slash-drive",
        "`./d:` passed the drive check, and normalised to `d:`, which does not: not idempotent",
    ),
    (
        "handler",
        "secret-echoed-from-the-call",
        "the oracle's own bug: a section name holding the secret was echoed back, which is no leak",
    ),
];

fn run_dir(target: &str, oracle: Oracle, dir: &Path, only_seeds: bool) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut count = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if only_seeds && !name.starts_with("seed-") {
            continue;
        }
        let data = fs::read(&file).unwrap();
        let result = std::panic::catch_unwind(|| oracle(&data));
        assert!(result.is_ok(), "{target}: {} fails again", file.display());
        count += 1;
    }
    count
}

#[test]
fn every_finding_is_kept_and_passes() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    for (target, name, what) in FINDINGS {
        let file = base.join(target).join(name);
        assert!(file.is_file(), "{} is missing ({what})", file.display());
    }
    let mut ran = 0;
    for (target, oracle) in TARGETS {
        ran += run_dir(target, oracle, &base.join(target), false);
    }
    assert_eq!(ran, FINDINGS.len(), "a finding is not in the table");
}

#[test]
fn the_seed_corpora_pass() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    for (target, oracle) in TARGETS {
        let ran = run_dir(target, oracle, &base.join(target), true);
        assert!(ran > 5, "{target}: only {ran} seeds");
    }
}
