//! Run-time side of the prototype index layouts (not the library's): what `skills!` could
//! generate instead of one `File` struct per file. [`emit`](crate::emit) writes the statics.
//!
//! - **table**: per file one `&'static [u8]` (16 bytes and one 24-byte relocation in a PIE) and
//!   its path as an offset into one string table shared by the whole set, with identical paths
//!   stored once. 24 bytes per file plus the relocation.
//! - **blob**: every file's bytes in one `#[repr(C)]` struct of byte arrays (contiguous, no
//!   padding), addressed by offsets: 16 bytes per file and no relocation at all.
//! - **cblob**: the same offsets into a `[u8; N]` static that const evaluation fills from each
//!   file's `include_bytes!` with [`put`] (no `unsafe`, unlike `blob`).
//!
//! Both keep per-skill data in a plain table of offsets ([`SkillEntry`]), look a skill up by
//! index or by a binary search on its name, and a path by a binary search in the skill's range
//! of files, after the same path check as the library. Digests are not stored: a host that
//! needs one hashes the bytes when it asks.

use std::cmp::Ordering;

/// Flag: the file is UTF-8 text.
pub const TEXT: u16 = 1;
/// Flag: the file had an executable bit.
pub const EXEC: u16 = 2;

/// One skill: offsets into the string table (the description into the blob for `blob`).
#[derive(Debug, Clone, Copy)]
pub struct SkillEntry {
    /// Offset of the name in the string table.
    pub name: u32,
    /// Length of the name.
    pub name_len: u16,
    /// Length of the description.
    pub desc_len: u16,
    /// Offset of the description (string table for `table`, blob for `blob`).
    pub desc: u32,
    /// First file in the file table.
    pub first: u32,
    /// Number of files.
    pub count: u32,
}

/// A file of the `table` layout.
#[derive(Debug, Clone, Copy)]
pub struct TableFile {
    /// The bytes (the body only, for `SKILL.md`).
    pub bytes: &'static [u8],
    /// Offset of the path in the string table.
    pub path: u32,
    /// Length of the path.
    pub path_len: u16,
    /// [`TEXT`] and [`EXEC`].
    pub flags: u16,
}

/// A file of the `blob` layout.
#[derive(Debug, Clone, Copy)]
pub struct BlobFile {
    /// Offset of the bytes in the blob (the body only, for `SKILL.md`).
    pub data: u32,
    /// Length of the bytes.
    pub len: u32,
    /// Offset of the path in the string table.
    pub path: u32,
    /// Length of the path.
    pub path_len: u16,
    /// [`TEXT`] and [`EXEC`].
    pub flags: u16,
}

/// What both file layouts answer.
pub trait FileEntry: Copy + 'static {
    /// The path's range in the string table.
    fn path_range(&self) -> std::ops::Range<usize>;
    /// The bytes, given the blob.
    fn bytes(&self, blob: &'static [u8]) -> &'static [u8];
    /// The flags.
    fn flags(&self) -> u16;
}

