//! Deterministic synthetic skill trees: the same parameters always give the same bytes.
//!
//! A tree is `category-NN/NAME/` folders (nested categories), each skill holding a `SKILL.md`
//! and resources cycling through Markdown, code, JSON and binary files in nested folders. Text
//! is drawn from a fixed technical vocabulary with a seeded PRNG, so token counts and
//! compression ratios are stable from run to run (though synthetic text compresses better than
//! real prose: see the corpus figures in BENCHMARKS.md).
//!
//! This file is also compiled into `build.rs` (`#[path]`), so it uses `std` only.

use std::fs;
use std::io;
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeSpec {
    /// Number of skills.
    pub skills: usize,
    /// Files per skill, `SKILL.md` included.
    pub files_per_skill: usize,
    /// Approximate size of each file in bytes.
    pub file_bytes: usize,
    /// Skills per category folder (`category-NN/`); 0 puts every skill at the top level.
    pub per_category: usize,
    /// Seed of the PRNG.
    pub seed: u64,
    /// The folders and names.
    pub shape: Shape,
}

/// The folders and names of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `category-NN/NAME/`, names of 2 words, resources in nested folders shared by every skill
    /// (`references/guide.md`).
    Nested,
    /// `division-NN/category-NN/NAME/`, names of 3-4 words, resource paths 2-3 folders deeper
    /// whose file names carry words of their skill, so that few paths are shared (`deep1000`).
    Deep,
    /// `NAME/` at the top, names of 2 words, every file in the skill's own folder (`flat1000`):
    /// the fewest folders.
    Flat,
}

impl TreeSpec {
    /// `skills` skills of 10 files of about 1 KB each, 50 per category folder.
    pub const fn new(skills: usize) -> Self {
        TreeSpec {
            skills,
            files_per_skill: 10,
            file_bytes: 1024,
            per_category: 50,
            seed: 0x5eed_0001,
            shape: Shape::Nested,
        }
    }

    /// A named preset: `s10`, `s100`, `s1000` (10,000 files, about 10.4 MB), `100mb` (10,000
    /// files of about 10 KB), `tiny` (one skill, one file), `deep100` and `deep1000` (as
    /// `s100` and `s1000` with longer names and deeper, per-skill paths) or `flat1000` (as
    /// `s1000` with no folders but the skills').
    pub fn preset(name: &str) -> Option<Self> {
        Some(match name {
            "tiny" => TreeSpec {
                files_per_skill: 1,
                file_bytes: 256,
                ..TreeSpec::new(1)
            },
            "s10" => TreeSpec::new(10),
            "s100" => TreeSpec::new(100),
            "s1000" | "10mb" => TreeSpec::new(1000),
            "100mb" => TreeSpec {
                file_bytes: 10 * 1024,
                ..TreeSpec::new(1000)
            },
            "deep100" => TreeSpec {
                shape: Shape::Deep,
                ..TreeSpec::new(100)
            },
            "deep1000" => TreeSpec {
                shape: Shape::Deep,
                ..TreeSpec::new(1000)
            },
            "flat1000" => TreeSpec {
                shape: Shape::Flat,
                ..TreeSpec::new(1000)
            },
            _ => return None,
        })
    }

    /// A one-line description, for stamps and reports.
    pub fn describe(&self) -> String {
        format!(
            "skills={} files_per_skill={} file_bytes={} per_category={} seed={:#x}{}",
            self.skills,
            self.files_per_skill,
            self.file_bytes,
            self.per_category,
            self.seed,
            match self.shape {
                Shape::Nested => "",
                Shape::Deep => " deep",
                Shape::Flat => " flat",
            }
        )
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Skills.
    pub skills: usize,
    /// Files, `SKILL.md` included.
    pub files: usize,
    /// Bytes of every file.
    pub bytes: u64,
    /// Text files (Markdown, code, JSON).
    pub text_files: usize,
    /// Binary files.
    pub binary_files: usize,
}

/// One generated file.
#[derive(Debug, Clone)]
pub struct GenFile {
    /// Path relative to the skill's folder.
    pub path: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Whether it should get an executable bit.
    pub executable: bool,
    /// Whether it is text.
    pub text: bool,
}

/// One generated skill.
#[derive(Debug, Clone)]
pub struct GenSkill {
    /// Path of the skill's folder relative to the root (`category-NN/NAME`).
    pub dir: String,
    /// Its name.
    pub name: String,
    /// Its description, as written in the frontmatter (one plain YAML scalar).
    pub description: String,
    /// Its files, `SKILL.md` first.
    pub files: Vec<GenFile>,
}

/// Writes the tree under `root` (which must not hold another tree: it is not emptied).
pub fn write_tree(spec: &TreeSpec, root: &Path) -> io::Result<TreeStats> {
    let mut stats = TreeStats::default();
    for i in 0..spec.skills {
        let skill = skill(spec, i);
        let dir = root.join(&skill.dir);
        stats.skills += 1;
        for f in &skill.files {
            let path = dir.join(&f.path);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&path, &f.bytes)?;
            #[cfg(unix)]
            if f.executable {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
            }
            stats.files += 1;
            stats.bytes += f.bytes.len() as u64;
            if f.text {
                stats.text_files += 1;
            } else {
                stats.binary_files += 1;
            }
        }
    }
    Ok(stats)
}

