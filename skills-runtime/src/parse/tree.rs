//! Walking a folder of skills: which folders are skills, which files are their resources, and
//! the checks that need the whole folder (duplicate names, symlinks that leave it).

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use unicode_normalization::UnicodeNormalization;

use super::dialect::{self, Dialect, Dialects, Reading};
use super::walk::{WalkLimits, WalkSummary};
use super::{Diagnostic, Manifest, Profile, Rule, parse_manifest_with};
use crate::model::fields::MANIFEST;

/// Folder names [`ScanOptions::for_repositories`] never searches for skills: version control,
/// dependencies and caches. A folder of one of these names that holds a SKILL.md itself is
/// still a skill.
pub const SKIPPED_FOLDERS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".jj",
    "node_modules",
    "target",
    ".venv",
    "__pycache__",
    ".tox",
];

/// What to scan and how strictly: the one options value of [`validate`](super::validate()),
/// [`check`](super::check()), `load::set` and discovery.
///
/// The default is what `skills!` reads: dot folders are not searched, no folder name is
/// skipped, a body over 500 lines or 40,000 characters gets a warning, a resource over
/// 2,000,000 bytes is an error, and the walk stops at depth 128, 100,000 entries in all and
/// 10,000 per skill, with no time limit. [`ScanOptions::for_repositories`] is what
/// `skills validate` reads.
///
/// ```
/// use skills_embed::parse::{Dialect, LimitAction, Profile, ScanOptions};
/// let options = ScanOptions {
///     profile: Profile::Lenient,
///     dialects: vec![Dialect::ClaudeCode],
///     body_limit: LimitAction::Cut,
///     ..ScanOptions::default()
/// };
/// assert!(!options.dotfiles && !options.dot_folders);
/// assert_eq!(options.max_walk_depth, Some(128));
/// ```
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// How strictly each SKILL.md is checked.
    pub profile: Profile,
    /// The client dialects whose fields are known fields, in any profile: their types are
    /// checked and they make the skill's invocation policy (see [`Dialect`](super::Dialect)).
    /// Empty by default.
    pub dialects: Vec<Dialect>,
    /// Globs (relative to each skill's folder) a resource must match to be kept; empty keeps all.
    pub include: Vec<String>,
    /// Globs (relative to each skill's folder) that drop a resource.
    pub exclude: Vec<String>,
    /// Keep files and folders whose name starts with `.` as resources of a skill (dot folders
    /// are then searched for skills too).
    pub dotfiles: bool,
    /// Search folders whose name starts with `.` for skills (`skills/.curated/`,
    /// `.claude/skills/`), except those named in `skip_folders`. A file whose path inside its
    /// skill has such a folder (or is itself a dot-file) is still a resource only with
    /// `dotfiles`.
    pub dot_folders: bool,
    /// Folder names never searched for skills ([`ScanOptions::for_repositories`] names
    /// version-control, dependency and cache folders). They apply outside
    /// skills and to dot folders inside one; the other folders of a skill hold its resources
    /// whatever their name. A folder so named that holds a SKILL.md is still a skill.
    pub skip_folders: Vec<String>,
    /// How deep below the root to look for skill folders; `None` for no limit (see
    /// `max_walk_depth` for the cap on every entry).
    pub max_depth: Option<usize>,
    /// Follow symbolic links (never out of the root, nor out of the skill holding them: see
    /// the walk policy). Off by default; `skills!` and the command-line tool turn
    /// it on.
    pub follow_symlinks: bool,
    /// Stop after this many folders (a `scan-limit` warning says so); `None` for no limit.
    pub max_dirs: Option<usize>,
    /// Lines a body may have (default 500).
    pub max_body_lines: usize,
    /// Characters a body may have (default 40,000).
    pub max_body_chars: usize,
    /// What a body over either limit gets (default a warning).
    pub body_limit: LimitAction,
    /// Bytes a resource (or SKILL.md) may have; `None` for no cap (default 2,000,000). A larger
    /// SKILL.md is always an error; a larger resource gets what `skip_large_resources` says.
    /// The cap is no rule of the Agent Skills specification: it keeps a binary (or a model's
    /// context) from swallowing a huge file by mistake.
    pub max_resource_bytes: Option<u64>,
    /// A resource over `max_resource_bytes` gets a `resource-too-large` warning and is left
    /// out (the skill loads without it), as in the command-line tool and discovery; `false`
    /// (the default, what `skills!` does) makes it an error and the skill invalid, so a huge
    /// file does not end up in a binary unnoticed.
    pub skip_large_resources: bool,
    /// How many levels below the root the walk goes, files and folders alike; a folder at this
    /// depth that holds anything is reported and not read. `None` for no limit (default 128).
    pub max_walk_depth: Option<usize>,
    /// How many entries (files, folders, links, whatever else) the walk meets in all before it
    /// stops; `None` for no limit (default 100,000).
    pub max_entries: Option<usize>,
    /// How many entries below one skill's folder are read; the rest of that skill is left out
    /// (the skill loads without them). `None` for no limit (default 10,000).
    pub max_skill_entries: Option<usize>,
    /// How long the walk may take before it stops; `None` for no limit. Off by default, so a
    /// build reads the same files however busy the machine; discovery sets it, so that a slow
    /// or hostile file system cannot hold a reload for ever.
    pub max_time: Option<std::time::Duration>,
    /// Warn (`unreferenced-file`) about each file of a skill that neither its body nor a file
    /// the body references refers to. Off by default (`skills validate --unreferenced`,
    /// `skills!(..., unreferenced_files = true)`).
    pub unreferenced_files: bool,
}

