//! The `skills` command-line tool: validate, list, render, read, call and extract folders of
//! Agent Skills with the same rules as the `skills!` macro.
//!
//! Exit codes: 0 success, 1 a skill failed validation (or a lookup missed), 2 usage or I/O error.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;

use crate::SkillSet;
use crate::disk::Discovery;
use crate::listing::ListingFormat;
use crate::parse::{
    Diagnostic, Dialect, Profile, ResourceAction, Rule, ScanOptions, WalkLimits, scan,
};
use crate::tools::{OutputShape, Settings, ToolName, ToolStyle, Tools};
use clap::builder::TypedValueParser as _;
use clap::{Parser, Subcommand, ValueEnum};
use strum::VariantNames;

/// Validate, list, render, read and serve folders of Agent Skills.
#[derive(Parser)]
#[command(name = "skills", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check skills; prints `FILE:LINE:COL: error[RULE]: message` per problem.
    ///
    /// Each PATH is searched for every SKILL.md below it, dot folders included (`.curated/`,
    /// `.claude/skills/`), except version-control, dependency and cache folders (.git, .hg,
    /// .svn, .jj, node_modules, target, .venv, __pycache__, .tox). A skill folder or a SKILL.md
    /// is checked together with every skill nested below it, and those are reported too. A
    /// problem with a whole file or folder prints as `PATH: error[RULE]: message`.
    #[command(
        after_help = "Exit status: 0 all valid (warnings allowed), 1 any error, \
                            2 usage or I/O error (e.g. a PATH that does not exist)."
    )]
    Validate {
        /// Skill folders, SKILL.md files, or folders holding skills (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
        /// Do not search folders whose name starts with `.` (as `skills!` and discovery do).
        #[arg(long)]
        no_dot_folders: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
    /// One row per skill: name, description, files, bytes, source.
    #[command(override_usage = "skills list [OPTIONS] <PATH | --discover>")]
    List {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
    },
    /// The L1 listing, byte-identical to what `skills!` embeds for the same folder.
    #[command(override_usage = "skills prompt [OPTIONS] <PATH | --discover>")]
    Prompt {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
        /// Listing format.
        #[arg(long, default_value = "markdown", value_parser = named::<ListingFormat>())]
        format: ListingFormat,
    },
    /// The tool definition(s) as JSON, with the skills the model may invoke as the `skill`
    /// enum; `[]` when there is none (a host offers no tool then).
    #[command(override_usage = "skills schema [OPTIONS] <PATH | --discover>")]
    Schema {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
        /// Which flavour of tool JSON.
        #[arg(long, value_enum, default_value_t = SchemaFormat::JsonSchema)]
        format: SchemaFormat,
        /// One unified tool, or read_skill / read_skill_resource / load_skill_chunk.
        #[arg(long, default_value = "unified", value_parser = named::<ToolStyle>())]
        style: ToolStyle,
    },
    /// Print exactly what the model receives for a tool call; exit 1 when it is a tool error.
    ///
    /// Arguments: PATH TOOL ARGS_JSON, or TOOL ARGS_JSON with --discover. TOOL is any tool
    /// name of either style (load_skill, read_skill, read_skill_resource, load_skill_chunk);
    /// ARGS_JSON is e.g. '{"skill":"pdf","path":"SKILL.md"}'.
    Call {
        /// Use the skills discovery finds from the current folder instead of PATH.
        #[arg(long)]
        discover: bool,
        /// [PATH] TOOL ARGS_JSON
        #[arg(required = true, num_args = 2..=3, value_name = "ARGS")]
        args: Vec<String>,
        #[command(flatten)]
        common: Common,
        /// The frame around loaded content.
        #[arg(long, default_value = "brackets", value_parser = named::<OutputShape>())]
        shape: OutputShape,
        /// Characters of a resource per answer.
        #[arg(long, default_value_t = 12_000)]
        max_chars: usize,
    },
    /// Print a skill's body, or one of its files.
    ///
    /// Arguments: PATH SKILL [FILE], or SKILL [FILE] with --discover.
    Read {
        /// Use the skills discovery finds from the current folder instead of PATH.
        #[arg(long)]
        discover: bool,
        /// [PATH] SKILL [FILE]
        #[arg(required = true, num_args = 1..=3, value_name = "ARGS")]
        args: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Print what a host inserts when the user sends MESSAGE: the body of each skill it
    /// invokes (`/name args` at the start, `/name` or `$name` anywhere, `[$name](path)`), with
    /// the arguments substituted; names that are not skills go to stderr.
    ///
    /// Arguments: PATH MESSAGE, or MESSAGE with --discover. `${SKILL_DIR}` becomes the skill's
    /// folder when the skills come from PATH.
    #[command(
        after_help = "Exit status: 0 a skill was invoked, 1 none was or one's text would be over \
                      the 2,000,000-byte limit, 2 usage or I/O error."
    )]
    Invoke {
        /// Use the skills discovery finds from the current folder instead of PATH.
        #[arg(long)]
        discover: bool,
        /// [PATH] MESSAGE
        #[arg(required = true, num_args = 1..=2, value_name = "ARGS")]
        args: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// The user's menu: one line per skill the user may invoke, `/name [argument hint]` and
    /// what it does. Skills whose `user-invocable` is `false` are left out; skills the model
    /// may not invoke are in it.
    #[command(override_usage = "skills menu [OPTIONS] <PATH | --discover>")]
    Menu {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Serve skills to an MCP client over stdio: the load tool, skill:// resources, the MCP
    /// skills extension and the listing as a prompt.
    ///
    /// Changed files are read again in the background (checked once a second), so edits show
    /// up without a restart; requests are answered from the last complete set meanwhile, and a
    /// reload never delays them. Diagnostics go to stderr; stdout carries the protocol.
    #[command(override_usage = "skills serve [OPTIONS] <PATH | --discover>")]
    Serve {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
        /// Permission rules, one a line: `allow|ask|deny PATTERN` or `default allow|ask|deny`
        /// (`ask` skills are refused: stdio has no way to ask the user).
        #[arg(long, value_name = "FILE")]
        permissions: Option<PathBuf>,
        /// Serve only skills whose name matches PATTERN (`*` is a wildcard); repeatable.
        #[arg(long, value_name = "PATTERN")]
        only: Vec<String>,
        /// Hide skills whose name matches PATTERN from every MCP surface; repeatable, and wins
        /// over --only.
        #[arg(long, value_name = "PATTERN")]
        deny: Vec<String>,
        /// One unified tool, or read_skill / read_skill_resource / load_skill_chunk.
        #[arg(long, default_value = "unified", value_parser = named::<ToolStyle>())]
        style: ToolStyle,
        /// The frame around loaded content.
        #[arg(long, default_value = "brackets", value_parser = named::<OutputShape>())]
        shape: OutputShape,
        /// The name of the unified tool: 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (what MCP
        /// clients and the OpenAI and Anthropic APIs all accept).
        #[arg(long, default_value = "load_skill")]
        tool_name: ToolName,
        #[command(flatten)]
        http: Box<HttpArgs>,
    },
    /// Write a skill's files (scripts with their executable bits) under DEST/<skill>/.
    Extract {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        /// The skill's name.
        skill: String,
        /// The folder to write into.
        dest: PathBuf,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(clap::Args)]
struct TargetArgs {
    /// A folder of skills, a skill folder or a SKILL.md; required unless --discover is given.
    /// Read as `skills!` reads it: folders whose name starts with `.` are not searched.
    #[arg(required_unless_present = "discover", conflicts_with = "discover")]
    path: Option<PathBuf>,
    /// Use the skills discovery finds from the current folder (project, user and
    /// $SKILLS_PATH roots) instead of PATH.
    #[arg(long)]
    discover: bool,
}

impl TargetArgs {
    fn target(&self) -> Target {
        match &self.path {
            Some(path) if !self.discover => Target::Path(path.clone()),
            _ => Target::Discover,
        }
    }
}

#[derive(clap::Args)]
struct Common {
    /// Apply the lenient profile: warn on name/folder mismatch, long fields, unknown fields.
    /// (Discovery always reads leniently: those files are not yours.)
    #[arg(long)]
    lenient: bool,
    /// Accept a client's fields as known fields: `claude-code`, `codex` or `opencode`;
    /// repeatable. Their types are checked (a wrong type is a `client-field-type` error) and
    /// they say who may invoke each skill, with no warning. Without it, the strict profile
    /// reports client fields as `unknown-field` and the lenient one honours them with a warning.
    #[arg(long = "dialect", value_name = "NAME", value_parser = parse_dialect)]
    dialects: Vec<Dialect>,
    /// The size cap of a resource, in bytes, or `none` [default: 2000000]. Over the default
    /// cap a resource gets a warning and is left out of its skill (which still loads); with
    /// this option, `validate` reports it as an error.
    #[arg(long, value_name = "BYTES", value_parser = parse_cap)]
    max_resource_bytes: Option<Cap>,
    /// How many levels below PATH any file is read, or `none` [default: 128]. A folder at the
    /// cap that holds more gets a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    max_depth: Option<Count>,
    /// Files and folders read in all, or `none` [default: 100000]; the walk stops at the cap
    /// with a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    max_entries: Option<Count>,
    /// Files and folders read per skill, or `none` [default: 10000]; the rest of a skill over
    /// it are left out with a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    max_skill_entries: Option<Count>,
}

fn parse_dialect(text: &str) -> Result<Dialect, String> {
    text.parse().map_err(|_| {
        let names: Vec<String> = Dialect::VARIANTS.iter().map(|n| format!("`{n}`")).collect();
        match names.split_last() {
            Some((last, rest)) => format!("expected {} or {last}, not {text:?}", rest.join(", ")),
            None => format!("no dialect is known, not {text:?}"),
        }
    })
}

/// A size cap given on the command line: a number of bytes, or no cap.
#[derive(Clone, Copy)]
struct Cap(Option<u64>);

fn parse_cap(text: &str) -> Result<Cap, String> {
    if text == "none" {
        return Ok(Cap(None));
    }
    text.replace('_', "")
        .parse::<u64>()
        .map(|n| Cap(Some(n)))
        .map_err(|_| format!("expected a number of bytes such as 5000000, or `none`, not {text:?}"))
}

/// A count cap given on the command line: a number, or no cap.
#[derive(Clone, Copy)]
struct Count(Option<usize>);

fn parse_count(text: &str) -> Result<Count, String> {
    if text == "none" {
        return Ok(Count(None));
    }
    text.replace('_', "")
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .map(|n| Count(Some(n)))
        .ok_or_else(|| format!("expected a number above 0 such as 20000, or `none`, not {text:?}"))
}

impl Common {
    fn profile(&self) -> Profile {
        if self.lenient {
            Profile::Lenient
        } else {
            Profile::Strict
        }
    }

    /// How the commands that load skills read PATH: as `skills!` does (no dot folders, links
    /// followed inside the root), except that a resource over the cap is left out with a
    /// warning instead of failing its skill.
    fn options(&self) -> ScanOptions {
        let mut options = ScanOptions {
            profile: self.profile(),
            dialects: self.dialects.iter().copied().collect(),
            follow_symlinks: true,
            walk: self.walk(WalkLimits::default()),
            ..ScanOptions::default()
        };
        options.limits.resource = ResourceAction::Skip;
        if let Some(Cap(cap)) = self.max_resource_bytes {
            options.limits.max_resource_bytes = cap;
        }
        options
    }

    /// `walk` with the caps given on the command line.
    fn walk(&self, mut walk: WalkLimits) -> WalkLimits {
        if let Some(Count(cap)) = self.max_depth {
            walk.max_depth = cap;
        }
        if let Some(Count(cap)) = self.max_entries {
            walk.max_entries = cap;
        }
        if let Some(Count(cap)) = self.max_skill_entries {
            walk.max_skill_entries = cap;
        }
        walk
    }

    /// How `validate` reads PATH: every SKILL.md below it (see
    /// [`ScanOptions::for_repositories`]); a resource over a cap given on the command line is
    /// an error.
    fn validate_options(&self, dot_folders: bool) -> ScanOptions {
        let mut options = ScanOptions {
            profile: self.profile(),
            dialects: self.dialects.iter().copied().collect(),
            dot_folders,
            walk: self.walk(WalkLimits::default()),
            ..ScanOptions::for_repositories()
        };
        if let Some(Cap(cap)) = self.max_resource_bytes {
            options.limits.max_resource_bytes = cap;
            options.limits.resource = ResourceAction::Error;
        }
        options
    }

    /// Discovery from the current folder, with the size cap given on the command line.
    fn discovery(&self) -> Discovery {
        let mut discovery = Discovery::default();
        discovery.scan.walk = self.walk(discovery.scan.walk);
        discovery.scan.dialects = self.dialects.iter().copied().collect();
        if let Some(Cap(cap)) = self.max_resource_bytes {
            discovery.scan.limits.max_resource_bytes = cap;
            discovery.max_file_bytes = cap;
        }
        discovery
    }
}

/// Where skills come from: a folder given on the command line, or discovery.
enum Target {
    Path(PathBuf),
    Discover,
}

/// Splits the positional arguments of `read` and `call`: with `--discover` there is no PATH.
fn split_target(
    discover: bool,
    mut args: Vec<String>,
    needed: usize,
) -> Option<(Target, Vec<String>)> {
    if discover {
        return (args.len() >= needed).then_some((Target::Discover, args));
    }
    if args.len() < needed + 1 {
        return None;
    }
    let path = PathBuf::from(args.remove(0));
    Some((Target::Path(path), args))
}

#[derive(Clone, Copy, ValueEnum)]
enum ReportFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum SchemaFormat {
    JsonSchema,
    Openai,
    Anthropic,
    Mcp,
}

/// A flag whose values are a library enum's own names (strum's), listed by clap in help and
/// errors: one enum for the macro's options, the library and the flag.
fn named<T>() -> impl clap::builder::TypedValueParser<Value = T>
where
    T: VariantNames + FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    // Only the names that parse: a variant given another way (a listing template) has none.
    let names = T::VARIANTS.iter().filter(|name| name.parse::<T>().is_ok());
    clap::builder::PossibleValuesParser::new(names).try_map(|name: String| name.parse::<T>())
}

/// How a command ended.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Ok = 0,
    Invalid = 1,
    Usage = 2,
}

