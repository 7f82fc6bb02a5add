//! The encoder the macro shares with the lookups in [`crate::model::index`]: what `skills!`
//! computes when the crate compiles, with the same hash and layout the run-time side reads.

use crate::model::index::{SLOT_TAG, name_hash};

/// Compresses a block as `Block::packed` holds it (used by the macro).
#[cfg(feature = "compress")]
pub fn pack(bytes: &[u8]) -> Vec<u8> {
    lz4_flex::compress_prepend_size(bytes)
}

/// The name table for `names` (in skill order): a power of two at least twice as long. Empty
/// (names are then found by binary search) past 2^24 - 1 skills, which slots cannot index.
pub fn name_table<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Vec<u32> {
    if names.len() >= (1 << 24) - 1 {
        return Vec::new();
    }
    let size = (names.len() * 2).next_power_of_two().max(2);
    let mask = size - 1;
    let mut table = vec![0u32; size];
    for (at, name) in names.enumerate() {
        let hash = name_hash(name.as_bytes());
        let mut slot = hash as usize & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = (hash & SLOT_TAG) | (at as u32 + 1);
    }
    table
}