/// What [`write_tree`] writes, computed in memory.
pub fn stats(spec: &TreeSpec) -> TreeStats {
    let mut stats = TreeStats::default();
    for i in 0..spec.skills {
        stats.skills += 1;
        for f in skill(spec, i).files {
            stats.files += 1;
            stats.bytes += f.bytes.len() as u64;
            if f.text {
                stats.text_files += 1;
            } else {
                stats.binary_files += 1;
            }
        }
    }
    stats
}

/// Writes the tree under `root` unless `root/.tree-spec` says it already holds this one.
/// Returns whether it wrote anything. An existing tree of another spec is removed first.
pub fn ensure_tree(spec: &TreeSpec, root: &Path) -> io::Result<bool> {
    let stamp = root.join(".tree-spec");
    if fs::read_to_string(&stamp).is_ok_and(|s| s == spec.describe()) {
        return Ok(false);
    }
    if root.exists() {
        fs::remove_dir_all(root)?;
    }
    fs::create_dir_all(root)?;
    write_tree(spec, root)?;
    fs::write(stamp, spec.describe())?;
    Ok(true)
}

/// The `i`-th skill of a tree.
pub fn skill(spec: &TreeSpec, i: usize) -> GenSkill {
    let mut rng = Rng::new(spec.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let deep = spec.shape == Shape::Deep;
    let words = if deep { 3 + rng.below(2) } else { 2 };
    let mut name = String::new();
    for _ in 0..words {
        name.push_str(rng.word());
        name.push('-');
    }
    name.push_str(&format!("{i:04}"));
    let dir = match i.checked_div(spec.per_category) {
        None => name.clone(),
        Some(_) if spec.shape == Shape::Flat => name.clone(),
        Some(category) if deep => {
            format!("division-{:02}/category-{category:02}/{name}", category / 5)
        }
        Some(category) => format!("category-{category:02}/{name}"),
    };
    // Two words of the skill's own for its deep paths: 128 x 128 pairs, so few repeat.
    let (a, b) = if deep {
        (rng.word(), rng.word())
    } else {
        ("", "")
    };
    let kinds = match spec.shape {
        Shape::Nested => &KINDS,
        Shape::Deep => &DEEP_KINDS,
        Shape::Flat => &FLAT_KINDS,
    };
    let paths: Vec<String> = (0..spec.files_per_skill)
        .map(|k| {
            let kind = kinds[k % kinds.len()];
            let base = kind.path.replace("{a}", a).replace("{b}", b);
            match (k / kinds.len(), base.rsplit_once('.')) {
                (0, _) => base,
                (round, Some((stem, ext))) => format!("{stem}-{round}.{ext}"),
                (round, None) => format!("{base}-{round}"),
            }
        })
        .collect();
    let mut files = Vec::with_capacity(spec.files_per_skill);
    let mut description = String::new();
    for (k, path) in paths.iter().enumerate() {
        let kind = kinds[k % kinds.len()];
        let bytes = match kind.class {
            Class::Manifest => {
                let links = Links {
                    guide: paths.get(1).map_or("", String::as_str),
                    script: paths.get(3).map_or("", String::as_str),
                };
                manifest(&mut rng, &name, spec.file_bytes, &links, &mut description)
            }
            Class::Markdown => markdown(&mut rng, spec.file_bytes),
            Class::Python => code(&mut rng, spec.file_bytes, Lang::Python),
            Class::Shell => code(&mut rng, spec.file_bytes, Lang::Shell),
            Class::Rust => code(&mut rng, spec.file_bytes, Lang::Rust),
            Class::Json => json(&mut rng, spec.file_bytes),
            Class::Binary => binary(&mut rng, spec.file_bytes),
        };
        files.push(GenFile {
            path: path.clone(),
            bytes,
            executable: kind.executable,
            text: kind.class != Class::Binary,
        });
    }
    GenSkill {
        dir,
        name,
        description,
        files,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Manifest,
    Markdown,
    Python,
    Shell,
    Rust,
    Json,
    Binary,
}

#[derive(Clone, Copy)]
struct Kind {
    path: &'static str,
    class: Class,
    executable: bool,
}

const fn kind(path: &'static str, class: Class, executable: bool) -> Kind {
    Kind {
        path,
        class,
        executable,
    }
}

/// Ten files per round: 3 Markdown, 3 code, 2 JSON, 2 binary, in nested folders.
const KINDS: [Kind; 10] = [
    kind("SKILL.md", Class::Manifest, false),
    kind("references/guide.md", Class::Markdown, false),
    kind("references/api/endpoints.md", Class::Markdown, false),
    kind("scripts/run.py", Class::Python, true),
    kind("scripts/check.sh", Class::Shell, true),
    kind("examples/src/main.rs", Class::Rust, false),
    kind("assets/config.json", Class::Json, false),
    kind("assets/schemas/input.json", Class::Json, false),
    kind("assets/images/icon.png", Class::Binary, false),
    kind("assets/data/table.bin", Class::Binary, false),
];

/// `KINDS` for `Deep` trees: the same kinds 2-3 folders deeper, `{a}` and `{b}` replaced by
/// two words of the skill's (38 bytes a path on average, against 19).
const DEEP_KINDS: [Kind; 10] = [
    kind("SKILL.md", Class::Manifest, false),
    kind(
        "references/guides/{a}/{a}-{b}-overview.md",
        Class::Markdown,
        false,
    ),
    kind(
        "references/api/v2/{b}/{a}-endpoints.md",
        Class::Markdown,
        false,
    ),
    kind("scripts/{a}/bin/run_{a}_{b}.py", Class::Python, true),
    kind("scripts/{a}/bin/check-{b}.sh", Class::Shell, true),
    kind("examples/{a}-{b}/src/bin/main.rs", Class::Rust, false),
    kind("assets/config/{a}/{b}.json", Class::Json, false),
    kind(
        "assets/schemas/v1/{a}-{b}-input.schema.json",
        Class::Json,
        false,
    ),
    kind("assets/images/{a}/{b}-icon.png", Class::Binary, false),
    kind("assets/data/{a}/tables/{b}-table.bin", Class::Binary, false),
];

/// `KINDS` for `flat` trees: every file in the skill's folder.
const FLAT_KINDS: [Kind; 10] = [
    kind("SKILL.md", Class::Manifest, false),
    kind("guide.md", Class::Markdown, false),
    kind("endpoints.md", Class::Markdown, false),
    kind("run.py", Class::Python, true),
    kind("check.sh", Class::Shell, true),
    kind("main.rs", Class::Rust, false),
    kind("config.json", Class::Json, false),
    kind("input.json", Class::Json, false),
    kind("icon.png", Class::Binary, false),
    kind("table.bin", Class::Binary, false),
];

/// The paths a SKILL.md body links to (empty when the skill has no such file).
struct Links<'a> {
    guide: &'a str,
    script: &'a str,
}

/// SplitMix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }

    fn sentence(&mut self, words: usize) -> String {
        let mut s = String::new();
        for i in 0..words {
            let w = self.word();
            if i == 0 {
                let mut c = w.chars();
                if let Some(first) = c.next() {
                    s.extend(first.to_uppercase());
                    s.push_str(c.as_str());
                }
            } else {
                s.push(' ');
                s.push_str(w);
            }
        }
        s.push('.');
        s
    }
}