/// The Rust scripts of the binary this tool runs in ([`main_with`]), as an empty set's: `call`,
/// `schema` and `serve` attach them to the skills of those names. None for `skills` itself.
static BASE: std::sync::OnceLock<SkillSet> = std::sync::OnceLock::new();

fn base() -> &'static SkillSet {
    BASE.get_or_init(SkillSet::empty)
}

/// Runs the command line in `std::env::args` with `scripts` as the Rust scripts of the skills
/// of those names, and returns its exit code.
pub fn main_with(scripts: impl IntoIterator<Item = crate::Script>) -> ExitCode {
    // Only the first call's scripts count; a process runs one command line.
    let _ = BASE.set(SkillSet::empty().with_scripts(scripts));
    main()
}

/// Runs the command line in `std::env::args` and returns its exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Validate {
            paths,
            common,
            no_dot_folders,
            format,
        } => validate(&paths, &common, !no_dot_folders, format),
        Command::List { target, common } => list(&target.target(), &common),
        Command::Menu { target, common } => menu(&target.target(), &common),
        Command::Prompt {
            target,
            common,
            format,
        } => prompt(&target.target(), &common, &format),
        Command::Schema {
            target,
            common,
            format,
            style,
        } => schema(&target.target(), &common, format, style),
        Command::Call {
            discover,
            args,
            common,
            shape,
            max_chars,
        } => {
            let config = Settings {
                shape,
                max_chars,
                ..Settings::default()
            };
            match split_target(discover, args, 2) {
                Some((target, rest)) => call(&target, &rest[0], &rest[1], &common, config),
                None => usage("call needs PATH TOOL ARGS_JSON (or TOOL ARGS_JSON with --discover)"),
            }
        }
        Command::Read {
            discover,
            args,
            common,
        } => match split_target(discover, args, 1) {
            Some((target, rest)) => {
                read(&target, &rest[0], rest.get(1).map(String::as_str), &common)
            }
            None => usage("read needs PATH SKILL [FILE] (or SKILL [FILE] with --discover)"),
        },
        Command::Invoke {
            discover,
            args,
            common,
        } => match split_target(discover, args, 1) {
            Some((target, rest)) if rest.len() == 1 => invoke(&target, &rest[0], &common),
            _ => usage("invoke needs PATH MESSAGE (or MESSAGE with --discover)"),
        },
        Command::Extract {
            path,
            skill,
            dest,
            common,
        } => extract(&path, &skill, &dest, &common),
        Command::Serve {
            target,
            common,
            permissions,
            only,
            deny,
            style,
            shape,
            tool_name,
            http,
        } => {
            let HttpArgs {
                http,
                token_file,
                stateless,
                allow_host,
                allow_origin,
                max_sessions,
                max_connections,
                header_read_timeout,
                idle_timeout,
            } = *http;
            let config = Settings {
                name: tool_name,
                style,
                shape,
                ..Settings::default()
            };
            let rules = match permissions.as_deref().map(read_permissions) {
                None => Ok(crate::policy::Permissions::new()),
                Some(read) => read,
            };
            let tokens = token_file.as_deref().map(read_tokens).transpose();
            match (rules, tokens) {
                (Ok(rules), Ok(tokens)) => {
                    let http = http.map(|addr| HttpFlags {
                        addr,
                        tokens: tokens.unwrap_or_default(),
                        stateless,
                        hosts: allow_host,
                        origins: allow_origin,
                        max_sessions,
                        max_connections,
                        header_read_timeout,
                        idle_timeout,
                    });
                    serve(&target.target(), &common, rules, &only, &deny, config, http)
                }
                (Err(message), _) | (_, Err(message)) => usage(&message),
            }
        }
    };
    ExitCode::from(outcome as u8)
}

