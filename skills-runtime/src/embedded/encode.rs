//! The encoder the macro shares with the lookups in [`crate::model::index`]: what `skills!`
//! computes when the crate compiles, with the same hash and layout the run-time side reads.

use crate::model::index::{PathTable, Span, name_hash, path_key, path_slot, slot_key};

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

/// How many multipliers the macro tries per skill before it gives the skill no path table: ten
/// paths find one in about 40 tries, sixteen in about a million, so this bounds the work for
/// large skills, which are scanned instead.
const PATH_TABLE_TRIES: u32 = 1 << 14;

/// A skill's path table (see [`PathTable`]) for its `paths` in file order: the first
/// multiplier under which every path has a slot of its own, or `(0, 0)` (no table) for more
/// than 16 paths, two paths with the same key, or no such multiplier within the tries.
pub fn path_table<'a>(paths: impl ExactSizeIterator<Item = &'a [u8]>) -> PathTable {
    if paths.len() > 16 {
        return (0, 0);
    }
    let keys: Vec<u32> = paths.map(path_key).collect();
    for seed in 1..=PATH_TABLE_TRIES {
        // Odd multipliers spread by the golden ratio; never 0, which means "no table".
        let mult = seed.wrapping_mul(0x9e37_79b9) | 1;
        let mut taken = 0u16;
        let mut slots = 0u64;
        let perfect = keys.iter().enumerate().all(|(at, &key)| {
            let slot = path_slot(key, mult);
            let bit = 1u16 << slot;
            let free = taken & bit == 0;
            taken |= bit;
            slots |= (at as u64) << (4 * slot);
            free
        });
        if perfect {
            return (mult, slots);
        }
    }
    (0, 0)
}