impl Default for ScanOptions {
    fn default() -> Self {
        let walk = WalkLimits::default();
        ScanOptions {
            profile: Profile::default(),
            dialects: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            dotfiles: false,
            dot_folders: false,
            skip_folders: Vec::new(),
            max_depth: None,
            follow_symlinks: false,
            max_dirs: None,
            max_body_lines: 500,
            max_body_chars: 40_000,
            body_limit: LimitAction::Warn,
            max_resource_bytes: Some(2_000_000),
            skip_large_resources: false,
            max_walk_depth: walk.max_depth,
            max_entries: walk.max_entries,
            max_skill_entries: walk.max_skill_entries,
            max_time: walk.max_time,
            unreferenced_files: false,
        }
    }
}

/// Size limits checked when skills are read (the fields of [`ScanOptions`] the reading takes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) max_body_lines: usize,
    pub(crate) max_body_chars: usize,
    pub(crate) body: LimitAction,
    pub(crate) max_resource_bytes: Option<u64>,
    pub(crate) resource: ResourceAction,
}

impl ScanOptions {
    /// What `skills validate` reads: every SKILL.md below the root, dot folders included, except
    /// in version-control, dependency and cache folders (`.git`, `node_modules`, `target`, ...);
    /// symbolic links followed (inside the root); a resource over the size cap gets a warning and
    /// is left out.
    ///
    /// ```
    /// use skills_embed::parse::ScanOptions;
    /// let options = ScanOptions::for_repositories();
    /// assert!(options.dot_folders && !options.dotfiles && options.follow_symlinks);
    /// assert!(options.skip_folders.iter().any(|f| f == ".git"));
    /// assert!(options.skip_large_resources);
    /// ```
    pub fn for_repositories() -> Self {
        ScanOptions {
            dot_folders: true,
            skip_folders: SKIPPED_FOLDERS.iter().map(|&s| s.to_owned()).collect(),
            follow_symlinks: true,
            skip_large_resources: true,
            ..ScanOptions::default()
        }
    }

    /// The size limits, as the reading takes them.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_body_lines: self.max_body_lines,
            max_body_chars: self.max_body_chars,
            body: self.body_limit,
            max_resource_bytes: self.max_resource_bytes,
            resource: if self.skip_large_resources {
                ResourceAction::Skip
            } else {
                ResourceAction::Error
            },
        }
    }

    /// The walk's caps, as the walker takes them.
    pub(crate) fn walk_limits(&self) -> WalkLimits {
        WalkLimits {
            max_depth: self.max_walk_depth,
            max_entries: self.max_entries,
            max_skill_entries: self.max_skill_entries,
            max_time: self.max_time,
        }
    }

    /// The dialects opted in to, as a set.
    pub(crate) fn dialect_set(&self) -> Dialects {
        self.dialects.iter().copied().collect()
    }
}

/// What a resource over the size cap gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResourceAction {
    /// A `resource-too-large` error: the skill is invalid.
    Error,
    /// A `resource-too-large` warning, and the file is left out of the skill's resources.
    Skip,
}