fn usage(message: &str) -> Outcome {
    eprintln!("error: {message}");
    Outcome::Usage
}

/// The outcome a set of diagnostics calls for: a path that cannot be read is an I/O error.
fn outcome_of(diagnostics: &[Diagnostic]) -> Outcome {
    let io = |d: &Diagnostic| matches!(d.rule, Rule::MissingPath) && d.is_error();
    if diagnostics.iter().any(io) {
        Outcome::Usage
    } else if diagnostics.iter().any(Diagnostic::is_error) {
        Outcome::Invalid
    } else {
        Outcome::Ok
    }
}

fn validate(
    paths: &[PathBuf],
    common: &Common,
    dot_folders: bool,
    format: ReportFormat,
) -> Outcome {
    let options = common.validate_options(dot_folders);
    let mut all = Vec::new();
    let mut skills = 0;
    for path in paths {
        let tree = scan(path, &options);
        skills += tree.skills.len();
        all.extend(tree.diagnostics);
    }
    let mut out = std::io::stdout().lock();
    match format {
        ReportFormat::Text => {
            for d in &all {
                let _ = writeln!(out, "{d}");
            }
        }
        ReportFormat::Json => {
            let items: Vec<serde_json::Value> = all.iter().map(diagnostic_json).collect();
            let _ = writeln!(out, "{}", serde_json::Value::Array(items));
        }
    }
    let errors = all.iter().filter(|d| d.is_error()).count();
    let warnings = all.len() - errors;
    eprintln!(
        "checked {skills} skill{}: {errors} error{}, {warnings} warning{}",
        plural(skills),
        plural(errors),
        plural(warnings)
    );
    outcome_of(&all)
}