/// A SKILL.md of about `target` bytes. Its body links the guide and names the script only when
/// the skill has them (the second and fourth of `KINDS`), as the validator checks a body's
/// references; a 10-file skill's text is what it always was.
fn manifest(
    rng: &mut Rng,
    name: &str,
    target: usize,
    links: &Links<'_>,
    description: &mut String,
) -> Vec<u8> {
    let words = 14 + rng.below(16);
    *description = format!(
        "{} Use when the user asks to {} {} {}.",
        rng.sentence(words),
        rng.word(),
        rng.word(),
        rng.word()
    );
    let mut out = format!(
        "---\nname: {name}\ndescription: {description}\nlicense: MIT\n---\n\n# {}\n\n",
        title(name)
    );
    out.push_str(&match (links.guide, links.script) {
        ("", _) => "Read this first.\n\n".to_owned(),
        (guide, "") => format!("Read [the guide]({guide}) first.\n\n"),
        (guide, script) => format!("Read [the guide]({guide}) first, then run `{script}`.\n\n"),
    });
    fill_markdown(rng, &mut out, target);
    out.into_bytes()
}

fn title(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn markdown(rng: &mut Rng, target: usize) -> Vec<u8> {
    let mut out = format!("# {}\n\n", title(&format!("{}-{}", rng.word(), rng.word())));
    fill_markdown(rng, &mut out, target);
    out.into_bytes()
}

fn fill_markdown(rng: &mut Rng, out: &mut String, target: usize) {
    let start = out.len();
    let mut section = 0;
    while out.len() < target.max(start + 1) {
        match rng.below(6) {
            0 => {
                section += 1;
                out.push_str(&format!("## {section}. {}\n\n", rng.sentence(3)));
            }
            1 => {
                for _ in 0..3 {
                    out.push_str(&format!("- {}\n", {
                        let n = 4 + rng.below(6);
                        rng.sentence(n)
                    }));
                }
                out.push('\n');
            }
            2 => out.push_str(&format!(
                "```sh\n{} --{} {}\n```\n\n",
                rng.word(),
                rng.word(),
                rng.word()
            )),
            _ => {
                let n = 2 + rng.below(3);
                let para: Vec<String> = (0..n)
                    .map(|_| {
                        let n = 6 + rng.below(10);
                        rng.sentence(n)
                    })
                    .collect();
                out.push_str(&para.join(" "));
                out.push_str("\n\n");
            }
        }
    }
    truncate_to_line(out, target, start);
}

/// Cuts at the last newline at or before `target`, keeping at least one line after `start`.
fn truncate_to_line(out: &mut String, target: usize, start: usize) {
    if out.len() > target
        && let Some(cut) = out[..target].rfind('\n')
        && cut > start
    {
        out.truncate(cut + 1);
    }
}

#[derive(Clone, Copy)]
enum Lang {
    Python,
    Shell,
    Rust,
}

fn code(rng: &mut Rng, target: usize, lang: Lang) -> Vec<u8> {
    let mut out = String::from(match lang {
        Lang::Python => {
            "#!/usr/bin/env python3\n\"\"\"Generated helper.\"\"\"\nimport json\nimport sys\n\n"
        }
        Lang::Shell => "#!/usr/bin/env bash\nset -euo pipefail\n\n",
        Lang::Rust => "//! Generated example.\n\nuse std::collections::BTreeMap;\n\n",
    });
    let start = out.len();
    while out.len() < target.max(start + 1) {
        let (f, a, b) = (rng.word(), rng.word(), rng.word());
        let n = rng.below(1000);
        match lang {
            Lang::Python => out.push_str(&format!(
                "def {f}_{a}({b}, limit={n}):\n    # {}\n    items = [x for x in {b} if x]\n    \
                 return json.dumps({{\"{a}\": items[:limit]}})\n\n",
                rng.sentence(6)
            )),
            Lang::Shell => out.push_str(&format!(
                "{f}_{a}() {{\n  # {}\n  local {b}=\"${{1:-{n}}}\"\n  echo \"{a}: ${b}\" >&2\n}}\n\n",
                rng.sentence(6)
            )),
            Lang::Rust => out.push_str(&format!(
                "/// {}\nfn {f}_{a}({b}: &[u32]) -> BTreeMap<u32, usize> {{\n    \
                 {b}.iter().filter(|x| **x > {n}).fold(BTreeMap::new(), |mut m, x| {{\n        \
                 *m.entry(*x).or_insert(0) += 1;\n        m\n    }})\n}}\n\n",
                rng.sentence(6)
            )),
        }
    }
    truncate_to_line(&mut out, target, start);
    out.into_bytes()
}

fn json(rng: &mut Rng, target: usize) -> Vec<u8> {
    let mut entries = Vec::new();
    let mut len = 4;
    while len < target.saturating_sub(40) {
        let entry = format!(
            "  \"{}_{}\": {{\"enabled\": {}, \"limit\": {}, \"note\": \"{}\"}}",
            rng.word(),
            entries.len(),
            rng.below(2) == 0,
            rng.below(10_000),
            {
                let n = 3 + rng.below(5);
                rng.sentence(n)
            }
        );
        len += entry.len() + 2;
        entries.push(entry);
    }
    format!("{{\n{}\n}}\n", entries.join(",\n")).into_bytes()
}

fn binary(rng: &mut Rng, target: usize) -> Vec<u8> {
    // A PNG signature and a NUL, then noise: served as binary, incompressible.
    let mut out = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    while out.len() < target {
        out.extend_from_slice(&rng.next().to_le_bytes());
    }
    out.truncate(target.max(16));
    out
}

const WORDS: [&str; 128] = [
    "analyze",
    "api",
    "archive",
    "audit",
    "backup",
    "batch",
    "branch",
    "browser",
    "buffer",
    "build",
    "cache",
    "calendar",
    "chart",
    "check",
    "client",
    "cluster",
    "commit",
    "compile",
    "config",
    "convert",
    "cookie",
    "copy",
    "crash",
    "data",
    "database",
    "debug",
    "deploy",
    "design",
    "diff",
    "docker",
    "document",
    "draft",
    "email",
    "encode",
    "error",
    "event",
    "export",
    "extract",
    "feature",
    "fetch",
    "file",
    "filter",
    "format",
    "form",
    "graph",
    "guide",
    "handler",
    "header",
    "image",
    "import",
    "index",
    "input",
    "invoice",
    "issue",
    "job",
    "json",
    "kernel",
    "label",
    "layout",
    "lint",
    "list",
    "log",
    "merge",
    "message",
    "metric",
    "migrate",
    "model",
    "module",
    "monitor",
    "network",
    "note",
    "output",
    "package",
    "page",
    "parse",
    "patch",
    "pdf",
    "pipeline",
    "plan",
    "plot",
    "policy",
    "query",
    "queue",
    "record",
    "refactor",
    "release",
    "render",
    "report",
    "request",
    "review",
    "route",
    "rule",
    "run",
    "sample",
    "scan",
    "schema",
    "script",
    "search",
    "secret",
    "server",
    "service",
    "session",
    "sheet",
    "shell",
    "slide",
    "sort",
    "source",
    "spec",
    "sql",
    "stream",
    "style",
    "summary",
    "table",
    "task",
    "template",
    "test",
    "ticket",
    "token",
    "trace",
    "translate",
    "update",
    "upload",
    "user",
    "validate",
    "version",
    "video",
    "workflow",
    "yaml",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_sized() {
        let spec = TreeSpec::new(3);
        let a = skill(&spec, 2);
        let b = skill(&spec, 2);
        assert_eq!(a.name, b.name);
        assert_eq!(a.files.len(), 10);
        for (x, y) in a.files.iter().zip(&b.files) {
            assert_eq!(x.bytes, y.bytes);
            assert!(
                x.bytes.len() <= 1100 && x.bytes.len() >= 700,
                "{} {}",
                x.path,
                x.bytes.len()
            );
            assert_eq!(
                x.text,
                std::str::from_utf8(&x.bytes).is_ok() && !x.bytes.contains(&0)
            );
        }
        assert_eq!(a.files[0].path, "SKILL.md");
        assert!(a.dir.starts_with("category-00/"));
    }

    #[test]
    fn deep_trees_have_long_names_and_own_paths_and_link_them() {
        let spec = TreeSpec::preset("deep100").unwrap_or(TreeSpec::new(0));
        assert_eq!(spec.shape, Shape::Deep);
        let mut paths = std::collections::HashSet::new();
        let mut files = 0;
        for i in 0..spec.skills {
            let s = skill(&spec, i);
            assert!(s.name.split('-').count() >= 4, "{}", s.name);
            assert!(s.dir.starts_with("division-"), "{}", s.dir);
            let manifest = String::from_utf8(s.files[0].bytes.clone()).unwrap_or_default();
            // The body links the guide and names the script, by their paths in this skill.
            assert!(
                manifest.contains(&format!("]({})", s.files[1].path)),
                "{manifest}"
            );
            assert!(
                manifest.contains(&format!("`{}`", s.files[3].path)),
                "{manifest}"
            );
            for f in &s.files {
                files += 1;
                paths.insert(f.path.clone());
            }
        }
        // SKILL.md is shared; nearly every other path is the skill's own.
        assert!(paths.len() > files * 8 / 10, "{} of {files}", paths.len());
        let shallow = skill(&TreeSpec::new(100), 7);
        assert_eq!(shallow.files[1].path, "references/guide.md");
        assert_eq!(shallow.name.split('-').count(), 3);
        let flat = TreeSpec::preset("flat1000").unwrap_or(TreeSpec::new(0));
        let f = skill(&flat, 7);
        assert_eq!(f.dir, f.name);
        assert!(f.files.iter().all(|f| !f.path.contains('/')));
        assert!(String::from_utf8_lossy(&f.files[0].bytes).contains("](guide.md)"));
    }
}
