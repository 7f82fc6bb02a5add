//! The integration tests of `skills-tests`, one module per concern, linked into one binary:
//! one link instead of one per file keeps a fresh build fast and its target folder small.
//! `ui.rs` (trybuild; sets an environment variable) and `alloc.rs` (a counting global
//! allocator) stay binaries of their own.

mod approval;
mod budget;
mod client_fields;
mod compress;
mod concurrency;
mod conformance;
mod corpus;
mod crates;
mod discover;
mod echoes;
mod embed;
mod extra_fields;
mod extract;
mod extract_race;
mod faults;
mod floors;
mod fuzz_regressions;
mod handler_props;
mod hostile_paths;
mod install;
mod invocation;
mod links;
mod overlay;
mod package_archive;
mod props;
mod readme;
mod reattach;
mod references;
mod scripts;
mod skill_links;
mod tools;

/// The fuzz targets' oracles, shared by `props` and `fuzz_regressions`.
#[allow(dead_code)]
#[path = "../../../fuzz/src/lib.rs"]
mod oracle;
