//! Compile-time behaviour of `skills!`, pinned by trybuild `.stderr` snapshots.
//!
//! trybuild compiles each case as its own crate under `target/tests/`, so the macro would look
//! for fixtures there. `SKILLS_MACRO_TEST_BASE_DIR` points it back at this crate; the messages
//! show paths relative to it, so the snapshots hold no machine paths.

#[test]
fn ui() {
    // SAFETY: set before trybuild starts any thread or child process; this binary has no other test.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("SKILLS_MACRO_TEST_BASE_DIR", env!("CARGO_MANIFEST_DIR"));
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
