//! What the validator reports: a rule, where, and what to do about it.

use std::fmt;
use std::path::{Path, PathBuf};

/// How strictly SKILL.md files are checked.
///
/// Its name (`strict`, `lenient`) is what `parse` and `to_string` read and write.
///
/// ```
/// use std::path::Path;
/// use skills_embed::parse::{Profile, ScanOptions, check};
/// let profile: Profile = "lenient".parse().unwrap(); // as a flag or a config file gives it
/// let text = "---\nname: pdf\ndescription: PDFs.\ncolour: blue\n---\n";
/// let errors = |profile| {
///     let options = ScanOptions { profile, ..ScanOptions::default() };
///     check(text, Path::new("pdf/SKILL.md"), &options).iter().filter(|d| d.is_error()).count()
/// };
/// assert_eq!((errors(Profile::Strict), errors(profile)), (1, 0));
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum Profile {
    /// The Agent Skills specification: unknown fields and every length limit are errors.
    #[default]
    Strict,
    /// What clients are advised to load: a name/folder mismatch, an over-long name or
    /// description, unknown fields, non-string metadata values and an unquoted colon in a value
    /// are warnings. What cannot be listed or named safely is still an error.
    Lenient,
}

/// Whether a diagnostic stops the skill from being used.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
pub(crate) enum Severity {
    /// Reported, and the skill is still used.
    Warning,
    /// The skill is not used (and `skills!` does not compile).
    Error,
}