/// One diagnostic as JSON; `line` and `column` are null for a problem with a whole file or
/// folder.
fn diagnostic_json(d: &Diagnostic) -> serde_json::Value {
    let (line, column) = d.position().unzip();
    serde_json::json!({
        "file": d.file.display().to_string(),
        "line": line,
        "column": column,
        "severity": d.severity.to_string(),
        "rule": d.rule.to_string(),
        "message": d.message,
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The skills of a target as a set, with where each came from. Problems go to stderr.
struct Loaded {
    set: SkillSet,
    sources: BTreeMap<String, String>,
    outcome: Outcome,
}

fn load(target: &Target, common: &Common, format: &ListingFormat) -> Loaded {
    let (skills, sources, diagnostics, skipped) = match target {
        Target::Path(path) => {
            let tree = scan(path, &common.options());
            let (loaded, mut diagnostics) = crate::load::skills(&tree, None);
            diagnostics.splice(0..0, tree.diagnostics.iter().cloned());
            let skipped = tree.skills.len() - loaded.len();
            let sources = loaded
                .iter()
                .map(|(skill, i)| {
                    (
                        skill.name().to_owned(),
                        tree.skills[*i].dir.display().to_string(),
                    )
                })
                .collect();
            (
                loaded.into_iter().map(|(skill, _)| skill).collect(),
                sources,
                diagnostics,
                skipped,
            )
        }
        Target::Discover => {
            let found = common.discovery().scan();
            let sources = found
                .skills
                .iter()
                .map(|f| {
                    (
                        f.skill.name().to_owned(),
                        format!("{}: {}", f.root.kind, f.manifest.display()),
                    )
                })
                .collect();
            let skills = found.skills.into_iter().map(|f| f.skill).collect();
            (skills, sources, found.diagnostics, 0)
        }
    };
    for d in &diagnostics {
        eprintln!("{d}");
    }
    if skipped > 0 {
        eprintln!("skipped {skipped} invalid skill{}", plural(skipped));
    }
    let set = SkillSet::from_skills(skills, format).with_scripts(base().scripts().iter().cloned());
    Loaded {
        set,
        sources,
        outcome: outcome_of(&diagnostics),
    }
}

fn list(target: &Target, common: &Common) -> Outcome {
    let Loaded {
        set,
        sources,
        outcome,
    } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let width = set.names().map(str::len).max().unwrap_or(4).max(4);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:width$}  {:60}  {:>5}  {:>9}  SOURCE",
        "NAME", "DESCRIPTION", "FILES", "BYTES"
    );
    for skill in set.skills() {
        let bytes: usize = skill.files().map(|f| f.bytes().len()).sum();
        let source = sources.get(skill.name()).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "{:width$}  {:60}  {:>5}  {:>9}  {source}",
            skill.name(),
            cut(skill.description(), 60),
            skill.files().len(),
            bytes
        );
    }
    outcome
}