/// What a body over [`ScanOptions::max_body_lines`] or [`ScanOptions::max_body_chars`] gets;
/// named `warn`, `error` or `cut` (the macro's `body_limit` option, the CLI's `--body-limit`).
///
/// ```
/// use skills_embed::parse::LimitAction;
/// assert_eq!("cut".parse::<LimitAction>().unwrap(), LimitAction::Cut);
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum LimitAction {
    /// A `body-too-long` warning; the body is kept whole.
    #[default]
    Warn,
    /// A `body-too-long` error.
    Error,
    /// A `body-too-long` warning, and the body is cut at the last line that fits.
    Cut,
}

/// Everything found under a root.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// The path that was scanned, as given.
    pub root: PathBuf,
    /// Every skill found, sorted by name (valid or not).
    pub skills: Vec<SkillSource>,
    /// Every problem, in every skill and in the folder itself, in path order.
    pub diagnostics: Vec<Diagnostic>,
    /// What the walk met, whether a cap cut it, and its fingerprint.
    pub walk: WalkSummary,
}

/// A skill folder found by [`scan`](super::scan::scan()).
#[derive(Debug, Clone)]
pub struct SkillSource {
    /// The skill's folder.
    pub dir: PathBuf,
    /// Its SKILL.md.
    pub manifest_path: PathBuf,
    /// The text of SKILL.md (empty when it could not be read).
    pub text: String,
    /// The fields, when the frontmatter could be read.
    pub manifest: Option<Manifest>,
    /// Every other file of the skill, sorted by path.
    pub resources: Vec<Resource>,
    /// Where the body ends in `text`: the end of the file, or the cut under
    /// [`LimitAction::Cut`].
    pub body_end: usize,
    /// The `<chunk>` blocks of the body, with offsets relative to the body.
    pub chunks: Vec<crate::text::chunks::ChunkSpan>,
    /// Whether no error concerns this skill.
    pub valid: bool,
}

/// A resource file of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The path relative to the skill's folder, with `/` separators.
    pub path: String,
    /// Where to read it.
    pub file: PathBuf,
    /// Its size in bytes.
    pub len: u64,
    /// Whether it is valid UTF-8 without NUL bytes (served as text).
    pub text: bool,
    /// Whether it has an executable bit.
    pub executable: bool,
    /// Its bytes as the scan read them, through the skill folder's handle, when the scan was
    /// asked to keep them (`scan_keeping`: a loader that reads
    /// every file anyway); `load` takes them instead of reading the file a second time.
    pub bytes: Option<Vec<u8>>,
}

impl SkillSource {
    /// The skill's name: the `name` field, or the folder's name when that is missing.
    pub fn name(&self) -> String {
        match &self.manifest {
            Some(m) if !m.fields.name.is_empty() => m.fields.name.clone(),
            _ => folder_name(&self.dir),
        }
    }

    /// Where the body starts in `text`.
    pub fn body_start(&self) -> usize {
        self.manifest.as_ref().map_or(0, |m| m.body_start)
    }

    /// The body of SKILL.md, without its frontmatter (and cut, under [`LimitAction::Cut`]).
    pub fn body(&self) -> &str {
        self.text
            .get(self.body_start()..self.body_end)
            .unwrap_or("")
    }
}

impl Tree {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

pub(super) fn read_skill(
    dir: PathBuf,
    options: &ScanOptions,
    diagnostics: &mut Vec<Diagnostic>,
) -> SkillSource {
    let manifest_path = dir.join(MANIFEST);
    let mut source = SkillSource {
        dir,
        manifest_path,
        text: String::new(),
        manifest: None,
        resources: Vec::new(),
        body_end: 0,
        chunks: Vec::new(),
        valid: false,
    };
    let bytes = match read_regular(&source.manifest_path, options.max_resource_bytes) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {
            diagnostics.push(Diagnostic::path_error(
                Rule::ResourceTooLarge,
                &source.manifest_path,
                format!(
                    "{e}, like every file of a skill: move detail into files under references/"
                ),
            ));
            return source;
        }
        Err(e) => {
            diagnostics.push(read_error(&source.manifest_path, &e));
            return source;
        }
    };
    source.text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            diagnostics.push(Diagnostic::error(
                Rule::NotUtf8,
                &source.manifest_path,
                line,
                1,
                format!(
                    "is not valid UTF-8 (invalid byte at offset {}); save it as UTF-8",
                    e.utf8_error().valid_up_to()
                ),
            ));
            return source;
        }
    };
    source.body_end = source.text.len();
    let dir_name = folder_name(&source.dir);
    let (manifest, mut found) = parse_manifest_with(
        &source.text,
        &source.manifest_path,
        Some(&dir_name),
        options.profile,
        options.dialect_set(),
    );
    source.manifest = manifest;
    if let Some(manifest) = &mut source.manifest {
        read_codex_policy(&source.dir, manifest, options, &mut found);
    }
    if source.manifest.is_some() {
        check_body(&mut source, &options.limits(), &mut found);
    }
    source.valid = source.manifest.is_some() && !found.iter().any(Diagnostic::is_error);
    diagnostics.extend(found);
    source
}

