//! `mytool skill install|status|uninstall`: the commands that hand a binary's skills to the
//! coding agents its users run ([`SkillCommand`]), over [`disk::Install`](crate::disk::Install).
//! The `skills` CLI runs the same commands for a folder.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;
use clap::{Args, FromArgMatches, Subcommand};
use strum::{VariantArray, VariantNames};

use crate::__private::{InstallOp, install_with_progress};
use crate::SkillSet;
use crate::disk::{Agent, Install, InstallEntry, InstallReport, Scope};

/// A line on stdout; a closed pipe (`mytool skill status | head`) ends nothing: the work goes on
/// and the exit status still says how it went.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// The `skill` subcommand of a binary that embeds skills: `install`, `status` (alias `list`)
/// and `uninstall` (alias `remove`), with `gh skill install`'s flags where they overlap:
/// `--agent` (repeatable, comma-separated, or `all`; the agents detected by default),
/// `--scope project|user`, `--dir`, `--force` (keeps a backup) and `--dry-run`.
///
/// Exit status: 0 all done, 1 something left alone (a skill edited since it was installed, or
/// not installed by this tool, without `--force`; a write that failed), 2 usage or I/O.
///
/// Mounted in a clap command line, its help listing the embedded skills:
///
/// ```
/// use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
/// use skills_embed::SkillCommand;
///
/// skills_embed::skills!("examples/skills");
///
/// #[derive(Parser)]
/// #[command(name = "mytool")]
/// struct Cli {
///     #[command(subcommand)]
///     command: Command,
/// }
///
/// #[derive(Subcommand)]
/// enum Command {
///     /// Install this tool's skills into your coding agents.
///     Skill(SkillCommand),
/// }
///
/// let home = tempfile::tempdir()?;
/// let args = ["mytool", "skill", "install", "--dir", home.path().to_str().unwrap()];
/// let command = Cli::command().mut_subcommand("skill", |c| c.after_help(SKILLS.summary()));
/// let cli = Cli::from_arg_matches(&command.get_matches_from(args))?;
/// let Command::Skill(skill) = cli.command;
/// let code = skill.run(&SKILLS, "mytool", "1.0.0");
/// assert_eq!(code, std::process::ExitCode::SUCCESS);
/// assert!(home.path().join("pdf-forms/SKILL.md").is_file());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Args)]
// The doc above is for rustdoc: without this, clap prints it, code sample and all, as the
// subcommand's long help in place of the mounting variant's own line.
#[command(about = None, long_about = None)]
pub struct SkillCommand {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Action {
    /// Write the skills that are missing or outdated, remove the ones no longer shipped; leave
    /// alone those edited since or not installed by this tool (unless --force).
    Install(#[command(flatten)] Flags),
    /// Show each skill's state in each destination: missing, up-to-date, outdated, modified,
    /// foreign, orphaned.
    #[command(visible_alias = "list")]
    Status(#[command(flatten)] Flags),
    /// Remove the skills this tool installed that are unchanged.
    #[command(visible_alias = "remove")]
    Uninstall(#[command(flatten)] Flags),
}

/// Where to install, and how.
#[derive(Debug, Clone, Args)]
pub(crate) struct Flags {
    /// A coding agent to install for: repeatable or comma-separated, or `all`. Default: the
    /// agents whose folders exist in your home or the project.
    #[arg(long = "agent", value_name = "AGENT", value_delimiter = ',', value_parser = agent_parser())]
    agents: Vec<Choice>,
    /// `project`: the repository around the working folder (never the home folder);
    /// `user`: your home folder.
    #[arg(long, default_value = "project", value_parser = scope_parser())]
    scope: Scope,
    /// Install into this folder instead (overrides --agent and --scope).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Replace skills edited since they were installed, or not installed by this tool; each
    /// is first moved to `<folder>-backup/` beside the agent's folder.
    #[arg(long, short)]
    force: bool,
    /// Print what would be done, and write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// One `--agent` value: an agent, or all of them.
#[derive(Debug, Clone, Copy)]
enum Choice {
    One(Agent),
    All,
}

fn agent_parser() -> impl clap::builder::TypedValueParser<Value = Choice> {
    let names = <Agent as VariantNames>::VARIANTS
        .iter()
        .copied()
        .chain(["all"]);
    clap::builder::PossibleValuesParser::new(names)
        .map(|name: String| name.parse::<Agent>().map_or(Choice::All, Choice::One))
}

fn scope_parser() -> impl clap::builder::TypedValueParser<Value = Scope> {
    clap::builder::PossibleValuesParser::new(Scope::VARIANTS)
        .map(|name: String| name.parse::<Scope>().unwrap_or_default())
}

impl SkillCommand {
    /// Runs the command for `set`, recording `tool` and `version` (your binary's
    /// `env!("CARGO_PKG_NAME")` and `env!("CARGO_PKG_VERSION")`) in what it installs; prints a
    /// line per skill and destination and returns the exit status. Home, project and agents'
    /// variables come from the process ([`Install::from_env`]). [`SkillCommand`]'s example
    /// mounts it in a clap command line.
    ///
    /// ```
    /// use clap::{Args, FromArgMatches};
    /// use skills_embed::SkillCommand;
    /// skills_embed::skills!("examples/skills");
    /// let dir = tempfile::tempdir()?;
    /// let to = dir.path().to_str().unwrap();
    /// let parse = |args: &[&str]| {
    ///     let command = SkillCommand::augment_args(clap::Command::new("skill"));
    ///     SkillCommand::from_arg_matches(&command.get_matches_from(args))
    /// };
    /// let install = parse(&["skill", "install", "--dir", to])?;
    /// assert_eq!(install.run(&SKILLS, "mytool", "1.0.0"), std::process::ExitCode::SUCCESS);
    /// assert!(dir.path().join("pdf-forms/SKILL.md").is_file());
    /// let uninstall = parse(&["skill", "uninstall", "--dir", to])?;
    /// assert_eq!(uninstall.run(&SKILLS, "mytool", "1.0.0"), std::process::ExitCode::SUCCESS);
    /// assert!(!dir.path().join("pdf-forms").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run<Id>(&self, set: &SkillSet<Id>, tool: &str, version: &str) -> ExitCode {
        ExitCode::from(run(&self.action, set, Install::from_env(tool, version)))
    }

    /// The front for a binary without clap: parses `args` (what follows `skill` on your
    /// command line), with `--help` listing the embedded skills, then [`run`](Self::run)s.
    ///
    /// ```no_run
    /// skills_embed::skills!("examples/skills");
    ///
    /// fn main() -> std::process::ExitCode {
    ///     let mut args = std::env::args_os().skip(1);
    ///     if args.next().is_some_and(|a| a == "skill") {
    ///         return skills_embed::SkillCommand::main(&SKILLS, "mytool", env!("CARGO_PKG_VERSION"), args);
    ///     }
    ///     // ... the rest of your tool
    ///     std::process::ExitCode::SUCCESS
    /// }
    /// ```
    pub fn main<Id>(
        set: &SkillSet<Id>,
        tool: &str,
        version: &str,
        args: impl IntoIterator<Item = OsString>,
    ) -> ExitCode {
        let command = SkillCommand::augment_args(
            clap::Command::new("skill")
                .bin_name(format!("{tool} skill"))
                .about(format!("Install {tool}'s skills into your coding agents."))
                .after_help(format!("Skills shipped:\n{}", set.summary()))
                .subcommand_required(true),
        );
        let args = std::iter::once(OsString::from(tool)).chain(args);
        let parsed = command
            .try_get_matches_from(args)
            .and_then(|m| SkillCommand::from_arg_matches(&m));
        match parsed {
            Ok(command) => command.run(set, tool, version),
            Err(e) => {
                let _ = e.print();
                ExitCode::from(if e.use_stderr() { 2 } else { 0 })
            }
        }
    }
}

/// Runs `action` for `set` with `install`'s tool, home and project; the exit status (0, 1, 2).
pub(crate) fn run<Id>(action: &Action, set: &SkillSet<Id>, install: Install) -> u8 {
    let (flags, verb) = match action {
        Action::Install(flags) => (flags, Verb::Install),
        Action::Status(flags) => (flags, Verb::Status),
        Action::Uninstall(flags) => (flags, Verb::Uninstall),
    };
    let mut install = install
        .scope(flags.scope)
        .force(flags.force)
        .dry_run(flags.dry_run);
    let agents: Vec<Agent> = if flags.agents.iter().any(|c| matches!(c, Choice::All)) {
        <Agent as VariantArray>::VARIANTS.to_vec()
    } else {
        flags
            .agents
            .iter()
            .filter_map(|c| match c {
                Choice::One(agent) => Some(*agent),
                Choice::All => None,
            })
            .collect()
    };
    install = install.agents(agents);
    if let Some(dir) = &flags.dir {
        install = install.dir(dir);
    }
    let op = match verb {
        Verb::Install => InstallOp::Install,
        Verb::Status => InstallOp::Status,
        Verb::Uninstall => InstallOp::Uninstall,
    };
    // Each line as soon as its skill is done: a header before a destination's first skill.
    let mut progress = |report: &InstallReport| {
        let Some(entry) = report.entries.last() else {
            return;
        };
        if report.entries.len() == 1
            && let Some(root) = &report.root
        {
            out!("Project root: {}", root.display());
        }
        let previous = report
            .entries
            .iter()
            .rev()
            .nth(1)
            .map(|e| e.folder.parent());
        if previous != Some(entry.folder.parent()) {
            let dest = entry.folder.parent().unwrap_or(&entry.folder);
            let names: Vec<&str> = entry.agents.iter().map(|a| a.into()).collect();
            if names.is_empty() {
                out!("{}:", dest.display());
            } else {
                out!("{} ({}):", dest.display(), names.join(", "));
            }
        }
        out!("{}", line(entry));
    };
    match install_with_progress(&install, set, op, &mut progress) {
        Ok(report) => {
            if report.entries.is_empty() {
                out!("No skills to install, and none of ours installed.");
            }
            for hint in &report.hints {
                out!("hint: {hint}");
            }
            if flags.dry_run {
                out!("(dry run: nothing was written)");
            }
            u8::from(report.left_alone())
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// One skill in one destination: its name, state, and what was done.
fn line(entry: &InstallEntry) -> String {
    let mut line = format!("  {:<24} {}", entry.skill, entry.state);
    if let Some(version) = &entry.installed_version {
        line.push_str(&format!(" (installed by {version})"));
    }
    if !entry.action.is_empty() {
        line.push_str(&format!(": {}", entry.action));
    }
    if let Some(backup) = &entry.backup {
        line.push_str(&format!(", backup at {}", backup.display()));
    }
    if let Some(error) = &entry.error {
        line.push_str(&format!(": {error}"));
    }
    line
}

#[derive(Clone, Copy)]
enum Verb {
    Install,
    Status,
    Uninstall,
}
