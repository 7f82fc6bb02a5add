//! The compact tables `skills!` generates for a set: one string table, one entry per file, one
//! per skill, and a hash table of the names.
//!
//! The layout exists for the binary's sake. A file costs its 24-byte `FileEntry` and the one
//! relocation of its `&'static [u8]`; its path is an offset into the string table, where each
//! distinct path is stored once (`SKILL.md` and `scripts/run.sh` repeat across skills) and where
//! the names and descriptions are found inside the rendered listing rather than stored twice.
//! No digest is stored: [`Loaded::sha256`](crate::Loaded::sha256) hashes a file the first time it is asked for.
//!
//! A lookup compares the requested path with the skill's stored paths as they are: stored paths
//! are normal and inside the skill, so an exact match needs no check, and only a miss runs
//! [`path::check`](crate::model::path::check). A skill of at most 16 files has a path table in its
//! `Skill` ([`PathTable`]: a multiplier the macro picked so that each of its paths hashes to a
//! slot of its own, and per slot the file's position), so a hit is one slot and one comparison;
//! a skill the table cannot serve is scanned once by length and a one-byte tag (faster than a
//! binary search at that size: BENCHMARKS.md, "Lookups"), and one with more than 16 files is
//! searched by binary search.
//!
//! Not a public API: generated code builds these through `__private`.

use crate::model::chunk::Chunk;

/// An `(offset, length)` pair into `Index::strings`.
pub type Span = (u32, u32);

/// The span of a field that is absent (`license`, `compatibility`).
pub const NONE: Span = (u32::MAX, 0);

/// `FileEntry::flags`: the file is UTF-8 text without NUL bytes.
pub const TEXT: u16 = 1;
/// `FileEntry::flags`: the file had an executable bit.
pub const EXEC: u16 = 2;
/// `FileEntry::flags`: the bytes are in the skill's compressed block (`Index::packed`).
pub const PACKED: u16 = 4;
/// `FileEntry::flags`: the high byte is the path's tag, `path_tag`.
pub const TAG: u16 = 0xff00;

/// Skills with at most this many files are searched by tag, one pass; larger ones by binary
/// search on the path.
const SCAN_MAX: usize = 16;

/// Every table of one embedded set.
#[derive(Debug)]
pub struct Index {
    /// The listing first, then every name, description, path and other field not found in it.
    pub strings: &'static str,
    /// Skills sorted by name.
    pub skills: &'static [SkillEntry],
    /// Files, each skill's sorted by path.
    pub files: &'static [FileEntry],
    /// Every skill's `metadata` pairs, each skill's sorted by key.
    pub metadata: &'static [(&'static str, &'static str)],
    /// Every skill's `allowed-tools`, in order.
    pub tools: &'static [&'static str],
    /// Every skill's chunks, in body order.
    pub chunks: &'static [Chunk],
    /// One block per skill when the set is compressed (`skills!(..., compress = true)`), else
    /// empty.
    pub blocks: &'static [Block],
    /// Per file, its `(offset, length)` in its skill's decompressed block (`PACKED` files), when
    /// the set is compressed; else empty.
    pub packed: &'static [(u32, u32)],
    /// Cuckoo hashing over `name_hash`, a power of two long: buckets of two slots, and each
    /// name in one of its two buckets (`name_buckets`). A slot is 0 when empty, else, from the
    /// high bits down: the offset of the skill's name in `strings` (32 bits), its length in
    /// bytes (8), the high byte of its hash (8), the skill's index + 1 (16). A lookup compares
    /// the name without reading the skill's entry. Empty: look names up by binary search.
    pub names: &'static [u64],
}

/// A skill's text files, LZ4-compressed when the crate compiled (with the size prepended), and
/// the decompressed bytes once something asked for them.
#[derive(Debug)]
pub struct Block {
    /// The compressed bytes.
    pub packed: &'static [u8],
    /// Filled on the first access.
    pub unpacked: std::sync::OnceLock<Box<[u8]>>,
}

impl Block {
    /// A block (used by generated code).
    pub const fn new(packed: &'static [u8]) -> Self {
        Block {
            packed,
            unpacked: std::sync::OnceLock::new(),
        }
    }

