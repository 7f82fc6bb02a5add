//! Writes the statics of a prototype index layout ([`crate::proto_rt`]) for a generated tree:
//! what a changed `skills!` would expand to. Works from the [`TreeSpec`]
//! that wrote the tree (no parser), with `include_bytes!` of the files on disk.
//!
//! Also compiled into `build.rs` (`#[path]`): `std` only.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use super::treegen::{GenSkill, TreeSpec, skill};

/// The name table's hash (the same as the run time's `proto_rt::name_hash`).
pub fn name_hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = bytes.len() as u64;
    for c in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    (h >> 32) as u32
}

/// Which layout to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One `&'static [u8]` per file, paths in a shared string table.
    Table,
    /// One contiguous blob, offsets only.
    Blob,
    /// One contiguous blob, offsets only, built without `unsafe`: one `[u8; n]` constant per
    /// skill that const evaluation fills from its files' `include_bytes!`
    /// ([`proto_rt::put`](crate::proto_rt::put)), then one `[u8; N]` static filled from those
    /// (one body of 10,000 copies made rustc's type check take 2.5x the memory).
    ConstBlob,
}

impl Layout {
    /// `table`, `blob` or `cblob`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "table" => Some(Layout::Table),
            "blob" => Some(Layout::Blob),
            "cblob" => Some(Layout::ConstBlob),
            _ => None,
        }
    }
}

/// Every skill of the spec, sorted by name, each with its files sorted by path.
pub fn sorted_skills(spec: &TreeSpec) -> Vec<GenSkill> {
    let mut skills: Vec<GenSkill> = (0..spec.skills).map(|i| skill(spec, i)).collect();
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    for s in &mut skills {
        s.files.sort_by(|a, b| a.path.cmp(&b.path));
    }
    skills
}

/// Where the body starts in a generated SKILL.md: after the closing `---` line and the blank
/// lines that follow it (as the library serves it).
fn body_start(text: &[u8]) -> usize {
    let s = std::str::from_utf8(text).unwrap_or("");
    match s.get(4..).and_then(|rest| rest.find("\n---\n")) {
        Some(i) => {
            let end = 4 + i + 5;
            end + s[end..].len() - s[end..].trim_start_matches('\n').len()
        }
        None => 0,
    }
}

struct Strings {
    text: String,
    seen: HashMap<String, u32>,
}

impl Strings {
    /// Appends `s` (or finds it already there) and returns its offset.
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.seen.get(s) {
            return at;
        }
        let at = self.text.len() as u32;
        self.text.push_str(s);
        self.seen.insert(s.to_owned(), at);
        at
    }
}

