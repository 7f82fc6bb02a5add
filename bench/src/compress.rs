//! The compression prototype: how much a text-heavy tree shrinks, what compressing costs when
//! the crate compiles, and what the first access to a skill costs at run time.
//!
//! [`measure`] compresses a tree on disk per file, per skill and as one block, with LZ4
//! (`lz4_flex`) and DEFLATE level 9 (`miniz_oxide`), and times decompressing each block (what
//! the first access to a file of that block pays). [`emit_source`] writes the statics of a
//! per-skill compressed set ([`crate::compress_rt`]) for the build-cost crates.

use std::collections::HashMap;
use std::fmt::Write;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::compress_rt::Codec;
use crate::emit::sorted_skills;
use crate::treegen::TreeSpec;

/// How text files are grouped into blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    /// Each text file alone.
    File,
    /// A skill's text files together.
    Skill,
    /// Every text file of the set in one block.
    Set,
}

/// One codec at one granularity on one tree.
#[derive(Debug, Clone)]
pub struct Row {
    /// Codec.
    pub codec: Codec,
    /// Granularity.
    pub granularity: Granularity,
    /// Blocks.
    pub blocks: usize,
    /// Text bytes before.
    pub text_bytes: u64,
    /// Text bytes after.
    pub compressed_bytes: u64,
    /// Binary bytes (stored as they are).
    pub binary_bytes: u64,
    /// Time to compress everything, in milliseconds (added to the macro's run).
    pub compress_ms: f64,
    /// Median time to decompress one block, in microseconds (a first access).
    pub first_access_us: f64,
    /// Slowest block, in microseconds.
    pub first_access_max_us: f64,
}

impl Row {
    /// Compressed text over raw text.
    pub fn text_ratio(&self) -> f64 {
        self.compressed_bytes as f64 / self.text_bytes.max(1) as f64
    }

    /// Everything stored over everything raw.
    pub fn total_ratio(&self) -> f64 {
        (self.compressed_bytes + self.binary_bytes) as f64
            / (self.text_bytes + self.binary_bytes).max(1) as f64
    }
}

/// One skill on disk: its files' bytes, sorted by path, and whether each is text.
struct DiskSkill {
    files: Vec<(Vec<u8>, bool)>,
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if !e.file_name().to_string_lossy().starts_with('.') {
            out.push(path);
        }
    }
    Ok(())
}

fn read_skills(root: &Path) -> io::Result<Vec<DiskSkill>> {
    let mut all = Vec::new();
    walk(root, &mut all)?;
    let dirs: Vec<PathBuf> = all
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "SKILL.md"))
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .collect();
    let mut by_dir: HashMap<PathBuf, DiskSkill> = HashMap::new();
    for p in all {
        let Some(dir) = dirs
            .iter()
            .filter(|d| p.starts_with(d))
            .max_by_key(|d| d.as_os_str().len())
        else {
            continue;
        };
        let bytes = fs::read(&p)?;
        let text = skills_embed::__private::is_text(&bytes);
        by_dir
            .entry(dir.clone())
            .or_insert_with(|| DiskSkill { files: Vec::new() })
            .files
            .push((bytes, text));
    }
    let mut skills: Vec<(PathBuf, DiskSkill)> = by_dir.into_iter().collect();
    skills.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(skills.into_iter().map(|(_, s)| s).collect())
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Compresses the tree under `root` every way and times it.
pub fn measure(root: &Path) -> io::Result<Vec<Row>> {
    let skills = read_skills(root)?;
    let binary_bytes: u64 = skills
        .iter()
        .flat_map(|s| &s.files)
        .filter(|f| !f.1)
        .map(|f| f.0.len() as u64)
        .sum();
    let mut rows = Vec::new();
    for granularity in [Granularity::File, Granularity::Skill, Granularity::Set] {
        let blocks: Vec<Vec<u8>> = match granularity {
            Granularity::File => skills
                .iter()
                .flat_map(|s| &s.files)
                .filter(|f| f.1)
                .map(|f| f.0.clone())
                .collect(),
            Granularity::Skill => skills
                .iter()
                .map(|s| {
                    s.files
                        .iter()
                        .filter(|f| f.1)
                        .flat_map(|f| f.0.clone())
                        .collect()
                })
                .collect(),
            Granularity::Set => vec![
                skills
                    .iter()
                    .flat_map(|s| &s.files)
                    .filter(|f| f.1)
                    .flat_map(|f| f.0.clone())
                    .collect(),
            ],
        };
        let text_bytes: u64 = blocks.iter().map(|b| b.len() as u64).sum();
        for codec in [Codec::Lz4, Codec::Deflate] {
            let start = Instant::now();
            let compressed: Vec<Vec<u8>> = blocks.iter().map(|b| codec.compress(b)).collect();
            let compress_ms = start.elapsed().as_secs_f64() * 1e3;
            let rounds = if blocks.len() < 10 { 5 } else { 1 };
            let mut times = Vec::with_capacity(blocks.len() * rounds);
            for _ in 0..rounds {
                for (c, raw) in compressed.iter().zip(&blocks) {
                    let start = Instant::now();
                    let out = codec.decompress(c, raw.len());
                    times.push(start.elapsed().as_secs_f64() * 1e6);
                    assert_eq!(out.len(), raw.len(), "round trip");
                }
            }
            let max = times.iter().copied().fold(0.0, f64::max);
            rows.push(Row {
                codec,
                granularity,
                blocks: blocks.len(),
                text_bytes,
                compressed_bytes: compressed.iter().map(|c| c.len() as u64).sum(),
                binary_bytes,
                compress_ms,
                first_access_us: median(&mut times),
                first_access_max_us: max,
            });
        }
    }
    Ok(rows)
}