impl FileEntry for TableFile {
    #[inline]
    fn path_range(&self) -> std::ops::Range<usize> {
        self.path as usize..self.path as usize + self.path_len as usize
    }
    #[inline]
    fn bytes(&self, _: &'static [u8]) -> &'static [u8] {
        self.bytes
    }
    #[inline]
    fn flags(&self) -> u16 {
        self.flags
    }
}

impl FileEntry for BlobFile {
    #[inline]
    fn path_range(&self) -> std::ops::Range<usize> {
        self.path as usize..self.path as usize + self.path_len as usize
    }
    #[inline]
    fn bytes(&self, blob: &'static [u8]) -> &'static [u8] {
        blob.get(self.data as usize..self.data as usize + self.len as usize)
            .unwrap_or(&[])
    }
    #[inline]
    fn flags(&self) -> u16 {
        self.flags
    }
}

/// Copies `src` into `out` at `at`, in const evaluation (the `cblob` layout's statics); a copy
/// that does not fit panics, which there is a compile error.
pub const fn put(out: &mut [u8], at: usize, src: &[u8]) {
    let (_, rest) = out.split_at_mut(at);
    let (dst, _) = rest.split_at_mut(src.len());
    dst.copy_from_slice(src);
}

/// A set in one of the layouts.
#[derive(Debug)]
pub struct Set<F: 'static> {
    /// Names, paths (each distinct path once) and, for `table`, descriptions.
    pub strings: &'static str,
    /// Skills sorted by name.
    pub skills: &'static [SkillEntry],
    /// Files, each skill's sorted by path.
    pub files: &'static [F],
    /// Every file's bytes (`blob` only; empty for `table`).
    pub blob: &'static [u8],
    /// The L1 listing, rendered when the crate compiled.
    pub summary: &'static str,
    /// Open-addressing hash table of the names ([`name_hash`], linear probing, a power of two
    /// long): skill index + 1, 0 for an empty slot.
    pub hash: &'static [u32],
}

/// The hash of the name table, eight bytes at a time (FxHash's mixing step; the tail is
/// zero-padded and the length mixed in). The same when the crate compiles (`emit::name_hash`)
/// and at run time.
#[inline]
pub fn name_hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut tail = [0u8; 8];
        tail[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    }
    (h >> 32) as u32
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A flag (high bit) in every byte of `x` equal to `c`; never misses one (it may also flag a
/// byte above a real match, which only sends the path to the full check).
#[inline]
fn eq_bytes(x: u64, c: u8) -> u64 {
    let v = x ^ (ONES * c as u64);
    v.wrapping_sub(ONES) & !v & HIGHS
}

/// Word-at-a-time version of [`fast_normal`]: eight bytes per step, looking for any byte that
/// needs the full check (control characters, `\\`, `%`, `:`) and for a `/` or `.` right after a
/// `/` (which covers `//`, `/./` and `/../`), plus a `.` or `/` first and a `/` last. `None`
/// sends the path to the full check; it never accepts what the full check refuses.
#[inline]
pub fn fast_normal_swar(path: &str) -> Option<&str> {
    let b = path.as_bytes();
    match (b.first(), b.last()) {
        (Some(b'.' | b'/'), _) | (_, Some(b'/')) | (None, _) => return None,
        _ => {}
    }
    let mut bad = 0u64;
    let mut prev_slash = 0u64; // the high bit set when the previous word ended in `/`
    let mut chunks = b.chunks_exact(8);
    let mut step = |w: u64| {
        let slash = eq_bytes(w, b'/');
        let dot_or_slash = slash | eq_bytes(w, b'.');
        // Bytes below 0x20: the usual "has a byte less than n" test.
        let control = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
        bad |= control
            | eq_bytes(w, 0x7f)
            | eq_bytes(w, b'\\')
            | eq_bytes(w, b'%')
            | eq_bytes(w, b':')
            | (((slash << 8) | prev_slash) & dot_or_slash);
        prev_slash = (slash >> 56) & 0x80;
    };
    for c in &mut chunks {
        step(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
        ]));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut tail = [b'a'; 8];
        tail[..rest.len()].copy_from_slice(rest);
        step(u64::from_le_bytes(tail));
    }
    (bad == 0).then_some(path)
}

/// One pass over the bytes: `Some(path)` when the path is already in normal form and plainly
/// safe (no `/` at the start or the end, no empty, `.` or `..` segment, no `\\`, `%`, `:` or
/// control character); `None` sends it to the full check ([`skills_embed::__private::check`]), which
/// accepts or refuses it exactly as the library does. Whatever this accepts, the full check
/// accepts with the same normal form.
#[inline]
pub fn fast_normal(path: &str) -> Option<&str> {
    let b = path.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= b.len() {
        let c = if i == b.len() { b'/' } else { b[i] };
        match c {
            b'/' => {
                let seg = &b[start..i];
                if seg.is_empty() || seg == b"." || seg == b".." {
                    return None;
                }
                start = i + 1;
            }
            b'\\' | b'%' | b':' | 0..=0x1f | 0x7f => return None,
            _ => {}
        }
        i += 1;
    }
    Some(path)
}

/// A hit.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// The bytes.
    pub bytes: &'static [u8],
    /// [`TEXT`] and [`EXEC`].
    pub flags: u16,
}

impl Hit {
    /// The text, checked as UTF-8 on each call (the layouts store bytes only).
    pub fn text(&self) -> Option<&'static str> {
        if self.flags & TEXT == 0 {
            return None;
        }
        std::str::from_utf8(self.bytes).ok()
    }
}

