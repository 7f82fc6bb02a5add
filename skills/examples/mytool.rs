//! A tool that ships skills for the coding agents its users run: `mytool skill install`
//! (`--agent claude-code`, `--scope user`, `--dry-run`, ...), `mytool skill status`,
//! `mytool skill uninstall`.
//!
//! ```text
//! cargo run -p skills-embed --features install --example mytool -- skill install --agent claude-code
//! ```

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use skills_embed::SkillCommand;

skills_embed::skills!("examples/skills");

/// A tool that ships Agent Skills.
#[derive(Parser)]
#[command(name = "mytool", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Install this tool's skills into your coding agents (Claude Code, Codex, Copilot, ...).
    Skill(SkillCommand),
    /// Say hello (the tool's own work).
    Hello,
}

fn main() -> std::process::ExitCode {
    // The skills shipped, listed under `mytool skill --help`.
    let command = Cli::command().mut_subcommand("skill", |c| c.after_help(SKILLS.summary()));
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Skill(skill) => skill.run(&SKILLS, "mytool", env!("CARGO_PKG_VERSION")),
        Command::Hello => {
            println!("hello");
            std::process::ExitCode::SUCCESS
        }
    }
}