fn menu(target: &Target, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let entries = crate::invoke::menu(set.skills());
    let commands: Vec<String> = entries
        .iter()
        .map(|e| match &e.argument_hint {
            Some(hint) => format!("/{} {hint}", e.name),
            None => format!("/{}", e.name),
        })
        .collect();
    let width = commands
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = std::io::stdout().lock();
    for (entry, command) in entries.iter().zip(&commands) {
        let pad = width - command.chars().count();
        let _ = writeln!(out, "{command}{:pad$}  {}", "", cut(&entry.description, 70));
    }
    outcome
}

/// The text on one line, cut to `max` chars by the one clip.
fn cut(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::__private::clip(&one_line, max).into_owned()
}

fn prompt(target: &Target, common: &Common, format: &ListingFormat) -> Outcome {
    let loaded = load(target, common, format);
    if loaded.outcome != Outcome::Usage {
        print!("{}", loaded.set.summary());
    }
    loaded.outcome
}

fn read(target: &Target, skill: &str, file: Option<&str>, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    match set
        .get(skill)
        .and_then(|s| s.load(file.unwrap_or(crate::__private::MANIFEST)))
    {
        Ok(loaded) => {
            let _ = std::io::stdout().lock().write_all(loaded.bytes());
            outcome
        }
        Err(e) => {
            eprintln!("{e}");
            Outcome::Invalid
        }
    }
}