/// Codex's `agents/openai.yaml` beside SKILL.md, when the profile or the dialects read it:
/// `policy.allow_implicit_invocation: false` means the model may not invoke the skill;
/// `interface` and `dependencies.tools` go to the client fields. The file stays one of the
/// skill's resources.
fn read_codex_policy(
    dir: &Path,
    manifest: &mut Manifest,
    options: &ScanOptions,
    found: &mut Vec<Diagnostic>,
) {
    let reading = Reading::of(Dialect::Codex, options.profile, options.dialect_set());
    if reading == Reading::Ignored {
        return;
    }
    let path = dir.join(dialect::CODEX_FILE);
    // Only a regular file inside the skill's folder; through a link only when links are
    // followed and it stays inside the folder.
    let Ok(meta) = fs::symlink_metadata(&path) else {
        return;
    };
    let regular = if meta.file_type().is_symlink() {
        let inside = match (fs::canonicalize(&path), fs::canonicalize(dir)) {
            (Ok(target), Ok(dir)) => target.starts_with(dir) && target.is_file(),
            _ => false,
        };
        options.follow_symlinks && inside
    } else {
        meta.is_file()
    };
    if !regular {
        return;
    }
    let text = match read_regular(&path, Some(64 * 1024)) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            let d = read_error(&path, &e);
            found.push(match reading.type_severity() {
                super::Severity::Error => d,
                super::Severity::Warning => Diagnostic {
                    severity: super::Severity::Warning,
                    ..d
                },
            });
            return;
        }
    };
    let (codex, diagnostics) = dialect::read_codex(&path, &text, reading);
    found.extend(diagnostics);
    if codex.allow_implicit == Some(false) {
        manifest.fields.invocation.model_may_invoke = false;
    }
    manifest.fields.client.interface = codex.interface;
    manifest.fields.client.tools = codex.tools;
}

/// The body's size limits and its `<chunk>` blocks.
fn check_body(source: &mut SkillSource, limits: &Limits, found: &mut Vec<Diagnostic>) {
    let start = source.body_start();
    let first_line = source.text[..start].matches('\n').count() + 1;
    let body = source.body();
    let lines = body.lines().count();
    let chars = body.chars().count();
    if lines > limits.max_body_lines || chars > limits.max_body_chars {
        let message = format!(
            "the body is {lines} lines and {chars} characters; the limits are {} lines and {} characters: move detail into files under references/",
            limits.max_body_lines, limits.max_body_chars
        );
        let at = |d: fn(Rule, &Path, usize, usize, String) -> Diagnostic| {
            d(
                Rule::BodyTooLong,
                &source.manifest_path,
                first_line,
                1,
                message.clone(),
            )
        };
        match limits.body {
            LimitAction::Error => found.push(at(Diagnostic::error)),
            LimitAction::Warn => found.push(at(Diagnostic::warning)),
            LimitAction::Cut => {
                let cut = cut_point(body, limits.max_body_lines, limits.max_body_chars);
                let mut d = at(Diagnostic::warning);
                d.message = format!("{message}; cut after {cut} bytes");
                found.push(d);
                source.body_end = start + cut;
            }
        }
    }
    let (chunks, errors) = crate::text::chunks::find_chunks(source.body());
    for e in errors {
        let rule = match e.problem {
            crate::text::chunks::ChunkProblem::MissingId
            | crate::text::chunks::ChunkProblem::BadId { .. } => Rule::ChunkId,
            crate::text::chunks::ChunkProblem::Duplicate { .. } => Rule::ChunkDuplicate,
            _ => Rule::ChunkSyntax,
        };
        let line = first_line + e.line - 1;
        found.push(Diagnostic::error(
            rule,
            &source.manifest_path,
            line,
            e.column,
            e.problem.to_string(),
        ));
    }
    source.chunks = chunks;
}