    fn unpacked(&'static self) -> &'static [u8] {
        self.unpacked.get_or_init(|| unpack(self.packed))
    }
}

/// Decompresses a block. A block that does not decompress (never one `skills!` wrote) serves
/// empty files rather than panicking.
#[cfg(feature = "compress")]
fn unpack(packed: &[u8]) -> Box<[u8]> {
    lz4_flex::decompress_size_prepended(packed)
        .map(Vec::into_boxed_slice)
        .unwrap_or_default()
}

#[cfg(not(feature = "compress"))]
fn unpack(_: &[u8]) -> Box<[u8]> {
    Box::default()
}

/// One skill of an `Index`: spans into the string table and `(first, count)` ranges into
/// the other tables.
#[derive(Debug, Clone, Copy)]
pub struct SkillEntry {
    /// `name`.
    pub name: Span,
    /// `description`.
    pub description: Span,
    /// `license`, or `NONE`.
    pub license: Span,
    /// `compatibility`, or `NONE`.
    pub compatibility: Span,
    /// Unknown fields as JSON object text.
    pub extra: Span,
    /// Its files in `Index::files`.
    pub files: (u32, u32),
    /// Its pairs in `Index::metadata`.
    pub metadata: (u32, u32),
    /// Its tools in `Index::tools`.
    pub tools: (u32, u32),
    /// Its chunks in `Index::chunks`.
    pub chunks: (u32, u32),
    /// Its invocation policy's flag bits: `MODEL_HIDDEN` 1 (the model may not invoke it),
    /// `USER_HIDDEN` 2 (the user may not).
    pub policy: u8,
    /// Its `argument-hint`, or `NONE`.
    pub argument_hint: Span,
    /// Its named `arguments`, separated by single spaces (`(0, 0)` for none).
    pub arguments: Span,
    /// Claude Code's `when_to_use`, or `NONE` (kept apart from `client` so that a listing
    /// reads it without parsing).
    pub when_to_use: Span,
    /// Its client fields as JSON text (`ClientFields`'s, `(0, 0)` for none).
    pub client: Span,
}

impl SkillEntry {
    /// A skill with no fields and no files.
    pub const EMPTY: SkillEntry = SkillEntry {
        name: (0, 0),
        description: (0, 0),
        license: NONE,
        compatibility: NONE,
        extra: (0, 0),
        files: (0, 0),
        metadata: (0, 0),
        tools: (0, 0),
        chunks: (0, 0),
        policy: 0,
        argument_hint: NONE,
        arguments: (0, 0),
        when_to_use: NONE,
        client: (0, 0),
    };
}

/// One file of an `Index`.
#[derive(Debug, Clone, Copy)]
pub struct FileEntry {
    /// The bytes (for `SKILL.md`, the body without frontmatter).
    pub bytes: &'static [u8],
    /// Offset of the path in the string table.
    pub path: u32,
    /// Length of the path.
    pub path_len: u16,
    /// `TEXT`, `EXEC` and `PACKED` in the low byte, the path's tag in the high byte.
    pub flags: u16,
}

impl Index {
    #[inline]
    pub(crate) fn str(&'static self, (offset, len): Span) -> &'static str {
        let start = offset as usize;
        self.strings
            .get(start..start.saturating_add(len as usize))
            .unwrap_or("")
    }

    pub(crate) fn opt_str(&'static self, span: Span) -> Option<&'static str> {
        (span != NONE).then(|| self.str(span))
    }

    pub(crate) fn skill(&'static self, at: u32) -> &'static SkillEntry {
        self.skills.get(at as usize).unwrap_or(&SkillEntry::EMPTY)
    }

    /// The bytes of a span: no character-boundary checks, for comparisons.
    #[inline]
    fn bytes(&'static self, (offset, len): Span) -> &'static [u8] {
        let start = offset as usize;
        self.strings
            .as_bytes()
            .get(start..start.saturating_add(len as usize))
            .unwrap_or(&[])
    }

    /// A file's path as bytes, for the binary search.
    #[inline]
    pub(crate) fn path_bytes(&'static self, file: &FileEntry) -> &'static [u8] {
        self.bytes((file.path, u32::from(file.path_len)))
    }

    #[inline]
    pub(crate) fn path(&'static self, file: &FileEntry) -> &'static str {
        self.str((file.path, u32::from(file.path_len)))
    }

    /// The file of `files` (one skill's) whose path is exactly `path`: `None` when there are
    /// too many files to scan (then [`Index::find_file`]), else the scan's answer. One pass over
    /// at most 16 entries, comparing a byte of hash and the length before any path: cheaper than
    /// the four string comparisons of a binary search.
    #[inline]
    pub(crate) fn scan(
        &'static self,
        files: &'static [FileEntry],
        path: &[u8],
    ) -> Option<Option<&'static FileEntry>> {
        if files.len() > SCAN_MAX {
            return None;
        }
        let tag = u16::from(path_tag(path)) << 8;
        Some(files.iter().find(|f| {
            f.flags & TAG == tag
                && usize::from(f.path_len) == path.len()
                && same(self.path_bytes(f), path)
        }))
    }

    /// The file of `files` (one skill's) whose path is exactly `path`, through the skill's path
    /// table (`PathTable`): one slot read and one comparison, with no loop whose exit moves from
    /// query to query. `None` when the skill has no table (then [`Index::scan`]).
    #[inline]
    pub(crate) fn find_in_table(
        &'static self,
        files: &'static [FileEntry],
        path: &[u8],
        table: PathTable,
    ) -> Option<Option<&'static FileEntry>> {
        let (mult, slots) = table;
        if mult == 0 {
            return None;
        }
        let at = (slots >> (4 * path_slot(path_key(path), mult))) & 0xf;
        // The table is perfect over the skill's paths, so any other file in that slot means
        // the path is not stored.
        Some(
            files.get(at as usize).filter(|f| {
                usize::from(f.path_len) == path.len() && same(self.path_bytes(f), path)
            }),
        )
    }

    /// The position in `files` (one skill's, sorted by path) of the file whose path is exactly
    /// `path`, by binary search: for skills too large for [`Index::scan`].
    pub(crate) fn find_file(
        &'static self,
        files: &'static [FileEntry],
        path: &[u8],
    ) -> Option<usize> {
        files
            .binary_search_by(|f| self.path_bytes(f).cmp(path))
            .ok()
    }

    /// A file entry's position in `files`, from its address: a lookup then carries one
    /// pointer rather than a pointer and an index. An entry from elsewhere gives a position
    /// past the end, which every table answers with nothing.
    fn position(&'static self, file: &'static FileEntry) -> usize {
        let offset = (file as *const FileEntry as usize).wrapping_sub(self.files.as_ptr() as usize);
        offset / std::mem::size_of::<FileEntry>().max(1)
    }

    /// The length of a packed file, known without decompressing.
    pub(crate) fn packed_len(&'static self, file: &'static FileEntry) -> usize {
        self.packed
            .get(self.position(file))
            .map_or(0, |&(_, len)| len as usize)
    }

    /// The bytes of a packed file: its range of its skill's block, decompressed on the first
    /// access to any file of the skill.
    pub(crate) fn unpacked(&'static self, skill: u32, file: &'static FileEntry) -> &'static [u8] {
        let Some(block) = self.blocks.get(skill as usize) else {
            return &[];
        };
        let Some(&(offset, len)) = self.packed.get(self.position(file)) else {
            return &[];
        };
        let start = offset as usize;
        block
            .unpacked()
            .get(start..start.saturating_add(len as usize))
            .unwrap_or(&[])
    }

    /// The skill's index by name, through the hash table.
    #[inline]
    pub(crate) fn find_name(&'static self, name: &str) -> Option<usize> {
        let buckets = (self.names.len() / 2).checked_sub(1)?;
        let hash = name_hash(name.as_bytes());
        let key = slot_key(name.as_bytes(), hash)?;
        let (first, second) = name_buckets(hash, buckets);
        // The name is in one of four slots: all four are read and the first whose key matches
        // is kept, so where it is costs no branch (a probe loop's exit mispredicts from query
        // to query).
        let slots = [
            *self.names.get(first)?,
            *self.names.get(first + 1)?,
            *self.names.get(second)?,
            *self.names.get(second + 1)?,
        ];
        let matches = |v: u64| v & SLOT_KEY == key;
        let value = if matches(slots[0]) {
            slots[0]
        } else if matches(slots[1]) {
            slots[1]
        } else if matches(slots[2]) {
            slots[2]
        } else {
            slots[3]
        };
        if self.holds(value, key, name) {
            return ((value & SLOT_INDEX) as usize).checked_sub(1);
        }
        // A miss, or another name of the same key in an earlier slot.
        let value = slots.into_iter().find(|&v| self.holds(v, key, name))?;
        ((value & SLOT_INDEX) as usize).checked_sub(1)
    }

    /// Whether a name table slot holds `name`, whose slot key is `key`. Length and a byte of
    /// hash spare the comparison for most names sharing a slot; equal keys mean equal lengths,
    /// so the slot's name is `name.len()` bytes at its offset.
    #[inline]
    fn holds(&'static self, value: u64, key: u64, name: &str) -> bool {
        value & SLOT_KEY == key
            && same(
                self.bytes(((value >> 32) as u32, name.len() as u32)),
                name.as_bytes(),
            )
    }
}

pub(crate) fn slice<T>(all: &'static [T], (first, count): (u32, u32)) -> &'static [T] {
    let first = first as usize;
    all.get(first..first.saturating_add(count as usize))
        .unwrap_or(&[])
}

/// Whether two byte strings are equal, compared a word at a time with a last overlapping word
/// (no call to `memcmp`, which costs more than the comparison for a path or a name).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        return small(a) == small(b);
    }
    let words = |s| {
        <[u8]>::chunks_exact(s, 8).map(|w| <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes))
    };
    let diff = words(a).zip(words(b)).fold(0, |d, (x, y)| d | (x ^ y));
    diff | (word(a, n - 8) ^ word(b, n - 8)) == 0
}

/// Eight bytes of `s` from `at` (zero past the end, which callers never ask for).
#[inline]
fn word(s: &[u8], at: usize) -> u64 {
    s.get(at..at.wrapping_add(8))
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Up to seven bytes as one word: two overlapping four-byte loads from 4 bytes on, the bytes
/// one by one below (the length is compared or mixed in by the callers).
#[inline]
fn small(s: &[u8]) -> u64 {
    let n = s.len();
    let half = |at: usize| {
        s.get(at..at.wrapping_add(4))
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map_or(0, u32::from_le_bytes)
    };
    if n >= 4 {
        u64::from(half(0)) | u64::from(half(n - 4)) << 32
    } else {
        s.iter()
            .enumerate()
            .fold(0, |t, (i, b)| t | u64::from(*b) << (8 * i))
    }
}

/// The hash of the name table: each sixteen bytes through a folded 64x64-bit multiply (the two
/// halves of the 128-bit product xored), the last sixteen read overlapping, the length mixed
/// in; one or two independent multiplies for most names. The macro computes the same when it
/// builds the table.
#[inline]
pub fn name_hash(bytes: &[u8]) -> u64 {
    const K0: u64 = 0x243f_6a88_85a3_08d3;
    const K1: u64 = 0x1319_8a2e_0370_7344;
    const K2: u64 = 0xa409_3822_299f_31d0;
    let fold = |a: u64, b: u64| {
        let m = u128::from(a).wrapping_mul(u128::from(b));
        (m as u64) ^ ((m >> 64) as u64)
    };
    let n = bytes.len();
    if n <= 16 {
        let (a, b) = if n >= 8 {
            (word(bytes, 0), word(bytes, n - 8))
        } else {
            (small(bytes), 0)
        };
        return fold(a ^ K0 ^ n as u64, b ^ K1);
    }
    // Each sixteen bytes folded on their own (the multiplies run side by side), the chunk's
    // position mixed in so that swapped chunks hash apart; the last sixteen overlap.
    let chunk = |at: usize| {
        let seed = K2.wrapping_mul(at as u64 + 1);
        fold(word(bytes, at) ^ K0 ^ seed, word(bytes, at + 8) ^ K1)
    };
    if n <= 32 {
        // The loop below, unrolled for the most common long names: no exit to predict.
        return n as u64 ^ chunk(0) ^ chunk(n - 16);
    }
    let mut h = n as u64;
    let mut at = 0;
    while at + 16 < n {
        h ^= chunk(at);
        at += 16;
    }
    h ^ chunk(n - 16)
}

/// A name's two buckets in a name table of `mask + 1` buckets, as slot positions: from the
/// low and the high half of its hash (the slot key takes the top byte).
#[inline]
pub(crate) fn name_buckets(hash: u64, mask: usize) -> (usize, usize) {
    (
        (hash as usize & mask) * 2,
        ((hash >> 32) as usize & mask) * 2,
    )
}

/// The bits of a name table slot that hold the name's length and the high byte of its hash.
const SLOT_KEY: u64 = 0xffff_0000;
/// The bits of a name table slot that hold the skill's index + 1.
const SLOT_INDEX: u64 = 0xffff;

/// A name's length and the high byte of its hash (`name_hash(name)`), placed as a name table
/// slot holds them; `None` for a name longer than a slot records (255 bytes), which no table
/// holds.
#[inline]
pub(crate) fn slot_key(name: &[u8], hash: u64) -> Option<u64> {
    let len = u8::try_from(name.len()).ok()?;
    Some(u64::from(len) << 24 | (hash >> 56) << 16)
}

/// A skill's path table, kept in its `Skill`: a multiplier and sixteen 4-bit slots.
/// `path_slot(path_key(path), mult)` is a slot, and the slot holds the position of the one file
/// of the skill that can have that path; the macro picks the multiplier so that no two of the
/// skill's paths share a slot. A multiplier of 0: no table (more than 16 files, or no
/// multiplier found), the skill is scanned.
pub type PathTable = (u32, u64);

/// A path folded into 32 bits for the path table: its first, middle and last eight bytes and
/// its length, three loads that do not wait for any table.
#[inline]
pub(crate) fn path_key(path: &[u8]) -> u32 {
    let n = path.len();
    let k = if n >= 8 {
        word(path, 0) ^ word(path, n / 2 - 4).rotate_left(21) ^ word(path, n - 8).rotate_left(42)
    } else {
        small(path)
    } ^ n as u64;
    (k ^ (k >> 32)) as u32
}

/// The path table's slot of a key under a skill's multiplier: the top four bits of the product.
#[inline]
pub(crate) fn path_slot(key: u32, mult: u32) -> u32 {
    key.wrapping_mul(mult) >> 28
}

/// A path's tag, kept in the high byte of `FileEntry::flags`: three of its bytes mixed, which
/// with the length tells a skill's paths apart before any comparison (cheaper than a hash;
/// a collision only costs one comparison).
#[inline]
pub fn path_tag(path: &[u8]) -> u8 {
    let (Some(first), Some(last)) = (path.first(), path.last()) else {
        return 0;
    };
    let middle = path.get(path.len() / 2).copied().unwrap_or(0);
    first.rotate_left(3) ^ middle ^ last.rotate_left(5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded::encode::{name_table, path_table};

    /// A string table holding `texts` one after another, and each one's span.
    fn stored(texts: &[String]) -> (&'static str, Vec<Span>) {
        let mut strings = String::new();
        let spans = texts
            .iter()
            .map(|t| {
                let at = strings.len() as u32;
                strings.push_str(t);
                (at, t.len() as u32)
            })
            .collect();
        (String::leak(strings), spans)
    }

    /// An index of these tables, the others empty.
    fn leaked(
        strings: &'static str,
        skills: &'static [SkillEntry],
        files: &'static [FileEntry],
        names: &'static [u64],
    ) -> &'static Index {
        Box::leak(Box::new(Index {
            strings,
            skills,
            files,
            metadata: &[],
            tools: &[],
            chunks: &[],
            blocks: &[],
            packed: &[],
            names,
        }))
    }

    #[test]
    fn the_name_table_finds_every_name_and_nothing_else() {
        // Lengths from 1 to 70 bytes, so every word and tail case of the hash and the comparison
        // is met.
        let names: Vec<String> = (0..300)
            .map(|i| format!("{}{i:03}", "s".repeat(i % 68)))
            .collect();
        let (strings, spans) = stored(&names);
        let table: &'static [u64] = Vec::leak(name_table(
            names.iter().map(String::as_str).zip(spans.iter().copied()),
        ));
        let skills: Vec<SkillEntry> = spans
            .iter()
            .map(|&name| SkillEntry {
                name,
                ..SkillEntry::EMPTY
            })
            .collect();
        let index = leaked(strings, Vec::leak(skills), &[], table);
        assert_eq!(table.len(), 1024);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(index.find_name(n), Some(i), "{n}");
        }
        for miss in ["", "300", "00", "0000", "S001", "s002", &"s".repeat(300)] {
            assert_eq!(index.find_name(miss), None, "{miss}");
        }
    }