/// Writes the blocks of a per-skill compressed set under `blocks_dir` and returns the Rust
/// source of `pub static {name}: compress_rt::CSet` (with `crate::proto_rt` and
/// `crate::compress_rt` in the crate). Each original file is also named in a
/// `const _: &[u8] = include_bytes!(...)`, so editing it rebuilds the crate as it does now
/// (a macro would compress in memory and need no block files).
pub fn emit_source(
    spec: &TreeSpec,
    root: &Path,
    blocks_dir: &Path,
    codec: Codec,
    name: &str,
) -> io::Result<String> {
    fs::create_dir_all(blocks_dir)?;
    let skills = sorted_skills(spec);
    let mut strings = String::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut intern = |s: &str, strings: &mut String| -> u32 {
        *seen.entry(s.to_owned()).or_insert_with(|| {
            let at = strings.len() as u32;
            strings.push_str(s);
            at
        })
    };
    let (mut skill_rows, mut file_rows, mut block_rows, mut tracking, mut summary) = (
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    );
    let mut first = 0u32;
    let mut block = 0u32;
    for (si, s) in skills.iter().enumerate() {
        let name_at = intern(&s.name, &mut strings);
        let _ = writeln!(summary, "- {}: {}", s.name, s.description);
        let (mut text, mut binary) = (Vec::new(), Vec::new());
        for f in &s.files {
            let abs = root.join(&s.dir).join(&f.path);
            let _ = writeln!(
                tracking,
                "const _: &[u8] = include_bytes!({:?});",
                abs.display().to_string()
            );
            let path_at = intern(&f.path, &mut strings);
            let flags = u16::from(f.text) | (u16::from(f.executable) << 1);
            let (which, buf) = if f.text {
                (block, &mut text)
            } else {
                (block + 1, &mut binary)
            };
            let _ = writeln!(
                file_rows,
                "crate::compress_rt::CFile {{ block: {which}, offset: {}, len: {}, path: {path_at}, path_len: {}, flags: {flags} }},",
                buf.len(),
                f.bytes.len(),
                f.path.len()
            );
            buf.extend_from_slice(&f.bytes);
        }
        for (data, c) in [(text, codec), (binary, Codec::Stored)] {
            let file = blocks_dir.join(format!("{si:05}.{}", block));
            fs::write(&file, c.compress(&data))?;
            let _ = writeln!(
                block_rows,
                "crate::compress_rt::Block {{ data: include_bytes!({:?}), raw_len: {}, codec: crate::compress_rt::Codec::{c:?} }},",
                file.display().to_string(),
                data.len()
            );
            block += 1;
        }
        let count = s.files.len() as u32;
        let _ = writeln!(
            skill_rows,
            "crate::proto_rt::SkillEntry {{ name: {name_at}, name_len: {}, desc_len: 0, desc: 0, first: {first}, count: {count} }},",
            s.name.len()
        );
        first += count;
    }
    Ok(format!(
        "// Generated by skills-bench (compress.rs), codec {codec:?}: {}.\n{tracking}\
         static CACHE: [::std::sync::OnceLock<Box<[u8]>>; {block}] = [const {{ ::std::sync::OnceLock::new() }}; {block}];\n\
         /// The compressed prototype set of the tree.\n\
         pub static {name}: crate::compress_rt::CSet = crate::compress_rt::CSet {{\n\
         strings: {strings:?},\nskills: &[\n{skill_rows}],\nfiles: &[\n{file_rows}],\n\
         blocks: &[\n{block_rows}],\ncache: &CACHE,\nsummary: {summary:?},\n}};\n",
        spec.describe()
    ))
}
