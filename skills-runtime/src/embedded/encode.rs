//! The encoder the macro shares with the lookups in [`crate::model::index`]: what `skills!`
//! computes when the crate compiles, with the same hash and layout the run-time side reads.

use crate::model::index::{Span, name_hash, slot_key};

/// Compresses a block as `Block::packed` holds it (used by the macro).
#[cfg(feature = "compress")]
pub fn pack(bytes: &[u8]) -> Vec<u8> {
    lz4_flex::compress_prepend_size(bytes)
}

/// The name table for `names`, each with the span of its text in the string table (in skill
/// order): a power of two at least twice as long, each slot as [`Index::names`] describes it.
/// Empty (names are then found by binary search) when a slot cannot hold a skill: 65,535
/// skills or more, a name over 255 bytes, or a string table over 4 GiB.
///
/// [`Index::names`]: crate::model::index::Index::names
pub fn name_table<'a>(names: impl ExactSizeIterator<Item = (&'a str, Span)>) -> Vec<u64> {
    if names.len() >= usize::from(u16::MAX) {
        return Vec::new();
    }
    let size = (names.len() * 2).next_power_of_two().max(2);
    let mask = size - 1;
    let mut table = vec![0u64; size];
    for (at, (name, (offset, len))) in names.enumerate() {
        let hash = name_hash(name.as_bytes());
        let Some(key) = slot_key(name.as_bytes(), hash) else {
            return Vec::new();
        };
        if len as usize != name.len() {
            return Vec::new();
        }
        let mut slot = hash as usize & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = u64::from(offset) << 32 | key | (at as u64 + 1);
    }
    table
}
