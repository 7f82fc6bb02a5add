//! See `skills_fuzz::excerpt`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skills_fuzz::excerpt(data));
