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
