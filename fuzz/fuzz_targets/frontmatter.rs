//! See `skills_fuzz::frontmatter`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skills_fuzz::frontmatter(data));