    /// An index over `paths` (sorted) as one skill, with its path table.
    fn one_skill(paths: &[String]) -> (&'static Index, &'static [FileEntry], PathTable) {
        let (strings, spans) = stored(paths);
        let files: Vec<FileEntry> = paths
            .iter()
            .zip(spans)
            .map(|(p, (at, len))| FileEntry {
                bytes: &[],
                path: at,
                path_len: len as u16,
                flags: u16::from(path_tag(p.as_bytes())) << 8,
            })
            .collect();
        let table = path_table(paths.iter().map(|p| p.as_bytes()));
        let files: &'static [FileEntry] = Vec::leak(files);
        let index = leaked(strings, &[], files, &[]);
        (index, files, table)
    }

    #[test]
    fn the_path_table_finds_every_path_and_nothing_else() {
        // One to sixteen files, short and long paths, some alike but in the middle.
        for n in 1..=16 {
            let mut paths: Vec<String> = (0..n)
                .map(|i| match i % 4 {
                    0 => format!("f{i}"),
                    1 => format!("references/{i:02}/guide.md"),
                    2 => format!("scripts/deep/er/still/run-{i}.sh"),
                    _ => format!("assets/{}.bin", "x".repeat(i)),
                })
                .collect();
            paths.sort();
            let (index, files, table) = one_skill(&paths);
            // Up to twelve paths a multiplier is all but certain; beyond, the skill may be
            // scanned instead.
            assert!(table.0 != 0 || n > 12, "{n} paths have a table");
            let find = |p: &[u8]| {
                index
                    .find_in_table(files, p, table)
                    .or_else(|| index.scan(files, p))
            };
            for (i, p) in paths.iter().enumerate() {
                let found = find(p.as_bytes());
                assert_eq!(
                    found.map(|f| f.map(|f| index.path(f))),
                    Some(Some(p.as_str()))
                );
                assert_eq!(index.position(found.flatten().unwrap_or(&files[0])), i);
            }
            for miss in ["", "f", "SKILL.md", "references/00/guide.mdx", "./f0"] {
                assert!(matches!(find(miss.as_bytes()), Some(None)), "{miss}");
            }
        }
    }

