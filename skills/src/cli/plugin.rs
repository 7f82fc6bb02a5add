//! `skills plugin PATH... --out DIR`: the skills of PATH as a plugin folder for coding agents
//! ([`Plugin`](crate::package::Plugin)), its MCP server this tool's own `serve`.

use std::path::{Path, PathBuf};

use super::args::{Common, Target};
use super::install::strictly_valid;
use super::show::{Loaded, load};
use super::{Outcome, usage};
use crate::listing::ListingFormat;
use crate::package::{Plugin, PluginFormat};

/// What `skills plugin` was given besides PATH and the shared options.
pub(super) struct PluginArgs<'a> {
    pub(super) out: &'a Path,
    pub(super) formats: &'a [PluginFormat],
    pub(super) name: Option<&'a str>,
    pub(super) version: Option<&'a str>,
    pub(super) description: Option<&'a str>,
    pub(super) author: Option<&'a str>,
    pub(super) force: bool,
}

/// Checks PATH strictly, loads it, writes the plugin and prints each file written.
pub(super) fn plugin(paths: &[PathBuf], args: &PluginArgs<'_>, common: &Common) -> Outcome {
    if let Err(outcome) = strictly_valid(paths, "making a plugin of", common) {
        return outcome;
    }
    let Loaded { set, outcome, .. } = load(
        &Target::Paths(paths.to_vec()),
        common,
        &ListingFormat::Markdown,
    );
    if outcome != Outcome::Ok {
        return outcome;
    }
    let name = match args.name {
        Some(name) => name.to_owned(),
        None => std::path::absolute(args.out)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    };
    // The server is this binary under its own name, found on PATH where the client runs: the
    // `skills` tool, or a tool built on `run_cli` with its Rust scripts.
    let command = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "skills".into());
    let mut plugin = Plugin::new(name)
        .formats(args.formats.iter().copied())
        .server(command.as_str(), ["serve", "${PLUGIN_ROOT}/skills"])
        .force(args.force);
    if let Some(version) = args.version {
        plugin = plugin.version(version);
    }
    if let Some(description) = args.description {
        plugin = plugin.description(description);
    }
    if let Some(author) = args.author {
        plugin = plugin.author(author);
    }
    match plugin.write(&set, args.out) {
        Ok(files) => {
            let formats: Vec<String> = args.formats.iter().map(ToString::to_string).collect();
            println!(
                "wrote {} ({}): {} skill{}, MCP server `{command} serve <plugin>/skills`",
                args.out.display(),
                formats.join(", "),
                set.len(),
                super::check::plural(set.len()),
            );
            for file in &files {
                println!("{}", file.display());
            }
            Outcome::Ok
        }
        Err(e) => usage(&e.to_string()),
    }
}
