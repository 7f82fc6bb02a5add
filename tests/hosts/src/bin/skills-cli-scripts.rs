//! The `skills` command-line tool run through `skills_embed::run_cli` with Rust scripts, as a
//! skill author's own binary would (`CARGO_BIN_EXE_skills-cli-scripts` in `tests/hosts/cli_scripts.rs`).

use skills_embed::Script;

/// Counts the words of a text.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Text {
    /// The text.
    text: String,
}

fn count(args: Text) -> Result<usize, String> {
    Ok(args.text.split_whitespace().count())
}

/// Touches a file, then waits for ever (a script that outlives its client).
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Started {
    /// The file to create once running.
    started: String,
}

async fn wait(args: Started) -> Result<String, String> {
    std::fs::write(&args.started, "").map_err(|e| e.to_string())?;
    std::future::pending().await
}

fn main() -> std::process::ExitCode {
    skills_embed::run_cli([
        Script::new("word-count", "count", count),
        Script::new_async("word-count", "wait", wait),
    ])
}
