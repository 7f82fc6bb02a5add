//! See `skills_fuzz::path`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skills_fuzz::path(data));
