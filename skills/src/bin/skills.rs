//! The `skills` command-line tool: validate, list, render and read folders of Agent Skills with
//! the same rules as the `skills!` macro.
//!
//! Exit codes: 0 success, 1 a skill failed validation (or a lookup missed), 2 usage or I/O error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use skills::SummaryFormat;
use skills::Tools;
use skills::parse::{Diagnostic, Profile, Rule, ScanOptions, Tree, scan};
use skills::tool::{OutputShape, ToolConfig, ToolStyle};

/// Validate, list, render and read folders of Agent Skills.
#[derive(Parser)]
#[command(name = "skills", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check skills; prints `FILE:LINE:COL: error[RULE]: message` per problem.
    Validate {
        /// Skill folders, SKILL.md files, or folders holding skills (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
    /// One row per skill: name, description, files, bytes.
    List {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// The L1 listing, byte-identical to what `skills!` embeds for the same folder.
    Prompt {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        #[command(flatten)]
        common: Common,
        /// Listing format.
        #[arg(long, value_enum, default_value_t = ListingFormat::Markdown)]
        format: ListingFormat,
    },
    /// The tool definition(s) as JSON, with the skills of PATH as the `skill` enum.
    Schema {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        #[command(flatten)]
        common: Common,
        /// Which flavour of tool JSON.
        #[arg(long, value_enum, default_value_t = SchemaFormat::JsonSchema)]
        format: SchemaFormat,
        /// One unified tool, or read_skill / read_skill_resource / load_skill_chunk.
        #[arg(long, value_enum, default_value_t = Style::Unified)]
        style: Style,
    },
    /// Print exactly what the model receives for a tool call; exit 1 when it is a tool error.
    Call {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        /// The tool's name (either style), e.g. load_skill or read_skill_resource.
        tool: String,
        /// The call's arguments as JSON, e.g. '{"skill":"pdf","path":"SKILL.md"}'.
        arguments: String,
        #[command(flatten)]
        common: Common,
        /// The frame around loaded content.
        #[arg(long, value_enum, default_value_t = Shape::Brackets)]
        shape: Shape,
        /// Characters of a resource per answer.
        #[arg(long, default_value_t = 12_000)]
        max_chars: usize,
    },
    /// Print a skill's body, or one of its files.
    Read {
        /// A folder of skills, a skill folder or a SKILL.md.
        path: PathBuf,
        /// The skill's name.
        skill: String,
        /// A path inside the skill (default: the body, `SKILL.md`).
        file: Option<String>,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(clap::Args)]
struct Common {
    /// Apply the lenient profile: warn on name/folder mismatch, long fields, unknown fields.
    #[arg(long)]
    lenient: bool,
}

impl Common {
    fn options(&self) -> ScanOptions {
        let profile = if self.lenient {
            Profile::Lenient
        } else {
            Profile::Strict
        };
        ScanOptions {
            profile,
            ..ScanOptions::default()
        }
    }
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

#[derive(Clone, Copy, ValueEnum)]
enum Style {
    Unified,
    Split,
}

#[derive(Clone, Copy, ValueEnum)]
enum Shape {
    Brackets,
    Xml,
}

#[derive(Clone, Copy, ValueEnum)]
enum ListingFormat {
    Markdown,
    Xml,
}

impl From<ListingFormat> for SummaryFormat {
    fn from(f: ListingFormat) -> Self {
        match f {
            ListingFormat::Markdown => SummaryFormat::Markdown,
            ListingFormat::Xml => SummaryFormat::Xml,
        }
    }
}

/// How a command ended.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Ok = 0,
    Invalid = 1,
    Usage = 2,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Validate {
            paths,
            common,
            format,
        } => validate(&paths, &common, format),
        Command::List { path, common } => list(&path, &common),
        Command::Prompt {
            path,
            common,
            format,
        } => prompt(&path, &common, format.into()),
        Command::Read {
            path,
            skill,
            file,
            common,
        } => read(&path, &skill, file.as_deref(), &common),
        Command::Schema {
            path,
            common,
            format,
            style,
        } => schema(&path, &common, format, style),
        Command::Call {
            path,
            tool,
            arguments,
            common,
            shape,
            max_chars,
        } => {
            let shape = match shape {
                Shape::Brackets => OutputShape::Brackets,
                Shape::Xml => OutputShape::Xml,
            };
            let config = ToolConfig {
                shape,
                max_chars,
                ..ToolConfig::default()
            };
            call(&path, &tool, &arguments, &common, config)
        }
    };
    ExitCode::from(outcome as u8)
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

fn validate(paths: &[PathBuf], common: &Common, format: ReportFormat) -> Outcome {
    let options = common.options();
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
    eprintln!(
        "checked {skills} skill{}: {errors} error{}, {} warning{}",
        plural(skills),
        plural(errors),
        all.len() - errors,
        plural(all.len() - errors)
    );
    outcome_of(&all)
}

fn diagnostic_json(d: &Diagnostic) -> serde_json::Value {
    serde_json::json!({
        "file": d.file.display().to_string(),
        "line": d.line,
        "column": d.column,
        "severity": d.severity.as_str(),
        "rule": d.rule.id(),
        "message": d.message,
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Scans, reports problems on stderr, and gives the valid skills as a set.
fn load(path: &Path, common: &Common, format: SummaryFormat) -> (skills::SkillSet, Outcome) {
    let tree: Tree = scan(path, &common.options());
    let (set, read_errors) = tree.load_set(format);
    let mut diagnostics = tree.diagnostics;
    diagnostics.extend(read_errors);
    for d in &diagnostics {
        eprintln!("{d}");
    }
    let skipped = tree.skills.iter().filter(|s| !s.valid).count();
    if skipped > 0 {
        eprintln!("skipped {skipped} invalid skill{}", plural(skipped));
    }
    (set, outcome_of(&diagnostics))
}

fn list(path: &Path, common: &Common) -> Outcome {
    let (set, outcome) = load(path, common, SummaryFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let width = set.names().map(str::len).max().unwrap_or(4).max(4);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:width$}  {:60}  {:>5}  {:>9}",
        "NAME", "DESCRIPTION", "FILES", "BYTES"
    );
    for skill in set.skills() {
        let bytes: usize = skill.files().iter().map(|f| f.bytes().len()).sum();
        let _ = writeln!(
            out,
            "{:width$}  {:60}  {:>5}  {:>9}",
            skill.name(),
            cut(skill.description(), 60),
            skill.files().len(),
            bytes
        );
    }
    outcome
}

/// The text on one line, cut to `max` chars with an ellipsis.
fn cut(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut s: String = one_line.chars().take(max - 1).collect();
    s.push('…');
    s
}

fn prompt(path: &Path, common: &Common, format: SummaryFormat) -> Outcome {
    let (set, outcome) = load(path, common, format);
    if outcome != Outcome::Usage {
        print!("{}", set.summary());
    }
    outcome
}

fn read(path: &Path, skill: &str, file: Option<&str>, common: &Common) -> Outcome {
    let (set, outcome) = load(path, common, SummaryFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    match set.load_by_name(skill, file.unwrap_or(skills::MANIFEST)) {
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

fn schema(path: &Path, common: &Common, format: SchemaFormat, style: Style) -> Outcome {
    let (set, outcome) = load(path, common, SummaryFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let style = match style {
        Style::Unified => ToolStyle::Unified,
        Style::Split => ToolStyle::Split,
    };
    let tools = Tools::new(&set).with_config(ToolConfig {
        style,
        ..ToolConfig::default()
    });
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

fn call(path: &Path, tool: &str, arguments: &str, common: &Common, config: ToolConfig) -> Outcome {
    let (set, outcome) = load(path, common, SummaryFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let out = Tools::new(&set).with_config(config).handle(tool, arguments);
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