fn invoke(target: &Target, message: &str, common: &Common) -> Outcome {
    use crate::invoke;
    let Loaded {
        set,
        sources,
        outcome,
    } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let user_may = set
        .skills()
        .iter()
        .filter(|s| s.invocation().user_may_invoke())
        .map(|s| s.name());
    let found = invoke::parse(message, user_may);
    for u in &found.unknown {
        match &u.suggestion {
            Some(s) => eprintln!(
                "not a skill, left as text: {} (byte {}). Did you mean \"{s}\"?",
                u.text, u.at
            ),
            None => eprintln!("not a skill, left as text: {} (byte {})", u.text, u.at),
        }
    }
    let mut out = std::io::stdout().lock();
    let mut outcome = outcome;
    let mut printed = 0;
    for call in &found.invocations {
        let Ok(skill) = set.get(&call.name) else {
            continue;
        };
        // From PATH, the source is the skill's folder; discovery's sources are labels.
        let dir = match target {
            Target::Path(_) => sources.get(&call.name).map(String::as_str),
            Target::Discover => None,
        };
        match invoke::render(skill, &call.args, dir) {
            Ok(text) => {
                if printed > 0 {
                    let _ = writeln!(out);
                }
                printed += 1;
                let _ = out.write_all(text.as_bytes());
            }
            Err(e) => {
                eprintln!("{e}");
                outcome = Outcome::Invalid;
            }
        }
    }
    if found.invocations.is_empty() {
        eprintln!("no skill invoked");
        return Outcome::Invalid;
    }
    outcome
}

fn schema(target: &Target, common: &Common, format: SchemaFormat, style: ToolStyle) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let tools = Tools::new(
        set,
        Settings {
            style,
            ..Settings::default()
        },
    );
    // What a host offers: no tool when no skill is visible to the model.
    let defs: Vec<serde_json::Value> = tools
        .definitions()
        .iter()
        .map(|d| match format {
            SchemaFormat::JsonSchema => serde_json::json!({
                "name": d.name,
                "description": d.description,
                "parameters": d.json_schema(),
            }),
            SchemaFormat::Openai => d.to_openai(),
            SchemaFormat::Anthropic => d.to_anthropic(),
            SchemaFormat::Mcp => d.to_mcp(),
        })
        .collect();
    let pretty = serde_json::to_string_pretty(&defs).unwrap_or_default();
    println!("{pretty}");
    outcome
}

fn call(
    target: &Target,
    tool: &str,
    arguments: &str,
    common: &Common,
    config: Settings,
) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let out = Tools::new(set, config).handle(tool, arguments);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.text.as_bytes());
    if !out.text.ends_with('\n') {
        let _ = stdout.write_all(b"\n");
    }
    if out.is_error {
        Outcome::Invalid
    } else {
        outcome
    }
}

