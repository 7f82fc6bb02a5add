//! See `skills_fuzz::handler`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skills_fuzz::handler(data));