impl<F: FileEntry> Set<F> {
    /// The number of skills.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    #[inline]
    fn string(&self, start: u32, len: u16) -> &'static [u8] {
        let start = start as usize;
        self.strings
            .as_bytes()
            .get(start..start + len as usize)
            .unwrap_or(&[])
    }

    /// A skill's name.
    pub fn name(&self, skill: usize) -> &'static str {
        let s = &self.skills[skill];
        let start = s.name as usize;
        self.strings
            .get(start..start + s.name_len as usize)
            .unwrap_or("")
    }

    /// The index of a skill by name.
    #[inline]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.skills
            .binary_search_by(|s| self.string(s.name, s.name_len).cmp(name.as_bytes()))
            .ok()
    }

    /// A file of a skill by index: the same path check as the library, then a binary search.
    #[inline]
    pub fn load(&self, skill: usize, path: &str) -> Option<Hit> {
        let request = skills_embed::__private::check(path).ok()?;
        let s = self.skills.get(skill)?;
        let files = self
            .files
            .get(s.first as usize..s.first as usize + s.count as usize)?;
        let bytes = self.strings.as_bytes();
        let i = match request.as_normal_str() {
            Some(normal) => files
                .binary_search_by(|f| bytes[f.path_range()].cmp(normal.as_bytes()))
                .ok()?,
            None => {
                let normal = request.to_string();
                files
                    .binary_search_by(|f| bytes[f.path_range()].cmp(normal.as_bytes()))
                    .ok()?
            }
        };
        let f = files[i];
        Some(Hit {
            bytes: f.bytes(self.blob),
            flags: f.flags(),
        })
    }

    /// A file of a skill named by a string.
    #[inline]
    pub fn load_by_name(&self, name: &str, path: &str) -> Option<Hit> {
        self.load(self.index_of(name)?, path)
    }

    /// The index of a skill by name, through the hash table.
    #[inline]
    pub fn index_hashed(&self, name: &str) -> Option<usize> {
        let mask = self.hash.len().checked_sub(1)?;
        let mut slot = name_hash(name.as_bytes()) as usize & mask;
        loop {
            let i = (*self.hash.get(slot)? as usize).checked_sub(1)?;
            let s = self.skills.get(i)?;
            if self.string(s.name, s.name_len) == name.as_bytes() {
                return Some(i);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// [`Set::load`] with the word-at-a-time check for paths already in normal form.
    #[inline]
    pub fn load_fast(&self, skill: usize, path: &str) -> Option<Hit> {
        let Some(normal) = fast_normal_swar(path) else {
            return self.load(skill, path);
        };
        let s = self.skills.get(skill)?;
        let files = self
            .files
            .get(s.first as usize..s.first as usize + s.count as usize)?;
        let bytes = self.strings.as_bytes();
        let i = files
            .binary_search_by(|f| bytes[f.path_range()].cmp(normal.as_bytes()))
            .ok()?;
        let f = files[i];
        Some(Hit {
            bytes: f.bytes(self.blob),
            flags: f.flags(),
        })
    }

    /// A file of a skill named by a string: hashed name, word-at-a-time path check.
    #[inline]
    pub fn load_by_name_fast(&self, name: &str, path: &str) -> Option<Hit> {
        self.load_fast(self.index_hashed(name)?, path)
    }

    /// Every path of a skill, sorted.
    pub fn paths(&self, skill: usize) -> impl Iterator<Item = &'static str> + '_ {
        let s = self.skills[skill];
        self.files[s.first as usize..(s.first + s.count) as usize]
            .iter()
            .map(|f| self.strings.get(f.path_range()).unwrap_or(""))
    }

    /// Compares two skills' names (for tests).
    pub fn cmp_names(&self, a: usize, b: usize) -> Ordering {
        self.name(a).cmp(self.name(b))
    }
}

#[cfg(test)]
mod tests {
    use super::{fast_normal, fast_normal_swar};

    #[test]
    fn fast_normal_agrees_with_the_full_check() {
        for p in [
            "SKILL.md", "a/b", "./a", "a//b", "a/", "/a", "..", "a/../b", "a/./b", ".", "", "C:/x",
            "./C:/x", "a\\b", "a%2e", "a%zz", "a\u{1}b", "é/ü.md", "...", "a/.../b", ".hidden",
            "a/.b",
        ] {
            let full = skills_embed::__private::check(p)
                .ok()
                .and_then(|r| r.as_normal_str());
            if p.starts_with("references") || p.starts_with("assets") || p == "abcdefgh/x" {
                assert!(
                    fast_normal_swar(p).is_some(),
                    "plain path sent to the slow check: {p:?}"
                );
            }
            if let Some(fast) = fast_normal(p) {
                assert_eq!(Some(fast), full, "{p:?}");
            }
            if let Some(fast) = fast_normal_swar(p) {
                assert_eq!(Some(fast), full, "swar {p:?}");
            }
        }
    }

    #[test]
    fn name_hash_matches_the_emitter() {
        for name in [
            "",
            "a",
            "pdf",
            "kernel-pdf-0000",
            "a-very-long-skill-name-of-many-bytes",
        ] {
            assert_eq!(
                super::name_hash(name.as_bytes()),
                crate::emit::name_hash(name.as_bytes())
            );
        }
    }
}