fn extract(path: &Path, skill: &str, dest: &Path, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(
        &Target::Path(path.to_owned()),
        common,
        &ListingFormat::Markdown,
    );
    if outcome == Outcome::Usage {
        return outcome;
    }
    let skill = match set.get(skill) {
        Ok(skill) => skill,
        Err(e) => {
            eprintln!("{e}");
            return Outcome::Invalid;
        }
    };
    match crate::disk::extract(skill, dest) {
        Ok(done) => {
            let verb = if done.written { "wrote" } else { "unchanged:" };
            println!("{verb} {}", done.dir.display());
            for file in &done.files {
                println!("{}", file.display());
            }
            outcome
        }
        Err(e) => {
            eprintln!("error: {e}");
            Outcome::Usage
        }
    }
}

/// Reads a permission rules file (`Permissions::parse` format).
fn read_permissions(path: &Path) -> Result<crate::policy::Permissions, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::policy::Permissions::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The flags of `skills serve --http` (boxed in [`Command::Serve`]: they are most of its size).
#[derive(clap::Args)]
struct HttpArgs {
    /// Serve MCP's Streamable HTTP at http://ADDR/mcp instead of stdio, e.g.
    /// 127.0.0.1:8080. Only loopback hosts are accepted in `Host` unless --allow-host
    /// names more; browser origins other than the server's own get 403. Stops on SIGTERM
    /// or Ctrl-C after the requests in flight.
    #[arg(long, value_name = "ADDR")]
    http: Option<std::net::SocketAddr>,
    /// With --http: require `Authorization: Bearer <token>`. One token a line (`#` starts
    /// a comment); a token may be followed by a permissions file (same format as
    /// --permissions, relative to this file's folder) whose rules replace --permissions for
    /// requests with that token, so each team's agents see their skills only. Each token has
    /// its own sessions: one opened with a token is unknown (404) under another.
    #[arg(long, value_name = "FILE", requires = "http")]
    token_file: Option<PathBuf>,
    /// With --http: no sessions (every request answered on its own, plain JSON), so
    /// replicas need no sticky routing; approvals and subscriptions then last one request.
    #[arg(long, requires = "http")]
    stateless: bool,
    /// With --http: also accept this name in `Host` (a server bound to a non-loopback
    /// address is reached under its own name); repeatable.
    #[arg(long, value_name = "HOST", requires = "http")]
    allow_host: Vec<String>,
    /// With --http: also accept requests from this browser origin (`https://app.example:443`);
    /// repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allow_origin: Vec<String>,
    /// With --http: hold at most N sessions at once (a request that would open one more
    /// gets 503 and Retry-After; idle sessions end after 5 minutes).
    #[arg(long, value_name = "N", requires = "http", default_value_t = crate::mcp::http::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
    /// With --http: hold at most N connections open (the next waits in the listen queue);
    /// default 4096, or three quarters of the descriptor limit (`ulimit -n`) if lower.
    #[arg(long, value_name = "N", requires = "http")]
    max_connections: Option<usize>,
    /// With --http: seconds a connection has to send a request's head (from when it is
    /// accepted or its previous answer ended), and again for the body; then it is closed.
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds, default_value = "10")]
    header_read_timeout: std::time::Duration,
    /// With --http: seconds an answered connection may stay open with no request in
    /// progress.
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds, default_value = "5")]
    idle_timeout: std::time::Duration,
}

/// `skills serve --http` and the flags that go with it.
struct HttpFlags {
    addr: std::net::SocketAddr,
    tokens: Vec<(String, Option<crate::policy::Permissions>)>,
    stateless: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
    max_sessions: usize,
    max_connections: Option<usize>,
    header_read_timeout: std::time::Duration,
    idle_timeout: std::time::Duration,
}

/// A duration given in seconds (`0.5` allowed), above zero.
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a number of seconds above 0 (say 10, or 0.5)"))
}

/// The bearer tokens in `path`, one a line, each with the rules of the permissions file that
/// may follow it; a file with no token is refused.
fn read_tokens(path: &Path) -> Result<Vec<(String, Option<crate::policy::Permissions>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut tokens = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (token, rules) = match line.split_once(char::is_whitespace) {
            Some((token, file)) => (token, Some(read_permissions(&folder.join(file.trim()))?)),
            None => (line, None),
        };
        tokens.push((token.to_owned(), rules));
    }
    if tokens.is_empty() {
        return Err(format!(
            "{}: the token file holds no token; put the bearer token clients send in it",
            path.display()
        ));
    }
    Ok(tokens)
}

