//! The `skills` command-line tool, built here so that this crate's tests can run it
//! (`CARGO_BIN_EXE_skills-cli`): a test can only run its own package's binaries.

fn main() -> std::process::ExitCode {
    skills_embed::__cli_main()
}
