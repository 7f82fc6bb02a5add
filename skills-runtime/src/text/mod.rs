//! The bottom floor: text utilities that know nothing of skills. The one line and fence
//! scanner with sections and size-capped excerpts ([`excerpt`]), `<chunk>` block syntax
//! ([`chunks`]), the one way names are quoted ([`quote_name`], [`json_string`]), and the one
//! "did you mean" and clip ([`clip`]).

pub mod chunks;
pub mod excerpt;
pub(crate) mod lines;
pub(crate) mod media;
mod quote;
mod suggest;

pub(crate) use quote::one_line;
pub use quote::{json_string, quote_name};
#[cfg(test)]
pub(crate) use suggest::ECHO;
pub use suggest::clip;
pub(crate) use suggest::{closest, echo};

/// Whether bytes are served as text: valid UTF-8 with no NUL byte.
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok()
}

/// Texts stitched from `fragments` by a fixed pseudo-random sequence from `seed` (so a failure
/// replays), 2,000 of them, each with the last number drawn for it: the property tests of the
/// chunk and excerpt scanners share it.
#[cfg(test)]
pub(crate) fn stitched(
    seed: u64,
    fragments: &'static [&'static str],
) -> impl Iterator<Item = (String, u64)> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        state
    };
    (0..2000).map(move |_| {
        let mut drawn = next();
        let mut text = String::new();
        for _ in 0..(drawn >> 60) {
            drawn = next();
            let pick = usize::try_from(drawn >> 59).unwrap_or(0) % fragments.len();
            text.push_str(fragments[pick]);
            text.push_str(if drawn & 1 == 0 { "\n" } else { "\r\n" });
        }
        (text, drawn)
    })
}
