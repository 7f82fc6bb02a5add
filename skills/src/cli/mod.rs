//! The `skills` command-line tool: validate, list, render, read, call and extract folders of
//! Agent Skills with the same rules as the `skills!` macro.
//!
//! Exit codes: 0 success, 1 a skill failed validation (or a lookup missed), 2 usage or I/O error.
//!
//! `args` is the command line as clap reads it, `check` the `validate` command, `show` the
//! commands that print what a model or a user gets, `serve` the MCP server, `new` a new skill,
//! `install` the agents' folders, `plugin` plugin folders, `pack` archives and the well-known
//! folder.

mod args;
mod check;
mod install;
mod new;
mod pack;
mod plugin;
mod serve;
mod show;

use std::process::ExitCode;

use clap::Parser;

use crate::SkillSet;
use crate::parse::{Diagnostic, Rule};
use crate::tools::Settings;
use args::{Cli, Command, HttpArgs, split_target};
use serve::{HttpFlags, read_permissions, read_state_key, read_tokens};

/// How a command ended.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Outcome {
    Ok = 0,
    Invalid = 1,
    Usage = 2,
}

/// The Rust scripts of the binary this tool runs in ([`main_with`]), as an empty set's: `call`,
/// `schema` and `serve` attach them to the skills of those names. None for `skills` itself.
pub(crate) static BASE: std::sync::OnceLock<SkillSet> = std::sync::OnceLock::new();

pub(crate) fn base() -> &'static SkillSet {
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
            lenient,
            format,
            unreferenced,
        } => check::validate(&paths, &common, lenient, format, unreferenced),
        Command::List { target, common } => show::list(&target.target(), &common),
        Command::Menu { target, common } => show::menu(&target.target(), &common),
        Command::Prompt {
            target,
            common,
            format,
        } => show::prompt(&target.target(), &common, &format),
        Command::Schema {
            target,
            common,
            format,
            style,
        } => show::schema(&target.target(), &common, format, style),
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
            let (target, rest) = split_target("call", discover, args, "TOOL ARGS_JSON");
            show::call(&target, &rest[0], &rest[1], &common, config)
        }
        Command::Read {
            discover,
            args,
            common,
        } => {
            let (target, rest) = split_target("read", discover, args, "SKILL [FILE]");
            show::read(&target, &rest[0], rest.get(1).map(String::as_str), &common)
        }
        Command::Invoke {
            discover,
            args,
            common,
        } => {
            let (target, rest) = split_target("invoke", discover, args, "MESSAGE");
            show::invoke(&target, &rest[0], &common)
        }
        Command::Extract {
            path,
            skill,
            dest,
            common,
        } => show::extract(&path, &skill, &dest, &common),
        Command::New { name, dir } => new::new(&name, &dir),
        Command::Pack {
            paths,
            out,
            set,
            index,
            common,
        } => pack::pack(&paths, &out, set.as_deref(), index, &common),
        Command::Install { install } => {
            install::dispatch(install, crate::skill_command::Action::Install)
        }
        Command::Status { install } => {
            install::dispatch(install, crate::skill_command::Action::Status)
        }
        Command::Uninstall { install } => {
            install::dispatch(install, crate::skill_command::Action::Uninstall)
        }
        Command::Plugin {
            paths,
            out,
            format,
            name,
            version,
            description,
            author,
            force,
            common,
        } => plugin::plugin(
            &paths,
            &plugin::PluginArgs {
                out: &out,
                formats: &format,
                name: name.as_deref(),
                version: version.as_deref(),
                description: description.as_deref(),
                author: author.as_deref(),
                force,
            },
            &common,
        ),
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
                state_key_file,
                grants_file,
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
            let state_key = state_key_file.as_deref().map(read_state_key).transpose();
            match (rules, tokens, state_key) {
                (Ok(rules), Ok(tokens), Ok(state_key)) => {
                    let approvals = serve::Approvals {
                        state_key,
                        grants_file,
                    };
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
                    serve::serve(
                        &target.target(),
                        &common,
                        rules,
                        (&only, &deny),
                        config,
                        approvals,
                        http,
                    )
                }
                (Err(message), _, _) | (_, Err(message), _) | (_, _, Err(message)) => {
                    usage(&message)
                }
            }
        }
    };
    ExitCode::from(outcome as u8)
}

pub(crate) fn usage(message: &str) -> Outcome {
    eprintln!("error: {message}");
    Outcome::Usage
}

/// The skills a lenient reading left out, each SKILL.md with the rules of its errors: what
/// `list`, `serve` and the others name on stderr. A SKILL.md with an error that is not among
/// the `served` ones is a skill left out.
pub(crate) fn left_out(
    diagnostics: &[Diagnostic],
    served: &[std::path::PathBuf],
) -> Vec<(std::path::PathBuf, Vec<Rule>)> {
    let mut skills: Vec<(std::path::PathBuf, Vec<Rule>)> = Vec::new();
    let manifests = diagnostics.iter().filter(|d| {
        d.is_error()
            && d.file.file_name() == Some(crate::__private::MANIFEST.as_ref())
            && !served.contains(&d.file)
    });
    for d in manifests {
        match skills.iter_mut().find(|(file, _)| *file == d.file) {
            Some((_, rules)) if !rules.contains(&d.rule) => rules.push(d.rule),
            Some(_) => {}
            None => skills.push((d.file.clone(), vec![d.rule])),
        }
    }
    skills
}

/// One line naming the skills left out, for stderr and the MCP server's log.
pub(crate) fn left_out_line(skills: &[(std::path::PathBuf, Vec<Rule>)]) -> Option<String> {
    let named: Vec<String> = skills
        .iter()
        .map(|(file, rules)| {
            let rules: Vec<String> = rules.iter().map(Rule::to_string).collect();
            format!("{} ({})", file.display(), rules.join(", "))
        })
        .collect();
    (!named.is_empty()).then(|| {
        format!(
            "skipped {} skill{} that cannot be served (the errors above say why): {}",
            named.len(),
            check::plural(named.len()),
            named.join("; ")
        )
    })
}

/// The outcome a set of diagnostics calls for: a path that cannot be read is an I/O error.
pub(crate) fn outcome_of(diagnostics: &[Diagnostic]) -> Outcome {
    let io = |d: &Diagnostic| matches!(d.rule, Rule::MissingPath) && d.is_error();
    if diagnostics.iter().any(io) {
        Outcome::Usage
    } else if diagnostics.iter().any(Diagnostic::is_error) {
        Outcome::Invalid
    } else {
        Outcome::Ok
    }
}