    #[test]
    fn paths_a_table_cannot_tell_apart_get_none_and_are_scanned() {
        let seventeen: Vec<String> = (0..17).map(|i| format!("f{i:02}")).collect();
        let (index, files, table) = one_skill(&seventeen);
        assert_eq!(table, (0, 0));
        assert!(index.find_in_table(files, b"f03", table).is_none());
        assert_eq!(index.find_file(files, b"f16"), Some(16));
        // Two paths with one key: no multiplier can part them.
        let alike = [
            "ab/cdefgh/x/rest/of/the/path.md",
            "ab/cdefgh/y/rest/of/the/path.md",
        ]
        .map(String::from);
        assert_eq!(path_key(alike[0].as_bytes()), path_key(alike[1].as_bytes()));
        let (index, files, table) = one_skill(&alike);
        assert_eq!(table, (0, 0));
        let scanned = index.scan(files, alike[1].as_bytes()).flatten();
        assert_eq!(scanned.map(|f| index.path(f)), Some(alike[1].as_str()));
    }

    #[test]
    fn a_set_a_slot_cannot_hold_gets_no_table() {
        let long = "n".repeat(256);
        assert!(name_table([("a", (0, 1)), (long.as_str(), (1, 256))].into_iter()).is_empty());
        assert!(!name_table([("a", (0, 1))].into_iter()).is_empty());
    }

    #[test]
    fn same_compares_every_byte() {
        for n in 0..40 {
            let a: Vec<u8> = (0..n).map(|i| i as u8).collect();
            assert!(same(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 1;
                assert!(!same(&a, &b), "{n} {i}");
            }
            assert!(!same(&a, &a[..n.saturating_sub(1)]) || n == 0);
        }
    }

    #[test]
    fn a_hand_made_table_answers_a_missing_name_with_none() {
        let index = leaked("a", &[], &[], &[1, 1]);
        assert_eq!(index.find_name("b"), None);
        // Every slot holds a name with the key of "b" whose text is "a".
        let b = slot_key(b"b", name_hash(b"b")).unwrap_or_default();
        let one = &[SkillEntry {
            name: (0, 1),
            ..SkillEntry::EMPTY
        }];
        let index = leaked("a", one, &[], Vec::leak(vec![b | 1, b | 1]));
        assert_eq!(index.find_name("b"), None);
    }
}