macro_rules! rules {
    ($($(#[doc = $doc:literal])* $variant:ident = $id:literal,)*) => {
        /// A rule the validator checks. Each has a stable kebab-case id, which `parse` reads and
        /// `to_string` (or `<&str>::from`) writes, e.g. `name-case`.
        ///
        /// ```
        /// use std::path::Path;
        /// use skills_embed::parse::{Rule, ScanOptions, check};
        /// let text = "---\nname: PDF\ndescription: PDFs.\n---\n";
        /// let problems = check(text, Path::new("pdf/SKILL.md"), &ScanOptions::default());
        /// assert_eq!(problems[0].rule, Rule::NameCase);
        /// assert_eq!(problems[0].rule.to_string(), "name-case");
        /// assert_eq!("name-case".parse::<Rule>(), Ok(Rule::NameCase));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(strum::EnumString, strum::IntoStaticStr, strum::Display, strum::VariantNames)]
        #[non_exhaustive]
        pub enum Rule {
            $($(#[doc = $doc])* #[strum(serialize = $id)] $variant,)*
        }

        impl Rule {
            /// Every rule, in the order the guide (`docs/src/validation.md`) lists them.
            ///
            /// ```
            /// use skills_embed::parse::Rule;
            /// // The guide's table of rules, one row per rule.
            /// let row = |r: &Rule| format!("| `{r}` | {} |", r.summary());
            /// let table: Vec<_> = Rule::ALL.iter().map(row).collect();
            /// assert_eq!(table[0], "| `missing-path` | The path given does not exist. |");
            /// assert!(Rule::ALL.iter().all(|r| r.to_string().parse::<Rule>() == Ok(*r)));
            /// ```
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// One line saying what the rule checks.
            ///
            /// ```
            /// use std::path::Path;
            /// use skills_embed::parse::{ScanOptions, check};
            /// let text = "---\nname: PDF\ndescription: PDFs.\n---\n";
            /// let problems = check(text, Path::new("pdf/SKILL.md"), &ScanOptions::default());
            /// // What to show beside a diagnostic's rule id.
            /// assert_eq!(problems[0].rule.summary(), "`name` must be lowercase.");
            /// ```
            pub fn summary(self) -> &'static str {
                match self { $(Rule::$variant => concat!($($doc),*).trim_ascii(),)* }
            }
        }
    };
}

rules! {
    /// The path given does not exist.
    MissingPath = "missing-path",
    /// A folder named on purpose holds no SKILL.md (and no skill below it).
    MissingSkillMd = "missing-skill-md",
    /// A file or folder could not be read, or a SKILL.md is not a regular file (a folder, FIFO,
    /// socket or device: its skill is not read).
    ReadError = "read-error",
    /// SKILL.md is not valid UTF-8.
    NotUtf8 = "not-utf8",
    /// A FIFO, socket or device in the folder is skipped.
    SpecialFile = "special-file",
    /// A symbolic link points outside its skill's folder (or, outside any skill, outside the
    /// skills folder); it is not followed.
    SymlinkEscape = "symlink-escape",
    /// A symbolic link was not followed, because following links is off (warning).
    SymlinkSkipped = "symlink-skipped",
    /// A walk reached a cap (depth, entries in all or per skill, time, `max_dirs`) or met a real
    /// folder again through a link; what it cut was not read (warning).
    ScanLimit = "scan-limit",
    /// SKILL.md must start with a `---` line.
    FrontmatterMissing = "frontmatter-missing",
    /// The frontmatter must end with a `---` line.
    FrontmatterUnclosed = "frontmatter-unclosed",
    /// The frontmatter holds no fields.
    FrontmatterEmpty = "frontmatter-empty",
    /// The frontmatter is over 64 KiB.
    FrontmatterTooLarge = "frontmatter-too-large",
    /// The frontmatter nests lists and mappings more than 64 levels deep.
    FrontmatterTooDeep = "frontmatter-too-deep",
    /// The frontmatter must be a YAML mapping of fields.
    FrontmatterNotMapping = "frontmatter-not-mapping",
    /// The frontmatter is not valid YAML.
    YamlSyntax = "yaml-syntax",
    /// A key appears twice in the frontmatter.
    YamlDuplicateKey = "yaml-duplicate-key",
    /// A plain value holds `: `, which strict YAML rejects; quote it (lenient: read as text).
    UnquotedColon = "unquoted-colon",
    /// A field the specification does not define.
    UnknownField = "unknown-field",
    /// `name` is required and must not be empty.
    NameMissing = "name-missing",
    /// `name` must be a string.
    NameType = "name-type",
    /// `name` is at most 64 characters.
    NameTooLong = "name-too-long",
    /// `name` must be lowercase.
    NameCase = "name-case",
    /// `name` must not start or end with a hyphen.
    NameHyphenEdge = "name-hyphen-edge",
    /// `name` must not contain two hyphens in a row.
    NameDoubleHyphen = "name-double-hyphen",
    /// `name` holds only lowercase letters, digits and hyphens.
    NameChars = "name-chars",
    /// `name` must equal the skill's folder name (after NFKC normalisation).
    NameDirMismatch = "name-dir-mismatch",
    /// `description` is required and must not be blank.
    DescriptionMissing = "description-missing",
    /// `description` must be a string.
    DescriptionType = "description-type",
    /// `description` is at most 1024 characters.
    DescriptionTooLong = "description-too-long",
    /// `compatibility` must be a string.
    CompatibilityType = "compatibility-type",
    /// `compatibility` is 1 to 500 characters.
    CompatibilityLength = "compatibility-length",
    /// `license` must be a string.
    LicenseType = "license-type",
    /// `metadata` must map string keys to string values.
    MetadataType = "metadata-type",
    /// `allowed-tools` must be a space-separated string or a list of strings.
    AllowedToolsType = "allowed-tools-type",
    /// A client dialect's field has the wrong type, e.g. `disable-model-invocation` must be a boolean.
    ClientFieldType = "client-field-type",
    /// The body is over the line or character limit (500 lines, 40,000 characters by default).
    BodyTooLong = "body-too-long",
    /// A `<chunk>` block is malformed, unclosed, nested in another, or has no description.
    ChunkSyntax = "chunk-syntax",
    /// A chunk id is missing or not 1-64 of `a-z 0-9 _ -`.
    ChunkId = "chunk-id",
    /// Two chunks of one body have the same id.
    ChunkDuplicate = "chunk-duplicate",
    /// A resource or SKILL.md is over the size cap (2,000,000 bytes by default): an error in
    /// `skills!` and for SKILL.md; for a resource read from disk a warning, and the file is left
    /// out.
    ResourceTooLarge = "resource-too-large",
    /// Two skills have the same name.
    DuplicateName = "duplicate-name",
    /// Two skill names give the same enum variant.
    VariantCollision = "variant-collision",
    /// An include or exclude glob does not parse.
    InvalidGlob = "invalid-glob",
    /// `scripts = {...}` names a skill that does not exist, or gives one script name twice
    /// (macro only).
    ScriptSkill = "script-skill",
    /// A body links to a Rust script (`[...](script:NAME)`) that is not registered for its skill
    /// (macro only).
    ScriptReference = "script-reference",
    /// A body links to a file or folder of its skill that does not exist (a warning in the
    /// lenient profile, and for a path named in inline code); URLs, anchors, links leaving the
    /// skill and code blocks are not checked.
    BrokenReference = "broken-reference",
    /// A Markdown file that SKILL.md references refers to further files of the skill, which
    /// SKILL.md does not: references stay one level deep (warning).
    NestedReference = "nested-reference",
    /// A file of the skill that nothing refers to, with `unreferenced_files` on (warning).
    UnreferencedFile = "unreferenced-file",
}

/// One problem found in a skill, with its place.
///
/// `Display` gives `FILE:LINE:COL: error[RULE]: message`, like rustc and gcc, for a problem at a
/// place in a file's text, and `PATH: error[RULE]: message` for a problem with a whole file or
/// folder (a folder with no SKILL.md, a file over the size cap, a link that leaves the root),
/// which has no line to point at.
///
/// ```
/// use std::path::Path;
/// use skills_embed::parse::{Diagnostic, Rule};
///
/// let at = Diagnostic::error(Rule::NameCase, Path::new("a/SKILL.md"), 2, 1, "lowercase".into());
/// assert_eq!(at.to_string(), "a/SKILL.md:2:1: error[name-case]: lowercase");
/// let whole = Diagnostic::path_error(Rule::MissingSkillMd, Path::new("a"), "no SKILL.md".into());
/// assert_eq!(whole.to_string(), "a: error[missing-skill-md]: no SKILL.md");
/// assert_eq!((whole.line, whole.column), (0, 0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning: [`Diagnostic::is_error`] reads it.
    pub(crate) severity: Severity,
    /// The rule broken.
    pub rule: Rule,
    /// The file (or folder) concerned.
    pub file: PathBuf,
    /// 1-based line; 0 when the problem concerns the whole file or folder.
    pub line: usize,
    /// 1-based column, counted in characters (as the YAML parser counts them); 0 with `line`.
    pub column: usize,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl Diagnostic {
    /// The same diagnostic about another file.
    pub(crate) fn with_file(self, file: &Path) -> Diagnostic {
        Diagnostic {
            file: file.to_owned(),
            ..self
        }
    }

    /// An error at `file:line:column`.
    // What the validator, the macro and the loaders build; users read diagnostics.
    #[doc(hidden)]
    pub fn error(rule: Rule, file: &Path, line: usize, column: usize, message: String) -> Self {
        Diagnostic {
            severity: Severity::Error,
            rule,
            file: file.to_owned(),
            line,
            column,
            message,
        }
    }

    /// A warning at `file:line:column`.
    #[doc(hidden)]
    pub fn warning(rule: Rule, file: &Path, line: usize, column: usize, message: String) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(rule, file, line, column, message)
        }
    }

    /// An error about the whole file or folder `path`, with no line or column.
    #[doc(hidden)]
    pub fn path_error(rule: Rule, path: &Path, message: String) -> Self {
        Self::error(rule, path, 0, 0, message)
    }

    /// A warning about the whole file or folder `path`, with no line or column.
    #[doc(hidden)]
    pub fn path_warning(rule: Rule, path: &Path, message: String) -> Self {
        Self::warning(rule, path, 0, 0, message)
    }

    /// Whether this is an error.
    ///
    /// ```
    /// use std::path::Path;
    /// use skills_embed::parse::{Profile, Rule, ScanOptions, check};
    /// let text = "---\nname: pdf\ndescription: PDFs.\ncolour: blue\n---\n";
    /// let lenient = ScanOptions { profile: Profile::Lenient, ..ScanOptions::default() };
    /// let problems = check(text, Path::new("pdf/SKILL.md"), &lenient);
    /// // Lenient: the unknown field is a warning, so the skill is still used.
    /// assert_eq!((problems[0].rule, problems[0].is_error()), (Rule::UnknownField, false));
    /// assert!(!problems.iter().any(|d| d.is_error()));
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The same diagnostic with its file shown relative to `base` when it lies under it.
    // What the macro and the command-line tool print; users format the fields they need.
    #[doc(hidden)]
    pub fn relative_to(&self, base: &Path) -> Diagnostic {
        let file = self
            .file
            .strip_prefix(base)
            .unwrap_or(&self.file)
            .to_owned();
        Diagnostic {
            file,
            ..self.clone()
        }
    }

    /// `FILE:LINE:COL`, or `PATH` alone for a problem with a whole file or folder.
    fn location(&self) -> String {
        match self.line {
            0 => self.file.display().to_string(),
            line => format!("{}:{line}:{}", self.file.display(), self.column),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}[{}]: {}",
            self.location(),
            self.severity,
            self.rule,
            self.message
        )
    }
}