/// The byte length of the longest run of whole lines within both limits.
fn cut_point(body: &str, max_lines: usize, max_chars: usize) -> usize {
    let mut end = 0;
    let mut chars = 0;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        chars += line.chars().count();
        if i >= max_lines || chars > max_chars {
            break;
        }
        end += line.len();
    }
    end
}

pub(super) fn check_duplicate_names(tree: &mut Tree) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for i in 0..tree.skills.len() {
        // A skill whose name could not be read is reported already; its folder name is no
        // evidence of a clash.
        if tree.skills[i]
            .manifest
            .as_ref()
            .is_none_or(|m| m.fields.name.is_empty())
        {
            continue;
        }
        let key: String = tree.skills[i].name().nfkc().collect();
        if let Some(&first) = seen.get(&key) {
            let (a, b) = (&tree.skills[first], &tree.skills[i]);
            tree.diagnostics.push(Diagnostic::error(
                Rule::DuplicateName,
                &b.manifest_path,
                name_line(&b.text),
                1,
                format!(
                    "skill name \"{}\" of {} is also used by {}; skills read together need unique names: rename one",
                    b.name(),
                    b.manifest_path.strip_prefix(&tree.root).unwrap_or(&b.manifest_path).display(),
                    a.manifest_path.strip_prefix(&tree.root).unwrap_or(&a.manifest_path).display()
                ),
            ));
            tree.skills[i].valid = false;
        } else {
            seen.insert(key, i);
        }
    }
}

/// The line of the `name:` key, or 1.
fn name_line(text: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with("name:"))
        .map_or(1, |i| i + 1)
}

pub(super) struct ResourceFilter {
    include: Option<GlobSet>,
    exclude: GlobSet,
}

impl ResourceFilter {
    pub(super) fn new(options: &ScanOptions) -> Result<Self, Diagnostic> {
        let include = if options.include.is_empty() {
            None
        } else {
            Some(glob_set(&options.include)?)
        };
        Ok(ResourceFilter {
            include,
            exclude: glob_set(&options.exclude)?,
        })
    }

    pub(super) fn keeps(&self, path: &str) -> bool {
        self.include.as_ref().is_none_or(|g| g.is_match(path)) && !self.exclude.is_match(path)
    }
}

fn glob_set(patterns: &[String]) -> Result<GlobSet, Diagnostic> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern).map_err(|e| {
            Diagnostic::path_error(
                Rule::InvalidGlob,
                Path::new(""),
                format!("invalid glob {pattern:?}: {e}"),
            )
        })?;
        builder.add(glob);
    }
    builder.build().map_err(|e| {
        Diagnostic::path_error(
            Rule::InvalidGlob,
            Path::new(""),
            format!("invalid globs: {e}"),
        )
    })
}

/// Reads a file that the walk saw as a regular file, after checking it still is one and is at
/// most `cap` bytes (a 10 MB SKILL.md is refused before it is read: the compile-time tests),
/// whole as it stood ([`super::read::read_regular`]).
pub(super) fn read_regular(path: &Path, cap: Option<u64>) -> io::Result<Vec<u8>> {
    super::read::read_regular(path, cap)
}

pub(super) fn read_error(path: &Path, e: &io::Error) -> Diagnostic {
    Diagnostic::path_error(Rule::ReadError, path, format!("cannot read: {e}"))
}

/// The `resource-too-large` diagnostic for a resource of `len` bytes over `cap`.
pub(super) fn oversized(path: &Path, len: u64, cap: u64, action: ResourceAction) -> Diagnostic {
    match action {
        ResourceAction::Error => Diagnostic::path_error(
            Rule::ResourceTooLarge,
            path,
            format!(
                "is {len} bytes; the cap is {cap} bytes: exclude the file, or raise the cap \
                 (`max_resource_bytes` in `skills!`, `--max-resource-bytes` in `skills`)"
            ),
        ),
        ResourceAction::Skip => Diagnostic::path_warning(
            Rule::ResourceTooLarge,
            path,
            format!(
                "is {len} bytes; the cap is {cap} bytes: loading from disk leaves this file out \
                 (the skill still loads), and `skills!` refuses it unless you exclude the file \
                 or raise its `max_resource_bytes`"
            ),
        ),
    }
}

