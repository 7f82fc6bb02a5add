//! What generated code names: the encoder shared with the macro and the `__private` items
//! `skills!` output refers to. Not a public API.

pub(crate) mod encode;
pub mod private;