/// `skills serve`: an overlay of the target's folder (or of what discovery finds) over no
/// embedded skills, served over stdio (or Streamable HTTP with `--http`) and reloaded when its
/// files change.
fn serve(
    target: &Target,
    common: &Common,
    rules: crate::policy::Permissions,
    only: &[String],
    deny: &[String],
    config: Settings,
    http: Option<HttpFlags>,
) -> Outcome {
    use std::sync::Arc;
    use std::time::Duration;

    use crate::disk::Overlay;
    use crate::mcp::McpServer;
    use crate::policy::Access;

    let discovery = match target {
        Target::Path(path) => {
            if !path.exists() {
                return usage(&format!("{}: no such file or folder", path.display()));
            }
            // A SKILL.md names its skill's folder.
            let root = if path.is_file() {
                path.parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            } else {
                path.clone()
            };
            let defaults = common.discovery();
            let mut scan = common.options();
            // A reload is bounded in time as discovery's are, so no tree can hold one for ever.
            scan.walk.max_time = defaults.scan.walk.max_time;
            Discovery {
                project: false,
                user: false,
                env_var: None,
                code_roots: vec![root],
                scan,
                ..defaults
            }
        }
        Target::Discover => common.discovery(),
    };
    // Over the binary's Rust scripts, which the overlay keeps with the skills of their names.
    let overlay = Arc::new(Overlay::new(base(), discovery));
    let diagnostics = overlay.diagnostics();
    for d in &diagnostics {
        eprintln!("{d}");
    }
    let outcome = outcome_of(&diagnostics).min(Outcome::Invalid);
    let set = overlay.snapshot();
    let over = http
        .as_ref()
        .map_or_else(|| "stdio".to_owned(), |h| format!("http://{}/mcp", h.addr));
    eprintln!(
        "skills serve: {} skill{} over {over}",
        set.len(),
        plural(set.len())
    );

    // The last matching rule wins: the file's rules, then --only, then --deny.
    let restrict = |rules: crate::policy::Permissions| {
        let mut permissions = if only.is_empty() {
            rules
        } else {
            only.iter()
                .fold(rules.with_default(Access::Deny), |p, pattern| {
                    p.allow(pattern.as_str())
                })
        };
        for pattern in deny {
            permissions = permissions.deny(pattern.as_str());
        }
        permissions
    };
    let permissions = restrict(rules);

    // Reloads run on a thread of their own (`disk::watch`, at the lowest CPU priority), once a
    // second after the last one ended; requests take the overlay's last complete snapshot,
    // which a reload swaps in whole when it is done, so a slow reload never delays an answer
    // (issue 13: a reload on the request path, walking a link to `/`, left the server
    // answering nothing, not even `ping`).
    drop(set);
    let _watcher = crate::disk::watch(Arc::clone(&overlay), Duration::from_secs(1), |report| {
        for d in &report.diagnostics {
            eprintln!("{d}");
        }
        eprintln!(
            "skills serve: reloaded (added {:?}, removed {:?}, changed {:?})",
            report.added, report.removed, report.changed
        );
    })
    .map_err(|e| {
        eprintln!("skills serve: cannot start the reload thread ({e}); serving without reloads")
    });
    let maker = move |permissions: crate::policy::Permissions| {
        let (overlay, config) = (Arc::clone(&overlay), config.clone());
        move || {
            let overlay = Arc::clone(&overlay);
            let settings = Settings {
                permissions: permissions.clone(),
                ..config.clone()
            };
            McpServer::new(Arc::clone(&overlay), settings)
                .with_server_info("skills", env!("CARGO_PKG_VERSION"))
        }
    };
    let served = match http {
        None => maker(permissions)().run_stdio(),
        Some(flags) => {
            let mut server = crate::mcp::http::HttpServer::new(maker(permissions))
                .stateless(flags.stateless)
                .allow_hosts(flags.hosts)
                .allow_origins(flags.origins)
                .with_max_sessions(flags.max_sessions)
                .with_header_read_timeout(flags.header_read_timeout)
                .with_idle_timeout(flags.idle_timeout);
            if let Some(max) = flags.max_connections {
                server = server.with_max_connections(max);
            }
            for (token, rules) in flags.tokens {
                server = match rules {
                    None => server.with_token(token),
                    Some(rules) => server.with_token_for(token, maker(restrict(rules))),
                };
            }
            server.run(flags.addr)
        }
    };
    match served {
        Ok(()) => outcome,
        Err(e) => {
            eprintln!("error: {e}");
            Outcome::Usage
        }
    }
}
