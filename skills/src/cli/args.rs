//! The command line as clap reads it: the commands, their flags and positionals, and the
//! options they share.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::builder::TypedValueParser as _;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use strum::VariantNames;

use crate::disk::Discovery;
use crate::listing::ListingFormat;
use crate::package::PluginFormat;
use crate::parse::{Dialect, Profile, ScanOptions};
use crate::tools::{OutputShape, ToolName, ToolStyle};

/// Validate, list, render, read and serve folders of Agent Skills.
#[derive(Parser)]
#[command(name = "skills", version, about, long_about = None)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Check skills; prints `FILE:LINE:COL: error[RULE]: message` per problem.
    ///
    /// Each PATH is searched for every SKILL.md below it, dot folders included (`.curated/`,
    /// `.claude/skills/`), except version-control, dependency and cache folders (.git, .hg,
    /// .svn, .jj, node_modules, target, .venv, __pycache__, .tox): every command finds the same
    /// skills in a PATH. A skill folder or a SKILL.md is checked together with every skill
    /// nested below it, and those are reported too. A problem with a whole file or folder
    /// prints as `PATH: error[RULE]: message`. `validate` is strict (the other commands read
    /// leniently: a collection someone else wrote keeps its skills, with warnings).
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
        /// Check as the other commands read: name/folder mismatch, long fields and unknown
        /// fields are warnings. Without it `validate` is strict, as `skills!` is.
        #[arg(long)]
        lenient: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        /// Warn (`unreferenced-file`) about each file of a skill that neither its SKILL.md nor a
        /// file SKILL.md references refers to.
        #[arg(long)]
        unreferenced: bool,
    },
    /// One row per skill: name, description, files, bytes, source.
    #[command(override_usage = "skills list [OPTIONS] <PATH... | --discover>")]
    List {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
    },
    /// The L1 listing, byte-identical to what `skills!` embeds for the same folder (with
    /// --no-dot-folders, as `skills!` reads it, if it has dot folders).
    #[command(override_usage = "skills prompt [OPTIONS] <PATH... | --discover>")]
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
    #[command(override_usage = "skills schema [OPTIONS] <PATH... | --discover>")]
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
    #[command(
        override_usage = "skills call [OPTIONS] <PATH TOOL ARGS_JSON | --discover TOOL ARGS_JSON>"
    )]
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
    #[command(
        override_usage = "skills read [OPTIONS] <PATH SKILL [FILE] | --discover SKILL [FILE]>"
    )]
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
        override_usage = "skills invoke [OPTIONS] <PATH MESSAGE | --discover MESSAGE>",
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
    #[command(override_usage = "skills menu [OPTIONS] <PATH... | --discover>")]
    Menu {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Serve skills to an MCP client over stdio: the load tool, skill:// resources, the MCP
    /// skills extension and the listing as a prompt.
    ///
    /// Changed files are read again in the background (a second after the file system reports
    /// a change; checked every 10 seconds too), so edits show up without a restart; requests are answered from the last complete set meanwhile, and a
    /// reload never delays them. Diagnostics go to stderr; stdout carries the protocol. A skill
    /// that cannot be served is named there with its rule, and logged to a client that sets a
    /// log level (`logging/setLevel`) unless its rules deny the name.
    #[command(override_usage = "skills serve [OPTIONS] <PATH... | --discover>")]
    Serve {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        common: Common,
        /// Permission rules, one a line: `allow|ask|deny PATTERN` or `default allow|ask|deny`
        /// (an `ask` skill is asked about through the client, when it declares elicitation;
        /// refused otherwise).
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
    /// Start a skill: DIR/NAME/SKILL.md (its `name`, a description to edit, a body template)
    /// and the folders the specification names (scripts/, references/, assets/); prints the
    /// `skills!` and build.rs lines that embed DIR.
    #[command(
        after_help = "Exit status: 0 written, 1 NAME is not a valid skill name (the validator's \
                      message says why), 2 DIR/NAME exists already or cannot be written."
    )]
    New {
        /// The skill's name: 1 to 64 lowercase letters, digits and hyphens.
        name: String,
        /// The folder of skills to write it in (created if missing).
        #[arg(default_value = "skills")]
        dir: PathBuf,
    },
    /// Write the skills of PATH as zip archives the Anthropic and OpenAI skills APIs accept for
    /// upload (one top-level folder per skill; the same bytes for the same skills), or with
    /// --index a static site's `.well-known/agent-skills/` folder: `index.json` (Agent Skills
    /// Discovery v0.2.0, revised 2026-03-12: one artifact per skill, `NAME/SKILL.md` for a skill
    /// of SKILL.md alone, else `NAME.zip` with SKILL.md at its root) and each skill's files.
    /// Skills are checked strictly
    /// first, as `validate` checks them. Prints one line per file written: path, size in bytes,
    /// sha256 digest, tab-separated.
    #[command(
        after_help = "Exit status: 0 written, 1 a skill is invalid or over the upload limits \
                      (8,000,000 bytes, 500 files), 2 usage or I/O error."
    )]
    Pack {
        /// Folders of skills, skill folders or SKILL.md files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The folder to write into (created if missing).
        #[arg(long, value_name = "DIR", default_value = "dist")]
        out: PathBuf,
        /// One archive, NAME.zip, holding every skill's folder, instead of one per skill.
        #[arg(long, value_name = "NAME", conflicts_with = "index")]
        set: Option<String>,
        /// Write DIR/.well-known/agent-skills/ (index.json, the skills' files, NAME.zip for
        /// each skill with more than SKILL.md) for a static site, instead of upload archives.
        #[arg(long)]
        index: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Install the skills of PATH (or of a site's well-known index with --index, or those the
    /// project's dependencies ship with --cargo) into coding agents' folders (the agents
    /// detected, or --agent): missing and outdated ones written, orphans removed, edited or
    /// foreign ones left alone unless --force.
    #[command(after_help = INSTALL_EXIT)]
    Install {
        #[command(flatten)]
        install: InstallArgs,
    },
    /// Each skill of PATH (or --index, --cargo) in each agent's folder: missing, up-to-date,
    /// outdated, modified, foreign, orphaned.
    #[command(after_help = INSTALL_EXIT)]
    Status {
        #[command(flatten)]
        install: InstallArgs,
    },
    /// Remove the skills of PATH (or --index, --cargo) installed from it that are unchanged.
    #[command(visible_alias = "remove", after_help = INSTALL_EXIT)]
    Uninstall {
        #[command(flatten)]
        install: InstallArgs,
    },
    /// Write a plugin folder for coding agents: every skill of PATH under DIR/skills/, the
    /// manifest of each format, and an MCP server entry that runs this tool's `serve` on the
    /// plugin's skills (the tool must be on PATH where the client runs).
    ///
    /// Formats: `claude` (Claude Code's .claude-plugin/plugin.json), `cursor`
    /// (.cursor-plugin/plugin.json), `agent-plugins` (the cross-vendor plugin.json and mcp.json,
    /// Agent Plugins 1.0.0), `all`. PATH is checked as `validate` checks it first.
    #[command(after_help = PLUGIN_EXIT)]
    Plugin {
        /// Folders of skills, skill folders or SKILL.md files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The plugin folder to write; it must not exist or be empty, unless --force.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The formats to write; repeatable or comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "all", value_parser = named::<PluginFormat>())]
        format: Vec<PluginFormat>,
        /// The plugin's name: lowercase letters, digits and single hyphens (default: DIR's
        /// folder name).
        #[arg(long)]
        name: Option<String>,
        /// The plugin's version, e.g. 1.2.0.
        #[arg(long)]
        version: Option<String>,
        /// The plugin's description (default: the one skill's, or the skills' names).
        #[arg(long)]
        description: Option<String>,
        /// The author's name.
        #[arg(long)]
        author: Option<String>,
        /// Replace DIR if it holds something.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        common: Common,
    },
}

const PLUGIN_EXIT: &str = "Exit status: 0 written, 1 a skill of PATH is invalid (the errors say \
                           which), 2 usage or I/O error: a name a format refuses, DIR not empty \
                           without --force, a write that failed.";

const INSTALL_EXIT: &str = "Exit status: 0 all done, 1 something left alone (edited since \
                            installed, or not ours, without --force; a write that failed), or with --index \
                            an index or file that fails its checks or a skill that fails validation, \
                            2 usage or I/O error (an index that cannot be fetched).";

/// What `install`, `status` and `uninstall` take: PATH (or `--index`, `--cargo`), the provenance's tool
/// name, where.
#[derive(clap::Args)]
pub(super) struct InstallArgs {
    /// A folder of skills, a skill folder or a SKILL.md.
    #[arg(required_unless_present_any = ["cargo", "index"], conflicts_with_all = ["cargo", "index"])]
    pub(super) path: Option<PathBuf>,
    /// Take the skills from a site's well-known index instead of PATH (Agent Skills Discovery
    /// RFC v0.2.0, revised 2026-03-12): its URL (`https://example.com` means its
    /// `/.well-known/agent-skills/index.json`), or an `index.json` on disk (or the folder
    /// holding its `.well-known/`). Each skill's artifact (SKILL.md, .zip or .tar.gz) is
    /// checked against the index's digest, archives unpacked safely, and every skill validated as `validate` does before anything is written; a skill that fails
    /// validation is named and left out.
    #[arg(long, value_name = "URL|FILE", conflicts_with = "cargo")]
    pub(super) index: Option<String>,
    /// With --index: only this skill of the index (repeatable); the index's other skills
    /// already installed are left as they are.
    #[arg(long = "skill", value_name = "NAME", requires = "index")]
    pub(super) skills: Vec<String>,
    /// With --index: read a v0.1.0 index (files without digests), its files unchecked.
    #[arg(long, requires = "index")]
    pub(super) allow_unverified: bool,
    /// The name recorded as the installer (default: PATH's folder name, or the index's URL or
    /// absolute path); skills recorded under another name are not this source's.
    #[arg(long, value_name = "NAME", conflicts_with = "cargo")]
    pub(super) tool: Option<String>,
    /// Instead of PATH: the skills the project's dependencies ship (found through `cargo
    /// metadata`: each crate's `skills/` folder, or the folders its
    /// `[[package.metadata.symposium.skills]]` entries name), checked as `validate` checks them
    /// and installed as `<crate>-<skill>`, each crate recorded as its skills' installer.
    #[arg(long)]
    pub(super) cargo: bool,
    /// With --cargo: the project's Cargo.toml (default: the project around the working folder).
    #[arg(long, value_name = "PATH", requires = "cargo")]
    pub(super) manifest_path: Option<PathBuf>,
    /// With --cargo: run `cargo metadata --offline` (the dependencies must be fetched already).
    #[arg(long, requires = "cargo")]
    pub(super) offline: bool,
    #[command(flatten)]
    pub(super) flags: crate::skill_command::Flags,
    #[command(flatten)]
    pub(super) common: Common,
}

#[derive(clap::Args)]
pub(super) struct TargetArgs {
    /// Folders of skills, skill folders or SKILL.md files; required unless --discover is
    /// given. Read as `validate` reads them (dot folders included, tool folders skipped), but
    /// leniently; a name found under two PATHs is taken from the first.
    #[arg(required_unless_present = "discover", conflicts_with = "discover")]
    pub(super) paths: Vec<PathBuf>,
    /// Use the skills discovery finds from the current folder (project, user and
    /// $SKILLS_PATH roots) instead of PATH.
    #[arg(long)]
    pub(super) discover: bool,
}

impl TargetArgs {
    pub(super) fn target(&self) -> Target {
        if self.discover || self.paths.is_empty() {
            Target::Discover
        } else {
            Target::Paths(self.paths.clone())
        }
    }
}

#[derive(clap::Args)]
pub(super) struct Common {
    /// Do not search folders whose name starts with `.` (`.curated/`, `.claude/skills/`), as
    /// `skills!` does; with --discover the roots are read as discovery reads them anyway.
    #[arg(long)]
    pub(super) no_dot_folders: bool,
    /// Accept a client's fields as known fields: `claude-code`, `codex` or `opencode`;
    /// repeatable. Their types are checked (a wrong type is a `client-field-type` error) and
    /// they say who may invoke each skill, with no warning. Without it, the strict profile
    /// reports client fields as `unknown-field` and the lenient one honours them with a warning.
    #[arg(long = "dialect", value_name = "NAME", value_parser = parse_dialect)]
    pub(super) dialects: Vec<Dialect>,
    /// The size cap of a resource, in bytes, or `none` [default: 2000000]. Over the default
    /// cap a resource gets a warning and is left out of its skill (which still loads); with
    /// this option, `validate` reports it as an error.
    #[arg(long, value_name = "BYTES", value_parser = parse_cap)]
    pub(super) max_resource_bytes: Option<Cap>,
    /// How many levels below PATH any file is read, or `none` [default: 128]. A folder at the
    /// cap that holds more gets a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub(super) max_depth: Option<Count>,
    /// Files and folders read in all, or `none` [default: 100000]; the walk stops at the cap
    /// with a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub(super) max_entries: Option<Count>,
    /// Files and folders read per skill, or `none` [default: 10000]; the rest of a skill over
    /// it are left out with a `scan-limit` warning.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub(super) max_skill_entries: Option<Count>,
}

pub(super) fn parse_dialect(text: &str) -> Result<Dialect, String> {
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
pub(super) struct Cap(Option<u64>);

pub(super) fn parse_cap(text: &str) -> Result<Cap, String> {
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
pub(super) struct Count(Option<usize>);

pub(super) fn parse_count(text: &str) -> Result<Count, String> {
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
    /// How every command reads a PATH, the one walk behind `validate` and the commands that
    /// serve: every SKILL.md below it (see [`ScanOptions::for_repositories`]), dot folders
    /// unless `--no-dot-folders`, links followed inside the root. `check` is `validate`'s
    /// profile; the others read leniently (a collection someone else wrote keeps its skills,
    /// with warnings) and leave a resource over the cap out with a warning, where `validate`
    /// given an explicit cap reports it as an error.
    pub(super) fn scan_options(&self, check: Option<Profile>) -> ScanOptions {
        let mut options = ScanOptions {
            profile: check.unwrap_or(Profile::Lenient),
            dialects: self.dialects.clone(),
            dot_folders: !self.no_dot_folders,
            ..ScanOptions::for_repositories()
        };
        self.walk(&mut options);
        if let Some(Cap(cap)) = self.max_resource_bytes {
            options.max_resource_bytes = cap;
            options.skip_large_resources = check.is_none();
        }
        options
    }

    /// The cap on one file given with --max-resource-bytes (`none`: no cap of its own).
    pub(super) fn max_resource_bytes(&self) -> Option<u64> {
        self.max_resource_bytes
            .map(|Cap(cap)| cap.unwrap_or(u64::MAX))
    }

    /// Sets the walk caps given on the command line.
    pub(super) fn walk(&self, walk: &mut ScanOptions) {
        if let Some(Count(cap)) = self.max_depth {
            walk.max_walk_depth = cap;
        }
        if let Some(Count(cap)) = self.max_entries {
            walk.max_entries = cap;
        }
        if let Some(Count(cap)) = self.max_skill_entries {
            walk.max_skill_entries = cap;
        }
    }

    /// Where the commands other than `validate` take skills from: the PATHs as code roots
    /// (earlier wins a name, as discovery's precedence says), each read with
    /// [`Common::scan_options`]; or discovery from the current folder, with the caps and
    /// dialects given on the command line.
    pub(super) fn discovery(&self, target: &Target) -> Discovery {
        let mut discovery = Discovery::default();
        if let Target::Paths(paths) = target {
            discovery = Discovery {
                project: false,
                user: false,
                home: None,
                env_var: None,
                // A SKILL.md names its skill's folder.
                code_roots: paths
                    .iter()
                    .map(|p| match p.file_name() {
                        Some(name) if name == crate::__private::MANIFEST && p.is_file() => p
                            .parent()
                            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
                        _ => p.clone(),
                    })
                    .collect(),
                scan: self.scan_options(None),
                ..discovery
            };
        } else {
            self.walk(&mut discovery.scan);
            discovery.scan.dialects = self.dialects.clone();
        }
        if let Some(Cap(cap)) = self.max_resource_bytes {
            discovery.scan.max_resource_bytes = cap;
            discovery.max_file_bytes = cap;
        }
        discovery
    }
}

/// Where skills come from: the folders given on the command line, or discovery.
#[derive(Clone)]
pub(super) enum Target {
    Paths(Vec<PathBuf>),
    Discover,
}

/// Splits the positionals of `read`, `call` and `invoke`: PATH first, then those `after` names
/// (`SKILL [FILE]`); with `--discover` there is no PATH and the others move up by one. Another count is clap's usage
/// error for that command (its usage line, exit code 2), as for any other misuse.
pub(super) fn split_target(
    command: &str,
    discover: bool,
    mut args: Vec<String>,
    after: &str,
) -> (Target, Vec<String>) {
    let takes = after.split(' ').count();
    let least = after.split(' ').filter(|a| !a.starts_with('[')).count();
    let given = args.len().saturating_sub(usize::from(!discover));
    if args.is_empty() || !(least..=takes).contains(&given) {
        let message = if discover {
            format!("`skills {command} --discover` takes {after} (no PATH); {given} given")
        } else {
            format!(
                "`skills {command}` takes PATH, then {after}; {given} argument{} after PATH",
                if given == 1 { "" } else { "s" }
            )
        };
        let mut cli = Cli::command();
        let error = match cli.find_subcommand_mut(command) {
            Some(sub) => sub.error(ErrorKind::WrongNumberOfValues, message),
            None => cli.error(ErrorKind::WrongNumberOfValues, message),
        };
        error.exit()
    }
    if discover {
        return (Target::Discover, args);
    }
    let path = PathBuf::from(args.remove(0));
    (Target::Paths(vec![path]), args)
}

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum ReportFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum SchemaFormat {
    JsonSchema,
    Openai,
    Anthropic,
    Mcp,
}

/// A flag whose values are a library enum's own names (strum's), listed by clap in help and
/// errors: one enum for the macro's options, the library and the flag.
pub(super) fn named<T>() -> impl clap::builder::TypedValueParser<Value = T>
where
    T: VariantNames + FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    // Only the names that parse: a variant given another way (a listing template) has none.
    let names = T::VARIANTS.iter().filter(|name| name.parse::<T>().is_ok());
    clap::builder::PossibleValuesParser::new(names).try_map(|name: String| name.parse::<T>())
}

/// The flags of `skills serve --http` (boxed in [`Command::Serve`]: they are most of its size).
#[derive(clap::Args)]
pub(super) struct HttpArgs {
    /// Serve MCP's Streamable HTTP at http://ADDR/mcp instead of stdio, e.g.
    /// 127.0.0.1:8080. Only loopback hosts are accepted in `Host` unless --allow-host
    /// names more; browser origins other than the server's own get 403. Also serves the
    /// skills anyone may see as a site's well-known index, unless --token-file is given:
    /// http://ADDR/.well-known/agent-skills/index.json (RFC revised 2026-03-12), NAME/SKILL.md
    /// or NAME.zip each, and every file at NAME/PATH.
    /// Stops on SIGTERM or Ctrl-C after the requests in flight.
    #[arg(long, value_name = "ADDR")]
    pub(super) http: Option<std::net::SocketAddr>,
    /// With --http: require `Authorization: Bearer <token>`. One token a line (`#` starts
    /// a comment); a token may be followed by a permissions file (same format as
    /// --permissions, relative to this file's folder) whose rules replace --permissions for
    /// requests with that token, so each team's agents see their skills only. Each token has
    /// its own sessions: one opened with a token is unknown (404) under another.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub(super) token_file: Option<PathBuf>,
    /// With --http: no sessions (every request answered on its own, plain JSON), so
    /// replicas need no sticky routing; approvals and subscriptions then last one request.
    #[arg(long, requires = "http")]
    pub(super) stateless: bool,
    /// With --http: seal the approvals of `ask` skills (a 2026-07-28 client's
    /// `requestState`) with the key in FILE (at least 32 bytes; make one with
    /// `head -c 32 /dev/urandom > FILE`). Replicas behind a balancer given the same file
    /// complete each other's approvals; without it, only the replica that asked can.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub(super) state_key_file: Option<PathBuf>,
    /// Keep the "always" answers to `ask` approvals in FILE (JSON lines, appended; created
    /// if missing): replicas given the same file honour each other's, and a restart keeps
    /// them. Each answer belongs to its caller (its token) and to the skill's content.
    #[arg(long, value_name = "FILE")]
    pub(super) grants_file: Option<PathBuf>,
    /// With --http: also accept this name in `Host` (a server bound to a non-loopback
    /// address is reached under its own name); repeatable.
    #[arg(long, value_name = "HOST", requires = "http")]
    pub(super) allow_host: Vec<String>,
    /// With --http: also accept requests from this browser origin (`https://app.example:443`);
    /// repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub(super) allow_origin: Vec<String>,
    /// With --http: hold at most N sessions at once (a request that would open one more
    /// gets 503 and Retry-After; idle sessions end after 5 minutes).
    #[arg(long, value_name = "N", requires = "http", default_value_t = crate::mcp::Options::default().max_sessions)]
    pub(super) max_sessions: usize,
    /// With --http: hold at most N connections open (the next waits in the listen queue);
    /// default 4096, or three quarters of the descriptor limit (`ulimit -n`) if lower.
    #[arg(long, value_name = "N", requires = "http")]
    pub(super) max_connections: Option<usize>,
    /// With --http: seconds a connection has to send a request's head (from when it is
    /// accepted or its previous answer ended), and again for the body; then it is closed.
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds, default_value = "10")]
    pub(super) header_read_timeout: std::time::Duration,
    /// With --http: seconds an answered connection may stay open with no request in
    /// progress.
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds, default_value = "5")]
    pub(super) idle_timeout: std::time::Duration,
}

/// A duration given in seconds (`0.5` allowed), above zero.
pub(super) fn seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a number of seconds above 0 (say 10, or 0.5)"))
}
