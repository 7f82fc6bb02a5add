//! Pins the compile errors of a broken skill with trybuild, the way a skill author's crate
//! does it (the guide, `docs/src/validation.md`, "Checking skills in CI").
//!
//! trybuild compiles each case as a crate of its own under `target/tests/trybuild/`, so the
//! macro's usual base folder (`CARGO_MANIFEST_DIR`) would be that crate's. `SKILLS_EMBED_BASE_DIR`
//! points the macro back at this crate; messages show paths relative to it, so the `.stderr`
//! snapshots hold no machine paths.

#[test]
fn broken_skills_fail_to_compile_with_these_errors() {
    // SAFETY: set before trybuild starts any thread or child process; no other test in this
    // binary reads the environment.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("SKILLS_EMBED_BASE_DIR", env!("CARGO_MANIFEST_DIR"));
    }
    trybuild::TestCases::new().compile_fail("ui/*.rs");
}
