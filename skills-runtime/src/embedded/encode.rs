//! The encoder the macro shares with the lookups in [`crate::model::index`]: what `skills!`
//! computes when the crate compiles, with the same hash and layout the run-time side reads.

use crate::model::index::{
    PathTable, Span, name_buckets, name_hash, path_key, path_slot, slot_key,
};

/// Compresses a block as `Block::packed` holds it (used by the macro).
#[cfg(feature = "compress")]
pub fn pack(bytes: &[u8]) -> Vec<u8> {
    lz4_flex::compress_prepend_size(bytes)
}

/// The name table for `names`, each with the span of its text in the string table (in skill
/// order): a power of two at least twice as long, each name in one of its two buckets (cuckoo
/// hashing, each slot as [`Index::names`] describes it), the table doubled (twice at most)
/// when the names do not fit. Empty (names are then found by binary search) when a slot cannot hold a skill:
/// 65,535 skills or more, a name over 255 bytes, or a string table over 4 GiB.
///
/// [`Index::names`]: crate::model::index::Index::names
pub fn name_table<'a>(names: impl ExactSizeIterator<Item = (&'a str, Span)>) -> Vec<u64> {
    if names.len() >= usize::from(u16::MAX) {
        return Vec::new();
    }
    let mut size = (names.len() * 2).next_power_of_two().max(2);
    let mut entries = Vec::with_capacity(names.len());
    for (at, (name, (offset, len))) in names.enumerate() {
        let hash = name_hash(name.as_bytes());
        let Some(key) = slot_key(name.as_bytes(), hash) else {
            return Vec::new();
        };
        if len as usize != name.len() {
            return Vec::new();
        }
        entries.push((hash, u64::from(offset) << 32 | key | (at as u64 + 1)));
    }
    // Half full at most, far below the load where two buckets of two slots stop fitting names
    // (about 90%); a table two or four times as long parts names whose buckets still clash,
    // and past that names are found by binary search: never more than eight slots a name.
    for _ in 0..3 {
        if let Some(table) = cuckoo(&entries, size) {
            return table;
        }
        size *= 2;
    }
    Vec::new()
}

/// `entries` (hash, slot) placed in a table of `size` slots, each in one of its two buckets,
/// moving the names already placed out of the way (at most `MOVES` times per name); `None`
/// when one does not fit.
fn cuckoo(entries: &[(u64, u64)], size: usize) -> Option<Vec<u64>> {
    const MOVES: usize = 512;
    let mask = size / 2 - 1;
    let mut table = vec![0u64; size];
    let mut hashes = vec![0u64; size];
    for &(hash, slot) in entries {
        let (mut hash, mut slot) = (hash, slot);
        let (first, _) = name_buckets(hash, mask);
        let mut bucket = first;
        for moved in 0..=MOVES {
            let (a, b) = name_buckets(hash, mask);
            if let Some(free) = [a, a + 1, b, b + 1].into_iter().find(|&s| table[s] == 0) {
                table[free] = slot;
                hashes[free] = hash;
                break;
            }
            if moved == MOVES {
                return None;
            }
            // Both buckets full: take the place of one of the names in the bucket it was not
            // just moved into, alternating its two slots, and move that name next.
            bucket = if bucket == a { b } else { a };
            let at = bucket + moved % 2;
            std::mem::swap(&mut table[at], &mut slot);
            std::mem::swap(&mut hashes[at], &mut hash);
        }
    }
    Some(table)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_one_bucket_fit_two_and_no_more() {
        // Both halves of the hash 7: both buckets are bucket 7 of 8, so two names fit and a
        // third never does.
        let same: Vec<(u64, u64)> = (1..=3).map(|slot| (7 << 32 | 7, slot)).collect();
        let table = cuckoo(&same[..2], 16).unwrap_or_default();
        assert_eq!(table.get(14..), Some(&[1, 2][..]));
        assert_eq!(cuckoo(&same, 16), None);
    }

    #[test]
    fn full_buckets_move_their_names_to_their_other_bucket() {
        // Five names whose first bucket is 0, each with its own second bucket: the fifth moves
        // one of the first four out.
        let names: Vec<(u64, u64)> = (1..=5).map(|i| (i << 32, i)).collect();
        let table = cuckoo(&names, 16).unwrap_or_default();
        for (hash, slot) in names {
            let (a, b) = name_buckets(hash, 7);
            assert!(
                [a, a + 1, b, b + 1].iter().any(|&s| table[s] == slot),
                "{slot}"
            );
        }
    }

    #[test]
    fn a_large_set_gets_a_table_twice_its_size() {
        let names: Vec<String> = (0..20_000).map(|i| format!("skill-{i}")).collect();
        let table = name_table(names.iter().map(|n| (n.as_str(), (0, n.len() as u32))));
        assert_eq!(table.len(), 65_536);
        assert_eq!(table.iter().filter(|&&s| s != 0).count(), 20_000);
    }
}
