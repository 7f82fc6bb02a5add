//! Run-time side of the compression prototype: text files compressed per skill when the crate
//! compiles, each skill's block decompressed once, on its first access, into a `OnceLock`;
//! binary files stored as they are. Later hits are slices of the cached block: no allocation.

use std::sync::OnceLock;

use super::proto_rt::{EXEC, Hit, SkillEntry, TEXT};

/// How a block is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// As is.
    Stored,
    /// LZ4 block format, size prepended (`lz4_flex`).
    Lz4,
    /// Raw DEFLATE (`miniz_oxide`).
    Deflate,
}

impl Codec {
    /// `stored`, `lz4` or `deflate`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "stored" => Some(Codec::Stored),
            "lz4" => Some(Codec::Lz4),
            "deflate" => Some(Codec::Deflate),
            _ => None,
        }
    }

    /// Compresses.
    pub fn compress(self, raw: &[u8]) -> Vec<u8> {
        match self {
            Codec::Stored => raw.to_vec(),
            Codec::Lz4 => lz4_flex::block::compress_prepend_size(raw),
            Codec::Deflate => miniz_oxide::deflate::compress_to_vec(raw, 9),
        }
    }

    /// Decompresses (`raw_len` is the size before compression).
    pub fn decompress(self, data: &[u8], raw_len: usize) -> Vec<u8> {
        match self {
            Codec::Stored => data.to_vec(),
            Codec::Lz4 => lz4_flex::block::decompress_size_prepended(data).unwrap_or_default(),
            Codec::Deflate => miniz_oxide::inflate::decompress_to_vec_with_limit(data, raw_len)
                .unwrap_or_default(),
        }
    }
}

/// One block: a skill's text files (compressed) or its binary files (stored).
#[derive(Debug, Clone, Copy)]
pub struct Block {
    /// The stored bytes.
    pub data: &'static [u8],
    /// Size once decompressed.
    pub raw_len: u32,
    /// How `data` is stored.
    pub codec: Codec,
}

/// A file: a range of a block.
#[derive(Debug, Clone, Copy)]
pub struct CFile {
    /// Its block.
    pub block: u32,
    /// Offset in the decompressed block.
    pub offset: u32,
    /// Length.
    pub len: u32,
    /// Offset of the path in the string table.
    pub path: u32,
    /// Length of the path.
    pub path_len: u16,
    /// `TEXT` and `EXEC`.
    pub flags: u16,
}

/// A compressed set.
#[derive(Debug)]
pub struct CSet {
    /// Names and paths (each distinct path once).
    pub strings: &'static str,
    /// Skills sorted by name (`desc` unused: descriptions are in the summary).
    pub skills: &'static [SkillEntry],
    /// Files, each skill's sorted by path.
    pub files: &'static [CFile],
    /// Blocks.
    pub blocks: &'static [Block],
    /// One cache slot per block.
    pub cache: &'static [OnceLock<Box<[u8]>>],
    /// The L1 listing.
    pub summary: &'static str,
}

impl CSet {
    /// A block's bytes, decompressed on first use.
    pub fn block(&self, i: usize) -> &'static [u8] {
        let b = self.blocks[i];
        if b.codec == Codec::Stored {
            return b.data;
        }
        let cache: &'static OnceLock<Box<[u8]>> = &self.cache[i];
        cache.get_or_init(|| {
            b.codec
                .decompress(b.data, b.raw_len as usize)
                .into_boxed_slice()
        })
    }

    /// The index of a skill by name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        let bytes = self.strings.as_bytes();
        self.skills
            .binary_search_by(|s| {
                bytes[s.name as usize..s.name as usize + s.name_len as usize].cmp(name.as_bytes())
            })
            .ok()
    }

    /// A file of a skill by index.
    pub fn load(&self, skill: usize, path: &str) -> Option<Hit> {
        let request = skills_embed::__private::check(path).ok()?;
        let normal = request.as_normal_str()?;
        let s = self.skills.get(skill)?;
        let files = self
            .files
            .get(s.first as usize..s.first as usize + s.count as usize)?;
        let bytes = self.strings.as_bytes();
        let i = files
            .binary_search_by(|f| {
                bytes[f.path as usize..f.path as usize + f.path_len as usize].cmp(normal.as_bytes())
            })
            .ok()?;
        let f = files[i];
        let block = self.block(f.block as usize);
        Some(Hit {
            bytes: block
                .get(f.offset as usize..f.offset as usize + f.len as usize)
                .unwrap_or(&[]),
            flags: f.flags & (TEXT | EXEC),
        })
    }
}