pub(super) fn is_dot(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// The folder's name as text (lossy for non-UTF-8 names).
pub(super) fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `a/b/c` for a relative path, or `None` when a component is not UTF-8.
pub(super) fn slash_path(relative: &Path) -> Option<String> {
    let mut out = String::new();
    for component in relative.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(component.as_os_str().to_str()?);
    }
    Some(out)
}

#[cfg(unix)]
pub(super) fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
pub(super) fn is_executable(_: &fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::super::Severity;
    use super::*;
    use crate::listing::ListingFormat;
    use crate::parse::scan::scan;

    fn write_skill(dir: &Path, name: &str) {
        fs::create_dir_all(dir).unwrap();
        let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody\n");
        fs::write(dir.join(MANIFEST), text).unwrap();
    }

    fn names(tree: &Tree) -> Vec<String> {
        tree.skills.iter().map(SkillSource::name).collect()
    }

    fn paths(source: &SkillSource) -> Vec<&str> {
        source.resources.iter().map(|r| r.path.as_str()).collect()
    }

    /// A scan of more skills than one thread reads (issue 31: each skill is read on one of
    /// several threads) gives each skill its own files and problems, in path order, and leaves
    /// out only the broken one; also with the root given with a trailing separator.
    #[test]
    fn many_skills_read_on_several_threads_keep_their_own_files_and_problems() {
        let root = tempfile::tempdir().unwrap();
        let expected: Vec<String> = (0..150).map(|i| format!("skill-{i:03}")).collect();
        for name in &expected {
            let dir = root.path().join(name);
            write_skill(&dir, name);
            fs::create_dir_all(dir.join("references")).unwrap();
            fs::write(dir.join("references").join(format!("{name}.md")), name).unwrap();
        }
        // One skill promises a file it does not hold.
        let broken = root.path().join("skill-077").join(MANIFEST);
        let text =
            "---\nname: skill-077\ndescription: Broken.\n---\nSee [it](references/gone.md).\n";
        fs::write(&broken, text).unwrap();
        let mut given = root.path().as_os_str().to_owned();
        given.push("/");
        for root in [root.path().to_owned(), std::path::PathBuf::from(given)] {
            let tree = crate::parse::scan::scan_keeping(&root, &ScanOptions::default(), true);
            assert_eq!(names(&tree), expected);
            for source in &tree.skills {
                let own = format!("references/{}.md", source.name());
                assert_eq!(paths(source), [own.as_str()]);
                let bytes = source.resources[0].bytes.as_deref();
                assert_eq!(bytes, Some(source.name().as_bytes()));
                assert_eq!(source.valid, source.name() != "skill-077");
            }
            let problems: Vec<_> = tree.diagnostics.iter().map(|d| (&d.file, d.rule)).collect();
            assert_eq!(problems, [(&broken, Rule::BrokenReference)]);
        }
    }

    /// Issue 12: `skills validate` said "checked 0 skills" on checkouts keeping skills under
    /// `skills/.curated/` and the like, and never looked in `.agents/skills/`.
    #[test]
    fn dot_folders_are_searched_only_when_asked_and_tool_folders_never() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        write_skill(&root.join("skills/plain"), "plain");
        write_skill(&root.join("skills/.curated/curated"), "curated");
        write_skill(&root.join(".agents/skills/agents"), "agents");
        write_skill(&root.join(".git/hooks/in-git"), "in-git");
        write_skill(&root.join("node_modules/pkg/in-deps"), "in-deps");
        write_skill(&root.join("build/target"), "target");

        let skills_macro = scan(root, &ScanOptions::default());
        assert_eq!(
            names(&skills_macro),
            ["in-deps", "plain", "target"],
            "`skills!` reads as before"
        );
        let validate = scan(root, &ScanOptions::for_repositories());
        assert_eq!(
            names(&validate),
            ["agents", "curated", "plain", "target"],
            "a folder named like a tool folder that is a skill stays one"
        );
        assert!(
            validate.diagnostics.is_empty(),
            "{:?}",
            validate.diagnostics
        );
        let no_dots = ScanOptions {
            dot_folders: false,
            ..ScanOptions::for_repositories()
        };
        assert_eq!(names(&scan(root, &no_dots)), ["plain", "target"]);
    }

    #[test]
    fn dot_paths_inside_a_skill_are_no_resources_but_may_hold_nested_skills() {
        let root = tempfile::tempdir().unwrap();
        let outer = root.path().join("outer");
        write_skill(&outer, "outer");
        fs::write(outer.join(".notes.md"), "private").unwrap();
        fs::write(outer.join("guide.md"), "guide").unwrap();
        fs::create_dir_all(outer.join(".cache")).unwrap();
        fs::write(outer.join(".cache/data"), "cached").unwrap();
        write_skill(&outer.join(".experimental/inner"), "inner");
        fs::create_dir_all(outer.join(".git")).unwrap();
        write_skill(&outer.join(".git/in-git"), "in-git");

        let tree = scan(root.path(), &ScanOptions::for_repositories());
        assert_eq!(names(&tree), ["inner", "outer"]);
        assert_eq!(paths(&tree.skills[1]), ["guide.md"]);
        let tree = scan(root.path(), &ScanOptions::default());
        assert_eq!(names(&tree), ["outer"]);
        assert_eq!(paths(&tree.skills[0]), ["guide.md"]);
        let all = ScanOptions {
            dotfiles: true,
            ..ScanOptions::default()
        };
        let tree = scan(root.path(), &all);
        assert_eq!(names(&tree), ["in-git", "inner", "outer"]);
        assert_eq!(
            paths(&tree.skills[2]),
            [".cache/data", ".notes.md", "guide.md"],
            "with dotfiles, what belongs to no nested skill is a resource, as `skills!` embeds it"
        );
    }

    /// Issue 12: a file over the size cap failed its whole skill everywhere, though the cap is
    /// no rule of the specification.
    #[test]
    fn a_resource_over_the_cap_fails_its_skill_or_is_left_out() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("big");
        write_skill(&dir, "big");
        fs::write(dir.join("data.txt"), "x".repeat(3_000)).unwrap();
        fs::write(dir.join("notes.md"), "notes").unwrap();
        let mut options = ScanOptions {
            max_resource_bytes: Some(1_000),
            ..ScanOptions::default()
        };

        let tree = scan(root.path(), &options);
        assert!(!tree.skills[0].valid);
        let d = &tree.diagnostics[0];
        assert_eq!(
            (d.rule, d.severity),
            (Rule::ResourceTooLarge, Severity::Error)
        );
        assert!(d.message.contains("the cap is 1000 bytes"), "{d}");

        options.skip_large_resources = true;
        let mut tree = scan(root.path(), &options);
        assert!(tree.skills[0].valid);
        assert_eq!(paths(&tree.skills[0]), ["notes.md"]);
        let d = &tree.diagnostics[0];
        assert_eq!(
            (d.rule, d.severity),
            (Rule::ResourceTooLarge, Severity::Warning)
        );
        assert!(d.message.contains("leaves this file out"), "{d}");
        let (set, problems) = crate::load::set_of(&mut tree, &ListingFormat::Markdown);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(set.len(), 1);

        // SKILL.md itself cannot be left out: over the cap, its skill fails.
        options.max_resource_bytes = Some(10);
        let tree = scan(root.path(), &options);
        assert!(!tree.skills[0].valid);
        assert!(tree.has_errors());
    }

    /// Issue 12: a problem with a folder printed a made-up `:1:1`.
    #[test]
    fn problems_with_a_whole_folder_or_file_have_no_line() {
        let root = tempfile::tempdir().unwrap();
        let tree = scan(root.path(), &ScanOptions::default());
        let d = &tree.diagnostics[0];
        assert_eq!((d.rule, d.line, d.column), (Rule::MissingSkillMd, 0, 0));
        assert_eq!(
            d.to_string(),
            format!(
                "{}: error[missing-skill-md]: holds no SKILL.md: a skill is a folder with a \
                 SKILL.md file",
                root.path().display()
            )
        );
        let tree = scan(&root.path().join("nope"), &ScanOptions::default());
        assert_eq!(tree.diagnostics[0].line, 0);
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn for_repositories_example() {
        use crate::parse::ScanOptions;
        use crate::parse::tree::SKIPPED_FOLDERS;
        let options = ScanOptions::for_repositories();
        assert!(options.dot_folders && !options.dotfiles && options.follow_symlinks);
        assert_eq!(options.skip_folders, SKIPPED_FOLDERS);
        assert!(options.skip_large_resources);
    }
}