/// The Rust source of `pub static NAME: Set<...>` for the tree written by `spec` under `root`
/// (absolute). `rt` is the path of the run-time module (`skills_bench::proto_rt`).
pub fn emit(spec: &TreeSpec, root: &Path, layout: Layout, rt: &str, name: &str) -> String {
    let skills = sorted_skills(spec);
    let mut strings = Strings {
        text: String::new(),
        seen: HashMap::new(),
    };
    let mut skill_rows = String::new();
    let mut file_rows = String::new();
    let mut blob_fields = String::new();
    let mut blob_inits = String::new();
    let mut blob_len: usize = 0;
    // `cblob`: the current skill's copies, and where its bytes start in the blob.
    let mut skill_inits = String::new();
    let mut skill_start: usize = 0;
    let mut summary = String::new();
    let mut first = 0u32;
    for (si, s) in skills.iter().enumerate() {
        let name_at = strings.intern(&s.name);
        let _ = writeln!(summary, "- {}: {}", s.name, s.description);
        let mut desc_at = 0u32;
        if layout == Layout::Table {
            desc_at = strings.intern(&s.description);
        }
        for (fi, f) in s.files.iter().enumerate() {
            let abs = root.join(&s.dir).join(&f.path);
            let abs = format!("{:?}", abs.display().to_string());
            let path_at = strings.intern(&f.path);
            let flags = u16::from(f.text) | (u16::from(f.executable) << 1);
            let skip = if f.path == "SKILL.md" {
                body_start(&f.bytes)
            } else {
                0
            };
            match layout {
                Layout::Table => {
                    let bytes = if skip > 0 {
                        format!("include_bytes!({abs}).split_at({skip}).1")
                    } else {
                        format!("include_bytes!({abs})")
                    };
                    let _ = writeln!(
                        file_rows,
                        "{rt}::TableFile {{ bytes: {bytes}, path: {path_at}, path_len: {}, flags: {flags} }},",
                        f.path.len()
                    );
                }
                Layout::Blob | Layout::ConstBlob => {
                    let field = format!("f{si}_{fi}");
                    let len = f.bytes.len();
                    if layout == Layout::Blob {
                        let _ = writeln!(blob_fields, "    {field}: [u8; {len}],");
                        let _ = writeln!(blob_inits, "    {field}: *include_bytes!({abs}),");
                    } else {
                        let at = blob_len - skill_start;
                        let _ = writeln!(
                            skill_inits,
                            "    {rt}::put(&mut out, {at}, include_bytes!({abs}));"
                        );
                    }
                    if skip > 0 {
                        // The description sits in the frontmatter: `description: ` then the text.
                        let text = std::str::from_utf8(&f.bytes).unwrap_or("");
                        let at = text
                            .find("\ndescription: ")
                            .map_or(0, |i| i + "\ndescription: ".len());
                        desc_at = (blob_len + at) as u32;
                    }
                    let _ = writeln!(
                        file_rows,
                        "{rt}::BlobFile {{ data: {}, len: {}, path: {path_at}, path_len: {}, flags: {flags} }},",
                        blob_len + skip,
                        len - skip,
                        f.path.len()
                    );
                    blob_len += len;
                }
            }
        }
        if layout == Layout::ConstBlob {
            let n = blob_len - skill_start;
            let _ = writeln!(
                blob_fields,
                "const S{si}: [u8; {n}] = {{\n    let mut out = [0u8; {n}];\n{skill_inits}    out\n}};"
            );
            let _ = writeln!(
                blob_inits,
                "    {rt}::put(&mut out, {skill_start}, &S{si});"
            );
            skill_inits.clear();
            skill_start = blob_len;
        }
        let count = s.files.len() as u32;
        let _ = writeln!(
            skill_rows,
            "{rt}::SkillEntry {{ name: {name_at}, name_len: {}, desc_len: {}, desc: {desc_at}, first: {first}, count: {count} }},",
            s.name.len(),
            s.description.len()
        );
        first += count;
    }
    // The name hash table: twice the skills, rounded up to a power of two.
    let slots = (skills.len() * 2).next_power_of_two().max(2);
    let mut table = vec![0u32; slots];
    for (i, s) in skills.iter().enumerate() {
        let mut slot = name_hash(s.name.as_bytes()) as usize & (slots - 1);
        while table[slot] != 0 {
            slot = (slot + 1) & (slots - 1);
        }
        table[slot] = i as u32 + 1;
    }
    let file_type = match layout {
        Layout::Table => "TableFile",
        Layout::Blob | Layout::ConstBlob => "BlobFile",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by skills-bench (emit.rs), layout {layout:?}: {}.",
        spec.describe()
    );
    let blob_expr = match layout {
        Layout::Table => "&[]".to_owned(),
        Layout::Blob => {
            let _ = writeln!(
                out,
                "#[repr(C)]\nstruct Blob {{\n{blob_fields}}}\n\
                 static BLOB: Blob = Blob {{\n{blob_inits}}};\n\
                 // SAFETY: a `repr(C)` struct of byte arrays has alignment 1 and no padding, so its\n\
                 // `size_of` bytes are exactly the arrays, initialised, in order.\n\
                 #[allow(unsafe_code)]\n\
                 static BLOB_BYTES: &[u8] = unsafe {{\n    \
                 ::core::slice::from_raw_parts(&BLOB as *const Blob as *const u8, ::core::mem::size_of::<Blob>())\n}};"
            );
            "BLOB_BYTES".to_owned()
        }
        Layout::ConstBlob => {
            let _ = writeln!(
                out,
                "{blob_fields}static BLOB: [u8; {blob_len}] = {{\n    let mut out = [0u8; {blob_len}];\n{blob_inits}    out\n}};"
            );
            "&BLOB".to_owned()
        }
    };
    let _ = writeln!(
        out,
        "/// The prototype index of the tree.\npub static {name}: {rt}::Set<{rt}::{file_type}> = {rt}::Set {{\n\
         strings: {:?},\n\
         skills: &[\n{skill_rows}],\n\
         files: &[\n{file_rows}],\n\
         blob: {blob_expr},\n\
         summary: {:?},\n\
         hash: &{table:?},\n}};",
        strings.text, summary
    );
    out
}
